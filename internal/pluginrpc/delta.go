package pluginrpc

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/weir-streams/weir/internal/record"
)

// deltaVersion is the first byte of a plugin's reply. A reply carries what
// the plugin changed, not the records again: most processors add or change
// a few fields of each record, and sending every record back made the
// plugin encode, and the host decode and allocate, all of them a second
// time (half the codec's cost, and most of the host's garbage).
//
// Reply: deltaVersion | uvarint record count | per output record a
// uvarint tag:
//
//   - tag i+1: the host's input record i, changed: uvarint flags (1 id,
//     2 type, 4 creation date) and the new values of those flagged, uvarint
//     count of fields set (name, value), uvarint count of fields removed
//     (name). Unchanged fields are not sent.
//   - tag 0: a record the plugin made (or one it cannot match to an input),
//     whole, as AppendBatch encodes a record; its origin topic is the
//     batch's.
//
// The output order is the plugin's, so a processor that drops, reorders,
// duplicates or adds records is carried exactly. The host applies the
// changes to its own records, which are what the plugin started from.
const deltaVersion = 2

const (
	flagID = 1 << iota
	flagType
	flagDate
)

// AppendDelta appends the reply for out, the records the plugin's
// processor left in a batch that DecodeBatch decoded into in.
func AppendDelta(dst []byte, in Batch, out []*record.Record) []byte {
	dst = append(dst, deltaVersion)
	dst = binary.AppendUvarint(dst, uint64(len(out)))
	var index map[*record.Record]int // built only if records moved
	for j, r := range out {
		i := -1
		switch {
		case j < len(in.in) && in.in[j] == r:
			i = j
		default:
			if index == nil {
				index = make(map[*record.Record]int, len(in.in))
				for k, ir := range in.in {
					index[ir] = k
				}
			}
			if k, ok := index[r]; ok {
				i = k
			}
		}
		if i < 0 {
			dst = append(dst, 0)
			dst = appendRecord(dst, r)
			continue
		}
		dst = binary.AppendUvarint(dst, uint64(i)+1)
		dst = appendChanges(dst, in.heads[i], in.orig[in.starts[i]:in.starts[i+1]], r)
	}
	return dst
}

// appendChanges appends what differs between a record as decoded (h,
// orig) and as it is now (r). A value is unchanged when it is identical
// (same kind and bits, same string data): a processor that sets a field to
// an equal value it built anew sends it, which is correct and rare.
func appendChanges(dst []byte, h head, orig []record.Field, r *record.Record) []byte {
	var flags uint64
	if r.ID != h.id {
		flags |= flagID
	}
	if r.Type != h.typ {
		flags |= flagType
	}
	if r.CreationDate != h.date {
		flags |= flagDate
	}
	dst = binary.AppendUvarint(dst, flags)
	if flags&flagID != 0 {
		dst = appendString(dst, r.ID)
	}
	if flags&flagType != 0 {
		dst = appendString(dst, r.Type)
	}
	if flags&flagDate != 0 {
		dst = binary.AppendVarint(dst, r.CreationDate)
	}
	fields := r.Fields()
	// Set: fields that are new or whose value changed. The count comes
	// first, so it is patched in once known (a uvarint of one byte holds up
	// to 127; more takes the slow path of counting first).
	countAt := len(dst)
	dst = append(dst, 0)
	n := 0
	for k := range fields {
		f := &fields[k]
		if o, ok := find(orig, k, f.Name); ok && orig[o].Value == f.Value {
			continue
		}
		dst = appendString(dst, f.Name)
		dst = appendValue(dst, f.Value)
		n++
	}
	dst = patchCount(dst, countAt, n)
	countAt = len(dst)
	dst = append(dst, 0)
	n = 0
	for k := range orig {
		if _, ok := find(fields, k, orig[k].Name); !ok {
			dst = appendString(dst, orig[k].Name)
			n++
		}
	}
	return patchCount(dst, countAt, n)
}

// find returns the index of the field called name in fs, looking at hint
// first: a processor that adds fields keeps the others where they were.
func find(fs []record.Field, hint int, name string) (int, bool) {
	if hint < len(fs) && fs[hint].Name == name {
		return hint, true
	}
	for i := range fs {
		if fs[i].Name == name {
			return i, true
		}
	}
	return 0, false
}

// patchCount writes n as the uvarint at dst[at], where one byte was
// reserved, moving what follows when n needs more.
func patchCount(dst []byte, at, n int) []byte {
	if n < 0x80 {
		dst[at] = byte(n)
		return dst
	}
	var tmp [binary.MaxVarintLen64]byte
	k := binary.PutUvarint(tmp[:], uint64(n))
	dst = append(dst, tmp[:k-1]...) // room
	copy(dst[at+k:], dst[at+1:len(dst)-(k-1)])
	copy(dst[at:], tmp[:k])
	return dst
}

// ApplyDelta applies a plugin's reply to in, the records the host sent,
// and returns the output records. The records of in are changed in place;
// values and new records point into data, which the caller must not
// modify afterwards.
func ApplyDelta(data []byte, topic string, in []*record.Record) ([]*record.Record, error) {
	if len(data) == 0 || data[0] != deltaVersion {
		return nil, fmt.Errorf("reply encoding version %d, want %d (host and plugin built with different SDKs)", firstByte(data), deltaVersion)
	}
	d := decoder{buf: data, pos: 1}
	n := d.uvarint()
	if d.err != nil {
		return nil, d.err
	}
	if n > uint64(len(data)) { // every record takes at least one byte
		return nil, errShort
	}
	out := make([]*record.Record, n)
	var used []bool // inputs already given their changes
	for j := range out {
		tag := d.uvarint()
		if d.err != nil {
			return nil, d.err
		}
		if tag == 0 {
			r := &record.Record{}
			d.record(r, topic)
			if d.err != nil {
				return nil, d.err
			}
			out[j] = r
			continue
		}
		i := tag - 1
		if i >= uint64(len(in)) {
			return nil, fmt.Errorf("reply names input record %d of %d", i, len(in))
		}
		r := in[i]
		if used == nil {
			used = make([]bool, len(in))
		}
		if used[i] {
			// The plugin returned one record twice: its changes are
			// applied once, and the same record is output twice, as a
			// built-in processor doing so would have it.
			d.skipChanges()
		} else {
			d.applyChanges(r)
			used[i] = true
		}
		if d.err != nil {
			return nil, d.err
		}
		out[j] = r
	}
	if d.pos != len(data) {
		return nil, fmt.Errorf("reply encoding has %d trailing bytes", len(data)-d.pos)
	}
	return out, nil
}

// record decodes a whole record (appendRecord's encoding) into r.
func (d *decoder) record(r *record.Record, topic string) {
	r.ID = d.string()
	r.Type = d.string()
	r.CreationDate = d.varint()
	r.Origin.Topic = topic
	r.Origin.Partition = int32(d.varint())
	r.Origin.Offset = d.varint()
	r.Origin.Index = int(d.varint())
	nf := d.uvarint()
	if d.err != nil {
		return
	}
	if nf > uint64(len(d.buf)-d.pos) {
		d.fail(errShort)
		return
	}
	fields := make([]record.Field, nf)
	for j := range fields {
		fields[j].Name = d.string()
		fields[j].Value = d.value(0)
	}
	if d.err == nil {
		r.SetFields(fields)
	}
}

// applyChanges reads one record's changes (appendChanges) and applies
// them to r.
func (d *decoder) applyChanges(r *record.Record) {
	flags := d.uvarint()
	if flags&^(flagID|flagType|flagDate) != 0 {
		d.fail(errors.New("reply has unknown record header flags"))
		return
	}
	if flags&flagID != 0 {
		r.ID = d.string()
	}
	if flags&flagType != 0 {
		r.Type = d.string()
	}
	if flags&flagDate != 0 {
		r.CreationDate = d.varint()
	}
	errorsSet := false
	nset := d.uvarint()
	for k := uint64(0); k < nset && d.err == nil; k++ {
		name := d.string()
		v := d.value(0)
		if d.err == nil {
			r.Set(name, v)
			errorsSet = errorsSet || name == record.FieldErrors
		}
	}
	ndel := d.uvarint()
	for k := uint64(0); k < ndel && d.err == nil; k++ {
		name := d.string()
		if d.err == nil {
			r.Remove(name)
			errorsSet = errorsSet || name == record.FieldErrors
		}
	}
	if errorsSet {
		// The error list mirrors record_errors: rebuild it.
		r.SetFields(r.Fields())
	}
}

// skipChanges reads one record's changes without applying them.
func (d *decoder) skipChanges() {
	var scratch record.Record
	d.applyChanges(&scratch)
}
