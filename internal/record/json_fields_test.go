package record_test

import (
	"bytes"
	"math/rand"
	"os"
	"strings"
	"testing"

	"github.com/weir-streams/weir/internal/record"
)

// referenceFieldsJSON is AppendFieldsJSON without its escape map: every
// string written by AppendJSONString.
func referenceFieldsJSON(fields []record.Field) []byte {
	dst := []byte{'{'}
	for i, f := range fields {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = record.AppendJSONString(dst, f.Name)
		dst = append(dst, ':')
		dst = record.AppendJSON(dst, f.Value)
	}
	return append(dst, '}')
}

// cutFields returns a line and parts of it (the same memory, as a parser
// cuts them) as fields, with a number and a copy of a part in between.
func cutFields(line string, cuts [][2]int) []record.Field {
	fields := []record.Field{{Name: record.FieldValue, Value: record.StringValue(line)}}
	for i, c := range cuts {
		lo, hi := min(c[0], len(line)), min(c[1], len(line))
		if lo > hi {
			lo, hi = hi, lo
		}
		part := line[lo:hi]
		fields = append(fields, record.Field{Name: "f" + strings.Repeat("x", i), Value: record.StringValue(part)})
		if i == 1 {
			fields = append(fields, record.Field{Name: "n", Value: record.IntValue(int64(lo))},
				record.Field{Name: "copy", Value: record.StringValue(strings.Clone(part))})
		}
	}
	return fields
}

func checkFieldsJSON(t *testing.T, fields []record.Field) {
	t.Helper()
	got := record.AppendFieldsJSON(nil, fields)
	if want := referenceFieldsJSON(fields); !bytes.Equal(got, want) {
		t.Fatalf("AppendFieldsJSON = %s, want %s", got, want)
	}
}

// TestAppendFieldsJSONParts checks that parts of a long string written
// before them (the escape map) come out as AppendJSONString writes them:
// every line of the real access log with random parts, and long strings
// with a byte to escape, a multi-byte rune or invalid UTF-8 at every
// position, cut at every place around it.
func TestAppendFieldsJSONParts(t *testing.T) {
	data, err := os.ReadFile("../../testdata/access-logs/apache_combined_10k.log")
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(1))
	for _, line := range strings.Split(string(data), "\n") {
		var cuts [][2]int
		for k := 0; k < 6; k++ {
			cuts = append(cuts, [2]int{rng.Intn(len(line) + 1), rng.Intn(len(line) + 1)})
		}
		checkFieldsJSON(t, cutFields(line, cuts))
	}
	base := strings.Repeat("abcdefgh", 10)
	specials := []string{`"`, `\`, "\n", "\x01", "\x7f", "é", "\xff", "\xe2\x80\xa8", "\xe2\x80", strings.Repeat(`"`, 17)}
	for _, sp := range specials {
		for i := 0; i <= len(base); i += 3 {
			line := base[:i] + sp + base[i:]
			for lo := max(0, i-20); lo <= i+len(sp); lo++ {
				checkFieldsJSON(t, cutFields(line, [][2]int{{lo, lo + 17}, {lo, i + len(sp) + 20}, {lo, len(line)}}))
			}
		}
	}
}

// FuzzAppendFieldsJSONParts compares AppendFieldsJSON with the reference on
// random strings and random parts of them.
func FuzzAppendFieldsJSONParts(f *testing.F) {
	f.Add(strings.Repeat("plain ascii text ", 5), uint16(3), uint16(40), uint16(20), uint16(70))
	f.Add(strings.Repeat(`a"b\c`, 20)+"\xff\u2028é", uint16(0), uint16(30), uint16(17), uint16(99))
	f.Fuzz(func(t *testing.T, line string, a, b, c, d uint16) {
		checkFieldsJSON(t, cutFields(line, [][2]int{{int(a), int(b)}, {int(c), int(d)}, {int(a), int(d)}}))
	})
}

// TestAppendFieldsJSONNames checks field names as AppendJSONString writes
// them: names of every length from 0 to 24 bytes (the ones of 8 to 16 are
// tested inline, the others by shortSafe or the scan), safe, and with a
// byte to escape, a byte of a multi-byte rune or an invalid byte at every
// position.
func TestAppendFieldsJSONNames(t *testing.T) {
	for n := 0; n <= 24; n++ {
		base := []byte("abcdefghijklmnopqrstuvwxyz"[:n])
		checkFieldsJSON(t, []record.Field{{Name: string(base), Value: record.StringValue("v")}})
		for pos := 0; pos < n; pos++ {
			for _, c := range []byte{'"', '\\', '\n', 0x00, 0x1f, 0x7f, 0x80, 0xc3, 0xff} {
				name := bytes.Clone(base)
				name[pos] = c
				checkFieldsJSON(t, []record.Field{
					{Name: record.FieldID, Value: record.StringValue("x")},
					{Name: string(name), Value: record.IntValue(int64(pos))},
				})
			}
		}
	}
}

// TestAppendFieldsJSONShortValues checks the short paths of
// AppendFieldsJSONKnown (names of 8 to 16 bytes, string values of 1 to 16
// bytes written by word stores into spare room) against AppendJSONString:
// values of every length from 0 to 24 bytes, safe and with a byte to
// escape, a byte of a multi-byte rune or an invalid byte at every position,
// each appended to a buffer with every amount of spare room from 0 to 48
// bytes, so that the room test is met and missed at every place. What was
// in the buffer before is kept.
func TestAppendFieldsJSONShortValues(t *testing.T) {
	check := func(fields []record.Field) {
		t.Helper()
		want := append([]byte("prefix"), referenceFieldsJSON(fields)...)
		for room := 0; room <= 48; room++ {
			dst := make([]byte, 6, 6+room)
			copy(dst, "prefix")
			if got := record.AppendFieldsJSON(dst, fields); !bytes.Equal(got, want) {
				t.Fatalf("room %d: AppendFieldsJSON = %q, want %q", room, got, want)
			}
		}
	}
	for n := 0; n <= 24; n++ {
		base := []byte("0123456789abcdefghijklmnopqrstuvwxyz"[:n])
		check([]record.Field{{Name: "http_status", Value: record.StringValue(string(base))},
			{Name: "v", Value: record.StringValue(string(base))}})
		for pos := 0; pos < n; pos++ {
			for _, c := range []byte{'"', '\\', '\n', 0x00, 0x1f, 0x7f, 0x80, 0xc3, 0xff} {
				v := bytes.Clone(base)
				v[pos] = c
				check([]record.Field{
					{Name: "record_type", Value: record.StringValue(string(v))},
					{Name: string(v), Value: record.StringValue(string(base))},
					{Name: "n", Value: record.IntValue(int64(pos) - 7)},
				})
			}
		}
	}
}
