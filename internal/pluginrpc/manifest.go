package pluginrpc

import (
	"fmt"
	"strconv"

	"github.com/weir-streams/weir/internal/component"
)

// Manifest is what a plugin declares about itself: its processors and their
// properties. The installer asks for it once, at install, and keeps it in the
// lock file, so that `weir validate` and `weir components` cover a plugin's
// keys without starting it.
type Manifest struct {
	// SDKVersion is the codec version the plugin was built with.
	SDKVersion int
	Components []ComponentDecl
}

// ComponentDecl declares one processor of a plugin.
type ComponentDecl struct {
	Name              string
	Summary           string
	Properties        []PropertyDecl
	DynamicProperties bool
	// HasCheck says the processor has its own check beyond the declared
	// validators; `weir validate` then starts the plugin to run it.
	HasCheck bool `json:",omitempty"`
}

// PropertyDecl declares one key, as component.Property does, with a
// validator that can cross the process boundary.
type PropertyDecl struct {
	Key         string
	Description string
	Required    bool
	Default     string
	Sensitive   bool
	Validator   *ValidatorDecl `json:",omitempty"`
}

// ValidatorDecl is a validator by name and arguments, so that the host can
// check a plugin's keys without asking the plugin: a Go function cannot
// travel in a manifest. The kinds are those of component: int (Args
// min, max), bool, enum (Args the values), regex, nonempty, url (Args the
// schemes), list (Each checks every item).
type ValidatorDecl struct {
	Kind string
	Args []string       `json:",omitempty"`
	Each *ValidatorDecl `json:",omitempty"`
}

// Component returns the component validator the declaration names.
func (v *ValidatorDecl) Component() (component.Validator, error) {
	if v == nil {
		return nil, nil
	}
	switch v.Kind {
	case "int":
		if len(v.Args) != 2 {
			return nil, fmt.Errorf("validator int wants min and max, got %d arguments", len(v.Args))
		}
		lo, err1 := strconv.ParseInt(v.Args[0], 10, 64)
		hi, err2 := strconv.ParseInt(v.Args[1], 10, 64)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("validator int: bounds %q, %q are not integers", v.Args[0], v.Args[1])
		}
		return component.IntRange(lo, hi), nil
	case "bool":
		return component.Bool, nil
	case "enum":
		if len(v.Args) == 0 {
			return nil, fmt.Errorf("validator enum lists no values")
		}
		return component.Enum(v.Args...), nil
	case "regex":
		return component.Regex, nil
	case "nonempty":
		return component.NonEmpty, nil
	case "url":
		if len(v.Args) == 0 {
			return nil, fmt.Errorf("validator url lists no schemes")
		}
		return component.URL(v.Args...), nil
	case "list":
		each, err := v.Each.Component()
		if err != nil {
			return nil, err
		}
		if each == nil {
			each = component.NonEmpty
		}
		return component.List(each), nil
	}
	return nil, fmt.Errorf("unknown validator kind %q", v.Kind)
}

// Spec returns the component spec a declaration describes, with newProc as
// its constructor.
func (c ComponentDecl) Spec(newProc func(conf component.Config, env component.Env) (component.Processor, error)) (component.Spec, error) {
	s := component.Spec{
		Name:              c.Name,
		Kind:              component.KindProcessor,
		Summary:           c.Summary,
		DynamicProperties: c.DynamicProperties,
		NewProcessor:      newProc,
	}
	seen := map[string]bool{}
	for _, p := range c.Properties {
		if p.Key == "" || seen[p.Key] {
			return component.Spec{}, fmt.Errorf("component %s: property key %q is empty or declared twice", c.Name, p.Key)
		}
		seen[p.Key] = true
		v, err := p.Validator.Component()
		if err != nil {
			return component.Spec{}, fmt.Errorf("component %s: property %q: %w", c.Name, p.Key, err)
		}
		s.Properties = append(s.Properties, component.Property{
			Key: p.Key, Description: p.Description, Required: p.Required, Default: p.Default,
			Sensitive: p.Sensitive, Validator: v,
		})
	}
	return s, nil
}
