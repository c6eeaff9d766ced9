package uaparse

import (
	"sort"
	"strings"
)

// extras fills informational attributes: e-mail, URL, UUID, language.
func (s *state) extras() {
	p := s.p
	if i := strings.IndexByte(p.ua, '@'); i > 0 {
		st := i
		for st > 0 && isEmailChar(p.ua[st-1]) {
			st--
		}
		// "info\@example.com": the "@" escaped as in a shell or Perl
		// string; the address is the one without the backslashes. end is
		// where the local part ends.
		end := i
		if st == i {
			for end > 0 && p.ua[end-1] == '\\' {
				end--
			}
			st = end
			for end < i && st > 0 && isEmailChar(p.ua[st-1]) {
				st--
			}
		}
		en := i + 1
		for en < len(p.ua) && isEmailChar(p.ua[en]) {
			en++
		}
		// An address glued to the version of the product before it
		// ("Safari/537.36me@example.com", "Safari/537.36+me@example.com")
		// starts after that version: a version is digits with a dot, right
		// after the product's "/".
		st = afterGluedVersion(p.ua, st, end)
		// A "+" before the address is the "see also" mark robots put
		// before their contact ("+http://...", "+bot@example.com"), not a
		// part of the address.
		for st < end && (p.ua[st] == '+' || p.ua[st] == '.') {
			st++
		}
		if st < end && en > i+1 && strings.Contains(p.ua[i:en], ".") {
			if end < i {
				s.email = p.ua[st:end] + strings.TrimRight(p.ua[i:en], ".")
			} else {
				s.email = strings.TrimRight(p.ua[st:en], ".")
			}
		}
	}
	if s.email == "" {
		if i := p.index(kwAtBracket); i >= 0 {
			s.email = spelledEmail(p.ua, p.low, i, len("[at]"), false)
		} else if i := p.index(kwAtWord); i >= 0 {
			s.email = spelledEmail(p.ua, p.low, i+1, len("at"), true)
		}
	}
	if i := p.index(kwHTTPWord); i >= 0 {
		en := i
		for en < len(p.ua) && !isSpace(p.ua[en]) && p.ua[en] != ')' && p.ua[en] != ';' && p.ua[en] != ',' {
			en++
		}
		s.url = p.ua[i:en]
	} else if p.hasAny(&hostNeedles) {
		s.url = hostNameIn(p.ua)
	}
	s.uuid = findUUID(p.ua)
	if s.uuid == "" {
		if i := p.index(kwUIDTag); i >= 0 {
			s.uuid = taggedID(p.ua, p.low, i)
		}
	}
	// Internet Explorer 8 and later can emulate an older release for old
	// sites: it then sends the older "MSIE" version next to its own
	// Trident engine, which is always 4 behind the real release.
	if v, ok := p.entryVersion("msie "); ok {
		if t, ok := p.entryVersion("trident/"); ok && atoiPrefix(v) < atoiPrefix(t)+4 && isVersionLike(v) {
			s.ieCompat = cleanVersion(v)
		}
	}
	scripted := p.has(kwUnderscoreHash)
	for _, e := range p.entries {
		if code := localeOf(p.text(e), p.ltext(e), scripted); code != "" {
			s.langCode, s.lang = code, languageName(p, code)
			break
		}
	}
}

// hostNameIn returns the first host name written without a scheme in the
// user agent ("www.example.com", "example.io", the product "Example.com/1.2",
// an app's reversed identifier "com.example.app"), or the empty string. A
// client that names a site names where to learn about it, as a URL does.
// The name stops before a path; the domain of an e-mail address is not one.
func hostNameIn(ua string) string {
	for i := 0; i < len(ua); i++ {
		// Jump from dot to dot: most bytes are not one.
		k := strings.IndexByte(ua[i:], '.')
		if k < 0 {
			return ""
		}
		i += k
		if i == 0 || i+1 >= len(ua) || !isAlnum(ua[i-1]) || !isLetter(ua[i+1]) {
			continue
		}
		st := i
		for st > 0 && isHostChar(ua[st-1]) {
			st--
		}
		en := i
		for en < len(ua) && isHostChar(ua[en]) {
			en++
		}
		if (st > 0 && (ua[st-1] == '@' || ua[st-1] == '\\')) || (en < len(ua) && ua[en] == '@') {
			i = en
			continue
		}
		if h := cutDotDash.trimRight(ua[st:en]); isHostName(h) {
			return h
		}
		i = en
	}
	return ""
}

func isHostChar(c byte) bool { return isAlnum(c) || c == '.' || c == '-' || c == '_' }

// hostTLDs are the top level domains a host name written without a scheme
// must end in: the generic ones and the country codes robots and apps use
// most. A version ("1.2") or a token like "InfoPath.3" never ends in one.
var hostTLDs map[string]bool

func buildHostTLDs() map[string]bool {
	return map[string]bool{
		"com": true, "org": true, "net": true, "io": true, "eu": true, "nl": true, "de": true, "fr": true,
		"uk": true, "ru": true, "jp": true, "cn": true, "ly": true, "info": true, "biz": true, "co": true,
		"ai": true, "app": true, "dev": true, "tech": true, "zone": true, "be": true, "ch": true, "at": true,
		"es": true, "pl": true, "se": true, "cz": true, "us": true, "gov": true, "edu": true,
	}
}

// hostNeedles are the texts every host name hostNameIn accepts holds: a
// dot and a top level domain, "www." or a reversed identifier's root and
// its dot. A user agent with none of them (most) skips the search.
var hostNeedles needleGroup

func buildHostNeedles() needleGroup {
	var words []string
	for t := range hostTLDs {
		words = append(words, "."+t)
	}
	for r := range reversedIDRoots {
		words = append(words, r+".")
	}
	sort.Strings(words) // the needle identifiers do not depend on map order
	return uaNeedles.group(append(words, "www."))
}

// reversedIDRoots are the first labels of the reversed domain names apps
// take as identifiers ("com.example.app").
var reversedIDRoots map[string]bool

// isHostName reports whether h is shaped like a host name: two or more
// labels of letters, digits, "-" or "_", and either a known top level
// domain after a label with a letter, a "www." start, or an app's reversed
// identifier of three labels or more.
func isHostName(h string) bool {
	// The labels are walked in place: this runs on every user agent
	// without a URL, and must not allocate.
	n, first, last, beforeLast := 0, "", "", ""
	for st := 0; st <= len(h); {
		en := strings.IndexByte(h[st:], '.')
		if en < 0 {
			en = len(h)
		} else {
			en += st
		}
		l := h[st:en]
		if l == "" {
			return false
		}
		if n == 0 {
			first = l
		}
		beforeLast, last = last, l
		n++
		st = en + 1
	}
	if n < 2 {
		return false
	}
	switch {
	case inLowerSet(hostTLDs, last) && hasLetter(beforeLast):
		return true
	case strings.EqualFold(first, "www") && n >= 3:
		return true
	case inLowerSet(reversedIDRoots, first) && n >= 3 && hasLetter(last) && !hasDigitStart(last):
		return true
	}
	return false
}

// inLowerSet reports whether the lower case form of a short s is in m,
// lower-casing on the stack.
func inLowerSet(m map[string]bool, s string) bool {
	if len(s) > 8 {
		return false
	}
	var buf [8]byte
	return m[asciiLowerInto(s, buf[:])]
}

func hasLetter(s string) bool {
	for i := 0; i < len(s); i++ {
		if isLetter(s[i]) {
			return true
		}
	}
	return false
}

func hasDigitStart(s string) bool { return s != "" && s[0] >= '0' && s[0] <= '9' }

// kwUIDTag marks an identifier written as a tagged word, "uid_<id>": the
// key, an underscore and the value glued into one word, the form a
// key-value pair takes where the user agent has no room for "=".
var kwUIDTag needleID

// taggedID returns the identifier of the tagged word "uid_<id>" found at
// ua[at:] (low is ua in lower case), or the empty string. The tag must
// start a word (not "fbuid_"); the identifier runs to the next space or
// separator and counts as one only when it holds eight characters or more,
// letters, digits and dashes, at least one of them a digit: a device's
// hexadecimal Android ID ("uid_69907699e1ae0a29"), a UUID, or an app's own
// made-up identifier ("uid_TheDevice-UUID-123"). The next "uid_" is tried
// when the first is not one.
func taggedID(ua, low string, at int) string {
	for at >= 0 {
		st := at + len("uid_")
		en := st
		digit := false
		for en < len(ua) && (isAlnum(ua[en]) || ua[en] == '-') {
			digit = digit || ua[en] >= '0' && ua[en] <= '9'
			en++
		}
		if (at == 0 || !isAlnum(ua[at-1])) && en-st >= 8 && digit &&
			(en == len(ua) || isSpace(ua[en]) || ua[en] == ';' || ua[en] == ')' || ua[en] == ',') {
			return ua[st:en]
		}
		k := strings.Index(low[st:], "uid_")
		if k < 0 {
			return ""
		}
		at = st + k
	}
	return ""
}

// findUUID returns the first UUID ("8-4-4-4-12" hexadecimal digits) in
// the user agent, the installation or device identifier some apps send, or
// the empty string.
func findUUID(ua string) string {
	const n = 36
	for off := 0; off+n <= len(ua); {
		k := strings.IndexByte(ua[off+8:], '-')
		if k < 0 {
			return ""
		}
		st := off + k // the candidate starts 8 bytes before the dash
		if isUUIDAt(ua, st) && (st == 0 || !isHex(ua[st-1])) && (st+n == len(ua) || !isHex(ua[st+n])) {
			return ua[st : st+n]
		}
		off = st + 1
	}
	return ""
}

func isUUIDAt(s string, i int) bool {
	if i < 0 || i+36 > len(s) {
		return false
	}
	for j := 0; j < 36; j++ {
		c := s[i+j]
		if j == 8 || j == 13 || j == 18 || j == 23 {
			if c != '-' {
				return false
			}
		} else if !isHex(c) {
			return false
		}
	}
	return true
}

// spelledEmail reads an e-mail address spelled out against address
// harvesters around the "at" marker ua[at:at+n]: the local part is the word
// before it, the domain the words after it joined by "[dot]", "dot" or ".":
// "support [at] example [dot] com" and "webcrawler at example dot nl" are
// support@example.com and webcrawler@example.nl. A bare word "at" is English
// as often as not, so wordsOnly asks for the domain to spell at least one
// "dot" as a word. It returns "" when there is no such address; only then
// does it allocate.
func spelledEmail(ua, low string, at, n int, wordsOnly bool) string {
	e := at
	for e > 0 && ua[e-1] == ' ' {
		e--
	}
	st := e
	for st > 0 && isEmailChar(ua[st-1]) {
		st--
	}
	for st < e && (ua[st] == '+' || ua[st] == '.') {
		st++
	}
	if st == e {
		return ""
	}
	var parts [8]string
	np, spelledDot := 0, false
	k := at + n
words:
	for np < len(parts) {
		for k < len(ua) && ua[k] == ' ' {
			k++
		}
		w := k
		for k < len(ua) && isEmailChar(ua[k]) && ua[k] != '+' {
			k++
		}
		if k == w {
			break
		}
		parts[np] = strings.Trim(ua[w:k], ".")
		np++
		j := k
		for j < len(ua) && ua[j] == ' ' {
			j++
		}
		switch {
		case strings.HasPrefix(low[j:], "[dot]"):
			k = j + len("[dot]")
		case strings.HasPrefix(low[j:], "dot ") && j > k:
			k = j + len("dot")
		default:
			break words // the domain ends here
		}
		spelledDot = true
	}
	if np == 0 || wordsOnly && !spelledDot || np == 1 && !strings.Contains(parts[0], ".") {
		return ""
	}
	for i := 0; i < np; i++ {
		if parts[i] == "" {
			return ""
		}
	}
	return ua[st:e] + "@" + strings.Join(parts[:np], ".")
}

// afterGluedVersion returns where an e-mail address whose local part
// ua[st:at] begins right after a product's "/" really starts: after the
// product's version (digits and dots, with at least one dot) when letters
// or a "+" follow it. Otherwise it returns st.
func afterGluedVersion(ua string, st, at int) int {
	if st == 0 || ua[st-1] != '/' {
		return st
	}
	k, dot := st, false
	for k < at && (ua[k] >= '0' && ua[k] <= '9' || ua[k] == '.') {
		dot = dot || ua[k] == '.'
		k++
	}
	if !dot || k == st || k >= at || !(isLetter(ua[k]) || ua[k] == '+') {
		return st
	}
	return k
}

func isEmailChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_' || c == '+'
}
