package uaparse

import "testing"

// TestIOSReleaseInAppComment shows the release of iOS read where apps
// write it in their comment: against the system's name, and in a later
// entry after a bare platform entry; user agents written for the test.
func TestIOSReleaseInAppComment(t *testing.T) {
	ios := func(v string) map[string]string {
		return map[string]string{"OperatingSystemName": "iOS", "OperatingSystemVersion": v}
	}
	checkRuleCases(t, []ruleCase{
		{"ExampleApp/1.0 (reader/8.0; iOS11.4.1; iPhone10,1)", ios("11.4.1")},
		{"ExampleApp/3.85 (iPhone; iOS; iOS 15.6.1; d:16910714; 113F)", ios("15.6.1")},
		{"example.app/3.6.2 (ios; U; iOS 14.7.1; en-CA; iPhone 11)", ios("14.7.1")},
		// A bare platform entry alone still names the system only.
		{"ExampleApp/3.85 (iPhone; iOS; d:16910714)", ios("Unknown")},
	})
}

// TestSystemAfterSafari shows a custom Android system's signature after the
// stock browser's Safari token leaving the stock browser the agent; a user
// agent written for the test.
func TestSystemAfterSafari(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{"Mozilla/5.0 (Linux; U; Android 4.2.2; en-us; Nexus 4 Build/JDQ39E) AppleWebKit/534.30 (KHTML, like Gecko) Version/4.0 Mobile Safari/534.30 CyanogenMod/10.1.3/mako",
			map[string]string{"AgentClass": "Browser", "AgentName": "Stock Android Browser", "OperatingSystemName": "Android"}},
	})
}

// TestPlatformOnlyApp shows an app whose whole user agent is its name and
// its platform, with the store it came from and no version; user agents
// written for the test.
func TestPlatformOnlyApp(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{"ExampleCast/Android (Play)", map[string]string{"AgentClass": "Mobile App", "AgentName": "ExampleCast", "AgentVersion": "Unknown", "OperatingSystemName": "Android"}},
		{"ExampleCast/iOS (Download)", map[string]string{"AgentClass": "Mobile App", "AgentName": "ExampleCast", "OperatingSystemName": "iOS"}},
	})
}

// TestAndroidCommentOnly shows an Android browser's user agent cut after
// its comment: the stock browser on WebKit, where a bare Mozilla token
// on another system stays Netscape; user agents written for the test.
func TestAndroidCommentOnly(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{"Mozilla/5.0 (Linux; Android 7.0; EX1234 Build/NRD90M)",
			map[string]string{"AgentName": "Stock Android Browser", "AgentVersion": "7.0", "LayoutEngineName": "AppleWebKit"}},
		{"Mozilla/5.0 (X11; Linux x86_64)", map[string]string{"AgentName": "Netscape"}},
	})
}
