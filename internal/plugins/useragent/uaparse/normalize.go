package uaparse

import "strings"

// normalizeName gives brand and model words the capitalisation users of
// Yauaa expect: short words and words with digits in upper case ("LG",
// "SM-T865", "X10I"), other words capitalised, with an inner capital kept
// only after a run of at least three lower case letters ("DesireHd",
// "SpeedCurve", "PhantomJs"). Underscores become spaces.
func normalizeName(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return s
	}
	if len(s) <= 3 {
		return strings.ToUpper(s)
	}
	var sb strings.Builder
	sb.Grow(len(s))
	word := make([]byte, 0, 32)
	lower := 0
	digits := false
	flush := func() {
		if len(word) == 0 {
			return
		}
		if len(word) <= 3 || digits {
			sb.WriteString(strings.ToUpper(string(word)))
		} else {
			sb.Write(word)
		}
		word = word[:0]
		lower = 0
		digits = false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' {
			c = ' '
		}
		if c == ' ' || c == '-' || c == '/' || c == '(' || c == ')' {
			flush()
			if c == ' ' && sb.Len() > 0 && strings.HasSuffix(sb.String(), " ") {
				continue // collapse runs of spaces
			}
			sb.WriteByte(c)
			continue
		}
		if c >= '0' && c <= '9' {
			digits = true
		}
		switch {
		case len(word) == 0:
			word = append(word, upper(c))
		case c >= 'A' && c <= 'Z':
			if lower >= 3 {
				word = append(word, c)
			} else {
				word = append(word, c+'a'-'A')
			}
			lower = 0
		default:
			word = append(word, c)
			if c >= 'a' && c <= 'z' {
				lower++
			}
		}
	}
	flush()
	return strings.TrimSpace(sb.String())
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
	v = strings.TrimSpace(v)
	v = strings.TrimRight(v, ";:,)")
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
	v := strings.TrimRight(s[:end], "._")
	return strings.ReplaceAll(v, "_", ".")
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}
