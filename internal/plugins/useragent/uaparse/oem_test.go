package uaparse

import "testing"

// TestWindowsOEMCodes shows rows of tables/windows_oem.tsv (Yauaa's
// WindowsOEMCodes lookup) naming the maker of a preinstalled Windows, on
// Internet Explorer user agents written for the test: a whole code, a
// maker's four letters with the "JS" edition, a code written twice (no
// model), and a code that names no maker.
func TestWindowsOEMCodes(t *testing.T) {
	const ie = "Mozilla/5.0 (compatible; MSIE 10.0; Windows NT 6.2; WOW64; Trident/6.0; "
	for _, c := range []struct{ code, brand, name string }{
		{"NP08", "Asus", "Asus Desktop"},
		{"MAM3", "MSI", "MSI Desktop"},
		{"TAJBJS", "Toshiba", "Toshiba Desktop"},
		{"MAAUJS", "Asus", "Asus Desktop"},
		{"MANM; MANM", "Hyrican", "Hyrican Desktop"},
		{"ZZZZ", "Unknown", "Desktop"},
	} {
		r := New(Options{}).Analyze(ie + c.code + ")")
		if got := r.Get("DeviceBrand"); got != c.brand {
			t.Errorf("DeviceBrand of %s = %q, want %q", c.code, got, c.brand)
		}
		if got := r.Get("DeviceName"); got != c.name {
			t.Errorf("DeviceName of %s = %q, want %q", c.code, got, c.name)
		}
	}
}
