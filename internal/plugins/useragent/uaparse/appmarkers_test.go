package uaparse

import "testing"

// TestAppMarkerExamples checks every row of tables/app_markers.tsv: its
// example user agent names the row's app.
func TestAppMarkerExamples(t *testing.T) {
	a := New(Options{})
	for _, r := range loadTable("app_markers.tsv", tableColumns["app_markers.tsv"]) {
		if got := a.Analyze(r[3]).Get("AgentName"); got != r[2] {
			t.Errorf("%s %s: AgentName of %q = %q, want %q", r[0], r[1], r[3], got, r[2])
		}
	}
}
