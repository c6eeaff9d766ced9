package main

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/weir-streams/weir/internal/plugins/useragent/uaparse"
	"github.com/weir-streams/weir/tools/internal/generated"
)

// tablesBelow is spellingTables as paths below the repository's root.
func tablesBelow(root string) []string {
	var tables []string
	for _, t := range spellingTables {
		tables = append(tables, filepath.Join(root, t))
	}
	return tables
}

// TestCatalogueUpToDate checks that the committed catalogue is what the
// tool makes from the list in testdata and the analyzer's tables.
func TestCatalogueUpToDate(t *testing.T) {
	root := filepath.Join("..", "..")
	var out bytes.Buffer
	err := run(&out, filepath.Join(root, defaultIn), tablesBelow(root)...)
	if err != nil {
		t.Fatal(err)
	}
	generated.Check(t, root, "internal/plugins/useragent/uaparse/tables/catalog/android_models.tsv", out.Bytes(),
		"go run ./tools/uaplaymodels")
}

func TestBrandName(t *testing.T) {
	spell := map[string]string{"doogee": "Doogee", "tecnomobile": "Tecno Mobile"}
	for _, tc := range []struct{ retail, want string }{
		{"LGE", "LG"},                // mapped
		{"TCT (Alcatel)", "Alcatel"}, // mapped
		{"Onn (Walmart)", "Onn"},     // qualifier dropped
		{"DOOGEE", "Doogee"},         // the analyzer's spelling
		{"MLS Innovation", "MLS"},    // a company's word dropped
		{"Famous Fones", "Famous"},   // the same, spelt with an F
		{"Plaisio", "Turbo-X"},       // a retailer's house brand
		{"GSmart", "Gigabyte"},       // a maker's product line
		{"iQandT", "iQ&T"},           // the brand's own spelling
		{"UMIDIGI", "Umidigi"},       // capitals as the analyzer writes a maker's name
		{"BLU", "BLU"},               // three letters stay
		{"Tecno", "Tecno"},           // mapped before the spellings
		{"", ""},
	} {
		if got := brandName(tc.retail, spell); got != tc.want {
			t.Errorf("brandName(%q) = %q, want %q", tc.retail, got, tc.want)
		}
	}
}

func TestClassOf(t *testing.T) {
	for _, tc := range []struct{ name, maker, want string }{
		{"Galaxy Tab A SM-T510", "Samsung", "Tablet"},
		{"MatePad 11", "Huawei", "Tablet"},
		{"Lenovo TAB4 10", "Lenovo", "Tablet"},
		{"Mi TV Stick", "Xiaomi", "TV"},
		{"Chromecast HD", "Google", "TV"},
		{"Redmi Note 8", "Xiaomi", ""},
		{"Notepad X", "Example", ""},
		{"Tabby 5", "Example", ""},
		{"TECHPAD X5 Techpad X5", "Techpad", ""},
		{"V355B KLIPAD_V355B", "Klipad", ""},
		{"Galaxy Watch4 SM-R860", "Samsung", "Watch"},
		{"Beebox SWG2001A-A", "Beeline", "Set-top box"},
		{"Mi Box MIBOX3", "Xiaomi", "Set-top box"},
		{"Homatics Dongle Q", "Homatics", "Set-top box"},
		{"Chromebox CXI4", "AOpen", ""},
		{"RubikII7 TurboX", "Plaisio", ""},
		{"TicWatch Pro 3 TicWatch Pro 3", "Mobvoi", "Watch"},
		{"Wear OS by Google Smartwatch Julianna HR", "Fossil", "Watch"},
		{"V , FGL-00004 LifeWatch V", "LifeWatch", ""},
		{"Galaxy Camera 2 EK-GC200", "Samsung", "Camera"},
		{"Galaxy NX EK-GN120", "Samsung", "Camera"},
		{"COOLPIX S800c", "Nikon", "Camera"},
		{"BUSH SPIRA D5 Dual Camera BUSH SPIRA D5 Dual Camera", "Archos", ""},
		{"One M9+ (Prime Camera Edition) HTC 0PK71", "HTC", ""},
	} {
		if got := classOf(tc.name, tc.maker); got != tc.want {
			t.Errorf("classOf(%q, %q) = %q, want %q", tc.name, tc.maker, got, tc.want)
		}
	}
}

func TestBareCode(t *testing.T) {
	for _, tc := range []struct {
		model, maker string
		want         bool
	}{
		{"ZTE A2022P", "ZTE", true},
		{"Lenovo A7600-H", "Lenovo", true},
		{"Micromax AQ5001", "Micromax", true},
		{"Nokia G50", "Nokia", false},        // too short for a code
		{"Infinix S2 Pro", "Infinix", false}, // a marketing name
		{"Meizu Note 9", "Meizu", false},     // the same
		{"Pixus Titan", "Pixus", false},      // no digit
		{"Lava", "Lava", false},              // nothing after the maker's name
	} {
		rest, ok := afterMakerName(tc.model, tc.maker)
		if got := ok && bareCode(rest, uaparse.CatalogueKey(rest)); got != tc.want {
			t.Errorf("%q: bare code %v, want %v", tc.model, got, tc.want)
		}
	}
}

func TestRecordBrand(t *testing.T) {
	for _, tc := range []struct {
		record []string
		want   string
	}{
		{[]string{"ZTE", "nubia Music", "P963F11", "Z2353"}, "Nubia"},
		{[]string{"ZTE", "ZTE Blade V60", "P616F02", "Z2356"}, "ZTE"},
		{[]string{"Lenovo", "Motorola M", "XT1663", "XT1663"}, "Motorola"},
		{[]string{"Lenovo", "Moto TAB", "X704A", "TB-X704A"}, "Lenovo"}, // Lenovo's tablet, not an XT number
		{[]string{"TCT (Alcatel)", "TCL 30E", "Seoul", "6127A"}, "TCL"},
	} {
		if got := recordBrand(tc.record, map[string]string{}); got != tc.want {
			t.Errorf("recordBrand(%q) = %q, want %q", tc.record, got, tc.want)
		}
	}
}
