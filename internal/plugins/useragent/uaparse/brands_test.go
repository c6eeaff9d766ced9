package uaparse

import "testing"

// TestBrandPrefixLengths guards the stack buffer of brandOfModel, which
// lower-cases only the first 32 bytes of a model: every brand and model
// prefix must fit in them.
func TestBrandPrefixLengths(t *testing.T) {
	for _, bp := range brandPrefixes {
		if len(bp.prefix) > 32 || len(bp.brand) > 32 {
			t.Errorf("brand prefix %q (%s) is longer than the 32 bytes brandOfModel compares", bp.prefix, bp.brand)
		}
	}
}

// TestBrandProductLines checks the product-line rows of tables/brands.tsv
// (a maker's series sold under its own name) with a model of each.
func TestBrandProductLines(t *testing.T) {
	ensureModel()
	for model, want := range map[string]string{
		"Flare S7": "Cherry Mobile", "CITI_7586_3G": "Digma", "Citi 1903 4G": "Digma", "Optima 8019N 4G": "Digma",
		"Plane 1573N 3G": "Digma", "ILIUM M7s": "Lanix", "Impress Eagle": "Vertex", "M-MP7S2A3G": "Mediacom",
		"M-PPG700": "Mediacom", "M-SP10EGP": "Mediacom", "TM-7055HD": "teXet", "VIA_A1": "Casper", "VIA A3": "Casper", "BQru-4526": "BQ", "Aquaris X5 Plus": "BQ", "BQS-4005": "BQ",
		"HiSmart 4K ATV4": "Hisense",
		"SIE-S55":         "Siemens",
	} {
		if b, _ := brandOfModel(model); b != want {
			t.Errorf("brandOfModel(%q) = %q, want %q", model, b, want)
		}
	}
}
