package uaparse

import "strings"

// extras fills informational attributes: e-mail, URL, UUID, language.
func (s *state) extras() {
	p := s.p
	if i := strings.IndexByte(p.ua, '@'); i > 0 {
		st := i
		for st > 0 && isEmailChar(p.ua[st-1]) {
			st--
		}
		en := i + 1
		for en < len(p.ua) && isEmailChar(p.ua[en]) {
			en++
		}
		if st < i && en > i+1 && strings.Contains(p.ua[i:en], ".") {
			s.email = strings.TrimRight(p.ua[st:en], ".")
		}
	}
	if i := p.index(kwHTTPWord); i >= 0 {
		en := i
		for en < len(p.ua) && !isSpace(p.ua[en]) && p.ua[en] != ')' && p.ua[en] != ';' && p.ua[en] != ',' {
			en++
		}
		s.url = p.ua[i:en]
	}
	s.uuid = findUUID(p.ua)
	// Internet Explorer 8 and later can emulate an older release for old
	// sites: it then sends the older "MSIE" version next to its own
	// Trident engine, which is always 4 behind the real release.
	if v, ok := p.entryVersion("msie "); ok {
		if t, ok := p.entryVersion("trident/"); ok && atoiPrefix(v) < atoiPrefix(t)+4 && isVersionLike(v) {
			s.ieCompat = cleanVersion(v)
		}
	}
	for _, e := range p.entries {
		if code := localeOf(p.text(e), p.ltext(e)); code != "" {
			s.langCode, s.lang = code, languageName(code)
			break
		}
	}
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

func isEmailChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_' || c == '+'
}
