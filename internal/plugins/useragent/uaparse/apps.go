package uaparse

import (
	"bytes"
	"net/url"
	"strings"
	"unicode/utf8"
)

// knownApp recognises applications that announce themselves inside another
// client's user agent: desktop apps built on Electron, the Microsoft Office
// programs, the shells around Internet Explorer and the browsers of smart
// TV platforms. It runs before the browser rules, which would otherwise
// report the engine the application embeds.
func (s *state) knownApp() bool {
	return s.electronApp() || s.officeApp() || s.sogouExplorer() || s.ieShell() || s.tvBrowser() || s.platformBuildApp() ||
		s.tikTok() || s.appWithPlatform() || s.facebookApp() ||
		s.salesforceApp() || s.googleWebViewApp() || s.yahooJapanApp()
}

var kwYJApp needleID

// yahooJapanApps are the names of Yahoo! JAPAN's apps by the last part of
// their package identifier (the rows "yahooJapanApp" of
// tables/app_markers.tsv).
var yahooJapanApps map[string]string

// yahooJapanApp names the apps of Yahoo! JAPAN, which mark themselves
// "YJApp-IOS" or "YJApp-ANDROID" and follow with their package identifier
// and version ("YJApp-IOS jp.co.yahoo.ymail/9.1.3").
func (s *state) yahooJapanApp() bool {
	p := s.p
	if !p.has(kwYJApp) {
		return false
	}
	for _, pr := range p.products {
		ln := pr.lname
		k := strings.Index(ln, "jp.co.yahoo.")
		if k < 0 || !isVersionLike(pr.version) {
			continue
		}
		id := ln[strings.LastIndexByte(ln, '.')+1:]
		name, ok := yahooJapanApps[id]
		if !ok {
			name = "Yahoo! JAPAN " + capitalize(id)
		}
		s.setAgent(confFamily, "Mobile App", name, cleanVersion(pr.version))
		if strings.HasSuffix(id, "browser") {
			s.agClass.set("Browser", confFamily+1)
		}
		return true
	}
	return false
}

var kwGoogleWv needleID

// googleWebViewApp names Google's own iOS apps, which mark their web view
// with "GoogleWv/1.0 (WKWebView)" and follow it with the app's product
// ("GeminiiOS/1.2025.4972302" is Google Gemini).
func (s *state) googleWebViewApp() bool {
	p := s.p
	if !p.has(kwGoogleWv) {
		return false
	}
	for _, pr := range p.productsAfter(func(pr *product) bool { return pr.lword == "googlewv" }) {
		if !isVersionLike(pr.version) || !startsWithLetter(pr.name) || strings.IndexByte(pr.name, ' ') >= 0 {
			continue
		}
		name := strings.TrimSuffix(pr.name, "iOS")
		if !strings.HasPrefix(name, "Google") {
			name = "Google " + name
		}
		s.setAgent(confFamily, "Mobile App", name, cleanVersion(pr.version))
		return true
	}
	return false
}

// salesforceApp names the app built with Salesforce's mobile SDK, which
// puts the app's product and kind after the SDK and system products
// ("SalesforceMobileSDK/9.1.0 android mobile/9 (SM-A530F) Salesforce1/
// 232.051.0(232060200) Native uid ... Mozilla/5.0 ..."). A native app is a
// Mobile App; a hybrid one shows its pages in the web view, which stays the
// agent.
func (s *state) salesforceApp() bool {
	p := s.p
	if len(p.products) < 4 || p.products[0].lname != "salesforcemobilesdk" {
		return false
	}
	for k := 1; k+1 < len(p.products); k++ {
		pr := p.products[k]
		if pr.lword == "mobile" || !isVersionLike(pr.version) || !startsWithLetter(pr.name) {
			continue
		}
		if !strings.HasPrefix(p.products[k+1].lname, "native") {
			return false
		}
		s.setAgent(confFamily, "Mobile App", pr.name, cleanVersion(pr.version))
		return true
	}
	return false
}

var kwFBANFB4A needleID

// facebookOnly reports the bare user agent of the Facebook app for Android
// ("[FBAN/FB4A;FBAV/371.0.0.24.109;...;FBMF/samsung;...;FBDV/SM-G970U;
// FBSV/12;...]"), which has no browser part in front.
func (s *state) facebookOnly() bool {
	return s.p.has(kwFBANFB4A) && strings.HasPrefix(s.p.ua, "[")
}

// fbField returns the value of a "KEY/value" field of a Facebook app
// comment ("FBSV/12"); key is lower case with its slash.
func (s *state) fbField(key string) string {
	p := s.p
	for _, e := range p.entries {
		if strings.HasPrefix(p.ltext(e), key) {
			return strings.TrimSpace(p.text(e)[len(key):])
		}
	}
	return ""
}

// facebookApp reads the bare Facebook app user agent: the app shows
// pages in the Android web view, on the system release in FBSV.
func (s *state) facebookApp() bool {
	if !s.facebookOnly() {
		return false
	}
	if s.os.name == "" {
		v := s.fbField("fbsv/")
		if v == "" {
			v = Unknown
		}
		s.os = osInfo{name: "Android", version: v, class: "Mobile"}
	}
	s.setAgent(confFamily, "Browser Webview", "Chrome Webview", Unknown)
	s.webview = true
	return true
}

// facebookDevice names the device of the bare Facebook app user agent
// after its maker (FBMF) and model (FBDV) fields.
func (s *state) facebookDevice() {
	if !s.facebookOnly() {
		return
	}
	model := s.fbField("fbdv/")
	if model == "" {
		return
	}
	brand := s.devBrand.v
	if brand == "" || brand == Unknown {
		brand = brandSpelling(s.fbField("fbmf/"))
	}
	s.setDevice(confFamily+1, "Mobile", brand, brand+" "+model)
}

// appPlatformOf reads the letter some apps put after their version to name
// the system they run on ("WhatsApp/2.2305.7 N" on Nokia's KaiOS phones),
// from tables/app_platforms.tsv.
func (s *state) appPlatformOf() (appPlatform, bool) {
	p := s.p
	if len(p.products) != 2 || len(p.products[1].name) != 1 || p.products[1].version != "" {
		return appPlatform{}, false
	}
	ap, ok := appPlatforms[p.products[0].lname+" "+p.products[1].name]
	return ap, ok
}

// appWithPlatform names an app that announces only its release and its
// platform letter, and the system the letter names.
func (s *state) appWithPlatform() bool {
	ap, ok := s.appPlatformOf()
	if !ok {
		return false
	}
	s.os = osInfo{name: ap.osName, version: ap.osVersion, class: ap.osClass, cpu: s.os.cpu}
	s.setAgent(confFamily, "Mobile App", s.p.products[0].name, cleanVersion(s.p.products[0].version))
	s.engClass.set("Mobile App", confFamily)
	return true
}

// appPlatformDevice names the device of an app known by its platform
// letter.
func (s *state) appPlatformDevice() { s.appPlatformDeviceFound() }

// appPlatformDeviceFound is appPlatformDevice that reports whether the
// app and its letter were found; it also sets the system the letter names.
func (s *state) appPlatformDeviceFound() bool {
	ap, ok := s.appPlatformOf()
	if ok {
		s.os = osInfo{name: ap.osName, version: ap.osVersion, class: ap.osClass, cpu: s.os.cpu}
		s.setDevice(confFamily, ap.devClass, ap.brand, ap.devName)
	}
	return ok
}

// tikTokNames are the internal names ByteDance's video app sends in its
// web view ("musical_ly_31.4.0", "trill_270603"), after the musical.ly app
// it grew from, with the name the app is published under (the rows
// "tikTok" of tables/app_markers.tsv).
var tikTokNames []struct {
	id   needleID
	name string
}

func buildTikTokNames() []struct {
	id   needleID
	name string
} {
	rows := appMarkers("tikTok")
	out := make([]struct {
		id   needleID
		name string
	}, len(rows))
	for i, r := range rows {
		out[i].id, out[i].name = uaNeedles.add(" "+r[0]), r[1]
	}
	return out
}

// tikTok names ByteDance's video app inside the web view it shows pages
// in. Its release is in "AppVersion/27.7.1" or "app_version/27.6.3", else
// after its internal name.
func (s *state) tikTok() bool {
	p := s.p
	for _, t := range tikTokNames {
		i := p.index(t.id)
		if i < 0 {
			continue
		}
		w := uaNeedles.words[t.id]
		v := leadingVersion(p.ua[i+len(w):])
		for _, pr := range p.products {
			if pr.lword == "appversion" || pr.lword == "app_version" {
				v = pr.version
			}
		}
		if v == "" {
			v = Unknown
		}
		s.setAgent(confFamily, "Mobile App", t.name, v)
		return true
	}
	return false
}

var (
	kwAndroidAt needleID
	kwIOSAt     needleID
)

// platformBuildApp reads the comment some browsers built on the system's
// engine add to name themselves with the platform build they are
// ("(Ecosia android@101.0.4951.41)", "(Ecosia ios@4.1.10.875)").
func (s *state) platformBuildApp() bool {
	p := s.p
	if !p.has(kwAndroidAt) && !p.has(kwIOSAt) {
		return false
	}
	for _, e := range p.entries {
		lt := p.ltext(e)
		at := strings.IndexByte(lt, '@')
		if at < 0 {
			continue
		}
		sp := strings.IndexByte(lt, ' ')
		if sp <= 0 || sp > at || !isVersionLike(lt[at+1:]) {
			continue
		}
		switch lt[sp+1 : at] {
		case "android", "ios":
		default:
			continue
		}
		t := p.text(e)
		s.setAgent(confFamily, "Browser", t[:sp], t[at+1:])
		return true
	}
	return false
}

var kwMetaSrWord needleID

// sogouExplorer recognises the Sogou browser, which adds "SE 2.X MetaSr
// 1.0" to the Chrome or Internet Explorer user agent it is built on: the
// release of the browser is the version after "SE".
func (s *state) sogouExplorer() bool {
	p := s.p
	i := p.index(kwMetaSrWord)
	if i < 0 {
		return false
	}
	before := p.ua[:i]
	k := strings.LastIndexByte(before, ' ')
	if k < 2 || !strings.EqualFold(before[k-2:k], "se") || !isVersionLike(before[k+1:]) {
		return false
	}
	s.setAgent(confFamily, "Browser", "Sogou Explorer", before[k+1:])
	return true
}

// electronPlatform are the tokens every Electron app sends; the app's own
// product is the one that is none of them.
var electronPlatform map[string]bool

func buildElectronPlatform() map[string]bool {
	return map[string]bool{
		"mozilla": true, "applewebkit": true, "khtml": true, "like gecko": true, "chrome": true, "electron": true,
		"safari": true, "gecko": true, "(khtml": true,
	}
}

// electronApp names an Electron desktop app after its own product, which
// it puts among the Chrome and Electron tokens ("Notion/1.0.8
// Chrome/61.0.3163.100 Electron/2.0.5").
func (s *state) electronApp() bool {
	p := s.p
	// A product named Electron sets the needle bit of "electron": the
	// bit test spares most user agents product's call.
	if !p.has(kwElectron) {
		return false
	}
	if _, ok := p.product("Electron"); !ok {
		return false
	}
	for _, pr := range p.products {
		if electronPlatform[pr.lname] || !isVersionLike(pr.version) || pr.name == "" || !startsWithLetter(pr.name) {
			continue
		}
		s.setAgent(confFamily, "Desktop App", pr.name, cleanVersion(pr.version))
		if sp, ok := appSpellings[pr.lname]; ok {
			s.agName.set(sp, confFamily+1)
		}
		if emailApps[pr.lname] || strings.Contains(pr.lname, "mail") {
			s.agClass.set("Email Client", confFamily+1)
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
	// The needle bit first: it is cheaper than product's call.
	if p.has(kwMacOutlook) {
		if pr, ok := p.product("MacOutlook"); ok {
			s.setAgent(confFamily, "Email Client", "Microsoft Outlook", cleanVersion(pr.version))
			if s.os.name == "Mac OS" && strings.HasSuffix(s.os.version, "?") {
				// "(Intelx64 Mac OS X Version 10.15.6 (Build 19G73))".
				for _, e := range p.entries {
					lt := p.ltext(e)
					if i := strings.Index(lt, "mac os x version "); i >= 0 {
						if v := leadingVersion(lt[i+17:]); v != "" {
							s.os.version = v
						}
					}
				}
			}
			return true
		}
	}
	if len(p.products) > 0 {
		first := p.products[0]
		switch {
		case first.lname == "outlook-express":
			// The mail program of Windows before Vista, on the Internet
			// Explorer engine it names in its comment.
			s.setAgent(confFamily, "Email Client", "Microsoft Outlook-Express", cleanVersion(first.version))
			return true
		case strings.HasPrefix(first.lname, "outlook-ios") || strings.HasPrefix(first.lname, "outlook-android"):
			s.outlookMobile(first)
			return true
		case first.lname == "oc" && len(p.entries) > 0 && p.ltext(p.entries[0]) == "skype for business":
			// Office Communicator, renamed Lync and then Skype for
			// Business, a Windows program.
			s.setAgent(confFamily, "Special", "Microsoft Lync (Skype)", cleanVersion(first.version))
			if s.os.name == "" {
				s.os = osInfo{name: "Windows NT", version: Unknown, class: "Desktop"}
			}
			return true
		case activeSyncDevice(first.lname) != "" && len(p.products) == 1:
			// "Apple-iPhone3C1/1104.257": the Exchange ActiveSync client
			// of iOS Mail, named after the device model.
			s.setAgent(confFamily, "Special", "Exchange ActiveSync", cleanVersion(first.version))
			if s.os.name == "" {
				s.os = osInfo{name: "iOS", version: Unknown, class: "Mobile"}
			}
			return true
		case first.lname == "microsoft office" && len(p.entries) == 0 && s.os.name == "":
			// "Microsoft Office/16.0" alone: the Windows Office suite,
			// which names its platform only on the Mac.
			s.os = osInfo{name: "Windows NT", version: Unknown, class: "Desktop"}
		case first.lname == "onenote" && s.os.name == "":
			// "OneNote/16.0.4639.1000 (Windows/10.0; Desktop WOW64; ...)".
			for _, e := range p.entries {
				if lt := p.ltext(e); strings.HasPrefix(lt, "windows/") && isVersionLike(lt[8:]) {
					s.os = osInfo{name: "Windows NT", version: leadingVersion(lt[8:]), class: "Desktop"}
				}
			}
		}
	}
	// The needle bit first: it is cheaper than product's call.
	if !p.has(kwMicrosoftOfficeSlash) {
		return false
	}
	if _, ok := p.product("Office"); !ok {
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
		s.setAgent(confFamily, "Special", t[:k], t[k+1:])
		if strings.HasSuffix(s.agName.v, " Outlook") {
			s.agClass.set("Email Client", confFamily+1)
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
			s.setAgent(confFamily, "Browser", "MSN", cleanVersion(p.text(e)[4:]))
			return true
		case lt == "maxthon" || lt == "myie2":
			s.setAgent(confFamily, "Browser", "Maxthon", Unknown)
			return true
		case (strings.HasPrefix(lt, "maxthon ") || strings.HasPrefix(lt, "maxthon/")) && isVersionLike(lt[len("maxthon "):]):
			// "MAXTHON 2.0", "Maxthon/3.0": Maxthon's releases on
			// Internet Explorer give their version.
			s.setAgent(confFamily, "Browser", "Maxthon", cleanVersion(lt[len("maxthon "):]))
			return true
		case lt == "fdm":
			// The download manager fetches files on its own.
			s.setAgent(confFamily, "Robot", "Free Download Manager", Unknown)
			s.setEngine(confFamily, "Robot", "Free Download Manager", Unknown)
			return true
		case strings.HasSuffix(lt, "browser") && len(lt) > len("browser") || strings.Contains(lt, "browser ") && !strings.Contains(lt, "from"):
			// "Crazy Browser 1.0.5", "GreenBrowser": a shell that calls
			// itself a browser.
			name, ver := p.text(e), Unknown
			if k := strings.LastIndexByte(name, ' '); k > 0 && isVersionLike(name[k+1:]) {
				name, ver = name[:k], name[k+1:]
			}
			s.setAgent(confFamily, "Browser", name, ver)
			return true
		case ieShellProduct(firstWord(lt)) && isVersionLike(lt[strings.IndexByte(lt, ' ')+1:]):
			// "MRSPUTNIK 2, 4, 0, 463", "QQDownload 534".
			k := strings.IndexByte(lt, ' ')
			s.setAgent(confFamily, "Browser", ieShellProducts[lt[:k]], cleanVersion(lt[k+1:]))
			return true
		case strings.HasPrefix(lt, "microsoft outlook "):
			s.setAgent(confFamily, "Email Client", "Microsoft Outlook", cleanVersion(p.text(e)[len("microsoft outlook "):]))
			return true
		}
	}
	return false
}

// ieShellProducts are programs around Internet Explorer that add their
// shouted name and version to its comment: the Sputnik browser of Mail.ru
// and Tencent's download manager, with the name each is given (the rows
// "ieShell" of tables/app_markers.tsv).
var ieShellProducts map[string]string

// ieShellProduct reports whether ieShellProducts names the word, as
// ieShellProducts[w] != "" does: the comment entries of every Internet
// Explorer user agent ask, and the bit of the word's length and first
// byte in ieShellKeys spares most of them the lookup in the map.
func ieShellProduct(w string) bool {
	if w == "" {
		return ieShellEmpty
	}
	c := productKey(len(w), w[0])
	return ieShellKeys.has(c) && ieShellProducts[w] != ""
}

// ieShellKeys has the bit of productKey for the length and first byte of
// each name of ieShellProducts; ieShellEmpty is whether it names the empty
// word (buildIEShellKeys).
var (
	ieShellKeys  byteSet
	ieShellEmpty bool
)

func buildIEShellKeys() (k byteSet, empty bool) {
	for name, v := range ieShellProducts {
		if v == "" {
			continue
		}
		if name == "" {
			empty = true
			continue
		}
		c := productKey(len(name), name[0])
		k[c>>6] |= 1 << (c & 63)
	}
	return k, empty
}

// firstWord returns s up to its first space, or "" when it has none.
func firstWord(s string) string {
	if k := strings.IndexByte(s, ' '); k > 0 {
		return s[:k]
	}
	return ""
}

// tvBrowser names the built-in browser of LG webOS televisions, which only
// sends the "WebAppManager" token of the web runtime; its release follows
// from the engine version.
func (s *state) tvBrowser() bool {
	p := s.p
	if !p.has(kwWebAppManager) || !p.has(kwWeb0S) {
		return false
	}
	s.setAgent(confFamily, "Browser", "LG Browser", Unknown)
	if ch, ok := p.product("Chrome"); ok {
		if r, ok := webOSTVReleases[versionMajor(ch.version)]; ok {
			s.agVersion.set(r, confFamily+1)
		}
	}
	return true
}

// appSuffixes are the platform words apps append to their product name
// ("FABUILD-iOS", "ZohoMail-Desktop"); the app is the part before them.
var appSuffixes = []string{"-ios", "-android", "-desktop"}

// appendedApp names the app that shows pages in a Chrome or Safari engine
// and adds its own product to the engine's tokens: after the browser's last
// token ("... Chrome/123.0.0.0 Safari/537.36 Mailbird/3.0.14.0", "...
// Mobile/15E148 Safari/604.1 KAKAOTALK/25.4.2"), where browsers put
// nothing, or among them, where browsers built on Chromium put their own
// name ("(KHTML, like Gecko) Chrome/87.0 MailMasterPC/5.0.8.1017 Safari/
// 537.36", "Viera/3.10.14 Chrome/23.0"). Anonymizers append made-up
// products with a Chrome-shaped version ("Trailer/98.3.7512.13"), which
// are not apps.
func (s *state) appendedApp() bool {
	p := s.p
	last, webkit := -1, -1
	for i := range p.products {
		pr := &p.products[i]
		switch pr.lword {
		case "safari":
			last = i
		case "applewebkit":
			if webkit < 0 {
				webkit = i
			}
		}
	}
	if last < 0 {
		return false
	}
	if _, ok := p.product("Version"); ok {
		if _, ok := p.product("Chrome"); ok {
			// "Version/4.0 Chrome/x" is the Android web view, which
			// stays the agent whatever app embeds it.
			return false
		}
	}
	// Only the product right after the agent's can be the app.
	if last+1 < len(p.products) {
		pr := p.products[last+1]
		ln := pr.lname
		if startsWithLetter(pr.name) && isVersionLike(pr.version) && strings.IndexByte(ln, ' ') < 0 && !appendedNoise[ln] &&
			!strings.HasPrefix(ln, "cordova") && !chromeShaped(pr.version) && numericVersion(pr.version) && !identifierVersion(pr.version) {
			s.setApp(pr)
			return true
		}
	}
	if webkit < 0 || webkit > last {
		// No WebKit token, or one after Safari's ("Safari/537.36
		// AppleWebKit"): nothing stands between them.
		return false
	}
	for _, pr := range p.products[webkit+1 : last] {
		ln := pr.lname
		if platformProducts[ln] || platformProducts[pr.lword] || appendedNoise[pr.lword] || pr.lword == "chromium" ||
			strings.HasPrefix(ln, "like ") || !startsWithLetter(pr.name) || !numericVersion(pr.version) ||
			chromeShaped(pr.version) || strings.Count(ln, " ") > 2 || identifierVersion(pr.version) {
			continue
		}
		s.setApp(pr)
		if s.agClass.v == "Mobile App" {
			// An iOS app that writes its name among the engine's
			// tokens ("ziggo/24.0.303105 Mobile/15E148 Version/17.6.1
			// Safari/605.1.15") imitates the full Safari browser.
			s.agClass.set("Browser", confFamily+1)
		}
		if !hasUpper(s.agName.v) {
			s.agName.set(appName(s.agName.v), confFamily+1)
		}
		return true
	}
	return false
}

// setApp names the agent after the app's product pr, written as the maker
// writes it.
func (s *state) setApp(pr product) {
	p := s.p
	name, ln := pr.name, pr.lname
	for _, suf := range appSuffixes {
		if len(ln) > len(suf) && strings.HasSuffix(ln, suf) {
			name, ln = name[:len(name)-len(suf)], ln[:len(ln)-len(suf)]
			break
		}
	}
	if sp, ok := appSpellings[pr.lname]; ok {
		name = sp
	} else if sp, ok := appSpellings[ln]; ok {
		name = sp
	} else if !hasLower(name) && len(name) > 4 {
		// A shouted name is written as a word ("FABUILD" is "Fabuild");
		// a short one is an acronym ("AVG").
		name = capitalize(asciiLower(name))
	}
	s.agName.set(name, confFamily)
	s.agVersion.set(cleanVersion(pr.version), confFamily)
	if s.os.name == "Windows NT" && s.os.version == "10.0" {
		// An app on the reduced Chrome user agent ("Chrome/123.0.0.0")
		// inherits its frozen "Windows NT 10.0", which says nothing of
		// the real release.
		if ch, ok := p.product("Chrome"); ok && strings.HasSuffix(ch.version, ".0.0.0") {
			s.os.version = Unknown
		}
	}
	switch {
	case strings.Contains(ln, "mail") || emailApps[ln]:
		s.agClass.set("Email Client", confFamily)
	case s.os.name == "iOS":
		// Every iOS app shows pages in the system web view; on other
		// systems an app that sends the full Chrome token is a browser
		// built on Chromium.
		s.agClass.set("Mobile App", confFamily)
	default:
		s.agClass.set("Browser", confFamily)
	}
}

// appendedNoise are products that follow "Safari/x" without naming an app:
// platform and device markers of televisions, cars and phones ("Pre/1.0"
// of the Palm Pre, "MBBMS/2.2" of Chinese mobile TV), operating systems,
// developer plugins (FirePHP) and ChromePlus, which is reported as the
// Chrome it extends. Hybrid app frameworks ("cordova-amazon-fireos/3.4.0")
// are not the app either.
var appendedNoise map[string]bool

func buildAppendedNoise() map[string]bool {
	return map[string]bool{
		"mobile": true, "safari": true, "version": true, "crkey": true, "googletv": true, "smarttv": true, "kaios": true,
		"tesla": true, "webappmanager": true, "omi": true, "model": true, "hbbtv": true, "ce-html": true,
		"pre": true, "mbbms": true, "android": true, "linux": true, "sugarlabs": true, "firephp": true, "chromeplus": true,
		"chrome": true, "cfnetwork": true, "darwin": true, "gsa": true,
		"ubuntu": true, "fedora": true, "debian": true, "centos": true, "mint": true, "qtwebengine": true, "qt": true,
		// CyanogenMod, a build of Android, signs the stock browser of its
		// phones with its release and the device's code name
		// ("Safari/534.30 CyanogenMod/10.1.2/endeavoru"): a system, no app.
		"cyanogenmod": true,
		// Sky's boxes name the device after the Qt web engine's
		// browser ("Safari/537.36 GW-Device/1.0.0 (Sky, ES140, )").
		"gw-device": true, "mr-device": true,
	}
}

// chromeShaped reports a version of the form of Chrome's, four parts with
// a build number of four or more digits ("98.3.7512.13").
func chromeShaped(v string) bool {
	dots, third := 0, 0
	for i := 0; i < len(v); i++ {
		switch {
		case v[i] == '.':
			dots++
		case dots == 2:
			third++
		}
	}
	return dots == 3 && third >= 4
}

// hasLower reports a lower case ASCII letter in s.
func hasLower(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 'a' && s[i] <= 'z' {
			return true
		}
	}
	return false
}

// numericVersion reports a version made of numbers and dots ("3.0.14.0",
// "415"), unlike the build tags some products carry ("360ENT").
func numericVersion(v string) bool {
	for i := 0; i < len(v); i++ {
		if c := v[i]; (c < '0' || c > '9') && c != '.' {
			return false
		}
	}
	return v != ""
}

// appleNetworkApp completes the answer for an Apple platform app that
// makes its requests with Apple's networking frameworks: "bol.com/94
// CFNetwork/758.2.8 Darwin/15.0.0" is the app itself doing the work, so it
// is its own layout engine; an app on the Alamofire library ("Boulanger/
// 20.3.1 (fr.boulanger.Boulanger; build:...; iOS 15.4.1) Alamofire/4.9.1")
// renders nothing either. On a Mac ("Darwin/14.5.0 (x86_64)") the app is a
// Desktop App. The app's product is products[i].
func (s *state) appleNetworkApp(i int) {
	p := s.p
	_, cfn := p.product("CFNetwork")
	_, alamo := p.product("Alamofire")
	if !cfn && !alamo || i != 0 || strings.HasSuffix(p.products[i].lname, "cfnetwork") {
		return
	}
	name := p.products[i].name
	if s.agVersion.v == Unknown && !hasUpper(name) {
		// Apple's own daemons ("swcd (unknown version)") are lower
		// case and unversioned; they are not apps.
		return
	}
	class := "Mobile App"
	if s.os.name == "" {
		// A Mac Catalyst app names the system in its comment
		// ("macOS(Catalyst) 13.1.0").
		for _, e := range p.entries {
			if lt := p.ltext(e); strings.HasPrefix(lt, "macos") {
				if k := strings.LastIndexByte(lt, ' '); k > 0 && isVersionLike(lt[k+1:]) {
					s.os = osInfo{name: "Mac OS", version: lt[k+1:], class: "Desktop"}
				}
			}
		}
	}
	if s.os.name == "Mac OS" || s.os.class == "Desktop" {
		class = "Desktop App"
	}
	if s.agClass.v == "Special" || s.agClass.v == "Mobile App" {
		s.agClass.set(class, confFamily)
	}
	s.engClass.set(class, confFamily)
	if !cfn {
		return
	}
	if strings.IndexByte(name, '%') >= 0 {
		if dec, err := url.PathUnescape(name); err == nil && utf8.ValidString(dec) {
			name = dec
		}
		s.agName.set(name, confFamily)
	}
	s.engName.set(name, confFamily)
	s.engVersion.set(s.agVersion.v, confFamily)
}

// hasUpper reports an upper case ASCII letter in s.
func hasUpper(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 'A' && s[i] <= 'Z' {
			return true
		}
	}
	return false
}

// cloudApp recognises the Google Docs servers that fetch a document for a
// user: "(compatible; GoogleDocs; apps-spreadsheets; +http://docs.google.
// com)" is the spreadsheet program, running in Google's cloud on behalf of
// someone at a desktop, not a crawler. The entry after "GoogleDocs" names
// the program; a "+Google-Document-Conversion" entry names the converter.
func (s *state) cloudApp() {
	p := s.p
	if !p.has(kwGoogleDocs) {
		return
	}
	name := ""
	for k, e := range p.entries {
		if p.ltext(e) != "googledocs" {
			continue
		}
		name = "Google Docs"
		if k+1 < len(p.entries) {
			kind := p.ltext(p.entries[k+1])
			kind = strings.TrimPrefix(kind, "apps-")
			if kind != "" && isLetter(kind[0]) && isIdentifier(kind) {
				name += " " + capitalize(kind)
			}
		}
		for _, f := range p.entries[k+1:] {
			if t := p.text(f); strings.HasPrefix(t, "+Google-") && !strings.ContainsAny(t, "/:. ") {
				name = strings.ReplaceAll(t[1:], "-", " ")
			}
		}
		break
	}
	if name == "" {
		return
	}
	s.devClass.set("Desktop", confRobot+1)
	s.setEngine(confRobot+1, "Cloud", "Cloud", Unknown)
	s.setAgent(confRobot+1, "Cloud Application", name, Unknown)
}

// mailClient classes a browser or app named after mail ("mailapp",
// "Lotus-Notes") as an Email Client, whichever rule found it. A client
// known only by its own product ("Airmail 1.3.3 rv:237 (Macintosh; ...)")
// stays Special, as Yauaa has it.
func (s *state) mailClient() {
	switch s.agClass.v {
	case "Browser", "Mobile App", "Desktop App":
	case "Special":
		// A program that sends only its own product ("Evolution/3.36.5",
		// "K-9 Mail/6.400", "eM Client/8.2"): a mail program by its name
		// as much as one that embeds a browser engine.
		if len(s.p.products) == 0 || s.p.products[0].name != s.agName.v {
			return
		}
	default:
		return
	}
	// The name is lowered in a buffer on the stack: most agents are
	// browsers, and this check must not cost them an allocation.
	var buf [32]byte
	if len(s.agName.v) > len(buf) {
		return
	}
	b := buf[:len(s.agName.v)]
	for i := 0; i < len(b); i++ {
		b[i] = lowerASCII(s.agName.v[i])
	}
	if bytes.Contains(b, []byte("mail")) || len(b) > 0 && emailAppKeys.has(productKey(len(b), b[0])) && emailApps[string(b)] {
		s.agClass.set("Email Client", confFamily+1)
	}
}

// emailAppKeys has the bit of productKey for the length and first byte of
// each name of emailApps: a bit test spares most agents' names, browsers'
// above all, the lookup in the map.
var emailAppKeys byteSet

func buildEmailAppKeys() (k byteSet) {
	for name := range emailApps {
		if name != "" {
			c := productKey(len(name), name[0])
			k[c>>6] |= 1 << (c & 63)
		}
	}
	return k
}

// outlookMobile reads the Outlook app for iOS and Android: "Outlook-iOS/
// 711.2587062.prod.iphone (3.33.0)" carries a build number in the product
// and the app release in the comment, and names the device kind in the
// build; "Outlook-iOS-Android/1.0" is the app on either system.
func (s *state) outlookMobile(pr product) {
	p := s.p
	s.setAgent(confFamily, "Email Client", "Microsoft Outlook Mobile", cleanVersion(pr.version))
	for _, e := range p.entries {
		if t := p.text(e); isVersionLike(t) && numericVersion(t) {
			s.agVersion.set(t, confFamily+1)
			break
		}
	}
	if s.os.name != "" {
		return
	}
	lv := asciiLower(pr.version)
	switch {
	case strings.Contains(lv, "iphone") || strings.Contains(lv, "ipad"):
		s.os = osInfo{name: "iOS", version: Unknown, class: "Mobile"}
	default:
		s.os = osInfo{class: "Mobile"}
		s.devClass.set("Mobile", confFamily)
	}
}

// appPlatformProducts are the products a mobile app's user agent may carry
// besides its own without being more than a plain app: the system's
// networking stack and the device it runs on.
var appPlatformProducts map[string]bool

func buildAppPlatformProducts() map[string]bool {
	return map[string]bool{
		"cfnetwork": true, "darwin": true, "alamofire": true, "iphone": true, "ipad": true, "ipod": true, "hw": true,
		"applewebkit": true, "khtml": true, "mobile": true, "android": true, "ios": true, "ipados": true, "dalvik": false,
	}
}

// appUsesLibrary reports a product named with spaces ("Callpod Keeper for
// Android 1.0", "Pinterest for iOS/6.80") or followed by the versioned
// product of a media or HTTP library of its own ("BBCiPlayer/4.75.0.1
// (...) BBCSMP/36.2.0 BBCHTTPClient/8.0.2", "bbcmediaplayer/3.1.12 (...)
// AdobeAIR/23.0"): Yauaa counts such clients as Special rather than as a
// Mobile App. The app's product is products[i].
func (s *state) appUsesLibrary(i int) bool {
	p := s.p
	if strings.IndexByte(p.products[i].name, ' ') >= 0 {
		return true
	}
	for _, pr := range p.products[i+1:] {
		if pr.version == "" || appPlatformProducts[pr.lword] || !startsWithLetter(pr.name) {
			continue
		}
		return true
	}
	return false
}

// nameVersionPlatform splits a product name that carries the app's version
// followed by nothing or by its platform ("Instagram 3.0.4 Android", "BBC
// News Android 4.7.1.29") into the app's name and version.
func nameVersionPlatform(n string) (string, string, bool) {
	// Walk the space separated words without splitting the name, which
	// would allocate for every app.
	start := strings.IndexByte(n, ' ')
	for start > 0 {
		for start < len(n) && n[start] == ' ' {
			start++
		}
		end := start
		for end < len(n) && n[end] != ' ' {
			end++
		}
		w := n[start:end]
		if isVersionLike(w) && numericVersion(w) && strings.IndexByte(w, '.') >= 0 {
			rest := strings.TrimSpace(n[end:])
			if rest != "" && !strings.EqualFold(rest, "android") && !strings.EqualFold(rest, "ios") {
				return "", "", false
			}
			return strings.TrimSpace(n[:start]), w, true
		}
		if end >= len(n) {
			break
		}
		start = end
	}
	return "", "", false
}

var kwOsmeta needleID

// osmetaDevice reads the apps Facebook ported to Windows 10 Mobile with
// its osmeta layer ("(osmeta like iPhone; U; osmeta 10.3.2132;
// RM-1089_1038)"): the system release follows "osmeta", and the device is
// the Nokia (Microsoft Lumia) type number "RM-nnnn" with its variant.
//
// On a Windows computer ("(Windows NT 10.0.16299.98; osmeta 10.3.3308)
// ... [FBAN/FBW;...;FBMD/HP Pavilion Notebook;FBSN/Windows;
// FBSV/10.0.16299.431;...]") the app's bracket names the computer (FBMD)
// and the release of Windows it runs now (FBSV), which is newer than the
// one the layer was built for.
func (s *state) osmetaDevice() {
	p := s.p
	if !p.has(kwOsmeta) {
		return
	}
	if s.os.name == "Windows NT" && p.has(kwFBBracket) {
		if v := s.fbField("fbsv/"); isVersionLike(v) && strings.HasPrefix(v, "10.") {
			s.os.version = v
		}
		m := s.fbField("fbmd/")
		for _, kind := range [...]string{" notebook pc", " notebook", " convertible"} {
			// "HP Pavilion dv6 Notebook PC", "HP Spectre x360
			// Convertible": the kind of computer the maker's firmware
			// writes after the product's name.
			if len(m) > len(kind)+2 && hasSuffixFold(m, kind) {
				m = m[:len(m)-len(kind)]
				break
			}
		}
		if b, ok := knownBrand(firstWord(m)); ok && len(m) > len(b) {
			s.devBrand.set(b, confFamily)
			s.devName.set(b+" "+strings.TrimSpace(m[len(b):]), confFamily)
		} else if r, ok := modelPrefixOf(m); ok {
			// "FBMD/Satellite A500": the computer's product line
			// without its maker's name, which a row of
			// tables/model_prefixes.tsv gives.
			s.devBrand.set(r.brand, confFamily)
			s.devName.set(r.brand+" "+m, confFamily)
		}
		return
	}
	if s.os.name != "Windows Phone" {
		return
	}
	for _, e := range p.entries {
		lt := p.ltext(e)
		switch {
		case strings.HasPrefix(lt, "osmeta ") && isVersionLike(lt[7:]) && (s.os.version == "" || s.os.version == Unknown):
			s.os.version = lt[7:]
		case strings.HasPrefix(lt, "rm-") && len(lt) > 3 && lt[3] >= '0' && lt[3] <= '9':
			s.devClass.set("Mobile", confFamily)
			s.devBrand.set("Nokia", confFamily)
			s.devName.set("Nokia "+strings.ReplaceAll(p.text(e), "_", " "), confFamily+1)
		}
	}
}

// appInVersion names the iOS app that writes its own name where Safari
// writes its version ("Version/ziggo 18.6.281310 18.6.281310 15.0
// Safari/605.1.15"): the app's release follows its name.
func (s *state) appInVersion() bool {
	p := s.p
	ver, ok := p.product("Version")
	if !ok || ver.version == "" || !isLetter(ver.version[0]) {
		return false
	}
	k := strings.Index(p.ua, ver.version)
	if k < 0 {
		return false
	}
	rest := strings.TrimLeft(p.ua[k+len(ver.version):], " ")
	v := leadingVersion(rest)
	if v == "" || strings.IndexByte(v, '.') < 0 {
		return false
	}
	name := ver.version
	if sp, ok := appSpellings[asciiLower(name)]; ok {
		name = sp
	} else if !hasUpper(name) {
		name = appName(name)
	}
	s.setAgent(confFamily, "Browser", name, v)
	return true
}

// platformPathApp reads an app that writes its platform between its name
// and its version ("Shopify Mobile/Android/9.129.0 (Build 33470 with API
// 31 on OPPO CPH2223)", "Shopify Mobile/iOS/9.124.2 (iPhone15,3/com.
// jadedpixel.shopify/16.6.0)"). The comment gives the Android API level or
// ends in the iOS release.
func (s *state) platformPathApp(pr product) bool {
	p := s.p
	var osName string
	// The platform is written as its maker does; a lower case
	// "name/android/1.11.12/..." is a build path, not this shape.
	switch pr.version {
	case "Android", "iOS":
		osName = pr.version
	default:
		return false
	}
	k := strings.Index(p.ua, pr.name+"/"+pr.version+"/")
	v := ""
	if k >= 0 {
		v = leadingVersion(p.ua[k+len(pr.name)+len(pr.version)+2:])
	} else if strings.HasPrefix(p.ua, pr.name+"/"+pr.version+" (") && len(p.products) == 1 {
		// "Sonnet/Android (Play)": the whole user agent is the app and
		// its platform, with the store it came from, and no version.
		v = Unknown
	}
	if v == "" {
		return false
	}
	s.setAgent(confFamily, "Mobile App", pr.name, v)
	if s.os.name != "" {
		return true
	}
	s.os = osInfo{name: osName, version: Unknown, class: "Mobile"}
	for _, e := range p.entries {
		lt := p.ltext(e)
		if osName == "Android" {
			if i := strings.Index(lt, "api "); i >= 0 {
				if r := androidAPILevel(lt[i+4:]); r != "" {
					s.os.version = r
				}
			}
			continue
		}
		if i := strings.LastIndexByte(lt, '/'); i > 0 {
			if r := leadingVersion(lt[i+1:]); r != "" && r == lt[i+1:] {
				s.os.version = r
			}
		}
	}
	return true
}

// officeDevice reads the computer that the Office apps of the Windows
// store name in their comment as maker and model ("OneNote/16.0.4639.1000
// (Windows/10.0; Desktop WOW64; nl-NL; Desktop app; Dell Inc./Latitude
// 7480)", "Microsoft Office OneNote/16.0.13801.20288 (...; Desktop app;
// LENOVO/81W8)"). A model that starts with its maker's name ("HP/HP Z240
// Tower Workstation") does not repeat it.
func (s *state) officeDevice() {
	p := s.p
	if len(p.products) == 0 || !strings.HasSuffix(p.products[0].lname, "onenote") || s.os.name != "Windows NT" {
		return
	}
	for _, e := range p.entries {
		t := p.text(e)
		k := strings.IndexByte(t, '/')
		if k <= 0 || k == len(t)-1 || hasPrefixFold(t, "windows") {
			continue
		}
		maker, model := t[:k], t[k+1:]
		if len(model) > k+1 && hasPrefixFold(model, maker) && model[k] == ' ' {
			model = model[k+1:]
		}
		s.setDevice(confFamily, "Desktop", maker, maker+" "+model)
		return
	}
}

// firefoxNoise are products that follow "Firefox/x" without naming a
// browser: the system (KaiOS), developer and toolbar add-ons.
var firefoxNoise map[string]bool

// appendedToFirefox names the browser built on Firefox that adds its own
// product after Firefox's ("Firefox/52.9 PaleMoon/27.9.2", "Firefox/94.0
// Basjes/1.2.3").
func (s *state) appendedToFirefox() {
	p := s.p
	last := -1
	for i, pr := range p.products {
		if pr.lword == "firefox" {
			last = i
		}
	}
	if last < 0 || last+1 >= len(p.products) {
		return
	}
	pr := p.products[last+1]
	ln := pr.lname
	if !startsWithLetter(pr.name) || !isVersionLike(pr.version) || strings.IndexByte(ln, ' ') >= 0 || firefoxNoise[ln] ||
		strings.HasPrefix(ln, "gtb") || !numericVersion(pr.version) || chromeShaped(pr.version) {
		return
	}
	name := pr.name
	if sp, ok := appSpellings[ln]; ok {
		name = sp
	} else if !hasUpper(name) {
		name = appName(name)
	}
	s.setAgent(confFamily, "Browser", name, cleanVersion(pr.version))
	if ln == "opera" && s.engName.v == "Gecko" {
		// Opera 9 disguised as Firefox still renders with Presto.
		s.engName.set("Presto", confFamily)
	}
}

// activeSyncDevice returns the Apple device that iOS Mail's Exchange
// ActiveSync client names in its product ("apple-iphone3c1" is an iPhone,
// "apple-ipod4c1" an iPod Touch), or "".
func activeSyncDevice(lname string) string {
	rest, ok := strings.CutPrefix(lname, "apple-")
	if !ok {
		return ""
	}
	var dev string
	for _, d := range []string{"iphone", "ipod", "ipad"} {
		if strings.HasPrefix(rest, d) {
			dev, rest = d, rest[len(d):]
			break
		}
	}
	c := strings.IndexByte(rest, 'c')
	if dev == "" || c <= 0 || c == len(rest)-1 || leadingVersion(rest[:c]) != rest[:c] || leadingVersion(rest[c+1:]) != rest[c+1:] {
		return ""
	}
	switch dev {
	case "iphone":
		return "Apple iPhone"
	case "ipod":
		return "Apple iPod Touch"
	}
	return "Apple iPad"
}

// activeSyncDeviceName names the device of iOS Mail's Exchange ActiveSync
// client.
func (s *state) activeSyncDeviceName() {
	p := s.p
	if len(p.products) != 1 || s.agName.v != "Exchange ActiveSync" {
		return
	}
	if d := activeSyncDevice(p.products[0].lname); d != "" {
		s.setDevice(confFamily, "Phone", "Apple", d)
		if d == "Apple iPad" {
			s.devClass.set("Tablet", confFamily)
		}
	}
}

var (
	kwEmbeddedWebBrowserFrom needleID
	kwViaSuperhumanProxy     needleID
)

// appNotRobot reports user agents whose contact address or URL belongs to
// a program a person uses, not to a crawler: the Delphi component that
// embeds Internet Explorer ("Embedded Web Browser from: http://bsalsa.
// com/") and the Superhuman mail client, whose proxy fetches mail images
// for its user ("(via SuperhumanProxy; hello@superhuman.com)").
func (s *state) appNotRobot() bool {
	p := s.p
	return p.has(kwEmbeddedWebBrowserFrom) || p.has(kwViaSuperhumanProxy) && s.agClass.v == "Email Client"
}

// camelWordAt returns where word starts in the CamelCase name n as a word
// of its own ("GeenStijlAndroidApp", "MastodonAndroid"), or -1.
func camelWordAt(n, word string) int {
	k := strings.Index(n, word)
	if k <= 0 || n[k-1] < 'a' || n[k-1] > 'z' {
		return -1
	}
	if e := k + len(word); e < len(n) && (n[e] < 'A' || n[e] > 'Z') {
		return -1
	}
	return k
}

// androidInAppName reads the system from an app that names its Android
// build in its product and sends nothing else ("GeenStijlAndroidApp/2.0",
// "MastodonAndroid/1.2.2"): a mobile device of unknown make.
func (s *state) androidInAppName() {
	p := s.p
	if s.os.name != "" || len(p.products) == 0 || camelWordAt(p.products[0].name, "Android") < 0 {
		return
	}
	s.os = osInfo{name: "Android", version: Unknown, class: "Mobile"}
	if s.devClass.v == "" || s.devClass.v == Unknown {
		s.devClass.set("Mobile", confFamily)
	}
}

// startsWithLetter reports a name that begins with an ASCII letter; the
// parser gives an empty name to a product written as "/1.0".
func startsWithLetter(s string) bool {
	return s != "" && isLetter(s[0])
}

// ucAgentEngine names the layout engine of UC Browser (the one rule for
// it, run once the agent is known), as UC brings its own:
// "U2/1.0.0" on feature phones and "U3/0.8.0" on Android are UC's engines,
// and a UC Browser on an old WebKit without either (iOS, "Version/3.1.2
// Mobile Safari/525.20") is reported with UC's own release as the engine.
// On iOS it shows pages in the system web view.
func (s *state) ucAgentEngine() {
	if s.agName.v != "UCBrowser" {
		return
	}
	p := s.p
	for _, e := range [...]string{"U3", "U2"} {
		if pr, ok := p.product(e); ok && isVersionLike(pr.version) {
			s.setEngine(confFamily, "Browser", "UCBrowser "+e, cleanVersion(pr.version))
			return
		}
	}
	if s.engName.v == "AppleWebKit" && s.agVersion.v != Unknown {
		// (Without a release, "UC AppleWebKit/530+", there is none to
		// give the engine, which stays the WebKit it names.)
		s.engName.set("UCBrowser", confFamily)
		s.engVersion.set(s.agVersion.v, confFamily)
	}
	if s.engName.v == "UCBrowser" && s.os.name == "iOS" {
		s.agClass.set("Browser Webview", confFamily)
	}
}
