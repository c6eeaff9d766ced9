package uaparse

// cutSet is a set of ASCII bytes to trim. strings.Trim, TrimLeft and
// TrimRight build such a set from their cut set argument on every call
// when it has more than one byte; the rules trim with a few fixed sets,
// many times per user agent, so each set is built once, when the package
// is initialised.
type cutSet [4]uint64

// newCutSet returns the set of the bytes of chars, which must be ASCII.
func newCutSet(chars string) cutSet {
	var s cutSet
	for i := 0; i < len(chars); i++ {
		c := chars[i]
		s[c>>6] |= 1 << (c & 63)
	}
	return s
}

func (s *cutSet) has(c byte) bool { return s[c>>6]&(1<<(c&63)) != 0 }

// trimLeft is strings.TrimLeft(v, chars) for the set of chars.
func (s *cutSet) trimLeft(v string) string {
	i := 0
	for i < len(v) && s.has(v[i]) {
		i++
	}
	return v[i:]
}

// trimRight is strings.TrimRight(v, chars) for the set of chars.
func (s *cutSet) trimRight(v string) string {
	i := len(v)
	for i > 0 && s.has(v[i-1]) {
		i--
	}
	return v[:i]
}

// trim is strings.Trim(v, chars) for the set of chars.
func (s *cutSet) trim(v string) string { return s.trimRight(s.trimLeft(v)) }

// The cut sets the rules trim with.
var (
	cutVersionTail   = newCutSet(";:,)")   // after a version: "4.0;", "1.2)"
	cutDotUnderscore = newCutSet("._")     // after the digits of a version
	cutSpaceDash     = newCutSet(" -_")    // between a brand and its model
	cutBrandGap      = newCutSet(" -_/")   // between a brand and its model
	cutSpaceSlash    = newCutSet(" /")     // between a name and its version
	cutSpaceSlashCol = newCutSet(" /:")    // between a name and its version
	cutSpaceSlashDsh = newCutSet(" /-")    // between a name and its version
	cutSpaceColDash  = newCutSet(" :-")    // before an API level
	cutModelGap      = newCutSet(" -_/+&") // between a model prefix and the rest
	cutRobotGap      = newCutSet(" -_!")   // between a robot's brand and its name
	cutSpaceParen    = newCutSet(" (")     // before a comment
	cutDotDash       = newCutSet(".-")     // after a host name
)
