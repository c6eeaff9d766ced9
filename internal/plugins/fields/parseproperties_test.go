package fields_test

import (
	"testing"

	"github.com/weir-streams/weir/internal/plugins/fields"
)

func TestParseProperties(t *testing.T) {
	for _, tt := range []struct {
		in, keep, want string
	}{
		// The example of LogIsland's ParseProperties-Detail.rst.
		{"a=1 b=2 c=3", "false", `a="1" b="2" c="3"`},
		{"user=john doe action=login", "false", `user="john doe" action="login"`},
		{"no pairs here", "true", `properties="no pairs here"`},
		{"k=v", "true", `properties="k=v" k="v"`},
	} {
		p, _ := build(t, fields.ParsePropertiesSpec(), map[string]string{"properties.field": "properties", "keep.properties.field": tt.keep})
		out := process(t, p, rec("properties", tt.in))
		if got := userFields(out[0]); got != tt.want {
			t.Errorf("%q: got %s, want %s", tt.in, got, tt.want)
		}
	}
	p, _ := build(t, fields.ParsePropertiesSpec(), map[string]string{"properties.field": "properties"})
	if out := process(t, p, rec("x", "1")); userFields(out[0]) != `x="1"` {
		t.Errorf("a record without the field changed: %s", userFields(out[0]))
	}
}
