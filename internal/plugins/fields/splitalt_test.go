package fields

import (
	"math/rand"
	"regexp"
	"strings"
	"testing"

	"github.com/weir-streams/weir/internal/record"
)

// altSeparators are alternations of literals the byte scan of splitalt.go
// must take: the common ones (a percent-encoded slash, a list separator, line
// ends, case-folded words), alternatives whose order decides the match
// (a|ab, ab|a), prefixes the parser factors (ab|ac is a[bc]), optional
// parts, non-ASCII runes and folds that leave ASCII (k folds to the
// Kelvin sign), captures, and alternatives that start with the same byte.
var altSeparators = []string{
	`/|%2[Ff]`, `, |;`, `\r\n|\n`, `(?i)and|or`, `\r?\n`, `a|ab`, `ab|a`, `ab|ac`, `(a|ab)(c|bcd)`, `(?:a|ab)(?:c|bcd)`,
	`(?i)k/|é/`, `(?i)k`, `(?i)ßa|sa`, `é/|ü/`, `€`, `(?i)é/`, `a(?:b|)`, `a(?:|b)`, `ab??`, `x{2,3}`, `(?i)get|post|head`,
	`\.(?:png|jpg|css)`, `HTTP/1\.[01]|GET `, `" "|" -`, `a[bc]|[a-z]x`, `/a|/b|/`, `//|/`, `[/?]x|%`, `(?U)ab?`,
	`(?i)A|a`, `aa|a`, `a|a`, `\x00a|\xffa`, `(?i)select`,
}

// altTexts add to splitTexts texts on which the separators above match,
// overlap and nearly match.
var altTexts = []string{
	"GET /a%2Fb%2fc/d%2 HTTP/1.1", "%%2F%2", "x, y;z , ;", ", ", "l1\r\nl2\nl3\r\r\n\r", "Salt AND pepper or vinegar anD Or",
	"K\u212ak\u212a/", "\ufffd\xff/", "abcd abc ab a", "abbcd", "ßaSas\u017faẞa", "É/é/e/ü/", "\x00a\xffaÿa", "xxxxxxx", "/a/b//c/", `" "a" -`,
	"image.png.jpg.css.", "aax", "\x00\xff\xc3\xff", "SELECT select SeLeCt", "\u212a",
}

// TestSplitAltIsRegexpSplit: the byte scan takes every separator of
// altSeparators, SplitField's splitter picks it for them, and it splits
// every text exactly as regexp.Split does, for every limit.
func TestSplitAltIsRegexpSplit(t *testing.T) {
	texts := append(append([]string(nil), splitTexts...), altTexts...)
	for _, sep := range altSeparators {
		re := regexp.MustCompile(sep)
		sc := compileAltScanner(sep)
		if sc == nil {
			t.Errorf("%q is not taken by the alternation scan", sep)
			continue
		}
		p := newPatternSplitter(re)
		if p.alt == nil && p.class == nil {
			t.Errorf("%q: the splitter does not pick a byte scan", sep)
		}
		for _, s := range texts {
			for _, limit := range []int{1, 2, 3, 4, 10, 1 << 20} {
				compareSplit(t, "alt", re, altSplit(sc), s, limit)
			}
		}
	}
}

// TestSplitAltRefuses: what the scan must leave to fastre or regexp.
func TestSplitAltRefuses(t *testing.T) {
	for _, sep := range []string{
		`a|`, `|a`, `(?:)`, `a?`, `a??|b`, // can match the empty text
		`a*|b`, `a+`, `.|a`, `(?s).`, `\s*,`, // repetitions, any rune
		`[é€]|a`, `\pL|a`, `[^a]|b`, `(?i)k|x`, `é|ü`, `(?i)k|é`, // classes with non-ASCII runes
		`\x{FFFD}|a`, `a\x{FFFD}`, // regexp matches U+FFFD on invalid bytes
		`^a|b`, `a$|b`, `\ba|b`, `a\z`, // assertions
		`(?:a|bb)(?:c|dd)(?:e|ff)(?:g|hh)(?:i|jj)(?:k|ll)`, // 64 branches
		`[^\x00-\x{10FFFF}]`, // matches nothing
	} {
		if compileAltScanner(sep) != nil {
			t.Errorf("%q is taken by the alternation scan", sep)
		}
	}
}

// TestSplitAltPrefersFirstBranch pins leftmost-first against the longest
// match where it decides the parts, besides the comparison with regexp:
// a|ab cuts "ab" after "a", ab|a after "ab".
func TestSplitAltPrefersFirstBranch(t *testing.T) {
	for _, c := range []struct{ sep, s, want string }{
		{`a|ab`, "xabx", `["x","bx"]`},
		{`ab|a`, "xabx", `["x","x"]`},
		{`(a|ab)(c|bcd)`, "abcd!", `["","!"]`},
		{`//|/`, "a///b", `["a","","b"]`},
		{`/|//`, "a///b", `["a","","","b"]`},
	} {
		got := record.ArrayValue(splitScanned(c.s, compileAltScanner(c.sep), 1<<20, new(partsArena))).String()
		if got != c.want {
			t.Errorf("split %q on %q = %s, want %s", c.s, c.sep, got, c.want)
		}
	}
}

// TestSplitAltAccessLog compares with regexp.Split on the 10,000 lines of
// the real access log, and checks that the separators were found there
// (a comparison of texts without separators would prove little).
func TestSplitAltAccessLog(t *testing.T) {
	lines := accessLogLines(t)
	for _, c := range []struct {
		sep      string
		minParts int // over the whole log, unlimited
	}{
		{`/|%2[Ff]`, 40000},
		{`, |;`, 5000},
		{`(?i)and|or`, 1000},
		{`\.(?:png|jpg|css|js)`, 4000},
		{`HTTP/1\.[01]|GET |" "|" -`, 20000},
		{`(?i)mozilla|linux|windows|mac`, 10000},
		{`a|ab|abc|b`, 30000},
		{`\r\n|\n`, 10000}, // no line end inside a line: one part each
	} {
		re := regexp.MustCompile(c.sep)
		sc := compileAltScanner(c.sep)
		if sc == nil {
			t.Fatalf("%q is not taken by the alternation scan", c.sep)
		}
		split := altSplit(sc)
		parts := 0
		for _, s := range lines {
			for _, limit := range []int{2, 5, 1 << 20} {
				compareSplit(t, "alt", re, split, s, limit)
			}
			got, _ := split(s, 1<<20)
			parts += len(got)
		}
		if parts < c.minParts {
			t.Errorf("%q cut the log into %d parts, want at least %d", c.sep, parts, c.minParts)
		}
	}
}

// TestSplitAltRandom compares on random alternations of literals and
// classes over a small alphabet, where alternatives share prefixes, one
// is another's prefix, and texts are full of near matches.
func TestSplitAltRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(21))
	atoms := []string{"a", "b", "ab", "ba", "/", "%2", "[Ff]", "(?i)f", "é", "(?i)k", "[ab]", "a?", "(?:a|ab)", "(ab|a)", `\r`, `\n`}
	alphabet := []string{"a", "b", "/", "%", "2", "F", "f", "é", "É", "K", "k", "\u212a", "\r", "\n", "\xff"}
	taken := 0
	for i := 0; i < 3000; i++ {
		var alts []string
		for n := 1 + rng.Intn(4); n > 0; n-- {
			alt := ""
			for m := 1 + rng.Intn(3); m > 0; m-- {
				alt += atoms[rng.Intn(len(atoms))]
			}
			alts = append(alts, "(?:"+alt+")")
		}
		re, split, ok := altTaken(strings.Join(alts, "|"))
		if !ok {
			continue
		}
		taken++
		for k := 0; k < 5; k++ {
			s := ""
			for n := rng.Intn(16); n > 0; n-- {
				s += alphabet[rng.Intn(len(alphabet))]
			}
			for _, limit := range []int{1, 2, 3, 1 << 20} {
				compareSplit(t, "alt", re, split, s, limit)
			}
		}
	}
	if taken < 2000 {
		t.Errorf("the scan took %d of 3,000 random alternations, want at least 2,000", taken)
	}
}

// FuzzSplitAltIsRegexpSplit fuzzes the separator, the text and the limit;
// for every separator the alternation scan takes it must split exactly as
// regexp.Split does. FuzzSplitFastIsRegexpSplit compares it too, among
// the other ways; this target seeds the fuzzer with alternations.
func FuzzSplitAltIsRegexpSplit(f *testing.F) {
	for i, sep := range altSeparators {
		f.Add(sep, altTexts[i%len(altTexts)], i)
	}
	f.Fuzz(func(t *testing.T, sep, s string, limit int) {
		if len(sep) > 60 || len(s) > 256 {
			return
		}
		re, split, ok := altTaken(sep)
		if !ok {
			return
		}
		limit = 1 + (limit&0xffff)%20
		compareSplit(t, "alt", re, split, s, limit)
		compareSplit(t, "alt", re, split, s, 1<<20)
	})
}

// altTaken returns sep compiled by regexp and the alternation scan's
// split, when regexp compiles sep and the scan takes it.
func altTaken(sep string) (*regexp.Regexp, splitFunc, bool) {
	re, err := regexp.Compile(sep)
	if err != nil {
		return nil, nil, false
	}
	sc := compileAltScanner(sep)
	if sc == nil {
		return nil, nil, false
	}
	return re, altSplit(sc), true
}

func altSplit(sc *altScanner) splitFunc {
	return func(s string, limit int) ([]record.Value, bool) {
		return splitScanned(s, sc, limit, new(partsArena)), true
	}
}
