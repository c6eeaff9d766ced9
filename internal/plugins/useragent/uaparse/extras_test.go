package uaparse

import "testing"

// TestInformationAttributes checks the language, Internet Explorer
// compatibility and UUID attributes on hand-made user agents.
func TestInformationAttributes(t *testing.T) {
	a := New(Options{})
	tests := []struct {
		ua, attr, want string
	}{
		{"Mozilla/5.0 (Windows; U; Windows NT 5.1; de; rv:1.9.0.7) Gecko/2009021910 Firefox/3.0.7", "AgentLanguageCode", "de"},
		{"Mozilla/5.0 (Windows; U; Windows NT 5.1; de; rv:1.9.0.7) Gecko/2009021910 Firefox/3.0.7", "AgentLanguage", "German"},
		{"Mozilla/5.0 (Linux; U; Android 4.0.3; en-US; GT-I9100 Build/IML74K) AppleWebKit/534.30 (KHTML, like Gecko) Version/4.0 Mobile Safari/534.30", "AgentLanguage", "English (United States)"},
		{"app/1.0 (Linux; U; Android 7.0; zh_CN_#Hans; SM-A510F Build/NRD90M)", "AgentLanguageCode", "zh-cn"},
		{"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36", "AgentLanguage", Unknown},
		{"Mozilla/4.0 (compatible; MSIE 7.0; Windows NT 6.1; WOW64; Trident/7.0; SLCC2)", "IECompatibilityNameVersion", "Internet Explorer 7.0"},
		{"Mozilla/4.0 (compatible; MSIE 7.0; Windows NT 6.1; WOW64; Trident/7.0; SLCC2)", "IECompatibilityVersionMajor", "7"},
		{"Mozilla/5.0 (compatible; MSIE 10.0; Windows NT 6.1; Trident/6.0)", "IECompatibilityVersion", Unknown},
		{"App/2.1 (Android 6.0.1; GooglePlay; 04762253-8940-49b0-b622-53894039b08c)", "AgentUuid", "04762253-8940-49b0-b622-53894039b08c"},
		{"App/2.1 (Android 6.0.1; 04762253-8940-49b0-b622)", "AgentUuid", Unknown},
	}
	for _, tc := range tests {
		if got := a.Analyze(tc.ua).Get(tc.attr); got != tc.want {
			t.Errorf("%s of %q = %q, want %q", tc.attr, tc.ua, got, tc.want)
		}
	}
}

// TestEmailForms shows the contact address read from the forms robots and
// forged strings write it in, with made-up names: spelled out against
// harvesters, the "@" escaped, glued to the version of the product before.
func TestEmailForms(t *testing.T) {
	email := func(want string) map[string]string { return map[string]string{"AgentInformationEmail": want} }
	checkRuleCases(t, []ruleCase{
		{"Mozilla/5.0 (compatible; ExampleBot/2.1; crawler [at] example [dot] org)", email("crawler@example.org")},
		{"Mozilla/5.0 (compatible; ExampleBot/2.1; crawler[at]example[dot]co[dot]uk)", email("crawler@example.co.uk")},
		{"Mozilla/5.0 (compatible; ExampleBot/2.1; crawler [AT] mail.example.org)", email("crawler@mail.example.org")},
		{"ExampleFetcher/3.0 (ops-team at example-labs dot io)", email("ops-team@example-labs.io")},
		{"Mozilla/5.0 (compatible; ExampleSurvey/1.0; +ops\\@example.net)", email("ops@example.net")},
		{"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36tester@example.io",
			email("tester@example.io")},
		{"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36+tester@example.io",
			email("tester@example.io")},
		// Not addresses: "at" as English, a domain without a spelled dot, a
		// local part that is only a version, "[at]" with nothing before.
		{"ExampleApp/1.0 (made at example dot)", email("Unknown")},
		{"ExampleApp/1.0 (running at home on example.org)", email("Unknown")},
		{"ExampleApp/1.0 ([at] example [dot] org)", email("Unknown")},
		{"ExampleApp/1.0 (crawler [at] example)", email("Unknown")},
		// A local part with digits of its own stays whole.
		{"ExampleBot/1.0 (bot2024@example.org)", email("bot2024@example.org")},
		{"ExampleBot/1.0 (+2024.bot@example.org)", email("2024.bot@example.org")},
	})
}
