// Package configtest loads component configurations from YAML test files
// and decodes them as validation does, for the table tests that pin each
// component's typed configuration (a file in the component's testdata holds
// named cases; a test compares each decoded struct or error).
package configtest

import (
	"fmt"
	"os"

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
