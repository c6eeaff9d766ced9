package uaparse

import (
	"bytes"
	"strings"
)

// normalizeName gives brand and model words the capitalisation users of
// Yauaa expect: short words and words with digits in upper case ("LG",
// "SM-T865", "X10I"), other words capitalised, with an inner capital kept
// only after a run of at least three lower case letters ("DesireHd",
// "SpeedCurve", "PhantomJs"). Underscores become spaces.
func normalizeName(s string) string { return normalizeNameIn(nil, s) }

// normalizeNameIn is normalizeName with the result in the analysis's
// arena (parsed.concat) when p has one.
func normalizeNameIn(p *parsed, s string) string {
	s = trimSpace(s)
	if s == "" {
		return s
	}
	if len(s) <= 3 {
		return strings.ToUpper(s)
	}
	// The words are written into out as they are read, on the stack for
	// names of usual length, so that the only allocation is the result.
	var stack [64]byte
	out := stack[:0]
	word := 0 // start of the current word in out
	lower := 0
	digits, ascii := false, true
	flush := func() {
		if len(out) == word {
			return
		}
		if len(out)-word <= 3 || digits {
			if ascii {
				for i := word; i < len(out); i++ {
					out[i] = upper(out[i])
				}
			} else {
				// strings.ToUpper maps other letters (and replaces
				// invalid UTF-8), as it always did here.
				out = append(out[:word], strings.ToUpper(string(out[word:]))...)
			}
		}
		word = len(out)
		lower = 0
		digits, ascii = false, true
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' {
			c = ' '
		}
		if c == ' ' || c == '-' || c == '/' || c == '(' || c == ')' {
			flush()
			if c == ' ' && len(out) > 0 && out[len(out)-1] == ' ' {
				continue // collapse runs of spaces
			}
			out = append(out, c)
			word = len(out)
			continue
		}
		if c >= '0' && c <= '9' {
			digits = true
		}
		if c >= 0x80 {
			ascii = false
		}
		switch {
		case len(out) == word:
			out = append(out, upper(c))
		case c >= 'A' && c <= 'Z':
			if lower >= 3 {
				out = append(out, c)
			} else {
				out = append(out, c+'a'-'A')
			}
			lower = 0
		default:
			out = append(out, c)
			if c >= 'a' && c <= 'z' {
				lower++
			}
		}
	}
	flush()
	return p.keep(bytes.TrimSpace(out))
}

func upper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}

// capitalize upper-cases the first letter only.
func capitalize(s string) string {
	if s == "" {
		return s
	}
	return string(upper(s[0])) + s[1:]
}

// versionMajor is the part of a version before the first dot, as Yauaa
// reports it ("71.0.3578.99" -> "71", "2~bl" -> "2~bl").
func versionMajor(v string) string {
	if v == "" || v == Unknown {
		return Unknown
	}
	if i := strings.IndexByte(v, '.'); i > 0 {
		return v[:i]
	}
	if i := strings.IndexByte(v, '_'); i > 0 {
		return v[:i]
	}
	if n := len(v); n > 1 && v[n-1] == '+' {
		return v[:n-1] // "420+": WebKit's mark of a build past release 420
	}
	return v
}

// cleanVersion trims decorations around a version token.
func cleanVersion(v string) string {
	v = trimSpace(v)
	v = cutVersionTail.trimRight(v)
	if v == "" {
		return Unknown
	}
	return v
}

// isVersionLike reports whether s starts with a digit, the shape of a real
// version number.
func isVersionLike(s string) bool {
	return s != "" && s[0] >= '0' && s[0] <= '9'
}

// leadingVersion returns the prefix of s made of digits, dots and
// underscores (converted to dots), e.g. "10_15_7 like" -> "10.15.7".
func leadingVersion(s string) string {
	end := 0
	for end < len(s) {
		c := s[end]
		if (c >= '0' && c <= '9') || c == '.' || c == '_' {
			end++
			continue
		}
		break
	}
	v := cutDotUnderscore.trimRight(s[:end])
	return strings.ReplaceAll(v, "_", ".")
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}
