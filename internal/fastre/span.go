package fastre

import (
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A span is a part of a pattern that holds no capture group and matches
// ASCII text and literal runes beyond it, such as grok's %{IPV4},
// %{HTTPDATE} or the month names of %{MONTH} (German ones, März, among
// them): a deterministic automaton (DFA) over bytes recognises it in one
// instruction, where the backtracker would run one instruction per
// alternative, optional part and counted copy (about twenty for an IPv4
// address, forty for a date).
//
// A DFA only answers whether a given text is in the span's language; it
// does not know which of several possible lengths regexp's leftmost-first
// order would pick. It is therefore used only where a single length can
// lead to a match: when what follows the span cannot start with any byte the
// span can consume (its alphabet), a match of the whole must end the span
// exactly at the end of the run of alphabet bytes, since at any earlier end
// the rest fails at once and the span cannot consume past the run. The span
// then scans the run, walking the DFA, and succeeds if the run is in its
// language. Every other way of matching the span ends somewhere the rest
// fails, and, with no capture inside, every way of matching the same text
// leaves the same state, so the match and its captures are regexp's.
// Compile checks this condition on the finished program (first sets) and
// otherwise runs the span's ordinary instructions, which it always emits.
//
// \b and \B inside a span are part of the DFA: a state also knows whether
// the byte before was a word character, and acceptance at the end of the run
// looks at the byte after it.

// maxSpanTable bounds the transition table of one span's DFA (states
// times byte classes, 128 KB); a larger one is not built and the span runs
// as ordinary instructions. The largest of go-grok's library needs fewer
// than 5,000 entries. maxSpanNFA bounds the automaton it is built from
// (counted repetitions are expanded into copies).
const (
	maxSpanTable = 1 << 16
	maxSpanNFA   = 4096
)

// dfa is the automaton of an active span. State 0 is dead (no text with
// this prefix is in the language).
type dfa struct {
	// cls maps a byte to its equivalence class; 0 means the byte is not
	// in the span's alphabet, where the run stops.
	cls   [256]uint8
	ncls  int      // number of classes, including 0
	trans []uint16 // trans[state*ncls+class] is the next state
	// start[w] is the start state when the byte before the span is (1) or
	// is not (0) an ASCII word character.
	start [2]uint16
	// accept[state] bit w is set if the run may end in state when the
	// byte after it is (bit 1) or is not (bit 0) a word character.
	accept []uint8
}

// run matches the span at pos: it walks the DFA over the run of alphabet
// bytes and returns the end of the run and whether the run is in the
// span's language.
func (d *dfa) run(s string, pos int) (int, bool) {
	st := d.start[0]
	if pos > 0 && isWordByte(s[pos-1]) {
		st = d.start[1]
	}
	p := pos
	for p < len(s) {
		c := d.cls[s[p]]
		if c == 0 {
			break
		}
		st = d.trans[int(st)*d.ncls+int(c)]
		if st == 0 {
			return p, false
		}
		p++
	}
	w := uint8(1)
	if p < len(s) && isWordByte(s[p]) {
		w = 2
	}
	return p, d.accept[st]&w != 0
}

// spannable reports whether re holds no capture and matches only ASCII
// bytes and literal runes beyond ASCII (runeBytes), with no anchor but \b and \B, so that a DFA can stand for it.
func spannable(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpEmptyMatch, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return true
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if runeBytes(r, re.Flags&syntax.FoldCase != 0) == nil {
				return false
			}
		}
		return true
	case syntax.OpCharClass:
		return len(re.Rune) > 0 && highRunes(re.Rune) != nil
	case syntax.OpConcat, syntax.OpAlternate, syntax.OpQuest, syntax.OpStar, syntax.OpPlus, syntax.OpRepeat:
		for _, sub := range re.Sub {
			if !spannable(sub) {
				return false
			}
		}
		return true
	}
	return false
}

// runeBytes returns the sets of bytes that the UTF-8 encoding of r
// matches, one per byte, or nil if r cannot be part of a span. An ASCII
// rune is one byte (its fold orbit when fold is set). A rune beyond ASCII,
// such as the ä of a German month name, is the bytes of its encoding: in
// any text those bytes in a row are that rune, so the DFA over bytes and
// regexp over runes agree. A folded rune beyond ASCII, and U+FFFD (which
// regexp matches on any invalid byte), are not spanned.
func runeBytes(r rune, fold bool) []*[256]bool {
	if r < utf8.RuneSelf {
		if set := asciiSet(r, fold); set != nil {
			return []*[256]bool{set}
		}
		return nil
	}
	if fold || r == utf8.RuneError || !utf8.ValidRune(r) {
		return nil
	}
	var buf [utf8.UTFMax]byte
	n := utf8.EncodeRune(buf[:], r)
	sets := make([]*[256]bool, n)
	for i, b := range buf[:n] {
		sets[i] = new([256]bool)
		sets[i][b] = true
	}
	return sets
}

// maxSpanHighRunes bounds the runes beyond ASCII of a class in a span:
// each is a path of its own in the automaton.
const maxSpanHighRunes = 16

// highRunes returns the runes beyond ASCII of a class given as lo, hi
// pairs (an empty, non-nil slice when there are none), or nil when they
// are too many or one cannot be spanned (runeBytes).
func highRunes(ranges []rune) []rune {
	out := []rune{}
	for i := 0; i+1 < len(ranges); i += 2 {
		for r := max(ranges[i], utf8.RuneSelf); r <= ranges[i+1]; r++ {
			if len(out) == maxSpanHighRunes || runeBytes(r, false) == nil {
				return nil
			}
			out = append(out, r)
		}
	}
	return out
}

// asciiSet returns the bytes r matches (its fold orbit when fold is set),
// or nil if any of them is not ASCII.
func asciiSet(r rune, fold bool) *[256]bool {
	if r >= utf8.RuneSelf {
		return nil
	}
	var set [256]bool
	set[r] = true
	if fold {
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			if f >= utf8.RuneSelf {
				return nil
			}
			set[f] = true
		}
	}
	return &set
}

// nfa state kinds.
const (
	nByte   = iota // consume a byte of set, go to out
	nEps           // go to every state of outs
	nAssert        // if assertion arg holds, go to out
	nMatch
)

type nstate struct {
	kind int
	set  *[256]bool
	arg  int
	out  int
	outs []int
}

type nfaBuilder struct {
	states  []nstate
	tooBig  bool
	asserts bool
}

func (b *nfaBuilder) add(s nstate) int {
	if len(b.states) >= maxSpanNFA {
		b.tooBig = true
	}
	b.states = append(b.states, s)
	return len(b.states) - 1
}

// build adds the states of re, continuing at next, and returns its start.
// Only the language matters here, not the order of choices.
func (b *nfaBuilder) build(re *syntax.Regexp, next int) int {
	if b.tooBig {
		return next
	}
	switch re.Op {
	case syntax.OpEmptyMatch:
		return next
	case syntax.OpLiteral:
		for i := len(re.Rune) - 1; i >= 0; i-- {
			sets := runeBytes(re.Rune[i], re.Flags&syntax.FoldCase != 0)
			for j := len(sets) - 1; j >= 0; j-- {
				next = b.add(nstate{kind: nByte, set: sets[j], out: next})
			}
		}
		return next
	case syntax.OpCharClass:
		var set [256]bool
		for i := 0; i+1 < len(re.Rune); i += 2 {
			for r := re.Rune[i]; r <= min(re.Rune[i+1], utf8.RuneSelf-1); r++ {
				set[r] = true
			}
		}
		ascii := b.add(nstate{kind: nByte, set: &set, out: next})
		high := highRunes(re.Rune)
		if len(high) == 0 {
			return ascii
		}
		// [aä]: the ASCII bytes, or the bytes of one of the other runes.
		outs := []int{ascii}
		for _, r := range high {
			start := next
			sets := runeBytes(r, false)
			for j := len(sets) - 1; j >= 0; j-- {
				start = b.add(nstate{kind: nByte, set: sets[j], out: start})
			}
			outs = append(outs, start)
		}
		return b.add(nstate{kind: nEps, outs: outs})
	case syntax.OpWordBoundary:
		b.asserts = true
		return b.add(nstate{kind: nAssert, arg: assertWordBoundary, out: next})
	case syntax.OpNoWordBoundary:
		b.asserts = true
		return b.add(nstate{kind: nAssert, arg: assertNoWordBoundary, out: next})
	case syntax.OpConcat:
		for i := len(re.Sub) - 1; i >= 0; i-- {
			next = b.build(re.Sub[i], next)
		}
		return next
	case syntax.OpAlternate:
		e := b.add(nstate{kind: nEps})
		outs := make([]int, len(re.Sub))
		for i, sub := range re.Sub {
			outs[i] = b.build(sub, next)
		}
		b.states[e].outs = outs
		return e
	case syntax.OpQuest:
		return b.repeat(re.Sub[0], 0, 1, next)
	case syntax.OpStar:
		return b.repeat(re.Sub[0], 0, -1, next)
	case syntax.OpPlus:
		return b.repeat(re.Sub[0], 1, -1, next)
	case syntax.OpRepeat:
		return b.repeat(re.Sub[0], re.Min, re.Max, next)
	}
	// spannable admits nothing else.
	b.tooBig = true
	return next
}

// repeat adds sub{min,max} (max < 0: unbounded) continuing at next.
func (b *nfaBuilder) repeat(sub *syntax.Regexp, min, max, next int) int {
	tail := next
	if max < 0 {
		loop := b.add(nstate{kind: nEps})
		body := b.build(sub, loop)
		b.states[loop].outs = []int{body, next}
		tail = loop
	} else {
		for i := min; i < max && !b.tooBig; i++ {
			tail = b.add(nstate{kind: nEps, outs: []int{b.build(sub, tail), next}})
		}
	}
	for i := 0; i < min && !b.tooBig; i++ {
		tail = b.build(sub, tail)
	}
	return tail
}

// buildDFA returns the DFA of re, or nil if re is too large for one.
func buildDFA(re *syntax.Regexp) *dfa {
	b := &nfaBuilder{}
	match := b.add(nstate{kind: nMatch})
	start := b.build(re, match)
	if b.tooBig {
		return nil
	}
	d := &dfa{}
	// Byte classes: bytes that every set treats alike (and, with
	// assertions, of the same wordness) share a class; bytes in no set
	// are class 0. The partition is refined set by set.
	var part [256]int // 0: in no set so far
	nparts := 1
	refine := func(in func(c int) bool) {
		split := map[[2]int]int{}
		for c := range part {
			if !in(c) {
				continue
			}
			k := [2]int{part[c], 1}
			id, ok := split[k]
			if !ok {
				id = nparts
				nparts++
				split[k] = id
			}
			part[c] = id
		}
	}
	for _, st := range b.states {
		if st.kind == nByte {
			refine(func(c int) bool { return st.set[c] })
		}
	}
	if b.asserts {
		refine(func(c int) bool { return part[c] != 0 && isWordByte(byte(c)) })
	}
	ids := map[int]uint8{}
	rep := []byte{0} // a byte of each class
	for c, pt := range part {
		if pt == 0 {
			continue
		}
		id, ok := ids[pt]
		if !ok {
			if len(rep) == 256 {
				return nil
			}
			id = uint8(len(rep))
			ids[pt] = id
			rep = append(rep, byte(c))
		}
		d.cls[c] = id
	}
	d.ncls = len(rep)

	// Subset construction. A DFA state is the set of NFA states reached
	// (before following empty moves) and whether the last byte was a word
	// character; empty moves are followed when the next byte, which
	// decides the assertions, is known.
	type dstate struct {
		set  []int
		word bool
	}
	var states []dstate
	index := map[string]uint16{}
	intern := func(set []int, word bool) (uint16, bool) {
		if len(set) == 0 {
			return 0, true
		}
		if !b.asserts {
			word = false
		}
		slices.Sort(set)
		set = slices.Compact(set)
		var key strings.Builder
		for _, s := range set {
			key.WriteString(strconv.Itoa(s))
			key.WriteByte(',')
		}
		if word {
			key.WriteByte('w')
		}
		k := key.String()
		if id, ok := index[k]; ok {
			return id, true
		}
		if (len(states)+1)*d.ncls > maxSpanTable {
			return 0, false
		}
		id := uint16(len(states))
		index[k] = id
		states = append(states, dstate{set: set, word: word})
		return id, true
	}
	states = append(states, dstate{}) // dead
	d.trans = make([]uint16, d.ncls)  // its row: no way out
	d.accept = []uint8{0}
	var ok bool
	if d.start[0], ok = intern([]int{start}, false); !ok {
		return nil
	}
	if d.start[1], ok = intern([]int{start}, true); !ok {
		return nil
	}
	// closure follows empty moves from set, given the wordness of the
	// bytes before and after the position. seen marks the states met in
	// the current call with its number.
	seen := make([]uint32, len(b.states))
	stamp := uint32(0)
	var work []int
	closure := func(set []int, before, after bool) []int {
		stamp++
		var out []int
		work = append(work[:0], set...)
		for len(work) > 0 {
			s := work[len(work)-1]
			work = work[:len(work)-1]
			if seen[s] == stamp {
				continue
			}
			seen[s] = stamp
			st := &b.states[s]
			switch st.kind {
			case nEps:
				work = append(work, st.outs...)
			case nAssert:
				if (before != after) == (st.arg == assertWordBoundary) {
					work = append(work, st.out)
				}
			default:
				out = append(out, s)
			}
		}
		return out
	}
	for i := 1; i < len(states); i++ {
		st := states[i]
		row := make([]uint16, d.ncls)
		var acc uint8
		var cl [2][]int // closures before a non-word and a word byte
		for w, after := range []bool{false, true} {
			if w == 1 && !b.asserts {
				cl[1] = cl[0]
				acc |= acc << 1
				break
			}
			cl[w] = closure(st.set, st.word, after)
			for _, s := range cl[w] {
				if b.states[s].kind == nMatch {
					acc |= 1 << w
				}
			}
		}
		for c := 1; c < d.ncls; c++ {
			by := rep[c]
			w := 0
			if isWordByte(by) {
				w = 1
			}
			var next []int
			for _, s := range cl[w] {
				if ns := &b.states[s]; ns.kind == nByte && ns.set[by] {
					next = append(next, ns.out)
				}
			}
			id, ok := intern(next, w == 1)
			if !ok {
				return nil
			}
			row[c] = id
		}
		d.trans = append(d.trans, row...)
		d.accept = append(d.accept, acc)
	}
	return d
}

// disjointAlphabet reports whether no byte that re can consume is in f.
func disjointAlphabet(re *syntax.Regexp, f *[256]bool) bool {
	switch re.Op {
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			for _, set := range runeBytes(r, re.Flags&syntax.FoldCase != 0) {
				for b, in := range set {
					if in && f[b] {
						return false
					}
				}
			}
		}
	case syntax.OpCharClass:
		for i := 0; i+1 < len(re.Rune); i += 2 {
			for r := re.Rune[i]; r <= min(re.Rune[i+1], utf8.RuneSelf-1); r++ {
				if f[r] {
					return false
				}
			}
		}
		for _, r := range highRunes(re.Rune) {
			for _, set := range runeBytes(r, false) {
				for b, in := range set {
					if in && f[b] {
						return false
					}
				}
			}
		}
	default:
		for _, sub := range re.Sub {
			if !disjointAlphabet(sub, f) {
				return false
			}
		}
	}
	return true
}
