package uaparse

import "testing"

// TestLumiaDesktopMode shows Edge on Windows 10 Mobile asking for a page's
// desktop version, on user agents written for the test: the system stays
// the Windows 10 it sends, the device is the Lumia after the processor; a
// Windows tablet on ARM without a Lumia stays a tablet.
func TestLumiaDesktopMode(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{"Mozilla/5.0 (Windows NT 10.0; ARM; Lumia 999 Dual SIM) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/46.0.2486.0 Safari/537.36 Edge/13.10586",
			map[string]string{"DeviceClass": "Phone", "DeviceBrand": "Nokia", "DeviceName": "Nokia Lumia 999 Dual SIM", "OperatingSystemName": "Windows NT"}},
		{"Mozilla/5.0 (Windows NT 10.0; ARM; Trident/7.0; Touch; rv:11.0) like Gecko",
			map[string]string{"DeviceClass": "Tablet", "OperatingSystemName": "Windows NT"}},
	})
}
