// Package record holds the Record that flows through every stream: its id,
// type, creation date and typed fields, the technical field names that all
// components agree on, and the error list that routes a record to the error
// topics.
package record

import (
	"strconv"
)

// Technical field names. Processors read and write them by these names; the
// serializers and sinks rely on them.
const (
	FieldID     = "record_id"     // mirrors Record.ID
	FieldType   = "record_type"   // mirrors Record.Type
	FieldTime   = "record_time"   // event time, epoch milliseconds
	FieldValue  = "record_value"  // the raw input value
	FieldKey    = "record_key"    // the raw input key
	FieldErrors = "record_errors" // list of "<error_type>: <message>" strings

	// FieldOutputTopic, when set by a processor (RouteRecords), names the
	// one output topic of the record instead of the stream's output
	// topics. The stream removes it before writing the record.
	FieldOutputTopic = "record_output_topic"

	// Fields added to a record when it is routed to an error topic, so that
	// an operator can find the input that failed.
	FieldErrorProcessor  = "record_error_processor"
	FieldSourceTopic     = "record_source_topic"
	FieldSourcePartition = "record_source_partition"
	FieldSourceOffset    = "record_source_offset"

	// Fields of an error record that stands for a record too large to be
	// written: record_value then holds the first bytes of the value, and
	// these say so and give the whole value's size in bytes.
	FieldValueTruncated = "record_value_truncated"
	FieldValueSize      = "record_value_size"
)

// Error types used in record_errors. Processors may add their own; these are
// the ones the core produces.
const (
	ErrRegexMatching  = "regex_matching_error"
	ErrDeserializing  = "deserialization_error"
	ErrRuntime        = "runtime_error"
	ErrProcessing     = "processing_error"
	ErrDatastoreWrite = "datastore_write_error"
	// ErrTooLarge: the serialized record is larger than the stream's
	// broker.output.max.message.bytes, or the broker refused it as too large.
	ErrTooLarge = "record_too_large"
	// ErrRefused: the broker refused the record for good (invalid record).
	ErrRefused = "record_refused"
)

// Origin says where a record came from: the broker coordinates of the input
// message and the position of the record among the outputs of that input.
// It is not serialized as such; it derives the id and is copied into error
// records.
type Origin struct {
	Topic string
	// TopicID is the Kafka topic id (KIP-516) of Topic, zero when the
	// broker gives none; ids derive from it (DeriveTopicID).
	TopicID   [16]byte
	Partition int32
	Offset    int64
	Index     int
}

// Field is one named value of a record.
type Field struct {
	Name  string
	Value Value
}

// Record is the unit of data in a stream.
//
// Fields keep their insertion order, so serialized output is deterministic.
// They are held in a slice and looked up linearly: records have a dozen or so
// fields, where a slice beats a map and allocates once.
//
// A Record is owned by one goroutine at a time; it is not safe for
// concurrent use.
type Record struct {
	ID           string
	Type         string
	CreationDate int64 // epoch milliseconds
	Origin       Origin
	fields       []Field
	errors       []string

	// names has the bit nameBit(name) set for the name of every field
	// (and possibly for names since removed): a clear bit proves a name
	// absent without a scan. Parsers add a dozen new fields to a record,
	// and a scan of every field before each append made setting fields
	// quadratic; with the bit most of them append at once.
	names uint64
}

// nameBit returns the bit of names for a field name: a cheap hash of its
// length and last two bytes, which tells apart all but one pair of the
// technical and parsed field names of the sample job.
func nameBit(name string) uint64 {
	n := len(name)
	if n < 2 {
		if n == 0 {
			return 1
		}
		return 1 << ((uint(n) + uint(name[0])) & 63)
	}
	return 1 << ((uint(n)*7 + uint(name[n-1]) + uint(name[n-2])*3) & 63)
}

// New returns a record with the given id, type and creation date, and the
// technical fields record_id and record_type set to match.
//
// The record and its first fieldsPerRecord fields are one allocation
// (newRecord): a processor that makes records one at a time pays one
// allocation for both, not two.
func New(id, typ string, creationDate int64) *Record {
	nr := new(newRecord)
	r := &nr.r
	r.ID, r.Type, r.CreationDate = id, typ, creationDate
	r.fields = nr.store[:0:fieldsPerRecord]
	r.Set(FieldID, StringValue(id))
	r.Set(FieldType, StringValue(typ))
	return r
}

// fieldsPerRecord is the field capacity a new record starts with: enough for
// a parsed log line, so the slice rarely grows.
const fieldsPerRecord = 16

// newRecord is what New allocates: a record and the storage of its first
// fields. A record that outgrows them moves its fields to a slice of its
// own (append), and the storage then stays with the record, unused.
type newRecord struct {
	r     Record
	store [fieldsPerRecord]Field
}

// NewBatch returns n records whose structs and field storage come from two
// allocations instead of 2n: the stream creates records by the thousand per
// batch, and per-record allocations dominate its cost otherwise. Each record
// has its own capacity-limited share of the field storage; a record that
// outgrows it moves to a slice of its own, so records never overwrite one
// another. The records are zero: Init each one.
func NewBatch(n int) []Record { return NewBatchFields(n, fieldsPerRecord) }

// NewBatchFields is NewBatch with room for perRecord fields in each record
// (at least 1). The stream sizes it from the records of its previous batch,
// so that field storage neither sits unused nor grows record by record.
func NewBatchFields(n, perRecord int) []Record {
	perRecord = max(perRecord, 1)
	recs := make([]Record, n)
	store := make([]Field, n*perRecord)
	for i := range recs {
		recs[i].fields = store[i*perRecord : i*perRecord : (i+1)*perRecord]
	}
	return recs
}

// Init sets the id, type and creation date of a record from NewBatch, and
// the technical fields record_id and record_type to match.
func (r *Record) Init(id, typ string, creationDate int64) {
	r.ID, r.Type, r.CreationDate = id, typ, creationDate
	r.fields = r.fields[:0]
	r.names = 0
	r.errors = nil
	r.Set(FieldID, StringValue(id))
	r.Set(FieldType, StringValue(typ))
}

// SetType changes the record type and its mirror field.
func (r *Record) SetType(typ string) {
	r.Type = typ
	r.Set(FieldType, StringValue(typ))
}

// SetID changes the record id and its mirror field.
func (r *Record) SetID(id string) {
	r.ID = id
	// New and Init put record_id first, and names are unique: when it is
	// still there, set it without looking.
	if len(r.fields) > 0 && r.fields[0].Name == FieldID {
		r.fields[0].Value = StringValue(id)
		return
	}
	r.Set(FieldID, StringValue(id))
}

// Get returns the value of a field and whether it exists.
func (r *Record) Get(name string) (Value, bool) {
	if r.names&nameBit(name) == 0 {
		return Value{}, false
	}
	for i := range r.fields {
		if r.fields[i].Name == name {
			return r.fields[i].Value, true
		}
	}
	return Value{}, false
}

// GetString returns the field as text and whether it exists. A non-string
// scalar is rendered with Value.Text.
func (r *Record) GetString(name string) (string, bool) {
	v, ok := r.Get(name)
	if !ok {
		return "", false
	}
	if s, ok := v.AsString(); ok {
		return s, true
	}
	return v.Text(), true
}

// Has reports whether the record has the field.
func (r *Record) Has(name string) bool {
	_, ok := r.Get(name)
	return ok
}

// Set sets a field, replacing an existing one of the same name in place.
func (r *Record) Set(name string, v Value) { r.set(name, nameBit(name), v) }

// Name is a field name with its lookup bit worked out once: a processor
// that sets the same fields on every record (a parser's captures) makes
// its Names when it is configured and sets them with SetNamed.
type Name struct {
	s   string
	bit uint64
}

// MakeName returns the Name of a field name.
func MakeName(s string) Name { return Name{s, nameBit(s)} }

// String returns the field name.
func (n Name) String() string { return n.s }

// SetNamed is Set for a Name: the same, without hashing the name again.
func (r *Record) SetNamed(n Name, v Value) { r.set(n.s, n.bit, v) }

// Bit returns the name's bit in the set of names a record keeps: the bits
// of several names ORed together prove them all absent at once (Absent).
// Distinct names can share a bit.
func (n Name) Bit() uint64 { return n.bit }

// Absent reports whether the record has certainly none of the names whose
// bits (Name.Bit) are set in bits; false means it may have one.
func (r *Record) Absent(bits uint64) bool { return r.names&bits == 0 }

// Room returns how many fields can be added without the field slice
// growing.
func (r *Record) Room() int { return cap(r.fields) - len(r.fields) }

// AddAbsent appends a field for a parser that has proved its name absent
// (Absent) and the room there (Room), and that the names it adds this way
// are distinct: SetNamed without the call, the test and the scan. Under
// those conditions the record is the same as after SetNamed.
func (r *Record) AddAbsent(n Name, v Value) {
	k := len(r.fields)
	r.fields = r.fields[:k+1]
	f := &r.fields[k]
	f.Name, f.Value = n.s, v
	r.names |= n.bit
}

// set is Set with the name's bit given; bit must be nameBit(name).
func (r *Record) set(name string, bit uint64, v Value) {
	if r.names&bit != 0 {
		for i := range r.fields {
			if r.fields[i].Name == name {
				r.fields[i].Value = v
				return
			}
		}
	}
	r.names |= bit
	if n := len(r.fields); n < cap(r.fields) {
		// Storing the two parts in place costs two pointer writes; an
		// append of the whole Field is a typed copy, whose write barrier
		// scans the struct while the garbage collector runs.
		r.fields = r.fields[:n+1]
		f := &r.fields[n]
		f.Name, f.Value = name, v
		return
	}
	r.fields = append(r.fields, Field{Name: name, Value: v})
}

// SetString sets a string field.
func (r *Record) SetString(name, s string) { r.Set(name, StringValue(s)) }

// Remove deletes a field if it exists.
func (r *Record) Remove(name string) {
	if r.names&nameBit(name) == 0 {
		return
	}
	for i := range r.fields {
		if r.fields[i].Name == name {
			r.fields = append(r.fields[:i], r.fields[i+1:]...)
			return
		}
	}
}

// Fields returns the fields in insertion order. The slice is the record's
// own: callers must not modify it and must not keep it past the next Set.
func (r *Record) Fields() []Field { return r.fields }

// Len returns the number of fields.
func (r *Record) Len() int { return len(r.fields) }

// AddError records a failure of the given type. A record with errors is
// routed to the error topics and skips the rest of the processor chain.
func (r *Record) AddError(errType, message string) {
	r.errors = append(r.errors, errType+": "+message)
	r.Set(FieldErrors, StringsValue(r.errors))
}

// Errors returns the error strings, "<error_type>: <message>".
func (r *Record) Errors() []string { return r.errors }

// HasErrors reports whether the record carries errors.
func (r *Record) HasErrors() bool { return len(r.errors) > 0 }

// Clone returns a deep enough copy: the field slice and error list are new,
// values are shared (they are immutable).
func (r *Record) Clone() *Record {
	c := *r
	c.fields = append(make([]Field, 0, len(r.fields)+4), r.fields...)
	c.errors = append([]string(nil), r.errors...)
	return &c
}

// MarkSource adds the source coordinates and the failing processor to a
// record bound for an error topic.
func (r *Record) MarkSource(processor string) {
	if processor != "" {
		r.SetString(FieldErrorProcessor, processor)
	}
	r.SetString(FieldSourceTopic, r.Origin.Topic)
	r.Set(FieldSourcePartition, IntValue(int64(r.Origin.Partition)))
	r.Set(FieldSourceOffset, IntValue(r.Origin.Offset))
}

// restoreErrors rebuilds the error list from the record_errors field, for
// records read back from JSON.
func (r *Record) restoreErrors() {
	v, ok := r.Get(FieldErrors)
	if !ok {
		return
	}
	a, ok := v.AsArray()
	if !ok {
		return
	}
	r.errors = r.errors[:0]
	for _, e := range a {
		r.errors = append(r.errors, e.Text())
	}
}

// String renders the record for logs and test failures.
func (r *Record) String() string {
	b := []byte("Record{id=" + r.ID + " type=" + r.Type + " created=" + strconv.FormatInt(r.CreationDate, 10) + " fields=")
	b = AppendFieldsJSON(b, r.fields)
	return string(append(b, '}'))
}
