package uaparse

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

var accessLog = filepath.Join("..", "..", "..", "..", "testdata", "access-logs", "apache_combined_10k.log")

// accessLogUserAgents returns the distinct user agents of the real access
// log, in order of first appearance.
func accessLogUserAgents(t *testing.T) []string {
	t.Helper()
	seen := map[string]bool{}
	var out []string
	for _, ua := range accessLogLineUserAgents(t) {
		if !seen[ua] {
			seen[ua] = true
			out = append(out, ua)
		}
	}
	return out
}

// Access log user agents where nobody can tell the device class: a bare
// "Mozilla/x", a text-mode browser, a placeholder, a browser token with no
// platform at all.
var undeterminableDevice = map[string]bool{
	"-":                                      true,
	"&as_qdr=all":                            true,
	"Mozilla/4.0":                            true,
	"Mozilla/5.0":                            true,
	"Mozilla/4.0 (compatible;)":              true,
	"Mozilla/5.0 Gecko/20100115 Firefox/3.6": true,
	"Opera 9.6":                              true,
	"Lynx/2.8.7rel.2 libwww-FM/2.14 SSL-MM/1.4.1 OpenSSL/1.0.1f": true,
}

// Access log user agents where nobody can name the agent: the Android
// runtime's default HTTP client is used by any app, and placeholders.
func undeterminableAgent(ua string) bool {
	return strings.HasPrefix(ua, "Dalvik/") || ua == "-" || ua == "&as_qdr=all"
}

func TestAccessLogUserAgents(t *testing.T) {
	uas := accessLogUserAgents(t)
	if len(uas) != 559 {
		t.Fatalf("found %d distinct user agents in the access log, want 559", len(uas))
	}
	a := New(Options{CacheSize: 1000})
	for _, ua := range uas {
		r := a.Analyze(ua)
		if dc := r.Get("DeviceClass"); dc == Unknown && !undeterminableDevice[ua] {
			t.Errorf("DeviceClass Unknown for %q", ua)
		}
		if an := r.Get("AgentName"); an == Unknown && !undeterminableAgent(ua) {
			t.Errorf("AgentName Unknown for %q", ua)
		}
	}
}

// combinedAttribute are the "Name Version" attributes, which print "??"
// for an unknown version of a known name.
var combinedAttribute = map[string]bool{
	"OperatingSystemNameVersion": true, "LayoutEngineNameVersion": true, "LayoutEngineNameVersionMajor": true,
	"AgentNameVersion": true, "AgentNameVersionMajor": true, "WebviewAppNameVersionMajor": true,
	"IECompatibilityNameVersion": true, "IECompatibilityNameVersionMajor": true,
}

// checkResult verifies the invariants every answer must keep.
func checkResult(t *testing.T, ua string, r Result) {
	t.Helper()
	r.Each(func(name, value string) {
		if value == "" {
			t.Errorf("%s is empty for %q", name, truncate(ua))
		}
		// "??" appears only as the version part of a combined attribute
		// whose name is known ("Android ??"); every other undetermined
		// value is Unknown.
		if strings.Contains(value, "??") && (!combinedAttribute[name] || !strings.HasSuffix(value, " ??") ||
			strings.Count(value, "??") != 1 || strings.HasPrefix(value, Unknown+" ")) {
			t.Errorf("%s = %q has a misplaced ?? for %q", name, value, truncate(ua))
		}
	})
}

func truncate(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}

func TestHostileInputs(t *testing.T) {
	tests := []struct {
		name        string
		ua          string
		deviceClass string
		vector      string
	}{
		{"empty", "", "Hacker", Unknown},
		{"spaces", "   ", "Hacker", Unknown},
		{"tab and unicode spaces", "\t\u00a0\u2003 ", "Hacker", Unknown},
		{"unicode spaces first", "\u00a0\u2003", "Hacker", Unknown},
		{"megabyte", strings.Repeat("Mozilla/5.0 (X11; Linux) ", 1<<16), "Hacker", "Buffer overflow"},
		{"just over the limit", strings.Repeat("a", maxLength+1), "Hacker", "Buffer overflow"},
		{"sql union", "Mozilla/5.0' UNION SELECT 1,2,3--", "Hacker", "Code Injection"},
		{"sql sleep", "1' AND SLEEP(5)--", "Hacker", "Code Injection"},
		{"script tag", "<script>alert(1)</script>", "Hacker", "Code Injection"},
		{"shellshock", "() { :;}; /bin/bash -c 'echo vulnerable'", "Hacker", "Code Injection"},
		{"shell echo", "Mozilla/5.0 (Linux; Android 9; echo Hacked)", "Hacker", "Code Injection"},
		{"capital echo beside a payload", "Mozilla/5.0 (Linux; Android 9; ECHO $(id))", "Hacker", "Code Injection"},
		{"Echo Mobiles phone", "Mozilla/5.0 (Linux; Android 9; ECHO PRISM) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/96.0.4664.45 Mobile Safari/537.36", "Phone", ""},
		{"log4shell", "${jndi:ldap://example.com/a}", "Hacker", "Code Injection"},
		{"template", "{{7*7}}", "Hacker", "Code Injection"},
		{"path traversal", "../../../../etc/passwd", "Hacker", "Path Traversal"},
		{"encoded traversal", "..%2f..%2f..%2fboot.ini", "Hacker", "Path Traversal"},
		{"server side include", "<!--#exec cmd=\"ls\"-->", "Hacker", "Serverside execute"},
		{"bare url", "https://example.com/page", "Hacker", Unknown},
		{"binary", "\x00\x01\x02\xff\xfe\x80", "", ""},
		{"invalid utf8 in browser", "Mozilla/5.0 (Windows NT 10.0; \xff\xfe) Gecko/20100101 Firefox/120.0", "Desktop", ""},
		{"unbalanced open", strings.Repeat("(", 1500), "", ""},
		{"unbalanced close", strings.Repeat(")", 1500), "", ""},
		{"deep nesting", strings.Repeat("(a;", 600) + strings.Repeat(")", 600), "", ""},
		{"many slashes", strings.Repeat("a/", 1000), "", ""},
		{"many semicolons", strings.Repeat(";", 2000), "", ""},
		{"nul in middle", "Mozilla/5.0\x00(Windows NT 10.0)", "", ""},
	}
	a := New(Options{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := a.Analyze(tt.ua)
			checkResult(t, tt.ua, r)
			if tt.deviceClass != "" {
				if got := r.Get("DeviceClass"); got != tt.deviceClass {
					t.Errorf("DeviceClass = %q, want %q", got, tt.deviceClass)
				}
			}
			if tt.vector != "" {
				if got := r.Get("HackerAttackVector"); got != tt.vector {
					t.Errorf("HackerAttackVector = %q, want %q", got, tt.vector)
				}
			}
		})
	}
}

func TestKnownBrowsers(t *testing.T) {
	tests := []struct {
		ua   string
		want map[string]string
	}{
		{"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.130 Safari/537.36",
			map[string]string{"DeviceClass": "Desktop", "OperatingSystemName": "Windows NT", "LayoutEngineName": "Blink",
				"AgentName": "Chrome", "AgentVersionMajor": "120", "OperatingSystemVersion": ">=10"}},
		// The reduced user agent says "10.0" on every Windows: the version is unknown.
		{"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
			map[string]string{"DeviceClass": "Desktop", "OperatingSystemName": "Windows NT", "LayoutEngineName": "Blink",
				"AgentName": "Chrome", "AgentVersionMajor": "120", "OperatingSystemVersion": "Unknown"}},
		{"Mozilla/5.0 (iPhone; CPU iPhone OS 14_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/14.1.2 Mobile/15E148 Safari/604.1",
			map[string]string{"DeviceClass": "Phone", "DeviceName": "Apple iPhone", "OperatingSystemName": "iOS",
				"OperatingSystemVersion": "14.7", "AgentName": "Safari", "AgentVersionMajor": "14"}},
		{"Mozilla/5.0 (Linux; Android 11; SM-A525F) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/14.2 Chrome/87.0.4280.141 Mobile Safari/537.36",
			map[string]string{"DeviceClass": "Phone", "DeviceBrand": "Samsung", "DeviceName": "Samsung SM-A525F",
				"OperatingSystemVersion": "11", "AgentName": "SamsungBrowser"}},
		{"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
			map[string]string{"DeviceClass": "Robot", "AgentClass": "Robot", "AgentName": "Googlebot", "OperatingSystemName": "Google Cloud"}},
		{"curl/7.47.0", map[string]string{"DeviceClass": "Robot", "AgentName": "Curl", "AgentVersionMajor": "7"}},
		// A browser that writes its product after the Chromium it is built on.
		{"Mozilla/5.0 (Linux; Android 12; Example VR1) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Mobile VR Wolvic/1.5.2",
			map[string]string{"AgentName": "Wolvic", "AgentVersionMajor": "1", "LayoutEngineName": "Blink", "DeviceClass": "Virtual Reality"}},
		// The system's media framework and download service fetch for any
		// app: parts of the system, not apps.
		{"AppleCoreMedia/1.0.0.21A351 (iPhone; U; CPU OS 17_0 like Mac OS X; en_gb)",
			map[string]string{"AgentClass": "Special", "AgentName": "AppleCoreMedia", "DeviceName": "Apple iPhone", "OperatingSystemName": "iOS"}},
		{"AndroidDownloadManager/13 (Linux; U; Android 13; Pixel 7 Build/TQ3A.230805.001)",
			map[string]string{"AgentClass": "Special", "AgentName": "AndroidDownloadManager", "DeviceName": "Google Pixel 7"}},
		// A browser that sends the token of the browser it is built on
		// after its own, or of a browser it is not built on at all.
		{"Mozilla/5.0 (Windows; U; Windows NT 5.1; en-US; rv:1.8.1.24) Gecko/20200101 RetroZilla/2.2 SeaMonkey/1.1.19 Firefox/2.0.20",
			map[string]string{"AgentName": "RetroZilla", "AgentVersion": "2.2"}},
		// Cheetah Mobile's CM Browser sends the company's token; Baidu
		// Browser's international edition its own after the T5 engine's.
		{"Mozilla/5.0 (Linux; U; Android 4.2.1; en-us; Example One Build/JOP40D) AppleWebKit/534.30 (KHTML, like Gecko) Version/4.0 Mobile Safari/534.30 ACHEETAHI/2100502002",
			map[string]string{"AgentName": "CM Browser", "AgentClass": "Browser"}},
		{"Mozilla/5.0 (Linux; U; Android 4.4.2; en-us; Example One Build/KOT49H) AppleWebKit/534.24 (KHTML, like Gecko) Version/4.0 Mobile Safari/534.24 T5/2.0 bdbrowser_i18n/4.6.0.7",
			map[string]string{"AgentName": "Baidu Browser", "AgentVersionMajor": "4"}},
		// Baidu Browser under its first name and its later short token,
		// HONOR's browser built with Baidu (tables/app_spellings.tsv).
		{"Mozilla/5.0 (Linux; U; Android 4.0.4; zh-cn; Example One Build/IMM76D) AppleWebKit/534.30 (KHTML, like Gecko) FlyFlow/2.2 Version/4.0 Mobile Safari/534.30",
			map[string]string{"AgentName": "Baidu Browser", "AgentVersionMajor": "2"}},
		{"Mozilla/5.0 (Linux; Android 5.1; Example One Build/LMY47I) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/39.0.0.0 Mobile Safari/537.36 bdbrowser/6.4.0.3",
			map[string]string{"AgentName": "Baidu Browser", "AgentVersionMajor": "6"}},
		{"Mozilla/5.0 (Linux; Android 14; EXA-AN00 Build/EXAMPLE;) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/97.0.4692.98 Mobile Safari/537.36 T7/13.38 SP-engine/2.76.0 bdhonorbrowser/13.38.0.1",
			map[string]string{"AgentName": "HONOR Browser", "AgentVersionMajor": "13"}},
		// The Qt web engine's browser of Sky's boxes, which name the
		// device after it.
		{"Mozilla/5.0 (X11; Linux armv7l) AppleWebKit/537.36 (KHTML, like Gecko) QtWebEngine/5.9.7 Chrome/69.0.3497.113 Safari/537.36 GW-Device/1.0.0 (Sky, ES340, )",
			map[string]string{"AgentName": "Chrome", "AgentVersionMajor": "69"}},
		// Opera for televisions: Opera at the OPR version where it is on
		// Chromium's later builds, its own OMI version where it sends no
		// OPR, and never Opera Mobile on an Android TV set.
		{"Mozilla/5.0 (Linux; Android 8.0; EX4KTV Build/OPR5.170623.014) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/49.0.2623.112 Safari/537.36 OPR/32.0.2128.0 OMI/4.8.0.142.Example2.47",
			map[string]string{"AgentName": "Opera", "AgentVersionMajor": "32"}},
		{"Mozilla/5.0 (Linux; Android 11; EXAMPLE TV) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/127.0.6533.120 Safari/537.36 OMI/4.25.1.92.Example.5",
			map[string]string{"AgentName": "Opera", "AgentVersionMajor": "4"}},
		// Opera Mini built for an operator names the operator before its
		// version.
		{"ExamplePhone/1.0; Mozilla/5.0 (Profile/MIDP-2.0 Configuration/CLDC-1.1; Opera Mini/att/4.2.19039; U; en-US) Opera 9.50",
			map[string]string{"AgentName": "Opera Mini", "AgentVersionMajor": "4"}},
		// A WAP phone's Obigo browser written where a version would be, at
		// its release code.
		{"EXAMPLE-M636/001.00 WAP/OBIGO/Q05A",
			map[string]string{"AgentName": "Obigo", "AgentVersion": "Q05A"}},
		{"EXAMPLE/R01 Browser/Obigo/Q05A Profile/MIDP-2.0 Configuration/CLDC-1.1",
			map[string]string{"AgentName": "Obigo", "AgentVersion": "Q05A"}},
		// Obigo by its full name, or by Teleca's, in a chain of slashes.
		{"EXAMPLE_Phone/ObigoInternetBrowser/QO3C Profile/MIDP2.0 Configuration/CLDC-1.1",
			map[string]string{"AgentName": "Obigo", "AgentVersion": "QO3C"}},
		{"Example/1.0/EXAMPLE_G100/Obigo Browser/Q03C Browser/Q03C MMS/1.0/MIDP-2.0 Configuration/CLDC-1.1",
			map[string]string{"AgentName": "Obigo", "AgentVersion": "Q03C"}},
		{"ExampleK15i/R3AE021 TelecaBrowser/Q07C1-1 Profile/MIDP-2.0 Configuration/CLDC-1.1",
			map[string]string{"AgentName": "Obigo", "AgentVersion": "Q07C1"}},
		// Maxthon on Internet Explorer, with its version in the comment.
		{"Mozilla/4.0 (compatible; MSIE 8.0; Windows NT 5.1; Trident/4.0; MAXTHON 2.0)",
			map[string]string{"AgentName": "Maxthon", "AgentVersionMajor": "2"}},
		{"Mozilla/4.0 (compatible; MSIE 7.0; Windows NT 5.1; Trident/4.0; Maxthon/3.0)",
			map[string]string{"AgentName": "Maxthon", "AgentVersionMajor": "3"}},
		// An Android user agent cut after its engine is the system's own
		// browser, at the system's version, as a bare engine on a Mac is
		// Safari.
		{"Mozilla/5.0 (Linux; U; Android 2.2; en-us; Example One Build/FRF91) AppleWebKit/533.1",
			map[string]string{"AgentName": "Stock Android Browser", "AgentVersionMajor": "2"}},
		// WebKit under a misspelt or a maker's name on Android.
		{"Mozilla/5.0 (Linux; U; Android 4.0.4; zh-cn; EXAMPLE-S100_TD/1.0 Android/4.0.4 Release/07.15.2012 Browser/AppleWebKit534.30 Build/IMM76D) ApplelWebkit/534.30 (KHTML,like Gecko) Version/4.0 Mobile Safari/534.30",
			map[string]string{"LayoutEngineName": "AppleWebKit", "LayoutEngineVersionMajor": "534"}},
		{"Mozilla/5.0 (Linux; U; Android 2.3.5; zh-cn; Example_7260; 480*800; CTC/2.0) ExampleWebkit/533.1",
			map[string]string{"LayoutEngineName": "AppleWebKit", "LayoutEngineVersionMajor": "533"}},
		// The first builds of iOS 26 wrote the release as 19.
		{"Mozilla/5.0 (iPhone; CPU iPhone OS 19_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/23A344 ExampleApp/1.0",
			map[string]string{"OperatingSystemName": "iOS", "OperatingSystemVersion": "26.0"}},
		// Cut before its Safari token, after its Version and Mobile, it is
		// the same browser.
		{"Mozilla/5.0 (Linux; U; Android 4.0.3; en-us; Example One Build/IML74K) AppleWebKit/534.30 (KHTML, like Gecko) Version/4.0 Mobile",
			map[string]string{"AgentClass": "Browser", "AgentName": "Stock Android Browser", "AgentVersionMajor": "4"}},
		{"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/49.0.2623.111 Maxthon/4.9.0 QupZilla/2.2.0 Safari/537.36",
			map[string]string{"AgentName": "QupZilla", "AgentVersion": "2.2.0"}},
		// Kodi's client fetches for its add-ons.
		{"Kodi/20.2 (X11; Linux x86_64) Ubuntu/22.04 App_Bitness/64 Version/20.2-(20.2.0)-Git:20230624-5f418d0b13",
			map[string]string{"AgentClass": "Browser", "AgentName": "Kodi", "AgentVersionMajor": "20"}},
		// Tesla's own browser of its cars gives no version.
		{"Mozilla/5.0 (X11; GNU/Linux) AppleWebKit/601.1 (KHTML, like Gecko) Tesla QtCarBrowser Safari/601.1",
			map[string]string{"DeviceClass": "Car", "DeviceBrand": "Tesla", "AgentClass": "Browser", "AgentName": "Tesla Browser",
				"AgentVersion": "Unknown", "LayoutEngineName": "AppleWebKit"}},
		// An app's comment that gives its build, the API level and the
		// device it runs on.
		{"Example Shop/Android/3.2.1 (Build 4321 with API 33 on samsung SM-A536B)",
			map[string]string{"DeviceBrand": "Samsung", "DeviceName": "Samsung SM-A536B", "OperatingSystemName": "Android", "AgentName": "Example Shop"}},
		// An app named with its platform and version is no model.
		{"BBC Sport Android 2.1.0/5501 uk (android_os/12)",
			map[string]string{"DeviceBrand": "Unknown", "DeviceName": "Android Mobile", "OperatingSystemName": "Android"}},
		// CellOS is the PlayStation 3's system.
		{"PS3Application libhttp/4.8.5-000 (CellOS)",
			map[string]string{"DeviceClass": "Game Console", "DeviceName": "Sony PlayStation 3", "OperatingSystemName": "CellOS"}},
		// A PlayStation's media apps write their television mode after
		// the firmware: the console is still the device.
		{"Mozilla/5.0 (PlayStation 5 9.99/SmartTV) AppleWebKit/605.1.15 (KHTML, like Gecko)",
			map[string]string{"DeviceClass": "Game Console", "DeviceName": "Sony PlayStation 5", "OperatingSystemVersion": "9.99"}},
		// Amazon's voice assistant, on an Echo and in the Alexa app.
		{"AlexaService/2.2.305814.0 (Linux;Android 9) ExoPlayerLib/2.8.4",
			map[string]string{"DeviceClass": "Voice", "DeviceName": "Amazon Alexa", "AgentClass": "Voice", "AgentName": "AlexaService"}},
		{"AlexaMediaPlayer/2.1.2860.0 (Linux;Android 12) ExoPlayerLib/2.18.1",
			map[string]string{"DeviceName": "Android Mobile", "AgentClass": "Voice", "AgentName": "AlexaMediaPlayer"}},
		// ANT's Galio browser of televisions writes its product after the HbbTV profile.
		{"HbbTV/1.1.1 (;Examplo;EX5396;;;) ANTGalio/3.2.0.C341.06",
			map[string]string{"AgentName": "ANTGalio", "AgentVersionMajor": "3", "DeviceClass": "TV"}},
		// UC Browser's later releases for Android send UCMobile.
		{"Mozilla/5.0 (Linux; Android 15; en-US; EX2469N Build/AP3A.240905.015.A2) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/123.0.6312.80 UCMobile/15.0.6.1382 Mobile Safari/537.36",
			map[string]string{"AgentName": "UCBrowser", "AgentVersionMajor": "15"}},
		// UC Browser Mini writes its own version after UC's compact
		// format's UCWEB/2.0.
		{"UCWEB/2.0 (Linux; U; Opera Mini/7.1.32052/30.3697; en-US; Example X5 Build/LMY47D) U2/1.0.0 UCMini/10.9.0.946 (SpeedMode; Android 5.1; Example X5 Build/LMY47D) Mobile",
			map[string]string{"AgentName": "UCBrowser", "AgentVersionMajor": "10"}},
		// UC Browser's edition for China Mobile adds the operator to its token.
		{"Mozilla/5.0 (Linux; U; Android 4.4.2; zh-CN; Example T7 Build/KOT49H) AppleWebKit/533.1 (KHTML, like Gecko) Version/4.0 UCBrowser-CMCC/9.9.2.467 U3/0.8.0 Mobile Safari/533.1",
			map[string]string{"AgentName": "UCBrowser", "AgentVersionMajor": "9", "OperatingSystemName": "Android"}},
		// Samsung's feature phones name their browser after the model
		// and firmware.
		{"SAMSUNG-GT-E1234/E1234XXJK1 SHP/VPP/R5 Jasmine/1.2 Nextreaming SMM-MMS/1.2.0 profile/MIDP-2.1 configuration/CLDC-1.1",
			map[string]string{"AgentName": "Jasmine", "AgentVersionMajor": "1", "DeviceBrand": "Samsung"}},
		// The Obigo browser of feature phones writes its release code as
		// its version.
		{"Examplo E100/1.0 Obigo/Q03C Profile/MIDP-2.0 Configuration/CLDC-1.1",
			map[string]string{"AgentName": "Obigo", "AgentVersionMajor": "Q03C"}},
		// Silk in a Fire tablet's desktop mode writes itself in the Mac
		// comment it borrows.
		{"Mozilla/5.0 (Macintosh; U; Intel Mac OS X 10_6_3; en-us; Silk/1.1.0-84) AppleWebKit/533.16 (KHTML, like Gecko) Version/5.0 Safari/533.16 Silk-Accelerated=true",
			map[string]string{"AgentName": "Silk", "AgentVersionMajor": "1", "OperatingSystemName": "FireOS"}},
		// Mac OS X 10.5's apps glued their version to their name before
		// Apple's network library: the app is the agent, as
		// "Safari/6534.59.8 CFNetwork/454.12.4" is.
		{"Safari5531.21.10 CFNetwork/438.14 Darwin/9.8.0 (i386) (MacBook2%2C1)",
			map[string]string{"AgentName": "Safari", "AgentVersionMajor": "5531", "LayoutEngineName": "Safari", "OperatingSystemName": "Mac OS"}},
		{"OmniWeb622.8.0.112941 CFNetwork/438.14 Darwin/9.8.0 (Power%20Macintosh) (PowerMac7%2C3)",
			map[string]string{"AgentName": "OmniWeb", "AgentVersionMajor": "622"}},
		// Digital's OSF/1 and Alibaba's YunOS, by the start of a comment
		// entry (tables/systems.tsv); an OSF/1 workstation is a desktop
		// (tables/unix_desktops.tsv).
		{"Mozilla/3.0 (X11; I; OSF1 V4.0 alpha)",
			map[string]string{"OperatingSystemName": "OSF1", "DeviceClass": "Desktop"}},
		{"Mozilla/5.0 (Linux; U; YunOs 1.0.0.3; en-; Example W619 Build/AliyunOs-2012) AppleWebKit/533.1 (KHTML, like Gecko) Version/4.0 Mobile Safari/533.1",
			map[string]string{"OperatingSystemName": "YunOS", "OperatingSystemVersion": "1.0.0.3"}},
		{"Mozilla/5.0 (Linux; U;AliyunOS 1.5.1.18; zh-cn; Example W688 Build/AliyunOs-2012) AppleWebKit/533.1 (KHTML, like Gecko) Version/4.0 Mobile Safari/533.1",
			map[string]string{"OperatingSystemName": "YunOS"}},
		// QuickTime writes the system as a key and value.
		{"QuickTime/7.6.2 (qtver=7.6.2;os=Windows NT 5.1Service Pack 3)",
			map[string]string{"OperatingSystemName": "Windows NT", "OperatingSystemVersion": "XP"}},
		// An app that names its platform in words after its own product.
		{"Example/5.0.4 Android", map[string]string{"OperatingSystemName": "Android", "OperatingSystemVersion": "Unknown"}},
		{"Example/65.0.0 Android 12/samsung SM-A125F", map[string]string{"OperatingSystemName": "Android", "OperatingSystemVersion": "12"}},
		{"Example/1.11.3 build 121/iOS 13.3", map[string]string{"OperatingSystemName": "iOS"}},
		{"Example/1.20.1 build 148/Android 29", map[string]string{"OperatingSystemName": "Android", "OperatingSystemVersion": "Unknown"}},
		// Qualcomm's BREW phones name their platform in the comment
		// (tables/systems.tsv).
		{"Mozilla/4.0 (compatible; Examplo 2.1; BREW 3.1.5; en)/176X220 Examplo e100",
			map[string]string{"OperatingSystemName": "BREW", "OperatingSystemVersion": "3.1.5"}},
		// Palm's Blazer names PalmSource and the handheld after "Palm-",
		// behind a desktop Windows it does not run (tables/systems.tsv).
		{"Mozilla/4.0 (compatible; MSIE 6.0; Windows 98; PalmSource/Palm-Q99; Blazer/4.3) 16;320x320",
			map[string]string{"OperatingSystemName": "PalmOS", "DeviceClass": "Mobile", "DeviceBrand": "Palm", "DeviceName": "Palm Q99"}},
		{"Mozilla/5.0 [en] (PalmOS; U; WebPro/3.5; Palm-Q99)",
			map[string]string{"OperatingSystemName": "PalmOS", "DeviceClass": "Mobile", "DeviceBrand": "Palm", "DeviceName": "Palm Q99"}},
		// Huawei's ArkWeb names itself beside the Chromium it is built on.
		{"Mozilla/5.0 (Phone; OpenHarmony 5.1) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 ArkWeb/4.1.7.2 Mobile",
			map[string]string{"LayoutEngineName": "ArkWeb", "LayoutEngineVersionMajor": "4"}},
		// Meta's apps on iOS name the system's release in their bracket.
		{"LightSpeed [FBAN/MessengerLiteForiOS;FBAV/300.0.0.12.345;FBBV/123456789;FBDV/iPhone9,3;FBMD/iPhone;FBSN/iOS;FBSV/12.4.1;FBSS/2;FBCR/;FBID/phone;FBLC/en_GB;FBOP/0]",
			map[string]string{"OperatingSystemName": "iOS", "OperatingSystemVersion": "12.4.1"}},
		// Tizen's browser names only its engine.
		{"Mozilla/5.0 (Linux; Tizen 2.4) AppleWebKit/538.1 (KHTML, like Gecko)",
			map[string]string{"AgentName": "TizenBrowser", "AgentVersionMajor": "Unknown", "LayoutEngineName": "AppleWebKit"}},
		// A television maker's name for the browser it ships
		// (tables/tv_platforms.tsv) comes after the browser's own product,
		// which names the agent.
		{"Opera/9.80 (Linux armv7l; Opera TV Store/6000) Presto/2.12.407 Version/12.50 SonyCEBrowser/1.0 (KDL-40W600B; CTV2014/PKG3.000GAA; EUR)",
			map[string]string{"AgentName": "Opera", "AgentVersionMajor": "12", "DeviceClass": "TV", "DeviceBrand": "Sony"}},
		{"Mozilla/5.0 (DTV) AppleWebKit/531.2+ (KHTML, like Gecko) Espial/6.2.1 AQUOSBrowser/3.0 (XX00DTV;V;0001;0001)",
			map[string]string{"AgentName": "Espial", "AgentVersionMajor": "6", "DeviceClass": "TV", "DeviceBrand": "Sharp"}},
		{"Mozilla/5.0 (DTV; TSBNetTV/T32010000.0100.1AB; TVwithVideoPlayer; like Gecko) NetFront/4.1 DTVNetBrowser/2.2 (000039;T32010000;0100;1AB) InettvBrowser/2.2 (000039;T32010000;0100;1AB)",
			map[string]string{"AgentName": "Netfront", "AgentVersionMajor": "4", "DeviceClass": "TV"}},
		// AOL's client names its release beside the Internet Explorer it
		// embeds.
		{"Mozilla/4.0 (compatible; MSIE 8.0; AOL 9.7; AOLBuild 4343.1028; Windows NT 6.1; Trident/4.0)",
			map[string]string{"AgentName": "AOL", "AgentVersionMajor": "9", "LayoutEngineName": "Trident"}},
		// Qihoo 360's browser for Android writes its release in
		// parentheses after its name.
		{"Mozilla/5.0 (Linux; U; Android 4.4.2; zh-cn; HM NOTE 1LTE Build/KOT49H) AppleWebKit/534.30 (KHTML, like Gecko) Version/4.0 Mobile Safari/534.30; 360 Aphone Browser (7.0.1.30)",
			map[string]string{"AgentName": "360 Phone Browser", "AgentVersionMajor": "7", "LayoutEngineName": "AppleWebKit"}},
		// A reference phone's firmware names the system before its date;
		// its stock browser may name the WAP profile instead of its
		// engine.
		{"EXAMPLE-A10 Linux/3.0.13 Android/4.0.4 Release/01.02.2013 Browser/AppleWebKit534.30 Profile/MIDP-2.0 Configuration/CLDC-1.1 Mobile Safari/534.30 Android 4.0.1;",
			map[string]string{"OperatingSystemVersion": "4.0.4", "AgentName": "Stock Android Browser", "AgentVersion": "4.0.4"}},
		{"EXAMPLE_E100_TD/1.0 Android/2.3.5 (Linux 2.6.35.7) Release/01.02.2012 Browser/WAP2.0 Profile/MIDP-2.0 Configuration/CLDC-1.1",
			map[string]string{"OperatingSystemVersion": "2.3.5", "AgentName": "Stock Android Browser", "AgentVersionMajor": "2"}},
		// An agent made of nothing but Android's release, engine and build.
		{"Android 4.2.2;AppleWebKit/534.30;Build/JDQ39;EXAMPLE A10 Build/JDQ39",
			map[string]string{"OperatingSystemVersion": "4.2.2", "AgentName": "Stock Android Browser", "AgentVersionMajor": "4", "LayoutEngineName": "AppleWebKit"}},
		// UC Browser for Android's early agent names it before the engine.
		{"Mozilla/5.0 (Linux; U; Android 2.3.5; en-us; GT-S5830 Build/GINGERBREAD) UC AppleWebKit/530+ (KHTML, like Gecko) Mobile Safari/530",
			map[string]string{"AgentName": "UCBrowser", "AgentVersion": "Unknown", "LayoutEngineName": "AppleWebKit", "LayoutEngineVersionMajor": "530"}},
		// MediaTek's feature phones name the MAUI Runtime Environment
		// they run, with its build glued to the release or not.
		{"EXAMPLE61D_11C_HW (MRE/3.1.00(64);MAUI/EXAMPLE_S100_20170101;BDATE/2017/01/01 10:00;LCD/240320;CHIP/MT6261;KEY/Normal;WAP Browser/MAUI ();)",
			map[string]string{"OperatingSystemName": "MRE", "OperatingSystemVersion": "3.1", "AgentName": "MAUI WAP Browser", "DeviceClass": "Mobile"}},
		{"EXAMPLE61D_11C_HW MRE/3.1.00900;MAUI/EXAMPLE_V01_20170101_MP;BDATE/2017/01/01 10:00;LCD/128160;CHIP/MT6261;WAP Browser/MAUI ;",
			map[string]string{"OperatingSystemName": "MRE", "OperatingSystemVersion": "3.1", "AgentName": "MAUI WAP Browser"}},
	}
	a := New(Options{})
	for _, tt := range tests {
		r := a.Analyze(tt.ua)
		checkResult(t, tt.ua, r)
		for name, want := range tt.want {
			if got := r.Get(name); got != want {
				t.Errorf("%s = %q, want %q for %q", name, got, want, tt.ua)
			}
		}
	}
}

func TestAttributeNames(t *testing.T) {
	names := AttributeNames()
	if len(names) != 53 {
		t.Fatalf("%d attribute names, the specification lists 53", len(names))
	}
	if names[0] != "DeviceClass" || names[len(names)-1] != "WebviewAppVersionMajor" {
		t.Errorf("names out of specification order: %v", names)
	}
	for _, n := range names {
		if !IsAttribute(n) {
			t.Errorf("IsAttribute(%q) = false", n)
		}
	}
	if IsAttribute("deviceclass") || IsAttribute("Nope") {
		t.Error("IsAttribute accepts names outside the list")
	}
	names[0] = "changed"
	if AttributeNames()[0] != "DeviceClass" {
		t.Error("AttributeNames returns shared state")
	}
	var zero Result
	if zero.Get("DeviceClass") != Unknown || zero.Get("Nope") != "" {
		t.Error("zero Result must answer Unknown for attributes and empty for other names")
	}
}

func TestCacheConcurrentUse(t *testing.T) {
	cases := loadDev(t)
	plain := New(Options{})
	cached := New(Options{CacheSize: 256}) // smaller than the set: evictions happen
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := g; i < len(cases); i += 3 {
				ua := cases[i].UA
				want := plain.Analyze(ua)
				got := cached.Analyze(ua)
				if got.Map()["AgentName"] != want.Map()["AgentName"] || got.Get("DeviceName") != want.Get("DeviceName") {
					t.Errorf("cached result differs for %q", ua)
					return
				}
			}
		}(g)
	}
	wg.Wait()
	if n := cached.cache.len(); n > 256+64 || n == 0 {
		t.Errorf("cache holds %d entries, want about 256", n)
	}
}

func TestRunLines(t *testing.T) {
	long := "Mozilla/5.0 " + strings.Repeat("x", 200000) // longer than bufio.Scanner's default limit
	in := "Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0\r\n\ncurl/8.0\n" + long + "\nno newline at end"
	var out bytes.Buffer
	if err := RunLines(strings.NewReader(in), &out, New(Options{CacheSize: 10})); err != nil {
		t.Fatalf("RunLines: %v", err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 5 {
		t.Fatalf("got %d output lines, want 5", len(lines))
	}
	wantAgent := []string{"Firefox", "Hacker", "Curl", "Hacker", "No Newline At End"}
	for i, l := range lines {
		var m map[string]string
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("line %d is not JSON: %v", i, err)
		}
		if len(m) != len(AttributeNames()) {
			t.Errorf("line %d has %d attributes, want %d", i, len(m), len(AttributeNames()))
		}
		if i < 4 && m["AgentName"] != wantAgent[i] {
			t.Errorf("line %d AgentName = %q, want %q", i, m["AgentName"], wantAgent[i])
		}
	}
	// The keys come in specification order.
	if !strings.HasPrefix(lines[0], `{"DeviceClass":`) {
		t.Errorf("first key is not DeviceClass: %.40s", lines[0])
	}
}

func TestRunLinesInvalidUTF8(t *testing.T) {
	var out bytes.Buffer
	if err := RunLines(strings.NewReader("Mozilla/5.0 (\xff\xfe)\n"), &out, nil); err != nil {
		t.Fatalf("RunLines: %v", err)
	}
	if !utf8.Valid(out.Bytes()) || !json.Valid(bytes.TrimSpace(out.Bytes())) {
		t.Errorf("output is not valid UTF-8 JSON: %q", out.String())
	}
}

func FuzzAnalyze(f *testing.F) {
	for _, s := range []string{
		"", "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
		"Mozilla/5.0 (Linux; Android 9; MI 6 Build/PKQ1.190118.001; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/93.0.4577.62 Mobile Safari/537.36",
		"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", "../../etc/passwd", "() { :;}; echo",
		"Mozilla%2F5.0+%28Linux%3B+Android+9%29", "[FBAN/FB4A;FBAV/1.0;]", "a/b/c (d; e [f; g] {h})",
		"/5.0 (compatible; Googlebot/2.1)", "Mozilla/5.0 (Linux;CE-HTML/1.0;U;en), Chrome/49.0 Safari/537.36 AppleWebKit",
	} {
		f.Add(s)
	}
	plain := New(Options{})
	cached := New(Options{CacheSize: 64})
	f.Fuzz(func(t *testing.T, ua string) {
		// The rules without the safety net of analyzeSafe first: a panic
		// there would otherwise hide behind an all-Unknown answer.
		analyze(ua)
		r1 := plain.Analyze(ua)
		r2 := cached.Analyze(ua)
		r3 := cached.Analyze(ua)
		for i, n := range attributeNames {
			v := r1.value(i)
			if v == "" {
				t.Fatalf("%s is empty for %q", n, ua)
			}
			if r2.value(i) != v || r3.value(i) != v {
				t.Fatalf("%s differs between runs for %q: %q %q %q", n, ua, v, r2.value(i), r3.value(i))
			}
		}
	})
}

func BenchmarkAnalyzeUncached(b *testing.B) {
	cases := loadDev(b)
	uas := make([]string, len(cases))
	for i, c := range cases {
		uas[i] = c.UA
	}
	a := New(Options{})
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		a.Analyze(uas[i%len(uas)])
	}
}

func BenchmarkAnalyzeCached(b *testing.B) {
	cases := loadDev(b)
	uas := make([]string, len(cases))
	for i, c := range cases {
		uas[i] = c.UA
	}
	a := New(Options{CacheSize: 10000})
	for _, ua := range uas {
		a.Analyze(ua)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		a.Analyze(uas[i%len(uas)])
	}
}

func ExampleAnalyzer_Analyze() {
	a := New(Options{CacheSize: 1000})
	r := a.Analyze("Mozilla/5.0 (Linux; Android 10; SAMSUNG SM-T865) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/71.0.3578.99 Safari/537.36")
	fmt.Println(r.Get("DeviceClass"), "|", r.Get("DeviceName"), "|", r.Get("OperatingSystemNameVersion"), "|", r.Get("AgentNameVersionMajor"))
	// Output: Tablet | Samsung SM-T865 | Android 10 | Chrome 71
}
