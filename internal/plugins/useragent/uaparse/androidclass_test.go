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
