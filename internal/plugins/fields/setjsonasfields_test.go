package fields_test

import (
	"testing"

	"github.com/weir-streams/weir/internal/plugins/fields"
	"github.com/weir-streams/weir/internal/record"
)

func TestSetJsonAsFields(t *testing.T) {
	doc := `{"name":"bob","age":42,"ratio":0.5,"ok":true,"none":null,"empty":"","tags":["a","b"],"geo":{"city":"Paris"}}`
	for _, tt := range []struct {
		name  string
		props map[string]string
		in    []any
		want  string
	}{
		{"defaults", nil, []any{record.FieldValue, doc},
			`name="bob" age=42 ratio=0.5 ok=true none=null empty="" tags=["a","b"] geo={"city":"Paris"}`},
		{"omit and keep", map[string]string{"keep.json.field": "true", "omit.null.attributes": "true", "omit.empty.string.attributes": "true", "json.field": "j"},
			[]any{"j", `{"a":null,"b":"","c":"x"}`}, `j="{\"a\":null,\"b\":\"\",\"c\":\"x\"}" c="x"`},
		{"no overwrite", map[string]string{"overwrite.existing.field": "false"}, []any{"name", "alice", record.FieldValue, `{"name":"bob"}`}, `name="alice"`},
		{"overwrite", nil, []any{"name", "alice", record.FieldValue, `{"name":"bob"}`}, `name="bob"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, _ := build(t, fields.SetJsonAsFieldsSpec(), tt.props)
			out := process(t, p, rec(tt.in...))
			if out[0].HasErrors() {
				t.Fatal(out[0].Errors())
			}
			if got := userFields(out[0]); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
	p, _ := build(t, fields.SetJsonAsFieldsSpec(), nil)
	out := process(t, p, rec(record.FieldValue, `[1,2]`))
	if !out[0].HasErrors() || !out[0].Has(record.FieldValue) {
		t.Errorf("a JSON array: errors %v, value kept %v", out[0].Errors(), out[0].Has(record.FieldValue))
	}
}
