package uaparse

import "strings"

// Rakuten Kobo's reading software. Its Android app shows the book store in
// the system web view and appends three products to the web view's user
// agent: "KoboApp/<version>", "KoboPlatform Id/<uuid>" (the platform the
// app runs on, in the UUID form Kobo's store API uses) and
// "KoboAffiliate/<name>" (the bookseller whose store the app was installed
// from). Kobo's desktop app for Windows and macOS renders pages in an
// embedded WebKit and names itself in the product before Safari's, without
// a version ("Kobo Desktop Edition Safari/538.1"). Both are reading
// software, classed eReader as Yauaa does, and both are the app in the web
// view. What Yauaa extracts for them is defined by its matchers in
// analyzer/src/main/resources/UserAgents/eBook.yaml (commit eb28d67): the
// KoboApp product as agent and engine, class eReader, the values of the two
// other products as KoboPlatformId and KoboAffiliate; the product starting
// with the words "Kobo Desktop Edition" as agent without a version.

var kwKobo needleID

// kobo recognises Kobo's reading apps by their products.
func (s *state) kobo() {
	p := s.p
	if !p.has(kwKobo) {
		return
	}
	for _, pr := range p.products {
		switch {
		case pr.lname == "koboapp":
			v := cleanVersion(pr.version)
			s.setEngine(confFamily, "eReader", "KoboApp", v)
			s.setAgent(confFamily, "eReader", "KoboApp", v)
			s.wvName.set("KoboApp", confFamily)
			s.wvVersion.set(v, confFamily)
		case pr.lname == "koboplatform id":
			if pr.version != "" {
				s.koboPlatformID = pr.version
			}
		case pr.lname == "koboaffiliate":
			if pr.version != "" {
				s.koboAffiliate = pr.version
			}
		case strings.HasPrefix(pr.lname, "kobo desktop edition"):
			s.setAgent(confFamily, "eReader", "Kobo Desktop Edition", Unknown)
			s.wvName.set("Kobo Desktop Edition", confFamily)
			s.wvVersion.set(Unknown, confFamily)
		}
	}
}

// koboReaderName is the device name of a Kobo e-reader from the comment
// entry its browser sends: "Kobo Touch", or "Kobo Touch 0373/4.20.14622"
// with the device's product number and firmware after the name, which are
// not part of it (the number is the end of its KoboPlatformId).
func koboReaderName(entry string) string {
	if k := strings.IndexByte(entry, '/'); k > 0 {
		if sp := strings.LastIndexByte(entry[:k], ' '); sp > 0 {
			entry = entry[:sp]
		}
	}
	return normalizeName(entry)
}
