package uaparse

import "testing"

// Each structural rule with the examples it was written for. The user
// agents are public default user agents of the tools and libraries named,
// not Yauaa test cases; the DEV halves in TestDevAccuracy check that the
// rules do not cost accuracy elsewhere.

type ruleCase struct {
	ua   string
	want map[string]string
}

func checkRuleCases(t *testing.T, cases []ruleCase) {
	t.Helper()
	a := New(Options{})
	for _, c := range cases {
		r := a.Analyze(c.ua)
		for attr, want := range c.want {
			if got := r.Get(attr); got != want {
				t.Errorf("%s of %q = %q, want %q", attr, c.ua, got, want)
			}
		}
	}
}

func TestLibraryNamed(t *testing.T) {
	for _, c := range []struct {
		name string
		want bool
	}{
		{"apache-httpasyncclient", true}, {"java-http-client", true}, {"http_request2", true},
		{"winhttprequest", true}, {"lua-resty-http", true}, {"libcurl", true}, {"pycurl", true}, {"r-curl", true},
		{"bbchttpclient", true}, // named as a library; libraryAt still wants it first
		{"-httpclient", false}, {"firefox", false}, {"curling", false}, {"httpd", false}, {"chrome", false},
	} {
		if got := libraryNamed(c.name); got != c.want {
			t.Errorf("libraryNamed(%q) = %v, want %v", c.name, got, c.want)
		}
	}
	robot := func(name, agent string) map[string]string {
		return map[string]string{"DeviceClass": "Robot", "OperatingSystemName": "Cloud", "AgentClass": "Robot",
			"LayoutEngineClass": "Robot", "AgentName": agent, "DeviceName": name}
	}
	checkRuleCases(t, []ruleCase{
		{"Apache-HttpAsyncClient/4.1.4 (Java/1.8.0_292)", robot("Apache HttpAsyncClient", "Apache-HttpAsyncClient")},
		{"libcurl/7.64.1 r-curl/4.3.2 httr/1.4.2", robot("Libcurl", "Libcurl")},
		// lua-resty-http is also a fact of tables/named_robots.tsv, whose
		// company (LedgeTech) outranks the first word of the name.
		{"lua-resty-http/0.16.1 (Lua) ngx_lua/10019", robot("LedgeTech LUA-Resty-Http", "Lua-Resty-Http")},
		// An app's own HTTP layer after the app stays the app's.
		{"BBCiPlayer/4.75.0.1 (iPad2,5; iPhone OS 9.3.5) BBCSMP/36.2.0 BBCHTTPClient/8.0.2",
			map[string]string{"DeviceClass": "Tablet", "AgentName": "BBCiPlayer", "AgentClass": "Special"}},
	})
}

func TestIdentifierVersion(t *testing.T) {
	for _, c := range []struct {
		v    string
		want bool
	}{
		{"3F2504E0-4F89-11D3-9A0C-0305E82C3301", true}, {"0123456789abcdef01", true},
		{"78.0", false}, {"1.2.3.4", false}, {"deadbeef", false},
	} {
		if got := identifierVersion(c.v); got != c.want {
			t.Errorf("identifierVersion(%q) = %v, want %v", c.v, got, c.want)
		}
	}
	checkRuleCases(t, []ruleCase{
		{"Mozilla/5.0 (X11; Linux x86_64; rv:78.0) Gecko/20100101 Firefox/78.0 DeviceId/3F2504E0-4F89-11D3-9A0C-0305E82C3301",
			map[string]string{"AgentName": "Firefox", "AgentVersion": "78.0", "AgentUuid": "3F2504E0-4F89-11D3-9A0C-0305E82C3301"}},
	})
}

func TestCocoaApp(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{"Airmail 1.3.3 rv:237 (Macintosh; Mac OS X 10.9.3; nl_NL)",
			map[string]string{"AgentName": "Airmail", "AgentVersion": "1.3.3", "AgentClass": "Special", "DeviceName": "Apple Macintosh"}},
		{"MyApp 2.0.1 rv:55 (iPhone; iOS 15.2; en_US)",
			map[string]string{"AgentName": "MyApp", "AgentVersion": "2.0.1", "DeviceName": "Apple iPhone", "OperatingSystemName": "iOS"}},
		// Without the rv: build it is not the Cocoa form.
		{"Mozilla/5.0 (Windows NT 10.0; rv:102.0) Gecko/20100101 Firefox/102.0",
			map[string]string{"AgentName": "Firefox"}},
	})
}

func TestEncodedAttack(t *testing.T) {
	hacker := map[string]string{"DeviceClass": "Hacker", "AgentClass": "Hacker", "HackerAttackVector": "Code Injection"}
	checkRuleCases(t, []ruleCase{
		{"Mozilla/5.0 %27%20OR%201%3D1--", hacker},
		{"Mozilla/5.0 %3Cscript%3Ealert(1)%3C/script%3E", hacker},
		// Percent signs without an encoded quote, bracket or equals sign
		// are left alone.
		{"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/91.0.4472.124 Safari/537.36 100%",
			map[string]string{"DeviceClass": "Desktop", "AgentName": "Chrome"}},
	})
}

func TestToolkitTable(t *testing.T) {
	tool := func(name string) map[string]string {
		return map[string]string{"DeviceClass": "Hacker", "HackerToolkit": name}
	}
	checkRuleCases(t, []ruleCase{
		{"Fuzz Faster U Fool v2.0.0-dev", tool("Ffuf")},
		{"gobuster/3.1.0", tool("Gobuster")},
		{"feroxbuster/2.7.1", tool("Feroxbuster")},
		{"Wfuzz/3.1.0", tool("Wfuzz")},
		{"WhatWeb/0.5.5", tool("WhatWeb")},
		{"sqlmap/1.5.2#stable (http://sqlmap.org)", tool("Sqlmap")},
	})
}

func TestLoneMailProgram(t *testing.T) {
	mail := func(name string) map[string]string {
		return map[string]string{"AgentClass": "Email Client", "AgentName": name}
	}
	checkRuleCases(t, []ruleCase{
		{"Evolution/3.36.5", mail("Evolution")},
		{"K-9 Mail/6.400", mail("K-9 Mail")},
		{"eM Client/8.2.1473.0", mail("eM Client")},
		{"Mutt/2.0.5 (2021-01-21)", mail("Mutt")},
		// A program that is not a mail program stays Special.
		{"Deno/1.30.0", map[string]string{"AgentClass": "Special", "AgentName": "Deno"}},
		// A program that harvests mail addresses is named after mail but
		// is a robot (tables/robot_words.tsv).
		{"EmailWolf 1.00", map[string]string{"DeviceClass": "Robot", "AgentClass": "Robot"}},
		{"ExampleEmailHarvester/2.0", map[string]string{"DeviceClass": "Robot", "AgentClass": "Robot"}},
	})
}

// TestSQLNeedsItsSyntax: an SQL fragment is an attack only beside SQL's
// own syntax; the parenthesis that opens a comment is not that, so prose
// between products ("... (wpull 2.0.3) and not Mozilla/5.0 ...") is no
// injection, while a function's parenthesis, a comparison or a closed
// quote ending the statement still confirm one. The user agents are made
// up for the rule.
func TestSQLNeedsItsSyntax(t *testing.T) {
	hacker := map[string]string{"DeviceClass": "Hacker", "AgentClass": "Hacker", "HackerAttackVector": "Code Injection"}
	checkRuleCases(t, []ruleCase{
		{"ExampleTeam ExampleGrab/20220523.4a672db (wpull 2.0.3) and not Mozilla/5.0 (Windows NT 6.1; WOW64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/42.0.2311.90 Safari/537.36",
			map[string]string{"HackerAttackVector": "Unknown"}},
		{"Mozilla/5.0 (Windows NT 10.0) 1) AND 8514=8514 AND (6526=6526", hacker},
		{"Mozilla/5.0 1 xor(1)", hacker},
		{"Example'; waitfo", hacker},
	})
}

// TestContactWithoutScheme: a host name written without "http://" is the
// agent's information URL, and a "+" before an e-mail address is the "see
// also" mark, not part of the address. The user agents are made up for the
// rule (example names), not Yauaa test cases.
func TestContactWithoutScheme(t *testing.T) {
	for _, c := range []struct {
		in, want string
	}{
		{"ExampleBot (www.example.org)", "www.example.org"},
		{"Mozilla/5.0 (compatible; example.io/2.1; +crawler@example.io)", "example.io"},
		{"Example.com/3.4.5 (Android 12; Pixel 6; Phone)", "Example.com"},
		{"ExampleApp/1.0 (com.example.app; build:7; iOS 16.2.0) Alamofire/5.6.4", "com.example.app"},
		{"Exampler API/2.0 +exampler.net", "exampler.net"},
		{"Lantern for exampledata.co.uk", "exampledata.co.uk"},
		// Not host names: versions, .NET, numbered tokens, e-mail domains.
		{"Mozilla/5.0 (Windows NT 10.0; Win64; x64; .NET4.0C; InfoPath.3) Gecko/20100101 Firefox/115.0", ""},
		{"ExampleBot/1.0 (bot@example.org)", ""},
		{"Mozilla/5.0 (Linux; Android 13; SM-S911B Build/TP1A.220624.014) AppleWebKit/537.36", ""},
		// Edges: dots at either end, alone, doubled.
		{".", ""}, {"a.", ""}, {".com", ""}, {"x..com", ""}, {"example.com.", "example.com"}, {"www.", ""},
	} {
		if got := hostNameIn(c.in); got != c.want {
			t.Errorf("hostNameIn(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	checkRuleCases(t, []ruleCase{
		{"ExampleBot (www.example.org)", map[string]string{"AgentInformationUrl": "www.example.org"}},
		{"Mozilla/5.0 (compatible; ExampleBot/2.0; +http://example.org/bot.html)", map[string]string{"AgentInformationUrl": "http://example.org/bot.html"}},
		{"Mozilla/5.0 (compatible; ExampleBot/1.0; +crawler@example.org)", map[string]string{"AgentInformationEmail": "crawler@example.org"}},
		{"ExampleLantern/0.9 (mailto:+ops@example.net)", map[string]string{"AgentInformationEmail": "ops@example.net"}},
	})
}

// TestMediaTekChipModels: reference phones and tablets that send MediaTek's
// chip as their model are MediaTek devices, for every chip of the MT6 (phone)
// and MT8 (tablet) series, not only the ones seen before. The user agents are
// made up in the shape such devices send.
func TestMediaTekChipModels(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{"MT6735/V1 Linux/3.10.65 Android/5.1 Release/03.11.2016 Browser/AppleWebKit537.36 Mobile Safari/537.36 Android 5.1;",
			map[string]string{"DeviceBrand": "MediaTek", "DeviceName": "MediaTek MT6735"}},
		{"Mozilla/5.0 (Linux; Android 6.0; MT6580 Build/MRA58K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/70.0.3538.110 Mobile Safari/537.36",
			map[string]string{"DeviceBrand": "MediaTek", "DeviceName": "MediaTek MT6580", "DeviceClass": "Phone"}},
		{"Mozilla/5.0 (Linux; Android 7.0; MT8163 Build/NRD90M) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/90.0.4430.91 Safari/537.36",
			map[string]string{"DeviceBrand": "MediaTek", "DeviceName": "MediaTek MT8163", "DeviceClass": "Tablet"}},
	})
}

// TestHostNameInDoesNotAllocate: hostNameIn runs on every user agent that
// has no URL, so it must not add to the two allocations of an analysis.
func TestHostNameInDoesNotAllocate(t *testing.T) {
	for _, ua := range []string{
		"Example.COM/3.4.5 (Android 12; Pixel 6; Phone)",
		"ExampleApp/1.0 (COM.Example.App; build:7; iOS 16.2.0) Alamofire/5.6.4",
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
	} {
		if n := testing.AllocsPerRun(100, func() { hostNameIn(ua) }); n != 0 {
			t.Errorf("hostNameIn(%q) makes %v allocations, want 0", ua, n)
		}
	}
}

// TestDigitPrefixNeedsAModelCode: a prefix of digits in tables/brands.tsv
// names model codes (Alcatel's "5033D"); a number alone in a comment is a
// build or a count, not a model. And a model glued to the kernel product
// ("AB-C12 Linux/3.0.13") is the model without the kernel's word. The user
// agents are made up in the shapes such clients send.
func TestDigitPrefixNeedsAModelCode(t *testing.T) {
	for _, c := range []struct{ model, brand string }{
		{"5033D", "Alcatel"}, {"508", ""}, {"901", ""},
	} {
		if b, _ := brandOfModel(c.model); b != c.brand {
			t.Errorf("brandOfModel(%q) = %q, want %q", c.model, b, c.brand)
		}
	}
	checkRuleCases(t, []ruleCase{
		{"Mozilla/5.0 (Linux; Android 8.1.0; 5033D) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/90.0.4430.91 Mobile Safari/537.36",
			map[string]string{"DeviceBrand": "Alcatel", "DeviceName": "Alcatel 5033D"}},
		{"AT-AS45SE Linux/3.0.13 Android/4.0.4 Release/05.11.2013 Browser/AppleWebKit534.30 Mobile Safari/534.30 Android 4.0.4;",
			map[string]string{"DeviceBrand": "Wolfgang Mobile", "DeviceName": "Wolfgang Mobile AT-AS45SE"}},
	})
}

// TestSelfNamedEngines shows engines that name themselves in their own
// product without an AppleWebKit or Gecko token, on user agents written
// for the test.
func TestSelfNamedEngines(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{"Mozilla/5.0 (X11; Linux x86_64; rv:37.0) Servo/1.0 Firefox/37.0",
			map[string]string{"LayoutEngineName": "Servo", "LayoutEngineVersionMajor": "1"}},
		{"Mozilla/5.0 (Android; Mobile; rv:37.0) Servo/1.0 Firefox/37.0",
			map[string]string{"LayoutEngineName": "Servo", "LayoutEngineVersionMajor": "1", "AgentName": "Firefox"}},
	})
}

// TestBrowserTokenAfterVersionSegment shows a browser token whose product
// name holds the last segment of the previous product's version
// ("YaApp_Android/23.74/apad YaSearchBrowser/23.74/apad"), or a word before
// it ("Mobile HuaweiBrowser/5.1"): the token names the browser, not the
// whole name. The devices are made up.
func TestBrowserTokenAfterVersionSegment(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{"Mozilla/5.0 (Linux; arm_64; Android 12; SM-A000F) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/114.0.0.0 YaApp_Android/23.74/apad YaSearchBrowser/23.74/apad BroPP/1.0 SA/3 Mobile Safari/537.36",
			map[string]string{"AgentName": "Yandex Browser", "AgentVersion": "23.74"}},
		{"Mozilla/5.0 (Linux; arm_64; Android 12; SM-A000F) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/114.0.0.0 YaApp_Android/23.74 YaSearchBrowser/23.74 BroPP/1.0 SA/3 Mobile Safari/537.36",
			map[string]string{"AgentName": "Yandex Browser", "AgentVersion": "23.74"}},
		{"Mozilla/5.0 (Phone; OpenHarmony 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/114.0.0.0 Safari/537.36 ArkWeb/4.1.6.1 Mobile HuaweiBrowser/5.1.3.311",
			map[string]string{"AgentName": "Huawei Browser"}},
	})
}

// TestVersionIsNoName shows a product named only by a version ("2.1.0
// (Linux; U; Android 7.0; ...)", Dalvik's user agent with its name cut
// off): it names no agent, as Dalvik's own names none.
func TestVersionIsNoName(t *testing.T) {
	none := map[string]string{"AgentName": Unknown, "AgentVersion": Unknown, "OperatingSystemName": "Android"}
	checkRuleCases(t, []ruleCase{
		{"2.1.0 (Linux; U; Android 7.0; ONEPLUS A3000 Build/NRD90M)", none},
		{"Dalvik/2.1.0 (Linux; U; Android 7.0; ONEPLUS A3000 Build/NRD90M)", none},
		// A name with a digit in it is still a name.
		{"Example360/2.1.0 (Linux; U; Android 7.0; ONEPLUS A3000 Build/NRD90M)", map[string]string{"AgentName": "Example360"}},
	})
	for _, c := range []struct {
		s    string
		want bool
	}{{"2.1.0", true}, {"1.0", true}, {"360", false}, {".5", false}, {"2.1a", false}, {"", false}} {
		if got := dottedNumber(c.s); got != c.want {
			t.Errorf("dottedNumber(%q) = %v, want %v", c.s, got, c.want)
		}
	}
}

// TestMozillaPlatformClient covers the clients that write Mozilla's token
// and a platform before their own product: a browser, as Yauaa classes
// them, where a bare Mozilla token before a name leaves a special agent.
func TestMozillaPlatformClient(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{"Mozilla/5.0 (Windows NT; Windows NT 6.3; en-US) ExampleShell/7.2.0",
			map[string]string{"AgentClass": "Browser", "AgentName": "ExampleShell", "AgentVersionMajor": "7"}},
		{"Mozilla/5.0 (X11; Linux x86_64) Lantern/3.1",
			map[string]string{"AgentClass": "Browser", "AgentName": "Lantern"}},
		{"Mozilla/5.0 Lantern/3.1", map[string]string{"AgentClass": "Special", "AgentName": "Lantern"}},
		// A client on Gecko, a browser's engine only, without Mozilla's token.
		{"Lantern/0.3 (X11; Linux x86_64; rv:0.3) Gecko/20100101 Lantern/0.3",
			map[string]string{"AgentClass": "Browser", "AgentName": "Lantern"}},
		{"Lantern/3.1 (Windows NT 10.0)", map[string]string{"AgentClass": "Special", "AgentName": "Lantern"}},
	})
}

// TestAndroidBrowserDownloads covers the download manager of Samsung's
// Android browser, which names itself after the system and the phone.
func TestAndroidBrowserDownloads(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{"Android-SAMSUNG-GT-S7580/101.40404",
			map[string]string{"DeviceBrand": "Samsung", "DeviceName": "Samsung GT-S7580", "OperatingSystemName": "Android",
				"LayoutEngineName": "AppleWebKit", "AgentClass": "Browser", "AgentName": "Stock Android Browser", "AgentVersionMajor": "101"}},
	})
}

// TestPackageAfterDevice covers an app that writes the device and its
// publisher without versions before its package identifier and version.
func TestPackageAfterDevice(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{"SM-A515F (compatible; Mobile2.0) ExamplePressProduction, com.example.dailynews 3.4.2 (311) / Android 30",
			map[string]string{"AgentClass": "Mobile App", "AgentName": "Dailynews", "AgentVersionMajor": "3", "DeviceName": "Samsung SM-A515F"}},
	})
}
