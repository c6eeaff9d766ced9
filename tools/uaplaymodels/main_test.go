package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestCatalogueUpToDate checks that the committed catalogue is what the
// tool makes from the list in testdata and the analyzer's tables.
func TestCatalogueUpToDate(t *testing.T) {
	root := filepath.Join("..", "..")
	var out bytes.Buffer
	err := run(&out, filepath.Join(root, defaultIn), filepath.Join(root, defaultBrands), filepath.Join(root, defaultPrefixes))
	if err != nil {
		t.Fatal(err)
	}
	committed, err := os.ReadFile(filepath.Join(root, "internal/plugins/useragent/uaparse/tables/catalog/android_models.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out.Bytes(), committed) {
		t.Fatal("tables/catalog/android_models.tsv is not what tools/uaplaymodels makes; run\n" +
			"  go run ./tools/uaplaymodels > internal/plugins/useragent/uaparse/tables/catalog/android_models.tsv")
	}
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
