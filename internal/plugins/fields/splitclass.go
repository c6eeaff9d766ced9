package fields

import (
	"regexp/syntax"
	"unicode"
	"unicode/utf8"
)

// classScanner finds, with byte tables, a separator made of ASCII
// character classes in the shape
//
//	[A* or A+] B-or-B+ [C*]
//
// an optional run of bytes of class A (with A and B disjoint), one byte of
// class B or a greedy run of them, and an optional greedy run of bytes of
// class C: [/?], [,;]+, \s+, \s*,\s*, \s*[/?]\s*, \s+-, ;\s*. A class here
// is a character class or a single rune (case-folded or not) whose runes
// are all ASCII, so it never matches inside a multi-byte rune and a byte
// scan finds exactly what regexp finds.
//
// Why the scan is regexp's leftmost-first match: B is required, so the
// separator never matches the empty text. Because A and B are disjoint, a
// match that starts at i takes the whole run of A bytes from i (greedy or
// lazy alike: it is the only way B can follow) and needs a B byte right
// after it. So the leftmost match belongs to the first B byte j at or
// after the search position, and starts where the run of A bytes before j
// starts (not before the search position); with A+ that run must not be
// empty, else the next B byte is tried. After B nothing but C* follows,
// which always matches, so the greedy choices stand: B+ takes every B
// byte, then C* every C byte. A lazy C*? takes none, and is left out.
type classScanner struct {
	a, b, c [256]bool
	aMin    int  // -1: no A; 0: A*; 1: A+
	bRun    bool // B+ (greedy): the run of B bytes
	hasC    bool // C* follows
}

// next returns the start and end of the first separator in s at or after
// pos, or -1, -1.
func (sc *classScanner) next(s string, pos int) (start, end int) {
	for j := pos; j < len(s); j++ {
		if !sc.b[s[j]] {
			continue
		}
		i := j
		if sc.aMin >= 0 {
			for i > pos && sc.a[s[i-1]] {
				i--
			}
			if sc.aMin == 1 && i == j {
				continue
			}
		}
		end = j + 1
		if sc.bRun {
			for end < len(s) && sc.b[s[end]] {
				end++
			}
		}
		if sc.hasC {
			for end < len(s) && sc.c[s[end]] {
				end++
			}
		}
		return i, end
	}
	return -1, -1
}

// compileClassScanner returns the scanner of sep, or nil if sep is not of
// the shape classScanner finds. Captures are looked through: they do not
// change where a separator is.
func compileClassScanner(sep string) *classScanner {
	re, err := syntax.Parse(sep, syntax.Perl)
	if err != nil {
		return nil
	}
	re = uncapture(re)
	items := []*syntax.Regexp{re}
	if re.Op == syntax.OpConcat {
		items = re.Sub
	}
	sc := &classScanner{aMin: -1}
	// A trailing star is C (a lazy one matches nothing, and is dropped).
	if last := uncapture(items[len(items)-1]); len(items) > 1 && last.Op == syntax.OpStar {
		if last.Flags&syntax.NonGreedy == 0 && !asciiClass(uncapture(last.Sub[0]), &sc.c) {
			return nil
		}
		sc.hasC = last.Flags&syntax.NonGreedy == 0
		items = items[:len(items)-1]
	}
	switch len(items) {
	case 1:
	case 2:
		first := uncapture(items[0])
		switch first.Op {
		case syntax.OpStar:
			sc.aMin = 0
		case syntax.OpPlus:
			sc.aMin = 1
		default:
			return nil
		}
		if !asciiClass(uncapture(first.Sub[0]), &sc.a) {
			return nil
		}
		items = items[1:]
	default:
		return nil
	}
	b := uncapture(items[0])
	if b.Op == syntax.OpPlus {
		// B+? always takes one byte: nothing after it but C*, which
		// always matches.
		sc.bRun = b.Flags&syntax.NonGreedy == 0
		b = uncapture(b.Sub[0])
	}
	if !asciiClass(b, &sc.b) {
		return nil
	}
	for i := range sc.a {
		if sc.a[i] && sc.b[i] {
			return nil // A and B overlap: B could take a byte of the run
		}
	}
	return sc
}

// uncapture returns re without the capture groups around it.
func uncapture(re *syntax.Regexp) *syntax.Regexp {
	for re.Op == syntax.OpCapture {
		re = re.Sub[0]
	}
	return re
}

// asciiClass sets in set the bytes of re and reports whether re is one
// character class, or one rune (case-folded or not), of ASCII runes only.
func asciiClass(re *syntax.Regexp, set *[256]bool) bool {
	var ranges []rune
	switch re.Op {
	case syntax.OpCharClass:
		ranges = re.Rune
	case syntax.OpLiteral:
		if len(re.Rune) != 1 {
			return false
		}
		r := re.Rune[0]
		ranges = []rune{r, r}
		if re.Flags&syntax.FoldCase != 0 {
			for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
				ranges = append(ranges, f, f)
			}
		}
	default:
		return false
	}
	for i := 0; i+1 < len(ranges); i += 2 {
		if ranges[i+1] >= utf8.RuneSelf {
			return false
		}
		for r := ranges[i]; r <= ranges[i+1]; r++ {
			set[r] = true
		}
	}
	return true
}
