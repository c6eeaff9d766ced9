package fields

import (
	"math/rand"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// propertyPair is LogIsland's pattern, which nextPropertyPair must follow
// exactly.
var propertyPair = regexp.MustCompile(`(\S+)=([^=]+)(?:\s|$)`)

// pairsOf returns the key and value (untrimmed) of every pair of s, found
// by nextPropertyPair.
func pairsOf(s string) []string {
	var out []string
	for pos := 0; ; {
		kb, ke, ve, end, ok := nextPropertyPair(s, pos)
		if !ok {
			return out
		}
		out = append(out, s[kb:ke], s[ke+1:ve])
		pos = end
	}
}

// regexpPairsOf is pairsOf by the regular expression.
func regexpPairsOf(s string) []string {
	var out []string
	for _, m := range propertyPair.FindAllStringSubmatchIndex(s, -1) {
		out = append(out, s[m[2]:m[3]], s[m[4]:m[5]])
	}
	return out
}

// TestPropertyPairsAreTheRegexps: on edge cases, LogIsland's doc example
// and random texts over an alphabet where '=', spaces and non-ASCII bytes
// are frequent, the scanner finds the pairs the pattern finds.
func TestPropertyPairsAreTheRegexps(t *testing.T) {
	texts := []string{"", "a=1 b=2 c=3", "user=john doe action=login", "no pairs here", "k=v", "=", "a=", "=a", "==a", "a==b",
		"a=b=c", "a= b=c", "a= b c=d", "a=b  c", " a=b ", "a=b\tc=d\n", "a=\nb", "x=1 =2 y=3", "a=b c= d", "é=ü ß=\xff",
		"a=b=c=d e=f", "a=\u00a0b c=d", "method=GET status=200 bytes=203023 version=HTTP/1.1", "a=b==c d=e"}
	rng := rand.New(rand.NewSource(1))
	alphabet := []string{"a", "b", "=", " ", "\t", "\n", "é", "\xff", "\u00a0", "=", " "}
	for i := 0; i < 20000; i++ {
		var sb strings.Builder
		for n := rng.Intn(14); n > 0; n-- {
			sb.WriteString(alphabet[rng.Intn(len(alphabet))])
		}
		texts = append(texts, sb.String())
	}
	for _, s := range texts {
		if got, want := pairsOf(s), regexpPairsOf(s); !slices.Equal(got, want) {
			t.Errorf("pairs of %q = %q, the pattern gives %q", s, got, want)
		}
	}
}

// FuzzPropertyPairsAreTheRegexps fuzzes the text.
func FuzzPropertyPairsAreTheRegexps(f *testing.F) {
	for _, s := range []string{"a=1 b=2 c=3", "user=john doe action=login", "a=b=c", "a= b c=d", "é=ü\xff=\t"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := pairsOf(s), regexpPairsOf(s); !slices.Equal(got, want) {
			t.Errorf("pairs of %q = %q, the pattern gives %q", s, got, want)
		}
	})
}
