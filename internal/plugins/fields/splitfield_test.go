package fields_test

import (
	"regexp"
	"testing"

	"github.com/weir-streams/weir/internal/plugins/fields"
	"github.com/weir-streams/weir/internal/record"
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

// TestSplitFieldBatch: in one batch, texts that repeat (which take the
// parts split earlier in the batch) and two rules over the same texts with
// different separators give each record the parts regexp.Split gives, with
// the counter, across batches and in records whose fields are in other
// orders.
func TestSplitFieldBatch(t *testing.T) {
	p, _ := build(t, fields.SplitFieldSpec(), map[string]string{"a": "a_parts:/", "b": `b_parts:\s*[/?]\s*`,
		"split.counter.enable": "true", "split.limit": "3"})
	texts := []string{"/x/y", "/x/y", "p ? q/r", "/x/y", "", "a/b/c/d", "p ? q/r", "a/b/c/d"}
	for round := 0; round < 2; round++ {
		var recs []*record.Record
		for i, s := range texts {
			if i%3 == 0 {
				recs = append(recs, rec("b", s, "a", s))
			} else {
				recs = append(recs, rec("a", s, "b", s))
			}
		}
		out := process(t, p, recs...)
		for i, r := range out {
			s := texts[i]
			for _, c := range []struct{ field, sep string }{{"a_parts", "/"}, {"b_parts", `\s*[/?]\s*`}} {
				v, ok := r.Get(c.field)
				if s == "" {
					if ok {
						t.Errorf("record %d: %s set from an empty text", i, c.field)
					}
					continue
				}
				want := record.StringsValue(regexp.MustCompile(c.sep).Split(s, 3))
				if !ok || !v.Equal(want) {
					t.Errorf("round %d record %d %q: %s = %s, want %s", round, i, s, c.field, v, want)
				}
				n, _ := r.Get(c.field + "Counter")
				if w, _ := want.AsArray(); !n.Equal(record.IntValue(int64(len(w)))) {
					t.Errorf("record %d: %sCounter = %s, want %d", i, c.field, n, len(w))
				}
			}
		}
	}
}
