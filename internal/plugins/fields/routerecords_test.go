package fields_test

import (
	"strings"
	"testing"

	"github.com/weir-streams/weir/internal/plugins/fields"
	"github.com/weir-streams/weir/internal/record"
)

func TestRouteRecords(t *testing.T) {
	for _, tt := range []struct {
		name  string
		props map[string]string
		in    []any
		want  string // the topic, "" for none, "!" for an error
	}{
		{"expression", map[string]string{"output.topic.expression": `${http_status >= 500 ? "logs_5xx" : "logs"}`}, []any{"http_status", 503}, "logs_5xx"},
		{"expression other", map[string]string{"output.topic.expression": `${http_status >= 500 ? "logs_5xx" : "logs"}`}, []any{"http_status", 200}, "logs"},
		{"constant", map[string]string{"output.topic.expression": `"all_logs"`}, nil, "all_logs"},
		{"field", map[string]string{"output.topic.field": "tenant"}, []any{"tenant", "acme"}, "acme"},
		{"missing field, default", map[string]string{"output.topic.field": "tenant", "output.topic.default": "others"}, nil, "others"},
		{"empty field, no default", map[string]string{"output.topic.field": "tenant"}, []any{"tenant", ""}, ""},
		{"null expression, default", map[string]string{"output.topic.expression": "${tenant}", "output.topic.default": "others"}, nil, "others"},
		{"invalid topic name", map[string]string{"output.topic.field": "tenant"}, []any{"tenant", "a b"}, "!"},
		{"expression error", map[string]string{"output.topic.expression": "${tenant * 2}"}, []any{"tenant", "x"}, "!"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, _ := build(t, fields.RouteRecordsSpec(), tt.props)
			out := process(t, p, rec(tt.in...))
			if tt.want == "!" {
				if len(out[0].Errors()) != 1 || !strings.HasPrefix(out[0].Errors()[0], fields.ErrRoute) {
					t.Errorf("errors = %v", out[0].Errors())
				}
				return
			}
			got, _ := out[0].GetString(record.FieldOutputTopic)
			if got != tt.want {
				t.Errorf("topic %q, want %q", got, tt.want)
			}
		})
	}
	p, _ := build(t, fields.RouteRecordsSpec(), map[string]string{"output.topic.expression": `"fixed"`, "output.topic.default": "d", "output.topics.known": "a,b"})
	if got := strings.Join(p.(*fields.RouteRecords).RoutedTopics(), ","); got != "fixed,d,a,b" {
		t.Errorf("RoutedTopics = %s", got)
	}
	buildErr(t, fields.RouteRecordsSpec(), map[string]string{})
	buildErr(t, fields.RouteRecordsSpec(), map[string]string{"output.topic.expression": `"bad topic"`})
	buildErr(t, fields.RouteRecordsSpec(), map[string]string{"output.topic.field": "a", "output.topic.default": "bad/topic"})
}

// TestRouteRecordsChecksEachNewName routes a batch whose topic names
// repeat and change: a name already checked is not checked again, but
// every new one is.
func TestRouteRecordsChecksEachNewName(t *testing.T) {
	p, _ := build(t, fields.RouteRecordsSpec(), map[string]string{"output.topic.field": "tenant"})
	names := []string{"acme", "acme", "a b", "a b", "acme", "x/y", "beta"}
	var recs []*record.Record
	for _, n := range names {
		recs = append(recs, rec("tenant", n))
	}
	for i, r := range process(t, p, recs...) {
		bad := strings.ContainsAny(names[i], " /")
		if got, _ := r.GetString(record.FieldOutputTopic); r.HasErrors() != bad || !bad && got != names[i] {
			t.Errorf("record %d (%q): topic %q, errors %v", i, names[i], got, r.Errors())
		}
	}
}
