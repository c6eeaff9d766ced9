package uaparse

import "testing"

// TestKobo checks the Kobo reading apps and readers. The user agents are
// written for this test from the forms Kobo's software sends (the products
// named in kobo.go, a firmware string of a Kobo reader's browser); they are
// not Yauaa test cases, and the platform id and affiliate values are made up.
func TestKobo(t *testing.T) {
	a := New(Options{})
	for _, c := range []struct {
		ua   string
		want map[string]string
	}{
		{"Mozilla/5.0 (Linux; Android 9; SM-T510 Build/PPR1.180610.011; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/74.0.3729.157 Safari/537.36 KoboApp/8.11.24971 KoboPlatform Id/00000000-0000-0000-0000-000000004011 KoboAffiliate/Fnac",
			map[string]string{
				"DeviceName": "Samsung SM-T510", "AgentClass": "eReader", "AgentName": "KoboApp", "AgentVersion": "8.11.24971",
				"LayoutEngineClass": "eReader", "LayoutEngineName": "KoboApp", "LayoutEngineVersionMajor": "8",
				"WebviewAppName": "KoboApp", "WebviewAppNameVersionMajor": "KoboApp 8",
				"KoboPlatformId": "00000000-0000-0000-0000-000000004011", "KoboAffiliate": "Fnac",
			}},
		// The affiliate alone, without the app's version: the store is still known.
		{"Mozilla/5.0 (Linux; Android 12; Pixel 6 Build/SD1A.210817.036; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/96.0.4664.45 Mobile Safari/537.36 KoboApp/9.0.1 KoboAffiliate/Indigo",
			map[string]string{"AgentName": "KoboApp", "KoboAffiliate": "Indigo", "KoboPlatformId": Unknown}},
		{"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/538.1 (KHTML, like Gecko) Kobo Desktop Edition Safari/538.1",
			map[string]string{
				"DeviceName": "Apple Macintosh", "AgentClass": "eReader", "AgentName": "Kobo Desktop Edition", "AgentVersion": Unknown,
				"AgentNameVersion": "Kobo Desktop Edition ??", "LayoutEngineName": "AppleWebKit",
				"WebviewAppName": "Kobo Desktop Edition", "WebviewAppNameVersionMajor": "Kobo Desktop Edition ??",
				"KoboAffiliate": Unknown,
			}},
		{"Mozilla/5.0 (Linux; U; Android 2.0; fr-fr;) AppleWebKit/538.1 (KHTML, like Gecko) Version/4.0 Mobile Safari/538.1 (Kobo Libra 2 0387/4.38.21908)",
			map[string]string{"DeviceClass": "eReader", "DeviceBrand": "Kobo", "DeviceName": "Kobo Libra 2", "KoboPlatformId": Unknown}},
		// A browser that is no Kobo software has no Kobo attributes.
		{"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
			map[string]string{"KoboAffiliate": Unknown, "KoboPlatformId": Unknown, "AgentName": "Chrome"}},
	} {
		r := a.Analyze(c.ua)
		for attr, want := range c.want {
			if got := r.Get(attr); got != want {
				t.Errorf("%s of %q = %q, want %q", attr, c.ua, got, want)
			}
		}
	}
}
