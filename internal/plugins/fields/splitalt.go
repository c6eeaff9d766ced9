package fields

import (
	"regexp/syntax"
	"strings"
	"unicode"
	"unicode/utf8"
)

// altScanner finds, with a byte scan, a separator that is an alternation of
// literal strings: /|%2[Ff], ", |;", \r\n|\n, (?i)and|or, \r?\n, a|ab.
//
// The separator's simplified syntax tree (what regexp itself compiles) is
// expanded into branches, each a sequence of byte sets, in the order in
// which regexp's leftmost-first search prefers them: an alternation lists
// its alternatives' branches in order, a concatenation takes every branch
// of its first part followed by every branch of the rest (the first part's
// first choice with each of the rest's choices in order, then its second
// choice...), and x? is x's branches then the empty one (the reverse when
// lazy). At the leftmost position where any branch matches, regexp picks
// the first one in that order that matches there, not the longest (a|ab
// on "ab" matches "a"), and so does next.
//
// A byte set holds the ASCII bytes of one character class, or of one rune
// and its case folds (%2[Ff]: the last position is {F, f}). The strings one
// branch stands for all have the same length and differ in a byte, so at
// most one of them matches at a position and their order does not matter:
// a set keeps regexp's choice exactly while expanding nothing. A non-ASCII
// rune is its UTF-8 bytes, one set of one byte each, and its case folds
// are branches of their own (k under (?i) is the set {K, k} or the three
// bytes of the Kelvin sign): UTF-8 is prefix-free and an ASCII byte or a
// lead byte always starts a rune when regexp decodes the text, invalid
// bytes included, so comparing bytes finds exactly the runes regexp finds.
//
// Refused, so that the separator goes to fastre or regexp: anything but
// literals, ASCII classes, alternations, concatenations, captures and ?;
// a class with a non-ASCII rune; U+FFFD, which regexp also matches on each
// invalid byte of the text; an empty branch (the separator could match
// the empty text); more than maxAltBranches branches.
type altScanner struct {
	// first[c] says what a separator starting with byte c can be: 0,
	// none; 1, a one-byte branch, the first in order for c, so it
	// matches; k+2, the branches of groups[k], tried in order.
	first  [256]uint16
	groups [][]altBranch
	// oneFirst is the only byte a separator can start with, when
	// there is one (strings.IndexByte finds it); -1 otherwise.
	oneFirst int
}

// altBranch is a branch of the separator after its first byte, which
// the table has already matched.
type altBranch struct {
	lit  string    // the bytes, when every position has one byte
	sets []byteSet // the positions, when one has more (lit is then "")
}

// byteSet is a set of bytes, one bit each.
type byteSet [4]uint64

func (b *byteSet) add(c byte)      { b[c>>6] |= 1 << (c & 63) }
func (b *byteSet) has(c byte) bool { return b[c>>6]&(1<<(c&63)) != 0 }
func (b *byteSet) subsetOf(o *byteSet) bool {
	for i := range b {
		if b[i]&^o[i] != 0 {
			return false
		}
	}
	return true
}

// single returns the one byte of b, if it has exactly one.
func (b *byteSet) single() (byte, bool) {
	n, last := 0, 0
	for c := 0; c < 256; c++ {
		if b.has(byte(c)) {
			n, last = n+1, c
		}
	}
	return byte(last), n == 1
}

// maxAltBranches bounds the expansion: a separator with more branches
// (a product of alternations) is left to fastre, and a scan never tries
// more than this many branches at a position.
const maxAltBranches = 32

// next returns the start and end of the first separator in s at or after
// pos, or -1, -1.
func (sc *altScanner) next(s string, pos int) (start, end int) {
	for j := pos; j < len(s); j++ {
		if sc.oneFirst >= 0 {
			k := strings.IndexByte(s[j:], byte(sc.oneFirst))
			if k < 0 {
				break
			}
			j += k
		}
		g := sc.first[s[j]]
		if g == 0 {
			continue
		}
		if g == 1 {
			return j, j + 1
		}
		for i := range sc.groups[g-2] {
			if e := sc.groups[g-2][i].matchAt(s, j+1); e >= 0 {
				return j, e
			}
		}
	}
	return -1, -1
}

// matchAt returns the end of b in s if b matches at k, or -1.
func (b *altBranch) matchAt(s string, k int) int {
	if b.sets == nil {
		if len(s)-k >= len(b.lit) && s[k:k+len(b.lit)] == b.lit {
			return k + len(b.lit)
		}
		return -1
	}
	if len(s)-k < len(b.sets) {
		return -1
	}
	for i := range b.sets {
		if !b.sets[i].has(s[k+i]) {
			return -1
		}
	}
	return k + len(b.sets)
}

// compileAltScanner returns the scanner of sep, or nil if sep is not an
// alternation of literals within the bounds above. It reads the tree
// regexp.Compile builds: syntax.Perl's parse, simplified (x{2,3} becomes
// xxx?), in which the parser has already factored common prefixes out
// (ab|ac is a[bc], a|ab is a(?:|b)).
func compileAltScanner(sep string) *altScanner {
	re, err := syntax.Parse(sep, syntax.Perl)
	if err != nil {
		return nil
	}
	branches, ok := expandAlt(re.Simplify())
	if !ok || len(branches) == 0 {
		return nil
	}
	for _, b := range branches {
		if len(b) == 0 {
			return nil
		}
	}
	sc := &altScanner{oneFirst: -1}
	groupOf := map[string]uint16{}
	firsts := 0
	for c := 0; c < 256; c++ {
		var group []altBranch
		var kept [][]byteSet // the rests of group's branches
		for _, b := range branches {
			if !b[0].has(byte(c)) {
				continue
			}
			rest := b[1:]
			if dominated(rest, kept) {
				continue // an earlier branch matches wherever this one does
			}
			kept = append(kept, rest)
			group = append(group, newAltBranch(rest))
		}
		if len(group) == 0 {
			continue
		}
		firsts++
		sc.oneFirst = c
		if len(kept) == 1 && len(kept[0]) == 0 {
			sc.first[c] = 1
			continue
		}
		// Bytes of one class share their group (a[bc]|[a-z]x: every
		// letter but a has the same branches).
		key := groupKey(kept)
		g, seen := groupOf[key]
		if !seen {
			g = uint16(len(sc.groups) + 2)
			groupOf[key] = g
			sc.groups = append(sc.groups, group)
		}
		sc.first[c] = g
	}
	if firsts != 1 {
		sc.oneFirst = -1
	}
	return sc
}

// dominated reports whether an earlier branch, rest of kept, matches
// wherever rest does: it is not longer, and each of its positions holds
// every byte of rest's position. Once a branch is found leftmost-first
// never tries those after it, so rest could never be chosen.
func dominated(rest []byteSet, kept [][]byteSet) bool {
	for _, k := range kept {
		if len(k) > len(rest) {
			continue
		}
		all := true
		for i := range k {
			if !rest[i].subsetOf(&k[i]) {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

// newAltBranch makes the branch of rest, as a string when each position
// has one byte.
func newAltBranch(rest []byteSet) altBranch {
	lit := make([]byte, 0, len(rest))
	for i := range rest {
		c, ok := rest[i].single()
		if !ok {
			return altBranch{sets: rest}
		}
		lit = append(lit, c)
	}
	return altBranch{lit: string(lit)}
}

// groupKey is a map key identifying a group's branches.
func groupKey(rests [][]byteSet) string {
	var b strings.Builder
	for _, r := range rests {
		b.WriteByte(byte(len(r)))
		b.WriteByte(byte(len(r) >> 8))
		for i := range r {
			for _, w := range r[i] {
				for k := 0; k < 64; k += 8 {
					b.WriteByte(byte(w >> k))
				}
			}
		}
	}
	return b.String()
}

// expandAlt returns the branches of re in leftmost-first order, each a
// sequence of byte sets, or false if re is not made of what altScanner
// takes or has more than maxAltBranches branches (the bound is checked
// at every step, so nothing grows past it).
func expandAlt(re *syntax.Regexp) ([][]byteSet, bool) {
	switch re.Op {
	case syntax.OpCapture:
		return expandAlt(re.Sub[0])
	case syntax.OpEmptyMatch:
		return [][]byteSet{nil}, true
	case syntax.OpLiteral:
		return concatEach(len(re.Rune), func(i int) ([][]byteSet, bool) {
			return runeBranches(re.Rune[i], re.Flags&syntax.FoldCase != 0)
		})
	case syntax.OpCharClass:
		var set byteSet
		for i := 0; i+1 < len(re.Rune); i += 2 {
			if re.Rune[i+1] >= utf8.RuneSelf {
				return nil, false
			}
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				set.add(byte(r))
			}
		}
		if set == (byteSet{}) {
			return nil, false // matches nothing: not worth a path
		}
		return [][]byteSet{{set}}, true
	case syntax.OpConcat:
		return concatEach(len(re.Sub), func(i int) ([][]byteSet, bool) { return expandAlt(re.Sub[i]) })
	case syntax.OpAlternate:
		var out [][]byteSet
		for _, sub := range re.Sub {
			sb, ok := expandAlt(sub)
			if !ok || len(out)+len(sb) > maxAltBranches {
				return nil, false
			}
			out = append(out, sb...)
		}
		return out, true
	case syntax.OpQuest:
		sb, ok := expandAlt(re.Sub[0])
		if !ok || len(sb)+1 > maxAltBranches {
			return nil, false
		}
		if re.Flags&syntax.NonGreedy != 0 {
			return append([][]byteSet{nil}, sb...), true
		}
		return append(sb, nil), true
	}
	return nil, false
}

// concatEach returns the branches of n parts one after the other, part(i)
// giving the i-th part's, or false when a part has none it can give or
// there would be more than maxAltBranches.
func concatEach(n int, part func(i int) ([][]byteSet, bool)) ([][]byteSet, bool) {
	out := [][]byteSet{nil}
	for i := 0; i < n; i++ {
		b, ok := part(i)
		if !ok {
			return nil, false
		}
		if out = concatBranches(out, b); out == nil {
			return nil, false
		}
	}
	return out, true
}

// concatBranches returns every branch of x followed by every branch of y,
// in leftmost-first order, or nil past maxAltBranches.
func concatBranches(x, y [][]byteSet) [][]byteSet {
	if len(x)*len(y) > maxAltBranches {
		return nil
	}
	out := make([][]byteSet, 0, len(x)*len(y))
	for _, a := range x {
		for _, b := range y {
			out = append(out, append(a[:len(a):len(a)], b...))
		}
	}
	return out
}

// runeBranches returns the branches of one rune of a literal: an ASCII
// rune and its ASCII folds are one byte set; each non-ASCII rune (the
// rune itself or a fold) is a branch of its UTF-8 bytes. Their order does
// not matter: they are different runes, and no rune's bytes begin
// another's. U+FFFD is refused: regexp matches it on invalid bytes.
func runeBranches(r rune, fold bool) ([][]byteSet, bool) {
	runes := []rune{r}
	if fold {
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			runes = append(runes, f)
		}
	}
	var ascii byteSet
	var out [][]byteSet
	for _, r := range runes {
		if r < utf8.RuneSelf {
			ascii.add(byte(r))
			continue
		}
		if r == utf8.RuneError || !utf8.ValidRune(r) {
			return nil, false
		}
		var buf [utf8.UTFMax]byte
		n := utf8.EncodeRune(buf[:], r)
		seq := make([]byteSet, n)
		for i := 0; i < n; i++ {
			seq[i].add(buf[i])
		}
		out = append(out, seq)
	}
	if ascii != (byteSet{}) {
		out = append([][]byteSet{{ascii}}, out...)
	}
	return out, true
}
