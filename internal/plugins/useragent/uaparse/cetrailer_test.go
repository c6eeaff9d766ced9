package uaparse

import "testing"

// TestCETrailerTV checks that the consumer electronics trailer "(Vendor,
// Model, wired)" or "(Vendor, Model, wireless)" at the end of a user agent
// that names no other device makes a television of that vendor, and that
// the trailer elsewhere or in another shape does not. The user agents are
// written for the test.
func TestCETrailerTV(t *testing.T) {
	a := New(Options{})
	for _, c := range []struct {
		ua, class, brand, name string
	}{
		{"Opera/9.80 (Linux mips; ) Presto/2.12.407 Version/12.51 XY90/1.2.3 (EXAMPLEVISION, QX1234, wireless)",
			"TV", "Examplevision", "Examplevision QX1234"},
		{"Opera/9.80 (Linux armv7l) Presto/2.12.407 Version/12.51 , Box-7/V1.2 (Examplebox, EB-700,wired)",
			"TV", "Examplebox", "Examplebox EB-700"},
		{"Opera/9.80 (Linux mips; ) Presto/2.12.407 Version/12.51 (EXAMPLEVISION, QX1234, wireless) Extra/1.0",
			"Desktop", "Unknown", "Linux Desktop"},
		{"Opera/9.80 (Linux mips; ) Presto/2.12.407 Version/12.51 (EXAMPLEVISION, QX1234, rev 2, wireless)",
			"Desktop", "Unknown", "Linux Desktop"},
	} {
		r := a.Analyze(c.ua)
		if r.Get("DeviceClass") != c.class || r.Get("DeviceBrand") != c.brand || r.Get("DeviceName") != c.name {
			t.Errorf("%s: %s, %s, %s; want %s, %s, %s", c.ua, r.Get("DeviceClass"), r.Get("DeviceBrand"), r.Get("DeviceName"),
				c.class, c.brand, c.name)
		}
	}
}
