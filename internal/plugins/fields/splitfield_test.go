package fields_test

import (
	"testing"

	"github.com/weir-streams/weir/internal/plugins/fields"
)

func TestSplitField(t *testing.T) {
	for _, tt := range []struct {
		name  string
		props map[string]string
		in    []any
		want  string
	}{
		// The settings of LogIsland's SplitField test (description:
		// textArray:-, description1: descArray:\s*\+\s* with the counter).
		{"logisland dash", map[string]string{"description": "textArray:-"}, []any{"description", "a-b-c"},
			`description="a-b-c" textArray=["a","b","c"]`},
		{"logisland counter", map[string]string{"description1": `descArray:\s*\+\s*`, "split.counter.enable": "true"},
			[]any{"description1", "x + y+z"}, `description1="x + y+z" descArray=["x","y","z"] descArrayCounter=3`},
		{"limit", map[string]string{"q": "parts:/", "split.limit": "2"}, []any{"q", "a/b/c"}, `q="a/b/c" parts=["a","b/c"]`},
		{"keep old", map[string]string{"q": "parts:/"}, []any{"q", "a/b", "parts", "x"}, `q="a/b" parts="x"`},
		{"overwrite", map[string]string{"q": "parts:/", "conflict.resolution.policy": "overwrite_existing"}, []any{"q", "a/b", "parts", "x"}, `q="a/b" parts=["a","b"]`},
		{"empty source", map[string]string{"q": "parts:/"}, []any{"q", ""}, `q=""`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, _ := build(t, fields.SplitFieldSpec(), tt.props)
			out := process(t, p, rec(tt.in...))
			if got := userFields(out[0]); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
	buildErr(t, fields.SplitFieldSpec(), map[string]string{"q": "noregex"})
	buildErr(t, fields.SplitFieldSpec(), map[string]string{"q": "t:("})
}
