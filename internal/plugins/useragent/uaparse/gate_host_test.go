package uaparse

import "testing"

// TestHostNeedlesGate: hostNameIn runs only where the needle scan found one
// of hostNeedles; every host name it accepts holds one of them, so the gate
// hides none. Checked on every DEV user agent and on host names written
// for the rule.
func TestHostNeedlesGate(t *testing.T) {
	uas := []string{
		"ExampleBot (WWW.EXAMPLE.ORG)", "Example.IO/1.0", "App/1 (COM.Example.App; build:1)",
		"Fetcher for exampledata.co.uk", "x nl.example.app y", "Tool/2 +tool.zone",
	}
	for _, c := range loadDev(t) {
		uas = append(uas, c.UA)
	}
	found := 0
	for _, ua := range uas {
		h := hostNameIn(ua)
		if h == "" {
			continue
		}
		found++
		if p := parse(ua); !p.hasAny(&hostNeedles) {
			t.Errorf("hostNameIn(%q) = %q, but the gate would skip it", ua, h)
		}
	}
	if found < 20 {
		t.Errorf("only %d user agents with a host name: the check checks little", found)
	}
}
