package uaparse

import (
	"strings"
	"testing"
)

// TestModelCodeExamples checks every example of tables/model_codes.tsv:
// the model alone gets the row's brand, through brandOfModel as the rules
// call it.
func TestModelCodeExamples(t *testing.T) {
	ensureModel()
	rows := loadTable("model_codes.tsv", tableColumns["model_codes.tsv"])
	for _, r := range rows {
		for _, ex := range strings.Split(r[3], ",") {
			if b, _ := brandOfModel(ex); b != r[1] {
				t.Errorf("model code %q (%s): example %q gets brand %q", r[0], r[1], ex, b)
			}
		}
	}
}

// TestModelCodeShapes checks the matcher on shapes and models that must
// not match: a count, a class, the mixed flag and the whole-model rule.
func TestModelCodeShapes(t *testing.T) {
	cases := []struct {
		shape, flags, model string
		want                bool
	}{
		{"V#{4}@{0,2}", "-", "V2303A", true},
		{"V#{4}@{0,2}", "-", "V230", false},
		{"V#{4}@{0,2}", "-", "V2303ABC", false},
		{"V#{4}@{0,2}", "-", "v2303a", false},
		{"G%{4}", "mixed", "GB7N6", true},
		{"G%{4}", "mixed", "G1000", false},
		{"G%{4}", "mixed", "GABCD", false},
		{"#{3}SH", "-", "704sh", true},
		{"2#{7}@{1,3}", "-", "2210131", false},
		{"2#0#{5}@{1,3}", "-", "21051182G", true},
		{"2#0#{5}@{1,3}", "-", "20190619G", false},
		{"2#10#{4}@{1,3}", "-", "20190619G", false},
		{"U#{1,2}GT", "start", "U30GT C4", true},
		{"U#{1,2}GT", "start", "U30G", false},
		{"U#{1,2}GT", "-", "U30GT C4", false},
		{"@@#{4}PL", "word", "CS1235PL", true},
	}
	for _, c := range cases {
		mc, err := compileModelCode(c.shape, "X", c.flags)
		if err != nil {
			t.Fatal(err)
		}
		if got := mc.match(c.model); got != c.want {
			t.Errorf("shape %q on %q: %v, want %v", c.shape, c.model, got, c.want)
		}
	}
	if mc, err := compileModelCode("NX#{3}@{1,2}", "X", "sub-brand"); err != nil || !mc.subBrand || !mc.match("NX563J") {
		t.Errorf("sub-brand shape: %v, %v", mc, err)
	}
	ensureModel()
	if got := modelCodeBrand("CITI 10 E402 4G CS1235PL"); got != "Digma" {
		t.Errorf("a code as the last word: got brand %q, want Digma", got)
	}
	if got := modelCodeBrand("Galaxy CS1235PL X"); got != "" {
		t.Errorf("a code shape that is not the last word: got brand %q", got)
	}
	if _, err := compileModelCode("V#{4}", "X", "mixed,sub"); err == nil {
		t.Error("unknown flag compiled")
	}
	for _, bad := range []string{"", "#{0}", "#{2", "@{3,1}"} {
		if _, err := compileModelCode(bad, "X", "-"); err == nil {
			t.Errorf("shape %q compiled", bad)
		}
	}
}

// TestModelClassExamples checks every example of tables/model_classes.tsv,
// and that ordinary phone models get no class from it.
func TestModelClassExamples(t *testing.T) {
	ensureModel()
	for _, r := range loadTable("model_classes.tsv", tableColumns["model_classes.tsv"]) {
		for _, ex := range strings.Split(r[3], ",") {
			want := r[2]
			if want == "-" {
				// The word names no kind of device: no class, and the
				// Mobile token of the browser decides.
				want = ""
				for ua, class := range map[string]string{
					"Mozilla/5.0 (Linux; Android 7.0; " + ex + ") AppleWebKit/537.36 (KHTML, like Gecko) Chrome/76.0.3809.132 Mobile Safari/537.36": "Phone",
					"Mozilla/5.0 (Linux; Android 7.0; " + ex + ") AppleWebKit/537.36 (KHTML, like Gecko) Chrome/76.0.3809.132 Safari/537.36":        "Tablet",
				} {
					if got := New(Options{}).Analyze(ua).Get("DeviceClass"); got != class {
						t.Errorf("model class %s %q (-): %q gets DeviceClass %q, want %q", r[0], r[1], ua, got, class)
					}
				}
			}
			if got := modelClass(ex); got != want {
				t.Errorf("model class %s %q (%s): example %q gets %q", r[0], r[1], r[2], ex, got)
			}
		}
	}
	for _, m := range []string{"SM-G960F", "Pixel 7", "Redmi Note 8", "V2303A", "moto e13", "CPH2219", "22101316UCP", "Nokia 3.4", "LG-H961N", "TX9 Pro", "KM0702", "RunboX6", "RunboX5-W", "TurboX_Ray", "HTV-L09", "KOB2K-L09", "Lenovo A7000-a", "Lenovo A6020a40", "Lenovo A5000"} {
		if got := modelClass(m); got != "" {
			t.Errorf("phone model %q gets class %q", m, got)
		}
	}
}

// TestModelTablesNoLostRows guards against a row lost as a comment: a
// shape starting with "#" begins a comment line, so a comment line of these
// tables must hold no tab.
func TestModelTablesNoLostRows(t *testing.T) {
	for _, name := range []string{"model_codes.tsv", "model_classes.tsv"} {
		data, err := tableFiles.ReadFile("tables/" + name)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(line, "#") && strings.Contains(line, "\t") {
				t.Errorf("%s line %d: a row that starts with # is read as a comment; write the shape as ^#...", name, i+1)
			}
		}
	}
}

// TestShapedPrefixes checks which prefixes of brands.tsv another maker's
// model-code shape can start with: only their models are matched against
// the shapes (brandOfModel), and such a shape then names the maker.
func TestShapedPrefixes(t *testing.T) {
	ensureModel()
	shaped := map[string]bool{}
	for _, bp := range brandPrefixes {
		shaped[bp.prefix] = bp.shaped
	}
	for prefix, want := range map[string]bool{"mid": true, "lg": true, "sm-": false, "samsung": false, "nokia": false} {
		if got, ok := shaped[prefix]; !ok || got != want {
			t.Errorf("prefix %q: shaped %v (listed %v), want %v", prefix, got, ok, want)
		}
	}
	for model, want := range map[string]string{"MID7012": "Coby Kyros", "MID705": "Manta", "F32G8000C": "DEXP", "F3111": "Sony", "SM-G960F": "Samsung"} {
		if b, _ := brandOfModel(model); b != want {
			t.Errorf("brandOfModel(%q) = %q, want %q", model, b, want)
		}
	}
}

// TestSonySeriesDigits checks that Sony's model numbers are told by their
// series digit, as Google Play's list shows them: other makers' numbers of
// the same letter-and-digits shape, and short models that only start with
// one of Sony's letters and a digit, are not Sony's.
func TestSonySeriesDigits(t *testing.T) {
	ensureModel()
	checkMakerModels(t, "Sony",
		[]string{"C6903", "D2533", "E5823", "F8331", "G1109", "H9436", "J9110"},
		[]string{"C3600", "F4502", "E7533", "C11", "C1_Max", "E60w", "F5_Color_M5", "C50USY24F", "H32H5001SA"})
}

// TestCatNumbers checks that only the numbers of Caterpillar's phones are
// CAT's: other makers' S numbers and the models that only start with S3,
// S4, S6, T2 or B3 are not.
func TestCatNumbers(t *testing.T) {
	ensureModel()
	checkMakerModels(t, "CAT",
		[]string{"S42", "S48c", "S61", "S75", "Cat S62 Pro"},
		[]string{"S35", "S55", "S59", "S3_Pro", "S4020", "S452+", "S6", "T2000", "B3-A40"})
}

// TestLGVerizonNumbers checks LG's VK and VS numbers for Verizon against
// other makers' models that start with the same two letters.
func TestLGVerizonNumbers(t *testing.T) {
	ensureModel()
	checkMakerModels(t, "LG",
		[]string{"VK810", "VS985", "VS415PP", "VS980 4G", "VS995"},
		[]string{"VK700X", "vk6735", "VK-740-BL", "vKB011B", "VS5012", "VSD221"})
}

// checkMakerModels checks that brandOfModel gives brand for each of its
// models and another maker, or none, for each of others.
func checkMakerModels(t *testing.T, brand string, models, others []string) {
	t.Helper()
	for _, m := range models {
		if b, _ := brandOfModel(m); b != brand {
			t.Errorf("brandOfModel(%q) = %q, want %s", m, b, brand)
		}
	}
	for _, m := range others {
		if b, _ := brandOfModel(m); b == brand {
			t.Errorf("brandOfModel(%q) = %s, want another maker or none", m, brand)
		}
	}
}
