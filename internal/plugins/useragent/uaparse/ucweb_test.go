package uaparse

import "testing"

// TestUCOperaMiniPhone shows UC Browser's mode for phones that passes for
// Opera Mini, on user agents written for the test: the Linux platform is
// kept, and the phone and its model are read from the comment as from
// Android's; without the Mobile token, or from another browser, the same
// comment is a Linux desktop's.
func TestUCOperaMiniPhone(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{"UCWEB/2.0 (Linux; U; Opera Mini/7.1.32052/30.3697; en-US; Micromax_Q999) U2/1.0.0 UCBrowser/9.1.1.420 Mobile",
			map[string]string{"DeviceClass": "Phone", "DeviceBrand": "Micromax", "DeviceName": "Micromax Q999", "OperatingSystemName": "Linux"}},
		{"UCWEB/2.0 (Linux; U; Opera Mini/7.1.32052/30.3697; en-US; LG-E999 Build/JZO54K) U2/1.0.0 UCBrowser/8.8.1.359 Mobile",
			map[string]string{"DeviceClass": "Phone", "DeviceBrand": "LG", "DeviceName": "LG E999"}},
		{"UCWEB/2.0 (Linux; U; Opera Mini/7.1.32052/30.3697; en-US; Example) U2/1.0.0 UCBrowser/9.1.1.420",
			map[string]string{"DeviceClass": "Desktop", "DeviceName": "Linux Desktop"}},
		{"Example/2.0 (Linux; U; Opera Mini/7.1.32052/30.3697; en-US; Micromax_Q999) Mobile",
			map[string]string{"DeviceClass": "Desktop", "DeviceName": "Linux Desktop"}},
	})
}

// TestUCJavaEdition shows the Java edition of UC Browser for feature
// phones: the system it says it runs on is Java, where a phone's Java
// profile alone names none.
func TestUCJavaEdition(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{"UCWEB/2.0 (Java; U; MIDP-2.0; en-US; Nokia2690/10.10) U2/1.0.0 UCBrowser/9.4.0.342 U2/1.0.0 Mobile",
			map[string]string{"DeviceClass": "Phone", "OperatingSystemName": "Java", "OperatingSystemClass": "Mobile", "AgentName": "UCBrowser"}},
		{"Nokia2690/2.0 (10.10) Profile/MIDP-2.1 Configuration/CLDC-1.1",
			map[string]string{"OperatingSystemName": Unknown}},
	})
}

// TestUCiOSRelease shows the iOS release in UC Browser's own writings of
// the platform: "iPh OS" in its compact format, "CPU OS_" in its older one.
func TestUCiOSRelease(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{"UCWEB/2.0 (iOS; U; iPh OS 7_1; en-US; iPh6,1) U2/1.0.0 UCBrowser/9.6.0.401 U2/1.0.0 Mobile",
			map[string]string{"OperatingSystemName": "iOS", "OperatingSystemVersion": "7.1"}},
		{"UCWEB/8.9 (iPhone; CPU OS_5; en-US)AppleWebKit/534.1 U3/3.0.0 Mobile",
			map[string]string{"OperatingSystemName": "iOS", "OperatingSystemVersion": "5"}},
		{"Example/1.0 (iOS; Tablet)", map[string]string{"OperatingSystemName": "iOS", "OperatingSystemVersion": Unknown}},
	})
}

// TestUCiPhone shows the iPhone UC Browser's compact format writes "iPh".
func TestUCiPhone(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{"UCWEB/2.0 (iOS; U; iPh OS 7_1; en-US; iPh6,1) U2/1.0.0 UCBrowser/9.6.0.401 U2/1.0.0 Mobile",
			map[string]string{"DeviceClass": "Phone", "DeviceName": "Apple iPhone"}},
		{"Example/2.0 (iOS; U; iPh OS 7_1; en-US)",
			map[string]string{"DeviceName": "Apple iOS Device"}},
	})
}

// TestUCBlackBerry shows the BlackBerry model UC Browser's compact format
// writes before the firmware.
func TestUCBlackBerry(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{"UCWEB/2.0(BlackBerry; U; 7.1.0.346; en-us; 9360/7.1.0.346) U2/1.0.0 UCBrowser/8.1.0.216 U2/1.0.0 Mobile",
			map[string]string{"DeviceClass": "Phone", "DeviceBrand": "BlackBerry", "DeviceName": "BlackBerry 9360"}},
	})
}
