package uaparse

import "testing"

// TestGeckoPhoneModel shows the model read from the platform comment of a
// KaiOS or Firefox OS phone that names no maker, with
// made-up model codes: the maker from the model's prefix in the brands
// table, or the model alone when no prefix is known; entries without a
// model code's shape (a locale, "rv:", lower case words) are not models,
// a model that spells its maker keeps the reading it had, and a maker the
// brands table does not know is read from KaiOS's "<Maker>_<Model>",
// "<Maker>/<Model>/<firmware>" and "<MAKER> <model code>" forms, unless
// the word is a carrier's tag before a model code whose shape names a brand.
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
		// A maker the brands table does not know, in KaiOS's forms.
		{"Mozilla/5.0 (Mobile; Examplo_Q24_4G; rv:48.0) Gecko/48.0 Firefox/48.0 KAIOS/2.5.3.2", dev("Examplo", "Examplo Q24 4G")},
		{"Mozilla/5.0 (Mobile; EXAMPLO_FLIP_II; rv:48.0) Gecko/48.0 Firefox/48.0 KAIOS/2.5.1", dev("Examplo", "Examplo Flip II")},
		{"Mozilla/5.0 (Mobile; Examplo/Q24K/Examplo-Q24K-001-06-24-271223;Android; rv:48.0) Gecko/48.0 Firefox/48.0 KAIOS/2.5.3.2", dev("Examplo", "Examplo Q24K")},
		{"Mozilla/5.0 (Mobile; EXAMPLO QK241; rv:48.0) Gecko/48.0 Firefox/48.0 KAIOS/2.5.1", dev("Examplo", "Examplo QK241")},
		// A carrier's tag before the code of a phone made for it: the
		// code's shape names the brand.
		{"Mozilla/5.0 (Mobile; ATT_U2030AA; rv:84.0) Gecko/84.0 Firefox/84.0 KAIOS/3.1", dev("At&t", "At&t U2030AA")},
		{"Mozilla/5.0 (Mobile; CKT_U103AC; rv:48.0) Gecko/48.0 Firefox/48.0 KAIOS/2.5.3.1", dev("Cricket", "Cricket U103AC")},
		// A space before words is no maker and model.
		{"Mozilla/5.0 (Mobile; Example phone; rv:48.0) Gecko/48.0 Firefox/48.0 KAIOS/2.5", dev(Unknown, Unknown)},
	})
}
