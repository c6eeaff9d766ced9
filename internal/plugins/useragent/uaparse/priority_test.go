package uaparse

import "testing"

// TestSlotPriority shows the contract of a slot: the highest confidence
// wins whatever the order of the writes, and between equal confidences the
// later write wins (the order the rule families run in).
func TestSlotPriority(t *testing.T) {
	var a, b slot
	a.set("from a table", confTable)
	a.set("from a later, vaguer rule", confGeneric)
	b.set("from an earlier, vaguer rule", confGeneric)
	b.set("from a table", confTable)
	if a.v != "from a table" || b.v != "from a table" {
		t.Errorf("highest confidence must win in either order: %q, %q", a.v, b.v)
	}
	var c slot
	c.set("first", confGeneric)
	if !c.set("second", confGeneric) || c.v != "second" {
		t.Errorf("a tie goes to the later write: %q", c.v)
	}
	if c.set("guess", confGuess) || c.v != "second" {
		t.Errorf("a lower confidence must not overwrite: %q", c.v)
	}
	var s state
	s.setDevice(confStructure, "Robot", "Acme", "Acme Crawler")
	s.setDevice(confGeneric, "Desktop", "Dell", "Dell Desktop")
	if s.devClass.v != "Robot" || s.devBrand.v != "Acme" || s.devName.v != "Acme Crawler" {
		t.Errorf("setDevice at a lower confidence changed the device: %q %q %q", s.devClass.v, s.devBrand.v, s.devName.v)
	}
}
