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

// TestOpenHarmonyDeviceKind shows OpenHarmony's first comment entry naming
// the kind of device, on user agents written for the test.
func TestOpenHarmonyDeviceKind(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{"Mozilla/5.0 (Phone; OpenHarmony 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/114.0.0.0 Safari/537.36 ArkWeb/4.1.6.1 Mobile",
			map[string]string{"DeviceClass": "Phone", "OperatingSystemName": "OpenHarmony"}},
		{"Mozilla/5.0 (PC; OpenHarmony 6.1; Windows NT 10.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/132.0.0.0 Safari/537.36 ArkWeb/6.1.0.100",
			map[string]string{"DeviceClass": "Desktop"}},
		{"com.example.browser (2in1;OpenHarmony-6.0.2.130;QQQ-W99) NetworkSDK/8.0.10.309",
			map[string]string{"DeviceClass": "Desktop"}},
		{"Mozilla/5.0 (Tablet; OpenHarmony 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/114.0.0.0 Safari/537.36 ArkWeb/4.1.6.1",
			map[string]string{"DeviceClass": "Tablet"}},
	})
}
