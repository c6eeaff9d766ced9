package uaparse

import "strings"

// namedRobotRow is a row of tables/named_robots.tsv: a robot, monitor or
// HTTP client known by its name, with the company behind it; notRobot
// marks a name that keeps a user agent from being a named robot.
type namedRobotRow struct {
	company, name string
	notRobot      bool
}

// nameMasks turns away, without hashing, almost every name that is not a
// key of a table looked up by whole names: first has, for a hash of the
// first two bytes of a key (nameBucket), bit n set when a key of length n
// (2 to 63) starts with those bytes, and last the same for the last two
// bytes. Most product names and comment entries of a user agent
// ("mozilla", "chrome", "windows nt 10.0") fail one of the two bit tests;
// a name must pass both to be looked up ("applewebkit" has the length and
// the first two bytes of "apache nifi", not its last two).
type nameMasks struct {
	first, last [1024]uint64
}

// wholeNameMasks are the masks of the keys of every table looked up by
// whole names (named robots and apps, browser tags, processor tags): one
// pair of 8 KiB masks for all of them stays in the processor's first level
// cache, where a pair per table would crowd it; a name that passes is then
// looked up in the table asked about.
var wholeNameMasks nameMasks

// add records the lower case key k; it panics for a key the masks cannot
// hold, a mistake in a table found by the first test run.
func (m *nameMasks) add(table, k string) {
	if len(k) < 2 || len(k) >= 64 {
		panic("table " + table + ": key " + k + " is not 2 to 63 bytes long")
	}
	m.first[nameBucket(k)] |= 1 << len(k)
	m.last[nameBucket(k[len(k)-2:])] |= 1 << len(k)
}

// mayHold reports whether the lower case name can be a key.
func (m *nameMasks) mayHold(lname string) bool {
	return len(lname) >= 2 && len(lname) < 64 && m.first[nameBucket(lname)]&(1<<len(lname)) != 0 &&
		m.last[nameBucket(lname[len(lname)-2:])]&(1<<len(lname)) != 0
}

// keyStarts is a bit set of the nameBuckets of the first two bytes of one
// table's keys (128 bytes): a rule that looks for a key at the start of
// words or entries of its own table asks it before anything else.
type keyStarts [16]uint64

func (k *keyStarts) add(key string) {
	b := nameBucket(key)
	k[b>>6] |= 1 << (b & 63)
}

// mayStart reports whether a key of the table can start s, which has two
// bytes at least.
func (k *keyStarts) mayStart(s string) bool {
	b := nameBucket(s)
	return k[b>>6]&(1<<(b&63)) != 0
}

// nameBucket hashes the first two bytes of s, which has two at least.
func nameBucket(s string) int {
	return (int(s[0])<<3 ^ int(s[1])) & 1023
}

// namedRobots maps the lower case key of every row of
// tables/named_robots.tsv to the row; its keys are in wholeNameMasks.
var namedRobots map[string]namedRobotRow

func buildNamedRobots() map[string]namedRobotRow {
	rows := loadTable("named_robots.tsv", tableColumns["named_robots.tsv"])
	m := make(map[string]namedRobotRow, len(rows))
	for _, r := range rows {
		key := asciiLower(r[0])
		switch r[1] {
		case "robot":
			m[key] = namedRobotRow{company: r[2], name: r[3]}
		case "not-robot":
			m[key] = namedRobotRow{notRobot: true}
		default:
			panic("table named_robots.tsv: kind " + r[1] + " is not robot or not-robot")
		}
		wholeNameMasks.add("named_robots.tsv", key)
		namedRobotStarts.add(key)
		addStart3(key)
	}
	return m
}

// namedRobotStarts are the first two bytes of the named robots' keys, and
// namedRobotStarts3 their first three (a key of two bytes, "bw", followed
// by the "/" or " " that ends a name in a comment entry): a comment entry
// that starts with neither holds no named robot, whole or as "Name/1.0".
var namedRobotStarts, namedRobotStarts3 keyStarts

// entryMayNameRobot reports whether a key of the named robots can start
// the lower case comment entry lt.
func entryMayNameRobot(lt string) bool {
	if len(lt) <= 2 {
		return len(lt) == 2 && namedRobotStarts.mayStart(lt)
	}
	return namedRobotStarts3.mayStart3(lt)
}

// addStart3 records the first three bytes of the lower case key k.
func addStart3(k string) {
	if len(k) == 2 {
		namedRobotStarts3.add3(k + "/")
		namedRobotStarts3.add3(k + " ")
		return
	}
	namedRobotStarts3.add3(k)
}

// add3 and mayStart3 are add and mayStart for the first three bytes of a
// key (three at least).
func (k *keyStarts) add3(key string) {
	b := nameBucket3(key)
	k[b>>6] |= 1 << (b & 63)
}

func (k *keyStarts) mayStart3(s string) bool {
	b := nameBucket3(s)
	return k[b>>6]&(1<<(b&63)) != 0
}

// nameBucket3 hashes the first three bytes of s, which has three at least.
func nameBucket3(s string) int {
	return (int(s[0])*31*31 + int(s[1])*31 + int(s[2])) & 1023
}

// lookupNamedRobot returns the row whose key is the lower case name lname.
func lookupNamedRobot(lname string) (namedRobotRow, bool) {
	if !wholeNameMasks.mayHold(lname) {
		return namedRobotRow{}, false
	}
	r, ok := namedRobots[lname]
	return r, ok
}

// namedRobotPrefix returns the row of the longest key that starts the
// lower case name lname.
func namedRobotPrefix(lname string) (namedRobotRow, bool) {
	if len(lname) < 2 || !namedRobotStarts.mayStart(lname) {
		return namedRobotRow{}, false
	}
	// Every key that starts lname starts with its first two bytes.
	mask := wholeNameMasks.first[nameBucket(lname)]
	for n := min(len(lname), 63); n >= 2 && mask != 0; n-- {
		if mask&(1<<n) == 0 {
			continue
		}
		if r, ok := namedRobots[lname[:n]]; ok {
			return r, true
		}
	}
	return namedRobotRow{}, false
}

// entryNameVersion splits a comment entry written as a product: "Ask
// Jeeves/Teoma" at its slash, "gocrawl v0.4" before a last word that is
// a version (a digit, or "v" and a digit, first). It returns where the
// name ends and where the version starts and ends in t, or nameEnd 0 for
// an entry that is not so written.
func entryNameVersion(t string) (nameEnd, verStart, verEnd int) {
	if k := strings.IndexByte(t, '/'); k > 0 {
		end := len(t)
		if sp := strings.IndexAny(t[k+1:], " ;"); sp > 0 {
			end = k + 1 + sp
		}
		return len(strings.TrimRight(t[:k], " ")), k + 1, end
	}
	if k := strings.LastIndexByte(t, ' '); k > 0 {
		w := t[k+1:]
		if isVersionLike(w) || len(w) > 1 && (w[0] == 'v' || w[0] == 'V') && w[1] >= '0' && w[1] <= '9' {
			return len(strings.TrimRight(t[:k], " ")), k + 1, len(t)
		}
	}
	return 0, 0, 0
}

// namedRobot recognises a robot, monitor or HTTP client that Yauaa knows
// by name (tables/named_robots.tsv, its NamedRobots lookup): a product
// whose name is a key ("TrueClicks/LinkTester"), a comment entry that is
// one ("(compatible; Kapow Technologies RoboSuite)") or a product written
// in a comment ("(compatible; Ask Jeeves/Teoma)"); the first in the string
// wins, products before comments. The client is that company's robot, running in a cloud, whatever browser, engine and
// device tokens it also sends; its product's version is the engine's and
// the agent's. A user agent that names a server or client of the
// federated social networks, or docker, is not a named robot (Yauaa's
// TagsKnownNotToBeRobots). It reports whether it recognised one: the
// structural robot rules (detectRobot) then have nothing to add, as the
// name is a fact and outranks what they read.
func (s *state) namedRobot() bool {
	row, ver, found := s.findNamedRobot()
	if !found {
		s.namesNotRobot = row.notRobot
		return false
	}
	s.setNamedRobot(row, ver, confTable)
	return true
}

// findNamedRobot returns the first named robot of the user agent and its
// version. When the user agent names something that is not a robot, it
// returns that row (notRobot set) and found false.
func (s *state) findNamedRobot() (row namedRobotRow, ver string, found bool) {
	p := s.p
	products, entries := s.keyCandidates()
	for i := 0; products != 0 && i < len(p.products); i++ {
		pr := &p.products[i]
		if !keyAt(products, i) {
			continue
		}
		r, ok := lookupNamedRobot(pr.lname)
		if !ok {
			continue
		}
		if r.notRobot {
			return r, "", false
		}
		if !found {
			row, ver, found = r, pr.version, true
		}
	}
	for i, e := range p.entries {
		lt := p.ltext(e)
		if !entryMayNameRobot(lt) {
			// No key starts with the entry's first three bytes, so
			// neither the entry nor a name at its start is one (no key
			// is shorter than two bytes, and "bw" is followed by a
			// separator in an entry that holds it).
			continue
		}
		var r namedRobotRow
		ok := false
		if keyAt(entries, i) {
			r, ok = lookupNamedRobot(lt)
		}
		v := ""
		if !ok {
			// The entry has the same offsets in the lower case copy, so
			// the version is read from the original's case.
			if n, vs, ve := entryNameVersion(lt); n > 0 {
				r, ok = lookupNamedRobot(lt[:n])
				v = p.text(e)[vs:ve]
			}
		}
		if !ok {
			continue
		}
		if r.notRobot {
			return r, "", false
		}
		if !found {
			row, ver, found = r, v, true
		}
	}
	return row, ver, found
}

// namedRobotByPrefix is namedRobot for the longest key that starts the
// first product's name ("Y!J-BRW/1.0", "Apache_Beam_SDK_for_Python/2.0"):
// a weaker reading than a name that equals a key, and than the structural
// robot rules ("TurnitinBot" is a bot of its own before it is a
// "Turnitin"), so it runs only when those found no robot (Yauaa gives
// this matcher a lower confidence than both).
func (s *state) namedRobotByPrefix() {
	p := s.p
	if len(p.products) == 0 {
		return
	}
	r, ok := namedRobotPrefix(p.products[0].lname)
	if !ok || r.notRobot {
		return
	}
	if row, _, found := s.findNamedRobot(); !found && row.notRobot {
		return
	}
	s.setNamedRobot(r, p.products[0].version, confTable-1)
}

// setNamedRobot writes the answer for the named robot row, whose product
// has version ver, with confidence c.
func (s *state) setNamedRobot(row namedRobotRow, ver string, c conf) {
	p := s.p
	if strings.Contains(ver, "://") || strings.HasPrefix(ver, "+") {
		ver = "" // the slash was a URL's, not a version's
	}
	ver = cleanVersion(ver)
	class := "Robot"
	for i := range p.products {
		if p.products[i].lname == "mobile safari" {
			// A robot that sends a phone's browser tokens is a mobile
			// robot.
			class = "Robot Mobile"
			break
		}
	}
	brand := normalizeNameIn(p, row.company)
	s.setDevice(c, class, brand, robotDeviceName(p, brand, row.name, p.lower(row.name)))
	s.devCPU.set("", c)
	s.os = osInfo{name: "Cloud", version: Unknown, class: "Cloud"}
	s.setEngine(c, "Robot", row.name, ver)
	agent := row.name
	if asciiLower(agent) == agent {
		// An all lower case name is shown capitalised ("okhttp" is
		// "Okhttp"), as the structural robot rules show it.
		agent = normalizeRobotAgent(agent)
	}
	s.setAgent(c, "Robot", agent, ver)
}
