package main

import (
	"reflect"
	"sort"
	"strings"
	"testing"
)

func TestAndroidModel(t *testing.T) {
	for ua, want := range map[string]string{
		"Mozilla/5.0 (Linux; Android 10; SM-G960F Build/QP1A.190711.020) AppleWebKit/537.36":         "SM-G960F",
		"Mozilla/5.0 (Linux; U; Android 7.0; en-US; XY5000 Build/NRD90M) AppleWebKit/537.36":         "XY5000",
		"Mozilla/5.0 (Linux; arm_64; Android 13; Example Pad 11) AppleWebKit/537.36":                 "Example Pad 11",
		"Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0": "",
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36":                               "",
		"App/1.0 (iOS 17.0) Other/2.0 (Linux; Android 9; EX-100)":                                    "EX-100",
	} {
		if got := androidModel(ua); got != want {
			t.Errorf("androidModel(%q) = %q, want %q", ua, got, want)
		}
	}
}

// TestDerive checks the support and purity thresholds, the shortest of
// nested prefixes, a longer prefix kept for its class, and the examples.
func TestDerive(t *testing.T) {
	models := []model{
		{"ABC100", "Alpha", "Phone"}, {"ABC200", "Alpha", "Phone"}, {"ABC300", "Alpha", "Phone"},
		{"ABT10", "Alpha", "Tablet"}, {"ABT20", "Alpha", "Tablet"}, {"ABT30", "Alpha", "Tablet"},
		{"XYZ1", "Beta", "Phone"}, {"XYZ2", "Gamma", "Phone"}, {"XYZ3", "Beta", "Phone"},
		{"QRS1", "Delta", "Phone"}, {"QRS2", "Delta", "Phone"},
	}
	got := derive(models, 3, 0.9, 3, nil)
	want := []row{
		{prefix: "abc", brand: "Alpha", n: 3, share: 1, examples: []string{"ABC100", "ABC200"}},
		{prefix: "abt", brand: "Alpha", class: "Tablet", n: 3, share: 1, examples: []string{"ABT10", "ABT20"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("derive = %+v, want %+v", got, want)
	}
	// With six "AB" models of one brand and a two-byte minimum, "ab" is
	// the row and "abt" is kept only for its class.
	got = derive(models, 3, 0.9, 2, nil)
	if len(got) != 2 || got[0].prefix != "ab" || got[1].prefix != "abt" || got[1].class != "Tablet" {
		t.Errorf("derive with two-byte prefixes = %+v", got)
	}
}

// TestDeriveNarrowsContradicted checks that a prefix the catalogue
// contradicts is no row and that a longer prefix of the row's maker's own
// models takes its place.
func TestDeriveNarrowsContradicted(t *testing.T) {
	models := []model{
		{"ABC100", "Alpha", "Phone"}, {"ABC101", "Alpha", "Phone"}, {"ABC102", "Alpha", "Phone"},
		{"ABC200", "Alpha", "Phone"},
	}
	contradicted := func(prefix, brand string) bool { return prefix == "abc" }
	got := derive(models, 3, 0.9, 3, contradicted)
	if len(got) != 1 || got[0].prefix != "abc1" || got[0].brand != "Alpha" {
		t.Errorf("derive with abc contradicted = %+v, want the row abc1", got)
	}
}

// TestCatalogueEvidence checks the counts of the catalogue check: models
// starting with the prefix as the analyzer matches it (separators kept,
// a digits-only prefix only for models with a letter), makers named
// alike or making the row's brand's devices counted as the row's brand.
func TestCatalogueEvidence(t *testing.T) {
	c := &catalogue{brands: map[string]string{
		"ab-1": "Alpha", "ab-2": "Beta", "ab-3": "Beta", "ab-4": "Beta", "ab5": "Gamma",
		"123": "Beta", "123a": "Alpha",
		"bgh joy": "ZTE", "bgh tv": "BGH", "bgh x": "ZTE",
		"rca 7": "RCA",
	}}
	for m := range c.brands {
		c.models = append(c.models, m)
	}
	sort.Strings(c.models)
	for _, tc := range []struct {
		prefix, brand  string
		models, others int
		contradicted   bool
	}{
		{"ab-", "Alpha", 4, 3, true},
		{"ab-", "Beta", 4, 1, false},
		{"ab", "Gamma", 5, 4, true},
		{"123", "Alpha", 1, 0, false},
		{"bgh", "BGH", 3, 0, false},
		{"rca", "RCA Tablets", 1, 0, false},
		{"zzz", "Alpha", 0, 0, false},
	} {
		n, o := c.evidence(tc.prefix, tc.brand)
		if n != tc.models || o != tc.others || c.contradicts(tc.prefix, tc.brand) != tc.contradicted {
			t.Errorf("evidence(%q, %q) = %d, %d, contradicted %v; want %d, %d, %v", tc.prefix, tc.brand, n, o,
				c.contradicts(tc.prefix, tc.brand), tc.models, tc.others, tc.contradicted)
		}
	}
}

// TestTableAgreesWithCatalogue runs the audit on the committed table: no
// row learned from the tuning part gives its brand to a prefix whose models
// Google's list gives mostly to other makers.
func TestTableAgreesWithCatalogue(t *testing.T) {
	c, err := readCatalogue("../../internal/plugins/useragent/uaparse/tables/catalog/android_models.tsv",
		"../../testdata/useragents/google-play-devices/supported_devices.csv.gz")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.models) < 30000 {
		t.Fatalf("catalogue has %d models, want the list's 30,000 and more", len(c.models))
	}
	var out strings.Builder
	bad, err := audit(&out, "../../internal/plugins/useragent/uaparse/tables/model_prefixes.tsv", c, false)
	if err != nil {
		t.Fatal(err)
	}
	if bad != 0 {
		for _, line := range strings.Split(out.String(), "\n") {
			if strings.HasPrefix(line, "contradicted") {
				t.Errorf("learned row the catalogue contradicts: %s", line)
			}
		}
	}
}
