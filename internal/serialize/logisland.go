package serialize

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/hamba/avro/v2"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/record"
)

// LogIsland's other serializers (prefix changed).
const (
	BytesName        = "pkg.serializer.BytesArraySerializer"
	StringName       = "pkg.serializer.StringSerializer"
	ExtendedJSONName = "pkg.serializer.ExtendedJsonSerializer"
	AvroName         = "pkg.serializer.AvroSerializer"
	// KryoName is refused: see KryoRefusal.
	KryoName = "pkg.serializer.KryoSerializer"
)

// KeySchema is the Avro schema a stream hands AvroSerializer: its
// avro.input.schema for the input topics, avro.output.schema for the
// output and error topics.
const KeySchema = "avro.schema"

// KryoRefusal says why KryoSerializer is refused and what replaces it.
// Kryo writes Java objects in a form only Java's Kryo library, with
// LogIsland's classes registered in the same order, reads back; there is
// no Go implementation to check bytes against.
const KryoRefusal = KryoName + " (Java's Kryo object serialization) is not supported: use " + JSONName +
	" (the default) or " + AvroName + " with avro.input.schema / avro.output.schema (docs/operations.md, \"Jobs written for LogIsland\")"

// BytesSpec is LogIsland's BytesArraySerializer.
func BytesSpec() component.Spec {
	return component.SerializerSpec(component.Spec{
		Name: BytesName,
		Summary: "Reading, the message value becomes record_value as bytes, never text. Writing, the message is record_value's bytes " +
			"(a string's UTF-8); a record without record_value is written as an empty message, as LogIsland does.",
	}, func(*BytesConfig) (component.Serializer, error) { return Bytes{}, nil })
}

// BytesConfig is BytesArraySerializer's configuration: it has no keys.
type BytesConfig struct{}

// Bytes is BytesArraySerializer.
type Bytes struct{}

// Serialize appends record_value's bytes.
func (Bytes) Serialize(dst []byte, r *record.Record) ([]byte, error) {
	v, ok := r.Get(record.FieldValue)
	if !ok {
		return dst, nil
	}
	if b, ok := v.AsBytes(); ok {
		return append(dst, b...), nil
	}
	return append(dst, v.Text()...), nil
}

// Deserialize sets record_value to a copy of the bytes.
func (Bytes) Deserialize(r *record.Record, _, value []byte) error {
	r.Set(record.FieldValue, record.BytesValue(bytes.Clone(value)))
	return nil
}

// StringSpec is LogIsland's StringSerializer.
func StringSpec() component.Spec {
	return component.SerializerSpec(component.Spec{
		Name: StringName,
		Summary: "Reading, the message value becomes record_value as text. Writing, the record in JsonSerializer's form: LogIsland " +
			"writes Java's toString of the record, a debugging form nothing reads back.",
	}, func(*StringConfig) (component.Serializer, error) { return String{}, nil })
}

// StringConfig is StringSerializer's configuration: it has no keys.
type StringConfig struct{}

// String is StringSerializer.
type String struct{}

// Serialize appends the record in JsonSerializer's form.
func (String) Serialize(dst []byte, r *record.Record) ([]byte, error) {
	return AppendRecordJSON(dst, r), nil
}

// Deserialize sets record_value to the text of the message.
func (String) Deserialize(r *record.Record, _, value []byte) error {
	r.Set(record.FieldValue, record.StringValue(string(value)))
	return nil
}

// ExtendedJSONSpec is LogIsland's ExtendedJsonSerializer.
func ExtendedJSONSpec() component.Spec {
	return component.SerializerSpec(component.Spec{
		Name: ExtendedJSONName,
		Summary: `Writes one flat JSON object per record, as LogIsland's ExtendedJsonSerializer: the fields by name, then "id", ` +
			`"creationDate" (record_time, epoch milliseconds) and "type". Reads any JSON object back, its keys becoming fields; ` +
			`"id", "type" and "creationDate" give the record's id, type and creation date.`,
	}, func(*ExtendedJSONConfig) (component.Serializer, error) { return ExtendedJSON{}, nil })
}

// ExtendedJSONConfig is ExtendedJsonSerializer's configuration: it has no keys.
type ExtendedJSONConfig struct{}

// ExtendedJSON is ExtendedJsonSerializer.
type ExtendedJSON struct{}

// Serialize appends the flat object.
func (ExtendedJSON) Serialize(dst []byte, r *record.Record) ([]byte, error) {
	dst = append(dst, '{')
	for _, f := range r.Fields() {
		if f.Name == "id" || f.Name == "type" || f.Name == "creationDate" {
			continue // LogIsland's put of the record's own overwrites them
		}
		dst = record.AppendJSONString(dst, f.Name)
		dst = append(dst, ':')
		dst = record.AppendJSON(dst, f.Value)
		dst = append(dst, ',')
	}
	dst = append(dst, `"id":`...)
	dst = record.AppendJSONString(dst, r.ID)
	if v, ok := r.Get(record.FieldTime); ok {
		if n, ok := v.AsInt(); ok {
			dst = append(dst, `,"creationDate":`...)
			dst = record.AppendInt(dst, n)
		}
	}
	dst = append(dst, `,"type":`...)
	dst = record.AppendJSONString(dst, r.Type)
	return append(dst, '}'), nil
}

// Deserialize reads a JSON object: its keys become fields, and id, type
// and creationDate the record's.
func (ExtendedJSON) Deserialize(r *record.Record, _, value []byte) error {
	trimmed := bytes.TrimSpace(value)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return errors.New("message is not a JSON object")
	}
	fields, err := record.DecodeFieldsJSON(trimmed)
	if err != nil {
		return fmt.Errorf("decode JSON object: %w", err)
	}
	id, typ := r.ID, r.Type
	var created int64 = -1
	kept := fields[:0]
	for _, f := range fields {
		switch f.Name {
		case "id":
			if s, ok := f.Value.AsString(); ok {
				id = s
				continue
			}
		case "type":
			if s, ok := f.Value.AsString(); ok {
				typ = s
				continue
			}
		case "creationDate":
			if n, ok := f.Value.AsInt(); ok {
				created = n
				continue
			}
		}
		kept = append(kept, f)
	}
	r.SetFields(kept)
	r.SetID(id)
	r.SetType(typ)
	if created >= 0 {
		r.CreationDate = created
		if !r.Has(record.FieldTime) {
			r.Set(record.FieldTime, record.IntValue(created))
		}
	}
	return nil
}

// AvroSpec is LogIsland's AvroSerializer.
func AvroSpec() component.Spec {
	return component.SerializerSpec(component.Spec{
		Name: AvroName,
		Summary: "Avro binary encoding of one record per message, without a container or schema-registry header, as LogIsland's " +
			"AvroSerializer: the stream's avro.input.schema reads the input topics, avro.output.schema writes the output and error topics. " +
			"Writing, each field of the record must be a field of the schema (a field it lacks makes the record an error record, as in " +
			"LogIsland); values are converted to the schema's types. Reading, the schema's fields become fields, and record_id and " +
			"record_type, when the schema has them, the record's id and type.",
		Properties: []component.Property{
			{Key: KeySchema, Description: "The Avro schema (JSON); a stream sets it from avro.input.schema or avro.output.schema.", Required: true, Example: `{"type":"record","name":"event","fields":[{"name":"record_id","type":"string"},{"name":"record_type","type":"string"},{"name":"record_value","type":["null","string"]}]}`, Validator: AvroSchema},
		},
	}, func(c *AvroConfig) (component.Serializer, error) { return &Avro{schema: c.schema}, nil })
}

// AvroConfig is AvroSerializer's configuration.
type AvroConfig struct {
	Schema string `key:"avro.schema"`
	// schema is Schema parsed, once, by Validate.
	schema *avro.RecordSchema
}

// Validate parses the schema that the key's validator accepted and keeps
// it: a validator checks one value and keeps nothing, and the serializer
// is built from the parsed schema.
func (c *AvroConfig) Validate() error {
	s, err := parseRecordSchema(c.Schema)
	if err != nil {
		return fmt.Errorf("property %q: %w", KeySchema, err)
	}
	c.schema = s
	return nil
}

// AvroSchema validates an Avro record schema.
var AvroSchema = component.NewValidator("Avro record schema (JSON)", func(v string) error {
	_, err := parseRecordSchema(v)
	return err
})

// parseRecordSchema parses an Avro schema that must be a record's.
func parseRecordSchema(v string) (*avro.RecordSchema, error) {
	s, err := avro.Parse(v)
	if err != nil {
		return nil, fmt.Errorf("not an Avro schema: %w", err)
	}
	rs, ok := s.(*avro.RecordSchema)
	if !ok {
		return nil, fmt.Errorf("the Avro schema is a %s, not a record", s.Type())
	}
	return rs, nil
}

// Avro is AvroSerializer. It is safe for concurrent use.
type Avro struct {
	schema *avro.RecordSchema
}

// Serialize appends the Avro encoding of r's fields.
func (a *Avro) Serialize(dst []byte, r *record.Record) ([]byte, error) {
	m := make(map[string]any, len(a.schema.Fields()))
	for _, f := range r.Fields() {
		sf := a.field(f.Name)
		if sf == nil {
			return dst, fmt.Errorf("avro: field %q is not in the schema %s", f.Name, a.schema.FullName())
		}
		x, err := toAvro(f.Value.Interface(), sf.Type())
		if err != nil {
			return dst, fmt.Errorf("avro: field %q: %w", f.Name, err)
		}
		m[f.Name] = x
	}
	for _, sf := range a.schema.Fields() {
		if _, ok := m[sf.Name()]; !ok {
			if sf.HasDefault() {
				m[sf.Name()] = sf.Default()
			} else if nullable(sf.Type()) {
				m[sf.Name()] = nil
			} else {
				return dst, fmt.Errorf("avro: the record has no field %q, which the schema requires", sf.Name())
			}
		}
	}
	b, err := avro.Marshal(a.schema, m)
	if err != nil {
		return dst, fmt.Errorf("avro: %w", err)
	}
	return append(dst, b...), nil
}

func (a *Avro) field(name string) *avro.Field {
	for _, f := range a.schema.Fields() {
		if f.Name() == name {
			return f
		}
	}
	return nil
}

// Deserialize reads one Avro-encoded record.
func (a *Avro) Deserialize(r *record.Record, _, value []byte) error {
	var m map[string]any
	if err := avro.Unmarshal(a.schema, value, &m); err != nil {
		return fmt.Errorf("avro: %w", err)
	}
	id, typ := r.ID, r.Type
	for _, sf := range a.schema.Fields() {
		x, ok := m[sf.Name()]
		if !ok || x == nil {
			continue
		}
		v, err := fromAvro(x)
		if err != nil {
			return fmt.Errorf("avro: field %q: %w", sf.Name(), err)
		}
		switch sf.Name() {
		case record.FieldID:
			if s, ok := v.AsString(); ok {
				id = s
				continue
			}
		case record.FieldType:
			if s, ok := v.AsString(); ok {
				typ = s
				continue
			}
		}
		r.Set(sf.Name(), v)
	}
	r.SetID(id)
	r.SetType(typ)
	return nil
}

func nullable(s avro.Schema) bool {
	if u, ok := s.(*avro.UnionSchema); ok {
		return u.Nullable()
	}
	return s.Type() == avro.Null
}

// toAvro converts a field's Go value (record.Value.Interface) to the Go
// type hamba/avro encodes for s.
func toAvro(x any, s avro.Schema) (any, error) {
	if u, ok := s.(*avro.UnionSchema); ok {
		if x == nil {
			return nil, nil
		}
		var last error
		for _, t := range u.Types() {
			if t.Type() == avro.Null {
				continue
			}
			v, err := toAvro(x, t)
			if err == nil {
				if len(u.Types()) > 2 || !u.Nullable() {
					// A union of several types: hamba/avro takes the
					// branch named by a one-key map.
					return map[string]any{unionName(t): v}, nil
				}
				return v, nil
			}
			last = err
		}
		return nil, last
	}
	if x == nil {
		if s.Type() == avro.Null {
			return nil, nil
		}
		return nil, fmt.Errorf("null for a %s", s.Type())
	}
	switch s.Type() {
	case avro.String, avro.Enum:
		return text(x), nil
	case avro.Int:
		n, err := toInt(x)
		if err != nil || n < math.MinInt32 || n > math.MaxInt32 {
			return nil, fmt.Errorf("%v is not an int", x)
		}
		return int(n), nil
	case avro.Long:
		n, err := toInt(x)
		if err != nil {
			return nil, fmt.Errorf("%v is not a long", x)
		}
		return n, nil
	case avro.Float, avro.Double:
		var f float64
		switch v := x.(type) {
		case float64:
			f = v
		case int64:
			f = float64(v)
		case string:
			p, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return nil, fmt.Errorf("%q is not a number", v)
			}
			f = p
		default:
			return nil, fmt.Errorf("%v is not a number", x)
		}
		if s.Type() == avro.Float {
			return float32(f), nil
		}
		return f, nil
	case avro.Boolean:
		switch v := x.(type) {
		case bool:
			return v, nil
		case string:
			return strconv.ParseBool(v)
		}
		return nil, fmt.Errorf("%v is not a boolean", x)
	case avro.Bytes, avro.Fixed:
		switch v := x.(type) {
		case []byte:
			return v, nil
		case string:
			return []byte(v), nil
		}
		return nil, fmt.Errorf("%v is not bytes", x)
	}
	return x, nil
}

func unionName(s avro.Schema) string {
	if n, ok := s.(avro.NamedSchema); ok {
		return n.FullName()
	}
	return string(s.Type())
}

func toInt(x any) (int64, error) {
	switch v := x.(type) {
	case int64:
		return v, nil
	case float64:
		if v != math.Trunc(v) {
			return 0, errors.New("not a whole number")
		}
		return int64(v), nil
	case string:
		return strconv.ParseInt(v, 10, 64)
	}
	return 0, errors.New("not a number")
}

func text(x any) string {
	switch v := x.(type) {
	case string:
		return v
	case []byte:
		return string(v)
	}
	b, _ := json.Marshal(x)
	return string(b)
}

// fromAvro converts a decoded Avro value to a field value.
func fromAvro(x any) (record.Value, error) {
	switch v := x.(type) {
	case nil:
		return record.Value{}, nil
	case string:
		return record.StringValue(v), nil
	case int:
		return record.IntValue(int64(v)), nil
	case int32:
		return record.IntValue(int64(v)), nil
	case int64:
		return record.IntValue(v), nil
	case float32:
		return record.FloatValue(float64(v)), nil
	case float64:
		return record.FloatValue(v), nil
	case bool:
		return record.BoolValue(v), nil
	case []byte:
		return record.BytesValue(v), nil
	case []any:
		out := make([]record.Value, len(v))
		for i, e := range v {
			ev, err := fromAvro(e)
			if err != nil {
				return record.Value{}, err
			}
			out[i] = ev
		}
		return record.ArrayValue(out), nil
	case map[string]any:
		out := make(map[string]record.Value, len(v))
		for k, e := range v {
			ev, err := fromAvro(e)
			if err != nil {
				return record.Value{}, err
			}
			out[k] = ev
		}
		return record.MapValue(out), nil
	}
	return record.ValueFromJSON(x)
}
