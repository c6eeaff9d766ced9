package uaparse

import (
	"strings"
	"testing"
)

// TestCatalogueWellFormed checks the catalogue's layout, which the binary
// search relies on: three columns, keys written by CatalogueKey, strictly
// sorted, a known class; and that every row is found.
func TestCatalogueWellFormed(t *testing.T) {
	ensureModel()
	rows := strings.Split(strings.TrimSuffix(androidModels[androidModelsStart:], "\n"), "\n")
	if len(rows) < 30000 {
		t.Fatalf("catalogue has %d rows, want the whole list (more than 30,000)", len(rows))
	}
	prev := ""
	for i, line := range rows {
		cols := strings.Split(line, "\t")
		if len(cols) == 4 && cols[3] == "device" {
			cols = cols[:3]
		}
		if len(cols) != 3 {
			t.Fatalf("row %d %q: %d columns, want 3, or 4 with device", i, line, len(cols))
		}
		key, brand, class := cols[0], cols[1], cols[2]
		if key <= prev {
			t.Fatalf("row %d: key %q does not sort after %q", i, key, prev)
		}
		prev = key
		if CatalogueKey(key) != key {
			t.Errorf("row %d: key %q is not written as CatalogueKey writes it (%q)", i, key, CatalogueKey(key))
		}
		if brand == "" || strings.TrimSpace(brand) != brand {
			t.Errorf("row %d: brand %q", i, brand)
		}
		if class != "-" && class != "Tablet" && class != "TV" && class != "Set-top box" && class != "Watch" && class != "Camera" {
			t.Errorf("row %d: class %q is not -, Tablet, TV, Set-top box, Watch or Camera", i, class)
		}
		if r, ok := catalogLookup(key); !ok || r.brand != brand {
			t.Fatalf("row %d: lookup of %q gives %+v, %v", i, key, r, ok)
		}
	}
	for _, miss := range []string{"", "a", "ab", "zzzzzzzz", "0", "!!!", strings.Repeat("x", 200)} {
		if r, ok := catalogLookup(miss); ok {
			t.Errorf("lookup of %q found %+v", miss, r)
		}
	}
}

// TestCatalogueExamples checks what the catalogue changes in whole user
// agents: the maker of a bare model code, a maker whose codes look like
// another's, the class from the marketing name, and the cases where a
// prefix row or the model's own words keep their answer.
func TestCatalogueExamples(t *testing.T) {
	a := New(Options{})
	for _, tc := range []struct {
		model, brand, name, class string
	}{
		// Bare model codes no rule names.
		{"H270", "DEXP", "DEXP H270", ""},
		{"S40Pro", "Doogee", "Doogee S40PRO", ""},
		// OnePlus sells models with codes of OPPO's shape.
		{"CPH2449", "Oneplus", "Oneplus CPH2449", ""},
		// Written with dashes and underscores as the list writes them
		// without.
		{"M40_Air_EEA", "Teclast", "", ""},
		// The marketing name says tablet, the user agent says Mobile.
		{"AGS2-W19", "Huawei", "", "Tablet"},
		// The marketing name says watch or camera: a Galaxy Watch4 and a
		// Galaxy Camera, whose browsers send Mobile Safari as a phone's.
		{"SM-R860", "Samsung", "", "Watch"},
		{"EK-GC100", "Samsung", "", "Camera"},
		{"COOLPIX S800c", "Nikon", "", "Camera"},
		// A box that the marketing name calls one: Beeline's Beebox.
		{"SWG2001A-A", "Beeline", "", "Set-top box"},
		// Google sold the Nexus phones under its name.
		{"Nexus 5", "Google", "Google Nexus 5", ""},
		// A prefix row of the brand the models are sold under outranks
		// the catalogue's maker (ZTE, Alcatel).
		{"BGH Joy Smart A6", "BGH", "", ""},
		{"HEYOU60", "Essentielb", "", ""},
		// The exact model outranks a maker's code shape: TCL sells
		// models with Alcatel's codes, Acer with ZTE's.
		{"5124J", "TCL", "TCL 5124J", ""},
		{"Z160", "Acer", "Acer Z160", ""},
		// A shape flagged sub-brand outranks the catalogue's maker.
		{"NX563J", "Nubia", "Nubia NX563J", ""},
		// A device's code name, as firmware and custom systems report
		// it; written with capitals, a code name is not taken for one.
		{"rosemary", "Xiaomi", "", ""},
		{"lineage_j5y17lte", "Samsung", "", ""},
		{"AOSP on Manta", "Google", "", ""},
		{"Vienna", "BlackBerry", "", ""},
		// The Xperia devices launched under Sony's name, which Google's
		// list files under Sony Ericsson; the older ones stay its.
		{"SO-04D", "Sony", "", ""},
		{"SOL22", "Sony", "", ""},
		{"SO-02C", "SonyEricsson", "", ""},
		// Toshiba's REGZA Phones, which the list files under Fujitsu.
		{"T-01C", "Toshiba", "", ""},
		// TCL's phones and tablets, which the list files under "TCT
		// (Alcatel)" with a marketing name that starts with TCL; its
		// Alcatels stay Alcatel's.
		{"6127A", "TCL", "", ""},
		{"A509DL", "TCL", "", ""},
		{"7040N", "Alcatel", "", ""},
		// A retailer's house brand, and a company's brand without the
		// company's word.
		{"RubikII7", "Turbo-X", "", ""},
		{"Famous 5Plus", "Famous", "", ""},
	} {
		ua := "Mozilla/5.0 (Linux; Android 10; " + tc.model + ") AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36"
		r := a.Analyze(ua)
		if got := r.Get("DeviceBrand"); got != tc.brand {
			t.Errorf("%s: DeviceBrand %q, want %q", tc.model, got, tc.brand)
		}
		if got := r.Get("DeviceName"); tc.name != "" && got != tc.name {
			t.Errorf("%s: DeviceName %q, want %q", tc.model, got, tc.name)
		}
		if got := r.Get("DeviceClass"); tc.class != "" && got != tc.class {
			t.Errorf("%s: DeviceClass %q, want %q", tc.model, got, tc.class)
		}
	}
}
