package fields_test

import (
	"strings"
	"testing"

	"github.com/weir-streams/weir/internal/plugins/fields"
)

func TestConvertFieldsType(t *testing.T) {
	for _, tt := range []struct {
		name  string
		props map[string]string
		in    []any
		want  string
		errs  int
	}{
		{"access log numbers", map[string]string{"http_status": "int", "bytes_out": "long"},
			[]any{"http_status", "200", "bytes_out", "203023"}, `http_status=200 bytes_out=203023`, 0},
		{"apache dash is kept", map[string]string{"bytes_out": "long"},
			[]any{"bytes_out", "-"}, `bytes_out="-"`, 0},
		{"float and double", map[string]string{"a": "float", "b": "DOUBLE"},
			[]any{"a", "1.5", "b", 2}, `a=1.5 b=2`, 0},
		{"whole float to int", map[string]string{"a": "int", "b": "int"},
			[]any{"a", 3.0, "b", "4.0"}, `a=3 b=4`, 0},
		{"fraction does not become int", map[string]string{"a": "int"},
			[]any{"a", 3.5}, `a=3.5`, 0},
		{"boolean", map[string]string{"a": "boolean", "b": "boolean", "c": "boolean"},
			[]any{"a", "TRUE", "b", 0, "c", "yes"}, `a=true b=false c="yes"`, 0},
		{"string", map[string]string{"a": "string", "b": "string"},
			[]any{"a", 14, "b", true}, `a="14" b="true"`, 0},
		{"missing field left alone", map[string]string{"nope": "int"},
			[]any{"a", "1"}, `a="1"`, 0},
		{"failure as error", map[string]string{"bytes_out": "long", "conversion.failure": "error"},
			[]any{"bytes_out", "-"}, "", 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, _ := build(t, fields.ConvertFieldsTypeSpec(), tt.props)
			out := process(t, p, rec(tt.in...))
			if got := len(out[0].Errors()); got != tt.errs {
				t.Fatalf("errors = %v", out[0].Errors())
			}
			if tt.errs == 0 {
				if got := userFields(out[0]); got != tt.want {
					t.Errorf("got %s, want %s", got, tt.want)
				}
			}
		})
	}
}

func TestConvertFieldsTypeCountsFailures(t *testing.T) {
	p, reg := build(t, fields.ConvertFieldsTypeSpec(), map[string]string{"bytes_out": "long", "http_status": "int"})
	process(t, p, rec("bytes_out", "-", "http_status", "404"), rec("bytes_out", "12", "http_status", "x"))
	if got := metric(t, reg, "convert_fields_type_total", "failed"); got != 2 {
		t.Errorf("failed = %v, want 2", got)
	}
	if got := metric(t, reg, "convert_fields_type_total", "converted"); got != 2 {
		t.Errorf("converted = %v, want 2", got)
	}
}

func TestConvertFieldsTypeRefusesUnknownType(t *testing.T) {
	msg := buildErr(t, fields.ConvertFieldsTypeSpec(), map[string]string{"a": "integerish"})
	if !strings.Contains(msg, `property "a"`) || !strings.Contains(msg, "not a type") {
		t.Errorf("error = %s", msg)
	}
}
