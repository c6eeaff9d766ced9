package uaparse

import (
	"strings"
	"testing"
)

// TestDarwinReleases shows the Darwin kernel version of CFNetwork clients
// read through the longest matching prefix of tables/system_releases.tsv
// (darwin-macos, darwin-ios). The app names are made up: the rule reads the
// "App/version CFNetwork/version Darwin/version" shape, whatever the app.
func TestDarwinReleases(t *testing.T) {
	ios := func(v string) map[string]string {
		return map[string]string{"OperatingSystemName": "iOS", "OperatingSystemVersion": v, "DeviceBrand": "Apple"}
	}
	mac := func(v string) map[string]string {
		return map[string]string{"OperatingSystemName": "Mac OS", "OperatingSystemVersion": v, "DeviceName": "Apple Macintosh"}
	}
	checkRuleCases(t, []ruleCase{
		// A listed minor release.
		{"ExampleReader/812 CFNetwork/1331.0.7 Darwin/21.4.0", ios("15.4")},
		{"ExampleReader/812 CFNetwork/1240.0.4 Darwin/20.6.0", ios("14.7 beta 2")},
		// The prefix "20.6." covers every patch level of it.
		{"ExampleReader/812 CFNetwork/1240.0.4 Darwin/20.6.3", ios("14.7 beta 2")},
		// A minor release the table does not list: the major's row.
		{"ExampleReader/812 CFNetwork/1333.0.4 Darwin/21.9.0", ios("15.?")},
		// A major without a row of Yauaa's (Darwin 12 is iOS 6), and a
		// version without a dot: the major-only names.
		{"ExampleReader/812 CFNetwork/609 Darwin/12.2.0", ios("6.?")},
		{"ExampleReader/812 CFNetwork/758 Darwin/15", ios("9.?")},
		// macOS: an architecture in the comment makes it a Mac.
		{"Example Tool (unknown version) CFNetwork/720.5.7 Darwin/14.5.0 (x86_64)", mac("10.10.5")},
		{"Example Tool (unknown version) CFNetwork/720.2.4 Darwin/14.2.0 (x86_64)", mac("10.10.?")},
		{"Example Tool (unknown version) CFNetwork/976 Darwin/18.2.0 (x86_64)", mac("10.14.1")},
		{"Example Tool (unknown version) CFNetwork/1128 Darwin/19.6.0 (x86_64)", mac("10.15.6 beta 2")},
		// Snow Leopard's 32-bit kernel names the older Intel processor.
		{"Safari/6534 CFNetwork/454 Darwin/10.8.0 (i386)", mac("10.6.8")},
		{"ExampleReader/812 CFNetwork/454.12.4 Darwin/10.8.0 (i386)", mac("10.6.8")},
	})
}

func TestDarwinReleaseBounded(t *testing.T) {
	// A hostile version costs at most a dozen lookups and finds its prefix.
	if r, ok := darwinRelease(darwinIOS, "21.4."+strings.Repeat("9", 100000)); !ok || r != "15.4" {
		t.Errorf("darwinRelease of a long 21.4 version = %q, %v; want 15.4", r, ok)
	}
	if _, ok := darwinRelease(darwinIOS, "x"+strings.Repeat("1", 100)); ok {
		t.Error("darwinRelease found a release for a version that starts with a letter")
	}
}

// TestSystemAsCommentProduct shows the system named as a product inside the
// comment, as Microsoft Office's apps send it ("Mac OS/10.15.7",
// "iOS/14.2"), with the device the Apple model identifier beside it names.
// The app names are made up.
func TestSystemAsCommentProduct(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{"Example Office Word/16.43.1108 (Mac OS/10.15.7; Desktop; en-US; AppStore; Apple/MacBookPro16,2)",
			map[string]string{"OperatingSystemName": "Mac OS", "OperatingSystemVersion": "10.15.7", "DeviceClass": "Desktop", "DeviceName": "Apple Macintosh"}},
		{"Example Office Word/2.45.106 (iOS/14.2; Tablet; en-US; AppStore; Apple/iPad8,1)",
			map[string]string{"OperatingSystemName": "iOS", "OperatingSystemVersion": "14.2", "DeviceClass": "Tablet", "DeviceName": "Apple iPad"}},
		{"Example Office Mobile/2.45.106 (iOS/14.3; Phone; en-US; AppStore; Apple/iPhone12,1)",
			map[string]string{"OperatingSystemName": "iOS", "OperatingSystemVersion": "14.3", "DeviceClass": "Phone", "DeviceBrand": "Apple"}},
	})
}

// TestWatchOS shows the Apple Watch's system named in a comment entry, or
// in the "[Watch OS,version,build,model]" list of Apple's system services,
// with the watch as the device. The app names are made up.
func TestWatchOS(t *testing.T) {
	watch := func(v string) map[string]string {
		return map[string]string{"OperatingSystemName": "watchOS", "OperatingSystemVersion": v, "DeviceClass": "Watch", "DeviceName": "Apple Watch"}
	}
	checkRuleCases(t, []ruleCase{
		{"example-service [Watch OS,10.0,21R355,Watch7,4]", watch("10.0")},
		{"ExampleWatchApp/4.3.0 (Watch1,2; watchOS 3.2.2)", watch("3.2.2")},
	})
}

// TestIPhoneAsWord shows the iPhone read only where the word stands as a
// word: inside an app's bundle identifier ("com.Example.ExampleIphone.beta")
// it names no device, and the device is Yauaa's generic "Apple iOS Device".
// The app names are made up.
func TestIPhoneAsWord(t *testing.T) {
	generic := map[string]string{"DeviceClass": "Mobile", "DeviceName": "Apple iOS Device", "OperatingSystemName": "iOS"}
	phone := map[string]string{"DeviceClass": "Phone", "DeviceName": "Apple iPhone", "OperatingSystemName": "iOS"}
	checkRuleCases(t, []ruleCase{
		{"Beta-Example/13 (com.Example.ExampleIphone.beta; build:1137; iOS 13.2.2) Alamofire/5.2.2", generic},
		{"Example/2.1 (com.example.appiphone; iOS 14.4) Alamofire/5.4.1", generic},
		{"Example/2.1 (iPhone; iOS 14.4; Scale/3.00)", phone},
		{"Example/2.1 (com.example.app; iOS 14.4) Alamofire/5.4.1 iPhone/14.4", phone},
		{"Mozilla/5.0 (iPhone; CPU iPhone OS 14_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBForIPhone]", phone},
		{"Mozilla/5.0(iPhone;CPUiPhoneOS18_6likeMacOSX)AppleWebKit/605.1.15(KHTML,likeGecko)Mobile/15E148", phone},
	})
}
