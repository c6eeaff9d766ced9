package uaparse

import "testing"

// TestOsmeta shows Facebook's apps on its osmeta layer, on user agents
// written for the test: on Windows 10 Mobile the layer's release is the
// system's and the device the Nokia type number; on a Windows computer the
// Windows NT entry names the system, the bracket the computer (FBMD, its
// maker by the first word, or by a product line of
// tables/model_prefixes.tsv when the maker's name is left out, without the kind of
// computer after it) and the release of Windows it runs (FBSV).
func TestOsmeta(t *testing.T) {
	for _, c := range []struct{ ua, class, brand, name, system, version string }{
		{"Mozilla/5.0 (osmeta like iPhone; U; osmeta 10.3.2132; RM-1045_1011) AppleWebKit/602.1.1 (KHTML, like Gecko) Mobile/2132 Example 10.32.0",
			"Mobile", "Nokia", "Nokia RM-1045 1011", "Windows Phone", "10.3.2132"},
		{"Mozilla/5.0 (Windows NT 10.0.16299.64; osmeta 10.3.3308) AppleWebKit/602.1.1 (KHTML, like Gecko) Version/9.0 Safari/602.1.1 osmeta/10.3.3308 Build/3308 [FBAN/FBW;FBAV/140.0.0.232.179;FBBV/83145113;FBDV/WindowsDevice;FBMD/HP ProBook 450 G5;FBSN/Windows;FBSV/10.0.16299.431;FBSS/1;FBCR/;FBID/desktop;FBLC/en_GB;FBOP/45;FBRV/0]",
			"Desktop", "HP", "HP ProBook 450 G5", "Windows NT", "10.0.16299.431"},
		{"Mozilla/5.0 (Windows NT 10.0.16299.64; osmeta 10.3.3308) AppleWebKit/602.1.1 (KHTML, like Gecko) Version/9.0 Safari/602.1.1 osmeta/10.3.3308 Build/3308 [FBAN/FBW;FBAV/140.0.0.232.179;FBBV/83145113;FBDV/WindowsDevice;FBMD/Example 15;FBSN/Windows;FBSV/10.0.16299.431;FBSS/1;FBCR/;FBID/desktop;FBLC/en_GB;FBOP/45;FBRV/0]",
			"Desktop", "Unknown", "Desktop", "Windows NT", "10.0.16299.431"},
		{"Mozilla/5.0 (Windows NT 10.0.16299.64; osmeta 10.3.3308) AppleWebKit/602.1.1 (KHTML, like Gecko) Version/9.0 Safari/602.1.1 osmeta/10.3.3308 Build/3308 [FBAN/FBW;FBAV/140.0.0.232.179;FBBV/83145113;FBDV/WindowsDevice;FBMD/Satellite Z999;FBSN/Windows;FBSV/10.0.16299.431;FBSS/1;FBCR/;FBID/desktop;FBLC/en_GB;FBOP/45;FBRV/0]",
			"Desktop", "Toshiba", "Toshiba Satellite Z999", "Windows NT", "10.0.16299.431"},
		// The kind of computer after the product's name is left out.
		{"Mozilla/5.0 (Windows NT 10.0.16299.64; osmeta 10.3.3308) AppleWebKit/602.1.1 (KHTML, like Gecko) Version/9.0 Safari/602.1.1 osmeta/10.3.3308 Build/3308 [FBAN/FBW;FBAV/140.0.0.232.179;FBBV/83145113;FBDV/WindowsDevice;FBMD/HP Pavilion dv9 Notebook PC;FBSN/Windows;FBSV/10.0.16299.431;FBSS/1;FBCR/;FBID/desktop;FBLC/en_GB;FBOP/45;FBRV/0]",
			"Desktop", "HP", "HP Pavilion dv9", "Windows NT", "10.0.16299.431"},
	} {
		r := New(Options{}).Analyze(c.ua)
		for attr, want := range map[string]string{"DeviceClass": c.class, "DeviceBrand": c.brand, "DeviceName": c.name,
			"OperatingSystemName": c.system, "OperatingSystemVersion": c.version} {
			if got := r.Get(attr); got != want {
				t.Errorf("%s of %q = %q, want %q", attr, c.ua, got, want)
			}
		}
	}
}

// TestOfficeDevice shows the computer the Office apps of the Windows store
// name as maker and model, on user agents written for the test: the maker
// as written (Yauaa's convention, "Dell Inc."), the app's name alone or
// after "Microsoft Office", and a model that starts with its maker's name
// not repeating it.
func TestOfficeDevice(t *testing.T) {
	desk := func(brand, name string) map[string]string {
		return map[string]string{"DeviceClass": "Desktop", "DeviceBrand": brand, "DeviceName": name, "OperatingSystemName": "Windows NT"}
	}
	checkRuleCases(t, []ruleCase{
		{"OneNote/16.0.4639.1000 (Windows/10.0; Desktop WOW64; en-GB; Desktop app; Dell Inc./Latitude 9999)", desk("Dell Inc.", "Dell Inc. Latitude 9999")},
		{"Microsoft Office OneNote/16.0.13801.20288 (Windows/10.0; Desktop x64; en-GB; Desktop app; LENOVO/81ZZ)", desk("LENOVO", "LENOVO 81ZZ")},
		{"Microsoft Office OneNote/16.0.11929.20436 (Windows/10.0; Desktop WOW64; en-AU; Desktop app; HP/HP Z999 Tower Workstation)", desk("HP", "HP Z999 Tower Workstation")},
	})
}
