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
		if len(cols) == 4 && (cols[3] == "device" || cols[3] == "bare") {
			cols = cols[:3]
		}
		if len(cols) != 3 {
			t.Fatalf("row %d %q: %d columns, want 3, or 4 with device or bare", i, line, len(cols))
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
		// A variant's letter after a listed code; a sub-brand's shape
		// still names the sub-brand.
		{"SO51Aa", "Sony", "", ""},
		{"NX529Jq", "Nubia", "", ""},
		// A device's code name, as firmware and custom systems report
		// it; written with capitals, a code name is not taken for one.
		{"rosemary", "Xiaomi", "", ""},
		{"lineage_j5y17lte", "Samsung", "", ""},
		{"AOSP on Manta", "Google", "", ""},
		{"Vienna", "BlackBerry", "", ""},
		// A code name in capitals, with a digit and six characters or
		// more, where no rule named a maker; a shorter one is not taken.
		{"AC45NE", "Archos", "", ""},
		{"C70W", "Unknown", "", ""},
		// "Model " before a model is a build's word, unless the list
		// names the whole as a model.
		{"Model SM-G960F", "Samsung", "Samsung SM-G960F", ""},
		{"Model 5", "Hyatta", "Hyatta Model 5", ""},
		// A custom system's code name the list has only as the start of
		// its variants' code names, or with a region's suffix; one it
		// does not know stays unknown.
		{"lineage_osprey", "Motorola", "", ""},
		{"lineage_A6020", "Lenovo", "", ""},
		{"lineage_serranoltexx", "Samsung", "", ""},
		{"lineage_zzzzzz", "Unknown", "", ""},
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
		// A product line or sub-brand the list files as a retail
		// brand, by its maker (GSmart, SKY EVO).
		{"Akta_A4", "Gigabyte", "", ""},
		{"Elite L55", "Sky", "", ""},
		// A code the list writes after its maker's name ("ZTE A2022P",
		// "Lenovo A7600-H"), reported bare; a marketing name so written
		// ("Nokia G50") is not taken bare.
		{"A2022P", "ZTE", "ZTE A2022P", ""},
		{"A7600-H", "Lenovo", "", ""},
		{"G50", "Unknown", "", ""},
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

// TestCatalogueAppSyntaxes checks the apps' syntaxes that write a device
// without its maker, which only the catalogue names.
func TestCatalogueAppSyntaxes(t *testing.T) {
	a := New(Options{})
	for _, tc := range []struct{ ua, brand, name string }{
		// The code name as a product after the system's.
		{"Pandora/2401.1 Android/13 beyond1q (ExoPlayerLib1.5.14.1)", "Samsung", "Samsung BEYOND1Q"},
		// The model first in the comment of an app named for Android.
		{"Pinterest for Android/10.1.0 (H270; 12)", "DEXP", "DEXP H270"},
		// The model first in a comment whose next entry is the system.
		{"PodcastPlayer/3.1 (S40Pro; Android 11)", "Doogee", "Doogee S40PRO"},
		// A capitalised word is no code name.
		{"Pandora/2401.1 Android/13 Mobile (ExoPlayerLib1.5.14.1)", "Unknown", ""},
	} {
		r := a.Analyze(tc.ua)
		if got := r.Get("DeviceBrand"); got != tc.brand {
			t.Errorf("%s: DeviceBrand %q, want %q", tc.ua, got, tc.brand)
		}
		if got := r.Get("DeviceName"); tc.name != "" && got != tc.name {
			t.Errorf("%s: DeviceName %q, want %q", tc.ua, got, tc.name)
		}
	}
}
