package uaparse

import (
	"strings"
	"testing"
)

// normalizeNameReference is normalizeName as it was written first, with a
// builder and a copy per word: TestNormalizeNameMatchesReference holds the
// faster version to its answers.
func normalizeNameReference(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return s
	}
	if len(s) <= 3 {
		return strings.ToUpper(s)
	}
	var sb strings.Builder
	sb.Grow(len(s))
	word := make([]byte, 0, 32)
	lower := 0
	digits := false
	flush := func() {
		if len(word) == 0 {
			return
		}
		if len(word) <= 3 || digits {
			sb.WriteString(strings.ToUpper(string(word)))
		} else {
			sb.Write(word)
		}
		word = word[:0]
		lower = 0
		digits = false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' {
			c = ' '
		}
		if c == ' ' || c == '-' || c == '/' || c == '(' || c == ')' {
			flush()
			if c == ' ' && sb.Len() > 0 && strings.HasSuffix(sb.String(), " ") {
				continue // collapse runs of spaces
			}
			sb.WriteByte(c)
			continue
		}
		if c >= '0' && c <= '9' {
			digits = true
		}
		switch {
		case len(word) == 0:
			word = append(word, upper(c))
		case c >= 'A' && c <= 'Z':
			if lower >= 3 {
				word = append(word, c)
			} else {
				word = append(word, c+'a'-'A')
			}
			lower = 0
		default:
			word = append(word, c)
			if c >= 'a' && c <= 'z' {
				lower++
			}
		}
	}
	flush()
	return strings.TrimSpace(sb.String())
}

// TestNormalizeNameMatchesReference compares normalizeName with the
// reference on every word, product name and comment entry of the golden
// inputs, their halves, and strings made to reach the edge cases (runs of
// separators, non-ASCII and invalid UTF-8 in short words, long names).
func TestNormalizeNameMatchesReference(t *testing.T) {
	check := func(s string) {
		t.Helper()
		if got, want := normalizeName(s), normalizeNameReference(s); got != want {
			t.Fatalf("normalizeName(%q) = %q, want %q", s, got, want)
		}
	}
	for _, s := range []string{"", " ", "a", "ab_c", "sm-t865", "desirehd", "SpeedCurve", "x10i  mini", "__a__b__",
		"ö-ab", "\xff\xfe-ab", "café 3g", "straße s", "ǆx-1", strings.Repeat("model_x-", 20), "  (tv) / box  "} {
		check(s)
	}
	for _, uas := range goldenInputs(t) {
		for _, ua := range uas {
			check(ua)
			check(ua[:len(ua)/2])
			p := parse(ua)
			for _, pr := range p.products {
				check(pr.name)
				check(pr.version)
			}
			for _, e := range p.entries {
				check(p.text(e))
			}
			releaseParsed(p)
			for _, w := range strings.Fields(ua) {
				check(w)
			}
		}
	}
}
