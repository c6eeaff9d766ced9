package fastre

// ErrUnsupported exposes errUnsupported to the external tests.
var ErrUnsupported = errUnsupported

// ActiveSpans returns the number of spans of m that run their DFA, so that
// tests can check that they exercise spans.
func ActiveSpans(m *Matcher) int {
	n := 0
	for _, in := range m.prog {
		if in.op == opSpan {
			n++
		}
	}
	return n
}
