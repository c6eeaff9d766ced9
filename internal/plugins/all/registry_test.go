package all_test

import (
	"testing"

	"github.com/weir-streams/weir/internal/plugins/all"
)

// TestEveryComponentHasTypedConfig: every built-in component, service,
// serializer, stream and engine decodes its configuration into a typed
// struct (Spec.Config), so that its constructor reads no key by name and
// its cross-key checks are the struct's Validate. Spec.Check is left to
// installed plugins, which decode their keys in their own process.
// Registration already checks each struct's tags against the declared
// keys.
func TestEveryComponentHasTypedConfig(t *testing.T) {
	specs := all.NewRegistry().Specs()
	if len(specs) == 0 {
		t.Fatal("the registry is empty")
	}
	for _, spec := range specs {
		if spec.Config == nil {
			t.Errorf("%s (%s) has no typed configuration: set Config with component.ConfigOf, or build it with component.ProcessorSpec, ServiceSpec or SerializerSpec", spec.Name, spec.Kind)
		}
		if spec.Check != nil {
			t.Errorf("%s (%s) has a Check: a built-in component checks its keys in its configuration's Validate", spec.Name, spec.Kind)
		}
	}
}
