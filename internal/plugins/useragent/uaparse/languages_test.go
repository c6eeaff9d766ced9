package uaparse

import "testing"

// TestLanguageTable shows rows of tables/languages.tsv (Yauaa's
// ISOLanguageCodes lookups) naming the client's language, on user agents
// written for the test: locales whose name the table gives in Yauaa's
// words, a locale of a country the rules' own names do not hold, a
// language with an empty country, and a locale no row lists, which keeps
// the name built from its parts.
func TestLanguageTable(t *testing.T) {
	const before, after = "Mozilla/5.0 (Linux; U; Android 4.4.2; ", "; Example-1 Build/KOT49H) AppleWebKit/534.30 (KHTML, like Gecko) Version/4.0 Mobile Safari/534.30"
	for _, c := range []struct{ locale, code, name string }{
		{"bn-BD", "bn-bd", "Bangla (Bangladesh)"},
		{"fa-IR", "fa-ir", "Farsi (Iran)"},
		{"zh-CN", "zh-cn", "Chinese (S)"},
		{"ar-JO", "ar-jo", "Arabic (Jordan)"},
		{"ak_GH", "ak-gh", "Akan (Ghana)"},
		{"pt-", "pt", "Portuguese"},
		{"en-US", "en-us", "English (United States)"},
		// No row: the language's and the country's names.
		{"de-US", "de-us", "German (United States)"},
		{"en-UK", "en-uk", "English (United Kingdom)"},
	} {
		r := New(Options{}).Analyze(before + c.locale + after)
		if got := r.Get("AgentLanguageCode"); got != c.code {
			t.Errorf("AgentLanguageCode of %s = %q, want %q", c.locale, got, c.code)
		}
		if got := r.Get("AgentLanguage"); got != c.name {
			t.Errorf("AgentLanguage of %s = %q, want %q", c.locale, got, c.name)
		}
	}
}
