package uaparse

// slot holds one finding of the rules and the confidence it was written
// with. The zero slot is empty (no value, below every confidence).
type slot struct {
	v string
	c conf
	// tied is true when the value was written over a different one of the
	// same confidence: then the order of the rules decided the answer.
	// TestNoAnswerDecidedByOrder requires it false on every golden input.
	tied bool
}

// set writes v when c is at least the confidence of the value in the slot,
// and reports whether it did.
func (sl *slot) set(v string, c conf) bool {
	if c < sl.c {
		return false
	}
	sl.tied = c == sl.c && (sl.tied || v != sl.v)
	sl.v, sl.c = v, c
	return true
}

// setDevice writes the device class, brand and name with one confidence.
func (s *state) setDevice(c conf, class, brand, name string) {
	s.devClass.set(class, c)
	s.devBrand.set(brand, c)
	s.devName.set(name, c)
}

// setEngine writes the layout engine class, name and version with one
// confidence.
func (s *state) setEngine(c conf, class, name, version string) {
	s.engClass.set(class, c)
	s.engName.set(name, c)
	s.engVersion.set(version, c)
}

// setAgent writes the agent class, name and version with one confidence.
func (s *state) setAgent(c conf, class, name, version string) {
	s.agClass.set(class, c)
	s.agName.set(name, c)
	s.agVersion.set(version, c)
}
