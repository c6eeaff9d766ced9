// Package configtest loads component configurations from YAML test files
// and decodes them as validation does, for the table tests that pin each
// component's typed configuration (a file in the component's testdata holds
// named cases; a test compares each decoded struct or error).
package configtest

import (
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/weir-streams/weir/internal/component"
)

// Decode reads file, a YAML mapping of case ids to configuration maps (key
// to scalar value, as a job file's `configuration`), takes the case id and
// validates it against spec as validation does for a job file. It returns
// the decoded configuration, or the problems found as an error. The spec is
// registered first, so that a typed configuration that disagrees with its
// declared keys fails the test.
func Decode[C any](spec component.Spec, file, id string) (*C, error) {
	component.NewRegistry().Register(spec)
	raw, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("configtest: %w", err)
	}
	var cases map[string]map[string]yaml.Node
	if err := yaml.Unmarshal(raw, &cases); err != nil {
		return nil, fmt.Errorf("configtest: %s: %w", file, err)
	}
	c, ok := cases[id]
	if !ok {
		return nil, fmt.Errorf("configtest: %s has no case %q", file, id)
	}
	values := make(map[string]string, len(c))
	for k, n := range c {
		if n.Kind != yaml.ScalarNode {
			return nil, fmt.Errorf("configtest: %s: case %q: %s is not a scalar", file, id, k)
		}
		values[k] = n.Value
	}
	conf, probs := component.NewConfig(&spec, values)
	if err := probs.Err(); err != nil {
		return nil, err
	}
	return component.Typed[C](conf)
}

// Case is one row of a configuration table test: the case id in the
// YAML file, and either the decoded configuration wanted or a text the
// error must contain.
type Case[C any] struct {
	ID      string
	Want    *C
	WantErr string
}

// Run decodes every case of file against spec (see Decode) and compares
// the exported fields of each configuration with Want, or the error with
// WantErr. Unexported fields hold what Validate derives (a compiled
// expression) and are the component's own tests' business.
func Run[C any](t *testing.T, spec component.Spec, file string, cases []Case[C]) {
	t.Helper()
	for _, tc := range cases {
		got, err := Decode[C](spec, file, tc.ID)
		switch {
		case tc.WantErr != "":
			if err == nil || !strings.Contains(err.Error(), tc.WantErr) {
				t.Errorf("%s: error %v, want one containing %q", tc.ID, err, tc.WantErr)
			}
		case err != nil:
			t.Errorf("%s: %v", tc.ID, err)
		case tc.Want == nil:
			t.Errorf("%s: the case wants neither a configuration nor an error", tc.ID)
		case !exportedEqual(reflect.ValueOf(got).Elem(), reflect.ValueOf(tc.Want).Elem()):
			t.Errorf("%s: decoded\n%+v\nwant\n%+v", tc.ID, *got, *tc.Want)
		}
	}
}

// exportedEqual compares two structs of one type field by exported field,
// descending into embedded structs.
func exportedEqual(a, b reflect.Value) bool {
	for i := 0; i < a.NumField(); i++ {
		f := a.Type().Field(i)
		switch {
		case f.Anonymous && f.Type.Kind() == reflect.Struct:
			if !exportedEqual(a.Field(i), b.Field(i)) {
				return false
			}
		case f.IsExported():
			if !reflect.DeepEqual(a.Field(i).Interface(), b.Field(i).Interface()) {
				return false
			}
		}
	}
	return true
}
