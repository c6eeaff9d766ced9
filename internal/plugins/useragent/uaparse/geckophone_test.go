package uaparse

import "testing"

// TestGeckoPhoneModel shows the model read from the platform comment of a
// KaiOS or Firefox OS phone that names no maker, with
// made-up model codes: the maker from the model's prefix in the brands
// table, or the model alone when no prefix is known; entries without a
// model code's shape (a locale, "rv:", lower case words) are not models,
// and a model that spells its maker keeps the reading it had.
func TestGeckoPhoneModel(t *testing.T) {
	dev := func(brand, name string) map[string]string {
		return map[string]string{"DeviceClass": "Phone", "DeviceBrand": brand, "DeviceName": name}
	}
	checkRuleCases(t, []ruleCase{
		{"Mozilla/5.0 (Mobile; rv:48.0; SM-B315E) Gecko/48.0 Firefox/48.0 KAIOS/2.5.1", dev("Samsung", "Samsung SM-B315E")},
		{"Mozilla/5.0 (Mobile; rv:48.0; A405XY) Gecko/48.0 Firefox/48.0 KAIOS/2.5", dev("Alcatel", "Alcatel A405XY")},
		{"Mozilla/5.0 (Mobile; QZ-7731B; rv:48.0) Gecko/48.0 Firefox/48.0 KAIOS/3.0", dev(Unknown, "QZ-7731B")},
		{"Mozilla/5.0 (Mobile; rv:32.0; QZ7731) Gecko/32.0 Firefox/32.0", dev(Unknown, "QZ7731")},
		// Not a model: a locale, the Gecko revision, a word.
		{"Mozilla/5.0 (Mobile; rv:48.0; es-419) Gecko/48.0 Firefox/48.0 KAIOS/2.5", dev(Unknown, Unknown)},
		{"Mozilla/5.0 (Mobile; rv:48.0) Gecko/48.0 Firefox/48.0 KAIOS/2.5", dev(Unknown, Unknown)},
		{"Mozilla/5.0 (Mobile; rv:48.0; phone2go) Gecko/48.0 Firefox/48.0 KAIOS/2.5", dev(Unknown, Unknown)},
		// The maker spelled out: read as before.
		{"Mozilla/5.0 (Mobile; rv:48.0; Nokia 2720 Flip) Gecko/48.0 Firefox/48.0 KAIOS/2.5.2", dev("Nokia", "Nokia 2720 Flip")},
	})
}
