package uaparse

import "testing"

// The named robot rule with examples written for it from rows of
// tables/named_robots.tsv (Yauaa's NamedRobots lookup). The user agents
// are made up around the table's names, in the shapes the rule reads: a
// product, a comment entry, a product inside a comment, a key that starts
// the first product's name; none is a Yauaa or DEV test case.

func TestNamedRobotLookup(t *testing.T) {
	for _, c := range []struct {
		lname, name string
		ok          bool
	}{
		{"statuscake", "StatusCake", true},
		{"kapow technologies robosuite", "Kapow Technologies RoboSuite", true},
		{"y!j-wsc", "Yahoo! Japan WSC Bot", true},
		{"statuscakes", "", false},
		{"statuscak", "", false},
		{"mozilla", "", false},
		{"", "", false},
	} {
		r, ok := lookupNamedRobot(c.lname)
		if ok != c.ok || r.name != c.name {
			t.Errorf("lookupNamedRobot(%q) = %q, %v; want %q, %v", c.lname, r.name, ok, c.name, c.ok)
		}
	}
	for _, c := range []struct{ lname, name string }{
		// The longest key that starts the name wins: "y!j-wsc" before "y!j-".
		{"y!j-wsc", "Yahoo! Japan WSC Bot"},
		{"y!j-example", "Yahoo! Japan Bot"},
		{"apache_beam_sdk_for_go", "Apache Beam"},
		{"apache", ""},
		{"firefox", ""},
	} {
		if r, _ := namedRobotPrefix(c.lname); r.name != c.name {
			t.Errorf("namedRobotPrefix(%q) = %q, want %q", c.lname, r.name, c.name)
		}
	}
	// Keys whose name Yauaa's set says is not a robot's.
	for _, k := range []string{"docker", "tusky", "mastodon"} {
		if r, ok := lookupNamedRobot(k); !ok || !r.notRobot {
			t.Errorf("lookupNamedRobot(%q) = %+v, %v; want a not-robot row", k, r, ok)
		}
	}
}

func TestEntryNameVersion(t *testing.T) {
	for _, c := range []struct{ t, name, ver string }{
		{"ask jeeves/teoma", "ask jeeves", "teoma"},
		{"swayy/2.1 beta", "swayy", "2.1"},
		{"gocrawl v1.2", "gocrawl", "v1.2"},
		{"echoping 6.0", "echoping", "6.0"},
		{"windows nt 10.0", "windows nt", "10.0"},
		{"compatible", "", ""},
		{"kapow technologies robosuite", "", ""},
		{"via proxy", "", ""},
	} {
		n, vs, ve := entryNameVersion(c.t)
		if c.t[:n] != c.name || c.t[vs:ve] != c.ver {
			t.Errorf("entryNameVersion(%q) = %q, %q; want %q, %q", c.t, c.t[:n], c.t[vs:ve], c.name, c.ver)
		}
	}
}

func TestNamedRobots(t *testing.T) {
	robot := func(class, brand, name, engine, agent, version string) map[string]string {
		return map[string]string{"DeviceClass": class, "DeviceBrand": brand, "DeviceName": name,
			"OperatingSystemClass": "Cloud", "OperatingSystemName": "Cloud", "LayoutEngineClass": "Robot",
			"LayoutEngineName": engine, "LayoutEngineVersion": version, "AgentClass": "Robot", "AgentName": agent,
			"AgentVersion": version}
	}
	checkRuleCases(t, []ruleCase{
		// A product named after the key; before the table it was a
		// "Special" client of unknown device.
		{"StatusCake/2.0", robot("Robot", "StatusCake", "StatusCake", "StatusCake", "StatusCake", "2.0")},
		// A comment entry that is the key: no version of its own.
		{"Mozilla/5.0 (compatible; Swayy)", robot("Robot", "Swayy", "Swayy", "Swayy", "Swayy", "Unknown")},
		// A product written inside a comment, with a slash or a "v" version.
		{"Mozilla/5.0 (compatible; Turnitin/3.1)", robot("Robot", "Turnitin", "Turnitin", "Turnitin", "Turnitin", "3.1")},
		{"Mozilla/5.0 (X11; Linux x86_64) (compatible; gocrawl v1.2)", robot("Robot", "Gocrawl", "Gocrawl", "GoCrawl", "GoCrawl", "v1.2")},
		// An all lower case name is shown capitalised as the agent, kept
		// as the engine; the company's name is normalised.
		{"evc-batch/1.0", robot("Robot", "EVC-Batch", "EVC-Batch", "evc-batch", "Evc-Batch", "1.0")},
		// The company differs from the name: the device is "Company Name".
		{"Mozilla/5.0 (compatible; Vagabondo/5.2)", robot("Robot", "Wise-Guys", "Wise-Guys Vagabondo", "Vagabondo", "Vagabondo", "5.2")},
		// A key that starts the first product's name.
		{"Apache_Beam_SDK_for_Java/2.41.0", robot("Robot", "Apache", "Apache Beam", "Apache Beam", "Apache Beam", "2.41.0")},
		{"Y!J-XYZ/1.0", robot("Robot", "Yahoo! Japan", "Yahoo! Japan BOT", "Yahoo! Japan Bot", "Yahoo! Japan Bot", "1.0")},
		// A phone's browser tokens make it a mobile robot, whatever
		// device they name.
		{"Mozilla/5.0 (Linux; Android 13; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/116.0.0.0 Mobile Safari/537.36 SeoSiteCheckup",
			robot("Robot Mobile", "SeositeCheckup", "SeositeCheckup", "SeoSiteCheckup", "SeoSiteCheckup", "Unknown")},
		// A robot word read by the structural rules outranks a key that
		// only starts the name ("keeper").
		{"Keeperbot/1.0", map[string]string{"DeviceClass": "Robot", "DeviceBrand": "Unknown", "AgentName": "Keeperbot"}},
		// A federated social network client or docker is not a named
		// robot, though it names an HTTP library of the table.
		{"Tusky/22.0 (okhttp/4.10.0)", map[string]string{"DeviceClass": "Unknown", "AgentClass": "Special", "AgentName": "Tusky"}},
		{"Mozilla/5.0 (compatible; Hackney/1.18.0; docker)", map[string]string{"DeviceClass": "Unknown", "AgentName": "Hackney"}},
	})
}

// TestNamedRobotStarts shows the entry filter of findNamedRobot
// (entryMayNameRobot) letting
// through every key at the start of an entry, whole or followed by a
// version, and the two-byte key alone or with one.
func TestNamedRobotStarts(t *testing.T) {
	for _, lt := range []string{"bw", "bw/1.0", "bw 2.0", "ask jeeves/teoma", "gocrawl v0.4", "kapow technologies robosuite"} {
		if !entryMayNameRobot(lt) {
			t.Errorf("entry %q is turned away", lt)
		}
	}
	checkRuleCases(t, []ruleCase{
		{"Mozilla/5.0 (compatible; BW)", map[string]string{"DeviceClass": "Robot", "AgentName": "BuildWith Indexer"}},
	})
}
