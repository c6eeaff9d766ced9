package uaparse

import "testing"

// TestEdgeVersions shows rows of tables/edge_versions.tsv (Yauaa's
// EdgeHtmlVersionToEdgeVersion lookup) giving legacy Edge's release, on
// user agents written for the test in the shape legacy Edge sends, and
// the fallback by EdgeHTML major version for a build the table does not
// list.
func TestEdgeVersions(t *testing.T) {
	const ua = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/52.0.2743.116 Safari/537.36 Edge/"
	for _, c := range []struct{ edge, want string }{
		{"14.14291", "34.14291"}, // the table: the release that shipped this build
		{"15.14942", "39.14942"}, // EdgeHTML 15 builds shipped in Edge 39 before Edge 40
		{"16.16299", "41.16299.15"},
		{"15.99999", "40.99999"}, // not listed: the release of EdgeHTML 15
	} {
		if got := New(Options{}).Analyze(ua + c.edge).Get("AgentVersion"); got != c.want {
			t.Errorf("AgentVersion of Edge/%s = %q, want %q", c.edge, got, c.want)
		}
	}
}
