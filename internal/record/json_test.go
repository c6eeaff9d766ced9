package record_test

import (
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/weir-streams/weir/internal/record"
)

// decodeJSONString decodes out with encoding/json, the reference reader.
func decodeJSONString(t testing.TB, out []byte) string {
	t.Helper()
	var got string
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("output %q is not a JSON string: %v", out, err)
	}
	return got
}

func TestAppendJSONString(t *testing.T) {
	tests := []struct {
		name, in, out string
		// decoded is what a JSON reader gets back; empty means the input.
		decoded string
	}{
		{name: "plain", in: "GET /index.html", out: `"GET /index.html"`},
		{name: "empty", in: "", out: `""`},
		{name: "quote and backslash", in: `say "hi" \o/`, out: `"say \"hi\" \\o/"`},
		{name: "common controls", in: "a\nb\rc\td", out: `"a\nb\rc\td"`},
		{name: "other controls", in: "\x00\x01\x08\x0c\x1f", out: `"\u0000\u0001\b\f\u001f"`},
		{name: "delete is not escaped", in: "\x7f", out: "\"\x7f\""},
		// HTML characters stay as they are: the output is not meant for HTML.
		{name: "html characters", in: "a<b>&c", out: `"a<b>&c"`},
		{name: "multi-byte", in: "héllo 世界 🎉", out: `"héllo 世界 🎉"`},
		// U+2028 and U+2029 are valid JSON but end a line in JavaScript.
		{name: "line separators", in: "a\u2028b\u2029c", out: `"a\u2028b\u2029c"`},
		{name: "invalid byte", in: "a\xffb", out: `"a\ufffdb"`, decoded: "a\uFFFDb"},
		{name: "truncated sequence", in: "\xe4\xb8", out: `"\ufffd\ufffd"`, decoded: "\uFFFD\uFFFD"},
		{name: "invalid byte at the end", in: "ok\xc3", out: `"ok\ufffd"`, decoded: "ok\uFFFD"},
		{name: "a valid U+FFFD stays as it is", in: "\uFFFD", out: "\"\uFFFD\""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			prefix := []byte("x=")
			got := record.AppendJSONString(prefix, tt.in)
			if string(got) != "x="+tt.out {
				t.Fatalf("AppendJSONString(%q) = %s, want %s", tt.in, got[2:], tt.out)
			}
			want := tt.decoded
			if want == "" {
				want = tt.in
			}
			if dec := decodeJSONString(t, got[2:]); dec != want {
				t.Errorf("decodes to %q, want %q", dec, want)
			}
			// encoding/json reads the same text as Go's own encoder writes
			// for that string, invalid bytes included.
			ref, err := json.Marshal(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if dec, refDec := decodeJSONString(t, got[2:]), decodeJSONString(t, ref); dec != refDec {
				t.Errorf("decodes to %q, encoding/json's output to %q", dec, refDec)
			}
		})
	}
}

// FuzzAppendJSONString checks that the output is always valid JSON, decodes
// to the input when the input is valid UTF-8, and otherwise to the input
// with each invalid byte replaced by U+FFFD.
func FuzzAppendJSONString(f *testing.F) {
	for _, s := range []string{"", "plain", `"\`, "\x00\x1f\x7f", "\u2028\u2029", "a\xffb", "\xe4\xb8", "🎉", "<&>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := record.AppendJSONString(nil, s)
		if !json.Valid(out) {
			t.Fatalf("AppendJSONString(%q) = %q is not valid JSON", s, out)
		}
		got := decodeJSONString(t, out)
		want := s
		if !utf8.ValidString(s) {
			// Converting to runes turns each invalid byte into U+FFFD.
			want = string([]rune(s))
		}
		if got != want {
			t.Fatalf("AppendJSONString(%q) decodes to %q, want %q", s, got, want)
		}
	})
}

func TestAppendJSON(t *testing.T) {
	tests := []struct {
		name string
		v    record.Value
		want string
	}{
		{"null", record.Value{}, `null`},
		{"string", record.StringValue("a\"b"), `"a\"b"`},
		{"int", record.IntValue(-9007199254740993), `-9007199254740993`},
		{"float", record.FloatValue(0.1), `0.1`},
		{"integral float", record.FloatValue(3), `3`},
		{"large float", record.FloatValue(1e300), `1e+300`},
		{"NaN", record.FloatValue(math.NaN()), `null`},
		{"infinity", record.FloatValue(math.Inf(-1)), `null`},
		{"bool", record.BoolValue(false), `false`},
		{"bytes", record.BytesValue([]byte{0, 1, 2, 0xff}), `{"$base64":"AAEC/w=="}`},
		{"empty array", record.ArrayValue(nil), `[]`},
		{"array", record.ArrayValue([]record.Value{record.IntValue(1), {}, record.StringValue("x")}), `[1,null,"x"]`},
		{"map with sorted keys", record.MapValue(map[string]record.Value{
			"b": record.IntValue(2), "a": record.IntValue(1), "c\n": record.ArrayValue([]record.Value{record.BoolValue(true)}),
		}), `{"a":1,"b":2,"c\n":[true]}`},
		{"empty map", record.MapValue(map[string]record.Value{}), `{}`},
	}
	for _, tt := range tests {
		got := record.AppendJSON(nil, tt.v)
		if string(got) != tt.want {
			t.Errorf("%s: AppendJSON = %s, want %s", tt.name, got, tt.want)
		}
		if !json.Valid(got) {
			t.Errorf("%s: %s is not valid JSON", tt.name, got)
		}
	}
}

func TestAppendFieldsJSONKeepsOrder(t *testing.T) {
	fields := []record.Field{
		{Name: "z", Value: record.IntValue(1)},
		{Name: "a", Value: record.StringValue("x")},
		{Name: "m", Value: record.Value{}},
	}
	got := string(record.AppendFieldsJSON(nil, fields))
	if want := `{"z":1,"a":"x","m":null}`; got != want {
		t.Errorf("AppendFieldsJSON = %s, want %s", got, want)
	}
	if got := string(record.AppendFieldsJSON(nil, nil)); got != `{}` {
		t.Errorf("no fields give %s", got)
	}
}

func TestDecodeFieldsJSON(t *testing.T) {
	fields, err := record.DecodeFieldsJSON([]byte(`{"z":"s","n":12,"f":1.5,"e":1e3,"big":18446744073709551616,"b":true,"nil":null,"a":[1,"x"],"m":{"k":2}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := []record.Field{
		{Name: "z", Value: record.StringValue("s")},
		{Name: "n", Value: record.IntValue(12)},
		{Name: "f", Value: record.FloatValue(1.5)},
		// Numbers that are not integers in JSON text become floats, even
		// when their value is integral or beyond int64.
		{Name: "e", Value: record.FloatValue(1000)},
		{Name: "big", Value: record.FloatValue(18446744073709551616)},
		{Name: "b", Value: record.BoolValue(true)},
		{Name: "nil", Value: record.Value{}},
		{Name: "a", Value: record.ArrayValue([]record.Value{record.IntValue(1), record.StringValue("x")})},
		{Name: "m", Value: record.MapValue(map[string]record.Value{"k": record.IntValue(2)})},
	}
	if len(fields) != len(want) {
		t.Fatalf("%d fields, want %d: %v", len(fields), len(want), fields)
	}
	for i := range want {
		if fields[i].Name != want[i].Name || !fields[i].Value.Equal(want[i].Value) {
			t.Errorf("field %d = %s %s, want %s %s", i, fields[i].Name, fields[i].Value.Text(), want[i].Name, want[i].Value.Text())
		}
	}

	for _, bad := range []string{``, `[1,2]`, `"text"`, `{"a":1`, `{"a":}`, `{"a" 1}`} {
		if _, err := record.DecodeFieldsJSON([]byte(bad)); err == nil {
			t.Errorf("DecodeFieldsJSON(%q) gives no error", bad)
		}
	}
}

func TestValueFromJSON(t *testing.T) {
	if _, err := record.ValueFromJSON(json.Number("1x")); err == nil || !strings.Contains(err.Error(), `number "1x"`) {
		t.Errorf("a malformed number gives %v", err)
	}
	if _, err := record.ValueFromJSON(struct{}{}); err == nil {
		t.Error("a Go struct is accepted as a JSON value")
	}
	if _, err := record.ValueFromJSON([]any{1i}); err == nil {
		t.Error("an unsupported element inside an array is accepted")
	}
	// Without UseNumber encoding/json gives float64, which is accepted.
	v, err := record.ValueFromJSON(map[string]any{"f": 2.0})
	if err != nil {
		t.Fatal(err)
	}
	if !v.Equal(record.MapValue(map[string]record.Value{"f": record.FloatValue(2)})) {
		t.Errorf("map value %s", v.Text())
	}
}

// TestJSONRoundTripOfFields writes fields of every kind and decodes them
// back, bytes included (as {"$base64":...}).
func TestJSONRoundTripOfFields(t *testing.T) {
	in := []record.Field{
		{Name: "s", Value: record.StringValue("line\n\"quoted\" \u2028")},
		{Name: "i", Value: record.IntValue(math.MinInt64)},
		{Name: "f", Value: record.FloatValue(-0.000123)},
		{Name: "b", Value: record.BoolValue(true)},
		{Name: "null", Value: record.Value{}},
		{Name: "bytes", Value: record.BytesValue([]byte{0, 0xff, 0xc0, '"'})},
		{Name: "no bytes", Value: record.BytesValue([]byte{})},
		{Name: "a", Value: record.StringsValue([]string{"x", "y"})},
		{Name: "m", Value: record.MapValue(map[string]record.Value{"n": record.MapValue(map[string]record.Value{"deep": record.IntValue(1)})})},
	}
	out, err := record.DecodeFieldsJSON(record.AppendFieldsJSON(nil, in))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.EqualFunc(in, out, func(a, b record.Field) bool { return a.Name == b.Name && a.Value.Equal(b.Value) }) {
		t.Errorf("round trip\n got %v\nwant %v", out, in)
	}
}
