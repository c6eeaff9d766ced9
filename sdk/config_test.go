package sdk

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"
)

type nop struct{}

func (nop) Process(context.Context, *Batch) error { return nil }

// TestConfigAccessors: a plugin reads its declared keys with their
// defaults, converted, and its free-form keys apart, from the values Weir
// forwards; its Check sees the same configuration.
func TestConfigAccessors(t *testing.T) {
	var got Config
	spec := ProcessorSpec{
		Name: "test.Accessors", DynamicProperties: true,
		Properties: []Property{
			{Key: "field", Default: "record_value"}, {Key: "max", Validator: IntRange(0, 10)},
			{Key: "strict", Default: "false", Validator: Bool()}, {Key: "wait.ms", Default: "250"}, {Key: "keep"},
		},
		Check: func(c Config) error {
			if n, _ := c.Int("max"); n == 7 && !c.IsSet("keep") {
				return errors.New("max 7 needs keep")
			}
			return nil
		},
		New: func(c Config, _ Env) (Processor, error) { got = c; return nop{}, nil },
	}
	if _, err := Local(spec, map[string]string{"max": " 7 ", "strict": "TRUE", "keep": "a, b,,c", "my.field": "x"}, Env{}); err != nil {
		t.Fatal(err)
	}
	if got.String("field") != "record_value" || got.IsSet("field") || !got.IsSet("max") || got.String("undeclared") != "" {
		t.Errorf("field %q set %v, max set %v", got.String("field"), got.IsSet("field"), got.IsSet("max"))
	}
	if n, err := got.Int("max"); err != nil || n != 7 {
		t.Errorf("Int(max) = %d, %v", n, err)
	}
	if b, err := got.Bool("strict"); err != nil || !b {
		t.Errorf("Bool(strict) = %v, %v", b, err)
	}
	if d, err := got.Millis("wait.ms"); err != nil || d != 250*time.Millisecond {
		t.Errorf("Millis(wait.ms) = %v, %v", d, err)
	}
	if l := got.List("keep"); !slices.Equal(l, []string{"a", "b", "c"}) {
		t.Errorf("List(keep) = %q", l)
	}
	if d := got.Dynamic(); !maps.Equal(d, map[string]string{"my.field": "x"}) {
		t.Errorf("Dynamic() = %v", d)
	}
	if v := got.Values(); !maps.Equal(v, map[string]string{"max": " 7 ", "strict": "TRUE", "keep": "a, b,,c"}) {
		t.Errorf("Values() = %v", v)
	}
	if _, err := got.Int("field"); err == nil || err.Error() != `property "field": "record_value" is not an integer` {
		t.Errorf("Int(field): %v", err)
	}
	if _, err := Local(spec, map[string]string{"max": "7"}, Env{}); err == nil || !strings.Contains(err.Error(), "max 7 needs keep") {
		t.Errorf("Check's refusal: %v", err)
	}
}
