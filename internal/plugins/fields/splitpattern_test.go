package fields

import (
	"math/rand"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/weir-streams/weir/internal/fastre"
	"github.com/weir-streams/weir/internal/record"
)

// splitTexts are edge cases for splitting: empty parts, separators at both
// ends, multi-byte and invalid UTF-8, and access-log paths.
var splitTexts = []string{
	"", "a", "/", "//", "a/", "/a", "a//b", "?", "/a?b=c&d=e", "/presentations/logstash-monitorama-2013/images/kibana-search.png",
	"/blog/tags/puppet?flav=rss20", "aaa", "aaaa", "abab", "a , b,c ,, d", "x + y+z", " lead", "trail ", "é/ü/€", "\xff/\xfe?\xc3",
	"a\nb\n", "\n\n", "no separator here", "AbAB", "a.b.c", "ab", "ba",
	"/a%2Fb%2fc%2", "x, y;z , ;", "l1\r\nl2\nl3\r\r\n", "Salt AND pepper or vinegar", "K\u212ak", "\ufffd\xff",
}

// splitSeparators are regular expressions that are not plain literals:
// classes, repetitions, alternatives whose order matters, separators that
// can match the empty text, end anchors, case folding, captures, and
// separators that look behind (which must stay with regexp).
var splitSeparators = []string{
	`[/?]`, `[/?&=]+`, `[/?]+?`, `([,;])`, `(?i)a`, `(?i)k`, `\s*,\s*`, `\s*\+\s*`, `\W`, `\s+`, `a*`, `x*`, `b?`, `a|ab`, `ab|a`, `(a)(b)?`, `.`, `(?s).`,
	`$`, `(?m)$`, `\z`, `(?i)ab`, `[é€]`, `\pL+`, `[^a-z]`, `/+?`, `a{2}`, `(?:)`, `^`, `\b`, `\B`, `(?m)^`, `^a|b`,
	// Shapes the byte scan takes, and near misses it must leave (A and B
	// overlapping, a C+ after B, an optional B, non-ASCII classes).
	`\s*[/?]\s*`, `\s+,`, `\s+,+\s*`, `(\s*)(,)(\s*)`, `\s*?,\s*`, `,\s*?`, `,+?\s*`, `a*b+a*`, `b+a*`, `(?i)a*b`, `[ab]+b`,
	`a*a`, `\s*,\s+`, `\s*,?\s*`, `a*b*`, `\s*\pL\s*`, `[/?]+[/?]*`, `a+b`, `a+?b`, `b,*`,
	// Alternations of literals, which the alternation scan takes
	// (splitalt.go).
	`/|%2[Ff]`, `, |;`, `\r\n|\n`, `(?i)and|or`, `\r?\n`, `(?i)k/|é/`,
}

// classSeparators are separators the byte scan must take.
var classSeparators = []string{`[/?]`, `[/?&=]+`, `[/?]+?`, `\s`, `\s+`, `([,;])`, `(?i)a`, `\s*,\s*`, `\s*\+\s*`,
	`\s*[/?]\s*`, `\s+,`, `\s+,+\s*`, `(\s*)(,)(\s*)`, `\s*?,\s*`, `,\s*?`, `,+?\s*`, `a*b+a*`, `b+a*`, `(?i)a*b`,
	`[/?]+[/?]*`, `a+b`, `a+?b`, `b,*`}

// TestSplitPatternIsRegexpSplit: each way of splitting on a regular
// expression (a byte class, fastre, and the one a splitter picks) must give
// exactly regexp.Split's parts for every separator it takes, on every text,
// for every limit; and each way must take the separators it is meant for.
func TestSplitPatternIsRegexpSplit(t *testing.T) {
	fast, class := 0, 0
	for _, sep := range splitSeparators {
		re := regexp.MustCompile(sep)
		ways := map[string]splitFunc{"picked": pickedSplit(re)}
		if m := compileSplitFast(sep); m != nil {
			ways["fastre"] = fastSplit(m)
			fast++
		}
		if sc := compileClassScanner(sep); sc != nil {
			ways["class"] = classSplit(sc)
			class++
		}
		if sc := compileAltScanner(sep); sc != nil {
			ways["alt"] = altSplit(sc)
		}
		for way, split := range ways {
			for _, s := range splitTexts {
				for _, limit := range []int{1, 2, 3, 4, 10, 1 << 20} {
					compareSplit(t, way, re, split, s, limit)
				}
			}
		}
	}
	if fast < 25 || class < 5 {
		t.Errorf("fastre took %d and the byte class %d of the %d separators, want at least 25 and 5", fast, class, len(splitSeparators))
	}
	for _, sep := range []string{`[/?]`, `[/?&=]+`, `\s*,\s*`, `a*`, `a|ab`, `(?i)ab`, `\pL+`, `$`} {
		if compileSplitFast(sep) == nil {
			t.Errorf("%q stays with regexp, want fastre", sep)
		}
	}
	for _, sep := range []string{`^`, `\b`, `\B`, `(?m)^`, `^a|b`, `\Aa`} {
		if compileSplitFast(sep) != nil {
			t.Errorf("%q looks behind and must stay with regexp", sep)
		}
	}
	for _, sep := range classSeparators {
		if compileClassScanner(sep) == nil {
			t.Errorf("%q is not taken by the byte scan", sep)
		}
	}
	for _, sep := range []string{`\W`, `[^a-z]`, `(?i)k`, `[é€]`, `\pL`, `a*`, `[/?]{2}`, `ab`, `a|bc`,
		`\s*[ /]\s*`, `[ab]+b`, `a*a`, `\s*,\s+`, `\s*,?\s*`, `a*b*`, `,\s*x`, `\s*\pL\s*`, `\s*,(?:ab)*`, `x*y*z*w`} {
		if compileClassScanner(sep) != nil {
			t.Errorf("%q is taken by the byte scan: it is not [A*|A+] B|B+ [C*] of ASCII classes with A and B apart", sep)
		}
	}
}

// accessLogLines returns the 10,000 lines of the real access log. The
// package cannot import streamtest (which imports every plugin), so it
// reads the file.
func accessLogLines(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile("../../../testdata/access-logs/apache_combined_10k.log")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) != 10000 {
		t.Fatalf("read %d lines, want 10,000", len(lines))
	}
	return lines
}

// TestSplitPatternAccessLog compares with regexp.Split on the lines of the
// real access log (paths, quoted user agents, dates).
func TestSplitPatternAccessLog(t *testing.T) {
	lines := accessLogLines(t)
	for _, sep := range []string{`[/?&=]+`, `\s*[;()]\s*`, `[0-9]+\.?`} {
		re := regexp.MustCompile(sep)
		m := compileSplitFast(sep)
		if m == nil {
			t.Fatalf("%q stays with regexp", sep)
		}
		fast := fastSplit(m)
		for _, s := range lines {
			for _, limit := range []int{3, 1 << 20} {
				if !compareSplit(t, "fastre", re, fast, s, limit) {
					t.Fatalf("fastre gave up splitting %q on %q", s, sep)
				}
			}
		}
	}
}

// TestSplitFastRandom compares on random separators and texts over a small
// alphabet, where separators match often, overlap and match empty texts.
func TestSplitFastRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	atoms := []string{"a", "b", "/", "[ab]", "[^a]", ".", "a*", "b+", "(?:a|ab)", "(ab|a)", "/?", "a{1,2}", "$", `\s`, "é", "(?i)b", `\s*`, "[/b]", "/+", " +"}
	alphabet := []string{"a", "b", "/", " ", "é", "B", "\xff", " ", "/"}
	for i := 0; i < 3000; i++ {
		sep := ""
		for n := 1 + rng.Intn(3); n > 0; n-- {
			sep += atoms[rng.Intn(len(atoms))]
		}
		re, err := regexp.Compile(sep)
		if err != nil {
			continue
		}
		s := ""
		for n := rng.Intn(12); n > 0; n-- {
			s += alphabet[rng.Intn(len(alphabet))]
		}
		for _, limit := range []int{1, 2, 3, 1 << 20} {
			compareAllWays(t, re, s, limit)
		}
	}
}

// FuzzSplitFastIsRegexpSplit fuzzes the separator, the text and the limit:
// every way that takes a separator (fastre, the byte class, and the one
// SplitField picks) must split exactly as regexp.Split does, unless fastre
// gives up (then SplitField asks regexp). scripts/test runs
// it for a bounded time.
func FuzzSplitFastIsRegexpSplit(f *testing.F) {
	for i, sep := range splitSeparators {
		f.Add(sep, splitTexts[i%len(splitTexts)], i)
	}
	f.Fuzz(func(t *testing.T, sep, s string, limit int) {
		if len(sep) > 40 || len(s) > 256 {
			return // long separators and texts only slow the search down
		}
		re, err := regexp.Compile(sep)
		if err != nil {
			return
		}
		limit = 1 + (limit&0xffff)%20
		compareAllWays(t, re, s, limit)
		compareAllWays(t, re, s, 1<<20)
	})
}

// splitFunc is one way of splitting; ok is false if it gave up.
type splitFunc func(s string, limit int) (parts []record.Value, ok bool)

// fastSplit and pickedSplit keep one fastre.Scratch for all the calls of
// the function they return, as a Process call does for its batch: what one
// split leaves in it must not change the next.
func fastSplit(m *fastre.Matcher) splitFunc {
	sc := new(fastre.Scratch)
	return func(s string, limit int) ([]record.Value, bool) {
		return splitFast(s, m, limit, new(partsArena), sc)
	}
}

func pickedSplit(re *regexp.Regexp) splitFunc {
	p := newPatternSplitter(re)
	sc := new(fastre.Scratch)
	return func(s string, limit int) ([]record.Value, bool) {
		return p.split(s, limit, new(partsArena), sc), true
	}
}

func classSplit(sc *classScanner) splitFunc {
	return func(s string, limit int) ([]record.Value, bool) {
		return splitScanned(s, sc, limit, new(partsArena)), true
	}
}

// compareAllWays compares every way that takes re's separator.
func compareAllWays(t *testing.T, re *regexp.Regexp, s string, limit int) {
	t.Helper()
	sep := re.String()
	if m := compileSplitFast(sep); m != nil {
		compareSplit(t, "fastre", re, fastSplit(m), s, limit)
	}
	if sc := compileClassScanner(sep); sc != nil {
		compareSplit(t, "class", re, classSplit(sc), s, limit)
	}
	if sc := compileAltScanner(sep); sc != nil {
		compareSplit(t, "alt", re, altSplit(sc), s, limit)
	}
	compareSplit(t, "picked", re, pickedSplit(re), s, limit)
}

// compareSplit fails t if split and regexp.Split differ on s. It returns
// false if split gave up (SplitField then asks regexp: nothing to
// compare).
func compareSplit(t *testing.T, way string, re *regexp.Regexp, split splitFunc, s string, limit int) bool {
	t.Helper()
	want := re.Split(s, limit)
	parts, ok := split(s, limit)
	if !ok {
		return false
	}
	got := make([]string, len(parts))
	for i, v := range parts {
		got[i], _ = v.AsString()
	}
	if !slices.Equal(got, want) {
		t.Errorf("%s: split %q on %q limit %d = %q, regexp gives %q", way, s, re, limit, got, want)
	}
	return true
}
