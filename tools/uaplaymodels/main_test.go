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
	for _, tc := range []struct{ name, want string }{
		{"Galaxy Tab A SM-T510", "Tablet"},
		{"MatePad 11", "Tablet"},
		{"Lenovo TAB4 10", "Tablet"},
		{"Mi TV Stick", "TV"},
		{"Chromecast HD", "TV"},
		{"Redmi Note 8", ""},
		{"Notepad X", ""},
		{"Tabby 5", ""},
	} {
		if got := classOf(tc.name); got != tc.want {
			t.Errorf("classOf(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}
