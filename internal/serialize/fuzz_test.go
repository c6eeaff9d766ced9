package serialize_test

import (
	"bytes"
	"testing"

	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/serialize"
)

// valueBytes returns the bytes a string or bytes value holds.
func valueBytes(t *testing.T, v record.Value) []byte {
	if b, ok := v.AsBytes(); ok {
		return b
	}
	s, ok := v.AsString()
	if !ok {
		t.Fatalf("record_value is a %v", v.Kind())
	}
	return []byte(s)
}

// jsonRoundTrip writes r as JSON and reads it back.
func jsonRoundTrip(t *testing.T, r *record.Record) *record.Record {
	t.Helper()
	msg, err := serialize.JSON{}.Serialize(nil, r)
	if err != nil {
		t.Fatal(err)
	}
	back := streamRecord()
	if err := (serialize.JSON{}).Deserialize(back, nil, msg); err != nil {
		t.Fatalf("JSON written by the serializer does not read back: %v\n%s", err, msg)
	}
	return back
}

// FuzzRawDeserialize: any message becomes a record whose record_value
// holds exactly the message, also after a trip through JSON (as the error
// topics write it).
func FuzzRawDeserialize(f *testing.F) {
	for _, s := range []string{"", "plain line", "\xff\xfe", "a\x00b", "\xe2\x80", `{"$base64":"AA=="}`, "日本"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		r := streamRecord()
		if err := (serialize.Raw{}).Deserialize(r, nil, in); err != nil {
			t.Fatalf("raw deserializer failed: %v", err)
		}
		v, _ := r.Get(record.FieldValue)
		if !bytes.Equal(valueBytes(t, v), in) {
			t.Fatal("record_value differs from the message")
		}
		back, _ := jsonRoundTrip(t, r).Get(record.FieldValue)
		if !bytes.Equal(valueBytes(t, back), in) {
			t.Fatal("record_value differs from the message after JSON")
		}
	})
}

// FuzzJSONDeserialize: any message becomes a record that JSON writes and
// reads back, or an error; then, as the stream does, an error record whose
// record_value keeps the message's bytes through JSON.
func FuzzJSONDeserialize(f *testing.F) {
	for _, s := range []string{`{"a":1}`, `{"id":"x","type":"t","creationDate":1,"fields":{"b":{"$base64":"AP8="}}}`,
		`{"fields":{}}`, `[1]`, `{"a":"\ud800"}`, "{\"a\":\"\xff\"}", `{"a":{"$base64":"!"}}`, `{"a":1e400}`, ``} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		r := streamRecord()
		if err := (serialize.JSON{}).Deserialize(r, nil, in); err == nil {
			jsonRoundTrip(t, r)
			return
		}
		er := streamRecord()
		er.AddError(record.ErrDeserializing, "fuzz")
		er.Set(record.FieldValue, serialize.RawValue(in))
		back, _ := jsonRoundTrip(t, er).Get(record.FieldValue)
		if !bytes.Equal(valueBytes(t, back), in) {
			t.Fatal("the error record's record_value differs from the message after JSON")
		}
	})
}
