package uaparse

import (
	"strings"
	"testing"
)

// TestTrimSpaceSemicolonComma compares the trim of deviceFromTokens with
// strings.Trim, which it replaces, on every comment entry of DEV and on
// edge cases.
func TestTrimSpaceSemicolonComma(t *testing.T) {
	inputs := []string{"", " ", ";,; ", " SM-G960F; ", ",a,", "a b", "\tx\t", "é;"}
	for _, c := range loadDev(t) {
		p := parse(c.UA)
		for _, e := range p.entries {
			inputs = append(inputs, p.text(e))
			inputs = append(inputs, strings.FieldsFunc(p.text(e), func(r rune) bool { return r == ' ' || r == '/' })...)
		}
		releaseParsed(p)
	}
	for _, s := range inputs {
		if got, want := trimSpaceSemicolonComma(s), strings.Trim(s, " ;,"); got != want {
			t.Fatalf("trimSpaceSemicolonComma(%q) = %q, want %q", s, got, want)
		}
	}
}
