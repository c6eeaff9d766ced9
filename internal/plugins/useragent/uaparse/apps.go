package uaparse

import "strings"

// knownApp recognises applications that announce themselves inside another
// client's user agent: desktop apps built on Electron, the Microsoft Office
// programs, the shells around Internet Explorer and the browsers of smart
// TV platforms. It runs before the browser rules, which would otherwise
// report the engine the application embeds.
func (s *state) knownApp() bool {
	return s.electronApp() || s.officeApp() || s.ieShell() || s.tvBrowser()
}

// electronPlatform are the tokens every Electron app sends; the app's own
// product is the one that is none of them.
var electronPlatform = map[string]bool{
	"mozilla": true, "applewebkit": true, "khtml": true, "like gecko": true, "chrome": true, "electron": true,
	"safari": true, "gecko": true, "(khtml": true,
}

// emailApps are desktop mail programs built on Electron, whose product
// names do not say "mail".
var emailApps = map[string]bool{"superhuman": true, "mailspring": true, "tempo": true, "sunsama": true}

// electronApp names an Electron desktop app after its own product, which
// it puts among the Chrome and Electron tokens ("Notion/1.0.8
// Chrome/61.0.3163.100 Electron/2.0.5").
func (s *state) electronApp() bool {
	p := s.p
	if _, ok := p.product("Electron"); !ok {
		return false
	}
	for _, pr := range p.products {
		if electronPlatform[pr.lname] || !isVersionLike(pr.version) || pr.name == "" || !isLetter(pr.name[0]) {
			continue
		}
		s.agName, s.agClass, s.agVersion = pr.name, "Desktop App", cleanVersion(pr.version)
		if emailApps[pr.lname] || strings.Contains(pr.lname, "mail") {
			s.agClass = "Email Client"
		}
		return true
	}
	return false
}

// officeApp reads "Microsoft Office/16.0 (Windows NT 10.0; Microsoft Word
// 16.0.10827; Pro)": the Office program that made the request, with its
// full version, and Outlook for Mac ("MacOutlook/16.24").
func (s *state) officeApp() bool {
	p := s.p
	if pr, ok := p.product("MacOutlook"); ok {
		s.agName, s.agClass, s.agVersion = "Microsoft Outlook", "Email Client", cleanVersion(pr.version)
		return true
	}
	if _, ok := p.product("Office"); !ok || !p.has(kwMicrosoftOfficeSlash) {
		return false
	}
	for _, e := range p.entries {
		t := p.text(e)
		if !strings.HasPrefix(t, "Microsoft ") {
			continue
		}
		k := strings.LastIndexByte(t, ' ')
		if k <= len("Microsoft") || !isVersionLike(t[k+1:]) {
			continue
		}
		s.agName, s.agClass, s.agVersion = t[:k], "Special", t[k+1:]
		if strings.HasSuffix(s.agName, " Outlook") {
			s.agClass = "Email Client"
		}
		if s.os.name == "" {
			s.os = osInfo{name: "Windows NT", version: Unknown, class: "Desktop"}
		}
		return true
	}
	return false
}

// ieShell recognises the programs that embed Internet Explorer and add
// their own entry to its comment: MSN, Maxthon (formerly MyIE2), Free
// Download Manager and Outlook.
func (s *state) ieShell() bool {
	p := s.p
	if _, ok := p.entryVersion("msie "); !ok {
		return false
	}
	for _, e := range p.entries {
		lt := p.ltext(e)
		switch {
		case strings.HasPrefix(lt, "msn ") && isVersionLike(lt[4:]):
			s.agName, s.agClass, s.agVersion = "MSN", "Browser", cleanVersion(p.text(e)[4:])
			return true
		case lt == "maxthon" || lt == "myie2":
			s.agName, s.agClass, s.agVersion = "Maxthon", "Browser", Unknown
			return true
		case lt == "fdm":
			// The download manager fetches files on its own.
			s.agName, s.agClass, s.agVersion = "Free Download Manager", "Robot", Unknown
			s.engClass, s.engName, s.engVersion = "Robot", "Free Download Manager", Unknown
			return true
		case strings.HasPrefix(lt, "microsoft outlook "):
			s.agName, s.agClass, s.agVersion = "Microsoft Outlook", "Email Client", cleanVersion(p.text(e)[len("microsoft outlook "):])
			return true
		}
	}
	return false
}

// webOSReleases maps the Chromium major version of LG's web engine to the
// webOS TV release that shipped it, as LG documents for web app developers.
var webOSReleases = map[string]string{
	"38": "3.x", "53": "4.x", "68": "5.x", "79": "6.x", "87": "22", "94": "23", "108": "24", "120": "25",
}

// tvBrowser names the built-in browser of LG webOS televisions, which only
// sends the "WebAppManager" token of the web runtime; its release follows
// from the engine version.
func (s *state) tvBrowser() bool {
	p := s.p
	if !p.has(kwWebAppManager) || !p.has(kwWeb0S) {
		return false
	}
	s.agName, s.agClass, s.agVersion = "LG Browser", "Browser", Unknown
	if ch, ok := p.product("Chrome"); ok {
		if r, ok := webOSReleases[versionMajor(ch.version)]; ok {
			s.agVersion = r
		}
	}
	return true
}
