package uaparse

import (
	"encoding/binary"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
	"unsafe"
)

// product is one "name/version" token outside the comment sections, the
// basic building block of a user agent (RFC 9110, section 10.1.5). Real user
// agents bend the grammar: names contain spaces ("Mobile Safari"), versions
// are missing or glued to the next product, so the parser is tolerant.
type product struct {
	name    string // all text since the previous token boundary, trimmed
	word    string // the last space separated word of name
	version string // the text after the first '/', up to a separator
	lname   string // name in ASCII lower case
	lword   string // word in ASCII lower case
}

// entry is one element of a comment section: the text between "(" and ")"
// is split on ";" and ",". Entries keep their byte range so that the lower
// case copy of the user agent can be sliced at the same offsets.
type entry struct {
	start, end int
	block      int // index of the comment section, in order of appearance
}

// parsed is the tokenised user agent the rules look at.
type parsed struct {
	ua       string
	low      string // ASCII lower case copy of ua, same byte offsets
	products []product
	entries  []entry
	blocks   int

	// Typical user agents have fewer products and entries than these
	// arrays hold, so the slices above start on them and the whole parse
	// costs one allocation; longer ones grow the slices as usual.
	productBuf [12]product
	entryBuf   [16]entry

	// lowBuf holds low for parsePooled when the user agent fits, and
	// fillBuf the combined values of analyze's fill: strings in them are
	// valid only until releaseParsed, so analyze copies its answer out
	// first (pack).
	lowBuf  [512]byte
	fillBuf [512]byte

	// arena holds values the rules build by joining or rewriting text
	// ("Samsung " + model, "English (United States)"), on arenaBuf, so
	// that building one costs no allocation: like fillBuf, its strings
	// are valid only until releaseParsed. parse (not pooled) leaves it
	// nil, and values are then allocated as before.
	arena    []byte
	arenaBuf [256]byte

	// found records which needles of uaNeedles occur in low, so that the
	// rules' "does the user agent contain ..." questions cost a bit test
	// instead of a scan of the string each.
	found needleBits

	// productKeys and entryStarts index the tokens for the lookups the
	// rules make most, product(name) and entryVersion(prefix): a bit per
	// productKey of each product's last word, and a bit per first byte of
	// each comment entry's lower case text. A lookup whose bit is clear
	// answers "none" without looping over the tokens. entryPairs has a
	// bit per entryPairKey of the first two bytes of each entry that has
	// two: the first byte alone lets through many lookups of the common
	// prefixes ("msie " starts like "mobile", "trident/" like "touch").
	productKeys, entryStarts, entryPairs [4]uint64
}

// entryPairKey hashes the first two bytes of an entry's lower case text
// into the 256 bits of parsed.entryPairs.
func entryPairKey(c0, c1 byte) uint8 { return c0*31 ^ c1 }

// productKey hashes the length and first byte of a product's lower case
// last word into the 256 bits of parsed.productKeys.
func productKey(n int, first byte) uint8 { return uint8(n*31) ^ first }

func (p *parsed) text(e entry) string  { return p.ua[e.start:e.end] }
func (p *parsed) ltext(e entry) string { return p.low[e.start:e.end] }

// asciiLowerInto is asciiLower writing into buf when s needs a copy and
// fits.
func asciiLowerInto(s string, buf []byte) string {
	if len(s) == 0 || len(s) > len(buf) {
		return asciiLower(s)
	}
	i := 0
	for i < len(s) && (s[i] < 'A' || s[i] > 'Z') {
		i++
	}
	if i == len(s) {
		return s
	}
	b := buf[:len(s)]
	copy(b, s[:i])
	// Eight bytes at a time: a byte is an upper case letter when it is
	// below 0x80, at least 'A' and at most 'Z'; adding 0x80-'A' to its low
	// seven bits sets its top bit for the first, adding 0x80-'Z'-1 for
	// anything above 'Z'. The letters get 0x20 added.
	const ones = 0x0101010101010101
	for ; i+8 <= len(s); i += 8 {
		x := le64(s, i)
		low7 := x &^ (0x80 * ones)
		upper := (low7 + (0x80-'A')*ones) &^ (low7 + (0x80-'Z'-1)*ones) &^ x & (0x80 * ones)
		binary.LittleEndian.PutUint64(b[i:], x|upper>>2)
	}
	// The last bytes as the string's last word, which overlaps bytes
	// already written with the same lower case bytes: one step of the
	// loop above instead of up to seven of the loop below.
	if i < len(s) && len(s) >= 8 {
		x := le64(s, len(s)-8)
		low7 := x &^ (0x80 * ones)
		upper := (low7 + (0x80-'A')*ones) &^ (low7 + (0x80-'Z'-1)*ones) &^ x & (0x80 * ones)
		binary.LittleEndian.PutUint64(b[len(s)-8:], x|upper>>2)
		i = len(s)
	}
	for ; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		b[i] = c
	}
	return unsafe.String(&b[0], len(b))
}

// le64 returns the eight bytes of s from i as a little-endian word; i+8 is
// at most len(s). The one slice expression leaves the compiler a string of
// known length, so the eight byte loads become one load with a single
// bounds check instead of one check per byte.
func le64(s string, i int) uint64 {
	w := s[i : i+8]
	return uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
		uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
}

// le32 is le64 for four bytes.
func le32(s string, i int) uint32 {
	w := s[i : i+4]
	return uint32(w[0]) | uint32(w[1])<<8 | uint32(w[2])<<16 | uint32(w[3])<<24
}

// asciiLower lower-cases ASCII letters only, so byte offsets stay valid even
// for invalid UTF-8.
func asciiLower(s string) string {
	hasUpper := false
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			hasUpper = true
			break
		}
	}
	if !hasUpper {
		return s
	}
	b := make([]byte, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		b[i] = c
	}
	// b is never written again, so it can back the string without the
	// copy string(b) would make.
	return unsafe.String(&b[0], len(b))
}

// lowerOf returns the lower case form of s. When s is a substring of the
// user agent, as product names are, it is the same range of p.low and costs
// nothing; otherwise it is computed.
func (p *parsed) lowerOf(s string) string {
	if len(s) == 0 || len(p.ua) == 0 {
		return s
	}
	base := uintptr(unsafe.Pointer(unsafe.StringData(p.ua)))
	at := uintptr(unsafe.Pointer(unsafe.StringData(s)))
	if at >= base && at+uintptr(len(s)) <= base+uintptr(len(p.ua)) {
		off := int(at - base)
		return p.low[off : off+len(s)]
	}
	return asciiLower(s)
}

// inLow reports whether s is a part of p.low (shares its memory), so that
// what the needle scan did not find in p.low is not in s either.
func (p *parsed) inLow(s string) bool {
	if len(s) == 0 || len(p.low) == 0 {
		return false
	}
	base := uintptr(unsafe.Pointer(unsafe.StringData(p.low)))
	at := uintptr(unsafe.Pointer(unsafe.StringData(s)))
	return at >= base && at+uintptr(len(s)) <= base+uintptr(len(p.low))
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// trimSpace is strings.TrimSpace with a quick answer for the usual token,
// whose first and last bytes are ASCII and not white space: then there is
// nothing to trim (an ASCII byte is a whole character, so no space can
// start or end the string). Tokens, versions and names are trimmed some
// ten times an analysis; two table look-ups cost a fraction of
// strings.TrimSpace's scans from both ends.
func trimSpace(s string) string {
	if s == "" || solidEdge[s[0]] && solidEdge[s[len(s)-1]] {
		return s
	}
	return strings.TrimSpace(s)
}

// solidEdge marks the ASCII bytes that strings.TrimSpace does not trim.
var solidEdge = func() (t [256]bool) {
	for c := 0; c < utf8.RuneSelf; c++ {
		t[c] = !unicode.IsSpace(rune(c))
	}
	return t
}()

// parsedPool recycles the parse state, the largest allocation of an
// analysis (about 2 KB with its token arrays and buffers). No answer
// refers to it: values may live in its buffers (lowBuf, fillBuf, arena)
// while the rules run, and pack copies them out before releaseParsed.
var parsedPool = sync.Pool{New: func() any { return new(parsed) }}

// releaseParsed returns a parse state to the pool, cleared so that it
// holds on to no user agent. The caller must not use p afterwards.
func releaseParsed(p *parsed) {
	// Only the products used hold strings; clearing those instead of the
	// whole state (about 1.7 KB) saves most of the work. A product slice
	// that grew past productBuf was copied from it, so productBuf holds
	// strings in at most its first len(p.products) elements.
	clear(p.productBuf[:min(len(p.products), len(p.productBuf))])
	p.ua, p.low, p.products, p.entries, p.blocks = "", "", nil, nil, 0
	p.arena = nil
	p.found = needleBits{}
	p.productKeys, p.entryStarts, p.entryPairs = [4]uint64{}, [4]uint64{}, [4]uint64{}
	parsedPool.Put(p)
}

// parse tokenises ua in one left-to-right pass: linear time, no recursion.
// The state comes from parsedPool cleared, or new. Strings taken from it
// stay valid after releaseParsed.
func parse(ua string) *parsed {
	p, ok := parsedPool.Get().(*parsed)
	if !ok {
		p = new(parsed)
	}
	p.ua, p.low = ua, asciiLower(ua)
	return p.tokenise()
}

// parsePooled is parse with the lower case copy of ua in the pooled state's
// lowBuf when it fits, which spares an allocation: strings sliced from the
// state (p.low and what is taken from it) are valid only until
// releaseParsed.
func parsePooled(ua string) *parsed {
	p, ok := parsedPool.Get().(*parsed)
	if !ok {
		p = new(parsed)
	}
	p.ua, p.low = ua, asciiLowerInto(ua, p.lowBuf[:])
	p.arena = p.arenaBuf[:0]
	return p.tokenise()
}

// tokenise fills the state from p.ua and p.low.
func (p *parsed) tokenise() *parsed {
	ua := p.ua
	uaNeedles.scan(p.low, &p.found)
	p.products = p.productBuf[:0]
	p.entries = p.entryBuf[:0]
	n := len(ua)
	i := 0
	nameStart := 0         // start of the text that becomes the next product's name
	brokenComment := false // a ';' was seen outside any block
	cfNetwork := p.has(kwCFNetwork)
	for i < n {
		c := ua[i]
		switch {
		case c == '(' || c == '[' || c == '{':
			p.addWords(nameStart, i)
			i = p.parseBlock(i)
			nameStart = i
		case c == ')' || c == ']' || c == '}' || c == ';' || c == ',':
			// Stray closers and separators outside a block end a name.
			// Broken user agents drop the parentheses ("Mozilla/4.0 X11;
			// U; Gentoo Linux x86_64; pl-PL ..."): the text between
			// separators is kept as a comment entry as well.
			if c == ';' {
				p.addEntry(nameStart, i, -1)
				brokenComment = true
			}
			p.addWords(nameStart, i)
			i++
			nameStart = i
		case c == '/':
			ns := nameStart
			for ns < i && isSpace(ua[ns]) {
				ns++
			}
			name := trimSpace(ua[ns:i])
			if cfNetwork {
				if app, v, rest, ok := splitGluedApp(name); ok {
					p.addProduct(app, v)
					name = rest
				}
			}
			i++
			for i < n && ua[i] == ' ' && i+1 < n && ua[i+1] >= '0' && ua[i+1] <= '9' {
				i++ // "htc / 1.0": tolerate a space after the slash before a number
			}
			vs := i
			i = scanVersion(ua, i)
			p.addProduct(name, ua[vs:i])
			nameStart = i
			if brokenComment {
				// Text after a top-level separator up to this product,
				// e.g. "pl-PL" in "...; pl-PL AppleWebKit/528.7+".
				if k := strings.LastIndexByte(name, ' '); k > 0 {
					p.addEntry(ns, ns+k, -1)
				}
			}
			if i < n && ua[i] == '/' {
				// "Safari/537.36/null", "PTST/SpeedCurve/1806": the next
				// segment is parsed as a new token.
				i++
				nameStart = i
			}
		default:
			// Most bytes are none of the above: skip them by a table
			// look-up each instead of the switch's ten comparisons.
			i++
			for i < n && !tokenSyntax[ua[i]] {
				i++
			}
		}
	}
	if brokenComment {
		p.addEntry(nameStart, n, -1)
	}
	p.addWords(nameStart, n)
	return p
}

// tokenSyntax marks the bytes that tokenise's switch acts on.
var tokenSyntax [256]bool

func buildTokenSyntax() (t [256]bool) {
	for _, c := range []byte("([{)]};,/") {
		t[c] = true
	}
	return t
}

// versionBytes classifies the bytes for scanVersion: versionEnd for white
// space, a block or a separator, versionUpper for an upper case letter, 0
// for the rest.
var versionBytes [256]uint8

const (
	versionEnd = 1 + iota
	versionUpper
)

func buildVersionBytes() (t [256]uint8) {
	for _, c := range []byte(" \t\r\n()[];,/") {
		t[c] = versionEnd
	}
	for c := 'A'; c <= 'Z'; c++ {
		t[c] = versionUpper
	}
	return t
}

// addWords records trailing text without a version ("like Gecko",
// "SmartTV") as products with an empty version, one per word run.
func (p *parsed) addWords(s, e int) {
	t := trimSpace(p.ua[s:e])
	if t == "" {
		return
	}
	// "Instagram400.1.0.29.75": a name glued to its dotted version, in a
	// user agent that lost its spaces.
	if strings.IndexByte(t, ' ') < 0 {
		k := 0
		for k < len(t) && (t[k] >= 'a' && t[k] <= 'z' || t[k] >= 'A' && t[k] <= 'Z') {
			k++
		}
		if k >= 4 && gluedVersionAt(t, k) {
			p.addProduct(t[:k], t[k:])
			return
		}
	}
	// "Opera 8.50", "Links (2.8": a name followed by a bare version.
	if k := strings.LastIndexByte(t, ' '); k > 0 && isVersionLike(t[k+1:]) && !isVersionLike(t) {
		p.addProduct(trimSpace(t[:k]), t[k+1:])
		return
	}
	p.addProduct(t, "")
}

func (p *parsed) addProduct(name, version string) {
	if len(p.products) >= 64 {
		return // enough to classify; bounds the work on hostile input
	}
	word := name
	if k := strings.LastIndexByte(name, ' '); k >= 0 {
		word = name[k+1:]
	}
	lname := p.lowerOf(name)
	lword := lname[len(lname)-len(word):]
	p.products = append(p.products, product{name: name, word: word, version: trimSpace(version),
		lname: lname, lword: lword})
	if len(lword) > 0 {
		k := productKey(len(lword), lword[0])
		p.productKeys[k>>6] |= 1 << (k & 63)
	}
}

// scanVersion returns the end of a version that starts at i. A version stops
// at white space, a block or a separator. When a letter run directly follows
// digits and ends in '/', as in "Chrome/140.0.0.0Safari/537.36" (user agents
// with their spaces removed), the version stops before the letters.
func scanVersion(s string, i int) int {
	n := len(s)
	for i < n {
		c := s[i]
		// One look-up instead of eleven comparisons per byte of the
		// version, most of which are digits and dots.
		vc := versionBytes[c]
		if vc == 0 {
			i++
			continue
		}
		if vc == versionEnd {
			return i
		}
		if i > 0 && s[i-1] >= '0' && s[i-1] <= '9' { // c is an upper case letter
			j := i
			for j < n && ((s[j] >= 'a' && s[j] <= 'z') || (s[j] >= 'A' && s[j] <= 'Z')) {
				j++
			}
			if j-i >= 3 && j < n && s[j] == '/' {
				return i
			}
			// "Mobile/23A355Instagram400.1.0.29.75": a capitalised name
			// glued to its own dotted version starts a new product.
			if j-i >= 4 && s[i+1] >= 'a' && s[i+1] <= 'z' && gluedVersionAt(s, j) {
				return i
			}
			i = j
			continue
		}
		i++
	}
	return i
}

// splitGluedApp splits a product name that starts with an application's
// name glued to its dotted version, the form the applications of Mac OS X
// 10.5 wrote before Apple's network library ("Safari5533.22.3
// CFNetwork/438.16", "OmniWeb622.19.3.0.170128 CFNetwork/438.16"): the
// name of four letters or more, the version of digits and dots, and the
// rest of the name after a space.
func splitGluedApp(name string) (app, version, rest string, ok bool) {
	sp := strings.IndexByte(name, ' ')
	if sp < 0 {
		return "", "", "", false
	}
	k := 0
	for k < sp && (name[k] >= 'a' && name[k] <= 'z' || name[k] >= 'A' && name[k] <= 'Z') {
		k++
	}
	if k < 4 || !gluedVersionAt(name[:sp], k) {
		return "", "", "", false
	}
	for j := k; j < sp; j++ {
		if c := name[j]; c != '.' && (c < '0' || c > '9') {
			return "", "", "", false
		}
	}
	return name[:k], name[k:sp], strings.TrimSpace(name[sp+1:]), true
}

// gluedVersionAt reports a dotted version ("400.1.0") starting at s[i].
func gluedVersionAt(s string, i int) bool {
	j := i
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	return j > i && j+1 < len(s) && s[j] == '.' && s[j+1] >= '0' && s[j+1] <= '9'
}

// parseBlock reads a comment section starting at the opener s[i] and returns
// the index after its closer. Nested sections stay inside one entry.
func (p *parsed) parseBlock(i int) int {
	s := p.ua
	n := len(s)
	open := s[i]
	var close byte = ')'
	if open == '[' {
		close = ']'
	} else if open == '{' {
		close = '}'
	}
	block := p.blocks
	p.blocks++
	i++
	depth := 0
	es := i
	for i < n {
		c := s[i]
		if !blockByte[c] {
			// Most bytes of a comment are text: one table look-up
			// instead of the cases below, none of which they match.
			i++
			continue
		}
		switch {
		case c == '(' || c == '[':
			depth++
		case (c == ')' || c == ']') && depth > 0:
			depth--
		case c == close && depth == 0:
			p.addEntry(es, i, block)
			return i + 1
		case (c == ';' || c == ',') && depth == 0:
			p.addEntry(es, i, block)
			es = i + 1
		}
		i++
	}
	p.addEntry(es, n, block)
	return n
}

// blockByte marks every byte a case of parseBlock's loop can match: the
// brackets and the entry separators.
var blockByte [256]bool

func buildBlockByte() (t [256]bool) {
	for _, c := range []byte("()[]{};,") {
		t[c] = true
	}
	return t
}

func (p *parsed) addEntry(s, e, block int) {
	for s < e && isSpace(p.ua[s]) {
		s++
	}
	for e > s && isSpace(p.ua[e-1]) {
		e--
	}
	if s == e || len(p.entries) >= 128 {
		return
	}
	p.entries = append(p.entries, entry{start: s, end: e, block: block})
	c := p.low[s]
	p.entryStarts[c>>6] |= 1 << (c & 63)
	if e-s >= 2 {
		k := entryPairKey(c, p.low[s+1])
		p.entryPairs[k>>6] |= 1 << (k & 63)
	}
}

// product returns the first product whose last word equals name, ignoring
// case.
func (p *parsed) product(name string) (product, bool) {
	if len(name) == 0 {
		return product{}, false
	}
	if c := name[0]; c < utf8.RuneSelf {
		// An ASCII first byte can only match the same byte in any case:
		// strings.EqualFold folds a non-ASCII rune into an ASCII one only
		// when their lengths differ (K, the Kelvin sign, is three bytes),
		// and the lengths are equal. So a clear key bit means no product.
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if k := productKey(len(name), c); p.productKeys[k>>6]&(1<<(k&63)) == 0 {
			return product{}, false
		}
	}
	for i := range p.products {
		// Comparing lengths first skips almost every product cheaply;
		// indexing instead of ranging spares copying each product.
		if lw := p.products[i].lword; len(lw) == len(name) && lowerEqualFold(lw, name) {
			return p.products[i], true
		}
	}
	return product{}, false
}

// lowerEqualFold reports strings.EqualFold(lw, name) for lw in ASCII lower
// case (the form of a product's words) and name of the same length. Names
// are short ASCII words ("Chrome", "AppleWebKit"), so it compares them a
// word of memory at a time, name lower-cased as asciiLowerInto does,
// where strings.EqualFold takes a byte at a time; a byte of either above
// ASCII leaves the answer to strings.EqualFold. A difference between two
// ASCII parts is a difference for strings.EqualFold too: it compares
// character by character, and so far every character was one ASCII byte.
func lowerEqualFold(lw, name string) bool {
	const ones = 0x0101010101010101
	lower := func(x uint64) uint64 {
		upper := (x + (0x80-'A')*ones) &^ (x + (0x80-'Z'-1)*ones) & (0x80 * ones)
		return x | upper>>2
	}
	n := len(name)
	if len(lw) != n {
		return false
	}
	switch {
	case n >= 8:
		for i := 0; i < n; i += 8 {
			j := min(i, n-8) // the last word overlaps the one before
			x, y := le64(name, j), le64(lw, j)
			if (x|y)&(0x80*ones) != 0 {
				return strings.EqualFold(lw, name)
			}
			if lower(x) != y {
				return false
			}
		}
		return true
	case n >= 4:
		x := uint64(le32(name, 0)) | uint64(le32(name, n-4))<<32
		y := uint64(le32(lw, 0)) | uint64(le32(lw, n-4))<<32
		if (x|y)&(0x80*ones) != 0 {
			return strings.EqualFold(lw, name)
		}
		return lower(x) == y
	}
	return strings.EqualFold(lw, name)
}

// productsAfter returns the products that follow the first one first
// accepts, or nil when none does: the rules that read what an app or a
// browser appends after a known product ("Firefox/x", "Mobile/<build>").
func (p *parsed) productsAfter(first func(pr *product) bool) []product {
	for i := range p.products {
		if first(&p.products[i]) {
			return p.products[i+1:]
		}
	}
	return nil
}

// entryProduct looks for "name/version" or "name version" inside a comment
// entry, as in "(compatible; MSIE 9.0; ...)" or "(...; Bada/1.2; ...)", and
// returns the version.
func (p *parsed) entryVersion(prefix string) (string, bool) {
	// Every entry the loop below accepts starts with prefix[0] (prefixes
	// are lower case, as the entries' text is).
	if len(prefix) > 0 && p.entryStarts[prefix[0]>>6]&(1<<(prefix[0]&63)) == 0 {
		return "", false
	}
	// A prefix of three bytes or more, and the same without its final
	// space, is longer than two bytes, so the entries it matches have a
	// bit in entryPairs.
	if len(prefix) >= 3 {
		if k := entryPairKey(prefix[0], prefix[1]); p.entryPairs[k>>6]&(1<<(k&63)) == 0 {
			return "", false
		}
	}
	// A prefix that ends in a space also matches without it before a
	// digit: user agents that lost their spaces send "MSIE8.0".
	tight := ""
	if strings.HasSuffix(prefix, " ") {
		tight = prefix[:len(prefix)-1]
	}
	for _, e := range p.entries {
		lt := p.ltext(e)
		if !strings.HasPrefix(lt, prefix) {
			if tight == "" || len(lt) <= len(tight) || !strings.HasPrefix(lt, tight) || lt[len(tight)] < '0' || lt[len(tight)] > '9' {
				continue
			}
			return p.versionAfter(e, len(tight)), true
		}
		return p.versionAfter(e, len(prefix)), true
	}
	return "", false
}

// versionAfter returns the version that follows the first n bytes of a
// comment entry.
func (p *parsed) versionAfter(e entry, n int) string {
	rest := cutSpaceSlashCol.trimLeft(p.text(e)[n:])
	end := 0
	for end < len(rest) && !isSpace(rest[end]) && rest[end] != ')' {
		end++
	}
	return rest[:end]
}
