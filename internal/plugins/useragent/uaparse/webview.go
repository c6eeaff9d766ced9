package uaparse

import "strings"

// This file reads what Meta's apps put in their bracket
// ("[FBAN/FBIOS;FBAV/27.0.0.10.12;FBBV/8291884;FBDV/iPhone7,1;...]") and
// names the app that shows a page in the system web view (WebviewApp*).

// Needles of the build, Facebook and web view rules: most user agents have
// none of them, and the rules then cost one bit test each.
var (
	kwFBBracket  needleID
	kwBuildSlash needleID
	kwBuildColon needleID
	kwDashBuild  needleID
)

// facebookFields are the values of the Facebook bracket, by attribute.
type facebookFields struct {
	app, appVersion, build                 string // FBAN or FB_IAB, FBAV, FBBV
	carrier, devClass, devName, devVersion string // FBCR, FBID, FBMD, FBDV
	fbop, fbss, osName, osVersion          string // FBOP, FBSS, FBSN, FBSV
}

// webviewApps maps a lower case token to the app it names
// (tables/webview_apps.tsv).
var webviewApps map[string]string

// readFacebook reads the "[FBAN/...;FBAV/...;...]" bracket: fields of the
// form KEY/value separated by semicolons. A bracket cut short (no "]")
// is read to the end of the string.
func readFacebook(ua string) (facebookFields, bool) {
	var f facebookFields
	i := strings.Index(ua, "[FB")
	if i < 0 {
		return f, false
	}
	body := ua[i+1:]
	if k := strings.IndexByte(body, ']'); k >= 0 {
		body = body[:k]
	}
	found := false
	for field := range strings.SplitSeq(body, ";") {
		key, val, ok := strings.Cut(strings.TrimSpace(field), "/")
		if !ok || val == "" {
			continue
		}
		found = true
		switch key {
		case "FBAN", "FB_IAB":
			if f.app == "" {
				f.app = val
			}
		case "FBAV":
			f.appVersion = val
		case "FBBV":
			f.build = val
		case "FBCR":
			f.carrier = val
		case "FBID":
			f.devClass = val
		case "FBMD":
			f.devName = val
		case "FBDV":
			f.devVersion = val
		case "FBOP":
			f.fbop = val
		case "FBSS":
			f.fbss = val
		case "FBSN":
			f.osName = val
		case "FBSV":
			f.osVersion = val
		}
	}
	return f, found
}

// webviewApp names the app that embeds the system web view, when the agent
// is the web view: the app of the Facebook bracket, else a product after
// the engine's tokens that tables/webview_apps.tsv names, else
// "Unknown Webview App" (the app sends nothing of its own).
func (s *state) webviewApp() {
	if s.agClass.v != "Browser Webview" {
		return
	}
	if s.fb.app != "" {
		if n, ok := webviewApps[asciiLower(s.fb.app)]; ok {
			s.wvName.set(n, confTable)
			s.wvVersion.set(cleanVersion(s.fb.appVersion), confTable)
			return
		}
	}
	for _, pr := range s.p.products {
		name := pr.lname
		ver := pr.version
		if k := strings.IndexByte(name, ' '); k > 0 && ver == "" {
			// "Instagram 89.0.0.21.101 Android (...)": the app and its
			// version separated by a space.
			rest := pr.name[k+1:]
			if sp := strings.IndexByte(rest, ' '); sp > 0 {
				rest = rest[:sp]
			}
			name, ver = name[:k], rest
		}
		if n, ok := webviewApps[name]; ok {
			s.wvName.set(n, confTable)
			s.wvVersion.set(cleanVersion(ver), confTable)
			return
		}
	}
	s.wvName.set("Unknown Webview App", confGuess)
}

// agentBuild reads the build number of the app that sends the user agent:
// the FBBV field of Meta's apps, a "build:1050" comment entry (iOS apps on
// Alamofire, "(com.example.app; build:1050; iOS 15.4.1)"), or a trailing
// "- Build 1184".
func (s *state) agentBuild() {
	p := s.p
	if s.fb.build != "" {
		s.agBuild.set(s.fb.build, confTable)
		return
	}
	if p.has(kwBuildColon) {
		for _, e := range p.entries {
			if lt := p.ltext(e); strings.HasPrefix(lt, "build:") && len(lt) > 6 {
				s.agBuild.set(strings.TrimSpace(p.text(e)[6:]), confStructure)
				return
			}
		}
	}
	if !p.has(kwDashBuild) {
		return
	}
	if k := strings.LastIndex(p.ua, " - Build "); k > 0 {
		b := p.ua[k+len(" - Build "):]
		if b != "" && isDigits(b) {
			s.agBuild.set(b, confStructure)
		}
	}
}
