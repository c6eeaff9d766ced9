package uaparse

// namedAppRow is a row of tables/named_apps.tsv: an app, mail program or
// browser known by the product name it sends.
type namedAppRow struct{ class, name string }

// namedApps maps the lower case key of every row of tables/named_apps.tsv
// to the row; namedAppMasks are its keys' masks (nameMasks).
var namedApps, namedAppMasks = func() (map[string]namedAppRow, *nameMasks) {
	rows := loadTable("named_apps.tsv", tableColumns["named_apps.tsv"])
	m := make(map[string]namedAppRow, len(rows))
	masks := &nameMasks{}
	for _, r := range rows {
		key := asciiLower(r[0])
		m[key] = namedAppRow{class: r[1], name: r[2]}
		masks.add("named_apps.tsv", key)
	}
	return m, masks
}()

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
	for i := range p.products {
		pr := &p.products[i]
		if !namedAppMasks.mayHold(pr.lname) {
			continue
		}
		r, ok := namedApps[pr.lname]
		if !ok {
			continue
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
