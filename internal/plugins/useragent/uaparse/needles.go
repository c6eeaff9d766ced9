package uaparse

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"slices"
	"strings"
	"unsafe"
)

// The rules ask many questions of the form "does the user agent contain
// this word anywhere": attack signatures, robot words, distribution names,
// television and feature phone markers. Asked one by one, each is a scan of
// the whole string, and together they were a fifth of the analysis time. A
// needleSet answers all of them with a single pass over the lower case user
// agent at parse time, recording which needles occur in a bit set that the
// rules then consult at the cost of a bit test.

// needleID identifies a needle registered in uaNeedles.
type needleID uint16

// needleCap is the number of needles the bit set of a parse holds. Every
// needle has its bit, so that has is a bit test and nothing else (it is
// asked some two hundred times an analysis): build refuses more needles
// than this, and the constant is then to be raised. Needles shorter than
// two bytes, which the index cannot hold, are searched for after the pass
// and get their bit too.
const needleCap = 1024

type needleBits [needleCap / 64]uint64

func (b *needleBits) set(id needleID)      { b[id>>6] |= 1 << (id & 63) }
func (b *needleBits) has(id needleID) bool { return b[id>>6]&(1<<(id&63)) != 0 }

// needleSet indexes its needles of three bytes or more by a hash of their
// first three bytes. A bit set of those hashes lets the scan skip almost
// every position of an ordinary user agent with one load, a multiplication
// and one test; at the remaining positions only the few needles with that
// hash are compared. A bit set of the needles' first two bytes comes
// first: it lets a third of the positions through ("; ", "mo", "in" start
// many needles and occur in every user agent), and at the other two thirds
// its one test, without the hash, is all the scan does. The few two-byte
// needles ("64", "$(", "{}") have a bit set of their own, indexed by the
// two bytes: filed under every possible third byte they would take 2,048
// of some 2,500 hashes and let every position that ended in one of them
// through (18 % of the positions of DEV instead of 12 %).
type needleSet struct {
	words []string
	ids   map[string]needleID

	grams [65536 / 64]uint64
	// rank[w] counts the bits of grams in its words before w, so that
	// the hashes present are numbered in order: spans[rank[h>>6] + bits
	// of grams[h>>6] below h] is the range of entries whose needles start
	// with three bytes of hash h. (A table of 65,536 positions, as
	// before, took 128 KiB, and a cache miss at nearly every position the
	// filter let through; these two tables take 10 KiB.) The entries of
	// one hash lie side by side, so that the candidates at a position are
	// compared without following a pointer per needle.
	rank    [65536 / 64]uint16
	spans   []needleSpan
	entries []needleEntry

	// pairs has bit b set when a two-byte needle is the little-endian
	// word b; short lists those needles.
	pairs [65536 / 64]uint64
	short []shortNeedle

	// firsts has bit b set when a needle of two bytes or more starts
	// with the little-endian word b: a third of the positions of DEV,
	// which the scan tests before it hashes.
	firsts [65536 / 64]uint64

	// tiny lists the needles shorter than two bytes, searched for one by
	// one (there are none in the tables as they stand).
	tiny []shortNeedle
}

type shortNeedle struct {
	pair uint16
	id   needleID
	word string // for a tiny needle
}

// gramHash hashes the three low bytes of x.
func gramHash(x uint64) uint16 { return uint16(gramHash32(x)) }

// gramHash32 is gramHash as a 32-bit word.
func gramHash32(x uint64) uint32 { return (uint32(x) & 0xffffff) * 0x9e3779b1 >> 16 }

type needleSpan struct{ lo, hi uint16 }

// needleEntry is one indexed needle as the scan compares it: head and mask
// hold its first eight bytes (fewer for shorter needles) as a
// little-endian word, so that a candidate is usually rejected by one
// comparison of words; tail is the rest of a longer needle.
type needleEntry struct {
	head, mask uint64
	tail       string
	n          int32 // length of the needle
	id         needleID
}

// needleGroup is a set of needles asked about together ("does any SQL
// injection signature occur"), as a mask over the bit set.
type needleGroup struct {
	mask needleBits
	// words[:n] are the indexes of the non-zero words of mask, in
	// increasing order, which hasAny and rowsFound read: a group whose
	// needles were registered at different times spans many words of
	// which few are non-zero (two of ten for the distributions' names).
	words [needleCap / 64]uint8
	n     int
}

// index sets words and n from mask.
func (g *needleGroup) index() {
	g.n = 0
	for i, m := range g.mask {
		if m != 0 {
			g.words[g.n] = uint8(i)
			g.n++
		}
	}
}

var uaNeedles *needleSet

// add registers a lower case needle and returns its identifier; the same
// needle registered twice gets the same identifier. It is called while
// buildModel assigns the package variables, before build.
func (n *needleSet) add(w string) needleID {
	if id, ok := n.ids[w]; ok {
		return id
	}
	id := needleID(len(n.words))
	n.words = append(n.words, w)
	n.ids[w] = id
	return id
}

// group registers needles and returns the group they form.
func (n *needleSet) group(words []string) needleGroup {
	var g needleGroup
	for _, w := range words {
		id := n.add(w)
		if n.indexed(id) {
			g.mask.set(id)
		}
		// A needle past needleCap makes build fail, so none is lost.
	}
	// The needles of a group are mostly registered together, so their
	// bits fall in a few words; hasAny looks only at those.
	g.index()
	return g
}

// indexed reports whether a needle has its bit in the set; build makes
// sure every one has.
func (n *needleSet) indexed(id needleID) bool {
	return int(id) < needleCap
}

// build makes the index once every needle is registered. It panics when
// there are more needles than the bit set holds: that is a change of the
// tables, found by any test before the build is shipped, and the answer
// is to raise needleCap.
func (n *needleSet) build() {
	if len(n.words) > needleCap {
		panic(fmt.Sprintf("uaparse: %d needles registered, the bit set holds %d: raise needleCap", len(n.words), needleCap))
	}
	byHash := map[uint16][]needleEntry{}
	var order []uint16
	file := func(h uint16, e needleEntry) {
		if _, ok := byHash[h]; !ok {
			order = append(order, h)
		}
		byHash[h] = append(byHash[h], e)
	}
	for i, w := range n.words {
		id := needleID(i)
		if len(w) < 2 {
			n.tiny = append(n.tiny, shortNeedle{id: id, word: w})
			continue
		}
		e := needleEntry{n: int32(len(w)), id: id}
		first := uint16(w[0]) | uint16(w[1])<<8
		n.firsts[first>>6] |= 1 << (first & 63)
		for j := 0; j < len(w) && j < 8; j++ {
			e.head |= uint64(w[j]) << (8 * j)
			e.mask |= 0xff << (8 * j)
		}
		if len(w) > 8 {
			e.tail = w[8:]
		}
		if len(w) >= 3 {
			file(gramHash(e.head), e)
			continue
		}
		pair := uint16(e.head)
		n.pairs[pair>>6] |= 1 << (pair & 63)
		n.short = append(n.short, shortNeedle{pair: pair, id: id})
	}
	slices.Sort(order)
	for _, h := range order {
		n.grams[h>>6] |= 1 << (h & 63)
	}
	count := 0
	for w, g := range n.grams {
		n.rank[w] = uint16(count)
		count += bits.OnesCount64(g)
	}
	for _, h := range order {
		lo := len(n.entries)
		n.entries = append(n.entries, byHash[h]...)
		n.spans = append(n.spans, needleSpan{uint16(lo), uint16(len(n.entries))})
	}
}

// scan records in found every needle that occurs in s.
func (n *needleSet) scan(s string, found *needleBits) {
	for _, e := range n.tiny {
		if strings.Contains(s, e.word) {
			found.set(e.id)
		}
	}
	if len(s) < 2 {
		return
	}
	b := unsafe.Slice(unsafe.StringData(s), len(s))
	base := unsafe.Pointer(unsafe.StringData(s))
	i := 0
	// Eight bytes can be read at every position but the last seven. The
	// window is an array pointer made from the string's address, not a
	// slice of b: the loop condition already keeps it inside the string,
	// and &b[i] with its slice would add two bounds checks and the slice
	// arithmetic, a third of the instructions of a position.
	//
	// The needles of a hash are compared here rather than by a function:
	// the call, at one position in eight, cost more than the comparisons,
	// and the bit set's word is at hand for the rank.
	for ; i+8 <= len(b); i++ {
		x := binary.LittleEndian.Uint64((*[8]byte)(unsafe.Add(base, i))[:])
		// The pair as a 32-bit word (below 65,536 by its mask, which
		// the compiler sees): indexing with a uint16 costs a zero
		// extension. Two positions in three start no needle, and the
		// pair's bit alone tells them.
		pair := uint32(x) & 0xffff
		if n.firsts[pair>>6]&(1<<(pair&63)) == 0 {
			continue
		}
		h := gramHash32(x)
		if g := n.grams[h>>6]; g&(1<<(h&63)) != 0 {
			// The hash's rank counts the bits of its word up to and
			// including its own, shifted to the top (a shift by
			// 63-(h&63), which the compiler knows is below 64). The
			// words are sparse, fewer hashes than the 1,024 words, so a loop
			// over the bits takes one or two turns; bits.OnesCount64,
			// with its test for the instruction and the call it falls
			// back to, made the compiler save and restore six
			// registers around it.
			k := int(n.rank[h>>6]) - 1
			for m := g << ((63 - h) & 63); m != 0; m &= m - 1 {
				k++
			}
			sp := n.spans[k]
			// A pointer to each entry, not a copy of its 40 bytes. Eight
			// bytes are left at i, so only a longer needle needs the
			// length of the rest tested.
			for k := sp.lo; k < sp.hi; k++ {
				e := &n.entries[k]
				if x&e.mask == e.head && (e.n <= 8 || int(e.n) <= len(b)-i && sameBytes(s[i+8:i+int(e.n)], e.tail)) {
					found.set(e.id)
				}
			}
		}
		if n.pairs[pair>>6]&(1<<(pair&63)) != 0 {
			n.comparePair(uint16(pair), found)
		}
	}
	// Near the end the missing bytes read as zero, which no needle
	// contains: a needle longer than what is left has a zero byte of x
	// under its mask. The window of each of the last positions is the
	// string's last word shifted, read once, rather than assembled byte
	// by byte at each.
	var last uint64
	lastAt := max(len(b)-8, 0)
	for j := len(b) - 1; j >= lastAt; j-- {
		last = last<<8 | uint64(b[j])
	}
	for ; i+1 < len(b); i++ {
		x := last >> (8 * (i - lastAt))
		h, pair := gramHash32(x), uint32(x)&0xffff
		if g := n.grams[h>>6]; g&(1<<(h&63)) != 0 {
			sp := n.spans[int(n.rank[h>>6])+bits.OnesCount64(g&(1<<(h&63)-1))]
			for k := sp.lo; k < sp.hi; k++ {
				if e := &n.entries[k]; x&e.mask == e.head && e.n <= 8 {
					found.set(e.id)
				}
			}
		}
		if n.pairs[pair>>6]&(1<<(pair&63)) != 0 {
			n.comparePair(uint16(pair), found)
		}
	}
}

// sameBytes reports whether a and b, of the same length, are equal. It is
// a loop rather than a comparison of strings, whose call to the runtime
// made the compiler save and restore the scan's registers at every
// position a hash let through; few needles are longer than eight bytes
// and their tails are short.
func sameBytes(a, b string) bool {
	for j := 0; j < len(a) && j < len(b); j++ {
		if a[j] != b[j] {
			return false
		}
	}
	return true
}

// comparePair records the two-byte needles equal to pair.
func (n *needleSet) comparePair(pair uint16, found *needleBits) {
	for _, e := range n.short {
		if e.pair == pair {
			found.set(e.id)
		}
	}
}

// has reports whether the needle occurs in the lower case user agent.
//
// It is asked some two hundred times per analysis, so it is one bit test:
// every needle has its bit (build). Every identifier is below needleCap,
// so the mask only spares the bounds check.
func (p *parsed) has(id needleID) bool {
	return p.found[id>>6&(needleCap/64-1)]&(1<<(id&63)) != 0
}

// index returns the position of the first occurrence of the needle in the
// lower case user agent, or -1; the scan answers most of them without a
// search.
func (p *parsed) index(id needleID) int {
	if !p.has(id) {
		return -1
	}
	return strings.Index(p.low, uaNeedles.words[id])
}

// hasAny reports whether any needle of the group occurs in the lower case
// user agent.
//
// It is asked many times an analysis: it reads only the non-zero words of
// the group's mask, and masks their indexes to the size of the bit set
// (which they never leave) so that the compiler drops the bounds checks.
func (p *parsed) hasAny(g *needleGroup) bool {
	for _, w := range g.words[:g.n] {
		if p.found[w&(needleCap/64-1)]&g.mask[w&(needleCap/64-1)] != 0 {
			return true
		}
	}
	return false
}

// Needles the rules look up by name, one per word they ask about.
var (
	kwARMSemi              needleID
	kwAppEngineGoogle      needleID
	kwAndroid              needleID
	kwAndroidTV            needleID
	kwIOSWord              needleID
	kwBingbotHTM           needleID
	kwCrKey                needleID
	kwEmptyBraces          needleID
	kwGoogle               needleID
	kwGoogleBotHTML        needleID
	kwGoogleDocs           needleID
	kwGoogleTV             needleID
	kwGooglebot            needleID
	kwGooglebotCom         needleID
	kwHTTP                 needleID
	kwHTTPS                needleID
	kwHarmonyOS            needleID
	kwHeadlessChrome       needleID
	kwHisense              needleID
	kwIMac                 needleID
	kwIPad                 needleID
	kwIPhone               needleID
	kwIPod                 needleID
	kwIPodTouch            needleID
	kwJ2ME                 needleID
	kwKernelSlash          needleID
	kwLikeGecko            needleID
	kwMAUI                 needleID
	kwMIDP                 needleID
	kwMacintoshColon       needleID
	kwMacBook              needleID
	kwMacintosh            needleID
	kwMicrosoftOfficeSlash needleID
	kwNetCast              needleID
	kwNetTV                needleID
	kwHbbTVSlash           needleID
	kwObigo                needleID
	kwOperaMini            needleID
	kwOperaMobi            needleID
	kwOperaTablet          needleID
	kwPTST                 needleID
	kwPhilips              needleID
	kwRV                   needleID
	kwSafari               needleID
	kwSEMCBrowser          needleID
	kwSmartTV              needleID
	kwTabletPC             needleID
	kwTeleca               needleID
	kwTouch                needleID
	kwUPBrowser            needleID
	kwVidaa                needleID
	kwViera                needleID
	kwWAPBrowser           needleID
	kwWWW                  needleID
	kwWeb0S                needleID
	kwWebAppManager        needleID
	kwX86x64               needleID
	kwI386                 needleID
	kwXbox                 needleID
)

// needleList is a list of needles that a rule asks about in order, one
// row of a table after the other ("is this browser token in the user
// agent"): asked one by one, the rows cost a bit test each, ninety for the
// browser tokens, for the few that occur. rowsFound gives the rows whose needle
// the scan saw, in the list's order, from the words of the bit set alone.
type needleList struct {
	ids   []needleID
	group needleGroup
	// flat[byID[id].lo:byID[id].hi] are the rows of needle id, in order
	// (a needle may be the token of several rows).
	byID [needleCap]needleSpan
	flat []uint16
}

// newNeedleList makes the list of the needles ids, registered already.
func newNeedleList(ids []needleID) *needleList {
	l := &needleList{ids: ids}
	rows := map[needleID][]uint16{}
	for i, id := range ids {
		if !uaNeedles.indexed(id) {
			// A needle past needleCap makes build fail.
			continue
		}
		l.group.mask.set(id)
		rows[id] = append(rows[id], uint16(i))
	}
	l.group.index()
	for id, r := range rows {
		l.byID[id] = needleSpan{uint16(len(l.flat)), uint16(len(l.flat) + len(r))}
		l.flat = append(l.flat, r...)
	}
	return l
}

// rowsFound returns the rows of l whose needle occurs in the lower case user
// agent, in increasing order, using buf for storage; the same rows as
// asking p.has of each row in turn.
func (p *parsed) rowsFound(l *needleList, buf []uint16) []uint16 {
	out := buf[:0]
	// Only the non-zero words of the mask, as in hasAny, in increasing
	// order.
	for _, w := range l.group.words[:l.group.n] {
		w &= needleCap/64 - 1
		for m := p.found[w] & l.group.mask[w]; m != 0; m &= m - 1 {
			sp := l.byID[int(w)*64+bits.TrailingZeros64(m)]
			out = append(out, l.flat[sp.lo:sp.hi]...)
		}
	}
	// Rows come by identifier; put them in the list's order. There are
	// few, so insertion sort.
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}
