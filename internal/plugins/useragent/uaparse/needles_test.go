package uaparse

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestNeedlesIndexed checks that every needle is answered by the single
// scan: one shorter than two bytes would still be answered, but by a search
// of its own, which is the cost the set removes (and more needles than the
// bit set holds make the model fail to build).
func TestNeedlesIndexed(t *testing.T) {
	if len(uaNeedles.words) > needleCap {
		t.Errorf("%d needles registered, the bit set holds %d", len(uaNeedles.words), needleCap)
	}
	for i, w := range uaNeedles.words {
		if !uaNeedles.indexed(needleID(i)) || len(w) < 2 {
			t.Errorf("needle %q is not indexed", w)
		}
		if w != strings.ToLower(w) {
			t.Errorf("needle %q is not lower case: it would never match the lower case user agent", w)
		}
	}
}

// TestNeedleScanMatchesContains compares the scan with strings.Contains for
// every needle on the DEV user agents and their variants.
func TestNeedleScanMatchesContains(t *testing.T) {
	for _, uas := range goldenInputs(t) {
		for _, ua := range uas {
			low := asciiLower(ua)
			var found needleBits
			uaNeedles.scan(low, &found)
			for i, w := range uaNeedles.words {
				if got, want := found.has(needleID(i)), strings.Contains(low, w); got != want {
					t.Fatalf("needle %q in %q: scan says %v, strings.Contains %v", w, truncate(ua), got, want)
				}
			}
		}
	}
}

// TestBrandNamesASCII guards startsWithBrand, which compares brand names
// byte by byte: that answers as strings.EqualFold only for ASCII names.
func TestBrandNamesASCII(t *testing.T) {
	for _, bp := range brandPrefixes {
		if bp.brand == "" || !utf8.ValidString(bp.brand) {
			t.Errorf("brand %q is empty or invalid", bp.brand)
		}
		for i := 0; i < len(bp.brand); i++ {
			if bp.brand[i] >= utf8.RuneSelf {
				t.Errorf("brand %q is not ASCII", bp.brand)
			}
		}
	}
}

// TestStartsWithBrand compares startsWithBrand with the plain loop over
// brandPrefixes it replaces, on every word of the DEV user agents.
func TestStartsWithBrand(t *testing.T) {
	slow := func(tok string) bool {
		for _, bp := range brandPrefixes {
			if hasPrefixFold(tok, bp.brand) {
				return true
			}
		}
		return false
	}
	for _, ua := range goldenInputs(t)["dev"] {
		for _, w := range strings.FieldsFunc(ua, func(r rune) bool { return r == ' ' || r == '/' || r == ';' || r == '(' }) {
			for _, tok := range []string{w, strings.ToUpper(w), "\u212a" + w, w[:len(w)/2]} {
				if got, want := startsWithBrand(tok), slow(tok); got != want {
					t.Fatalf("startsWithBrand(%q) = %v, want %v", tok, got, want)
				}
			}
		}
	}
}

// TestCPUHints checks the prefilter of detectOS: every entry for which
// cpuFromEntry names a processor contains one of cpuHintNeedles.
func TestCPUHints(t *testing.T) {
	for _, uas := range goldenInputs(t) {
		for _, ua := range uas {
			if len(ua) > maxLength {
				continue
			}
			p := parse(ua)
			for _, e := range p.entries {
				lt := p.ltext(e)
				if cpuFromEntry(lt) == "" {
					continue
				}
				hinted := false
				for _, h := range []string{"64", "86", "ppc", "arm", "powerpc"} {
					hinted = hinted || strings.Contains(lt, h)
				}
				if !hinted || !p.hasAny(&cpuHintNeedles) {
					t.Errorf("processor entry %q has no hint", lt)
				}
			}
		}
	}
}

// TestBrowserTokensLowerCase guards the needle prefilter of the browser
// token loop, which relies on lower case ASCII tokens.
func TestBrowserTokensLowerCase(t *testing.T) {
	for _, bt := range browserTokens {
		if bt.token != strings.ToLower(bt.token) || !isASCII(bt.token) || len(bt.token) < 2 {
			t.Errorf("browser token %q is not lower case ASCII of two bytes or more", bt.token)
		}
	}
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// TestNeedleScanEdges compares the scan with strings.Contains for every
// needle placed at each offset around the end of the eight-byte loads (the
// last seven positions are read byte by byte), alone and followed by one
// byte, and for the two-byte needles, which have their own bit set.
func TestNeedleScanEdges(t *testing.T) {
	for _, w := range uaNeedles.words {
		for pad := 0; pad <= 9; pad++ {
			for _, tail := range []string{"", "x", "\x00"} {
				low := strings.Repeat(".", pad) + w + tail
				var found needleBits
				uaNeedles.scan(low, &found)
				for i, v := range uaNeedles.words {
					if got, want := found.has(needleID(i)), strings.Contains(low, v); got != want {
						t.Fatalf("needle %q in %q: scan says %v, strings.Contains %v", v, low, got, want)
					}
				}
			}
		}
	}
	if len(uaNeedles.short) == 0 {
		t.Error("no two-byte needle: the test of their bit set tests nothing")
	}
}

// TestRowsFoundMatchesHas compares rowsFound with asking has of every row in
// turn, for each needle list, on the DEV user agents and their variants; a
// list whose needles repeat (two rows, one token) is checked too.
func TestRowsFoundMatchesHas(t *testing.T) {
	lists := map[string]*needleList{
		"browser tokens": browserTokenList,
		"robot words":    robotWordList,
		"cpu tags":       cpuTagList,
		"distributions":  linuxDistroList,
		"repeats":        newNeedleList([]needleID{kwAndroid, kwIPhone, kwAndroid, kwLinuxAnywhere, kwIPhone}),
	}
	checked := map[string]int{}
	for _, uas := range goldenInputs(t) {
		for _, ua := range uas {
			p := parse(ua)
			for name, l := range lists {
				var want []uint16
				for i, id := range l.ids {
					if p.has(id) {
						want = append(want, uint16(i))
					}
				}
				var buf [4]uint16 // small, so that long answers grow it
				got := p.rowsFound(l, buf[:])
				if !slices.Equal(got, want) {
					t.Fatalf("%s in %q: rows %v, want %v", name, truncate(ua), got, want)
				}
				checked[name] += len(want)
			}
			releaseParsed(p)
		}
	}
	for name := range lists {
		if checked[name] == 0 {
			t.Errorf("%s: no row found in any user agent, the comparison tests nothing", name)
		}
	}
}

// TestTinyNeedles checks that a needle shorter than two bytes, which the
// index cannot hold, still gets its bit from the scan.
func TestTinyNeedles(t *testing.T) {
	n := &needleSet{ids: map[string]needleID{}}
	x, ab, abc, q := n.add("x"), n.add("ab"), n.add("abc"), n.add("q")
	n.build()
	var found needleBits
	n.scan("zzabx", &found)
	for id, want := range map[needleID]bool{x: true, ab: true, abc: false, q: false} {
		if got := found.has(id); got != want {
			t.Errorf("needle %q in %q: %v, want %v", n.words[id], "zzabx", got, want)
		}
	}
	found = needleBits{}
	n.scan("x", &found)
	if !found.has(x) {
		t.Error("one-byte needle not found in a one-byte string")
	}
}
