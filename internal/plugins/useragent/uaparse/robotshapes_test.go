package uaparse

import "testing"

// TestRobotShapes checks the structural robot rules of robot.go with user
// agents written for each rule: the shape of the string, not a name, makes
// the client a robot.
func TestRobotShapes(t *testing.T) {
	robot := func(agent string) map[string]string {
		return map[string]string{"DeviceClass": "Robot", "OperatingSystemName": "Cloud", "AgentClass": "Robot",
			"LayoutEngineClass": "Robot", "AgentName": agent}
	}
	checkRuleCases(t, []ruleCase{
		// A crawler framework where the version would be.
		{"acme/Nutch-1.19", robot("Acme")},
		{"Example Search/Nutch-1.19 (+https://search.example.org/about)", robot("Example Search")},
		// A browser string signed with a maker's site; a name alone is an
		// anonymiser's signature.
		{"Mozilla/5.0 (compatible; MSIE 10.0; Windows NT 6.1; Trident/6.0) Check by example.com", robot("Check by")},
		{"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Render by example.org",
			robot("Render by")},
		{"Mozilla/5.0 (Windows NT 6.2) AppleWebKit/537.22 (KHTML, like Gecko) Chrome/96.0.1054.57 Safari/537.22 anonymized by Example",
			map[string]string{"DeviceClass": "Anonymized", "AgentClass": "Browser", "AgentName": "Chrome"}},
	})
}
