package uaparse

import "testing"

// TestAndroidClassWithoutSafari shows the class of an Android browser that
// says neither Mobile nor Tablet: with a Safari token that is the tablet
// convention of WebKit browsers ("Safari" where a phone says "Mobile
// Safari"); without one the missing word says nothing, and the device is a
// Mobile, as Yauaa answers for "... Version/4.0 Hawk/QuickBrowser/1.0.35".
// The models are made up.
func TestAndroidClassWithoutSafari(t *testing.T) {
	class := func(c string) map[string]string { return map[string]string{"DeviceClass": c} }
	checkRuleCases(t, []ruleCase{
		{"Mozilla/5.0 (Linux; Android 10; Qwzy T7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36", class("Tablet")},
		{"Mozilla/5.0 (Linux; Android 10; Qwzy P7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36", class("Phone")},
		{"Mozilla/5.0 (Linux; Android 10; Qwzy P7 Build/QP1A.190711.020; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/77.0.3865.120", class("Mobile")},
		{"Mozilla/5.0 (Linux; U; Android 4.2.2; en-us; Qwzy P8 Build/JDQ39) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 ExampleBrowser/1.0", class("Mobile")},
	})
}

// TestScreenTokenExamples analyses the example of every row of
// tables/screen_tokens.tsv: the device gets the class of the row's token.
func TestScreenTokenExamples(t *testing.T) {
	a := New(Options{})
	want := map[string]string{"Mobile": "Phone", "Tablet": "Tablet", "TV": "TV"}
	for _, r := range loadTable("screen_tokens.tsv", tableColumns["screen_tokens.tsv"]) {
		if c := a.Analyze(r[2]).Get("DeviceClass"); c != want[r[1]] {
			t.Errorf("screen token %q: example gets DeviceClass %q, want %q", r[0], c, want[r[1]])
		}
	}
	// Without the marker the same app on a phone is a phone.
	phone := "Mozilla/5.0 (Linux; arm_64; Android 13; Qwzy P8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/114.0.0.0 YaApp_Android/23.74 YaSearchBrowser/23.74 BroPP/1.0 SA/3 Mobile Safari/537.36"
	if c := a.Analyze(phone).Get("DeviceClass"); c != "Phone" {
		t.Errorf("%q: DeviceClass %q, want Phone", phone, c)
	}
}

// TestUCBrowserWindowsPhone shows UC Browser for Windows Phone, which names
// the system "wds" (tables/systems.tsv): a Windows Phone, not a Windows
// desktop. The model is made up.
func TestUCBrowserWindowsPhone(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{"UCWEB/2.0 (Windows; U; wds 8.10; en-US; NOKIA; RM-0000_example) U2/1.0.0 UCBrowser/4.2.1.541 U2/1.0.0 Mobile",
			map[string]string{"DeviceClass": "Phone", "OperatingSystemName": "Windows Phone", "OperatingSystemVersion": "8.10", "DeviceBrand": "Nokia"}},
	})
}

// TestPartnerFields shows the semicolon separated user agent of players of
// a partner API: an Amazon model is looked up as in a Fire OS user agent,
// another maker's model is named as written, an Echo named by its
// product name is a speaker or, the Echo Show, a smart display, and its
// ";Echo" is no shell command. The identifiers are made up.
func TestPartnerFields(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{"Amazon;Echo_Show_8;0123456789abcdef0123456789abcdef;;tpapi;3.199.422",
			map[string]string{"DeviceClass": "Smart Display", "DeviceBrand": "Amazon", "DeviceName": "Amazon Echo Show 8", "AgentClass": "Special"}},
		{"Amazon;Echo_Dot;0123456789abcdef0123456789abcdef;;tpapi;3.199.422",
			map[string]string{"DeviceClass": "Voice", "DeviceBrand": "Amazon", "DeviceName": "Amazon Echo Dot"}},
		{"Example;Echo_Dot;0123456789abcdef; echo hi",
			map[string]string{"DeviceClass": "Hacker"}},
		{"Amazon;AFTMM;0123456789abcdef0123456789abcdef;;tpapi;3.202.356",
			map[string]string{"DeviceClass": "Set-top box", "DeviceBrand": "Amazon", "OperatingSystemName": "FireOS"}},
		{"Amazon;AFTSO001;0123456789abcdef0123456789abcdef;;tpapi",
			map[string]string{"DeviceClass": "TV", "DeviceBrand": "JVC", "OperatingSystemName": "FireOS"}},
		{"Sonos;One;0123456789abcdef0123456789abcdef;;tpapi;3.81.91",
			map[string]string{"DeviceBrand": "Sonos", "DeviceName": "Sonos ONE"}},
	})
}

// TestTVBuilds checks that a build of Android's television branches makes
// a model of no class of its own a television, and that the builds of
// phones and tablets do not.
func TestTVBuilds(t *testing.T) {
	for _, b := range []string{"ptt5.181126.002", "qtt8.201201.002", "pto7.200925.001", "qtg1.230301.001", "rtt0.210829.002", "sttc.230104.002", "rt", "qt"} {
		if !tvBuild(b) {
			t.Errorf("tvBuild(%q) = false, want true", b)
		}
	}
	for _, b := range []string{"", "t", "qp1a.191105.004", "rp1a.200720.011", "tp1a.220624.014", "ppr2.180905.006.a1", "nhg47l", "pi", "st1", "rtt0.2108", "ttest.build"} {
		if tvBuild(b) {
			t.Errorf("tvBuild(%q) = true, want false", b)
		}
	}
	a := New(Options{})
	for ua, want := range map[string]string{
		"Dalvik/2.1.0 (Linux; U; Android 9; ADT-2 Build/PTT5.181126.002)":                                                                                                      "TV",
		"Mozilla/5.0 (Linux; Android 11; DV9135 Build/RT; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/122.0.6261.105 Mobile Safari/537.36":                   "TV",
		"Mozilla/5.0 (Linux; Android 11; 4K Google TV Stick Build/RTT0.210829.002; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/126.0.6478.134 Safari/537.36": "Set-top box",
		"Mozilla/5.0 (Linux; Android 11; SM-A125F Build/RP1A.200720.012) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/96.0.4664.45 Mobile Safari/537.36":                      "Phone",
	} {
		if got := a.Analyze(ua).Get("DeviceClass"); got != want {
			t.Errorf("%q: DeviceClass %q, want %q", ua, got, want)
		}
	}
}

// TestMobileVRHeadsets shows the headsets whose browser, Firefox Reality
// or its successor Wolvic, writes "Mobile VR" where a phone's writes
// "Mobile": a virtual reality headset, in Gecko's comment or after
// Chromium's version. The models are made up.
func TestMobileVRHeadsets(t *testing.T) {
	class := func(c string) map[string]string { return map[string]string{"DeviceClass": c} }
	checkRuleCases(t, []ruleCase{
		{"Mozilla/5.0 (Android 10; Mobile VR; rv:105.0) Gecko/105.0 Firefox/105.0 Wolvic/1.2", class("Virtual Reality")},
		{"Mozilla/5.0 (Linux; Android 10; Qwzy H1) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Mobile VR Wolvic/1.0", class("Virtual Reality")},
		{"Mozilla/5.0 (Linux; Android 10; Qwzy P7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36", class("Phone")},
	})
}

// TestTizenWatches shows Samsung's watches on Tizen by the series of their
// model code: the Galaxy Watch Active (SM-R5), the Gear Sport (SM-R6), the
// Gear S (SM-R7) and the Galaxy Watch (SM-R8); a Tizen phone (SM-Z) stays a
// phone. The variants are made up.
func TestTizenWatches(t *testing.T) {
	class := func(c string) map[string]string { return map[string]string{"DeviceClass": c} }
	checkRuleCases(t, []ruleCase{
		{"Mozilla/5.0 (Linux; Tizen 4.0; SAMSUNG SM-R500X) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/2.0 Chrome/56.0.2924.0 Mobile Safari/537.36", class("Watch")},
		{"Mozilla/5.0 (Linux; Tizen 4.0; SAMSUNG SM-R600X) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/2.0 Chrome/56.0.2924.0 Mobile Safari/537.36", class("Watch")},
		{"Mozilla/5.0 (Linux; Tizen 5.5; SAMSUNG SM-R800X) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/2.0 Chrome/69.0.3497.106 Mobile Safari/537.36", class("Watch")},
		{"Mozilla/5.0 (Linux; Tizen 3.0; SAMSUNG SM-Z400X) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/1.0 Chrome/47.0.2526.69 Mobile Safari/537.36", class("Phone")},
	})
}

// TestFeaturePhoneProducts shows the feature phones known by what only
// phones send: NTT docomo's i-mode product first, Openwave's browser under
// its first name (UP/), a maker's WAP-Browser product, and Qualcomm's
// BREW, a system of phones only. The models are made up.
func TestFeaturePhoneProducts(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{"DoCoMo/1.0/Q502i", map[string]string{"DeviceClass": "Mobile"}},
		{"DoCoMo/2.0 Q905i(c100;TB;W24H16)", map[string]string{"DeviceClass": "Mobile"}},
		{"SIE-Q45/2.1 UP/4.1.16r", map[string]string{"DeviceClass": "Mobile", "DeviceBrand": "Siemens"}},
		{"Karbonn Q595 WAP-Browser/1.0.0", map[string]string{"DeviceClass": "Mobile", "DeviceName": "Karbonn Q595"}},
		{"Mozilla/5.0 Opera/9.80 (KDDI-QW4A; BREW; Opera Mobi; U; ja) Presto/2.4.18 Version/10.00", map[string]string{"DeviceClass": "Phone", "OperatingSystemName": "BREW"}},
		{"Mozilla/4.0 (compatible; Polaris 6.2; Brew 3.1.5; en)/240X320 Samsung sam-q631", map[string]string{"DeviceClass": "Phone"}},
		// A product named DoCoMo after another is no i-mode phone.
		{"ExampleApp/1.0 DoCoMo/2.0", map[string]string{"DeviceClass": "Unknown"}},
	})
}

// TestCloudPhone shows CloudMosa's Cloud Phone, the platform of feature
// phones whose apps run in its cloud: a Phone, with or without its
// release. The model is made up.
func TestCloudPhone(t *testing.T) {
	class := func(c string) map[string]string { return map[string]string{"DeviceClass": c} }
	checkRuleCases(t, []ruleCase{
		{"Mozilla/5.0 (Cloud Phone 2.4; Qwzy 225 4G; UNISOC) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/132.0.6834.210 Mobile Safari/537.36 Puffin/132.0.8.80800FP", class("Phone")},
		{"Mozilla/5.0 (Cloud Phone; Generic) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.6367.243 Mobile Safari/537.36 Puffin/12.1.1.51391FP", class("Phone")},
	})
}
