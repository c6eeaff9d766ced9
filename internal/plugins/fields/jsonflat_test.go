package fields

import (
	"context"
	"math/rand"
	"strings"
	"testing"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/record"
)

// flatDocs are edge cases for decodeFlatObject: what it takes, and what it
// must leave to encoding/json (nesting, escapes, invalid UTF-8, control
// bytes, bad numbers, text after the object, duplicate keys).
var flatDocs = []string{
	`{}`, ` { } `, `{"a":1}`, `{"a":"x","b":-2,"c":1.5,"d":true,"e":false,"f":null}`, `{"a":1,"a":2}`, `{"":""}`,
	`{"method":"GET","status":200,"bytes":203023,"path":"/presentations/logstash-monitorama-2013/images/kibana-search.png"}`,
	"{\n\t\"a\" : 1 ,\r\n \"b\":\"é\"}", `{"a":"\u0041"}`, `{"a":"\"q\""}`, `{"a":{"b":1}}`, `{"a":[1,2]}`, `{"a":1}x`, `{"a":1} `,
	`{"a":1,}`, `{"a":01}`, `{"a":-}`, `{"a":1.}`, `{"a":1e}`, `{"a":1e+5}`, `{"a":1E-2}`, `{"a":-0}`, `{"a":12345678901234567890}`,
	`{"a":123456789012345678}`, `{"a":-9223372036854775808}`, `{"a":9223372036854775808}`, `{"a":1e400}`, `{"a":1e-400}`,
	"{\"a\":\"\xff\"}", "{\"\xff\":1}", "{\"a\":\"\x01\"}", `{"a":tru}`, `{"a":truex}`, `{"a":nul}`, `[1]`, `"a"`, `1`, ``, `{`,
	`{"a"`, `{"a":`, `{"a":1`, `{a:1}`, `{"a" 1}`, `{"a":1 "b":2}`, "\ufeff{}", `{"a":"x"}{"b":1}`,
}

// TestFlatObjectIsEncodingJSON: whenever decodeFlatObject takes a text, it
// gives exactly the fields record.DecodeFieldsJSON (encoding/json) gives;
// it takes the flat objects it is meant for; and on random texts built
// from JSON fragments it never disagrees.
func TestFlatObjectIsEncodingJSON(t *testing.T) {
	took := 0
	for _, s := range flatDocs {
		if compareFlat(t, s) {
			took++
		}
	}
	if took < 15 {
		t.Errorf("decodeFlatObject took %d of the edge cases, want at least 15", took)
	}
	for _, s := range []string{`{"a":1}`, `{"a":"x","b":-2,"c":1.5,"d":true,"e":false,"f":null}`, "{\n\t\"a\" : 1 ,\r\n \"b\":\"é\"}"} {
		if _, ok := decodeFlatObject(s, nil); !ok {
			t.Errorf("%q is left to encoding/json", s)
		}
	}
	rng := rand.New(rand.NewSource(1))
	frags := []string{`{`, `}`, `"a"`, `"b"`, `:`, `,`, ` `, `1`, `-`, `0`, `.`, `e`, `"é"`, `"\n"`, `true`, `null`, `[`, `]`, "\xff", `"x`, `"`}
	for i := 0; i < 30000; i++ {
		var sb strings.Builder
		if rng.Intn(4) > 0 {
			sb.WriteString(`{"k":`)
		}
		for n := rng.Intn(10); n > 0; n-- {
			sb.WriteString(frags[rng.Intn(len(frags))])
		}
		compareFlat(t, sb.String())
	}
}

// FuzzFlatObjectIsEncodingJSON fuzzes the text.
func FuzzFlatObjectIsEncodingJSON(f *testing.F) {
	for _, s := range flatDocs {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { compareFlat(t, s) })
}

// compareFlat fails t if decodeFlatObject takes s and its fields differ
// from encoding/json's; it reports whether it took s.
func compareFlat(t *testing.T, s string) bool {
	t.Helper()
	got, ok := decodeFlatObject(s, nil)
	if !ok {
		return false
	}
	want, err := record.DecodeFieldsJSON([]byte(s))
	if err != nil {
		t.Errorf("decodeFlatObject took %q, which encoding/json refuses: %v", s, err)
		return true
	}
	if len(got) != len(want) {
		t.Errorf("%q: %d fields, encoding/json gives %d", s, len(got), len(want))
		return true
	}
	for i := range got {
		if got[i].Name != want[i].Name || !got[i].Value.Equal(want[i].Value) || got[i].Value.Kind() != want[i].Value.Kind() {
			t.Errorf("%q: field %d is %q=%s, encoding/json gives %q=%s", s, i, got[i].Name, got[i].Value, want[i].Name, want[i].Value)
		}
	}
	return true
}

// TestEvaluateJsonPathMembersAreTheEngines: with every path a plain member
// ($.a, $['b']), EvaluateJsonPath answers flat documents itself; on each
// flat document of the edge cases, and for paths that select nothing, it
// must set what the JSONPath engine over encoding/json sets.
func TestEvaluateJsonPathMembersAreTheEngines(t *testing.T) {
	spec := EvaluateJsonPathSpec()
	conf, probs := component.NewConfig(&spec, map[string]string{"json.input.field.name": "doc", "x": "$.a", "y": "$['b']", "z": `$["none"]`})
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	proc, err := spec.NewProcessor(conf, component.Env{})
	if err != nil {
		t.Fatal(err)
	}
	fast := proc.(*EvaluateJsonPath)
	if !fast.allMembers {
		t.Fatal("the paths $.a, $['b'] and $[\"none\"] are not taken for members")
	}
	engine := *fast
	engine.allMembers = false
	docs := append([]string{`{"b":"x","a":3}`, `{"a":1,"a":"last"}`, `{"c":1}`}, flatDocs...)
	for _, doc := range docs {
		var out [2]string
		for i, p := range []*EvaluateJsonPath{fast, &engine} {
			r := record.New("1", "t", 0)
			r.SetString("doc", doc)
			if err := p.Process(context.Background(), &component.Batch{Records: []*record.Record{r}}); err != nil {
				t.Fatal(err)
			}
			out[i] = r.String()
		}
		if out[0] != out[1] {
			t.Errorf("%q: members give %s, the engine %s", doc, out[0], out[1])
		}
	}
}
