package component_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/component"
)

type sampleConfig struct {
	Name     string            `key:"name"`
	Count    int               `key:"count"`
	Big      int64             `key:"big"`
	Ratio    float64           `key:"ratio"`
	On       bool              `key:"on"`
	Wait     time.Duration     `key:"wait.ms"`
	Fields   []string          `key:"fields"`
	FieldsOn bool              `key:"fields,set"`
	_        struct{}          `key:"legacy,ignored"`
	Free     map[string]string `key:",dynamic"`
	shared
	derived string
}

type shared struct {
	Region string `key:"region"`
}

func (c *sampleConfig) Validate() error {
	var errs []error
	if c.Count > 5 && !c.On {
		errs = append(errs, errors.New("a count above 5 needs on"))
	}
	if c.Name == "bad" {
		errs = append(errs, errors.New("name is bad"))
	}
	c.derived = strings.ToUpper(c.Name)
	return errors.Join(errs...)
}

func sampleSpec() component.Spec {
	return component.ProcessorSpec(component.Spec{
		Name: "pkg.processor.Sample", DynamicProperties: true,
		Properties: []component.Property{
			{Key: "name", Default: "x"}, {Key: "count", Default: "1", Validator: component.IntRange(0, 10)},
			{Key: "big"}, {Key: "ratio"}, {Key: "on", Validator: component.Bool}, {Key: "wait.ms", Default: "250"},
			{Key: "fields"}, {Key: "legacy"}, {Key: "region", Aliases: []string{"zone"}},
		},
	}, func(*sampleConfig, component.Env) (component.Processor, error) { return nil, nil })
}

func TestTypedDecode(t *testing.T) {
	spec := sampleSpec()
	component.NewRegistry().Register(spec)
	for _, tt := range []struct {
		name    string
		raw     map[string]string
		want    sampleConfig
		wantErr []string
	}{
		{name: "defaults", raw: nil,
			want: sampleConfig{Name: "x", Count: 1, Wait: 250 * time.Millisecond, Free: map[string]string{}, derived: "X"}},
		{name: "all given", raw: map[string]string{"name": "n", "count": "7", "big": "9000000000", "ratio": "0.5", "on": "TRUE",
			"wait.ms": "1500", "fields": " a, ,b ", "legacy": "whatever", "zone": "eu", "user.field": "v"},
			want: sampleConfig{Name: "n", Count: 7, Big: 9000000000, Ratio: 0.5, On: true, Wait: 1500 * time.Millisecond,
				Fields: []string{"a", "b"}, FieldsOn: true, Free: map[string]string{"user.field": "v"},
				shared: shared{Region: "eu"}, derived: "N"}},
		{name: "validate joins", raw: map[string]string{"name": "bad", "count": "6"},
			wantErr: []string{"a count above 5 needs on", "name is bad"}},
		{name: "key problem first", raw: map[string]string{"name": "bad", "count": "11"},
			wantErr: []string{`property "count"`}},
		{name: "not a number", raw: map[string]string{"ratio": "half"}, wantErr: []string{`property "ratio": "half" is not a number`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			conf, probs := component.NewConfig(&spec, tt.raw)
			if tt.wantErr != nil {
				if len(probs) != len(tt.wantErr) {
					t.Fatalf("problems %v, want %d", probs, len(tt.wantErr))
				}
				for i, w := range tt.wantErr {
					if !strings.Contains(probs[i].Msg, w) {
						t.Errorf("problem %d %q, want %q", i, probs[i].Msg, w)
					}
				}
				return
			}
			if len(probs) > 0 {
				t.Fatal(probs)
			}
			got, err := component.Typed[sampleConfig](conf)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(*got, tt.want) {
				t.Errorf("decoded\n%+v\nwant\n%+v", *got, tt.want)
			}
		})
	}
}

func TestTypedWrongType(t *testing.T) {
	spec := sampleSpec()
	conf, probs := component.NewConfig(&spec, nil)
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	if _, err := component.Typed[shared](conf); err == nil || !strings.Contains(err.Error(), "not *component_test.shared") {
		t.Fatalf("error %v, want a type mismatch", err)
	}
}

// TestTypedRegisterRefusesMismatch: a struct that decodes an undeclared
// key, misses a declared one, or tags an alias stops registration.
func TestTypedRegisterRefusesMismatch(t *testing.T) {
	type undeclared struct {
		A string `key:"a"`
		B string `key:"b"`
	}
	type missing struct {
		A string `key:"a"`
	}
	type alias struct {
		A string `key:"a"`
		C string `key:"old.c"`
	}
	build := func(c any) component.Spec {
		props := []component.Property{{Key: "a"}, {Key: "c", Aliases: []string{"old.c"}}}
		switch c.(type) {
		case undeclared:
			return component.ProcessorSpec(component.Spec{Name: "p", Properties: props[:1]},
				func(*undeclared, component.Env) (component.Processor, error) { return nil, nil })
		case missing:
			return component.ProcessorSpec(component.Spec{Name: "p", Properties: props},
				func(*missing, component.Env) (component.Processor, error) { return nil, nil })
		default:
			return component.ProcessorSpec(component.Spec{Name: "p", Properties: props},
				func(*alias, component.Env) (component.Processor, error) { return nil, nil })
		}
	}
	for _, tt := range []struct {
		c    any
		want string
	}{
		{undeclared{}, `decodes "b", which p does not declare`},
		{missing{}, `has no field for p's key "c"`},
		{alias{}, `decodes "old.c", an alias of "c"`},
	} {
		func() {
			defer func() {
				r := recover()
				if r == nil || !strings.Contains(r.(string), tt.want) {
					t.Errorf("%T: panic %v, want %q", tt.c, r, tt.want)
				}
			}()
			component.NewRegistry().Register(build(tt.c))
		}()
	}
}

type keyedConfig struct {
	User     string `key:"user"`
	Password string `key:"password"`
}

// Validate names the key of each problem, as the engine's keys do so that
// a job file's report gives the line.
func (c *keyedConfig) Validate() error {
	if (c.User == "") != (c.Password == "") {
		return component.Problems{{Key: "user", Msg: "user and password go together"}, {Key: "password", Msg: "second"}}
	}
	return nil
}

// TestTypedValidateKeepsProblems: Problems returned by Validate reach the
// caller as they are, each with its key.
func TestTypedValidateKeepsProblems(t *testing.T) {
	spec := component.Spec{Name: "e", Kind: component.KindEngine, Properties: []component.Property{{Key: "user"}, {Key: "password"}},
		Config: component.ConfigOf[keyedConfig]()}
	component.NewRegistry().Register(spec)
	_, probs := component.NewConfig(&spec, map[string]string{"user": "u"})
	if len(probs) != 2 || probs[0].Key != "user" || probs[0].Msg != "user and password go together" || probs[1].Key != "password" {
		t.Errorf("problems %#v, want the two of Validate with their keys", probs)
	}
}
