package uaparse

import "testing"

// TestRobotWordExamples checks rows of tables/robot_words.tsv with a user
// agent each: the word or product makes the client a robot, on the device
// and on the agent.
func TestRobotWordExamples(t *testing.T) {
	a := New(Options{})
	for _, c := range []struct{ row, ua string }{
		{"monitoring", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 example_partner_monitoring"},
		{"auditor", "Mozilla/5.0 (compatible; ExampleSiteAuditor)"},
		{"extractor", "Mozilla/5.0 (compatible; ExampleExtractor/1.0)"},
		{"prospecting", "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) ExampleProspecting/0.1 Safari/537.36"},
		{"observatory", "Mozilla/5.0 (Linux; Android 11; Pixel 5) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36 ExampleObservatory/1.0"},
		{"lighthouse", "Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36 Chrome-Lighthouse"},
		{"firecrawlagent", "Mozilla/5.0 (compatible; FirecrawlAgent/1.0)"},
		{"anthropic", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Anthropic-Claude/1.0; +https://www.anthropic.com)"},
		{"claude-user", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-User/1.0; +Claude-User@anthropic.com)"},
		{"character-ai", "Mozilla/5.0 (compatible; Character-AI/1.0; +https://character.ai/)"},
		{"uptimia", "Mozilla/5.0 (compatible; Uptimia; www.uptimia.com)"},
	} {
		r := a.Analyze(c.ua)
		if got := r.Get("AgentClass"); got != "Robot" {
			t.Errorf("%s: AgentClass of %q = %q, want Robot", c.row, c.ua, got)
		}
		if got := r.Get("DeviceClass"); got != "Robot" && got != "Robot Mobile" {
			t.Errorf("%s: DeviceClass of %q = %q, want Robot or Robot Mobile", c.row, c.ua, got)
		}
	}
}
