package component

import (
	"context"
	"fmt"
	"sort"
)

// Spec describes a component: its identifier, kind, properties and
// constructor. Exactly one constructor matching Kind is set; engine and
// stream specs have none (the engine builds those itself) and exist so that
// their keys are validated and documented like any other.
type Spec struct {
	// Name is the identifier used in job files, e.g. pkg.processor.SplitText.
	Name    string
	Kind    Kind
	Summary string
	// Properties are the declared keys, in documentation order.
	Properties []Property
	// DynamicProperties lets a component accept keys it does not declare;
	// they reach it through Config.Dynamic.
	DynamicProperties bool
	// DynamicKeys says, in a noun phrase, what a free-form key of a
	// component with DynamicProperties is (for example "a field to set");
	// the reference prints it so that a reader knows which keys are free.
	DynamicKeys string
	// DynamicExamples are valid sample dynamic keys and values of a
	// component with DynamicProperties, like Property.Example for declared
	// keys: the lifecycle test of plugins/all builds the component with
	// them, so that it runs with the keys that do its work. Not shown in
	// the reference.
	DynamicExamples map[string]string
	// Provides names the capability of a service (for example "cache"),
	// which properties with a ServiceRef ask for.
	Provides string

	// Config is the component's typed configuration (see ConfigType):
	// validation decodes the keys into it once and runs its Validate, and
	// the constructor receives it. ProcessorSpec, ServiceSpec and
	// SerializerSpec set it with the constructor; engine and stream specs
	// set it with ConfigOf. Every component of Weir's own has one.
	Config *ConfigType

	// Check is for components whose configuration Weir does not decode
	// itself: a plugin installed with `weir -i` is configured in its own
	// process, and Check asks that process whether a configuration is
	// valid. It runs at validation after the keys are checked; its error
	// is reported like Validate's.
	Check func(conf Config) error

	NewProcessor  func(conf Config, env Env) (Processor, error)
	NewService    func(ctx context.Context, conf Config, env Env) (Service, error)
	NewSerializer func(conf Config) (Serializer, error)
}

// Property returns the declaration of key, resolving aliases.
func (s *Spec) Property(key string) (*Property, bool) {
	for i := range s.Properties {
		p := &s.Properties[i]
		if p.Key == key {
			return p, true
		}
		for _, a := range p.Aliases {
			if a == key {
				return p, true
			}
		}
	}
	return nil, false
}

// Registry maps component identifiers to their specs. It is an explicit
// value, filled by plugins/all.Register at start-up, so a reader finds every
// component in one file and a test can build a small registry.
type Registry struct {
	specs map[string]*Spec
	// refused are identifiers of components Weir knows of and does not
	// offer (LogIsland's), with the message that refuses them.
	refused map[string]string
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{specs: make(map[string]*Spec), refused: make(map[string]string)}
}

// Refuse makes a lookup of name, when no spec has it, fail with msg
// instead of calling the component unknown: for components that are known
// and deliberately not offered.
func (r *Registry) Refuse(name, msg string) { r.refused[name] = msg }

// Register adds a spec. It panics on a programming error (a duplicate
// identifier, a missing constructor): registration runs at start-up, and a
// broken registry must not start.
func (r *Registry) Register(s Spec) {
	if s.Name == "" {
		panic("component: register a spec without a name")
	}
	if _, dup := r.specs[s.Name]; dup {
		panic("component: duplicate registration of " + s.Name)
	}
	switch s.Kind {
	case KindProcessor:
		if s.NewProcessor == nil {
			panic("component: processor " + s.Name + " has no NewProcessor")
		}
	case KindService:
		if s.NewService == nil {
			panic("component: service " + s.Name + " has no NewService")
		}
	case KindSerializer:
		if s.NewSerializer == nil {
			panic("component: serializer " + s.Name + " has no NewSerializer")
		}
	}
	if s.Config != nil {
		if err := s.Config.checkAgainst(&s); err != nil {
			panic("component: " + s.Name + ": " + err.Error())
		}
	}
	keys := map[string]bool{}
	for _, p := range s.Properties {
		for _, k := range append([]string{p.Key}, p.Aliases...) {
			if keys[k] {
				panic("component: " + s.Name + " declares property " + k + " twice")
			}
			keys[k] = true
		}
	}
	spec := s
	r.specs[s.Name] = &spec
}

// Lookup returns the spec of an identifier.
func (r *Registry) Lookup(name string) (*Spec, bool) {
	s, ok := r.specs[name]
	return s, ok
}

// LookupKind returns the spec of an identifier if it is of the given kind, or
// an error that says what is wrong, with a suggestion for a likely typo.
func (r *Registry) LookupKind(name string, kind Kind) (*Spec, error) {
	s, ok := r.specs[name]
	if !ok {
		if msg, refused := r.refused[name]; refused {
			return nil, fmt.Errorf("%s component %q: %s", kind, name, msg)
		}
		msg := fmt.Sprintf("unknown %s component %q", kind, name)
		if sug := Suggest(name, r.Names(kind)); sug != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", sug)
		}
		return nil, fmt.Errorf("%s", msg)
	}
	if s.Kind != kind {
		return nil, fmt.Errorf("component %q is a %s, not a %s", name, s.Kind, kind)
	}
	return s, nil
}

// Names returns the identifiers of one kind (all kinds for the zero Kind),
// sorted.
func (r *Registry) Names(kind Kind) []string {
	var out []string
	for n, s := range r.specs {
		if kind == (Kind{}) || s.Kind == kind {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// Specs returns every spec, sorted by kind then name.
func (r *Registry) Specs() []*Spec {
	out := make([]*Spec, 0, len(r.specs))
	for _, s := range r.specs {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Kind != out[j].Kind {
			return kindOrder(out[i].Kind) < kindOrder(out[j].Kind)
		}
		return out[i].Name < out[j].Name
	})
	return out
}

func kindOrder(k Kind) int {
	for i, kk := range Kinds {
		if k == kk {
			return i
		}
	}
	return len(Kinds)
}

// Configure looks up an identifier of the given kind and validates values
// against its spec, for tests and tools that build one component outside a
// dataflow. The engine does not use it: dataflow.Check validates a whole
// dataflow once and its builders take that result. The error is the lookup
// error or the Problems found.
func (r *Registry) Configure(name string, kind Kind, values map[string]string) (*Spec, Config, error) {
	spec, err := r.LookupKind(name, kind)
	if err != nil {
		return nil, Config{}, err
	}
	conf, probs := NewConfig(spec, values)
	if len(probs) > 0 {
		return nil, Config{}, probs
	}
	return spec, conf, nil
}
