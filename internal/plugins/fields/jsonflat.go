package fields

import (
	"encoding/binary"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/weir-streams/weir/internal/record"
)

// decodeFlatObject decodes s when it is a JSON object whose values are all
// strings, numbers, booleans or null, and whose keys and strings have no
// escape, no control byte and only valid UTF-8: the common payload of a
// log line. It appends the members to dst in their order, as
// record.DecodeFieldsJSON does, and returns ok false for anything else
// (nested values, escapes, bad syntax, text after the object), for which
// the caller asks DecodeFieldsJSON: so the fields are always the ones that
// encoding/json gives, and a document that is not valid gets
// encoding/json's own error.
//
// encoding/json decodes the same object in several microseconds and a
// dozen allocations (its tokenizer, an interface per value, a string per
// key and value); here the keys and string values are slices of s (which
// is immutable), numbers are read in place, and nothing is allocated when
// dst has room.
func decodeFlatObject(s string, dst []record.Field) ([]record.Field, bool) {
	i := skipJSONSpace(s, 0)
	if i >= len(s) || s[i] != '{' {
		return dst, false
	}
	i = skipJSONSpace(s, i+1)
	if i < len(s) && s[i] == '}' {
		return dst, skipJSONSpace(s, i+1) == len(s)
	}
	for {
		key, j, ok := plainJSONString(s, i)
		if !ok {
			return dst, false
		}
		i = skipJSONSpace(s, j)
		if i >= len(s) || s[i] != ':' {
			return dst, false
		}
		i = skipJSONSpace(s, i+1)
		if i >= len(s) {
			return dst, false
		}
		var v record.Value
		switch c := s[i]; {
		case c == '"':
			str, j, ok := plainJSONString(s, i)
			if !ok {
				return dst, false
			}
			v, i = record.StringValue(str), j
		case c >= '0' && c <= '9' && c != '0':
			// A plain positive integer (a status, a size) is read as it
			// is scanned; anything else takes the general path.
			n, j := int64(0), i
			for ; j < len(s) && j-i < 18 && s[j] >= '0' && s[j] <= '9'; j++ {
				n = n*10 + int64(s[j]-'0')
			}
			if j < len(s) && (s[j] == ',' || s[j] == '}' || s[j] == ' ') {
				v, i = record.IntValue(n), j
				break
			}
			fallthrough
		case c == '-' || c >= '0' && c <= '9':
			n := jsonNumberEnd(s, i)
			if n < 0 {
				return dst, false
			}
			if v, ok = jsonNumberValue(s[i:n]); !ok {
				return dst, false
			}
			i = n
		case hasPrefixAt(s, i, "true"):
			v, i = record.BoolValue(true), i+4
		case hasPrefixAt(s, i, "false"):
			v, i = record.BoolValue(false), i+5
		case hasPrefixAt(s, i, "null"):
			v, i = record.Value{}, i+4
		default:
			return dst, false
		}
		dst = append(dst, record.Field{Name: key, Value: v})
		i = skipJSONSpace(s, i)
		if i >= len(s) {
			return dst, false
		}
		switch s[i] {
		case ',':
			i = skipJSONSpace(s, i+1)
		case '}':
			return dst, skipJSONSpace(s, i+1) == len(s)
		default:
			return dst, false
		}
	}
}

// skipJSONSpace returns the position of the first byte at or after i that
// is not JSON whitespace.
func skipJSONSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

// plainJSONString reads the string that starts at s[i] ('"') if it holds
// no escape and no control byte and is valid UTF-8; it returns its text
// and the position after its closing quote. Keys and short values are
// read a byte at a time (a call to strings.IndexByte costs more than the
// loop on a few bytes); past 16 bytes the closing quote and a backslash
// are found with strings.IndexByte, and control and non-ASCII bytes eight
// at a time.
func plainJSONString(s string, i int) (string, int, bool) {
	if i >= len(s) || s[i] != '"' {
		return "", 0, false
	}
	j, stop := i+1, min(len(s), i+17)
	for j < stop && plainJSONByte[s[j]] {
		j++
	}
	if j < stop {
		if s[j] != '"' {
			// A backslash or a control byte, or a non-ASCII byte:
			// the long way decides.
			return longJSONString(s, i)
		}
		return s[i+1 : j], j + 1, true
	}
	return longJSONString(s, i)
}

// plainJSONByte holds the bytes that may stand in a plain string as they
// are: printable ASCII but the quote and the backslash.
var plainJSONByte = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// longJSONString is plainJSONString for any length.
func longJSONString(s string, i int) (string, int, bool) {
	j := strings.IndexByte(s[i+1:], '"')
	if j < 0 {
		return "", 0, false
	}
	str := s[i+1 : i+1+j]
	if strings.IndexByte(str, '\\') >= 0 {
		return "", 0, false
	}
	if k := firstNotPrintableASCII(str); k >= 0 {
		// encoding/json refuses control bytes and turns invalid UTF-8
		// into U+FFFD: leave both to it.
		for ; k < len(str); k++ {
			if str[k] < 0x20 {
				return "", 0, false
			}
		}
		if !utf8.ValidString(str) {
			return "", 0, false
		}
	}
	return str, i + 2 + j, true
}

// firstNotPrintableASCII returns the position of the first byte of s that
// is below 0x20 or above 0x7f, or -1; it tests eight bytes at a time, and
// the position it returns may be up to seven bytes early.
func firstNotPrintableASCII(s string) int {
	const lo, hi = 0x2020202020202020, 0x8080808080808080
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := binary.LittleEndian.Uint64([]byte(s[i : i+8]))
		// A byte below 0x20 borrows and sets its high bit in w-lo (a
		// borrow into the next byte only follows a byte already
		// flagged); a byte above 0x7f has it set in w.
		if ((w-lo)|w)&hi != 0 {
			return i
		}
	}
	for ; i < len(s); i++ {
		if s[i] < 0x20 || s[i] >= utf8.RuneSelf {
			return i
		}
	}
	return -1
}

// jsonNumberEnd returns the end of the JSON number (RFC 8259 grammar) that
// starts at s[i], or -1 if there is none.
func jsonNumberEnd(s string, i int) int {
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		for i++; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		}
	default:
		return -1
	}
	if i < len(s) && s[i] == '.' {
		i++
		if i >= len(s) || s[i] < '0' || s[i] > '9' {
			return -1
		}
		for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if i >= len(s) || s[i] < '0' || s[i] > '9' {
			return -1
		}
		for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		}
	}
	return i
}

// jsonNumberValue is record.ValueFromJSON of a json.Number: an integer if
// the text is one that fits in 64 bits, else a float.
func jsonNumberValue(num string) (record.Value, bool) {
	if n, ok := smallInt(num); ok {
		return record.IntValue(n), true
	}
	if n, err := strconv.ParseInt(num, 10, 64); err == nil {
		return record.IntValue(n), true
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return record.Value{}, false // out of range: encoding/json's error
	}
	return record.FloatValue(f), true
}

// smallInt reads a decimal integer of at most 18 digits (which cannot
// overflow), optionally negative.
func smallInt(s string) (int64, bool) {
	neg := len(s) > 0 && s[0] == '-'
	if neg {
		s = s[1:]
	}
	if len(s) == 0 || len(s) > 18 {
		return 0, false
	}
	var n int64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

// hasPrefixAt reports whether s holds lit at i.
func hasPrefixAt(s string, i int, lit string) bool {
	return len(s)-i >= len(lit) && s[i:i+len(lit)] == lit
}
