package fields

import (
	"regexp"
	"regexp/syntax"
	"unicode/utf8"

	"github.com/weir-streams/weir/internal/fastre"
	"github.com/weir-streams/weir/internal/record"
)

// A separator made of ASCII character classes in the shape A*B C*
// (\s*,\s*, \s*[/?]\s*, [/?], [,;]+, \s+, \s*;) is found with byte tables
// (classScanner, splitclass.go): a class that holds only ASCII bytes can
// never match inside a multi-byte rune, so scanning bytes finds exactly
// what regexp finds, and such a separator never matches the empty text.
//
// A separator that is an alternation of literal strings, once its small
// ASCII classes, case folds and optional parts are spelled out
// (/|%2[Ff], ", |;", \r\n|\n, (?i)and|or, \r?\n), is found with a table
// of first bytes and its alternatives checked in regexp's leftmost-first
// order (altScanner, splitalt.go): through fastre it cost about 70 ns more
// per access-log path than a byte scan (BENCHMARKS.md, "Processors").
//
// Any other separator that is a real regular expression ([0-9]+\.?,
// \s*\pL\s*) is found with fastre, Weir's backtracker for log patterns,
// rather than regexp: regexp.Split costs about a microsecond on an
// access-log path (its unanchored search and the slices of indexes and
// strings it allocates), fastre a fraction of that.
//
// fastre only matches at offset zero, so the separator is compiled as
// ^(?s:.*?)(SEP): the lazy prefix tries every start in order, rune by rune,
// which is what an unanchored search does, and group 1 is the leftmost match
// of SEP with regexp's own (leftmost-first) choice of its end. fastre steps
// over the bytes that cannot start SEP in one loop. Each further match is
// searched for in the rest of the text, s[pos:], so the start of that rest
// looks like the start of the text: a separator that looks behind its
// position (^, (?m)^, \b, \B) would see a different text there, and stays
// with regexp. So do separators outside fastre's subset, and any text on
// which fastre gives up (its step budget).

// separatorScanner finds the next separator of s at or after from, and
// returns where it starts and ends, or -1, -1. classScanner and altScanner
// are the two; neither finds an empty separator.
type separatorScanner interface {
	next(s string, from int) (start, end int)
}

// splitScanned returns regexp.Split(s, limit) (limit >= 1) for a separator
// that sc finds, as values from a sharing s's bytes. Such a separator
// cannot match the empty text, so every part is the text between two
// separators, as in splitLiteral.
func splitScanned(s string, sc separatorScanner, limit int, a *partsArena) []record.Value {
	beg := 0
	for n := 1; n < limit; n++ {
		start, end := sc.next(s, beg)
		if start < 0 {
			break
		}
		a.add(record.StringValue(s[beg:start]))
		beg = end
	}
	a.add(record.StringValue(s[beg:]))
	return a.done()
}

// patternSplitter splits text around a separator that is a real regular
// expression, by the fastest of the four ways that applies.
type patternSplitter struct {
	re    *regexp.Regexp
	class *classScanner   // nil if the separator is not made of ASCII classes
	alt   *altScanner     // nil if the separator is not an alternation of literals
	fast  *fastre.Matcher // splitFast's matcher, nil if the separator stays with regexp
}

func newPatternSplitter(re *regexp.Regexp) *patternSplitter {
	p := &patternSplitter{re: re}
	if p.class = compileClassScanner(re.String()); p.class != nil {
		return p
	}
	if p.alt = compileAltScanner(re.String()); p.alt != nil {
		return p
	}
	p.fast = compileSplitFast(re.String())
	return p
}

// split returns p.re.Split(s, limit), limit >= 1, as values from a. sc is
// fastre's backtracking space, which a Process call shares among all its
// splits (see splitFast).
func (p *patternSplitter) split(s string, limit int, a *partsArena, sc *fastre.Scratch) []record.Value {
	if p.class != nil {
		return splitScanned(s, p.class, limit, a)
	}
	if p.alt != nil {
		return splitScanned(s, p.alt, limit, a)
	}
	if p.fast != nil {
		if parts, ok := splitFast(s, p.fast, limit, a, sc); ok {
			return parts
		}
	}
	return splitRegexp(s, p.re, limit, a)
}

// compileSplitFast returns the fastre matcher of sep for splitFast, or nil
// if sep must stay with regexp. An empty sep (which SplitField refuses) is
// left to regexp too: regexp.Split treats the empty expression apart.
func compileSplitFast(sep string) *fastre.Matcher {
	re, err := syntax.Parse(sep, syntax.Perl)
	if err != nil || sep == "" || looksBehind(re) {
		return nil
	}
	m, err := fastre.Compile(`^(?s:.*?)(` + sep + `)`)
	if err != nil {
		return nil
	}
	return m
}

// looksBehind reports whether re holds an assertion that depends on the
// text before its position.
func looksBehind(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpBeginLine, syntax.OpBeginText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return true
	}
	for _, sub := range re.Sub {
		if looksBehind(sub) {
			return true
		}
	}
	return false
}

// splitFast returns re.Split(s, limit) (limit >= 1) as values sharing s's
// bytes, finding the separators with m (compileSplitFast of re's source).
// It follows regexp's Split and allMatches step by step, empty matches
// included. ok is false if fastre gave up on s; the caller then asks re.
// Every search uses sc as its backtracking space: fastre's MatchIndex
// would clear a new one (2 KB) for each separator found.
func splitFast(s string, m *fastre.Matcher, limit int, a *partsArena, sc *fastre.Scratch) (parts []record.Value, ok bool) {
	if len(s) == 0 {
		// regexp.Split of an empty text is one empty part, for every
		// non-empty expression.
		a.add(record.StringValue(""))
		return a.done(), true
	}
	var slotBuf [8]int
	var matchBuf [32]int // start and end of up to 16 separators
	matches := matchBuf[:0]
	for pos, prevEnd := 0, -1; len(matches)/2 < limit && pos <= len(s); {
		idx, found, gaveUp := m.MatchIndexScratch(s[pos:], slotBuf[:0], sc)
		if gaveUp {
			return nil, false
		}
		if !found {
			break
		}
		start, end := pos+idx[2], pos+idx[3]
		accept := true
		if end == pos {
			// An empty match at pos: not taken right after the previous
			// match; the search goes on one rune further.
			accept = start != prevEnd
			if pos == len(s) {
				pos++
			} else if s[pos] < utf8.RuneSelf {
				pos++
			} else {
				_, w := utf8.DecodeRuneInString(s[pos:])
				pos += w
			}
		} else {
			pos = end
		}
		prevEnd = end
		if accept {
			matches = append(matches, start, end)
		}
	}
	// As regexp.Split: the text before each separator is a part (but
	// for an empty separator at offset zero), up to limit-1 of them, and
	// the rest is the last unless the last separator used starts at the
	// end of the text.
	n, beg, end := 0, 0, 0
	for i := 0; i < len(matches); i += 2 {
		if n >= limit-1 {
			break
		}
		end = matches[i]
		if matches[i+1] != 0 {
			a.add(record.StringValue(s[beg:end]))
			n++
		}
		beg = matches[i+1]
	}
	if end != len(s) {
		a.add(record.StringValue(s[beg:]))
	}
	return a.done(), true
}

// splitRegexp is regexp.Split(s, limit) with the parts made values from a.
func splitRegexp(s string, re *regexp.Regexp, limit int, a *partsArena) []record.Value {
	for _, p := range re.Split(s, limit) {
		a.add(record.StringValue(p))
	}
	return a.done()
}
