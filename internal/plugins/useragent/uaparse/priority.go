package uaparse

// slot holds one finding of the rules and the confidence it was written
// with. The zero slot is empty (no value, below every confidence).
type slot struct {
	v string
	c conf
}

// set writes v when c is at least the confidence of the value in the slot,
// and reports whether it did.
func (sl *slot) set(v string, c conf) bool {
	if traceSet != nil {
		traceSet(sl, v, c)
	}
	if c < sl.c {
		return false
	}
	sl.v, sl.c = v, c
	return true
}

// traceSet, when not nil, sees every write of a slot before it is decided.
// Only tests set it (TestNoAnswerDecidedByOrder), to show that no answer is
// decided by the order of the rules; analysis never sets it.
var traceSet func(sl *slot, v string, c conf)

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
