package uaparse

import (
	"strings"
	"testing"
)

// TestModelPrefixExamples checks every example of tables/model_prefixes.tsv:
// the example's longest prefix in the table gives the row's brand and class,
// and an Android browser's user agent naming the example model gets that
// brand (unless an earlier table names the maker) and class (a TV row's
// model may be a more specific Set-top box). Examples whose model reads as
// a robot or an attack ("M bot 54", "ECHO PUSH") are decided by those
// families, which outrank any device reading.
func TestModelPrefixExamples(t *testing.T) {
	ensureModel()
	a := New(Options{})
	for _, r := range loadTable("model_prefixes.tsv", tableColumns["model_prefixes.tsv"]) {
		class := strings.TrimPrefix(r[2], "-")
		for _, ex := range strings.Split(r[3], ",") {
			row, ok := modelPrefixOf(ex)
			if !ok || row.brand != r[1] || row.class != class {
				t.Errorf("model prefix %q (%s, %s): example %q gets %+v", r[0], r[1], r[2], ex, row)
				continue
			}
			ua := "Mozilla/5.0 (Linux; Android 10; " + ex + " Build/QP1A.190711.020) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36"
			res := a.Analyze(ua)
			if c := res.Get("DeviceClass"); c == "Hacker" || strings.HasPrefix(c, "Robot") {
				continue
			}
			if b, _ := brandOfModel(ex); (b == "" || !brandByShape(ex)) && res.Get("DeviceBrand") != r[1] {
				t.Errorf("model prefix %q (%s): %s gets brand %q", r[0], r[1], ua, res.Get("DeviceBrand"))
			}
			if b, _ := brandOfModel(ex); class != "" && (b == "" || b == r[1]) && modelClass(ex) == "" && res.Get("DeviceClass") != class &&
				!(class == "TV" && res.Get("DeviceClass") == "Set-top box") {
				t.Errorf("model prefix %q (%s): %s gets class %q", r[0], r[2], ua, res.Get("DeviceClass"))
			}
		}
	}
}

// TestModelPrefixesNoDeadRows requires every row of tables/model_prefixes.tsv
// to be read: a row whose examples all get another brand from an earlier
// table or rule that the row does not outrank, or the same brand but no
// class to add, changes no answer. A row outranks the catalogue, so an
// example the catalogue names another maker for keeps the row alive.
func TestModelPrefixesNoDeadRows(t *testing.T) {
	ensureModel()
	for _, r := range loadTable("model_prefixes.tsv", tableColumns["model_prefixes.tsv"]) {
		alive := false
		for _, ex := range strings.Split(r[3], ",") {
			b, _ := brandOfModel(ex)
			if b == "" || b != r[1] && !brandByShape(ex) || b == r[1] && r[2] != "-" && modelClass(ex) == "" {
				alive = true
			}
			if row, ok := catalogLookup(ex); ok && !row.device && row.brand != r[1] {
				alive = true
			}
		}
		if !alive {
			t.Errorf("model prefix %q (%s, %s): every example gets its maker elsewhere", r[0], r[1], r[2])
		}
	}
}

// TestModelPrefixLookup checks the longest-prefix rule, the letter a prefix
// of digits needs, and the removal of the brand's name from the model.
func TestModelPrefixLookup(t *testing.T) {
	ensureModel()
	saved, savedLengths := modelPrefixes, modelPrefixLengths
	defer func() { modelPrefixes, modelPrefixLengths = saved, savedLengths }()
	modelPrefixes = map[string]modelPrefix{
		"abc":   {brand: "Alpha"},
		"abcd-": {brand: "Beta", class: "Tablet"},
		"220":   {brand: "Gamma", digits: true},
	}
	modelPrefixLengths = map[string]uint32{"abc": 1<<3 | 1<<5, "220": 1 << 3}
	for _, c := range []struct {
		model, brand, class string
	}{
		{"ABC12", "Alpha", ""},
		{"abcd-7", "Beta", "Tablet"},
		{"ABCD7", "Alpha", ""},
		{"AB", "", ""},
		{"22087RA4DI", "Gamma", ""},
		{"22087", "", ""},
	} {
		r, _ := modelPrefixOf(c.model)
		if r.brand != c.brand || r.class != c.class {
			t.Errorf("%q: %+v, want %s %s", c.model, r, c.brand, c.class)
		}
	}
	for _, c := range []struct{ model, brand, rest string }{
		{"NUU_A1", "NUU Mobile", "A1"},
		{"RunboF1", "Runbo", "F1"},
		{"O+ Crunch", "O+", "Crunch"},
		{"X_TIGI_Photo P16", "X-TIGI", "Photo P16"},
		{"UMI_Diamond", "Umidigi", "Diamond"},
		{"Runbo", "Runbo", "Runbo"},
		{"YT5760L", "XY Auto", "YT5760L"},
		{"X5 Pro", "X-TIGI", "X5 Pro"},
		{"Tablet_DL_3411", "DL", "3411"},
		{"Smartphone DL Horizon H8", "DL", "Horizon H8"},
		{"Tablet S", "Sony", "Tablet S"},
		{"Kruger&Matz DRIVE 4", "Krüger&Matz", "DRIVE 4"},
		{"OWN S3000D", "öwn", "S3000D"},
		{"TA-2", "Tambo", "TA-2"},
		{"OV-Vertis-02", "Overmax", "OV-Vertis-02"},
		{"LG-X220", "LG", "X220"},
		{"DL_3411", "DL Tech", "3411"},
	} {
		if got := withoutBrandWords(c.model, c.brand); got != c.rest {
			t.Errorf("withoutBrandWords(%q, %q) = %q, want %q", c.model, c.brand, got, c.rest)
		}
	}
	// The maker's name as brands.tsv spells it comes off the model when the
	// row spells the maker otherwise; a name that only starts a word stays.
	for _, c := range []struct{ model, found, brand, rest string }{
		{"Ulefone_S1", "Ulefone", "Ulephone", "S1"},
		{"Ulefone Armor 6E", "Ulefone", "Ulephone", "Armor 6E"},
		{"ITELL_K3500N", "itel", "iLife", "ITELL_K3500N"},
	} {
		if b, rest, _ := prefixBrand(c.model, c.found, modelPrefix{brand: c.brand}); b != c.brand || rest != c.rest {
			t.Errorf("prefixBrand(%q, %q) = %q, %q, want %q, %q", c.model, c.found, b, rest, c.brand, c.rest)
		}
	}
}
