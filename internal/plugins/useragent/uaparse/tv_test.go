package uaparse

import "testing"

// TestHisenseMarker shows which user agents naming Hisense are its
// televisions: VIDAA, or Hisense on a platform other than Android; a
// Hisense Android model is a phone or a tablet like any other. The models
// are made up in Hisense's shapes.
func TestHisenseMarker(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{"Mozilla/5.0 (Linux; Android 11; Hisense E50 Lite) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36",
			map[string]string{"DeviceClass": "Phone", "DeviceBrand": "Hisense", "DeviceName": "Hisense E50 Lite", "OperatingSystemName": "Android"}},
		{"Mozilla/5.0 (Linux; Android 11; Hisense Infinity H60 5G Build/RP1A.200720.011; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/120.0.0.0 Mobile Safari/537.36",
			map[string]string{"DeviceClass": "Phone", "DeviceBrand": "Hisense", "OperatingSystemName": "Android"}},
		{"Mozilla/5.0 (X11; Linux x86_64;) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/47.0.2526.106 Safari/537.36 SRAF/4.0 Hisense/1.0",
			map[string]string{"DeviceClass": "TV", "DeviceBrand": "Hisense", "OperatingSystemName": "Vidaa"}},
	})
}
