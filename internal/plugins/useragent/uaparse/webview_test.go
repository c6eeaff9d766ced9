package uaparse

import "testing"

func TestOperatingSystemVersionBuild(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{"Mozilla/5.0 (Linux; Android 12; SM-A525F Build/SP1A.210812.016; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/107.0.5304.105 Mobile Safari/537.36",
			map[string]string{"OperatingSystemVersionBuild": "SP1A.210812.016"}},
		{"Dalvik/2.1.0 (Linux; U; Android 9; VKY-L29 Build/HUAWEIVKY-L29)",
			map[string]string{"OperatingSystemVersionBuild": "HUAWEIVKY-L29"}},
		{"Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/106.0.0.0 Safari/537.36",
			map[string]string{"OperatingSystemVersionBuild": "14541.0.0"}},
		{"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/70.0.3538.102 Safari/537.36 Edge/18.19582",
			map[string]string{"OperatingSystemVersionBuild": "19582"}},
		// A robot runs in a cloud without a build of its own.
		{"Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/99.0.4844.84 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
			map[string]string{"DeviceClass": "Robot Mobile"}},
		{"Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:109.0) Gecko/20100101 Firefox/115.0",
			map[string]string{"OperatingSystemVersionBuild": Unknown}},
	})
}

func TestFacebookBracket(t *testing.T) {
	ua := "Mozilla/5.0 (iPhone; CPU iPhone OS 16_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 " +
		"[FBAN/FBIOS;FBAV/390.0.0.28.107;FBBV/445112386;FBDV/iPhone13,2;FBMD/iPhone;FBSN/iOS;FBSV/16.1;FBSS/3;FBID/phone;FBLC/en_US;FBOP/5;FBCR/Vodafone]"
	checkRuleCases(t, []ruleCase{
		{ua, map[string]string{
			"AgentClass": "Browser Webview", "AgentBuild": "445112386",
			"FacebookCarrier": "Vodafone", "FacebookDeviceClass": "phone", "FacebookDeviceName": "iPhone",
			"FacebookDeviceVersion": "iPhone13,2", "FacebookFBOP": "5", "FacebookFBSS": "3",
			"FacebookOperatingSystemName": "iOS", "FacebookOperatingSystemVersion": "16.1",
			"WebviewAppName": "Facebook App for iOS", "WebviewAppVersion": "390.0.0.28.107",
			"WebviewAppVersionMajor": "390", "WebviewAppNameVersionMajor": "Facebook App for iOS 390",
		}},
		// A bracket cut short is read to the end.
		{"Mozilla/5.0 (iPad; CPU OS 10_3_3 like Mac OS X) AppleWebKit/603.3.8 (KHTML, like Gecko) Mobile/14G60 [FBAN/FBIOS;FBDV/iPad3,6;FBMD/iPad",
			map[string]string{"FacebookDeviceVersion": "iPad3,6", "FacebookDeviceName": "iPad", "FacebookCarrier": Unknown,
				"WebviewAppName": "Facebook App for iOS", "WebviewAppNameVersionMajor": "Facebook App for iOS ??"}},
	})
}

func TestWebviewApp(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{"Mozilla/5.0 (Linux; Android 12; SM-A525F Build/SP1A.210812.016; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/107.0.5304.105 Mobile Safari/537.36 Instagram 258.1.0.26.100 Android (31/12; 450dpi; 1080x2194; samsung; SM-A525F; a52q; qcom; en_GB; 409101474)",
			map[string]string{"WebviewAppName": "Instagram", "WebviewAppVersion": "258.1.0.26.100", "WebviewAppNameVersionMajor": "Instagram 258"}},
		{"Mozilla/5.0 (iPhone; CPU iPhone OS 15_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) GSA/180.0.384331730 Mobile/15E148 Safari/604.1",
			map[string]string{"WebviewAppName": "Google Search App", "WebviewAppVersionMajor": "180"}},
		{"Mozilla/5.0 (Linux; Android 13; Pixel 7 Build/TQ1A.230105.002; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/108.0.5359.128 Mobile Safari/537.36",
			map[string]string{"WebviewAppName": "Unknown Webview App", "WebviewAppVersion": Unknown, "WebviewAppNameVersionMajor": "Unknown Webview App ??"}},
		// Not a web view: no web view app.
		{"Mozilla/5.0 (Linux; Android 13; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/108.0.0.0 Mobile Safari/537.36",
			map[string]string{"WebviewAppName": Unknown, "WebviewAppNameVersionMajor": Unknown}},
	})
}

func TestAgentBuild(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{"MyShop/4.0.12 (com.example.myshop; build:189; iOS 15.4.1) Alamofire/5.4.4", map[string]string{"AgentBuild": "189"}},
		{"Example Mobile/iOS/9.124.2 (iPhone15,3/com.example.app/16.6.0) - Build 1184", map[string]string{"AgentBuild": "1184"}},
		{"curl/7.68.0", map[string]string{"AgentBuild": Unknown}},
	})
}

func TestUnknownVersionMark(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		// A known name with an unknown version: "Name ??".
		{"Mozilla/5.0 (Linux; Android) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/108.0.0.0 Mobile Safari/537.36",
			map[string]string{"OperatingSystemNameVersion": "Android ??"}},
		// An unknown name: Unknown, never "Unknown ??".
		{"Dalvik/2.1.0 (Linux; U; Android 9; VKY-L29 Build/HUAWEIVKY-L29)",
			map[string]string{"AgentName": Unknown, "AgentNameVersion": Unknown, "AgentNameVersionMajor": Unknown}},
	})
}

// TestIOSAppShapes covers the iOS apps around the system web view whose
// product the regular reading after "Mobile/<build>" does not accept.
func TestIOSAppShapes(t *testing.T) {
	app := func(name, version string) map[string]string {
		return map[string]string{"AgentClass": "Mobile App", "AgentName": name, "AgentVersionMajor": version}
	}
	checkRuleCases(t, []ruleCase{
		// The platform written where the version would be.
		{"Mozilla/5.0 (iPhone; CPU iPhone OS 12_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/16G77 NEWS-APP/iOS/TABLET/2.1.0",
			app("NEWS-APP", "iOS")},
		// A publisher's embedded browser: its own product, the app, the version.
		{"Mozilla/5.0 (iPhone; CPU iPhone OS 11_2 like Mac OS X) AppleWebKit/604.4.7 (KHTML, like Gecko) Mobile/15C114 EmbeddedBrowser/Kurier/512 KURIER",
			app("EmbeddedBrowser", "512")},
		// The same browser named after Mozilla's token, the app first.
		{"Mozilla/5.0 Kurier/612.1.0 EmbeddedBrowser (iPhone; CPU iPhone OS 13_3 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
			app("Kurier", "612")},
		{"Mozilla/5.0 Kurier/ EmbeddedBrowser (iPhone; CPU iPhone OS 13_3 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
			app("Kurier", Unknown)},
		// The parts after an app's slashes, a version and a model's
		// number, name no agent.
		{"Mozilla/5.0 (iPhone; CPU iPhone OS 15_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) EXCHANGE/iOS/3.2.0/iPhone 13/15.1/2",
			map[string]string{"AgentName": "EXCHANGE", "AgentVersionMajor": "iOS"}},
	})
}
