package uaparse

import (
	"strings"
	"unsafe"
)

// concat joins parts in the analysis's arena (parsed.arena), or in a new
// string when p is nil, has no arena or the arena is full. The result is
// valid until releaseParsed: analyze copies every value out before (pack).
func (p *parsed) concat(parts ...string) string {
	n := 0
	for _, s := range parts {
		n += len(s)
	}
	if n == 0 {
		return ""
	}
	if p == nil || len(p.arena)+n > cap(p.arena) {
		return strings.Join(parts, "")
	}
	start := len(p.arena)
	for _, s := range parts {
		p.arena = append(p.arena, s...)
	}
	return p.arenaString(start)
}

// keep copies b, which is about to be overwritten, into the arena as
// concat does.
func (p *parsed) keep(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if p == nil || len(p.arena)+len(b) > cap(p.arena) {
		return string(b)
	}
	start := len(p.arena)
	p.arena = append(p.arena, b...)
	return p.arenaString(start)
}

// lower is asciiLower with the copy, when one is needed, in the arena.
func (p *parsed) lower(s string) string {
	i := 0
	for i < len(s) && (s[i] < 'A' || s[i] > 'Z') {
		i++
	}
	if i == len(s) {
		return s
	}
	if p == nil || len(p.arena)+len(s) > cap(p.arena) {
		return asciiLower(s)
	}
	start := len(p.arena)
	p.arena = append(p.arena, s...)
	b := p.arena[start:]
	for ; i < len(b); i++ {
		if c := b[i]; c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return p.arenaString(start)
}

// arenaString is the arena from start on as a string. The arena's bytes
// are not written again before releaseParsed (append only adds), so they
// can back the string without a copy.
func (p *parsed) arenaString(start int) string {
	b := p.arena[start:]
	return unsafe.String(&b[0], len(b))
}

// indexLower is strings.Index(asciiLower(s), sub) without the copy; sub is
// lower case.
func indexLower(s, sub string) int {
	if sub == "" {
		return 0
	}
	for i := 0; i+len(sub) <= len(s); i++ {
		if lowerASCII(s[i]) == sub[0] && asciiHasPrefixLower(s[i:], sub) {
			return i
		}
	}
	return -1
}

// hasUpperASCII reports whether s has a letter from A to Z, that is
// whether asciiLower(s) != s.
func hasUpperASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 'A' && s[i] <= 'Z' {
			return true
		}
	}
	return false
}
