package uaparse

import (
	"strings"
	"unicode/utf8"
)

// urlDecode undoes the URL encoding some clients apply to the whole user
// agent ("Mozilla%2F5.0+%28Linux%3B+..."). Other strings are returned
// unchanged, so a "%" in a normal user agent is left alone.
func urlDecode(ua string) string {
	// An encoded user agent has an encoded slash or space and an encoded
	// parenthesis, semicolon or plus for a space. Form encoding alone
	// ("Mozilla/5.0+(Windows+NT+10.0;+Win64;+x64)+...") leaves no space
	// and several plus signs.
	if strings.IndexByte(ua, '%') < 0 {
		if strings.IndexByte(ua, ' ') < 0 && strings.Count(ua, "+") >= 3 && strings.Contains(ua, "+(") {
			return strings.ReplaceAll(ua, "+", " ")
		}
		return ua // every encoded slash or space has a '%': one fast search for most user agents
	}
	slashOrSpace := strings.Contains(ua, "%2F") || strings.Contains(ua, "%2f") || strings.Contains(ua, "%20")
	// "Mozilla/5.0%20(Windows%20NT%2010.0;%20Win64...": only the spaces
	// are encoded.
	spacesOnly := strings.IndexByte(ua, ' ') < 0 && strings.Count(ua, "%20") >= 2
	if !slashOrSpace || !spacesOnly && !strings.Contains(ua, "%28") && !strings.Contains(ua, "%3B") && !strings.Contains(ua, "+") {
		return decodeFirstName(ua)
	}
	if strings.Contains(ua, "%252") || strings.Contains(ua, "..") {
		return ua // double encoding is a traversal probe: keep it for the hacker rules
	}
	b := make([]byte, 0, len(ua))
	for i := 0; i < len(ua); i++ {
		c := ua[i]
		switch {
		case c == '+':
			b = append(b, ' ')
		case c == '%' && i+2 < len(ua) && isHex(ua[i+1]) && isHex(ua[i+2]):
			b = append(b, unhex(ua[i+1])<<4|unhex(ua[i+2]))
			i += 2
		default:
			b = append(b, c)
		}
	}
	return string(b)
}

// decodeFirstName decodes the name of the first product when only that is
// percent-encoded, as CFNetwork apps send their bundle name
// ("Network%20Logger%20Pro/6.1 CFNetwork/976 Darwin/18.2.0"). Encoded
// control characters are left alone: they belong to probes.
func decodeFirstName(ua string) string {
	k := strings.IndexByte(ua, '/')
	if k <= 0 {
		return ua
	}
	name := ua[:k]
	if strings.IndexByte(name, '%') < 0 || strings.IndexByte(name, ' ') >= 0 || strings.Contains(name, "%25") ||
		strings.Contains(name, "..") {
		return ua
	}
	b := make([]byte, 0, len(ua))
	for i := 0; i < k; i++ {
		c := name[i]
		if c == '%' {
			if i+2 >= k || !isHex(name[i+1]) || !isHex(name[i+2]) {
				return ua
			}
			c = unhex(name[i+1])<<4 | unhex(name[i+2])
			if c < 0x20 || c == 0x7f || c == '/' || c == '.' {
				return ua
			}
			i += 2
		}
		b = append(b, c)
	}
	if !utf8.Valid(b) {
		return ua // overlong or broken sequences ("%c0%af") are probes
	}
	return string(append(b, ua[k:]...))
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func unhex(c byte) byte {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}
