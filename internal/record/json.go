package record

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"math/bits"
	"sort"
	"strconv"
	"unicode/utf8"
	"unsafe"
)

// AppendJSON appends the JSON form of a value: strings as JSON strings,
// integers and floats as JSON numbers (non-finite floats as null, which JSON
// cannot otherwise carry), bytes as {"$base64":"<standard base64>"} (see
// BytesMarker), arrays as arrays and maps as objects with sorted keys.
func AppendJSON(dst []byte, v Value) []byte {
	switch v.kind {
	case String:
		return AppendJSONString(dst, v.string())
	case Int:
		return AppendInt(dst, int64(v.num))
	case Float:
		f := math.Float64frombits(v.num)
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return append(dst, "null"...)
		}
		return strconv.AppendFloat(dst, f, 'g', -1, 64)
	case Bool:
		return strconv.AppendBool(dst, v.num == 1)
	case Bytes:
		b, _ := v.AsBytes()
		dst = append(dst, `{"`+BytesMarker+`":"`...)
		dst = base64.StdEncoding.AppendEncode(dst, b)
		return append(dst, '"', '}')
	case Array:
		a, _ := v.AsArray()
		dst = append(dst, '[')
		for i, e := range a {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = AppendJSON(dst, e)
		}
		return append(dst, ']')
	case Map:
		m, _ := v.AsMap()
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		dst = append(dst, '{')
		for i, k := range keys {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = AppendJSONString(dst, k)
			dst = append(dst, ':')
			dst = AppendJSON(dst, m[k])
		}
		return append(dst, '}')
	}
	return append(dst, "null"...)
}

// AppendFieldsJSON appends fields as one JSON object, in field order.
//
// The first string of at least escapeMapMin bytes (record_value, when a
// parser keeps the raw line) is written with an escapeMap: a later string
// that lies inside it, as the fields a parser cut out of the line do, is
// copied without being scanned again when none of the bytes that needed
// escaping fall inside it. The output is the same as writing every string
// with AppendJSONString.
func AppendFieldsJSON(dst []byte, fields []Field) []byte {
	return AppendFieldsJSONKnown(dst, fields, "")
}

// JSONSafe reports whether s needs no escaping in a JSON string: then
// AppendJSONString writes it between two quotes as it is.
func JSONSafe(s string) bool { return nextUnsafe(s, 0) == len(s) }

// AppendFieldsJSONKnown is AppendFieldsJSON for a caller that has already
// found one string safe (JSONSafe), such as the record id it wrote before
// the fields: a field whose value is that same string, the same bytes in
// memory (record_id is r.ID), is copied without a second scan. known ""
// means none.
func AppendFieldsJSONKnown(dst []byte, fields []Field, known string) []byte {
	var m escapeMap
	mapped := false
	dst = append(dst, '{')
	for i := range fields {
		if i > 0 {
			dst = append(dst, ',')
		}
		name := fields[i].Name
		if n, k := len(name), len(dst); n >= 8 && n <= 16 && cap(dst)-k >= 19 {
			// Most names: 8 to 16 bytes, tested as shortSafe does and, when
			// safe, written as "name": by two overlapping word stores
			// into room already there, without a call.
			lo, hi := load64(name, 0), load64(name, n-8)
			if unsafeBytes(lo)|unsafeBytes(hi) != 0 {
				dst = AppendJSONString(dst, name)
				dst = append(dst, ':')
			} else {
				b := dst[k : k+19]
				b[0] = '"'
				binary.LittleEndian.PutUint64(b[1:9], lo)
				binary.LittleEndian.PutUint64(b[n-7:n+1], hi)
				b[n+1] = '"'
				b[n+2] = ':'
				dst = dst[:k+n+3]
			}
		} else if n >= 4 && n < 8 && cap(dst)-k >= 10 && unsafeBytes(uint64(load32(name, 0))|uint64(load32(name, n-4))<<32) == 0 {
			// Names of 4 to 7 bytes (user, src_ip): two 4-byte stores.
			b := dst[k : k+10]
			b[0] = '"'
			binary.LittleEndian.PutUint32(b[1:5], load32(name, 0))
			binary.LittleEndian.PutUint32(b[n-3:n+1], load32(name, n-4))
			b[n+1] = '"'
			b[n+2] = ':'
			dst = dst[:k+n+3]
		} else if shortSafe(name) {
			dst = append(dst, '"')
			dst = append(dst, name...)
			dst = append(dst, '"', ':')
		} else {
			dst = AppendJSONString(dst, name)
			dst = append(dst, ':')
		}
		// The word stores above and below write only bytes of the
		// result, inside room the buffer already has (tested first);
		// without the room they leave the field to the appends.
		v := fields[i].Value
		if v.kind != String {
			if v.kind == Int {
				dst = AppendInt(dst, int64(v.num))
			} else {
				dst = AppendJSON(dst, v)
			}
			continue
		}
		s := v.string()
		switch n, k := len(s), len(dst); {
		case n >= 4 && n < 8 && cap(dst)-k >= 10 && unsafeBytes(uint64(load32(s, 0))|uint64(load32(s, n-4))<<32) == 0:
			// Short values (a status, a size): two 4-byte stores.
			b := dst[k : k+10]
			b[0] = '"'
			binary.LittleEndian.PutUint32(b[1:5], load32(s, 0))
			binary.LittleEndian.PutUint32(b[n-3:n+1], load32(s, n-4))
			b[n+1] = '"'
			dst = dst[:k+n+2]
		case n > 0 && n < 4 && cap(dst)-k >= 5 && jsonSafe[s[0]]&jsonSafe[s[n>>1]]&jsonSafe[s[n-1]] != 0:
			// "-", "GET": the first, middle and last byte are all.
			b := dst[k : k+5]
			b[0] = '"'
			b[1], b[1+(n>>1)], b[n] = s[0], s[n>>1], s[n-1]
			b[n+1] = '"'
			dst = dst[:k+n+2]
		case n >= 8 && n <= 16 && cap(dst)-k >= 18 && unsafeBytes(load64(s, 0))|unsafeBytes(load64(s, n-8)) == 0:
			// An address, a version: as the names above.
			b := dst[k : k+18]
			b[0] = '"'
			binary.LittleEndian.PutUint64(b[1:9], load64(s, 0))
			binary.LittleEndian.PutUint64(b[n-7:n+1], load64(s, n-8))
			b[n+1] = '"'
			dst = dst[:k+n+2]
		case n > 16 && (m.inside(s) || sameString(s, known)):
			dst = append(dst, '"')
			dst = append(dst, s...)
			dst = append(dst, '"')
		case !mapped && n >= escapeMapMin && n <= math.MaxInt32:
			mapped = true
			dst = appendJSONString(dst, s, &m)
		default:
			dst = AppendJSONString(dst, s)
		}
	}
	return append(dst, '}')
}

// escapeMapMin is the length from which a string is worth an escapeMap.
const escapeMapMin = 64

// escapeMap holds where the bytes that need escaping (jsonSafe 0) are in
// one string written by appendJSONString: base is the address of its first
// byte (0 when there is no map), n its length, pos[:npos] the positions.
// A string with a byte >= 0x80 gets no map (a part of it could cut a rune
// in two, which then needs escaping), nor one with more than len(pos)
// such bytes.
type escapeMap struct {
	base uintptr
	n    int
	pos  [16]int32
	npos int
}

// inside reports whether s lies within the mapped string, byte for byte the
// same memory, and holds none of its bytes to escape: then s needs no
// escaping. Strings are immutable, so the bytes are those that were
// scanned. Addresses are only compared as numbers, never turned back into
// pointers; a string that moved with a goroutine stack since it was mapped
// (a string can live on the stack) just misses the map and is scanned.
func (m *escapeMap) inside(s string) bool {
	if m.base == 0 {
		return false
	}
	off := uintptr(unsafe.Pointer(unsafe.StringData(s))) - m.base
	if off >= uintptr(m.n) || uintptr(m.n)-off < uintptr(len(s)) {
		return false
	}
	lo, hi := int32(off), int32(off)+int32(len(s))
	for _, p := range m.pos[:m.npos] {
		if p >= lo && p < hi {
			return false
		}
	}
	return true
}

// sameString reports whether a and b are the same bytes in memory. Both are
// live strings, so equal addresses and lengths mean equal contents.
func sameString(a, b string) bool {
	return len(a) == len(b) && unsafe.StringData(a) == unsafe.StringData(b)
}

const hexDigits = "0123456789abcdef"

// jsonSafe is 1 for the bytes that need no escaping in a JSON string
// (printable ASCII other than the quote and the backslash) and 0 for the rest: control
// characters, the two that need a backslash, and every byte of a multi-byte
// UTF-8 sequence, which is checked rune by rune.
var jsonSafe = func() (t [256]uint8) {
	for i := 0x20; i < utf8.RuneSelf; i++ {
		if i != '"' && i != '\\' {
			t[i] = 1
		}
	}
	return t
}()

// Word-at-a-time constants: every byte 0x01, and every byte 0x80.
const (
	lsb8 = 0x0101010101010101
	msb8 = 0x8080808080808080
)

// unsafeBytes returns, for eight bytes of a string loaded little-endian into
// w, a word whose lowest set bit is bit 7 of the first byte (in string
// order) that jsonSafe calls unsafe, and 0 when all eight are safe.
//
// Why the lowest set bit is exact: a byte b sets bit 7 of w-0x20.. only when
// b < 0x20 or a borrow comes in from the byte below, and a borrow leaves a
// byte only when that byte is itself below 0x20; likewise for the bytes
// equal to '"' or '\\' (zero after the exclusive or, so 0xff after taking 1)
// and for bytes with bit 7 set. Every byte below the first unsafe one is
// therefore clear; bits above it may be set by borrows and are ignored.
func unsafeBytes(w uint64) uint64 {
	return (w | (w - lsb8*0x20) | ((w ^ lsb8*'"') - lsb8) | ((w ^ lsb8*'\\') - lsb8)) & msb8
}

// load64 reads s[i:i+8] as a little-endian word (one load on amd64 and
// arm64: the compiler combines the byte loads).
func load64(s string, i int) uint64 {
	b := s[i : i+8]
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}

// load32 reads s[i:i+4] as a little-endian word.
func load32(s string, i int) uint32 {
	b := s[i : i+4]
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}

// shortSafe reports whether s, of 1 to 16 bytes, holds only safe bytes:
// two overlapping loads and one or two word tests (three table entries
// below four bytes), where nextUnsafe would loop. Empty and longer strings
// answer false (not known safe).
func shortSafe(s string) bool {
	switch n := len(s); {
	case n >= 8 && n <= 16:
		return unsafeBytes(load64(s, 0))|unsafeBytes(load64(s, n-8)) == 0
	case n >= 4 && n < 8:
		return unsafeBytes(uint64(load32(s, 0))|uint64(load32(s, n-4))<<32) == 0
	case n > 0 && n < 4:
		return jsonSafe[s[0]]&jsonSafe[s[n>>1]]&jsonSafe[s[n-1]] != 0
	}
	return false
}

// nextUnsafe returns the index of the first byte of s at or after i that
// jsonSafe calls unsafe, or len(s). It tests eight bytes at once
// (unsafeBytes); the last bytes of a string of eight or more are tested by
// one load of its last eight bytes, shifted so that only the untested ones
// remain.
func nextUnsafe(s string, i int) int {
	for i+8 <= len(s) {
		if m := unsafeBytes(load64(s, i)); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
		i += 8
	}
	if i >= len(s) {
		return len(s)
	}
	if len(s) >= 8 {
		// The bytes shifted in at the top are zeros, which unsafeBytes
		// flags: a first unsafe byte at or past them means none.
		k := i - (len(s) - 8)
		m := unsafeBytes(load64(s, len(s)-8) >> (8 * k))
		return i + min(bits.TrailingZeros64(m)>>3, 8-k)
	}
	for i < len(s) && jsonSafe[s[i]] != 0 {
		i++
	}
	return i
}

// AppendJSONString appends s as a JSON string, byte for byte as
// encoding/json writes it with SetEscapeHTML(false): invalid UTF-8 becomes
// U+FFFD (one per invalid byte), so the output is always valid JSON; \b and
// \f get their short escapes, other control characters \u00XX, and U+2028
// and U+2029 are escaped. Unlike encoding/json's default it does not escape
// <, > and &: the output is not meant for HTML, and the escapes cost space
// in every log line that has a URL.
//
// Safe bytes are found eight at a time (nextUnsafe) and copied as one run:
// strings are mostly long runs of printable ASCII.
func AppendJSONString(dst []byte, s string) []byte {
	return appendJSONString(dst, s, nil)
}

// appendJSONString is AppendJSONString; when m is not nil it also fills m
// for s (see escapeMap), or leaves it empty.
func appendJSONString(dst []byte, s string, m *escapeMap) []byte {
	if m != nil {
		*m = escapeMap{}
	}
	if shortSafe(s) {
		// Most field names and many values: no loop at all.
		dst = append(dst, '"')
		dst = append(dst, s...)
		return append(dst, '"')
	}
	dst = append(dst, '"')
	start, i := 0, 0
	for {
		i = nextUnsafe(s, i)
		if i >= len(s) {
			break
		}
		c := s[i]
		if m != nil {
			m.note(i, c)
		}
		if c < utf8.RuneSelf {
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		// U+2028 and U+2029 are valid JSON but break JavaScript readers.
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	if m != nil && m.npos >= 0 {
		m.base, m.n = uintptr(unsafe.Pointer(unsafe.StringData(s))), len(s)
	}
	return append(dst, '"')
}

// note records the byte c at i, one that needs escaping, for the map being
// built; a byte >= 0x80 or one too many spoils it (npos -1).
func (m *escapeMap) note(i int, c byte) {
	switch {
	case m.npos < 0:
	case c >= utf8.RuneSelf || m.npos == len(m.pos):
		m.npos = -1
	default:
		m.pos[m.npos] = int32(i)
		m.npos++
	}
}

// BytesMarker is the one key of the JSON object that carries a bytes value:
// {"$base64":"AAEC/w=="} is the bytes 00 01 02 ff. JSON has no bytes type,
// and raw input that is not valid UTF-8 must come back byte for byte, so
// bytes are written in this form and ValueFromJSON reads it back as bytes.
// A JSON object of exactly this shape in foreign input is read as bytes too.
const BytesMarker = "$base64"

// ValueFromJSON converts a value decoded by encoding/json with UseNumber into
// a Value: integral numbers become Int, other numbers Float, and an object
// {"$base64":"..."} holding valid base64 becomes Bytes.
func ValueFromJSON(x any) (Value, error) {
	switch t := x.(type) {
	case nil:
		return Value{}, nil
	case string:
		return StringValue(t), nil
	case bool:
		return BoolValue(t), nil
	case json.Number:
		if n, err := strconv.ParseInt(string(t), 10, 64); err == nil {
			return IntValue(n), nil
		}
		f, err := strconv.ParseFloat(string(t), 64)
		if err != nil {
			return Value{}, fmt.Errorf("number %q: %w", t, err)
		}
		return FloatValue(f), nil
	case float64:
		return FloatValue(t), nil
	case []any:
		a := make([]Value, len(t))
		for i, e := range t {
			v, err := ValueFromJSON(e)
			if err != nil {
				return Value{}, err
			}
			a[i] = v
		}
		return ArrayValue(a), nil
	case map[string]any:
		if enc, ok := t[BytesMarker].(string); ok && len(t) == 1 {
			if b, err := base64.StdEncoding.Strict().DecodeString(enc); err == nil {
				return BytesValue(b), nil
			}
		}
		m := make(map[string]Value, len(t))
		for k, e := range t {
			v, err := ValueFromJSON(e)
			if err != nil {
				return Value{}, err
			}
			m[k] = v
		}
		return MapValue(m), nil
	}
	return Value{}, fmt.Errorf("unsupported JSON value of type %T", x)
}

// DecodeFieldsJSON decodes a JSON object into fields, keeping the order of
// the keys as they appear in the input.
func DecodeFieldsJSON(data []byte) ([]Field, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, fmt.Errorf("read fields: %w", err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, fmt.Errorf("fields must be a JSON object, got %v", tok)
	}
	var fields []Field
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("read field name: %w", err)
		}
		name, _ := tok.(string)
		var x any
		if err := dec.Decode(&x); err != nil {
			return nil, fmt.Errorf("read field %q: %w", name, err)
		}
		v, err := ValueFromJSON(x)
		if err != nil {
			return nil, fmt.Errorf("field %q: %w", name, err)
		}
		fields = append(fields, Field{Name: name, Value: v})
	}
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("read end of fields: %w", err)
	}
	return fields, nil
}

// SetFields replaces all fields of the record, for decoders. The error list
// is rebuilt from record_errors.
func (r *Record) SetFields(fields []Field) {
	r.fields = fields
	r.names = 0
	for i := range fields {
		r.names |= nameBit(fields[i].Name)
	}
	r.errors = nil
	r.restoreErrors()
}
