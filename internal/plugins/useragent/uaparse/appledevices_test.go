package uaparse

import "testing"

// TestAppleDeviceVersion shows rows of tables/apple_devices.tsv (Yauaa's
// AppleDeviceVersion lookup) giving an Apple device's DeviceVersion, on
// user agents written for the test: the family word of Safari's comment,
// a model identifier in an app's comment (read back across the comma that
// splits it), in a product's version and in Meta's bracket, which outrank
// the family word, and a robot that sends an iPhone's tokens, which has no
// device version.
func TestAppleDeviceVersion(t *testing.T) {
	for _, c := range []struct{ ua, want string }{
		{"Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1", "iPad"},
		{"Mozilla/5.0 (iPod touch; CPU iPhone OS 12_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/12.1 Mobile/15E148 Safari/604.1", "iPod touch"},
		{"ExampleApp/3.2 (iPhone12,1; iOS 16.6; Scale/2.00)", "iPhone 11"},
		{"com.example.Reader/2.1 iPhone/16.6 hw/iPhone12_1", "iPhone 11"},
		{"Mozilla/5.0 (iPhone; CPU iPhone OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBDV/iPhone12,1;FBMD/iPhone;FBSN/iOS;FBSV/16.6;FBSS/2]", "iPhone 11"},
		{"Mozilla/5.0 (iPhone; CPU iPhone OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1 (compatible; ExampleBot/1.0; +https://example.org/bot)", "Unknown"},
	} {
		if got := New(Options{}).Analyze(c.ua).Get("DeviceVersion"); got != c.want {
			t.Errorf("DeviceVersion of %q = %q, want %q", c.ua, got, c.want)
		}
	}
}

// TestAppleHardware shows an app or service that is no browser naming the
// Apple device it runs on only by the model identifier of
// tables/apple_devices.tsv, or by a bare marketing name, on user agents
// written for the test: the class, the brand, the name and the system
// follow from the identifier; a robot and a device of another maker keep
// their own answers.
func TestAppleHardware(t *testing.T) {
	for _, c := range []struct{ ua, class, brand, name, system, version string }{
		{"ExampleTunes/1.2.3 OSX/0 (MacBookPro6,2)", "Desktop", "Apple", "Apple Macintosh", "Mac OS", "MacBook Pro (15-inch, Mid 2010)"},
		{"Linux UPnP/1.0 Example/54.2-72031 (MDCR_Macmini8,1)", "Desktop", "Apple", "Apple Macintosh", "Mac OS", "Mac mini (2018)"},
		{"Linux UPnP/1.0 Sonos/54.2-72031 (ICRU_iPhone11,6)", "Phone", "Apple", "Apple iPhone", "iOS", "iPhone XS Max"},
		{"ExampleCasts/2.0.2 iPod_touch/13.4.1 hw/iPod9_1", "Phone", "Apple", "Apple iPod Touch", "iOS", "iPod touch (7th gen)"},
		{"ExampleReader/1.0 (reader/8.0; iOS11.4.1; iPhone10,1)", "Phone", "Apple", "Apple iPhone", "iOS", "iPhone 8 (A1863/A1906)"},
		{"Watch1,1/4.3.2 (15U70)", "Watch", "Apple", "Apple Watch", "watchOS", "Apple Watch"},
		{"iPhone11ProMax", "Phone", "Apple", "Apple iPhone", "iOS", "iPhone 11 Pro Max"},
		{"iPhone12mini", "Phone", "Apple", "Apple iPhone", "iOS", "iPhone 12 mini"},
		{"iPhoneSE2ndGen", "Phone", "Apple", "Apple iPhone", "iOS", "iPhone SE 2nd Gen"},
		{"iPadAir", "Tablet", "Apple", "Apple iPad", "iOS", "iPad Air"},
		{"ExampleTunes-iPad/5.1.1 (4; 32GB; dt:77)", "Tablet", "Apple", "Apple iPad", "iOS", ""},
		{"ExampleTunes-iPhone/4.3.3 (4; 16GB)", "Phone", "Apple", "Apple iPhone", "iOS", ""},
		{"Linux UPnP/1.0 Sonos/53.3-71050 (ZPS12)", "Unknown", "Sonos", "Sonos ZPS12", "Linux", "Unknown"},
		{"Sonos/71.0-37271 (Play:3)", "Unknown", "Sonos", "Sonos Play:3", "Unknown", "Unknown"},
		{"ExampleCrawler/1.0 (+https://example.org/bot; iPhone10,1)", "Robot Mobile", "", "", "", ""},
	} {
		r := New(Options{}).Analyze(c.ua)
		for attr, want := range map[string]string{"DeviceClass": c.class, "DeviceBrand": c.brand, "DeviceName": c.name,
			"OperatingSystemName": c.system, "DeviceVersion": c.version} {
			if got := r.Get(attr); want != "" && got != want {
				t.Errorf("%s of %q = %q, want %q", attr, c.ua, got, want)
			}
		}
	}
}
