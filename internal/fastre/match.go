package fastre

import (
	"math/bits"
	"strings"
	"unicode/utf8"
)

// Kinds of backtracking entries.
const (
	kBranch  = iota // resume at pc, pos
	kRestore        // put value pos back into capture slot pc
	kGreedy         // class repetition at pc ended at pos: give back one rune, not below lo
	kLazy           // class repetition at pc stopped at pos after n runes: take one more
)

// entry is one backtracking entry; the meaning of its fields depends on
// kind.
type entry struct {
	kind int32
	pc   int32
	pos  int
	n    int // kGreedy: lowest position; kLazy: runes taken
}

// stackSize is the number of entries kept in a Scratch, which MatchIndex
// keeps on the Go stack and zeroes on every call, so it is kept small: the
// Apache patterns need about fifteen, grok's %{COMBINEDAPACHELOG} about
// thirty (its alternatives that matched stay on the stack until the end).
// Deeper matches grow the stack on the heap.
const stackSize = 64

// MatchIndex matches s against the anchored pattern. On a match it returns
// the same indexes as (*regexp.Regexp).FindStringSubmatchIndex, written into
// dst if its capacity allows (no allocation then), and ok true. Without a
// match it returns nil, false. If the match took more steps than its budget
// it returns gaveUp true, and the caller must ask regexp instead.
func (m *Matcher) MatchIndex(s string, dst []int) (idx []int, ok bool, gaveUp bool) {
	var sc Scratch
	return m.MatchIndexScratch(s, dst, &sc)
}

// Scratch is the backtracking space of a match. MatchIndex clears a new
// one (2 KB) on every call, about a tenth of the time of matching an
// access-log line; a caller that matches many lines in a row passes one
// Scratch to MatchIndexScratch for all of them instead. Its contents
// between calls do not matter. It must not be used by two matches at
// once.
type Scratch struct {
	buf [stackSize]entry
}

// MatchIndexScratch is MatchIndex with its backtracking space in sc,
// which it may leave in any state.
func (m *Matcher) MatchIndexScratch(s string, dst []int, sc *Scratch) (idx []int, ok bool, gaveUp bool) {
	if cap(dst) < m.nslots {
		dst = make([]int, m.nslots)
	}
	dst = dst[:m.nslots]
	for i := range dst {
		dst[i] = -1
	}
	dst[0] = 0
	// Entries are written before they are read: what the last match left
	// in sc is never looked at.
	stack := sc.buf[:0]
	budget := 64*len(s) + 1024
	prog := m.prog
	pc, pos := m.start, 0
	for {
		budget--
		if budget < 0 {
			return nil, false, true
		}
		in := &prog[pc]
		if in.pre != 0 {
			// A fused opSave (see fuseSaves), exactly as below.
			if len(stack) > 0 {
				stack = append(stack, entry{kind: kRestore, pc: int32(in.pre), pos: dst[in.pre]})
			}
			dst[in.pre] = pos
		}
		failed := false
		switch in.op {
		case opClass:
			cl := in.cls
			// Take the required runes one at a time, an ASCII byte of the
			// class without a call.
			p := pos
			for n := 0; n < in.min; n++ {
				if p < len(s) && cl.tbl[s[p]] == 1 {
					p++
					continue
				}
				w := step(cl, s, p)
				if w == 0 {
					failed = true
					break
				}
				p += w
			}
			if failed {
				break
			}
			lo := p
			if in.max == in.min {
				pos = p
				pc = in.next
				break
			}
			if !in.greedy {
				n := in.min
				if in.follow != nil {
					p, n = lazySkip(in, s, p, n)
					budget -= p - lo
				}
				stack = append(stack, entry{kind: kLazy, pc: int32(pc), pos: p, n: n})
				pos = p
				pc = in.next
				break
			}
			if in.max < 0 {
				// The hot loop: ASCII bytes of the class by table, four
				// at a time while they last.
				tbl := &cl.tbl
				// Most runs of a log pattern end right after their
				// required runes (\s+ over one space, a one-byte field
				// such as -): a byte outside the class there ends the run
				// before the word and four-byte loops and their byte
				// loop are set up, which is what the loop below would
				// find after them.
				for p < len(s) && tbl[s[p]] != 0 {
					if cl.wordStop {
						// It stops at the first byte the table does not
						// call 1 (or a control character of the class), or
						// fewer than eight bytes before the end.
						if p+8 > len(s) {
							// The byte loop below finishes.
						} else if m := wordMask(cl, le64(s[p:])); m != 0 {
							p += bits.TrailingZeros64(m) >> 3
						} else {
							p = wordStop(cl, s, p+8)
						}
					} else {
						for p+4 <= len(s) && tbl[s[p]]&tbl[s[p+1]]&tbl[s[p+2]]&tbl[s[p+3]] == 1 {
							p += 4
						}
					}
					for p < len(s) && tbl[s[p]] == 1 {
						p++
					}
					if p == len(s) || tbl[s[p]] == 0 {
						break
					}
					r, w := utf8.DecodeRuneInString(s[p:])
					if !cl.hasHigh(r) {
						break
					}
					p += w
				}
			} else {
				for n := in.min; n < in.max; n++ {
					w := step(cl, s, p)
					if w == 0 {
						break
					}
					p += w
				}
			}
			budget -= p - lo
			if p > lo && !in.possessive {
				stack = append(stack, entry{kind: kGreedy, pc: int32(pc), pos: p, n: lo})
			}
			pos = p
			pc = in.next
		case opLit:
			if len(in.lit) == 1 {
				// One byte ([, ", ] in log patterns): no call to compare.
				if pos >= len(s) || s[pos] != in.lit[0] {
					failed = true
					break
				}
			} else if !strings.HasPrefix(s[pos:], in.lit) {
				failed = true
				break
			}
			pos += len(in.lit)
			pc = in.next
		case opSave:
			// Without a choice point below, failing ends the match, so the
			// old value need not be kept.
			if len(stack) > 0 {
				stack = append(stack, entry{kind: kRestore, pc: int32(in.arg), pos: dst[in.arg]})
			}
			dst[in.arg] = pos
			pc = in.next
		case opSplit:
			if in.firstNext != nil && (pos == len(s) || !in.firstNext[s[pos]]) {
				pc = in.alt
				break
			}
			if in.firstAlt == nil || pos < len(s) && in.firstAlt[s[pos]] {
				stack = append(stack, entry{kind: kBranch, pc: int32(in.alt), pos: pos})
			}
			pc = in.next
		case opJmp:
			pc = in.next
		case opAssert:
			if !assert(in.arg, s, pos) {
				failed = true
				break
			}
			pc = in.next
		case opSpan:
			p, ok := in.dfa.run(s, pos)
			budget -= p - pos
			if !ok {
				failed = true
				break
			}
			pos = p
			pc = in.next
		case opMatch:
			return dst, true, false
		}
		if !failed {
			continue
		}
		// Backtrack to the most recent choice, undoing captures on the way.
		for {
			if len(stack) == 0 {
				return nil, false, false
			}
			budget--
			e := &stack[len(stack)-1]
			switch e.kind {
			case kRestore:
				dst[e.pc] = e.pos
				stack = stack[:len(stack)-1]
				continue
			case kBranch:
				pc, pos = int(e.pc), e.pos
				stack = stack[:len(stack)-1]
			case kGreedy:
				// Give back one rune. An ASCII byte is a rune of its own;
				// otherwise decoding backwards finds the same rune boundary
				// as decoding forwards did, since a non-continuation byte
				// always starts a rune in both directions.
				p := e.pos - 1
				if s[p] >= utf8.RuneSelf {
					_, w := utf8.DecodeLastRuneInString(s[e.n:e.pos])
					p = e.pos - w
				}
				pc, pos = int(prog[e.pc].next), p
				if p <= e.n {
					stack = stack[:len(stack)-1]
				} else {
					e.pos = p
				}
			case kLazy:
				in := &prog[e.pc]
				w := 0
				if in.max < 0 || e.n < in.max {
					w = step(in.cls, s, e.pos)
				}
				if w == 0 {
					stack = stack[:len(stack)-1]
					continue
				}
				e.pos += w
				e.n++
				if in.follow != nil {
					p := e.pos
					e.pos, e.n = lazySkip(in, s, e.pos, e.n)
					budget -= e.pos - p
				}
				pc, pos = int(in.next), e.pos
				if in.max >= 0 && e.n >= in.max {
					stack = stack[:len(stack)-1]
				}
			}
			break
		}
	}
}

// Word-at-a-time constants: every byte 0x01, and every byte 0x80.
const (
	lsb8 = 0x0101010101010101
	msb8 = 0x8080808080808080
)

// wordStop returns the position of the first byte at or after p that the
// word test of cl flags (see class.wordStop): a byte below its threshold,
// equal to one of its two stop bytes, or >= 0x80. That is every byte whose
// table entry is not 1 and perhaps a few that are (control characters of
// the class): the caller's byte loop goes on from there. Eight bytes are
// tested at once; near the end of s, p is returned as it is for the byte
// loop to finish.
//
// Why the lowest flagged bit is exact: bit 7 of a byte of w-stopBelow is
// set when the byte is below the threshold (at most 0x21) or when a borrow
// comes in from the byte below, and a borrow leaves a byte only when that
// byte is itself below the threshold; the same holds for the bytes equal
// to a stop byte (zero after the exclusive or, 0xff after taking 1) and
// for the bytes with bit 7 set. So every byte below the first flagged one
// is clear; the bits above it may be set by borrows and are ignored.
func wordStop(cl *class, s string, p int) int {
	for p+8 <= len(s) {
		if m := wordMask(cl, le64(s[p:])); m != 0 {
			return p + bits.TrailingZeros64(m)>>3
		}
		p += 8
	}
	return p
}

// wordMask returns the word test of cl on the eight bytes of w (the first
// in the low byte): bit 7 of each byte it flags set (see wordStop for which
// of them are exact). It and le64 are small enough to inline, so that
// MatchIndex tests the first word of a run, where most fields of a log
// line end, without a call.
func wordMask(cl *class, w uint64) uint64 {
	return (w | (w - cl.stopBelow) | ((w ^ cl.stopA) - lsb8) | ((w ^ cl.stopB) - lsb8)) & msb8
}

// le64 returns the first eight bytes of b as a little-endian word.
func le64(b string) uint64 {
	_ = b[7]
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}

// step returns the width of the rune at s[p] if it is in the class, or 0.
func step(cl *class, s string, p int) int {
	if p >= len(s) {
		return 0
	}
	switch cl.tbl[s[p]] {
	case 1:
		return 1
	case 0:
		return 0
	}
	r, w := utf8.DecodeRuneInString(s[p:])
	if !cl.hasHigh(r) {
		return 0
	}
	return w
}

// isWordByte reports whether b is an ASCII word character, the only ones
// regexp's \b knows.
func isWordByte(b byte) bool {
	return b == '_' || '0' <= b && b <= '9' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z'
}

// assert evaluates an empty-width assertion at pos. Only ASCII bytes
// matter: a rune >= 0x80 is neither a newline nor a word character.
func assert(a int, s string, pos int) bool {
	switch a {
	case assertBeginText:
		return pos == 0
	case assertEndText:
		return pos == len(s)
	case assertBeginLine:
		return pos == 0 || s[pos-1] == '\n'
	case assertEndLine:
		return pos == len(s) || s[pos] == '\n'
	}
	before := pos > 0 && isWordByte(s[pos-1])
	after := pos < len(s) && isWordByte(s[pos])
	if a == assertWordBoundary {
		return before != after
	}
	return before == after
}

// lazySkip advances the lazy class repetition in, which has taken n runes
// to reach p, over the runes at which what follows cannot start (see
// inst.follow), and returns the new position and count. It stops at the
// end of the input, at a byte that may start the rest, at a rune outside
// the class and at the maximum count, so the repetition then tries the
// rest exactly where regexp's would first succeed.
func lazySkip(in *inst, s string, p, n int) (int, int) {
	if t := in.skip; t != nil {
		// Unbounded: the count no longer matters.
		for p+4 <= len(s) && t[s[p]]&t[s[p+1]]&t[s[p+2]]&t[s[p+3]] == 1 {
			p += 4
		}
		for p < len(s) && t[s[p]] == 1 {
			p++
		}
		return p, n
	}
	f := in.follow
	for p < len(s) && !f[s[p]] && (in.max < 0 || n < in.max) {
		w := step(in.cls, s, p)
		if w == 0 {
			break
		}
		p += w
		n++
	}
	return p, n
}
