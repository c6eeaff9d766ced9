package record_test

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/weir-streams/weir/internal/record"
)

// referenceJSONString is AppendJSONString as it was before it skipped safe
// bytes eight at a time: one byte, one branch. The fast version must write
// exactly the same bytes.
func referenceJSONString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				dst = append(dst, '\\', c)
			case c == '\n':
				dst = append(dst, '\\', 'n')
			case c == '\r':
				dst = append(dst, '\\', 'r')
			case c == '\t':
				dst = append(dst, '\\', 't')
			case c == '\b':
				dst = append(dst, '\\', 'b')
			case c == '\f':
				dst = append(dst, '\\', 'f')
			case c < 0x20:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			default:
				dst = append(dst, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[r&0xf])
		default:
			dst = append(dst, s[i:i+size]...)
		}
		i += size
	}
	return append(dst, '"')
}

func checkJSONString(t *testing.T, s string) {
	t.Helper()
	got := record.AppendJSONString([]byte("x"), s)
	want := referenceJSONString([]byte("x"), s)
	if !bytes.Equal(got, want) {
		t.Fatalf("AppendJSONString(%q) = %s, want %s", s, got, want)
	}
}

// TestAppendJSONStringMatchesReference compares the encoder with the
// byte-at-a-time reference on every line of the real access log, cut at
// every start offset up to 24 bytes (so that escapes fall at every position
// of an eight-byte step), and on escapes, invalid UTF-8 and line separators
// at every position of a string.
func TestAppendJSONStringMatchesReference(t *testing.T) {
	data, err := os.ReadFile("../../testdata/access-logs/apache_combined_10k.log")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		for k := 0; k <= len(line) && k <= 24; k++ {
			checkJSONString(t, line[k:])
		}
	}
	specials := []string{`"`, `\`, "\n", "\r", "\t", "\x00", "\x1f", "\x7f", "\xff", "\xe2\x80", "\u2028", "\u2029", "é", "日"}
	// 48 bytes: specials fall at every position of six eight-byte steps.
	base := strings.Repeat("abcdefgh", 6)
	for _, sp := range specials {
		for i := 0; i <= len(base); i++ {
			checkJSONString(t, base[:i]+sp+base[i:])
			checkJSONString(t, base[:i]+sp)
		}
	}
}

// FuzzAppendJSONStringReference compares the encoder with the reference on
// random strings.
func FuzzAppendJSONStringReference(f *testing.F) {
	f.Add("plain ascii text that runs past eight bytes")
	f.Add("a\"b\\c\x01\n\t\r\xff\u2028é\u2029zz")
	f.Fuzz(func(t *testing.T, s string) { checkJSONString(t, s) })
}

// encodingJSONString is what encoding/json writes for s with HTML escaping
// off (Weir does not escape <, > and &), without the encoder's newline.
func encodingJSONString(t *testing.T, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

func checkEncodingJSON(t *testing.T, s string) {
	t.Helper()
	got := record.AppendJSONString(nil, s)
	if want := encodingJSONString(t, s); !bytes.Equal(got, want) {
		t.Fatalf("AppendJSONString(%q) = %s, encoding/json writes %s", s, got, want)
	}
}

// TestAppendJSONStringMatchesEncodingJSON checks byte identity with
// encoding/json on every byte value and every short UTF-8 sequence edge
// at every position of a string longer than one eight-byte step, and on
// every line of the real access log.
func TestAppendJSONStringMatchesEncodingJSON(t *testing.T) {
	// 48 bytes: specials fall at every position of six eight-byte steps.
	base := strings.Repeat("abcdefgh", 6)
	var specials []string
	for c := 0; c < 256; c++ {
		specials = append(specials, string([]byte{byte(c)}))
	}
	specials = append(specials, "\xe2\x80", "\xe2\x80\xa8", "\xe2\x80\xa9", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xc0\xaf", "é", "日", "🎉")
	for _, sp := range specials {
		for i := 0; i <= len(base); i++ {
			checkEncodingJSON(t, base[:i]+sp+base[i:])
			checkEncodingJSON(t, base[:i]+sp)
			checkEncodingJSON(t, sp+base[:i])
		}
	}
	data, err := os.ReadFile("../../testdata/access-logs/apache_combined_10k.log")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		checkEncodingJSON(t, line)
	}
}

// FuzzAppendJSONStringEncodingJSON compares the encoder byte for byte with
// encoding/json on random strings, invalid UTF-8 included.
func FuzzAppendJSONStringEncodingJSON(f *testing.F) {
	f.Add("plain ascii text that runs past eight bytes")
	f.Add("a\"b\\c\x01\n\t\r\b\f\xff\u2028é\u2029zz<&>\x7f")
	f.Add("0123456\xe2\x80\xa8")
	f.Fuzz(func(t *testing.T, s string) { checkEncodingJSON(t, s) })
}
