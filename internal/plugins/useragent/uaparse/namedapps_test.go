package uaparse

import "testing"

// TestNamedApps shows rows of tables/named_apps.tsv (Yauaa's
// NONWebViewAppNamesMapping lookup) naming the agent, on user agents
// written for the test around the table's product names; before the table
// each was the browser, web view or bare product it carries.
func TestNamedApps(t *testing.T) {
	app := func(class, name, version string) map[string]string {
		return map[string]string{"AgentClass": class, "AgentName": name, "AgentVersion": version, "WebviewAppName": "Unknown"}
	}
	checkRuleCases(t, []ruleCase{
		// A browser that appends its name without a version to Chrome's.
		{"Mozilla/5.0 (Linux; Android 13; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36 Presearch (Tempest)",
			app("Browser", "Presearch", "Unknown")},
		// An Android package id as the product name.
		{"com.google.android.apps.searchlite/512345 (Linux; U; Android 13; en_US; Pixel 7; Build/TQ3A.230805.001; Cronet/116.0.5845.72)",
			app("Mobile App", "Google Go", "512345")},
		// An app in the system web view names itself: not a web view app.
		{"TV Bro/2.0 Mozilla/5.0 (Linux; Android 12; BRAVIA 4K VH2 Build/STT1.211025.001.Z4; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/118.0.5993.111 Safari/537.36",
			app("Mobile App", "TV Bro", "2.0")},
		// The maker's spelling of a lower case token.
		{"Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 mailapp/7.1.0",
			app("Email Client", "MailApp", "7.1.0")},
		{"WorxWeb/23.9.0 CFNetwork/1474 Darwin/23.0.0", app("Mobile App", "Citrix WorxWeb", "23.9.0")},
		// A product name with a space.
		{"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Ghostery Dawn/2023.10",
			app("Browser", "Ghostery Dawn", "2023.10")},
		// A named product whose version is a processor tag leaves the
		// version of the app's own token.
		{"Mozilla/5.0 (Linux; Android 13; Pixel 7 Build/TQ3A.230805.001; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/116.0.5845.72 Mobile Safari/537.36 XWEB/1160065 MicroMessenger/8.0.40.2420(0x28002837) WeChat/arm64 Weixin NetType/WIFI",
			map[string]string{"AgentClass": "Mobile App", "AgentName": "WeChat", "AgentVersion": "8.0.40.2420"}},
		// A robot that names an app is still a robot: the robot reading
		// outranks the app's name.
		{"Mozilla/5.0 (compatible; ExampleBot/1.0) Presearch",
			map[string]string{"DeviceClass": "Robot", "AgentClass": "Robot", "AgentName": "ExampleBot"}},
	})
}

// TestBrowserTags shows rows of tables/browser_tags.tsv (Yauaa's
// BrowserTagToNameMapping lookup) refining a Chrome reading, on user
// agents written for the test: a browser that adds its product after
// Chrome's, with or without a version, and a browser or web view the other
// rules found, which a tag does not undo.
func TestBrowserTags(t *testing.T) {
	const chrome = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/96.0.4664.110 Safari/537.36 "
	checkRuleCases(t, []ruleCase{
		{chrome + "Iridium/2021.12", map[string]string{"AgentName": "Iridium", "AgentVersion": "2021.12"}},
		{chrome + "LBBROWSER", map[string]string{"AgentName": "Liebao Browser", "AgentVersion": "96.0.4664.110"}},
		{chrome + "AlohaBrowser/3.1.4", map[string]string{"AgentName": "Aloha Browser", "AgentVersion": "3.1.4"}},
		// A browser found by tables/browsers.tsv stays.
		{chrome + "Vivaldi/5.0.2497.38", map[string]string{"AgentName": "Vivaldi", "AgentVersion": "5.0.2497.38"}},
		// So does the system web view an app's tag names.
		{"Mozilla/5.0 (Linux; Android 12; Pixel 5 Build/SP1A.210812.016; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/96.0.4664.104 Mobile Safari/537.36 Quark/5.4.9.201",
			map[string]string{"AgentClass": "Browser Webview", "AgentName": "Chrome Webview"}},
	})
}
