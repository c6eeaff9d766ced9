package main

import (
	"reflect"
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
	got := derive(models, 3, 0.9, 3)
	want := []row{
		{prefix: "abc", brand: "Alpha", n: 3, share: 1, examples: []string{"ABC100", "ABC200"}},
		{prefix: "abt", brand: "Alpha", class: "Tablet", n: 3, share: 1, examples: []string{"ABT10", "ABT20"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("derive = %+v, want %+v", got, want)
	}
	// With six "AB" models of one brand and a two-byte minimum, "ab" is
	// the row and "abt" is kept only for its class.
	got = derive(models, 3, 0.9, 2)
	if len(got) != 2 || got[0].prefix != "ab" || got[1].prefix != "abt" || got[1].class != "Tablet" {
		t.Errorf("derive with two-byte prefixes = %+v", got)
	}
}
