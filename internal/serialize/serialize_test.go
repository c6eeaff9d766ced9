package serialize_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
	"unsafe"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/serialize"
)

// sameRecord reports how two records differ, or "" when they are equal:
// identity, creation date, errors, and every field in order.
func sameRecord(a, b *record.Record) string {
	if a.ID != b.ID || a.Type != b.Type || a.CreationDate != b.CreationDate {
		return "identity differs"
	}
	if !slices.Equal(a.Errors(), b.Errors()) {
		return "errors differ"
	}
	if !slices.EqualFunc(a.Fields(), b.Fields(), func(x, y record.Field) bool {
		return x.Name == y.Name && x.Value.Equal(y.Value)
	}) {
		return "fields differ"
	}
	return ""
}

// streamRecord is the record a stream hands to Deserialize: its derived id,
// no type yet, and the creation date of the fetch.
func streamRecord() *record.Record {
	return record.New(record.DeriveID("in", 0, 7, 0), "", 1111)
}

func everyKind() *record.Record {
	r := record.New("5a1c2d9e-0000-5000-8000-000000000001", "apache_log", 1700000000123)
	r.SetString("s", "GET /a?b=\"c\" \u2028 <html> é")
	r.Set("i", record.IntValue(math.MinInt64))
	r.Set("i_max", record.IntValue(math.MaxInt64))
	r.Set("f", record.FloatValue(-12.375))
	r.Set("f_small", record.FloatValue(5e-324))
	r.Set("t", record.BoolValue(true))
	r.Set("nothing", record.Value{})
	r.Set("a", record.ArrayValue([]record.Value{record.IntValue(1), record.StringValue("x"), {}, record.ArrayValue(nil)}))
	r.Set("m", record.MapValue(map[string]record.Value{
		"n": record.MapValue(map[string]record.Value{"deep": record.FloatValue(0.5)}),
		"b": record.BoolValue(false),
	}))
	return r
}

func TestJSONRoundTrip(t *testing.T) {
	in := everyKind()
	in.AddError(record.ErrRegexMatching, "line 1 does not match")
	msg, err := serialize.JSON{}.Serialize([]byte("keep:"), in)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(msg), "keep:") {
		t.Fatalf("Serialize did not append to dst: %q", msg)
	}
	msg = msg[len("keep:"):]
	if !json.Valid(msg) {
		t.Fatalf("invalid JSON: %s", msg)
	}
	if !strings.HasPrefix(string(msg), `{"id":"5a1c2d9e-0000-5000-8000-000000000001","type":"apache_log","creationDate":1700000000123,"fields":{"record_id":`) {
		t.Errorf("envelope is not in the documented order: %s", msg)
	}
	out := streamRecord()
	if err := (serialize.JSON{}).Deserialize(out, nil, msg); err != nil {
		t.Fatal(err)
	}
	if d := sameRecord(in, out); d != "" {
		t.Errorf("round trip: %s\n got %v\nwant %v", d, out, in)
	}
	if !out.HasErrors() {
		t.Error("the error list is not restored, so the record would not go to the error topics")
	}
}

// TestJSONBytesRoundTrip pins the form of the one kind JSON has no type
// for: bytes are written as {"$base64":"..."} and read back as the same
// bytes; an object that only looks like it (other keys, bad base64) stays a
// map.
func TestJSONBytesRoundTrip(t *testing.T) {
	raw := []byte{0, 1, 0xfe, 0xff, '"'}
	in := record.New("id", "t", 1)
	in.Set("blob", record.BytesValue(raw))
	msg, _ := serialize.JSON{}.Serialize(nil, in)
	if want := `"blob":{"$base64":"` + base64.StdEncoding.EncodeToString(raw) + `"}`; !strings.Contains(string(msg), want) {
		t.Fatalf("message %s does not hold %s", msg, want)
	}
	out := streamRecord()
	if err := (serialize.JSON{}).Deserialize(out, nil, msg); err != nil {
		t.Fatal(err)
	}
	v, _ := out.Get("blob")
	if b, ok := v.AsBytes(); !ok || !bytes.Equal(b, raw) {
		t.Fatalf("blob came back as %v %q, want bytes %q", v.Kind(), v.Text(), raw)
	}
	for _, foreign := range []string{`{"x":{"$base64":"AA==","y":1}}`, `{"x":{"$base64":"not base64!"}}`, `{"x":{"$base64":3}}`} {
		r := streamRecord()
		if err := (serialize.JSON{}).Deserialize(r, nil, []byte(foreign)); err != nil {
			t.Fatal(err)
		}
		if v, _ := r.Get("x"); v.Kind() != record.Map {
			t.Errorf("%s: x is %v, want a map", foreign, v.Kind())
		}
	}
}

// TestRawKeepsInvalidUTF8 checks that the raw deserializer keeps, for every
// byte value, exactly the bytes that came in, and that JSON carries them
// back: strings when they are text, bytes when they are not.
func TestRawKeepsInvalidUTF8(t *testing.T) {
	for c := range 256 {
		in := []byte{'a', byte(c), 'z', byte(c)}
		r := streamRecord()
		if err := (serialize.Raw{}).Deserialize(r, []byte{byte(c)}, in); err != nil {
			t.Fatal(err)
		}
		in[0] = 'b' // the record must hold a copy
		msg, _ := serialize.JSON{}.Serialize(nil, r)
		back := streamRecord()
		if err := (serialize.JSON{}).Deserialize(back, nil, msg); err != nil {
			t.Fatalf("byte %#x: %v", c, err)
		}
		for name, want := range map[string][]byte{record.FieldValue: {'a', byte(c), 'z', byte(c)}, record.FieldKey: {byte(c)}} {
			v, _ := back.Get(name)
			got, ok := v.AsBytes()
			if !ok {
				s, _ := v.AsString()
				got = []byte(s)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("byte %#x: %s came back as %q, want %q", c, name, got, want)
			}
			if _, isBytes := v.AsBytes(); isBytes != !utf8.Valid(want) {
				t.Errorf("byte %#x: %s is %v", c, name, v.Kind())
			}
		}
	}
}

func TestJSONForeignObjectBecomesFields(t *testing.T) {
	r := streamRecord()
	id := r.ID
	err := serialize.JSON{}.Deserialize(r, []byte("key"), []byte(` {"host":"a.example","status":404,"ratio":0.5,"tags":["x"],"ok":false,"gone":null} `))
	if err != nil {
		t.Fatal(err)
	}
	// The stream's id stays, and the technical fields mirror it.
	if r.ID != id || r.CreationDate != 1111 {
		t.Errorf("identity changed: %v", r)
	}
	if v, _ := r.GetString(record.FieldID); v != id {
		t.Errorf("record_id %q, want %q", v, id)
	}
	want := map[string]record.Value{
		"host":   record.StringValue("a.example"),
		"status": record.IntValue(404),
		"ratio":  record.FloatValue(0.5),
		"tags":   record.StringsValue([]string{"x"}),
		"ok":     record.BoolValue(false),
		"gone":   {},
	}
	for k, w := range want {
		if v, ok := r.Get(k); !ok || !v.Equal(w) {
			t.Errorf("%s = %s (%v), want %s", k, v.Text(), ok, w.Text())
		}
	}
	// An object with "fields" but neither id nor type is foreign too: its
	// "fields" is a field like any other.
	r = streamRecord()
	if err := (serialize.JSON{}).Deserialize(r, nil, []byte(`{"fields":{"a":1},"creationDate":5}`)); err != nil {
		t.Fatal(err)
	}
	if v, ok := r.Get("fields"); !ok || v.Kind() != record.Map || r.CreationDate != 1111 {
		t.Errorf("fields = %v %v, creationDate %d", v.Text(), ok, r.CreationDate)
	}
}

func TestJSONEnvelopeWithoutType(t *testing.T) {
	r := streamRecord()
	r.SetType("from_stream")
	if err := (serialize.JSON{}).Deserialize(r, nil, []byte(`{"id":"given","fields":{"x":"1"}}`)); err != nil {
		t.Fatal(err)
	}
	if r.ID != "given" || r.Type != "from_stream" || r.CreationDate != 1111 {
		t.Errorf("record %v: want the message's id and the stream's type and date", r)
	}
	if v, _ := r.GetString(record.FieldType); v != "from_stream" {
		t.Errorf("record_type %q", v)
	}
}

func TestJSONRejects(t *testing.T) {
	for _, tt := range []struct{ name, msg, err string }{
		{"empty", ``, "message is not a JSON object"},
		{"blank", " \n", "message is not a JSON object"},
		{"array", `[{"a":1}]`, "message is not a JSON object"},
		{"string", `"text"`, "message is not a JSON object"},
		{"number", `42`, "message is not a JSON object"},
		{"plain log line", `127.0.0.1 - - [10/Oct/2000:13:55:36 -0700] "GET /"`, "message is not a JSON object"},
		{"truncated", `{"a":`, "decode JSON record"},
		{"trailing garbage", `{"a":1}}`, "decode JSON record"},
		{"bad id", `{"id":5,"fields":{}}`, "decode JSON record"},
		{"fields not an object", `{"id":"x","fields":[1]}`, "fields must be a JSON object"},
		{"truncated after invalid UTF-8", "{\"a\":\"\xff\"", "decode JSON record"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := serialize.JSON{}.Deserialize(streamRecord(), nil, []byte(tt.msg))
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("Deserialize(%q) = %v, want an error with %q", tt.msg, err, tt.err)
			}
		})
	}
}

func TestRaw(t *testing.T) {
	var raw serialize.Raw
	r := streamRecord()
	if err := raw.Deserialize(r, []byte("k1"), []byte("line \xff one")); err != nil {
		t.Fatal(err)
	}
	if v, _ := r.GetString(record.FieldValue); v != "line \xff one" {
		t.Errorf("record_value %q: the raw bytes must be kept as they are", v)
	}
	if v, _ := r.GetString(record.FieldKey); v != "k1" {
		t.Errorf("record_key %q", v)
	}
	// A message without a key has no record_key; an empty key is a key.
	r = streamRecord()
	_ = raw.Deserialize(r, nil, []byte("v"))
	if r.Has(record.FieldKey) {
		t.Error("a nil key gives a record_key")
	}
	r = streamRecord()
	_ = raw.Deserialize(r, []byte{}, []byte(""))
	if v, ok := r.GetString(record.FieldKey); !ok || v != "" {
		t.Errorf("an empty key gives %q %v", v, ok)
	}
	if v, ok := r.GetString(record.FieldValue); !ok || v != "" {
		t.Errorf("an empty value gives %q %v", v, ok)
	}

	for _, tt := range []struct {
		name string
		v    record.Value
		want string
	}{
		{"string", record.StringValue("raw line\n"), "raw line\n"},
		{"bytes", record.BytesValue([]byte{0, 0xff}), "\x00\xff"},
		{"int", record.IntValue(12), "12"},
	} {
		w := record.New("id", "t", 0)
		w.Set(record.FieldValue, tt.v)
		got, err := raw.Serialize([]byte("p:"), w)
		if err != nil || string(got) != "p:"+tt.want {
			t.Errorf("%s: Serialize = %q, %v; want %q", tt.name, got, err, "p:"+tt.want)
		}
	}
	// Without record_value nothing would be written, so the record goes out
	// as JSON instead of being lost.
	w := everyKind()
	got, err := raw.Serialize(nil, w)
	if err != nil {
		t.Fatal(err)
	}
	back := streamRecord()
	if err := (serialize.JSON{}).Deserialize(back, nil, got); err != nil {
		t.Fatalf("the fallback is not the JSON form: %v: %s", err, got)
	}
	if d := sameRecord(w, back); d != "" {
		t.Errorf("fallback JSON: %s", d)
	}
}

func TestSpecs(t *testing.T) {
	reg := component.NewRegistry()
	reg.Register(serialize.JSONSpec())
	reg.Register(serialize.RawSpec())
	for name, want := range map[string]component.Serializer{
		serialize.JSONName: serialize.JSON{},
		serialize.RawName:  serialize.Raw{},
	} {
		spec, err := reg.LookupKind(name, component.KindSerializer)
		if err != nil {
			t.Fatal(err)
		}
		conf, probs := component.NewConfig(spec, nil)
		if len(probs) != 0 {
			t.Fatalf("%s: %v", name, probs)
		}
		s, err := spec.NewSerializer(conf)
		if err != nil || s != want {
			t.Errorf("%s builds %T, %v", name, s, err)
		}
	}
	if serialize.JSONName != "pkg.serializer.JsonSerializer" || serialize.RawName != "none" {
		t.Errorf("identifiers changed: %q %q; job files use the spec's names", serialize.JSONName, serialize.RawName)
	}
}

// TestRawDeserializeOwned: DeserializeOwned gives the record the same
// fields as Deserialize, for every byte value in a key and a value (valid
// and invalid UTF-8), but refers to the message's bytes instead of copying
// them (the stream hands over fetched messages, which franz-go never
// reuses).
func TestRawDeserializeOwned(t *testing.T) {
	for c := range 256 {
		for _, key := range [][]byte{nil, {byte(c)}} {
			in := []byte{'a', byte(c), 'z', byte(c)}
			copied, owned := streamRecord(), streamRecord()
			if err := (serialize.Raw{}).Deserialize(copied, key, in); err != nil {
				t.Fatal(err)
			}
			if err := (serialize.Raw{}).DeserializeOwned(owned, key, in); err != nil {
				t.Fatal(err)
			}
			if d := sameRecord(copied, owned); d != "" {
				t.Fatalf("byte %#x, key %q: owned and copied records differ: %s", c, key, d)
			}
			v, _ := owned.Get(record.FieldValue)
			var data *byte
			if s, ok := v.AsString(); ok {
				data = unsafe.StringData(s)
			} else if b, ok := v.AsBytes(); ok {
				data = unsafe.SliceData(b)
			}
			if data != &in[0] {
				t.Fatalf("byte %#x: record_value of DeserializeOwned is a copy", c)
			}
		}
	}
}

// The stream reads fetched messages through this interface.
var _ serialize.OwnedDeserializer = serialize.Raw{}

// TestJSONIDScannedOnce checks the id written twice but scanned once
// (AppendFieldsJSONKnown): an id that needs escaping is escaped in both
// places, a safe one is copied in both, and a record_id set apart from the
// id (another string of the same length) is written as itself.
func TestJSONIDScannedOnce(t *testing.T) {
	safe := record.DeriveID("pipeline_raw", 0, 7, 0)
	unsafeID := `id "quoted" \ and longer than sixteen bytes`
	other := record.New(safe, "apache_log", 5)
	other.SetString(record.FieldID, safe[:len(safe)-1]+`"`)
	other.SetString("copy", safe)
	for _, r := range []*record.Record{
		record.New(safe, "apache_log", 1),
		record.New(unsafeID, "apache_log", 2),
		other,
	} {
		want := []byte(`{"id":`)
		want = record.AppendJSONString(want, r.ID)
		want = append(want, `,"type":`...)
		want = record.AppendJSONString(want, r.Type)
		want = append(want, `,"creationDate":`...)
		want = record.AppendJSON(want, record.IntValue(r.CreationDate))
		want = append(want, `,"fields":`...)
		want = record.AppendFieldsJSON(want, r.Fields())
		want = append(want, '}')
		got, err := serialize.JSON{}.Serialize(nil, r)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("id %q:\n got %s\nwant %s", r.ID, got, want)
		}
		if !json.Valid(got) {
			t.Errorf("id %q: invalid JSON %s", r.ID, got)
		}
	}
}
