package component

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"
)

// ConfigType is the typed configuration of a component: a struct whose
// fields carry a `key` tag naming a declared property. Validation decodes a
// component's keys into a new value of the struct once (NewConfig), runs
// its Validate method, and the component's constructor receives the struct:
// no component reads a key by its name.
//
// A field's tag is `key:"name"` or `key:"name,option"`:
//
//   - string, bool, int, int64, float64: the value (or the property's
//     default), converted;
//   - time.Duration: an integer number of milliseconds, the unit of every
//     duration key LogIsland users write;
//   - []string: a comma-separated list, each item trimmed, empty items
//     dropped;
//   - `key:"name,set"` on a bool: whether the key was given at all;
//   - `key:",dynamic"` on a map[string]string: the keys a component with
//     DynamicProperties does not declare;
//   - `key:"name,ignored"` on a blank field (`_ struct{}`): a declared key
//     the component accepts and deliberately does not use (a LogIsland key
//     with no meaning in Weir), so that the check below still holds.
//
// Embedded structs without a tag are decoded field by field, so that
// components sharing a group of keys share one struct.
//
// When a pointer to the struct has a method Validate() error, it runs after
// decoding, where single-key validators cannot reach (keys that must agree
// with each other). It may fill unexported fields with what it derived (a
// compiled expression), so that nothing is checked twice. Its error is
// reported at the component's path; an errors.Join of several errors is
// reported as several problems.
//
// Register checks the tags against the spec: every tag names a declared
// key, every declared key has a field, and types are ones decode knows. A
// mismatch is a programming error and stops start-up, which the registry
// tests of plugins/all reach for every component.
type ConfigType struct {
	typ    reflect.Type
	fields []typedField
}

type typedField struct {
	index   []int
	key     string
	option  string
	kind    reflect.Type
	dynamic bool
}

var durationType = reflect.TypeOf(time.Duration(0))

// ConfigOf returns the ConfigType of C, a struct type with `key` tags. It
// panics when C is not a struct or a tag is malformed: it runs at start-up.
func ConfigOf[C any]() *ConfigType {
	t := reflect.TypeOf((*C)(nil)).Elem()
	if t.Kind() != reflect.Struct {
		panic("component: typed configuration " + t.String() + " is not a struct")
	}
	ct := &ConfigType{typ: t}
	ct.collect(t, nil)
	return ct
}

func (ct *ConfigType) collect(t reflect.Type, prefix []int) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		index := append(append([]int(nil), prefix...), i)
		tag, tagged := f.Tag.Lookup("key")
		if !tagged {
			if f.Anonymous && f.Type.Kind() == reflect.Struct {
				ct.collect(f.Type, index)
			}
			continue
		}
		key, option, _ := strings.Cut(tag, ",")
		tf := typedField{index: index, key: key, option: option, kind: f.Type}
		switch {
		case option == "dynamic":
			if key != "" || f.Type != reflect.TypeOf(map[string]string(nil)) {
				panic(fmt.Sprintf("component: %s.%s: a dynamic field is a map[string]string tagged `key:\",dynamic\"`", t, f.Name))
			}
			tf.dynamic = true
		case option == "ignored":
			if f.Name != "_" {
				panic(fmt.Sprintf("component: %s.%s: an ignored key is a blank field", t, f.Name))
			}
		case option == "set":
			if f.Type.Kind() != reflect.Bool {
				panic(fmt.Sprintf("component: %s.%s: a set field is a bool", t, f.Name))
			}
		case option != "":
			panic(fmt.Sprintf("component: %s.%s: unknown tag option %q", t, f.Name, option))
		default:
			if !decodable(f.Type) {
				panic(fmt.Sprintf("component: %s.%s: no decoding for %s", t, f.Name, f.Type))
			}
		}
		if key == "" && !tf.dynamic {
			panic(fmt.Sprintf("component: %s.%s: tag names no key", t, f.Name))
		}
		if !f.IsExported() && option != "ignored" {
			panic(fmt.Sprintf("component: %s.%s: a tagged field is exported", t, f.Name))
		}
		ct.fields = append(ct.fields, tf)
	}
}

func decodable(t reflect.Type) bool {
	if t == durationType {
		return true
	}
	switch t.Kind() {
	case reflect.String, reflect.Bool, reflect.Int, reflect.Int64, reflect.Float64:
		return true
	case reflect.Slice:
		return t.Elem().Kind() == reflect.String
	}
	return false
}

// Type is the struct type, for messages.
func (ct *ConfigType) Type() reflect.Type { return ct.typ }

// checkAgainst reports a tag naming an undeclared key, a declared key no
// field decodes, a key decoded twice, and a dynamic map on a component
// that has no free-form keys.
func (ct *ConfigType) checkAgainst(s *Spec) error {
	var errs []error
	seen := map[string]bool{}
	for _, f := range ct.fields {
		if f.dynamic {
			if !s.DynamicProperties {
				errs = append(errs, fmt.Errorf("%s has a dynamic field but %s takes no free-form keys", ct.typ, s.Name))
			}
			continue
		}
		p, ok := s.Property(f.key)
		switch {
		case !ok:
			errs = append(errs, fmt.Errorf("%s decodes %q, which %s does not declare", ct.typ, f.key, s.Name))
			continue
		case p.Key != f.key:
			errs = append(errs, fmt.Errorf("%s decodes %q, an alias of %q: tag the declared key", ct.typ, f.key, p.Key))
		}
		if f.option != "set" {
			if seen[f.key] {
				errs = append(errs, fmt.Errorf("%s decodes %q twice", ct.typ, f.key))
			}
			seen[f.key] = true
		}
	}
	for _, p := range s.Properties {
		if !seen[p.Key] {
			errs = append(errs, fmt.Errorf("%s has no field for %s's key %q", ct.typ, s.Name, p.Key))
		}
	}
	return errors.Join(errs...)
}

// decode fills a new value of the struct from c and runs its Validate.
func (ct *ConfigType) decode(c Config) (any, Problems) {
	v := reflect.New(ct.typ)
	var probs Problems
	for _, f := range ct.fields {
		if f.option == "ignored" {
			continue
		}
		dst := v.Elem().FieldByIndex(f.index)
		if f.dynamic {
			m := make(map[string]string, len(c.dynamic))
			for k, val := range c.dynamic {
				m[k] = val
			}
			dst.Set(reflect.ValueOf(m))
			continue
		}
		if f.option == "set" {
			_, given := c.values[f.key]
			dst.SetBool(given)
			continue
		}
		if err := setField(dst, c.value(f.key)); err != nil {
			// A validator that accepted what decoding refuses is a
			// mismatch in the spec; the key is still named.
			probs = append(probs, Problem{Key: f.key, Msg: fmt.Sprintf("property %q: %s", f.key, err)})
		}
	}
	if len(probs) > 0 {
		return nil, probs
	}
	if val, ok := v.Interface().(interface{ Validate() error }); ok {
		if err := val.Validate(); err != nil {
			return nil, problemsOf(err)
		}
	}
	return v.Interface(), nil
}

// problemsOf turns a Validate or Check error into problems: a joined error
// is several, and Problems (which may name their keys, so that a job file's
// report gives each its line) are kept as they are.
func problemsOf(err error) Problems {
	var ps Problems
	if errors.As(err, &ps) {
		return ps
	}
	errs := []error{err}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	}
	probs := make(Problems, 0, len(errs))
	for _, e := range errs {
		probs = append(probs, Problem{Msg: e.Error()})
	}
	return probs
}

func setField(dst reflect.Value, s string) error {
	if dst.Type() == durationType {
		if strings.TrimSpace(s) == "" {
			return nil
		}
		n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
		if err != nil {
			return fmt.Errorf("%q is not an integer number of milliseconds", s)
		}
		dst.SetInt(int64(time.Duration(n) * time.Millisecond))
		return nil
	}
	switch dst.Kind() {
	case reflect.String:
		dst.SetString(s)
	case reflect.Bool:
		if strings.TrimSpace(s) == "" {
			return nil
		}
		b, err := parseBool(s)
		if err != nil {
			return err
		}
		dst.SetBool(b)
	case reflect.Int, reflect.Int64:
		if strings.TrimSpace(s) == "" {
			return nil
		}
		n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
		if err != nil {
			return fmt.Errorf("%q is not an integer", s)
		}
		dst.SetInt(n)
	case reflect.Float64:
		if strings.TrimSpace(s) == "" {
			return nil
		}
		x, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil {
			return fmt.Errorf("%q is not a number", s)
		}
		dst.SetFloat(x)
	case reflect.Slice:
		dst.Set(reflect.ValueOf(SplitList(s)))
	}
	return nil
}

// Typed returns the typed configuration conf was decoded into: a *C, where
// C is the struct of the spec's ConfigOf. A spec whose type is not C is a
// programming error reported as an error, not a panic, so that a running
// engine refuses the component instead of stopping.
func Typed[C any](conf Config) (*C, error) {
	c, ok := conf.typed.(*C)
	if !ok {
		name := "a component"
		if conf.spec != nil {
			name = conf.spec.Name
		}
		return nil, fmt.Errorf("component: configuration of %s is %T, not %T", name, conf.typed, (*C)(nil))
	}
	return c, nil
}

// ProcessorSpec completes s as a processor built from the typed
// configuration C: its Config is ConfigOf[C]() and its constructor
// receives the decoded *C, so the type the spec decodes and the type the
// constructor takes cannot disagree.
func ProcessorSpec[C any](s Spec, build func(c *C, env Env) (Processor, error)) Spec {
	s.Kind, s.Config = KindProcessor, ConfigOf[C]()
	s.NewProcessor = func(conf Config, env Env) (Processor, error) {
		c, err := Typed[C](conf)
		if err != nil {
			return nil, err
		}
		return build(c, env)
	}
	return s
}

// ServiceSpec completes s as a controller service built from the typed
// configuration C.
func ServiceSpec[C any](s Spec, build func(ctx context.Context, c *C, env Env) (Service, error)) Spec {
	s.Kind, s.Config = KindService, ConfigOf[C]()
	s.NewService = func(ctx context.Context, conf Config, env Env) (Service, error) {
		c, err := Typed[C](conf)
		if err != nil {
			return nil, err
		}
		return build(ctx, c, env)
	}
	return s
}

// SerializerSpec completes s as a serializer built from the typed
// configuration C.
func SerializerSpec[C any](s Spec, build func(c *C) (Serializer, error)) Spec {
	s.Kind, s.Config = KindSerializer, ConfigOf[C]()
	s.NewSerializer = func(conf Config) (Serializer, error) {
		c, err := Typed[C](conf)
		if err != nil {
			return nil, err
		}
		return build(c)
	}
	return s
}
