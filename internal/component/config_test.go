package component_test

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/component"
)

func noProcessor(component.Config, component.Env) (component.Processor, error) { return nil, nil }

func testSpec() *component.Spec {
	return &component.Spec{
		Name: "pkg.processor.Test",
		Kind: component.KindProcessor,
		Properties: []component.Property{
			{Key: "count", Required: true, Validator: component.IntRange(1, 10)},
			{Key: "override.field", Aliases: []string{"overwrite.field"}, Default: "false", Validator: component.Bool},
			{Key: "wait", Default: "1500", Validator: component.IntRange(0, 60000)},
			{Key: "topics", Default: "a, b"},
			{Key: "label"},
		},
		NewProcessor: noProcessor,
	}
}

// problemTexts renders problems as "key: message" for comparison.
func problemTexts(ps component.Problems) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Key+": "+p.Msg)
	}
	return out
}

// testConfig is the typed configuration of testSpec's keys.
type testConfig struct {
	Count       int           `key:"count"`
	Override    bool          `key:"override.field"`
	Wait        time.Duration `key:"wait"`
	Topics      []string      `key:"topics"`
	Label       string        `key:"label"`
	WaitGiven   bool          `key:"wait,set"`
	FieldsGiven bool          `key:"override.field,set"`
}

func TestNewConfigValid(t *testing.T) {
	spec := testSpec()
	spec.Config = component.ConfigOf[testConfig]()
	conf, probs := component.NewConfig(spec, map[string]string{"count": " 7 ", "overwrite.field": "TRUE"})
	if len(probs) != 0 {
		t.Fatalf("problems: %v", probs)
	}
	if conf.Spec() != spec {
		t.Error("Spec() is not the spec validated against")
	}
	c, err := component.Typed[testConfig](conf)
	if err != nil {
		t.Fatal(err)
	}
	// A value given under an alias is read under the key; defaults apply
	// to keys not given, which do not count as set.
	want := testConfig{Count: 7, Override: true, Wait: 1500 * time.Millisecond, Topics: []string{"a", "b"}, FieldsGiven: true}
	if !reflect.DeepEqual(*c, want) {
		t.Errorf("decoded %+v, want %+v", *c, want)
	}
	wantVals := map[string]string{"count": " 7 ", "override.field": "TRUE"}
	vals := conf.Values()
	if !maps.Equal(vals, wantVals) {
		t.Errorf("Values() = %v, want %v", vals, wantVals)
	}
	vals["count"] = "changed"
	if conf.Values()["count"] != " 7 " {
		t.Error("Values() shares its map with the configuration")
	}
	if g := conf.Given(); !maps.Equal(g, wantVals) {
		t.Errorf("Given() = %v of a spec without dynamic keys, want %v", g, wantVals)
	}
}

func TestNewConfigProblems(t *testing.T) {
	tests := []struct {
		name string
		raw  map[string]string
		want []string
	}{
		{"required missing", map[string]string{}, []string{`count: missing required property "count"`}},
		// A required key given with a bad value is reported once, for its
		// value, not a second time as missing.
		{"required invalid", map[string]string{"count": "0"}, []string{`count: property "count": 0 is out of range [1, 10]`}},
		{"unknown with suggestion", map[string]string{"count": "1", "wiat": "5"}, []string{`wiat: unknown property "wiat" (did you mean "wait"?)`}},
		{"unknown alias typo", map[string]string{"count": "1", "overwrite.feld": "true"}, []string{`overwrite.feld: unknown property "overwrite.feld" (did you mean "overwrite.field"?)`}},
		{"unknown without suggestion", map[string]string{"count": "1", "zzz.qqq.xxx": "5"}, []string{`zzz.qqq.xxx: unknown property "zzz.qqq.xxx"`}},
		{"name and alias", map[string]string{"count": "1", "override.field": "true", "overwrite.field": "false"},
			[]string{`overwrite.field: property "overwrite.field" is also given as "override.field"`}},
		{"invalid default-bearing key", map[string]string{"count": "1", "wait": "soon"}, []string{`wait: property "wait": "soon" is not an integer`}},
		// Every problem is found in one pass, in key order then missing keys.
		{"several", map[string]string{"wait": "-1", "x": "1", "override.field": "maybe"}, []string{
			`override.field: property "override.field": "maybe" is not true or false`,
			`wait: property "wait": -1 is out of range [0, 60000]`,
			`x: unknown property "x"`,
			`count: missing required property "count"`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, probs := component.NewConfig(testSpec(), tt.raw)
			if got := problemTexts(probs); !slices.Equal(got, tt.want) {
				t.Errorf("problems\n got %q\nwant %q", got, tt.want)
			}
			// Problems carry the key only: the caller adds where the
			// component is.
			for _, p := range probs {
				if p.Path != "" || p.Line != 0 {
					t.Errorf("problem %+v has a path or line", p)
				}
			}
		})
	}
}

func TestNewConfigDynamicKeys(t *testing.T) {
	spec := testSpec()
	spec.DynamicProperties = true
	conf, probs := component.NewConfig(spec, map[string]string{"count": "2", "custom.key": "v", "other": ""})
	if len(probs) != 0 {
		t.Fatalf("problems: %v", probs)
	}
	if _, ok := conf.Values()["custom.key"]; ok {
		t.Error("Values() holds a dynamic key")
	}
	if want := map[string]string{"count": "2", "custom.key": "v", "other": ""}; !maps.Equal(conf.Given(), want) {
		t.Errorf("Given() = %v, want %v", conf.Given(), want)
	}
	// Declared keys are still validated.
	if _, probs := component.NewConfig(spec, map[string]string{"count": "x"}); len(probs) != 1 {
		t.Errorf("problems %v, want the invalid count", probs)
	}
}

func TestSpecPropertyResolvesAliases(t *testing.T) {
	spec := testSpec()
	for _, k := range []string{"override.field", "overwrite.field"} {
		p, ok := spec.Property(k)
		if !ok || p.Key != "override.field" {
			t.Errorf("Property(%q) = %v, %v", k, p, ok)
		}
	}
	if _, ok := spec.Property("missing"); ok {
		t.Error("Property(missing) is found")
	}
}

func TestProblems(t *testing.T) {
	p := component.Problem{Path: "engine.configuration", Key: "engine.master", Line: 4, Msg: "bad"}
	if got := p.String(); got != "line 4: engine.configuration: bad" {
		t.Errorf("String() = %q", got)
	}
	if got := (component.Problem{Msg: "job file is empty"}).String(); got != "job file is empty" {
		t.Errorf("String() without path and line = %q", got)
	}
	if got := (component.Problem{Path: "services[a]", Msg: "m"}).String(); got != "services[a]: m" {
		t.Errorf("String() without line = %q", got)
	}

	var none component.Problems
	if none.Err() != nil {
		t.Error("no problems give an error")
	}
	one := component.Problems{p}
	if err := one.Err(); err == nil || err.Error() != "line 4: engine.configuration: bad" {
		t.Errorf("one problem: %v", err)
	}
	two := component.Problems{p, {Msg: "second"}}
	if got := two.Error(); got != "2 configuration problems:\n  line 4: engine.configuration: bad\n  second" {
		t.Errorf("two problems: %q", got)
	}

	// At fills in what the component's caller knows, without overwriting
	// what a problem already says.
	lines := map[string]int{"count": 12}
	at := component.Problems{{Key: "count", Msg: "a"}, {Key: "other", Msg: "b"}, {Path: "own", Key: "count", Line: 3, Msg: "c"}}.
		At("streams[s].config", func(k string) int { return lines[k] })
	want := []component.Problem{
		{Path: "streams[s].config", Key: "count", Line: 12, Msg: "a"},
		{Path: "streams[s].config", Key: "other", Line: 0, Msg: "b"},
		{Path: "own", Key: "count", Line: 3, Msg: "c"},
	}
	if !slices.Equal(at, want) {
		t.Errorf("At() = %+v, want %+v", at, want)
	}
	if got := (component.Problems{{Key: "k", Msg: "m"}}).At("p", nil); got[0].Path != "p" || got[0].Line != 0 {
		t.Errorf("At with no line function = %+v", got)
	}
}

func TestBatchAwait(t *testing.T) {
	var b component.Batch
	if len(b.Completions()) != 0 {
		t.Fatal("a new batch has completions")
	}
	c1, c2 := doneCompletion{}, doneCompletion{}
	b.Await(c1)
	b.Await(c2)
	if got := b.Completions(); len(got) != 2 {
		t.Errorf("completions %v, want both", got)
	}
	if _, err := b.Completions()[0].Wait(context.Background()); err != nil {
		t.Error(err)
	}
	env := component.Env{Name: "p", Stream: "s"}
	if got := env.MetricLabels(); !slices.Equal(got, []string{"s", "p"}) {
		t.Errorf("MetricLabels() = %q, want stream then component", got)
	}
}

func TestNewConfigDynamicKeyNearDeclared(t *testing.T) {
	spec := &component.Spec{Name: "t", DynamicProperties: true, Properties: []component.Property{
		{Key: "timezone"}, {Key: "keep.errors"}, {Key: "logic"},
	}}
	for _, tt := range []struct {
		key, near string
	}{
		{"timezon", "timezone"},
		{"keep.eror", "keep.errors"},
		{"Logic", "logic"},
		{"login", ""},
		{"time_zone_name", ""},
		{"keep.admins", ""},
	} {
		conf, probs := component.NewConfig(spec, map[string]string{tt.key: "x"})
		if tt.near == "" {
			if len(probs) != 0 || conf.Given()[tt.key] != "x" {
				t.Errorf("%q: problems %v, want it kept as a free-form key", tt.key, probs)
			}
			continue
		}
		if len(probs) != 1 || !strings.Contains(probs[0].Msg, fmt.Sprintf("did you mean %q?", tt.near)) {
			t.Errorf("%q: problems %v, want a suggestion of %q", tt.key, probs, tt.near)
		}
	}
}
