package fields_test

import (
	"strings"
	"testing"

	"github.com/weir-streams/weir/internal/plugins/fields"
)

func TestAddFields(t *testing.T) {
	for _, tt := range []struct {
		name  string
		props map[string]string
		in    []any
		want  string
	}{
		// The first example of LogIsland's AddFields-Detail.rst.
		{"logisland constants", map[string]string{"newStringField": "bonjour", "newIntField": "14", "newIntField.field.type": "INT"},
			nil, `newIntField=14 newStringField="bonjour"`},
		// The second example: an expression for the value, one for the name.
		{"logisland expressions", map[string]string{"newStringField": `${field1 + "-" + field2}`, "fieldToCalulateKey": "555",
			"fieldToCalulateKey.field.name": `${"_" + field1 + "-"}`},
			[]any{"field1", "bonjour", "field2", 14}, `field1="bonjour" field2=14 _bonjour-="555" newStringField="bonjour-14"`},
		// The third: a field whose name ends in a reserved suffix, named by
		// .field.name (the doc's sample repeats .field.type, a key YAML
		// cannot hold twice; its text says .field.name is the way).
		{"logisland reserved suffix", map[string]string{"fieldWithReservedSuffix": "bonjour",
			"fieldWithReservedSuffix.field.name": "myfield.endind.with.reserved.suffix.field.type"},
			nil, `myfield.endind.with.reserved.suffix.field.type="bonjour"`},
		{"existing kept by default", map[string]string{"a": "new"}, []any{"a", "old"}, `a="old"`},
		{"overwrite", map[string]string{"a": "new", "conflict.resolution.policy": "overwrite_existing"}, []any{"a", "old"}, `a="new"`},
		{"boolean from expression", map[string]string{"is_error": `${http_status >= 500}`}, []any{"http_status", 503}, `http_status=503 is_error=true`},
		{"typed double", map[string]string{"ratio": "0.25", "ratio.field.type": "DOUBLE"}, nil, `ratio=0.25`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, _ := build(t, fields.AddFieldsSpec(), tt.props)
			out := process(t, p, rec(tt.in...))
			if out[0].HasErrors() {
				t.Fatalf("errors: %v", out[0].Errors())
			}
			if got := userFields(out[0]); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

func TestAddFieldsErrors(t *testing.T) {
	p, _ := build(t, fields.AddFieldsSpec(), map[string]string{"n": "abc", "n.field.type": "INT"})
	out := process(t, p, rec())
	if len(out[0].Errors()) != 1 || !strings.HasPrefix(out[0].Errors()[0], fields.ErrExpression) {
		t.Errorf("errors = %v", out[0].Errors())
	}
	msg := buildErr(t, fields.AddFieldsSpec(), map[string]string{"x": "${a ==}"})
	if !strings.Contains(msg, `property "x"`) || !strings.Contains(msg, "column") {
		t.Errorf("error = %s", msg)
	}
	msg = buildErr(t, fields.AddFieldsSpec(), map[string]string{"x.field.type": "INT"})
	if !strings.Contains(msg, "no key adds") {
		t.Errorf("error = %s", msg)
	}
}
