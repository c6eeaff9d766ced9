package pluginrpc

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"unsafe"

	"github.com/weir-streams/weir/internal/record"
)

// codecVersion is the first byte of every encoded batch. A host and a plugin
// built against different encodings refuse each other's batches with a clear
// error instead of misreading them; the go-plugin handshake's
// ProtocolVersion is raised with it.
const codecVersion = 1

// AppendBatch appends the binary encoding of a batch's records to dst.
//
// The encoding is a flat, length-prefixed byte string rather than gob or
// protobuf messages: a batch of thousands of records crosses the process
// boundary as one []byte, and encoding or decoding a record is a walk over
// its fields with no reflection. The header holds the topic, partition,
// record count and total field count (so the decoder allocates the fields
// of all records at once). Per record: id, type, creation date, the
// origin's partition, offset and index (its topic is the batch's), the
// fields in order (name, kind, payload). Errors travel in record_errors,
// like in JSON, and are rebuilt from it on decode.
func AppendBatch(dst []byte, topic string, partition int32, recs []*record.Record) []byte {
	dst = append(dst, codecVersion)
	dst = appendString(dst, topic)
	dst = binary.AppendVarint(dst, int64(partition))
	dst = binary.AppendUvarint(dst, uint64(len(recs)))
	total := 0
	for _, r := range recs {
		total += r.Len()
	}
	dst = binary.AppendUvarint(dst, uint64(total))
	for _, r := range recs {
		dst = appendRecord(dst, r)
	}
	return dst
}

// AppendBatchFields is AppendBatch sending only the fields named in reads
// (and the technical fields, see selected) of each record, for a processor that declared what it
// reads (ConfigureReply): encoding and decoding every field of every
// record was most of a plugin call's cost when the processor reads one.
// The record headers (id, type, date, origin) are always sent. The
// encoding is AppendBatch's, so the plugin decodes it the same way.
func AppendBatchFields(dst []byte, topic string, partition int32, recs []*record.Record, reads []string) []byte {
	dst = append(dst, codecVersion)
	dst = appendString(dst, topic)
	dst = binary.AppendVarint(dst, int64(partition))
	dst = binary.AppendUvarint(dst, uint64(len(recs)))
	total := 0
	for _, r := range recs {
		for _, f := range r.Fields() {
			if selected(f.Name, reads) {
				total++
			}
		}
	}
	dst = binary.AppendUvarint(dst, uint64(total))
	for _, r := range recs {
		dst = appendHead(dst, r)
		fields := r.Fields()
		n := 0
		for i := range fields {
			if selected(fields[i].Name, reads) {
				n++
			}
		}
		dst = binary.AppendUvarint(dst, uint64(n))
		for i := range fields {
			if selected(fields[i].Name, reads) {
				dst = appendString(dst, fields[i].Name)
				dst = appendValue(dst, fields[i].Value)
			}
		}
	}
	return dst
}

// selected says whether a field named name is sent to a processor that
// reads the fields in reads. The technical fields always are: record_id and
// record_type mirror the header, so that a record the plugin copies (Clone)
// or re-identifies keeps them, and record_errors carries the error list.
func selected(name string, reads []string) bool {
	switch name {
	case record.FieldID, record.FieldType, record.FieldErrors:
		return true
	}
	return slices.Contains(reads, name)
}

// appendRecord appends one record: id, type, creation date, the origin's
// partition, offset and index, then its fields.
func appendRecord(dst []byte, r *record.Record) []byte {
	dst = appendHead(dst, r)
	fields := r.Fields()
	dst = binary.AppendUvarint(dst, uint64(len(fields)))
	for i := range fields {
		dst = appendString(dst, fields[i].Name)
		dst = appendValue(dst, fields[i].Value)
	}
	return dst
}

// appendHead appends a record's id, type, creation date and origin.
func appendHead(dst []byte, r *record.Record) []byte {
	dst = appendString(dst, r.ID)
	dst = appendString(dst, r.Type)
	dst = binary.AppendVarint(dst, r.CreationDate)
	dst = binary.AppendVarint(dst, int64(r.Origin.Partition))
	dst = binary.AppendVarint(dst, r.Origin.Offset)
	return binary.AppendVarint(dst, int64(r.Origin.Index))
}

func appendString(dst []byte, s string) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(s)))
	return append(dst, s...)
}

func appendValue(dst []byte, v record.Value) []byte {
	dst = append(dst, byte(v.Kind()))
	switch v.Kind() {
	case record.String:
		s, _ := v.AsString()
		dst = appendString(dst, s)
	case record.Int:
		n, _ := v.AsInt()
		dst = binary.AppendVarint(dst, n)
	case record.Float:
		f, _ := v.AsFloat()
		dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(f))
	case record.Bool:
		b, _ := v.AsBool()
		if b {
			dst = append(dst, 1)
		} else {
			dst = append(dst, 0)
		}
	case record.Bytes:
		b, _ := v.AsBytes()
		dst = binary.AppendUvarint(dst, uint64(len(b)))
		dst = append(dst, b...)
	case record.Array:
		a, _ := v.AsArray()
		dst = binary.AppendUvarint(dst, uint64(len(a)))
		for _, e := range a {
			dst = appendValue(dst, e)
		}
	case record.Map:
		m, _ := v.AsMap()
		dst = binary.AppendUvarint(dst, uint64(len(m)))
		for k, e := range m {
			dst = appendString(dst, k)
			dst = appendValue(dst, e)
		}
	}
	return dst
}

// Batch is a decoded batch.
type Batch struct {
	Topic     string
	Partition int32
	Records   []*record.Record

	// What the records were when decoded, for AppendDelta: a copy of
	// every record's fields (record i's are orig[starts[i]:starts[i+1]])
	// and headers. Set by DecodeBatch only.
	in     []*record.Record
	orig   []record.Field
	starts []int32
	heads  []head
}

// head is the header of a record as decoded.
type head struct {
	id, typ string
	date    int64
}

var errShort = errors.New("batch encoding is truncated")

// DecodeBatch decodes what AppendBatch wrote. The strings of the records
// point into data, which must not be modified afterwards: decoding without
// a copy per string is what keeps a plugin call cheap, and the caller hands
// over a buffer it received and no longer writes.
func DecodeBatch(data []byte) (Batch, error) {
	return new(Scratch).Decode(data)
}

// Scratch holds the snapshot AppendDelta compares with, reused from one
// batch to the next: a plugin's connection decodes batch after batch, and
// allocating (and collecting) a copy of every field per batch was a third
// of the decoder's cost. Nothing in it reaches the processor, so reusing it
// is safe; the records, their fields and the batch's bytes are new for each
// batch, since a processor may keep them.
type Scratch struct {
	in     []*record.Record
	orig   []record.Field
	starts []int32
	heads  []head
}

// Decode is DecodeBatch with s's snapshot buffers: the Batch it returns
// is valid for AppendDelta until the next Decode with s.
func (s *Scratch) Decode(data []byte) (Batch, error) {
	d := decoder{buf: data}
	if len(data) == 0 || data[0] != codecVersion {
		return Batch{}, fmt.Errorf("batch encoding version %d, want %d (host and plugin built with different SDKs)", firstByte(data), codecVersion)
	}
	d.pos = 1
	var b Batch
	b.Topic = d.string()
	b.Partition = int32(d.varint())
	n := d.uvarint()
	total := d.uvarint()
	if d.err != nil {
		return Batch{}, d.err
	}
	if n > uint64(len(data)) || total > uint64(len(data)) { // every record and field takes at least one byte
		return Batch{}, errShort
	}
	// The fields of every record come from one allocation, each record's
	// share capped with a little room to grow, as record.NewBatchFields
	// does: a processor adding a few fields does not move a record's
	// fields at once, and one that adds more moves only that record's.
	const room = 4
	store := make([]record.Field, total+room*n)
	recs := make([]record.Record, n)
	b.Records = make([]*record.Record, n)
	s.in = grow(s.in, int(n))
	s.starts = grow(s.starts, int(n)+1)
	s.heads = grow(s.heads, int(n))
	s.orig = slices.Grow(s.orig[:0], int(total))
	b.in, b.starts, b.heads, b.orig = s.in, s.starts, s.heads, s.orig
	for i := range recs {
		r := &recs[i]
		r.ID = d.string()
		r.Type = d.string()
		r.CreationDate = d.varint()
		r.Origin.Topic = b.Topic
		r.Origin.Partition = int32(d.varint())
		r.Origin.Offset = d.varint()
		r.Origin.Index = int(d.varint())
		nf := d.uvarint()
		if d.err != nil {
			return Batch{}, d.err
		}
		if nf > uint64(len(store)) || nf > total {
			return Batch{}, errors.New("batch encoding has more fields than its header says")
		}
		total -= nf
		fields := store[: nf : nf+room]
		store = store[nf+room:]
		for j := range fields {
			fields[j].Name = d.string()
			fields[j].Value = d.value(0)
		}
		if d.err != nil {
			return Batch{}, d.err
		}
		r.SetFields(fields)
		b.Records[i] = r
		b.in[i] = r
		b.orig = append(b.orig, fields...)
		b.starts[i+1] = int32(len(b.orig))
		b.heads[i] = head{id: r.ID, typ: r.Type, date: r.CreationDate}
	}
	if d.pos != len(data) {
		return Batch{}, fmt.Errorf("batch encoding has %d trailing bytes", len(data)-d.pos)
	}
	return b, nil
}

// grow returns s with length n, reusing its array when it is large enough.
func grow[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]T, n)
}

func firstByte(b []byte) int {
	if len(b) == 0 {
		return -1
	}
	return int(b[0])
}

type decoder struct {
	buf []byte
	pos int
	err error
}

func (d *decoder) fail(err error) {
	if d.err == nil {
		d.err = err
	}
	d.pos = len(d.buf)
}

func (d *decoder) uvarint() uint64 {
	n, k := binary.Uvarint(d.buf[d.pos:])
	if k <= 0 {
		d.fail(errShort)
		return 0
	}
	d.pos += k
	return n
}

func (d *decoder) varint() int64 {
	n, k := binary.Varint(d.buf[d.pos:])
	if k <= 0 {
		d.fail(errShort)
		return 0
	}
	d.pos += k
	return n
}

func (d *decoder) bytes() []byte {
	n := d.uvarint()
	if n > uint64(len(d.buf)-d.pos) {
		d.fail(errShort)
		return nil
	}
	b := d.buf[d.pos : d.pos+int(n) : d.pos+int(n)]
	d.pos += int(n)
	return b
}

func (d *decoder) string() string {
	b := d.bytes()
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// maxDepth bounds nested arrays and maps, so a corrupt batch cannot exhaust
// the stack.
const maxDepth = 64

func (d *decoder) value(depth int) record.Value {
	if d.pos >= len(d.buf) {
		d.fail(errShort)
		return record.Value{}
	}
	if depth > maxDepth {
		d.fail(errors.New("batch encoding nests values too deep"))
		return record.Value{}
	}
	k := record.Kind(d.buf[d.pos])
	d.pos++
	switch k {
	case record.Null:
		return record.Value{}
	case record.String:
		return record.StringValue(d.string())
	case record.Int:
		return record.IntValue(d.varint())
	case record.Float:
		if len(d.buf)-d.pos < 8 {
			d.fail(errShort)
			return record.Value{}
		}
		f := math.Float64frombits(binary.LittleEndian.Uint64(d.buf[d.pos:]))
		d.pos += 8
		return record.FloatValue(f)
	case record.Bool:
		if d.pos >= len(d.buf) {
			d.fail(errShort)
			return record.Value{}
		}
		b := d.buf[d.pos] != 0
		d.pos++
		return record.BoolValue(b)
	case record.Bytes:
		return record.BytesValue(d.bytes())
	case record.Array:
		n := d.uvarint()
		if n > uint64(len(d.buf)-d.pos) {
			d.fail(errShort)
			return record.Value{}
		}
		a := make([]record.Value, n)
		for i := range a {
			a[i] = d.value(depth + 1)
		}
		return record.ArrayValue(a)
	case record.Map:
		n := d.uvarint()
		if n > uint64(len(d.buf)-d.pos) {
			d.fail(errShort)
			return record.Value{}
		}
		m := make(map[string]record.Value, n)
		for i := uint64(0); i < n; i++ {
			key := d.string()
			m[key] = d.value(depth + 1)
		}
		return record.MapValue(m)
	}
	d.fail(fmt.Errorf("batch encoding has unknown value kind %d", k))
	return record.Value{}
}
