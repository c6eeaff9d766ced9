package fastre_test

import (
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/weir-streams/weir/internal/fastre"
)

// The sample patterns of internal/streamtest (ApacheRegex and
// ApacheEnrichRegex), copied because importing streamtest would link the
// whole engine, Kafka and Mongo clients into this package's tests, which
// makes them slow to build and breaks -fuzz (streamtest imports SplitText,
// which imports fastre). The stream tests run streamtest's own copies
// through SplitText and thus through fastre.
const (
	apacheRegex       = `(\S+)\s+(\S+)\s+(\S+)\s+\[([\w:/]+\s[+\-]\d{4})\]\s+"(\S+)\s+(\S+)\s*(\S*)"\s+(\S+)\s+(\S+)`
	apacheEnrichRegex = apacheRegex + `\s+"([^"]*)"\s+"([^"]*)"?`
)

// accessLogLines returns the lines of the bundled real access log.
func accessLogLines(tb testing.TB) []string {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "access-logs", "apache_combined_10k.log"))
	if err != nil {
		tb.Fatalf("read access log: %v", err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// anchor wraps a pattern the way SplitText does.
func anchor(p string) string { return `^(?:` + p + `)` }

// compare matches input with both engines and reports any difference. It
// returns false if fastre gave up, which is allowed.
func compare(t testing.TB, re *regexp.Regexp, m *fastre.Matcher, input string) bool {
	t.Helper()
	want := re.FindStringSubmatchIndex(input)
	var buf [64]int
	got, ok, gaveUp := m.MatchIndex(input, buf[:0])
	if gaveUp {
		return false
	}
	if ok != (want != nil) || !slices.Equal(got, want) {
		t.Fatalf("pattern %q input %q: fastre %v (ok %v), regexp %v", re.String(), input, got, ok, want)
	}
	// The same with a Scratch that a match of the input written twice
	// left full of entries at positions past this input's end, which a
	// match must never read.
	var sc fastre.Scratch
	var buf2 [64]int
	m.MatchIndexScratch(input+input, buf2[:0], &sc)
	got, ok, gaveUp = m.MatchIndexScratch(input, buf2[:0], &sc)
	if gaveUp {
		t.Fatalf("pattern %q input %q: MatchIndexScratch gave up where MatchIndex did not", re.String(), input)
	}
	if ok != (want != nil) || !slices.Equal(got, want) {
		t.Fatalf("pattern %q input %q: fastre with a used scratch %v (ok %v), regexp %v", re.String(), input, got, ok, want)
	}
	return true
}

// compile compiles p with both engines; m is nil if fastre refuses it.
func compile(t testing.TB, p string) (*regexp.Regexp, *fastre.Matcher) {
	t.Helper()
	re := regexp.MustCompile(p)
	m, err := fastre.Compile(p)
	if err != nil {
		if !errors.Is(err, fastre.ErrUnsupported) {
			t.Fatalf("pattern %q: error %v does not wrap errUnsupported", p, err)
		}
		return re, nil
	}
	if m.NumSlots() != 2*(re.NumSubexp()+1) {
		t.Fatalf("pattern %q: %d slots, regexp has %d groups", p, m.NumSlots(), re.NumSubexp())
	}
	return re, m
}

var tablePatterns = []string{
	`(\S+)\s+(\S+)`,
	`(\S*)"`,
	`(\S+)\s*(\S*)"`,
	`\[([\w:/]+\s[+\-]\d{4})\]`,
	`"([^"]*)"?`,
	`"([^"]*)"\s+"([^"]*)"?`,
	`(a|ab)(c|bcd)(d*)`,
	`(a+|b+)*c`,
	`(?:(a)|b)+`,
	`(a)?(b)?c`,
	`(a*?)(a*)`,
	`(a+?)(a?)`,
	`(a??)(a)`,
	`(\d{1,3})(\d*)`,
	`(\d{2,}?)(\d+)`,
	`(\d{2,4}?)x`,
	`(?i)get\s+(\S+)`,
	`(?i:k)+`,
	`(é+)(\S)`,
	`([^a]+)(.)`,
	`(.*)"`,
	`(?s)(.*)x`,
	`(\pL+)(\PL*)`,
	`\x{FFFD}+(.)`,
	`(\S+)$`,
	`(\w+)\b(.*)`,
	`(\w+)\B(.*)`,
	`(?m)(.*)$\n(.*)$`,
	`(?m)a\n^b`,
	`(ab){2}(c)`,
	`(ab|a){1,3}(b*)`,
	`(?:(ab)|(a)){2,}c?`,
	`(a|b|cd|)(d?)`,
	`x*`,
	``,
	`[^\x00-\x{10FFFF}]?a`,
	`(GET|POST|HEAD) (\S+)`,
	`(\d+)-(\d+)|(\w+)`,
	`((a)|(b))+`,
	`(a(b)?)+`,
	`(?U)(a+)(a*)`,
	// Lazy repetitions followed by a literal or a class skip the positions
	// where the rest cannot start (inst.follow).
	`"(.*?)" "(.*?)"`,
	`(a+?)b`,
	`([^x]*?)(\d)`,
	`(.{0,3}?)"`,
	`(.*?)(é|\s)`,
	`(?:-|(.*?))"`,
	`(\S*?)(?:(\d)|")`,
	`(.*?)\b(k+)`,
}

var tableInputs = []string{
	"", "a", "ab", "abc", "abcd", "abbcd", "aaab", "aaaa", "ac", "bc", "abababc", "aabbc",
	`GET /index.html HTTP/1.1" 200`, `get /x`, `Get  /x "`, `"quoted" "agent`, `"" ""`,
	"12345x", "12x", "1", "1-2", "kKK", "ééé x", "é\xff\xfe z", "\xe2\x82 x", "\xff\xff\"",
	"a\nb", "x\ny\n", "word  rest", "héllo wörld", "ab\xc3", "[17/May/2015:10:05:03 +0000]",
	"   ", "\t\"", "ſK", "abcabc", "aabab",
}

func TestTable(t *testing.T) {
	for _, p := range tablePatterns {
		re, m := compile(t, anchor(p))
		if m == nil {
			t.Errorf("pattern %q unexpectedly refused", p)
			continue
		}
		for _, in := range tableInputs {
			if !compare(t, re, m, in) {
				t.Errorf("pattern %q input %q: gave up", p, in)
			}
		}
	}
}

// apacheLazyRegex is written as grok's %{DATA} writes it, with lazy
// repetitions.
const apacheLazyRegex = `(\S+) (\S+) (\S+) \[(.*?)\] "(?:(\w+) (\S+)(?: HTTP/(\S+))?|(.*?))" (\d+) (?:-|(\d+)) "(?:-|(.*?))" "(?:-|(.*?))"`

// TestApacheLog checks the sample patterns and a lazy one on every line of the real log,
// and that none of those lines exhausts the budget.
func TestApacheLog(t *testing.T) {
	lines := accessLogLines(t)
	for _, p := range []string{apacheRegex, apacheEnrichRegex, apacheLazyRegex} {
		re, m := compile(t, anchor(p))
		if m == nil {
			t.Fatalf("pattern %q refused", p)
		}
		matched := 0
		for _, l := range lines {
			if !compare(t, re, m, l) {
				t.Fatalf("gave up on %q", l)
			}
			// A line cut anywhere exercises the failing paths too.
			compare(t, re, m, l[:len(l)/2])
			compare(t, re, m, l[:len(l)*9/10])
			if re.MatchString(l) {
				matched++
			}
		}
		if matched < len(lines)-20 {
			t.Errorf("pattern %q matched only %d of %d lines", p, matched, len(lines))
		}
	}
}

func TestUnsupported(t *testing.T) {
	for _, p := range []string{
		`a`,                                    // not anchored
		`(^a)|b`,                               // not anchored at every alternative
		`^(a*)*`,                               // loop over an empty-able body
		`^(a|)+`,                               // same
		`^(?:a?b?)+`,                           // same
		`^(a*){2,}`,                            // same, counted
		"^" + strings.Repeat(`(?:ab|c)`, 6000), // too large a program
	} {
		if _, err := fastre.Compile(p); !errors.Is(err, fastre.ErrUnsupported) {
			t.Errorf("pattern %q: error %v, want errUnsupported", p, err)
		}
	}
	if _, err := fastre.Compile(`^(a`); err == nil || errors.Is(err, fastre.ErrUnsupported) {
		t.Errorf("invalid pattern: error %v, want a parse error", err)
	}
}

// TestGiveUp checks that an exponential case stops within its budget and
// says so rather than running for ever or answering wrongly.
func TestGiveUp(t *testing.T) {
	m, err := fastre.Compile(`^(?:(a|aa)+)b`)
	if err != nil {
		t.Fatal(err)
	}
	_, ok, gaveUp := m.MatchIndex(strings.Repeat("a", 60), nil)
	if ok || !gaveUp {
		t.Fatalf("ok %v gaveUp %v, want a give-up", ok, gaveUp)
	}
}

func TestNoAllocs(t *testing.T) {
	lines := accessLogLines(t)[:100]
	m, err := fastre.Compile(anchor(apacheEnrichRegex))
	if err != nil {
		t.Fatal(err)
	}
	var buf [64]int
	var sc fastre.Scratch
	allocs := testing.AllocsPerRun(10, func() {
		for _, l := range lines {
			m.MatchIndex(l, buf[:0])
			m.MatchIndexScratch(l, buf[:0], &sc)
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per run, want 0", allocs)
	}
}

func TestConcurrent(t *testing.T) {
	lines := accessLogLines(t)[:500]
	re, m := compile(t, anchor(apacheEnrichRegex))
	done := make(chan struct{})
	for g := 0; g < 4; g++ {
		go func() {
			defer func() { done <- struct{}{} }()
			for _, l := range lines {
				want := re.FindStringSubmatchIndex(l)
				got, _, _ := m.MatchIndex(l, nil)
				if !slices.Equal(got, want) {
					t.Errorf("line %q: %v, want %v", l, got, want)
					return
				}
			}
		}()
	}
	for g := 0; g < 4; g++ {
		<-done
	}
}

// gen builds random patterns and inputs from the shapes log patterns use,
// over a small alphabet with multi-byte, folding and invalid UTF-8, so that
// collisions between pattern and input are frequent.
type gen struct{ r *rand.Rand }

var atoms = []string{
	`a`, `b`, `ab`, `k`, `é`, `"`, ` `, `.`, `\s`, `\S`, `\d`, `\w`, `\W`, `[^"]`, `[a-c]`, `[^ab]`,
	`(?i:k)`, `(?i:é)`, `\x{FFFD}`, `\pL`, `[\w:/]`, `[+\-]`, `\b`, `\B`, `$`, `(?s:.)`, `1`,
}

var quants = []string{``, ``, ``, `*`, `+`, `?`, `*?`, `+?`, `??`, `{2}`, `{1,3}`, `{0,2}?`, `{2,}`}

func (g gen) pattern(depth int) string {
	n := 1 + g.r.Intn(4)
	var b strings.Builder
	for i := 0; i < n; i++ {
		if depth > 0 && g.r.Intn(4) == 0 {
			inner := g.pattern(depth - 1)
			if g.r.Intn(3) == 0 {
				inner += "|" + g.pattern(depth-1)
			}
			open := "("
			if g.r.Intn(3) == 0 {
				open = "(?:"
			}
			b.WriteString(open + inner + ")" + quants[g.r.Intn(len(quants))])
			continue
		}
		b.WriteString(atoms[g.r.Intn(len(atoms))] + quants[g.r.Intn(len(quants))])
	}
	return b.String()
}

var pieces = []string{"a", "b", "k", "K", "\u212a", " ", "\"", "1", "é", "É", "\xff", "\xe2\x82", "\n", "_", ":", "/", "+", "ab"}

func (g gen) input() string {
	n := g.r.Intn(12)
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(pieces[g.r.Intn(len(pieces))])
	}
	return b.String()
}

// TestRandomDifferential compares the engines on random patterns and
// inputs; the seed is fixed so that a failure can be reproduced.
func TestRandomDifferential(t *testing.T) {
	g := gen{rand.New(rand.NewSource(1))}
	patterns := 3000
	if testing.Short() {
		patterns = 500
	}
	compiled, gaveUp, spans := 0, 0, 0
	for i := 0; i < patterns; i++ {
		p := anchor(g.pattern(3))
		re, m := compile(t, p)
		if m == nil {
			continue
		}
		compiled++
		if fastre.ActiveSpans(m) > 0 {
			spans++
		}
		for j := 0; j < 30; j++ {
			if !compare(t, re, m, g.input()) {
				gaveUp++
			}
		}
	}
	if compiled < patterns/2 {
		t.Errorf("only %d of %d random patterns compiled", compiled, patterns)
	}
	t.Logf("%d patterns compiled of %d, %d with spans, %d give-ups", compiled, patterns, spans, gaveUp)
}

// spanPatterns have capture-free ASCII parts (and literal runes beyond
// ASCII) followed by something that
// cannot start with their bytes, which run as one DFA instruction (spans):
// grok's shapes (IPv4, a date with month names and \b, numbers, optional
// and counted groups) and small ones.
var spanPatterns = []string{
	`((?:(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\.){3}(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)) (\S+)`,
	`\[((?:0[1-9]|[12][0-9]|3[01]|[1-9])/\b(?:Jan(?:uary)?|Feb|Mar(?:ch)?|May)\b/(?:\d\d){1,2}:(?:2[0123]|[01]?[0-9]):[0-5][0-9](?::(?:[0-5][0-9]|60)(?:[:.,][0-9]+)?)? [+-]?[0-9]+)\]`,
	`(\w*)(?:ab|a)(?:b|bc)*"(.*)`,
	`(?:\b\w+\b) (\S*)`,
	`(a)?(?:\Ba|b\B1)+ (.)`,
	`(?i:ab|cd)+(\s\S)`,
	`(?:[+-]?(?:[0-9]+(?:\.[0-9]+)?)|\.[0-9]+)"`,
	`(?:ab?){2,3}?(\s)`,
	`(?:ab|b)(?:1|22)(?:ab|b) (x)`,
	// Literal runes beyond ASCII, as in German month names (März, Mär).
	`\[(\d+/\b(?:Jan|[Mm](?:a|ä)?r(?:ch|z)?|Ma(?:y|i)|O(?:c|k)?t)\b/\d+)\]`,
	`(?:é|[äöü]b)+ (.)`,
}

var spanInputs = []string{
	"83.149.9.216 - -", "255.255.255.255 x", "256.1.1.1 x", "1.2.3 x", "01.2.3.4 x", "1.2.3.4.5 x", "1.2.3.4",
	"[17/May/2015:10:05:03 +0000]", "[1/January/15:3:05:60.5 -1]", "[31/Mar/2015:24:05:03 +0000]",
	"[17/Mayo/2015:10:05:03 +0000]", "[17/May/2015:10:05 +0000]", "[07/Feb/99:23:59:59,123 +0100] x",
	`xab"`, `abbcbc"z`, `ab`, `a"`, `aa"`, `"`, "word rest", "_ x", "a1 b", " x", "ab ",
	"aa b1 x", "ab1 x", "aab1a x", "AbCd!", "abab\xff", `12.5"`, `.5"`, `-1"`, `+"`, `1."`,
	"aba x", "abab", "a1b2a ", "a1b2a", "b2a1b x", "\xffab",
	"[4/Mär/2015]", "[4/März/2015]", "[4/Mai/2015]", "[4/Okt/2015]", "[4/Mr/2015]", "[4/M\xc3r/2015]",
	"[4/M\xe4r/2015]", "[4/Mär", "éé x", "äbüb x", "é\xc3 x", "\xc3\xa9 x", "öbé x",
}

// TestSpans checks that the span patterns run spans and that they give
// regexp's answers, also on every prefix of the inputs.
func TestSpans(t *testing.T) {
	for _, p := range spanPatterns {
		re, m := compile(t, anchor(p))
		if m == nil {
			t.Fatalf("pattern %q refused", p)
		}
		if fastre.ActiveSpans(m) == 0 {
			t.Errorf("pattern %q runs no span", p)
		}
		for _, in := range append(spanInputs, tableInputs...) {
			for i := 0; i <= len(in); i++ {
				if !compare(t, re, m, in[:i]) {
					t.Errorf("pattern %q input %q: gave up", p, in[:i])
				}
			}
		}
	}
}

// TestSpanTooLarge checks that a part whose DFA would exceed the table
// bound (2^16 states for "an a 15 bytes before the end") runs as ordinary
// instructions, with the same answers.
func TestSpanTooLarge(t *testing.T) {
	re, m := compile(t, anchor(`(?:c|[ab]*a[ab]{15}) (\d)`))
	if m == nil {
		t.Fatal("pattern refused")
	}
	if n := fastre.ActiveSpans(m); n != 0 {
		t.Errorf("%d spans run a DFA, want none", n)
	}
	for _, in := range []string{"a" + strings.Repeat("b", 15) + " 1", strings.Repeat("ab", 12) + " 1", "ba" + strings.Repeat("b", 14) + " 1", "aaa 1"} {
		if !compare(t, re, m, in) {
			t.Errorf("input %q: gave up", in)
		}
	}
	if !re.MatchString("a" + strings.Repeat("b", 15) + " 1") {
		t.Fatal("the test input should match")
	}
	// The same shape with a small DFA does run one.
	if _, m := compile(t, anchor(`(?:c|[ab]*a[ab]{3}) (\d)`)); m == nil || fastre.ActiveSpans(m) != 1 {
		t.Error("the small form runs no span")
	}
}

// TestSpanRandomDifferential compares the engines on random patterns made
// of capture-free ASCII parts, mostly followed by a delimiter outside their
// bytes so that they run as spans.
func TestSpanRandomDifferential(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	atoms := []string{`a`, `b`, `ab`, `1`, `\d`, `[a-c]`, `[+\-]`, `\w`, `(?i:a)`, `\b`, `\B`, `:`, `(?:)`, `ä`, `[aé]`, `[äöü]`}
	quants := []string{``, ``, `*`, `+`, `?`, `*?`, `??`, `{2}`, `{1,3}`, `{0,2}?`}
	var part func(depth int) string
	part = func(depth int) string {
		var b strings.Builder
		for n := 1 + r.Intn(4); n > 0; n-- {
			if depth > 0 && r.Intn(3) == 0 {
				b.WriteString("(?:" + part(depth-1) + "|" + part(depth-1) + ")" + quants[r.Intn(len(quants))])
				continue
			}
			b.WriteString(atoms[r.Intn(len(atoms))] + quants[r.Intn(len(quants))])
		}
		return b.String()
	}
	before := []string{``, `(a)?`, `(\w*?)`, `(1)`}
	after := []string{` (.*)`, `"`, `(\S*)`, `$`, ``, `( )?`, `(?:"|a)`}
	pieces := []string{"a", "b", "A", "1", "2", "+", "-", ":", "_", " ", "\"", "\xff", "é", "ä", "ü", "\xc3", "\xa4"}
	spans, matched := 0, 0
	for i := 0; i < 2000; i++ {
		p := anchor(before[r.Intn(len(before))] + "(?:" + part(2) + ")" + after[r.Intn(len(after))])
		re, m := compile(t, p)
		if m == nil {
			continue
		}
		if fastre.ActiveSpans(m) > 0 {
			spans++
		}
		for j := 0; j < 40; j++ {
			var in strings.Builder
			for n := r.Intn(10); n > 0; n-- {
				in.WriteString(pieces[r.Intn(len(pieces))])
			}
			compare(t, re, m, in.String())
			if fastre.ActiveSpans(m) > 0 && re.MatchString(in.String()) {
				matched++
			}
		}
	}
	if spans < 300 || matched < spans {
		t.Errorf("only %d of 2000 random patterns ran a span, %d inputs matched them", spans, matched)
	}
	t.Logf("%d of 2000 random patterns ran a span, %d inputs matched them", spans, matched)
}

// FuzzMatchesRegexp fuzzes the pattern, starting from the shapes above, and
// the input. Any pattern regexp accepts must either be refused by fastre or
// give the same answer on every input, unless fastre gives up. Run it for a
// bounded time, e.g.:
//
//	go test -run '^$' -fuzz FuzzMatchesRegexp -fuzztime 60s ./internal/fastre/
func FuzzMatchesRegexp(f *testing.F) {
	for i, p := range tablePatterns {
		f.Add(p, tableInputs[i%len(tableInputs)])
	}
	for i, p := range spanPatterns {
		f.Add(p, spanInputs[i%len(spanInputs)])
	}
	f.Add(apacheEnrichRegex, accessLogLines(f)[0])
	g := gen{rand.New(rand.NewSource(2))}
	for i := 0; i < 50; i++ {
		f.Add(g.pattern(2), g.input())
	}
	f.Fuzz(func(t *testing.T, pattern, input string) {
		// Long patterns and inputs only slow the search down: counted
		// repetitions make programs large and regexp itself slow.
		if len(pattern) > 80 || len(input) > 512 {
			return
		}
		p := anchor(pattern)
		re, err := regexp.Compile(p)
		if err != nil {
			return
		}
		m, err := fastre.Compile(p)
		if err != nil {
			if !errors.Is(err, fastre.ErrUnsupported) {
				t.Fatalf("pattern %q: regexp accepts it but fastre: %v", p, err)
			}
			return
		}
		compare(t, re, m, input)
	})
}

func benchLines(b *testing.B, match func(string) bool) {
	lines := accessLogLines(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if !match(lines[i%len(lines)]) && i < len(lines) && i%len(lines) == 0 {
			b.Fatal("first line does not match")
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "lines/s")
}

func benchFastre(b *testing.B, p string) {
	m, err := fastre.Compile(anchor(p))
	if err != nil {
		b.Fatal(err)
	}
	var buf [64]int
	benchLines(b, func(l string) bool {
		_, ok, _ := m.MatchIndex(l, buf[:0])
		return ok
	})
}

func benchRegexp(b *testing.B, p string) {
	re := regexp.MustCompile(anchor(p))
	benchLines(b, func(l string) bool { return re.FindStringSubmatchIndex(l) != nil })
}

func BenchmarkFastreApache(b *testing.B)       { benchFastre(b, apacheRegex) }
func BenchmarkRegexpApache(b *testing.B)       { benchRegexp(b, apacheRegex) }
func BenchmarkFastreApacheEnrich(b *testing.B) { benchFastre(b, apacheEnrichRegex) }
func BenchmarkRegexpApacheEnrich(b *testing.B) { benchRegexp(b, apacheEnrichRegex) }

// Example of a fall-back, as SplitText does it.
func ExampleMatcher_MatchIndex() {
	const p = `^(?:(\S+) (\S+))`
	re := regexp.MustCompile(p)
	m, err := fastre.Compile(p)
	var buf [6]int
	line := "GET /index.html"
	var idx []int
	if err == nil {
		var ok, gaveUp bool
		if idx, ok, gaveUp = m.MatchIndex(line, buf[:0]); gaveUp {
			idx = re.FindStringSubmatchIndex(line)
		} else if !ok {
			idx = nil
		}
	} else {
		idx = re.FindStringSubmatchIndex(line)
	}
	fmt.Println(idx)
	// Output: [0 15 0 3 4 15]
}

// TestRunEndsAfterMin checks unbounded greedy class repetitions at the
// byte right after their required runes, which MatchIndex tests before
// its run loops: an ASCII byte of the class, a rune >= 0x80 in the class
// or not, an invalid byte, a byte outside the class and the end of the
// input, after one to three required runes, against regexp. The rests
// after them end runs of \S and [^"] within the first eight bytes, which
// MatchIndex tests inline, past them, where wordStop goes on, and within
// eight bytes of the end, where the byte loop does.
func TestRunEndsAfterMin(t *testing.T) {
	patterns := []string{
		`(\S+)(.*)`, `(\s+)(.*)`, `(a+)(.*)`, `([a-z]+)(.*)`, `(é+)(.*)`, `([^"]+)(.*)`,
		`(\S{2,})(.*)`, `([\w:/]+)(.*)`, `([^a-z]*)(.*)`, `(\S+)\s+(\S+)`, `(\pL+)(.*)`,
	}
	firsts := []string{"a", "é", "-", " ", "\"", "ab", "éé", "a:/"}
	nexts := []string{"", "a", "z", "é", "ſ", "\xff", "\xc3", " ", "\t", "\"", "-", "/", "0", "\u00a0"}
	rests := []string{"", " x", "abcdefghij k", "é b"}
	for _, p := range patterns {
		re, m := compile(t, anchor(p))
		if m == nil {
			t.Fatalf("pattern %q unexpectedly refused", p)
		}
		for _, f := range firsts {
			for _, n := range nexts {
				for _, r := range rests {
					if in := f + n + r; !compare(t, re, m, in) {
						t.Errorf("pattern %q input %q: gave up", p, in)
					}
				}
			}
		}
	}
}
