package component_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/plugins/all"
	"github.com/weir-streams/weir/internal/record"
)

type doneCompletion struct{}

func (doneCompletion) Wait(context.Context) ([]*record.Record, error) { return nil, nil }

func noService(context.Context, component.Config, component.Env) (component.Service, error) {
	return nil, nil
}

func noSerializer(component.Config) (component.Serializer, error) { return nil, nil }

// mustPanic runs register and checks that it panics with a message holding
// want. Registration is the one place where Weir panics: a broken registry
// is a programming error that must stop the process at start-up.
func mustPanic(t *testing.T, want string, register func()) {
	t.Helper()
	defer func() {
		t.Helper()
		r := recover()
		if r == nil {
			t.Errorf("no panic, want one with %q", want)
			return
		}
		if msg := fmt.Sprint(r); !strings.Contains(msg, want) {
			t.Errorf("panic %q, want %q in it", msg, want)
		}
	}()
	register()
}

func TestRegistryRefusesBrokenSpecs(t *testing.T) {
	reg := component.NewRegistry()
	reg.Register(component.Spec{Name: "p", Kind: component.KindProcessor, NewProcessor: noProcessor})

	mustPanic(t, "duplicate registration of p", func() {
		reg.Register(component.Spec{Name: "p", Kind: component.KindProcessor, NewProcessor: noProcessor})
	})
	// A duplicate of another kind is a duplicate all the same: identifiers
	// are one namespace.
	mustPanic(t, "duplicate registration of p", func() {
		reg.Register(component.Spec{Name: "p", Kind: component.KindService, NewService: noService})
	})
	mustPanic(t, "without a name", func() {
		reg.Register(component.Spec{Kind: component.KindProcessor, NewProcessor: noProcessor})
	})
	mustPanic(t, "processor q has no NewProcessor", func() {
		reg.Register(component.Spec{Name: "q", Kind: component.KindProcessor})
	})
	mustPanic(t, "service s has no NewService", func() {
		reg.Register(component.Spec{Name: "s", Kind: component.KindService})
	})
	mustPanic(t, "serializer z has no NewSerializer", func() {
		reg.Register(component.Spec{Name: "z", Kind: component.KindSerializer})
	})
	mustPanic(t, "r declares property a twice", func() {
		reg.Register(component.Spec{Name: "r", Kind: component.KindProcessor, NewProcessor: noProcessor,
			Properties: []component.Property{{Key: "a"}, {Key: "a"}}})
	})
	mustPanic(t, "r declares property old twice", func() {
		reg.Register(component.Spec{Name: "r", Kind: component.KindProcessor, NewProcessor: noProcessor,
			Properties: []component.Property{{Key: "a", Aliases: []string{"old"}}, {Key: "old"}}})
	})
	// The failed registrations left nothing behind.
	if got := reg.Names(component.Kind{}); !slices.Equal(got, []string{"p"}) {
		t.Errorf("names after refused registrations: %q", got)
	}
	// Engines and streams are built by the engine itself and need no
	// constructor.
	reg.Register(component.Spec{Name: "e", Kind: component.KindEngine})
	reg.Register(component.Spec{Name: "st", Kind: component.KindStream})
}

func TestRegistryLookup(t *testing.T) {
	reg := component.NewRegistry()
	reg.Register(component.Spec{Name: "pkg.processor.SplitText", Kind: component.KindProcessor, NewProcessor: noProcessor})
	reg.Register(component.Spec{Name: "pkg.processor.Another", Kind: component.KindProcessor, NewProcessor: noProcessor})
	reg.Register(component.Spec{Name: "pkg.service.Cache", Kind: component.KindService, NewService: noService})
	reg.Register(component.Spec{Name: "json", Kind: component.KindSerializer, NewSerializer: noSerializer})
	reg.Register(component.Spec{Name: "stream", Kind: component.KindStream})
	reg.Register(component.Spec{Name: "engine", Kind: component.KindEngine})

	if s, ok := reg.Lookup("pkg.processor.SplitText"); !ok || s.Kind != component.KindProcessor {
		t.Errorf("Lookup = %v, %v", s, ok)
	}
	if _, ok := reg.Lookup("pkg.processor.Missing"); ok {
		t.Error("Lookup finds a missing identifier")
	}
	if s, err := reg.LookupKind("pkg.service.Cache", component.KindService); err != nil || s.Name != "pkg.service.Cache" {
		t.Errorf("LookupKind = %v, %v", s, err)
	}
	for _, tt := range []struct {
		name string
		kind component.Kind
		want string
	}{
		{"pkg.processor.SplitTxt", component.KindProcessor, `unknown processor component "pkg.processor.SplitTxt" (did you mean "pkg.processor.SplitText"?)`},
		// The suggestion comes from the components of the kind asked for.
		{"pkg.service.Cach", component.KindProcessor, `unknown processor component "pkg.service.Cach"`},
		{"nothing.like.it.at.all", component.KindService, `unknown service component "nothing.like.it.at.all"`},
		{"pkg.service.Cache", component.KindProcessor, `component "pkg.service.Cache" is a service, not a processor`},
	} {
		_, err := reg.LookupKind(tt.name, tt.kind)
		if err == nil || err.Error() != tt.want {
			t.Errorf("LookupKind(%q, %s) = %v, want %q", tt.name, tt.kind, err, tt.want)
		}
	}

	if got := reg.Names(component.KindProcessor); !slices.Equal(got, []string{"pkg.processor.Another", "pkg.processor.SplitText"}) {
		t.Errorf("Names(processor) = %q", got)
	}
	if got := reg.Names(component.Kind{}); len(got) != 6 || !slices.IsSorted(got) {
		t.Errorf("Names() = %q, want all six sorted", got)
	}
	var order []string
	for _, s := range reg.Specs() {
		order = append(order, s.Name)
	}
	want := []string{"engine", "stream", "pkg.processor.Another", "pkg.processor.SplitText", "pkg.service.Cache", "json"}
	if !slices.Equal(order, want) {
		t.Errorf("Specs() order %q, want by kind then name %q", order, want)
	}
}

// TestReferenceListsEveryComponent checks the output of `weir components`
// against the registry it documents.
func TestReferenceListsEveryComponent(t *testing.T) {
	reg := all.NewRegistry()
	var b strings.Builder
	if err := component.WriteReference(&b, reg); err != nil {
		t.Fatal(err)
	}
	ref := b.String()
	if !strings.HasPrefix(ref, "# Components\n") {
		t.Errorf("reference starts %q", ref[:min(len(ref), 40)])
	}
	specs := reg.Specs()
	for _, kind := range []component.Kind{component.KindEngine, component.KindStream, component.KindProcessor, component.KindService, component.KindSerializer} {
		if len(reg.Names(kind)) == 0 {
			t.Errorf("no %s is registered", kind)
		}
	}
	for _, s := range specs {
		heading := fmt.Sprintf("\n## %s (%s)\n", s.Name, s.Kind)
		i := strings.Index(ref, heading)
		if i < 0 {
			t.Errorf("reference lacks %q", heading)
			continue
		}
		if s.Summary == "" {
			t.Errorf("%s has no summary", s.Name)
		}
		section := ref[i+len(heading):]
		if j := strings.Index(section, "\n## "); j >= 0 {
			section = section[:j]
		}
		for _, p := range s.Properties {
			if !strings.Contains(section, "| `"+p.Key+"`") {
				t.Errorf("%s: reference lacks property %s", s.Name, p.Key)
			}
			for _, a := range p.Aliases {
				if !strings.Contains(section, "(alias `"+a+"`)") {
					t.Errorf("%s: reference lacks alias %s of %s", s.Name, a, p.Key)
				}
			}
			if p.Description == "" {
				t.Errorf("%s: property %s has no description", s.Name, p.Key)
			}
		}
	}
	for _, want := range []string{
		"| `engine.master` |  | `local[*]` | local, local[N] or local[*] |",
		"| `value.regex` | yes |  |",
		"name of a service providing `cache`",
		"Sensitive: never logged, redacted in snapshots.",
		"Provides: `cache`.",
	} {
		if !strings.Contains(ref, want) {
			t.Errorf("reference lacks %q", want)
		}
	}
}

func TestReferenceEscapesCells(t *testing.T) {
	reg := component.NewRegistry()
	reg.Register(component.Spec{
		Name: "pkg.processor.Pipes", Kind: component.KindProcessor, Summary: "Test.", NewProcessor: noProcessor,
		DynamicProperties: true,
		Properties: []component.Property{
			{Key: "sep", Description: "a|b", Default: "|", Validator: component.Enum("|", ",")},
		},
	})
	var b strings.Builder
	if err := component.WriteReference(&b, reg); err != nil {
		t.Fatal(err)
	}
	ref := b.String()
	if want := "| `sep` |  | `\\|` | one of \\|, , | a\\|b |"; !strings.Contains(ref, want) {
		t.Errorf("reference lacks the escaped row %q:\n%s", want, ref)
	}
	if !strings.Contains(ref, "Free-form keys: any other key is a key passed to the component.") {
		t.Errorf("reference does not say dynamic keys are accepted:\n%s", ref)
	}
}
