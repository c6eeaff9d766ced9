package uaparse

import (
	"strings"
	"testing"
)

// TestASCIILowerInto checks the eight-bytes-at-a-time lower casing against
// the byte loop of asciiLower: every byte value at every position of the
// word, the tail after the last full word, every length up to three words,
// and strings that do not fit the buffer.
func TestASCIILowerInto(t *testing.T) {
	buf := make([]byte, 64)
	for c := 0; c < 256; c++ {
		for pos := 0; pos < 11; pos++ {
			b := []byte("Xxxxxxxxxxx")
			b[pos] = byte(c)
			s := string(b)
			if got, want := asciiLowerInto(s, buf), asciiLower(s); got != want {
				t.Fatalf("asciiLowerInto(%q) = %q, want %q", s, got, want)
			}
		}
	}
	// Every length around the word's: the last word overlaps the bytes
	// before it by a different amount at each.
	for n := 0; n <= 24; n++ {
		s := strings.Repeat("AZaz@[`{", 3)[:n]
		if got, want := asciiLowerInto(s, buf), asciiLower(s); got != want {
			t.Errorf("asciiLowerInto(%q) = %q, want %q", s, got, want)
		}
	}
	for _, s := range []string{"", "abc", "ABC", "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36", strings.Repeat("AZaz@[`{", 9)} {
		if got, want := asciiLowerInto(s, buf), asciiLower(s); got != want {
			t.Errorf("asciiLowerInto(%q) = %q, want %q", s, got, want)
		}
	}
}

// TestTrimSpace compares trimSpace with strings.TrimSpace on strings whose
// edges are ASCII, white space of either kind, or not valid UTF-8.
func TestTrimSpace(t *testing.T) {
	for _, s := range []string{"", " ", "a", " a ", "a b", "\va", "a\f", "\ta\n", "a\u00a0", "\u00a0a",
		"\u2003x\u2003", "a\u0085", "\u0085a", "\xff", "a\xff", "\xc2", "é", "x\u3000"} {
		if got, want := trimSpace(s), strings.TrimSpace(s); got != want {
			t.Errorf("trimSpace(%q) = %q, want %q", s, got, want)
		}
	}
}

// TestLowerEqualFold compares lowerEqualFold with strings.EqualFold for a
// lower case word and names of the same length: ASCII in any case, every
// length up to two words, and the characters outside ASCII that fold into
// it (the Kelvin sign and the long s).
func TestLowerEqualFold(t *testing.T) {
	names := []string{"Chrome", "AppleWebKit", "MSIE", "Go", "x", "Version", "Firefox", "SamsungBrowser",
		"@[`{AZaz", "Kk", "\u212Ak", "k\u212A", "\u017Fs", "s\u017F", "\xff\xfe", "é", "É"}
	for n := 1; n <= 17; n++ {
		names = append(names, strings.Repeat("Ab", n)[:n], strings.Repeat("zZ", n)[:n], strings.Repeat("[@", n)[:n])
	}
	for _, name := range names {
		lws := []string{asciiLower(name), strings.ToLower(name), "\u212Ak", "k\u212A", "kk"}
		for i := range len(name) {
			b := []byte(asciiLower(name))
			b[i] ^= 0x20
			lws = append(lws, asciiLower(string(b)))
			b[i] = 0xc3
			lws = append(lws, string(b))
		}
		for _, lw := range lws {
			if len(lw) != len(name) {
				continue
			}
			if got, want := lowerEqualFold(lw, name), strings.EqualFold(lw, name); got != want {
				t.Errorf("lowerEqualFold(%q, %q) = %v, want %v", lw, name, got, want)
			}
		}
	}
}
