package uaparse

import "testing"

// TestAnonymizerExamples analyses the example of every row of
// tables/anonymizers.tsv: the device is Anonymized, with the row's brand
// and name when it gives them.
func TestAnonymizerExamples(t *testing.T) {
	a := New(Options{})
	for _, r := range loadTable("anonymizers.tsv", tableColumns["anonymizers.tsv"]) {
		got := a.Analyze(r[3])
		if c := got.Get("DeviceClass"); c != "Anonymized" {
			t.Errorf("anonymizer %q: example gets DeviceClass %q, want Anonymized", r[0], c)
		}
		if r[1] == "-" {
			continue
		}
		if b, n := got.Get("DeviceBrand"), got.Get("DeviceName"); b != r[1] || n != r[2] {
			t.Errorf("anonymizer %q: example gets %q / %q, want %q / %q", r[0], b, n, r[1], r[2])
		}
	}
}
