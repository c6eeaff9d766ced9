// Package serialize holds the serializers that turn records into broker
// messages and back: JsonSerializer (pkg.serializer.JsonSerializer), the
// raw serializer that the spec calls "none", and LogIsland's
// BytesArraySerializer, StringSerializer, ExtendedJsonSerializer and
// AvroSerializer (logisland.go). KryoSerializer is refused.
package serialize

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf8"
	"unsafe"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/record"
)

// Identifiers of the serializers.
const (
	JSONName = "pkg.serializer.JsonSerializer"
	RawName  = "none"
)

// JSONSpec is the JsonSerializer component.
func JSONSpec() component.Spec {
	return component.SerializerSpec(component.Spec{
		Name: JSONName,
		Summary: `Writes one compact JSON object per message: {"id":..,"type":..,"creationDate":..,"fields":{..}}; a bytes value is written as {"$base64":"..."} and read back as the same bytes. ` +
			`Reads the same shape back; any other JSON object becomes a record whose fields are the object's keys.`,
	}, func(*JSONConfig) (component.Serializer, error) { return JSON{}, nil })
}

// JSONConfig is JsonSerializer's configuration: it has no keys.
type JSONConfig struct{}

// RawSpec is the "none" serializer: raw bytes in record_value.
func RawSpec() component.Spec {
	return component.SerializerSpec(component.Spec{
		Name: RawName,
		Summary: "No serialization. Reading, the message value becomes the field record_value and the key record_key: strings when they are valid UTF-8, bytes otherwise, never changed. " +
			"Writing, the message value is record_value as text (records without it are written as JSON).",
	}, func(*RawConfig) (component.Serializer, error) { return Raw{}, nil })
}

// RawConfig is the "none" serializer's configuration: it has no keys.
type RawConfig struct{}

// JSON is the JsonSerializer. It is stateless and safe for concurrent use.
type JSON struct{}

// Serialize appends the record as one JSON object.
func (JSON) Serialize(dst []byte, r *record.Record) ([]byte, error) {
	return AppendRecordJSON(dst, r), nil
}

// AppendRecordJSON appends the JSON form of a record.
func AppendRecordJSON(dst []byte, r *record.Record) []byte {
	dst = append(dst, `{"id":`...)
	// The id is written twice (here and as record_id): scanned once.
	known := ""
	if record.JSONSafe(r.ID) {
		known = r.ID
		dst = append(dst, '"')
		dst = append(dst, r.ID...)
		dst = append(dst, '"')
	} else {
		dst = record.AppendJSONString(dst, r.ID)
	}
	dst = append(dst, `,"type":`...)
	dst = record.AppendJSONString(dst, r.Type)
	dst = append(dst, `,"creationDate":`...)
	dst = appendInt(dst, r.CreationDate)
	dst = append(dst, `,"fields":`...)
	dst = record.AppendFieldsJSONKnown(dst, r.Fields(), known)
	return append(dst, '}')
}

func appendInt(dst []byte, n int64) []byte {
	return record.AppendInt(dst, n)
}

type envelope struct {
	ID           *string         `json:"id"`
	Type         *string         `json:"type"`
	CreationDate *json.Number    `json:"creationDate"`
	Fields       json.RawMessage `json:"fields"`
}

// Deserialize reads a record written by Serialize. Id, type and creation
// date from the message win over the ones the stream derived, so a record
// keeps its identity from one stream to the next. A JSON object of another
// shape becomes a record whose fields are its keys, so plain JSON logs can be
// read too.
func (JSON) Deserialize(r *record.Record, _, value []byte) error {
	trimmed := bytes.TrimSpace(value)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return fmt.Errorf("message is not a JSON object")
	}
	var env envelope
	if err := json.Unmarshal(trimmed, &env); err != nil {
		return fmt.Errorf("decode JSON record: %w", err)
	}
	if env.Fields != nil && (env.ID != nil || env.Type != nil) {
		fields, err := record.DecodeFieldsJSON(env.Fields)
		if err != nil {
			return fmt.Errorf("decode JSON record: %w", err)
		}
		r.SetFields(fields)
		if env.ID != nil {
			r.SetID(*env.ID)
		} else {
			r.SetID(r.ID)
		}
		if env.Type != nil {
			r.SetType(*env.Type)
		} else {
			r.SetType(r.Type)
		}
		if env.CreationDate != nil {
			if n, err := env.CreationDate.Int64(); err == nil {
				r.CreationDate = n
			}
		}
		return nil
	}
	fields, err := record.DecodeFieldsJSON(trimmed)
	if err != nil {
		return fmt.Errorf("decode JSON object: %w", err)
	}
	id, typ := r.ID, r.Type
	r.SetFields(fields)
	r.SetID(id)
	r.SetType(typ)
	return nil
}

// Raw is the "none" serializer.
type Raw struct{}

// Serialize writes record_value as text; a record without it is written as
// JSON so that nothing is lost.
func (Raw) Serialize(dst []byte, r *record.Record) ([]byte, error) {
	v, ok := r.Get(record.FieldValue)
	if !ok {
		return AppendRecordJSON(dst, r), nil
	}
	if b, ok := v.AsBytes(); ok {
		return append(dst, b...), nil
	}
	return append(dst, v.Text()...), nil
}

// Deserialize sets record_value (and record_key when there is a key) from
// the raw message: a string when it is valid UTF-8, otherwise a copy of the
// bytes, so raw input is never changed (the JSON serializer writes bytes in
// a reversible form). It never fails.
func (Raw) Deserialize(r *record.Record, key, value []byte) error {
	if key != nil {
		r.Set(record.FieldKey, RawValue(key))
	}
	r.Set(record.FieldValue, RawValue(value))
	return nil
}

// RawValue is b as a string when it is valid UTF-8, and as a copy of the
// bytes when it is not: how raw input is kept, unchanged, in record_value.
func RawValue(b []byte) record.Value {
	if utf8.Valid(b) {
		return record.StringValue(string(b))
	}
	return record.BytesValue(bytes.Clone(b))
}

// OwnedDeserializer is a serializer that can read a message whose key and
// value bytes are handed over to the record, without copying them.
type OwnedDeserializer interface {
	// DeserializeOwned is Deserialize for bytes that nothing modifies or
	// reuses afterwards: the record may refer to them for as long as it
	// lives.
	DeserializeOwned(r *record.Record, key, value []byte) error
}

// DeserializeOwned is Deserialize without the copies: record_value and
// record_key refer to key and value, which the caller hands over and must
// never modify or reuse (see OwnedValue). The stream reads fetched messages
// this way: the copy of every line was 4 % of its CPU (an allocation and a
// memmove of about 240 bytes a record in the sample job) and a third of the
// bytes it allocated.
func (Raw) DeserializeOwned(r *record.Record, key, value []byte) error {
	if key != nil {
		r.Set(record.FieldKey, OwnedValue(key))
	}
	r.Set(record.FieldValue, OwnedValue(value))
	return nil
}

// OwnedValue is RawValue without the copy: b as a string when it is valid
// UTF-8, else as bytes, referring to b's memory in both cases. The caller
// gives b up: it must never be modified or reused afterwards, since a Go
// string is assumed never to change. The value keeps all of b's backing
// array alive (for a fetched message, the whole decompressed batch) as
// long as the value lives.
func OwnedValue(b []byte) record.Value {
	if utf8.Valid(b) {
		return record.StringValue(unsafe.String(unsafe.SliceData(b), len(b)))
	}
	return record.BytesValue(b[:len(b):len(b)])
}
