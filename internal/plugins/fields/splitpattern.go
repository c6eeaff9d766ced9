package fields

import (
	"regexp"
	"regexp/syntax"
	"unicode"
	"unicode/utf8"

	"github.com/weir-streams/weir/internal/plugins/text/fastre"
	"github.com/weir-streams/weir/internal/record"
)

// A separator that is one ASCII character class, or a run of one ([/?],
// [,;]+, \s+), is found with a byte table (splitClass): a class that holds
// only ASCII bytes can never match inside a multi-byte rune, so scanning
// bytes finds exactly what regexp finds, and such a separator never
// matches the empty text.
//
// Any other separator that is a real regular expression (\s*,\s*) is found
// with fastre, Weir's backtracker for log patterns, rather than regexp:
// regexp.Split costs about a microsecond on an access-log path (its
// unanchored search and the slices of indexes and strings it allocates),
// fastre a fraction of that.
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

// patternSplitter splits text around a separator that is a real regular
// expression, by the fastest of the three ways that applies.
type patternSplitter struct {
	re   *regexp.Regexp
	set  *[256]bool      // splitClass's table, nil if the separator is not one ASCII class
	run  bool            // the class repeats (greedy +): a separator is a run of its bytes
	fast *fastre.Matcher // splitFast's matcher, nil if the separator stays with regexp
}

func newPatternSplitter(re *regexp.Regexp) *patternSplitter {
	p := &patternSplitter{re: re}
	if p.set, p.run = asciiClass(re.String()); p.set == nil {
		p.fast = compileSplitFast(re.String())
	}
	return p
}

// split returns p.re.Split(s, limit), limit >= 1, as values.
func (p *patternSplitter) split(s string, limit int) []record.Value {
	if p.set != nil {
		return splitClass(s, p.set, p.run, limit)
	}
	if p.fast != nil {
		if parts, ok := splitFast(s, p.fast, limit); ok {
			return parts
		}
	}
	return splitRegexp(s, p.re, limit)
}

// asciiClass returns the bytes of sep if sep is one character class (or a
// case-folded rune) of ASCII runes, possibly repeated with + (run true)
// or +? (which always takes one rune, as the class alone does).
func asciiClass(sep string) (set *[256]bool, run bool) {
	re, err := syntax.Parse(sep, syntax.Perl)
	if err != nil {
		return nil, false
	}
	for re.Op == syntax.OpCapture {
		re = re.Sub[0]
	}
	if re.Op == syntax.OpPlus {
		run = re.Flags&syntax.NonGreedy == 0
		re = re.Sub[0]
		for re.Op == syntax.OpCapture {
			re = re.Sub[0]
		}
	}
	var ranges []rune
	switch re.Op {
	case syntax.OpCharClass:
		ranges = re.Rune
	case syntax.OpLiteral:
		if len(re.Rune) != 1 {
			return nil, false
		}
		r := re.Rune[0]
		ranges = []rune{r, r}
		if re.Flags&syntax.FoldCase != 0 {
			for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
				ranges = append(ranges, f, f)
			}
		}
	default:
		return nil, false
	}
	set = new([256]bool)
	for i := 0; i+1 < len(ranges); i += 2 {
		if ranges[i+1] >= utf8.RuneSelf {
			return nil, false
		}
		for r := ranges[i]; r <= ranges[i+1]; r++ {
			set[r] = true
		}
	}
	return set, run
}

// splitClass returns regexp.Split(s, limit) for a separator that is one
// byte of set, or (run) a run of them: one allocation, the parts sharing
// s's bytes. Such a separator cannot match the empty text, so every part
// is the text between two separators, as in splitLiteral.
func splitClass(s string, set *[256]bool, run bool, limit int) []record.Value {
	// next returns the start and end of the first separator at or after
	// i, or -1.
	next := func(i int) (int, int) {
		for ; i < len(s); i++ {
			if set[s[i]] {
				j := i + 1
				if run {
					for j < len(s) && set[s[j]] {
						j++
					}
				}
				return i, j
			}
		}
		return -1, -1
	}
	n := 1
	for i := 0; n < limit; n++ {
		_, end := next(i)
		if end < 0 {
			break
		}
		i = end
	}
	parts := make([]record.Value, n)
	beg := 0
	for k := 0; k < n-1; k++ {
		start, end := next(beg)
		parts[k] = record.StringValue(s[beg:start])
		beg = end
	}
	parts[n-1] = record.StringValue(s[beg:])
	return parts
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
func splitFast(s string, m *fastre.Matcher, limit int) (parts []record.Value, ok bool) {
	if len(s) == 0 {
		// regexp.Split of an empty text is one empty part, for every
		// non-empty expression.
		return []record.Value{record.StringValue("")}, true
	}
	var slotBuf [8]int
	var matchBuf [32]int // start and end of up to 16 separators
	matches := matchBuf[:0]
	for pos, prevEnd := 0, -1; len(matches)/2 < limit && pos <= len(s); {
		idx, found, gaveUp := m.MatchIndex(s[pos:], slotBuf[:0])
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
	n := 0
	for i := 0; i < len(matches) && n < limit-1; i += 2 {
		if matches[i+1] != 0 {
			n++
		}
	}
	parts = make([]record.Value, 0, n+1)
	beg, end := 0, 0
	for i := 0; i < len(matches); i += 2 {
		if len(parts) >= limit-1 {
			break
		}
		end = matches[i]
		if matches[i+1] != 0 {
			parts = append(parts, record.StringValue(s[beg:end]))
		}
		beg = matches[i+1]
	}
	if end != len(s) {
		parts = append(parts, record.StringValue(s[beg:]))
	}
	return parts, true
}

// splitRegexp is regexp.Split(s, limit) with the parts made values
// directly.
func splitRegexp(s string, re *regexp.Regexp, limit int) []record.Value {
	ss := re.Split(s, limit)
	parts := make([]record.Value, len(ss))
	for i, p := range ss {
		parts[i] = record.StringValue(p)
	}
	return parts
}
