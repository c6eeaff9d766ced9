package fields_test

import (
	"strings"
	"testing"

	"github.com/weir-streams/weir/internal/plugins/fields"
	"github.com/weir-streams/weir/internal/record"
)

func TestEvaluateJsonPath(t *testing.T) {
	doc := `{"user":{"name":"bob","age":42},"items":[{"id":1},{"id":2}],"ok":true}`
	for _, tt := range []struct {
		name  string
		props map[string]string
		want  string
		err   string
	}{
		{"scalars", map[string]string{"user_name": "$.user.name", "age": "$.user.age", "first": "$.items[0].id", "ok": "$.ok"},
			`age=42 first=1 ok=true user_name="bob"`, ""},
		{"several scalars", map[string]string{"ids": "$.items[*].id"}, `ids=[1,2]`, ""},
		{"json", map[string]string{"user": "$.user", "return.type": "json"}, `user="{\"age\":42,\"name\":\"bob\"}"`, ""},
		{"not found ignored", map[string]string{"x": "$.nope"}, ``, ""},
		{"object as scalar", map[string]string{"user": "$.user"}, "", fields.ErrJSONPath},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, _ := build(t, fields.EvaluateJsonPathSpec(), tt.props)
			out := process(t, p, rec(record.FieldValue, doc))
			if tt.err != "" {
				if len(out[0].Errors()) != 1 || !strings.HasPrefix(out[0].Errors()[0], tt.err) {
					t.Errorf("errors = %v", out[0].Errors())
				}
				return
			}
			out[0].Remove(record.FieldValue)
			if got := userFields(out[0]); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
	p, _ := build(t, fields.EvaluateJsonPathSpec(), map[string]string{"x": "$.a"})
	if out := process(t, p, rec(record.FieldValue, "not json")); len(out[0].Errors()) != 1 || !strings.HasPrefix(out[0].Errors()[0], fields.ErrInvalidJSONField) {
		t.Errorf("not JSON: errors = %v", out[0].Errors())
	}
	msg := buildErr(t, fields.EvaluateJsonPathSpec(), map[string]string{"x": "$.a[", "y": "$.b"})
	if !strings.Contains(msg, `property "x"`) {
		t.Errorf("error = %s", msg)
	}
}
