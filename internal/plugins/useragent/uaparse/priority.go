package uaparse

// conf is the confidence a rule has in a value it writes. Every write of an
// attribute finding goes through a slot with a confidence, and the highest
// confidence wins, as Yauaa's matchers carry a confidence per attribute: a
// rule that reads a named fact (a table entry) is not undone by a later,
// vaguer rule, whatever order the two run in. Between writes of equal
// confidence the later one wins, which is the order the rule families run
// in (analyze); rules written before priorities existed all write with
// confRule, so among them the order still decides.
type conf int8

const (
	// confGuess is a default inferred from weak hints (a class implied by
	// a "Mobile" token, a name taken from the first product).
	confGuess conf = 20
	// confRule is the confidence of the ordered rules written before
	// priorities: among themselves the later wins.
	confRule conf = 50
	// confStructure is a reading of the string's structure that is sure of
	// itself: a robot word in a product name, a library naming pattern, a
	// contact address in the comment.
	confStructure conf = 60
	// confTable is a fact looked up in a data table (tables/*.tsv): a
	// named robot, HTTP library, OEM code or app.
	confTable conf = 70
)

// slot holds one finding of the rules and the confidence it was written
// with. The zero slot is empty (no value, below every confidence).
type slot struct {
	v string
	c conf
}

// set writes v when c is at least the confidence of the value in the slot,
// and reports whether it did.
func (sl *slot) set(v string, c conf) bool {
	if c < sl.c {
		return false
	}
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
