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
