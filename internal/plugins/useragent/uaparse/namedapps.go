package uaparse

import "strings"

// namedAppRow is a row of tables/named_apps.tsv: an app, mail program or
// browser known by the product name it sends.
type namedAppRow struct{ class, name string }

// namedApps maps the lower case key of every row of tables/named_apps.tsv
// to the row; its keys are in wholeNameMasks.
var namedApps map[string]namedAppRow

func buildNamedApps() map[string]namedAppRow {
	rows := loadTable("named_apps.tsv", tableColumns["named_apps.tsv"])
	m := make(map[string]namedAppRow, len(rows))
	for _, r := range rows {
		key := asciiLower(r[0])
		m[key] = namedAppRow{class: r[1], name: r[2]}
		wholeNameMasks.add("named_apps.tsv", key)
	}
	return m
}

// confNamedApp is the confidence of an app known by name: above what the
// app family reads from the structure of the string (an app's product
// after a browser's or a web view's, confFamily and one above it), below a
// robot reading, which outranks every client a robot names.
const confNamedApp = confFamily + 6

// namedApp names the agent after the first product whose name is a key of
// tables/named_apps.tsv (Yauaa's NONWebViewAppNamesMapping lookup): the
// app's class and name, and the product's version ("TV Bro/1.0 Mozilla/5.0
// (...)" is the TV Bro app, "com.google.android.apps.searchlite/444785" is
// Google Go). An app so named is not an app in a web view: the web view
// app found from the structure is dropped. A device that nothing else
// describes is a mobile device, the default for apps.
func (s *state) namedApp() {
	p := s.p
	candidates, _ := s.keyCandidates()
	for i := 0; candidates != 0 && i < len(p.products); i++ {
		pr := &p.products[i]
		if !keyAt(candidates, i) || !wholeNameMasks.mayHold(pr.lname) {
			continue
		}
		r, ok := namedApps[pr.lname]
		if !ok {
			continue
		}
		if !isVersionLike(pr.version) && s.agName.v == r.name {
			// "MicroMessenger/8.0.35.2360(0x28002353) WeChat/arm64":
			// the app already named by its own token keeps that token's
			// version where the named product carries a processor tag
			// or another word instead of one.
			return
		}
		s.setAgent(confNamedApp, r.class, r.name, cleanVersion(pr.version))
		s.wvName.set("", confNamedApp)
		s.wvVersion.set("", confNamedApp)
		// Below every other reading of the device: only a device that
		// no rule describes is taken for a mobile one.
		s.devClass.set("Mobile", confGuess-1)
		return
	}
}

// browserTags maps the lower case key of every row of
// tables/browser_tags.tsv to the browser's name; its keys are in
// wholeNameMasks.
var browserTags map[string]string

func buildBrowserTags() map[string]string {
	rows := loadTable("browser_tags.tsv", tableColumns["browser_tags.tsv"])
	m := make(map[string]string, len(rows))
	for _, r := range rows {
		key := asciiLower(r[0])
		m[key] = r[1]
		wholeNameMasks.add("browser_tags.tsv", key)
	}
	return m
}

// browserTag names the browser after the first product whose whole name
// is a key of tables/browser_tags.tsv (Yauaa's BrowserTagToNameMapping
// lookup): a browser built on Chromium adds its own product to Chrome's
// ("Chrome/17.0.963.46 Safari/535.11 MRCHROME" is Amigo). It refines only
// the generic reading of the Chrome token, or a browser the other rules
// named after the same product in its own spelling ("AlohaBrowser" is
// "Aloha Browser"): a browser, web view or app that they found otherwise
// is kept (tables/browsers.tsv already orders the browsers known by their
// last word, Opera's and Maxthon's among them). The product's version is
// the browser's; a product without one keeps the version found.
func (s *state) browserTag() {
	p := s.p
	if s.agClass.v != "Browser" {
		return
	}
	candidates, _ := s.keyCandidates()
	for i := 0; candidates != 0 && i < len(p.products); i++ {
		pr := &p.products[i]
		if !keyAt(candidates, i) || !wholeNameMasks.mayHold(pr.lname) {
			continue
		}
		n, ok := browserTags[pr.lname]
		if !ok || n == "Chrome" {
			continue
		}
		if s.agName.v != "Chrome" && !strings.EqualFold(s.agName.v, pr.name) {
			return
		}
		// One above the Chrome token's own refinements (its reduced
		// version is written with confProduct): the tag names another
		// browser.
		s.agName.set(n, confProduct+1)
		if isVersionLike(pr.version) {
			s.agVersion.set(cleanVersion(pr.version), confProduct+1)
		}
		return
	}
}
