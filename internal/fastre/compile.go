// Package fastre is a fast matcher for the subset of regular expressions
// that log-parsing patterns use, such as the Apache access-log pattern
// `^(?:(\S+)\s+(\S+)\s+...\[([\w:/]+\s[+\-]\d{4})\]\s+"(\S+)\s+(\S+)\s*(\S*)"...)`.
//
// Its only purpose is speed: (*Matcher).MatchIndex returns exactly what
// (*regexp.Regexp).FindStringSubmatchIndex returns for the same pattern, or
// says that it gave up, and the caller then asks regexp. Such patterns are
// not one-pass, so regexp runs its bit-state backtracker or its NFA, which
// cost several microseconds per line; fastre costs a few hundred
// nanoseconds.
//
// # Approach
//
// Compile parses the pattern with regexp/syntax using the flags regexp uses
// (syntax.Perl), so the parse tree, capture numbering and flags are the ones
// regexp sees, and lowers the tree into a small program that a backtracker
// runs in Go's priority order (leftmost-first, as Perl: greedy repetitions
// try the longest count first, lazy ones the shortest, alternatives are
// tried left to right, a capture keeps its last value). For programs whose
// loops cannot match the empty string, the first match found by such a
// backtracker is the match regexp reports: its own backtracker explores the
// same program in the same order (its visited set only prunes states that
// already failed) and its NFA is built to give the same answer.
//
// The speed comes from a few choices:
//   - A repetition of a single character class (\S+, [^"]*, \d{4}, a literal
//     rune) is one instruction that consumes as many runes as it may in a
//     tight loop over a 256-entry table indexed by byte; runes are decoded
//     only at bytes >= 0x80. Backing off is one stack entry that gives back
//     one rune at a time, rather than one choice point per rune.
//   - A repetition followed by something that cannot start with any rune of
//     its class (\S+ followed by \s, [^"]* followed by ") never backs off,
//     since every shorter count would fail at once; it pushes no entry.
//   - A lazy repetition (.*? as grok's %{DATA} writes it) followed by
//     something that can only start with certain bytes (a quote) steps over
//     the other bytes in one loop instead of trying the rest after each
//     rune.
//   - A split does not try, or does not remember, a choice that cannot
//     start with the byte at hand (first sets): the eight IPv6 forms of
//     grok's %{IPORHOST} cost a few steps on an IPv4 address or a name.
//   - A part without capture groups that matches only ASCII text (grok's
//     %{IPV4}, %{HTTPDATE} with its month names, %{NUMBER}), followed by
//     something that cannot start with any of its bytes, is one
//     instruction that walks a DFA over the run of its bytes (a span, see
//     span.go): one step per byte instead of one instruction per
//     alternative, optional group and counted copy.
//   - Literal strings are compared with strings.HasPrefix.
//   - The backtracking stack starts in an array on the Go stack and captures
//     are written into the caller's slice, so a match allocates nothing.
//
// # Semantics kept
//
// Classes match runes as regexp does: a byte >= 0x80 starts a UTF-8
// sequence that is decoded with utf8.DecodeRuneInString, an invalid byte is
// U+FFFD of width one, so \S consumes a whole multi-byte rune and [^"]
// matches any rune but the quote. Case-folded literals become classes of the
// rune's fold orbit, as regexp's compiler does. \b and \B use ASCII word
// characters, as regexp does.
//
// # Limits
//
// The matcher is anchored: Compile refuses a pattern that does not begin with
// the begin-of-text anchor (^ or \A), because MatchIndex only tries a match
// at offset zero. Unbounded repetitions (*, +, {n,}) whose body can match the
// empty string, such as (a*)* or (a|)+, are refused: regexp gives such loops
// special treatment that a plain backtracker does not reproduce. Programs
// larger than maxInst instructions are refused. Every refusal wraps
// errUnsupported; the caller then uses regexp for that pattern.
//
// A backtracker can take exponential time on some pattern and input pairs,
// so MatchIndex counts its steps and gives up past 64 steps per input byte
// plus 1024; the caller then uses regexp for that input. Log patterns on
// their lines stay far below that budget: one step per instruction and per
// byte consumed, plus one per rune given back.
package fastre

import (
	"errors"
	"fmt"
	"regexp/syntax"
	"slices"
	"unicode"
	"unicode/utf8"
)

// errUnsupported is wrapped by every error Compile returns for a valid
// pattern outside the supported subset.
var errUnsupported = errors.New("pattern outside the fastre subset")

// maxInst bounds the size of a program; large counted repetitions of groups
// expand into copies and are better left to regexp. It leaves room for the
// largest grok patterns of go-grok's library (the Cisco ASA, Juniper and
// HAProxy ones, several IPV6 alternations each, a few thousand
// instructions), which run on fastre; the size of a program costs memory at
// compile time, not time per match.
const maxInst = 20000

// Instruction opcodes.
const (
	opClass  uint8 = iota // repetition of a single class: min..max runes
	opLit                 // literal string, compared byte for byte
	opSave                // record the position in capture slot arg
	opSplit               // try next, and on failure alt
	opJmp                 // continue at next
	opAssert              // empty-width assertion arg (see assert*)
	opMatch               // the match ends here
	opSpan                // a capture-free ASCII part recognised by dfa (span.go), else continue at alt
)

// Empty-width assertions.
const (
	assertBeginText = iota
	assertEndText
	assertBeginLine
	assertEndLine
	assertWordBoundary
	assertNoWordBoundary
)

// inst is one instruction of a program.
type inst struct {
	op         uint8
	greedy     bool // opClass: longest count first
	possessive bool // opClass: giving back a rune can never lead to a match
	// follow, for a lazy opClass, holds the bytes at which what follows it
	// can start (1 in tbl: that byte may start a match of the rest); nil
	// if unknown. A lazy repetition takes runes without trying the rest
	// at positions whose byte is not in it, where the rest must fail at
	// once: .*?" scans to the next quote instead of trying the quote after
	// every rune.
	follow *[256]bool
	// firstNext and firstAlt, for a split, hold the bytes at which each
	// choice can start (see first), nil if unknown. A choice that cannot
	// start at the current byte, or at the end of the input, would fail at
	// once: the split does not try it, or does not remember it. This is
	// what keeps alternations such as grok's %{IPORHOST} (eight IPv6 forms
	// before IPv4) cheap.
	firstNext, firstAlt *[256]bool
	// skip, for an unbounded lazy opClass with a follow set, is the byte
	// table of its fast path: the bytes it may step over one at a time
	// (in the class, not in follow). It is set only when that is exact:
	// follow holds no byte >= 0x80, so the scan stops only at ASCII bytes,
	// which are rune boundaries, and the class holds either every rune
	// >= 0x80 (as . does) or none. A byte to step over maps to 1, so that
	// four bytes are tested with one AND, as in a class repetition.
	skip *[256]uint8
	arg  int // opSave: slot; opAssert: assertion
	// pre, when not 0, is a capture slot to set to the position before the
	// instruction runs, as an opSave that continued here would (see
	// fuseSaves). Slot 0 is never saved by an instruction, so 0 means none.
	pre      int
	next     int // the instruction that follows
	alt      int // opSplit: the second choice
	min, max int // opClass: bounds on the count; max < 0 means no bound
	cls      *class
	lit      string
	dfa      *dfa // opSpan
}

// class is a set of runes with a byte table for the fast path.
type class struct {
	// tbl maps a byte to 1 if it is an ASCII rune of the class, to 2 if it
	// is >= 0x80 and the class holds some rune >= 0x80 (the rune must then
	// be decoded), and to 0 otherwise: no rune starting at that byte can
	// match.
	tbl [256]uint8
	// high holds the ranges of the class at or above utf8.RuneSelf, as
	// sorted lo, hi pairs.
	high []rune
	// wordStop, when set, says that every ASCII byte outside the class is
	// below stopBelow or equal to one of the bytes of stopA and stopB
	// (each a byte repeated eight times): the loop of an unbounded greedy
	// repetition then looks for its end eight bytes at a time (see
	// wordStop in match.go). Only classes with few such bytes at or above
	// 0x21 qualify, so that the printable bytes of the class are never
	// flagged: \S and [^"] do, \w and \d do not.
	wordStop     bool
	stopBelow    uint64
	stopA, stopB uint64
}

// Matcher is a compiled pattern. It is read-only and safe for concurrent use.
type Matcher struct {
	prog   []inst
	start  int // the first instruction
	nslots int // 2 * (number of capture groups + 1)
}

// Compile compiles pattern, which must begin with ^ or \A, for MatchIndex.
// It returns an error wrapping errUnsupported if the pattern is valid but
// outside the subset, and the parser's error if it is not valid.
func Compile(pattern string) (*Matcher, error) {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil, fmt.Errorf("parse pattern: %w", err)
	}
	if !anchored(re) {
		return nil, fmt.Errorf("pattern does not begin with ^ or \\A: %w", errUnsupported)
	}
	c := &compiler{}
	// Slot 0 is written by MatchIndex itself, since every match starts at
	// zero.
	if err := c.emit(re); err != nil {
		return nil, err
	}
	c.add(inst{op: opSave, arg: 1})
	c.add(inst{op: opMatch})
	if len(c.prog) > maxInst {
		return nil, fmt.Errorf("program of %d instructions exceeds %d: %w", len(c.prog), maxInst, errUnsupported)
	}
	memo, onPath := map[int]*[256]bool{}, map[int]bool{}
	c.activateSpans(memo, onPath)
	c.threadJumps()
	for i := range c.prog {
		in := &c.prog[i]
		switch {
		case in.op == opClass && in.max != in.min:
			in.possessive = in.greedy && c.cannotFollow(i, memo, onPath)
			if !in.greedy {
				in.follow = c.first(in.next, memo, onPath)
				in.skip = skipTable(in)
			}
		case in.op == opSplit:
			in.firstNext = c.first(in.next, memo, onPath)
			in.firstAlt = c.first(in.alt, memo, onPath)
		}
	}
	start := c.fuseSaves()
	return &Matcher{prog: c.prog, start: start, nslots: 2 * (re.MaxCap() + 1)}, nil
}

// fuseSaves folds each opSave into the instruction it continues at, when
// nothing else continues there: that instruction saves the position first
// (inst.pre), and whatever continued at the opSave continues at it. This
// is the same work in the same order (the undo entry for the slot is
// pushed before anything the instruction pushes) in one step of the
// matcher instead of two: a capture group costs two opSaves, a third of
// the steps of a typical SplitText pattern. The opSaves stay in the
// program, unreached. It returns the first instruction, which moves when
// the program starts with an opSave.
//
// It runs last: the analyses above (first, cannotFollow, spans) walk the
// program as emitted.
func (c *compiler) fuseSaves() int {
	prog := c.prog
	start := 0
	// refs counts the instructions (reached or not) that continue at each
	// pc, and the start. Counting unreached ones only prevents fusions.
	refs := make([]int, len(prog))
	refs[start]++
	for i := range prog {
		in := &prog[i]
		if in.op == opMatch {
			continue
		}
		refs[in.next]++
		if in.op == opSplit || in.op == opSpan {
			refs[in.alt]++
		}
	}
	for i := range prog {
		sv := &prog[i]
		if sv.op != opSave || sv.pre != 0 || refs[i] == 0 {
			continue
		}
		j := sv.next
		if j == i || refs[j] != 1 || prog[j].op == opSave || prog[j].pre != 0 {
			continue
		}
		prog[j].pre = sv.arg
		for k := range prog {
			in := &prog[k]
			if in.op == opMatch {
				continue
			}
			if in.next == i {
				in.next = j
			}
			if (in.op == opSplit || in.op == opSpan) && in.alt == i {
				in.alt = j
			}
		}
		if start == i {
			start = j
		}
		refs[j], refs[i] = refs[i], 0
	}
	return start
}

// NumSlots returns the length of the slice MatchIndex returns on a match:
// two per capture group plus two for the whole match.
func (m *Matcher) NumSlots() int { return m.nslots }

// anchored reports whether every match of re must start at offset zero
// because re begins with the begin-of-text anchor.
func anchored(re *syntax.Regexp) bool {
	for {
		switch re.Op {
		case syntax.OpBeginText:
			return true
		case syntax.OpConcat:
			if len(re.Sub) == 0 {
				return false
			}
			re = re.Sub[0]
		case syntax.OpCapture:
			re = re.Sub[0]
		default:
			return false
		}
	}
}

type compiler struct {
	prog []inst
	// spans are the span candidates emitted, in program order (an
	// enclosing span comes before those inside its instructions).
	spans []spanCand
}

// spanCand is an opSpan instruction at pc and the part it stands for,
// whose ordinary instructions run from pc+1 up to end.
type spanCand struct {
	pc, end int
	re      *syntax.Regexp
}

// add appends an instruction whose successor is, by default, the next one
// appended, and returns its index.
func (c *compiler) add(in inst) int {
	in.next = len(c.prog) + 1
	c.prog = append(c.prog, in)
	return len(c.prog) - 1
}

// emit appends the program for re. Every instruction it emits continues at
// the index that follows the last one, unless patched. A capture-free
// ASCII part that is costly to run becomes a span candidate.
func (c *compiler) emit(re *syntax.Regexp) error {
	if spannable(re) && spanWorth(re) {
		return c.span(re)
	}
	return c.emitNode(re)
}

// spanWorth reports whether running re as ordinary instructions takes a
// choice (alternatives, optional or repeated groups, assertions) or more
// than four instructions. Other parts, such as \S+\s, run no faster on a
// DFA than as class repetitions.
func spanWorth(re *syntax.Regexp) bool {
	items := []*syntax.Regexp{re}
	if re.Op == syntax.OpConcat {
		items = re.Sub
	}
	if len(items) > 4 {
		return true
	}
	for _, it := range items {
		switch it.Op {
		case syntax.OpLiteral, syntax.OpCharClass, syntax.OpEmptyMatch:
			continue
		case syntax.OpQuest, syntax.OpStar, syntax.OpPlus, syntax.OpRepeat:
			if singleRune(it.Sub[0]) != nil {
				continue
			}
		}
		return true
	}
	return false
}

// span emits an opSpan instruction for re followed by re's ordinary
// instructions, which run when the span is not used (see activateSpans).
func (c *compiler) span(re *syntax.Regexp) error {
	pc := c.add(inst{op: opSpan})
	if re.Op == syntax.OpConcat {
		// Its parts, each of which may be a smaller span, used when
		// this one is not.
		for _, sub := range re.Sub {
			if err := c.emit(sub); err != nil {
				return err
			}
		}
	} else if err := c.emitNode(re); err != nil {
		return err
	}
	c.prog[pc].alt = pc + 1
	c.prog[pc].next = len(c.prog)
	c.spans = append(c.spans, spanCand{pc: pc, end: len(c.prog), re: re})
	return nil
}

// emitNode appends the program for re itself; see emit.
func (c *compiler) emitNode(re *syntax.Regexp) error {
	if len(c.prog) > maxInst {
		return fmt.Errorf("program exceeds %d instructions: %w", maxInst, errUnsupported)
	}
	switch re.Op {
	case syntax.OpEmptyMatch:
		return nil
	case syntax.OpLiteral:
		c.literal(re)
		return nil
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		c.add(inst{op: opClass, min: 1, max: 1, greedy: true, cls: classOf(re)})
		return nil
	case syntax.OpBeginText:
		c.add(inst{op: opAssert, arg: assertBeginText})
		return nil
	case syntax.OpEndText:
		c.add(inst{op: opAssert, arg: assertEndText})
		return nil
	case syntax.OpBeginLine:
		c.add(inst{op: opAssert, arg: assertBeginLine})
		return nil
	case syntax.OpEndLine:
		c.add(inst{op: opAssert, arg: assertEndLine})
		return nil
	case syntax.OpWordBoundary:
		c.add(inst{op: opAssert, arg: assertWordBoundary})
		return nil
	case syntax.OpNoWordBoundary:
		c.add(inst{op: opAssert, arg: assertNoWordBoundary})
		return nil
	case syntax.OpCapture:
		c.add(inst{op: opSave, arg: 2 * re.Cap})
		if err := c.emit(re.Sub[0]); err != nil {
			return err
		}
		c.add(inst{op: opSave, arg: 2*re.Cap + 1})
		return nil
	case syntax.OpConcat:
		// Consecutive spannable parts (a date's day, month, year and time
		// with the literals between them) form one span candidate. A
		// concatenation that is spannable as a whole was considered by
		// emit already.
		whole := spannable(re)
		for i := 0; i < len(re.Sub); {
			j := i
			for !whole && j < len(re.Sub) && spannable(re.Sub[j]) {
				j++
			}
			if j-i >= 2 {
				run := &syntax.Regexp{Op: syntax.OpConcat, Flags: re.Flags, Sub: re.Sub[i:j]}
				if err := c.emit(run); err != nil {
					return err
				}
				i = j
				continue
			}
			if err := c.emit(re.Sub[i]); err != nil {
				return err
			}
			i++
		}
		return nil
	case syntax.OpAlternate:
		return c.alternate(re.Sub)
	case syntax.OpQuest, syntax.OpStar, syntax.OpPlus:
		// regexp's Simplify drops a repetition of the empty string and a
		// repetition of the same repetition: do the same.
		sub := re.Sub[0]
		if sub.Op == syntax.OpEmptyMatch {
			return nil
		}
		if sub.Op == re.Op && sub.Flags&syntax.NonGreedy == re.Flags&syntax.NonGreedy {
			return c.emit(sub)
		}
		min, max := 0, -1
		switch re.Op {
		case syntax.OpQuest:
			max = 1
		case syntax.OpPlus:
			min = 1
		}
		return c.repeat(sub, min, max, re.Flags&syntax.NonGreedy == 0)
	case syntax.OpRepeat:
		if re.Min == 0 && re.Max == 0 {
			return nil
		}
		return c.repeat(re.Sub[0], re.Min, re.Max, re.Flags&syntax.NonGreedy == 0)
	default:
		return fmt.Errorf("operator %v: %w", re.Op, errUnsupported)
	}
}

// literal emits a literal string. Runes that are case-folded, or that an
// invalid byte of the input could also match (U+FFFD), become classes, as
// regexp's compiler treats them; the others are compared as UTF-8 bytes,
// which is the same thing for valid runes.
func (c *compiler) literal(re *syntax.Regexp) {
	var buf []byte
	flush := func() {
		if len(buf) > 0 {
			c.add(inst{op: opLit, lit: string(buf)})
			buf = buf[:0]
		}
	}
	for _, r := range re.Rune {
		fold := re.Flags&syntax.FoldCase != 0 && unicode.SimpleFold(r) != r
		if !fold && r != utf8.RuneError && utf8.ValidRune(r) {
			buf = utf8.AppendRune(buf, r)
			continue
		}
		flush()
		c.add(inst{op: opClass, min: 1, max: 1, greedy: true, cls: literalClass(r, fold)})
	}
	flush()
}

// alternate emits a|b|c as a chain of splits, each preferring its left.
func (c *compiler) alternate(subs []*syntax.Regexp) error {
	var jumps []int
	for i, sub := range subs {
		if i == len(subs)-1 {
			if err := c.emit(sub); err != nil {
				return err
			}
			break
		}
		split := c.add(inst{op: opSplit})
		if err := c.emit(sub); err != nil {
			return err
		}
		jumps = append(jumps, c.add(inst{op: opJmp}))
		c.prog[split].alt = len(c.prog)
	}
	for _, j := range jumps {
		c.prog[j].next = len(c.prog)
	}
	return nil
}

// repeat emits sub{min,max} (max < 0: unbounded). A single-rune sub becomes
// one counted class instruction; anything else is expanded the way
// syntax.Simplify expands it, min copies then nested optional copies or a
// loop, so that capture groups behave as they do in regexp.
func (c *compiler) repeat(sub *syntax.Regexp, min, max int, greedy bool) error {
	if cls := singleRune(sub); cls != nil {
		c.add(inst{op: opClass, min: min, max: max, greedy: greedy, cls: cls})
		return nil
	}
	if max < 0 && canBeEmpty(sub) {
		return fmt.Errorf("unbounded repetition of %v, which can match the empty string: %w", sub, errUnsupported)
	}
	// Simplify writes x{n,} as n-1 copies and x+, and x{0,} as x*; a plus
	// loop tries another iteration before leaving, exactly as the copies
	// followed by a star would, so both are emitted as copies then a star.
	for i := 0; i < min; i++ {
		if err := c.emit(sub); err != nil {
			return err
		}
	}
	if max < 0 {
		// loop: split(body, out); body; jmp loop.
		loop := c.add(inst{op: opSplit})
		if err := c.emit(sub); err != nil {
			return err
		}
		j := c.add(inst{op: opJmp})
		c.prog[j].next = loop
		c.preferSplit(loop, loop+1, len(c.prog), greedy)
		return nil
	}
	// x{n,m}: the optional copies are nested, (x(x)?)?, so failing to match
	// one copy skips all later ones: every split exits to the same end.
	var splits []int
	for i := min; i < max; i++ {
		splits = append(splits, c.add(inst{op: opSplit}))
		if err := c.emit(sub); err != nil {
			return err
		}
	}
	for _, s := range splits {
		c.preferSplit(s, s+1, len(c.prog), greedy)
	}
	return nil
}

// preferSplit sets split s to try body first when greedy and out first
// when lazy.
func (c *compiler) preferSplit(s, body, out int, greedy bool) {
	if greedy {
		c.prog[s].next, c.prog[s].alt = body, out
	} else {
		c.prog[s].next, c.prog[s].alt = out, body
	}
}

// singleRune returns the class of re if re always matches exactly one rune.
func singleRune(re *syntax.Regexp) *class {
	switch re.Op {
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return classOf(re)
	case syntax.OpLiteral:
		if len(re.Rune) == 1 {
			return literalClass(re.Rune[0], re.Flags&syntax.FoldCase != 0)
		}
	}
	return nil
}

// canBeEmpty reports whether re can match the empty string.
func canBeEmpty(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpLiteral:
		return len(re.Rune) == 0
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL, syntax.OpNoMatch:
		return false
	case syntax.OpCapture, syntax.OpPlus:
		return canBeEmpty(re.Sub[0])
	case syntax.OpRepeat:
		return re.Min == 0 || canBeEmpty(re.Sub[0])
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			if !canBeEmpty(sub) {
				return false
			}
		}
		return true
	case syntax.OpAlternate:
		for _, sub := range re.Sub {
			if canBeEmpty(sub) {
				return true
			}
		}
		return false
	default: // empty match, assertions, star, quest
		return true
	}
}

// classOf builds the class of a char class or any-char node.
func classOf(re *syntax.Regexp) *class {
	switch re.Op {
	case syntax.OpAnyChar:
		return newClass([]rune{0, unicode.MaxRune})
	case syntax.OpAnyCharNotNL:
		return newClass([]rune{0, '\n' - 1, '\n' + 1, unicode.MaxRune})
	}
	return newClass(re.Rune)
}

// literalClass builds the class matching r, or any rune of its simple
// case-folding orbit when fold is set.
func literalClass(r rune, fold bool) *class {
	runes := []rune{r}
	if fold {
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			runes = append(runes, f)
		}
	}
	var ranges []rune
	for _, x := range runes {
		ranges = append(ranges, x, x)
	}
	return newClass(ranges)
}

// newClass builds a class from lo, hi pairs, which need not be sorted.
func newClass(ranges []rune) *class {
	cl := &class{}
	hasHigh := false
	for i := 0; i+1 < len(ranges); i += 2 {
		lo, hi := ranges[i], ranges[i+1]
		for r := lo; r <= hi && r < utf8.RuneSelf; r++ {
			cl.tbl[r] = 1
		}
		if hi >= utf8.RuneSelf {
			hasHigh = true
			cl.high = append(cl.high, max(lo, utf8.RuneSelf), hi)
		}
	}
	// Sort the high ranges (few; insertion sort) for the binary search.
	for i := 2; i < len(cl.high); i += 2 {
		for j := i; j >= 2 && cl.high[j] < cl.high[j-2]; j -= 2 {
			cl.high[j], cl.high[j-2] = cl.high[j-2], cl.high[j]
			cl.high[j+1], cl.high[j-1] = cl.high[j-1], cl.high[j+1]
		}
	}
	if hasHigh {
		for b := utf8.RuneSelf; b < 256; b++ {
			cl.tbl[b] = 2
		}
	}
	cl.setWordStop()
	return cl
}

// setWordStop sets the word-at-a-time stop test of the class, if it has one
// (see class.wordStop).
func (cl *class) setWordStop() {
	below := 0
	var others []byte
	for b := 0; b < utf8.RuneSelf; b++ {
		if cl.tbl[b] != 0 {
			continue
		}
		if b <= 0x20 {
			below = b + 1
		} else {
			others = append(others, byte(b))
		}
	}
	if len(others) > 2 {
		return
	}
	// A missing stop byte is filled by one the test flags anyway: the
	// other stop byte, or 0 (below the threshold, or else a control
	// character the byte loop steps over). It must be ASCII: for an ASCII
	// byte x, (x ^ c) - 1 has bit 7 set only when x == c.
	switch len(others) {
	case 0:
		others = []byte{0, 0}
	case 1:
		others = append(others, others[0])
	}
	cl.wordStop = true
	cl.stopBelow = lsb8 * uint64(below)
	cl.stopA = lsb8 * uint64(others[0])
	cl.stopB = lsb8 * uint64(others[1])
}

// hasHigh reports whether r (>= utf8.RuneSelf) is in the class.
func (cl *class) hasHigh(r rune) bool {
	h := cl.high
	if len(h) <= 8 {
		for i := 0; i < len(h); i += 2 {
			if r >= h[i] && r <= h[i+1] {
				return true
			}
		}
		return false
	}
	lo, hi := 0, len(h)/2
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		switch {
		case r < h[2*m]:
			hi = m
		case r > h[2*m+1]:
			lo = m + 1
		default:
			return true
		}
	}
	return false
}

// has reports whether r is in the class.
func (cl *class) has(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 0 && cl.tbl[r] == 1
	}
	return cl.hasHigh(r)
}

// disjoint reports whether no rune is in both classes.
func (cl *class) disjoint(o *class) bool {
	for b := 0; b < utf8.RuneSelf; b++ {
		if cl.tbl[b] == 1 && o.tbl[b] == 1 {
			return false
		}
	}
	for i := 0; i < len(cl.high); i += 2 {
		for j := 0; j < len(o.high); j += 2 {
			if cl.high[i] <= o.high[j+1] && o.high[j] <= cl.high[i+1] {
				return false
			}
		}
	}
	return true
}

// cannotFollow reports whether, for the class repetition at pc, the
// instructions after it must fail at any position holding a rune of its
// class. Giving a rune back then never helps, so the repetition need not
// keep a backtracking entry. It looks through capture saves, which consume
// nothing, and stops at anything else but a class needing at least one rune
// or a literal.
func (c *compiler) cannotFollow(pc int, memo map[int]*[256]bool, onPath map[int]bool) bool {
	cl := c.prog[pc].cls
	next := c.prog[pc].next
	// What follows must start with a byte outside the class: every rune
	// given back would start with a byte of the class (ASCII, or >= 0x80
	// for a class holding other runes).
	if f := c.first(next, memo, onPath); f != nil {
		disjoint := true
		for b, v := range cl.tbl {
			if v != 0 && f[b] {
				disjoint = false
				break
			}
		}
		if disjoint {
			return true
		}
	}
	for steps := 0; steps < len(c.prog); steps++ {
		in := &c.prog[next]
		switch in.op {
		case opSave, opJmp:
			next = in.next
			continue
		case opClass:
			return in.min >= 1 && cl.disjoint(in.cls)
		case opLit:
			r, _ := utf8.DecodeRuneInString(in.lit)
			return !cl.has(r)
		}
		return false
	}
	return false
}

// first returns the bytes at which a match of the program from pc can
// start, or nil if it may match without consuming a byte or that is not
// known. A non-nil set therefore also says that the program from pc must
// consume at least one byte. It looks through saves, jumps and assertions
// (which only restrict), takes a literal's first byte and the table of a
// class needing at least one rune (any byte >= 0x80 counting when the class
// holds runes beyond ASCII), and unites both sides of a split and of an
// optional class. memo caches the answers; a pc met again on the same path
// (possible only through a loop) gives nil, which is always safe.
func (c *compiler) first(pc int, memo map[int]*[256]bool, onPath map[int]bool) *[256]bool {
	if f, ok := memo[pc]; ok {
		return f
	}
	if onPath[pc] {
		return nil
	}
	onPath[pc] = true
	defer delete(onPath, pc)
	in := &c.prog[pc]
	var f *[256]bool
	switch in.op {
	case opSave, opJmp, opAssert:
		f = c.first(in.next, memo, onPath)
	case opLit:
		f = new([256]bool)
		f[in.lit[0]] = true
	case opClass:
		f = new([256]bool)
		for b, v := range in.cls.tbl {
			f[b] = v != 0
		}
		if in.min == 0 {
			f = union(f, c.first(in.next, memo, onPath))
		}
	case opSplit:
		f = union(c.first(in.next, memo, onPath), c.first(in.alt, memo, onPath))
	case opSpan:
		// The span's language is that of its ordinary instructions.
		f = c.first(in.alt, memo, onPath)
	}
	memo[pc] = f
	return f
}

// union returns the union of two sets, nil if either is.
func union(a, b *[256]bool) *[256]bool {
	if a == nil || b == nil {
		return nil
	}
	u := *a
	for i, v := range b {
		u[i] = u[i] || v
	}
	return &u
}

// skipTable builds inst.skip for a lazy class repetition, or returns nil.
func skipTable(in *inst) *[256]uint8 {
	if in.follow == nil || in.max >= 0 {
		return nil
	}
	for b := utf8.RuneSelf; b < 256; b++ {
		if in.follow[b] {
			return nil
		}
	}
	allHigh := len(in.cls.high) == 2 && in.cls.high[0] == utf8.RuneSelf && in.cls.high[1] == unicode.MaxRune
	if len(in.cls.high) > 0 && !allHigh {
		return nil
	}
	var t [256]uint8
	for b := range t {
		if !in.follow[b] && (in.cls.tbl[b] == 1 || b >= utf8.RuneSelf && allHigh) {
			t[b] = 1
		}
	}
	return &t
}

// threadJumps makes every instruction that continues at a jump continue at
// the jump's target instead, so that the matcher does not execute the
// jumps that end the alternatives of an alternation (a third of grok's
// alternations' steps). The jumps stay in the program, unreached. Chains
// are followed to their end; a jump never targets itself, since a loop's
// jump targets its split.
func (c *compiler) threadJumps() {
	target := func(pc int) int {
		for n := 0; c.prog[pc].op == opJmp && n < len(c.prog); n++ {
			pc = c.prog[pc].next
		}
		return pc
	}
	for i := range c.prog {
		in := &c.prog[i]
		if in.op == opMatch {
			continue
		}
		in.next = target(in.next)
		if in.op == opSplit || in.op == opSpan {
			in.alt = target(in.alt)
		}
	}
}

// activateSpans decides, outermost first, which span candidates run their
// DFA: those followed by something that cannot start with a byte of the
// span's alphabet (see span.go), whose DFA is small enough. The others,
// and those inside an active span's ordinary instructions (never reached),
// become jumps to their ordinary instructions.
func (c *compiler) activateSpans(memo map[int]*[256]bool, onPath map[int]bool) {
	slices.SortFunc(c.spans, func(a, b spanCand) int { return a.pc - b.pc })
	inside := -1 // end of the active span being walked
	for _, sc := range c.spans {
		in := &c.prog[sc.pc]
		if sc.pc >= inside {
			if f := c.first(in.next, memo, onPath); f != nil && disjointAlphabet(sc.re, f) {
				if d := buildDFA(sc.re); d != nil {
					in.dfa = d
					inside = sc.end
					continue
				}
			}
		}
		in.op, in.next = opJmp, in.alt
	}
}
