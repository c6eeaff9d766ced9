package uaparse

import (
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// maxLength is the longest user agent analysed. Longer strings are an
// attempt to overflow buffers (Yauaa uses the same limit and answer).
const maxLength = 2048

// state collects the findings of the rules for one user agent before they
// are written to the attribute array.
type state struct {
	p  *parsed
	os osInfo

	mobile, tablet bool // a "Mobile" or "Tablet" token was seen
	mozilla        bool // the user agent starts with Mozilla/x

	devClass, devBrand, devName, devCPU, devVersion, devFirmware string

	engClass, engName, engVersion, engBuild string

	agClass, agName, agVersion string

	webview bool

	email, url, uuid, security, lang, langCode string

	ieCompat string // the Internet Explorer version a newer one emulates

	// compatContact is set for a browser's compatible section that gives
	// a contact address but no robot name.
	compatContact bool
}

// Needles of the engine and extras rules.
var (
	kwParenGecko = uaNeedles.add(") gecko ")
	kwHTTPWord   = uaNeedles.add("http")
)

// analyze runs every rule over ua and returns the attribute values.
func analyze(ua string) *[numAttributes]string {
	var v [numAttributes]string
	for i := range v {
		v[i] = Unknown
	}
	if len(ua) > maxLength {
		fillHacker(&v, hackerInfo{vector: "Buffer overflow", toolkit: Unknown})
		return &v
	}
	if strings.TrimSpace(ua) == "" {
		fillHacker(&v, hackerInfo{vector: Unknown, toolkit: Unknown})
		return &v
	}
	p := parse(collapseSpaces(urlDecode(ua)))
	if h, ok := detectHacker(p); ok {
		fillHacker(&v, h)
		releaseParsed(p)
		return &v
	}
	s := &state{p: p}
	s.scanTokens()
	s.os = detectOS(p)
	s.detectEngine()
	s.detectAgent()
	s.cfnetworkEngine()
	s.mailClient()
	s.ucAgentEngine()
	s.detectDevice()
	s.anonymized()
	s.desktopMode()
	s.frozenOSVersion()
	if !s.appNotRobot() {
		s.detectRobot()
	}
	s.cloudApp()
	s.whatsAppDevice()
	s.facebookDevice()
	s.osmetaDevice()
	s.officeDevice()
	s.activeSyncDeviceName()
	s.androidInAppName()
	s.repairBroken()
	s.extras()
	s.fill(&v)
	releaseParsed(p)
	return &v
}

func fillHacker(v *[numAttributes]string, h hackerInfo) {
	for _, i := range []int{attrDeviceClass, attrDeviceName, attrDeviceBrand, attrDeviceVersion,
		attrOperatingSystemClass, attrOperatingSystemName, attrOperatingSystemVersion, attrOperatingSystemNameVersion,
		attrLayoutEngineClass, attrLayoutEngineName, attrLayoutEngineVersion, attrLayoutEngineVersionMajor,
		attrLayoutEngineNameVersion, attrLayoutEngineNameVersionMajor,
		attrAgentClass, attrAgentName, attrAgentVersion, attrAgentVersionMajor, attrAgentNameVersion, attrAgentNameVersionMajor} {
		v[i] = "Hacker"
	}
	v[attrHackerAttackVector] = h.vector
	v[attrHackerToolkit] = h.toolkit
	if h.agent != "" {
		ver := cleanVersion(h.version)
		v[attrAgentName] = h.agent
		v[attrAgentVersion] = ver
		v[attrAgentVersionMajor] = versionMajor(ver)
		v[attrAgentNameVersion] = h.agent + " " + ver
		v[attrAgentNameVersionMajor] = h.agent + " " + versionMajor(ver)
	}
}

// scanTokens records the simple flags the other rules use.
func (s *state) scanTokens() {
	p := s.p
	if len(p.products) > 0 && strings.EqualFold(p.products[0].word, "mozilla") {
		s.mozilla = true
	}
	for _, pr := range p.products {
		lw := pr.lname
		// "Version/4.0Mobile Safari" and "MobileSafari" are what is left of
		// "Mobile Safari" when spaces were lost.
		if lw == "mobile" || strings.HasPrefix(lw, "mobile ") || strings.HasSuffix(lw, " mobile") || pr.word == "Mobile" ||
			pr.lword == "mobilesafari" || strings.HasSuffix(lw, "mobile safari") {
			s.mobile = true
		}
	}
	for _, e := range p.entries {
		lt := p.ltext(e)
		switch lt {
		case "mobile", "mobi", "phone", "smartphone":
			s.mobile = true
		case "tablet":
			s.tablet = true
		}
		switch {
		case lt == "u" || lt == "n":
			s.security = "Strong security"
		case lt == "i":
			s.security = "Weak security"
		}
	}
}

// detectEngine finds the layout engine from its product token.
func (s *state) detectEngine() {
	p := s.p
	if s.os.name == "Windows Phone" {
		// Windows Phone 8.1 appends "like iPhone OS 7_0_3 Mac OS X
		// AppleWebKit/537" for compatibility; its engine is Trident.
		if v, ok := p.entryVersion("trident/"); ok {
			s.engClass, s.engName, s.engVersion = "Browser", "Trident", cleanVersion(v)
			return
		}
	}
	wk, ok := p.product("AppleWebKit")
	if !ok && strings.Contains(p.low, "browser/applewebkit") {
		// "Browser/AppleWebKit534.30": the built-in browser of Chinese
		// feature phones names its engine as its version.
		if b, found := p.product("Browser"); found && hasPrefixFold(b.version, "applewebkit") {
			wk, ok = b, true
		}
	}
	if ok {
		s.engClass, s.engName, s.engVersion = "Browser", "AppleWebKit", cleanVersion(wk.version)
		ch, ok := p.chromeProduct()
		if !ok && p.has(kwHeadlessChrome) {
			// Headless Chrome, driven by test and scraping tools, names
			// the same Blink engine by its own product.
			ch, ok = p.product("HeadlessChrome")
		}
		if ok && s.os.name != "iOS" {
			cv := chromeVersion(ch.version)
			if n := atoiPrefix(cv); n >= 28 {
				s.engName = "Blink"
				if strings.Contains(cv, ".") {
					s.engVersion = twoParts(cv)
				} else {
					s.engVersion = cv
				}
			}
		}
		if e, ok := p.product("Edge"); ok && isVersionLike(e.version) {
			s.engName, s.engVersion = "EdgeHTML", cleanVersion(e.version)
		}
		if p.has(kwWebKitGTK) {
			if g, ok := p.product("WebKitGTK+"); ok && isVersionLike(g.version) {
				// WebKitGTK, the GNOME port, names its own release.
				s.engName, s.engVersion = "WebKitGTK", cleanVersion(g.version)
			}
		}
		return
	}
	if pr, ok := p.product("Presto"); ok {
		s.engClass, s.engName, s.engVersion = "Browser", "Presto", cleanVersion(pr.version)
		return
	}
	if len(p.products) > 0 && p.products[0].lname == "opera" && isVersionLike(p.products[0].version) {
		// "Opera/5.0 (...)": only the Presto releases of Opera (up to
		// 12) start with their own name, whatever tokens follow.
		s.engClass, s.engName, s.engVersion = "Browser", "Presto", prestoFor(p.products[0].version)
		return
	}
	if pr, ok := p.goanna(); ok {
		// Pale Moon's fork of Gecko, which keeps a "Gecko/20100101" token
		// for compatibility. Its version is that of the platform, sent
		// as "rv:" as in Gecko (some releases sent a build date as the
		// Goanna version).
		s.engClass, s.engName, s.engVersion = "Browser", "Goanna", cleanVersion(pr.version)
		if rv, ok := p.entryVersion("rv:"); ok && isVersionLike(rv) {
			s.engVersion = cleanVersion(rv)
		}
		return
	}
	if v, ok := p.entryVersion("trident/"); ok {
		s.engClass, s.engName, s.engVersion = "Browser", "Trident", cleanVersion(v)
		return
	}
	if s.mozilla && p.has(kwParenGecko) {
		for _, pr := range p.products {
			if strings.HasPrefix(pr.lname, "gecko ") && pr.version != "" {
				// "rv:12.3) Gecko Kazehakase/0.5.4": the engine token
				// without its build date, which names no version.
				s.engClass, s.engName, s.engVersion = "Browser", "Gecko", Unknown
				return
			}
		}
	}
	if g, ok := p.product("Gecko"); ok || p.has(kwLikeGecko) && p.has(kwRV) {
		s.engClass, s.engName = "Browser", "Gecko"
		if isVersionLike(g.version) && len(g.version) < 8 && strings.IndexByte(g.version, '.') > 0 {
			// "Gecko/110.0": the mobile builds send the engine version
			// itself, which stays right where "rv:" was frozen at 109.0.
			s.engVersion = g.version
		} else if rv, ok := p.entryVersion("rv:"); ok {
			s.engVersion = cleanVersion(rv)
		} else if isVersionLike(g.version) && len(g.version) < 8 {
			s.engVersion = g.version
		} else {
			s.engVersion = Unknown
		}
		if len(g.version) >= 8 && isVersionLike(g.version) {
			s.engBuild = g.version
		}
		if _, ok := p.product("Goanna"); ok {
			// Pale Moon's fork of Gecko, which still sends the Gecko
			// token and the "rv:" of the Firefox it matches.
			s.engName = "Goanna"
		}
		return
	}
	if v, ok := p.entryVersion("msiemobile "); ok && p.has(kwMSIE) {
		// "MSIEMobile 6.5": the engine of Windows Mobile 6.5.
		s.engClass, s.engName, s.engVersion = "Browser", "Internet Explorer Mobile", cleanVersion(v)
		return
	}
	if pr, ok := p.product("Goanna"); ok {
		s.engClass, s.engName, s.engVersion = "Browser", "Goanna", cleanVersion(pr.version)
		if rv, ok := p.entryVersion("rv:"); ok {
			s.engVersion = cleanVersion(rv) // "Goanna/20180327" is a date
		}
		return
	}
	if v, ok := p.entryVersion("msie "); ok {
		v = cleanVersion(v)
		switch versionMajor(v) {
		case "8":
			s.engClass, s.engName, s.engVersion = "Browser", "Trident", "4.0"
		case "9":
			s.engClass, s.engName, s.engVersion = "Browser", "Trident", "5.0"
		case "10":
			s.engClass, s.engName, s.engVersion = "Browser", "Trident", "6.0"
		default:
			s.engClass, s.engName, s.engVersion = "Browser", "Internet Explorer", v
		}
		return
	}
	if pr, ok := p.product("KHTML"); ok {
		s.engClass, s.engName, s.engVersion = "Browser", "KHTML", cleanVersion(pr.version)
		if v, ok := p.entryVersion("konqueror/"); ok && !isVersionLike(pr.version) {
			// "KHTML/TDEHTML/14.1.1": the fork's name in the version.
			s.engVersion = cleanVersion(v)
		}
		return
	}
	if v, ok := p.entryVersion("konqueror/"); ok && !p.has(kwLikeGecko) {
		// "(compatible; Konqueror/3.1; SunOS)": KDE's browser on its own
		// KHTML engine, which has the browser's version.
		s.engClass, s.engName, s.engVersion = "Browser", "KHTML", cleanVersion(v)
		return
	}
	if v, ok := p.entryVersion("konqueror/"); ok {
		// "(compatible; Konqueror/3.1-rc5; i686 Linux)": Konqueror
		// shipped with its KHTML engine, of the same version. A bare
		// "(KHTML, like Gecko)" of another browser names no engine.
		s.engClass, s.engName, s.engVersion = "Browser", "KHTML", cleanVersion(v)
		return
	}
	if pr, ok := p.product("NetFront"); ok {
		s.engClass, s.engName, s.engVersion = "Browser", "Netfront", cleanVersion(pr.version)
		return
	}
	for _, pr := range p.products {
		// Engines that name themselves without an AppleWebKit token:
		// YouTube's Cobalt (televisions, consoles) and Huawei's ArkWeb.
		if (pr.lname == "cobalt" || pr.lname == "arkweb") && isVersionLike(pr.version) {
			s.engClass, s.engName, s.engVersion = "Browser", pr.name, cleanVersion(pr.version)
			return
		}
	}
	if p.has(kwExoPlayer) {
		if pr, ok := p.product("ExoPlayerLib"); ok {
			// Google's ExoPlayer media library plays the stream itself.
			s.engClass, s.engName, s.engVersion = "Special", "ExoPlayer", cleanVersion(pr.version)
			return
		}
	}
	if ch, ok := p.chromeProduct(); ok && atoiPrefix(ch.version) >= 28 {
		// "XXX_APP/1.2025 (Windows_NT 10.0.19045; ...) Electron/37.4.0
		// Chrome/138.0": Chromium's engine without the WebKit token.
		s.engClass, s.engName, s.engVersion = "Browser", "Blink", twoParts(cleanVersion(chromeVersion(ch.version)))
		return
	}
	if s.mozilla {
		s.engClass, s.engName, s.engVersion = "Browser", "Mozilla", cleanVersion(p.products[0].version)
		return
	}
	if s.os.name == "Android" {
		for _, pr := range p.products {
			if pr.lname == "android" && strings.Contains(p.low, "android/") || strings.HasPrefix(pr.lname, "android-") {
				// "Android/9/G960FXXU5CSF2/...", "Appie/8.31.0 ...
				// Android/7.0-API24": an app that names Android as a
				// product shows its pages in Android's WebKit.
				s.engClass, s.engName, s.engVersion = "Browser", "AppleWebKit", Unknown
				return
			}
		}
	}
}

// operaProduct returns the "Opera" product, asked only when the user
// agent names Opera.
func (p *parsed) operaProduct() (product, bool) {
	if !p.has(kwOpera) {
		return product{}, false
	}
	return p.product("Opera")
}

// goanna returns the Goanna engine's product, asked only when the user
// agent names it.
func (p *parsed) goanna() (product, bool) {
	if !p.has(kwGoanna) {
		return product{}, false
	}
	return p.product("Goanna")
}

// chromeProduct returns the "Chrome/x" product that names the Blink
// engine: Chrome's own token, or "Mobile Chrome". Browsers that only claim
// to be like it ("Silk/94.3.10 like Chrome/94.0") or put their name in
// front of it ("Brave Chrome/80.0") are reported on their WebKit base, as
// Yauaa does.
func (p *parsed) chromeProduct() (product, bool) {
	for _, pr := range p.products {
		if len(pr.lword) == 6 && pr.lword == "chrome" && (len(pr.lname) == 6 || pr.lname == "mobile chrome") {
			return pr, true
		}
	}
	return product{}, false
}

func atoiPrefix(s string) int {
	n := 0
	for i := 0; i < len(s) && i < 9; i++ {
		c := s[i]
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// detectAgent finds the browser or application.
func (s *state) detectAgent() {
	p := s.p
	// Internet Explorer and its mobile variant live in the comment.
	ieVersion, isIE := p.entryVersion("msie ")
	if !isIE && p.has(kwMSIE) {
		// "(compatible;MSIE9.0;WindowsNT6.1;Trident/5.0)": spaces lost.
		if v, ok := p.entryVersion("msie"); ok && isVersionLike(v) {
			ieVersion, isIE = v, true
		}
	}
	if isIE {
		ieVersion = cleanVersion(ieVersion)
	}
	trident, hasTrident := p.entryVersion("trident/")
	if s.knownApp() {
		return
	}
	if s.androidWebview() {
		return
	}
	if s.namedBrowser() || s.markedBrowser() {
		return
	}
	// Legacy Edge (EdgeHTML) also sends the Chrome token it imitates, so
	// its own "Edge/12.x" product is looked at first.
	if e, ok := p.product("Edge"); ok && isVersionLike(e.version) {
		maj := versionMajor(e.version)
		ev := edgeHTMLToEdge[maj]
		if ev == "" {
			ev = maj
		}
		minor := Unknown
		if i := strings.IndexByte(e.version, '.'); i >= 0 && e.version[i+1:] != "0" {
			minor = e.version[i+1:]
		}
		s.agName, s.agClass, s.agVersion = "Edge", "Browser", ev+"."+minor
		return
	}
	if pr, ok := p.operaProduct(); ok && isVersionLike(pr.version) && (isIE || s.engName == "Gecko") {
		// "MSIE 6.0; ...) Opera 8.02", "Firefox/2.0.0 Opera 9.51": Opera
		// disguised as another browser names itself last.
		s.agName, s.agClass, s.agVersion = "Opera", "Browser", cleanVersion(pr.version)
		s.engName, s.engVersion = "Presto", prestoFor(pr.version)
		return
	}
	for i, bt := range browserTokens {
		// A product named after the token is part of the user agent, so
		// a token the needle scan did not see needs no product search.
		if !p.has(browserTokenNeedles[i]) {
			continue
		}
		pr, ok := p.product(bt.token)
		if !ok {
			continue
		}
		if bt.token == "chrome" && !isVersionLike(pr.version) {
			continue
		}
		if bt.token == "focus" || bt.token == "klar" || bt.token == "duckduckgo" {
			ver, ok := p.product("Version")
			ch, chrome := p.chromeProduct()
			if ok && chrome && strings.HasPrefix(ver.version, "4.0") && isVersionLike(ch.version) {
				// Firefox Focus and DuckDuckGo for Android first showed
				// pages in the system web view ("Version/4.0 Focus/1.3
				// Chrome/60", "Version/4.0 Chrome/90 DuckDuckGo/5"),
				// which is what Yauaa names.
				s.agName, s.agClass, s.agVersion = "Chrome Webview", "Browser Webview", cleanVersion(chromeVersion(ch.version))
				s.webview = true
				return
			}
		}
		s.agName, s.agClass, s.agVersion = bt.name, bt.class, cleanVersion(pr.version)
		if pr.version == "" && bt.class == "Special" && len(p.entries) > 0 && p.entries[0].block == 0 &&
			p.products[0].lword == bt.token && isVersionLike(p.text(p.entries[0])) {
			// "Links (2.1; Linux 2.6.18 x86_64; 80x24)": the text
			// browsers put their version first in the comment.
			s.agVersion = cleanVersion(p.text(p.entries[0]))
		}
		if !isVersionLike(pr.version) && len(pr.version) > 24 {
			// "Aoyou/aHR0cHM6Ly95YXVhYS5iYXNqZXMubmw=": an encoded
			// token in the place of the version.
			s.agVersion = Unknown
		}
		switch bt.token {
		case "chrome", "crios", "headlesschrome", "edg", "edga", "edgios":
			s.agVersion = cleanVersion(chromeVersion(pr.version))
			if ch, ok := p.chromeProduct(); ok && bt.token != "chrome" && strings.HasSuffix(ch.version, ".0.0.0") {
				// Edge on a reduced Chromium user agent: like Yauaa,
				// report the release that Chromium's token carries.
				s.agVersion = chromeVersion(ch.version)
			}
		case "opr":
			if s.os.name == "Android" || p.has(kwAndroid) {
				s.agName = "Opera Mobile"
			}
		case "gsa":
			s.agName, s.agClass = "Google Search App", "Mobile App"
		case "duckduckgo", "ddg":
			// The DuckDuckGo app of before its own browser engine
			// showed pages in the system web view ("Version/4.0
			// Chrome/74.0 Mobile Safari/537.36 DuckDuckGo/5").
			if _, ok := p.product("Version"); ok {
				if ch, ok := p.product("Chrome"); ok && isVersionLike(ch.version) {
					s.agName, s.agClass, s.agVersion = "Chrome Webview", "Browser Webview", cleanVersion(chromeVersion(ch.version))
					s.webview = true
				}
			}
		}
		if bt.token == "chrome" {
			if k := strings.LastIndexByte(pr.name, ' '); k > 0 && isLetter(pr.name[0]) {
				switch strings.ToLower(pr.name[:k]) {
				case "mobile", "like", "(khtml", "khtml":
				default:
					// "Brave Chrome/80.0": the browser names itself in
					// front of the Chrome token it is built on.
					s.agName = pr.name[:k]
				}
			}
			s.chromeWebview(pr)
		}
		if s.agClass == "Browser" && p.has(kwHeadlessChrome) {
			// A browser built on Chromium run without a screen ("HeadlessChrome/107 ...
			// Edg/107") is that browser driven by a program.
			s.agClass = "Robot"
		}
		if (bt.token == "chrome" || bt.token == "chromium") && !s.webview {
			s.appendedApp()
		}
		if bt.token == "firefox" {
			s.appendedToFirefox()
		}
		if bt.token == "firefox" {
			s.firefoxDerivative()
		}
		return
	}
	if isIE || hasTrident {
		name := "Internet Explorer"
		if _, ok := p.entryVersion("iemobile"); ok {
			name = "IE Mobile"
			if v, ok := p.entryVersion("iemobile"); ok {
				ieVersion = cleanVersion(v)
			}
		}
		if hasTrident && atoiPrefix(trident) >= 7 {
			if rv, ok := p.entryVersion("rv:"); ok {
				ieVersion = cleanVersion(rv)
			} else if atoiPrefix(trident) == 7 {
				ieVersion = "11.0"
			}
		} else if rv, ok := p.entryVersion("rv:"); ok && hasTrident && isVersionLike(rv) {
			ieVersion = cleanVersion(rv)
		} else if t := atoiPrefix(trident); hasTrident && (t == 5 || t == 6) && atoiPrefix(ieVersion) < t+4 {
			// Internet Explorer 9 and 10 (Trident 5 and 6) emulating an
			// older release send its "MSIE 7.0"; the engine tells the
			// real release, always four ahead of it.
			ieVersion = strconv.Itoa(t+4) + ".0"
		}
		if ieVersion == "" {
			ieVersion = Unknown
		}
		s.agName, s.agClass, s.agVersion = name, "Browser", ieVersion
		return
	}
	if op, ok := p.product("Opera"); ok {
		v := op.version
		if ver, ok := p.product("Version"); ok {
			v = ver.version
		}
		s.agName, s.agClass, s.agVersion = "Opera", "Browser", cleanVersion(v)
		if s.engName == "" || s.engName == "Mozilla" || s.engName == "Gecko" {
			s.engClass, s.engName, s.engVersion = "Browser", "Presto", prestoFor(v)
		}
		if p.has(kwOperaMini) {
			s.agName = "Opera Mini"
			// "(Android; Opera Mini/7.5.33135/191.273; U; ar) ...
			// Version/12.16": the Version token is that of the Presto
			// engine on Opera's servers; the client names its own.
			if mv, ok := p.entryVersion("opera mini/"); ok && isVersionLike(mv) {
				if k := strings.IndexByte(mv, '/'); k > 0 {
					mv = mv[:k]
				}
				s.agVersion = cleanVersion(mv)
			}
		} else if p.has(kwOperaMobi) {
			s.agName = "Opera Mobile"
		} else if p.has(kwOperaTablet) {
			s.agName = "Opera Tablet"
		}
		return
	}
	if _, ok := p.product("GSA"); ok && s.os.name == "iOS" && s.engName == "AppleWebKit" {
		// The Google app on iOS shows pages in the system web view.
		s.agName, s.agClass, s.agVersion = "UIWebView", "Browser Webview", s.engVersion
		s.webview = true
		return
	}
	if sf, ok := p.product("Safari"); ok {
		if s.appendedApp() || s.appInVersion() {
			return
		}
		if ver, ok := p.product("Version"); ok {
			if s.os.name == "Android" {
				s.agName, s.agClass, s.agVersion = "Stock Android Browser", "Browser", cleanVersion(ver.version)
			} else {
				s.agName, s.agClass, s.agVersion = "Safari", "Browser", cleanVersion(ver.version)
			}
			return
		}
		if s.os.name == "Android" {
			// The stock browser ships with the system and shares its
			// version.
			s.agName, s.agClass, s.agVersion = "Stock Android Browser", "Browser", orUnknown(s.os.version)
			return
		}
		s.agName, s.agClass, s.agVersion = "Safari", "Browser", cleanVersion(sf.version)
		for i := 1; i < len(p.products); i++ {
			if p.products[i].lword != "safari" {
				continue
			}
			// "AppleWebKit/312.8 (KHTML, like Gecko) Shiira/1.2.1
			// Safari/125": a WebKit browser names itself before the
			// Safari token it sends for compatibility.
			if pr := p.products[i-1]; pr.lname != "" && isLetter(pr.name[0]) && isVersionLike(pr.version) && !platformProducts[pr.lname] &&
				!platformProducts[pr.lword] && !strings.ContainsAny(pr.name, "()") && !strings.HasPrefix(pr.lname, "like ") {
				s.agName, s.agVersion = pr.name, cleanVersion(pr.version)
			}
			break
		}
		return
	}
	if s.os.name == "iOS" && s.engName == "AppleWebKit" {
		if _, ok := p.product("Mobile"); ok {
			if s.iosAppAfterMobile() {
				return
			}
			s.agName, s.agClass, s.agVersion = "UIWebView", "Browser Webview", s.engVersion
			s.webview = true
			return
		}
	}
	if (s.engName == "AppleWebKit" || s.engName == "WebKitGTK" || s.engName == "Gecko") && s.mozilla && s.lastUnknownProduct() {
		return
	}
	if s.engName == "AppleWebKit" && s.mozilla && len(p.products) <= 3 {
		s.agName, s.agClass, s.agVersion = "AppleWebKit", "Browser", s.engVersion
		return
	}
	if s.engName == "Gecko" && s.mozilla {
		s.agName, s.agClass, s.agVersion = "Gecko", "Browser", s.engVersion
		return
	}
	if v, ok := p.entryVersion("konqueror/"); ok && s.engName == "KHTML" {
		s.agName, s.agClass, s.agVersion = "Konqueror", "Browser", cleanVersion(v)
		return
	}
	s.genericAgent()
}

// firefoxAddOns are the products that Firefox extensions and toolbars
// append to the user agent; they do not name another browser.
var firefoxAddOns = map[string]bool{
	"firephp": true, "stumbleupon": true, "owasmime": true, "kaios": true, "yff3": true, "yff35": true,
	"ffco7": true, "navigator": true, "fbsmtwb": true,
}

// firefoxDerivative names the browsers built on Firefox that append their
// own product after its token ("Firefox/68.9 Mypal/28.9.1", "Firefox/52.9
// Basilisk/20180427"). Tokens of add-ons and toolbars (firefoxAddOns,
// "GTB7.1") and the made-up Chromium versions that privacy tools append
// ("Agency/95.8.7917.18") are passed over.
func (s *state) firefoxDerivative() {
	p := s.p
	for _, pr := range p.productsAfter(func(pr *product) bool { return pr.lword == "firefox" }) {
		ln := pr.lname
		if ln == "" || !isLetter(pr.name[0]) || !isVersionLike(pr.version) || platformProducts[ln] ||
			firefoxAddOns[ln] || strings.HasPrefix(ln, "gtb") || strings.HasSuffix(ln, "toolbar") ||
			strings.ContainsAny(ln, " ():") || chromiumBuild(pr.version) {
			continue
		}
		s.agName, s.agClass, s.agVersion = appName(pr.name), "Browser", cleanVersion(pr.version)
		return
	}
}

// chromiumBuild reports a version of Chromium's four-part shape with a
// build number in the thousands ("95.8.7917.18").
func chromiumBuild(v string) bool {
	if strings.Count(v, ".") != 3 {
		return false
	}
	_, rest, _ := strings.Cut(v, ".")
	_, rest, _ = strings.Cut(rest, ".")
	build, _, _ := strings.Cut(rest, ".")
	return len(build) >= 4
}

// cfnetworkEngine describes the apps that use Apple's HTTP libraries
// directly ("GiFi/415 CFNetwork/1331.0.7 Darwin/21.4.0"): there is no web
// engine, and Yauaa reports the app itself in its place, as a Mobile App
// on iOS and a Desktop App on macOS. App names sent URL encoded
// ("Network%20Logger%20Pro") are decoded.
func (s *state) cfnetworkEngine() {
	p := s.p
	if s.engName == "" && s.engClass == "" && p.has(kwAlamofire) {
		// "Walibi NL/4.0.15 (nl.walibi.corporate; build:254; iOS
		// 15.4.1) Alamofire/5.5.0": the default user agent of Alamofire,
		// Swift's HTTP library, names no engine but is an app's.
		if _, ok := p.product("Alamofire"); ok {
			switch s.os.name {
			case "iOS":
				s.engClass = "Mobile App"
			case "Mac OS":
				s.engClass = "Desktop App"
			}
		}
		return
	}
	if s.engName != "" || len(p.products) < 2 || !p.has(kwCFNetwork) {
		return
	}
	if _, ok := p.product("CFNetwork"); !ok {
		return
	}
	app := p.products[0]
	if app.lword == "cfnetwork" || app.name == "" {
		return
	}
	class := "Mobile App"
	if s.os.name == "Mac OS" {
		class = "Desktop App"
	} else if app.version == "" {
		return
	}
	name := percentDecode(app.name)
	s.engClass, s.engName, s.engVersion = class, name, cleanVersion(app.version)
	if s.agName == app.name || s.agName == appName(app.name) {
		if s.agName == app.name {
			s.agName = name
		}
		if class == "Desktop App" && s.agClass == "Special" {
			s.agClass = class
		}
	}
}

// percentDecode undoes the %XX escapes of a name.
func percentDecode(n string) string {
	if strings.IndexByte(n, '%') < 0 {
		return n
	}
	b := make([]byte, 0, len(n))
	for i := 0; i < len(n); i++ {
		if n[i] == '%' && i+2 < len(n) && isHex(n[i+1]) && isHex(n[i+2]) {
			b = append(b, unhex(n[i+1])<<4|unhex(n[i+2]))
			i += 2
			continue
		}
		b = append(b, n[i])
	}
	return string(b)
}

// prestoFor gives the Presto engine version of an Opera release that does
// not send a Presto token: Opera 7 to 9 (Presto 1.x and 2.0), and Opera
// disguised as Internet Explorer or Firefox, which hides its engine too.
// Like Yauaa it answers "1": the token that would tell more is missing.
func prestoFor(string) string {
	return "1"
}

// androidWebview recognises the Android system webview by its "; wv)"
// marker: whatever app embeds it (DuckDuckGo, a vendor browser), the agent
// is the webview.
func (s *state) androidWebview() bool {
	p := s.p
	if p.has(kwMicroMessenger) || p.has(kwQQSlash) {
		// WeChat and the QQ client are reported as themselves, not as
		// the web view they show pages in.
		return false
	}
	for _, e := range p.entries {
		if p.ltext(e) == "wv" {
			// Opera's Android browsers built on the system web view name
			// themselves: "OPR/62.5" is Opera Mini there, "OPT/1.0"
			// Opera Touch.
			if pr, ok := p.product("OPR"); ok && isVersionLike(pr.version) {
				s.agName, s.agClass, s.agVersion = "Opera Mini", "Browser", cleanVersion(pr.version)
				return true
			}
			if pr, ok := p.product("OPT"); ok && isVersionLike(pr.version) {
				s.agName, s.agClass, s.agVersion = "Opera Touch", "Browser", cleanVersion(pr.version)
				return true
			}
			if ch, ok := p.product("Chrome"); ok && isVersionLike(ch.version) {
				s.agName, s.agClass, s.agVersion = "Chrome Webview", "Browser Webview", cleanVersion(chromeVersion(ch.version))
				if w, ok := p.product("EdgW"); ok && isVersionLike(w.version) {
					// Microsoft's Edge WebView on Android marks itself.
					s.agName, s.agVersion = "Edge Webview", cleanVersion(w.version)
				}
				s.webview = true
				return true
			}
		}
	}
	return false
}

var (
	kwMicroMessenger = uaNeedles.add("micromessenger/")
	kwQQSlash        = uaNeedles.add(" qq/")
)

// platformProducts are the tokens every browser of an engine family sends;
// they never name the browser itself.
var platformProducts = map[string]bool{
	"mozilla": true, "applewebkit": true, "khtml": true, "gecko": true, "like": true, "version": true,
	"safari": true, "mobile": true, "chrome": true, "firefox": true, "like gecko": true, "(khtml": true,
	"webkit": true, "mobile safari": true, "large screen safari": true, "smarttv": true, "smart-tv": true,
}

// lastUnknownProduct names the agent after the last product that is not a
// platform token, for browsers built on an engine that add their own name
// ("Gecko/20060610 Minimo/0.016", "AppleWebKit/531.9 ... AdobeAIR/2.5.1").
func (s *state) lastUnknownProduct() bool {
	p := s.p
	for i := len(p.products) - 1; i > 0; i-- {
		pr := p.products[i]
		ln := pr.lname
		if platformProducts[ln] || platformProducts[pr.lword] || pr.version == "" || strings.HasPrefix(ln, "like ") {
			continue
		}
		if pr.name == "" || !isLetter(pr.name[0]) && pr.name[0] < '0' || len(pr.name) > 40 || isDistroProduct(ln) {
			continue
		}
		name := pr.name
		if strings.HasPrefix(ln, "gecko ") {
			name = name[6:] // "Gecko Kazehakase/0.5.4"
		}
		s.agName, s.agClass, s.agVersion = name, "Browser", cleanVersion(pr.version)
		if mb, ok := p.product("Mobile"); ok && mb.version != "" && i > 0 && p.products[i-1].lword == "mobile" {
			// "Version/18.6 Mobile/15E148 Snapchat/13.60.1.0": an iPad
			// app in the web view, sending the desktop platform.
			s.agClass = "Mobile App"
		}
		return true
	}
	return false
}

// isDistroProduct reports a Linux distribution's product ("Debian/0.4.3-
// 1ubuntu1", "Ubuntu/10.04"): the package's origin, not the browser.
func isDistroProduct(ln string) bool {
	for _, d := range linuxDistros {
		if ln == d.token {
			return true
		}
	}
	return false
}

// chromeWebview marks the Android system webview, which sends "; wv)" or
// the old "Version/4.0 Chrome/x" pair.
func (s *state) chromeWebview(ch product) {
	p := s.p
	wv := false
	for _, e := range p.entries {
		if p.ltext(e) == "wv" {
			wv = true
		}
	}
	if !wv && s.os.name == "Android" {
		if ver, ok := p.product("Version"); ok && strings.HasPrefix(ver.version, "4.0") {
			wv = true
		}
	}
	if wv {
		s.agName, s.agClass = "Chrome Webview", "Browser Webview"
		s.webview = true
	}
}

// genericAgent names the agent after the first meaningful product when no
// known browser matched: apps and tools put their own name first.
func (s *state) genericAgent() {
	p := s.p
	for i, pr := range p.products {
		lw := pr.lword
		if i == 0 && lw == "mozilla" {
			// "Mozilla/5.0 (compatible; Name/1.0; ...)": the name is the
			// first product-like comment entry.
			for _, e := range p.entries {
				t := p.text(e)
				lt := p.ltext(e)
				if lt == "compatible" || lt == "u" || strings.HasPrefix(lt, "msie") || strings.HasPrefix(lt, "windows") ||
					strings.HasPrefix(lt, "+http") || strings.HasPrefix(lt, "http") {
					continue
				}
				if k := strings.IndexByte(t, '/'); k > 0 && t[k-1] != ':' {
					// (A slash after a colon is a URL's: "URL=http://...".)
					s.agName, s.agClass, s.agVersion = t[:k], "Browser", cleanVersion(t[k+1:])
					return
				}
				break
			}
			continue
		}
		if lw == "dalvik" {
			// The Android runtime's HTTP client: some app we cannot name.
			s.agName, s.agClass, s.agVersion = Unknown, "Browser", Unknown
			return
		}
		if lw == "" || lw == "like" || lw == "gecko" || lw == "khtml" {
			continue
		}
		if strings.HasPrefix(lw, "ddg_") || strings.HasPrefix(lw, "ddg-") {
			// "ddg_android/5.107.0": DuckDuckGo's own browser app.
			s.agName, s.agClass, s.agVersion = "DuckDuckGo", "Browser", cleanVersion(pr.version)
			return
		}
		if s.platformPathApp(pr) {
			return
		}
		if n, v, ok := nameVersionPlatform(pr.name); ok {
			// "Instagram 3.0.4 Android (...)", "BBC News Android
			// 4.7.1.29/107998": the app's version is the number in
			// its name, not a build number after the slash.
			s.agName, s.agVersion, s.agClass = n, v, "Special"
			if s.os.class == "Mobile" && strings.IndexByte(n, ' ') < 0 {
				s.agClass = "Mobile App"
			}
			return
		}
		name := appName(pr.name)
		if name == "" {
			continue
		}
		s.agName, s.agClass = name, "Special"
		if s.os.class == "Mobile" && !s.appUsesLibrary(i) {
			s.agClass = "Mobile App"
		}
		if k := camelWordAt(name, "Android"); i == 0 && k > 0 && k == len(name)-len("Android") {
			// "MastodonAndroid/1.2.2": the Android build of the app.
			s.agName, s.agClass = name[:len(name)-len("Android")], "Mobile App"
		}
		s.agVersion = cleanVersion(pr.version)
		s.appleNetworkApp(i)
		return
	}
	if s.mozilla {
		// Plain "Mozilla/x (...)" with no other browser token is named
		// after Netscape Navigator, the browser that introduced the token.
		s.agName, s.agClass, s.agVersion = "Netscape", "Browser", cleanVersion(p.products[0].version)
	}
}

// appName writes the product name of an application as Yauaa shows it:
// underscores become spaces ("Bitwarden_Mobile") and an all lower case name
// gets capitals ("bol.com" is "Bol.com", "fediverse's stats" is
// "Fediverse's Stats").
func appName(n string) string {
	if strings.IndexByte(n, '_') >= 0 && strings.IndexByte(n, '-') < 0 && !hasShoutedWord(n) {
		n = strings.ReplaceAll(n, "_", " ")
	}
	if strings.Count(n, ".") >= 2 && strings.IndexByte(n, ' ') < 0 {
		if name := packageAppName(n); name != "" {
			return name
		}
		return n
	}
	if n == "" || asciiLower(n) != n {
		return n // mixed case is the maker's spelling
	}
	b := []byte(n)
	for i := range b {
		if i == 0 || b[i-1] == ' ' || b[i-1] == '-' {
			b[i] = upper(b[i])
		}
	}
	return string(b)
}

// packageAppName names an app after its package or bundle identifier, the
// reverse domain name Android and iOS apps are known by: the parts after
// the maker's domain, without the platform words ("android", "ios", "apps")
// and the extension kinds ("ShareExtension", "Widget") ("com.google.
// android.youtube" is "Youtube", "com.google.android.apps.youtube.music"
// is "Youtube Music"). A capitalised iOS bundle part is the maker's product
// and keeps the maker's name in front ("com.google.Maps" is "Google
// Maps"). It returns "" for a name that is not an identifier.
func packageAppName(id string) string {
	parts := strings.Split(id, ".")
	if len(parts) < 3 || len(parts) > 8 {
		return ""
	}
	for _, pt := range parts {
		if pt == "" || !isIdentifier(pt) {
			return ""
		}
	}
	maker := parts[1]
	var words []string
	capitalised := false
	for i, pt := range parts[2:] {
		lp := asciiLower(pt)
		switch lp {
		case "android", "ios", "apps", "app", "mobile", "client", "iphone", "ipad":
			continue
		}
		if i > 0 && (strings.HasSuffix(lp, "extension") || strings.HasSuffix(lp, "widget") || lp == "beta" || lp == "debug") {
			continue
		}
		if i == 0 && pt[0] >= 'A' && pt[0] <= 'Z' {
			capitalised = true
		}
		words = append(words, capitalize(lp))
	}
	if len(words) == 0 || len(words) > 3 {
		return ""
	}
	name := strings.Join(words, " ")
	if capitalised && !strings.EqualFold(words[0], maker) {
		name = capitalize(asciiLower(maker)) + " " + name
	}
	return name
}

// isIdentifier reports a part of a package name: letters, digits and
// underscores, starting with a letter.
func isIdentifier(s string) bool {
	if !isLetter(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if c := s[i]; !isLetter(c) && (c < '0' || c > '9') && c != '_' {
			return false
		}
	}
	return true
}

// hasShoutedWord reports a word of two or more capitals ("NCSA_Mosaic"),
// which marks an underscore as part of the name.
func hasShoutedWord(n string) bool {
	run := 0
	for i := 0; i < len(n); i++ {
		if n[i] >= 'A' && n[i] <= 'Z' {
			run++
			if run >= 2 {
				return true
			}
		} else {
			run = 0
		}
	}
	return false
}

// markedBrowser recognises the browsers built on Internet Explorer,
// Chromium or WebKit that mark themselves with a code or a comment rather
// than a product of their own: Ecosia's comment, Xiaomi's
// "XiaoMi/MiuiBrowser/10.1.1", Qihoo's "QIHU 360EE" (360 Safe Browser, the
// edition after the name) and Sogou's "SE 2.X MetaSr 1.0" (Sogou Explorer
// 2.X).
func (s *state) markedBrowser() bool {
	p := s.p
	word := func(i int) string {
		j := i
		for j < len(p.ua) && !isSpace(p.ua[j]) && p.ua[j] != ';' && p.ua[j] != ')' && p.ua[j] != '/' {
			j++
		}
		return p.ua[i:j]
	}
	if p.has(kwEcosiaSpace) {
		// "(Ecosia android@111.0.5563.58)", "(Ecosia ios@3.1.3.731)":
		// Ecosia's browser names itself, platform and version in a
		// comment of its own.
		for _, e := range p.entries {
			if lt := p.ltext(e); strings.HasPrefix(lt, "ecosia ") {
				if k := strings.IndexByte(lt, '@'); k > 0 && isVersionLike(lt[k+1:]) {
					s.agName, s.agClass, s.agVersion = "Ecosia", "Browser", cleanVersion(p.text(e)[k+1:])
					return true
				}
			}
		}
	}
	if i := p.index(kwXiaomiMiui); i >= 0 {
		// "XiaoMi/MiuiBrowser/10.1.1": Xiaomi's own browser.
		j := i + len("xiaomi/miuibrowser/")
		k := j
		for k < len(p.ua) && (p.ua[k] == '.' || p.ua[k] >= '0' && p.ua[k] <= '9') {
			k++
		}
		if k > j {
			s.agName, s.agClass, s.agVersion = "Mi Browser", "Browser", p.ua[j:k]
			return true
		}
	}
	if i := p.index(kwQihu); i >= 0 {
		if v := word(i + len("qihu ")); v != "" {
			s.agName, s.agClass, s.agVersion = "Qihoo 360 Safe Browser", "Browser", v
			return true
		}
	}
	if i := p.index(kwMetaSr); i >= 4 && p.low[i-1] == ' ' {
		// "SE 2.X MetaSr": the release sits between "SE " and MetaSr.
		if k := strings.LastIndex(p.low[:i-1], "se "); k >= 0 && (k == 0 || !isLetter(p.low[k-1])) {
			if v := word(k + 3); v != "" {
				s.agName, s.agClass, s.agVersion = "Sogou Explorer", "Browser", v
				return true
			}
		}
	}
	return false
}

// namedBrowser recognises the many browsers that call themselves
// "<Something>Browser/1.2" ("HiBrowser", "LG Browser", "PicoBrowser").
// The big ones that also send a Chrome token are in browserTokens.
func (s *state) namedBrowser() bool {
	for _, pr := range s.p.products {
		ln := pr.lname
		if !strings.HasSuffix(ln, "browser") || ln == "browser" || !isVersionLike(pr.version) {
			continue
		}
		if pr.lword == "mqqbrowser" {
			// "Mobile MQQBrowser/6.2": the QQ browser or its web view
			// inside WeChat and QQ, which the browser tokens name.
			return false
		}
		switch ln {
		case "samsungbrowser", "yabrowser", "ucbrowser", "qqbrowser", "mqqbrowser", "huaweibrowser", "miuibrowser",
			"baidu.sogo.uc.ucbrowser", "mxbrowser", "yasearchbrowser", "qwantbrowser":
			return false
		}
		name := pr.name
		if k := strings.LastIndexByte(name, '.'); k >= 0 {
			name = name[k+1:]
		}
		if strings.IndexByte(name, '_') > 0 && !hasUpper(name) {
			name = appName(name) // "coc_coc_browser" is "Coc Coc Browser"
		}
		s.agName, s.agClass, s.agVersion = name, "Browser", cleanVersion(pr.version)
		return true
	}
	return false
}

// detectDevice derives the device from the operating system and the model
// named in the comment.
func (s *state) detectDevice() {
	p := s.p
	s.devCPU = s.os.cpu
	if s.os.name == "" {
		s.systemFromEntries()
	}
	if s.os.name == "Linux" {
		// Opera's TV browser (OMI) disguises Android as "Andr0id 7.0".
		if v, ok := p.entryVersion("andr0id "); ok && isVersionLike(v) {
			s.os = osInfo{name: "Android", version: v, class: "Mobile", cpu: s.os.cpu}
		}
	}
	switch s.os.name {
	case "iOS":
		s.devBrand = "Apple"
		switch {
		case p.has(kwAppleTV) || p.has(kwAppleTV2):
			// The Apple TV runs tvOS, a variant of iOS with the same
			// version numbers.
			s.devClass, s.devName = "Set-top box", "Apple TV"
			s.os.name = "tvOS"
		case p.has(kwIPad):
			s.devClass, s.devName = "Tablet", "Apple iPad"
		case p.has(kwIPodTouch):
			s.devClass, s.devName = "Phone", "Apple iPod Touch"
		case p.has(kwIPod):
			s.devClass, s.devName = "Phone", "Apple iPod"
		case p.has(kwIPhone):
			s.devClass, s.devName = "Phone", "Apple iPhone"
		default:
			s.devClass, s.devName = "Mobile", "Apple iOS Device"
		}
		if pr, ok := p.product("Mobile"); ok && pr.version != "" {
			s.devFirmware = pr.version
		}
	case "Mac OS":
		s.devClass, s.devBrand, s.devName = "Desktop", "Apple", "Apple Macintosh"
		for _, e := range p.entries {
			if strings.HasPrefix(p.ltext(e), "mac_powerpc") {
				// Internet Explorer for Mac and Opera name the classic
				// Mac OS (before OS X) by its processor only; Yauaa
				// keeps this even when "Mac OS X" follows.
				s.os.version = "before 10"
				break
			}
		}
	case "Windows NT", "Windows 9x", "Windows", "Windows 3.x":
		s.devClass, s.devBrand, s.devName = "Desktop", Unknown, "Desktop"
		if p.has(kwARMSemi) || p.has(kwTabletPC) {
			s.devClass = "Tablet"
		}
		if p.has(kwTabletPC) && !p.has(kwTouch) {
			// "Tablet PC 2.0": the pen input of a Windows tablet.
			s.devClass, s.devName = "Tablet", "Tablet PC"
		}
		if s.os.name == "Windows NT" && p.has(kwWPDesktop) {
			s.wpDesktop()
		} else {
			s.windowsOEMDevice()
		}
		if p.has(kwXbox) {
			s.devClass, s.devBrand, s.devName = "Game Console", "Microsoft", "Microsoft Xbox"
			s.os.class = "Game Console"
		}
	case "Chrome OS":
		s.devClass, s.devBrand, s.devName = "Desktop", Unknown, "Chromebook"
	case "Linux", "Ubuntu", "Kubuntu", "Xubuntu", "Lubuntu", "Linux Mint", "Fedora", "Debian", "Gentoo Linux", "Mageia",
		"SUSE", "CentOS", "Red Hat", "Arch Linux", "Mandriva", "Slackware", "Manjaro":
		s.devClass, s.devBrand, s.devName = "Desktop", Unknown, "Linux Desktop"
		s.linuxDevice()
	case "Ubuntu Touch":
		s.devClass, s.devBrand, s.devName = "Phone", Unknown, "Linux Mobile"
		if s.tablet {
			s.devClass = "Tablet"
		}
	case "Raspbian":
		// The Raspberry Pi foundation's own distribution.
		s.devClass, s.devBrand, s.devName = "Desktop", "Raspberry", "Raspberry PI"
	case "FreeBSD", "OpenBSD", "NetBSD", "DragonFly BSD", "SunOS", "Solaris", "IRIX", "AIX", "HP-UX", "BeOS/Haiku", "RISC OS", "OS/2",
		"MorphOS", "AmigaOS", "UNIX BSD/SYSV", "illumOS":
		s.devClass, s.devBrand, s.devName = "Desktop", Unknown, "Desktop"
		if d, ok := unixDesktops[s.os.name]; ok {
			s.devName = d.name
			if d.brand != "" {
				s.devBrand = d.brand
			}
		}
	case "Windows Phone", "Windows Mobile":
		s.devClass, s.devBrand, s.devName = "Phone", Unknown, "Generic Windows Phone"
		s.windowsPhoneModel()
		if s.devBrand == Unknown {
			s.windowsPhoneVendor()
		}
	case "Windows CE":
		s.devClass, s.devBrand, s.devName = "Mobile", Unknown, "Mobile"
	case "Android":
		s.androidDevice()
		if s.devBrand == "Google" && strings.HasPrefix(s.devName, "Google Glass") {
			s.devClass = "Augmented Reality"
			// "(...; Glass 1 Build/IMM76L; XE7)": Google Glass names its
			// own firmware release ("XE" and a number) next to Android's.
			for _, e := range p.entries {
				if lt := p.ltext(e); len(lt) > 2 && lt[0] == 'x' && lt[1] == 'e' && allDigits(lt[2:]) {
					s.os.name, s.os.version, s.os.class = "Glass OS", lt[2:], "Augmented Reality"
					break
				}
			}
		}
	case "Fuchsia":
		s.devClass, s.devBrand, s.devName = "Mobile", Unknown, "Fuchsia Device"
	case "BlackBerry":
		s.devClass, s.devBrand, s.devName = "Phone", "BlackBerry", "BlackBerry 10"
	case "RIM OS":
		// The model ("BlackBerry 9900") is read by deviceFromTokens.
		s.devClass = "Phone"
	case "RIM Tablet OS":
		s.devClass, s.devBrand, s.devName = "Tablet", "BlackBerry", "BlackBerry PlayBook"
	case "HarmonyOS", "Sailfish":
		if p.has(kwAndroid) {
			// These systems also announce Android, in its layout, with
			// the model where Android puts it.
			s.androidDevice()
			break
		}
		s.devClass = "Phone"
		if s.tablet {
			s.devClass = "Tablet"
		}
	case "WebOS", "HP WebOS":
		// Palm's and then HP's system: the model is the product after
		// Safari ("Safari/525.27.1 Pre/1.0", "TouchPad/1.0").
		s.devClass, s.devBrand = "Phone", "Palm"
		if s.os.name == "HP WebOS" {
			s.devBrand = "HP"
		}
		if strings.Contains(p.low, "touchpad") || strings.Contains(p.low, "hp-tablet") {
			s.devClass = "Tablet"
		}
		if n := len(p.products); n > 1 && strings.EqualFold(p.products[n-2].lword, "safari") && isVersionLike(p.products[n-1].version) &&
			p.products[n-1].name != "" && isLetter(p.products[n-1].name[0]) {
			s.devName = s.devBrand + " " + normalizeName(p.products[n-1].name)
		}
	case "PalmOS":
		s.palmPDA()
	case "tvOS":
		s.devClass, s.devBrand, s.devName = "Set-top box", "Apple", "Apple TV"
	case "PICO OS":
		s.devClass, s.devBrand, s.devName = "Virtual Reality", "Pico", "Pico"
		for _, e := range p.entries {
			if lt := p.ltext(e); strings.HasPrefix(lt, "pico ") {
				if k := picoOSAt(lt); k > 5 {
					s.devName = "Pico " + normalizeName(p.text(e)[5:k])
				}
				break
			}
		}
	case "Roku OS":
		s.devClass, s.devBrand, s.devName = "Set-top box", "Roku", "Roku"
		if strings.HasPrefix(s.os.version, "DVP") {
			s.devName = "Roku Digital Video"
		}
	case "Maemo":
		// Maemo 5, with Firefox for mobile, ran on Nokia's N900.
		s.devClass, s.devBrand, s.devName = "Phone", "Nokia", "Nokia N900"
	case "KaiOS", "Tizen", "SymbianOS", "Symbian", "Bada", "Firefox OS", "OpenHarmony", "MeeGo":
		s.devClass = "Phone"
		if s.tablet {
			s.devClass = "Tablet"
		}
	case "Nintendo":
		s.devClass, s.devBrand, s.devName = "Game Console", "Nintendo", "Nintendo"
		s.gameConsole()
	case "CellOS":
		s.devClass, s.devBrand, s.devName = "Game Console", "Sony", "Sony PlayStation"
		s.gameConsole()
	default:
		if s.os.linux {
			s.devClass, s.devBrand, s.devName = "Desktop", Unknown, "Linux Desktop"
		}
	}
	if s.os.name == "Linux" && !p.has(kwOculus) && !p.has(kwVRSafari) {
		if _, ok := p.product("SamsungBrowser"); ok {
			// Samsung Internet in its desktop mode, which only its tablet
			// version offers, sends a desktop Linux platform.
			s.devClass, s.devBrand, s.devName = "Tablet", "Samsung", "Samsung Tablet"
			s.os = osInfo{name: "Android", version: Unknown, class: "Mobile", cpu: s.os.cpu}
		}
	}
	s.eReader()
	s.wearable()
	if s.os.name == "" {
		s.homeDevice()
		if s.devClass == "" {
			s.gameConsole()
		}
		s.appleProduct()
	}
	s.deviceFamilies()
	if s.devClass == "Desktop" || s.devClass == "" {
		_, silk := p.product("Silk")
		if !silk {
			_, silk = p.entryVersion("silk/")
		}
		if silk {
			// Amazon's Silk browser runs only on Fire tablets and TVs; in
			// its desktop mode it sends a Linux or Mac desktop platform.
			s.devClass, s.devBrand, s.devName = "Tablet", "Amazon", "Amazon Kindle Fire"
			s.os = osInfo{name: "FireOS", version: Unknown, class: "Mobile", cpu: s.os.cpu}
		}
	}
	if s.os.name == "" {
		switch {
		case s.tablet && s.mozilla:
			s.devClass = "Tablet"
			s.os = osInfo{name: "Firefox OS", version: firefoxOSVersion(s.engVersion), class: "Mobile"}
		case s.mobile && s.mozilla && s.engName == "Gecko":
			s.devClass = "Phone"
			s.os = osInfo{name: "Firefox OS", version: firefoxOSVersion(s.engVersion), class: "Mobile"}
		}
	}
	s.tvDevice()
	s.starboardDevice()
	if s.devClass == "" {
		s.featurePhone()
	}
	switch s.devClass {
	case "", "Phone", "Mobile", "Tablet":
		if (s.devBrand == "" || s.devBrand == Unknown) && s.os.name != "Fuchsia" {
			s.deviceFromTokens()
		}
	}
	if s.os.name == "Tizen" {
		s.tizenDevice()
	}
	if s.os.name == "SymbianOS" && s.devBrand == "Nokia" {
		s.symbianGeneric()
	}
	if s.os.name == "Maemo" && (s.devBrand == "" || s.devBrand == Unknown) && strings.EqualFold(s.os.cpu, "armv7l") {
		// Maemo 5 ran on one ARMv7 device only, Nokia's N900.
		s.devBrand, s.devName = "Nokia", "Nokia N900"
	}
}

// deviceFromTokens finds a "BrandModel" token anywhere in the user agent
// for the phones that do not follow the Android layout: "(BlackBerry;
// U; BlackBerry 9900; nl)", "Series60/3.1 NokiaN95/10.0.018",
// "(Linux; Tizen 2.3; SAMSUNG SM-Z130H)". Only a token that starts with
// the brand's own name counts, so that a model prefix cannot match an
// unrelated word.
func (s *state) deviceFromTokens() {
	p := s.p
	// The first pass wants a brand with a model; only if none is found
	// does a bare brand ("(SAMSUNG; ...)", "OPPO") count.
	for _, needModel := range [2]bool{true, false} {
		try := func(tok string) bool {
			tok = strings.Trim(tok, " ;,")
			if len(tok) < 3 || !startsWithBrand(tok) || hasSuffixFold(tok, "browser") || hasSuffixFold(tok, "toolbar") {
				return false
			}
			b, rest := brandOfModel(tok)
			if b == "" || !hasPrefixFold(tok, b) {
				return false
			}
			rest = strings.Trim(rest, " -_")
			if rest == "" || strings.EqualFold(rest, b) {
				if needModel {
					return false
				}
				s.devBrand = b
				if s.devName == "" || s.devName == Unknown {
					s.devName = b
				}
				return true
			}
			s.devBrand, s.devName = b, b+" "+normalizeName(rest)
			return true
		}
		for _, e := range p.entries {
			t := p.text(e)
			if k := strings.IndexByte(t, '/'); k > 0 {
				// "LYF/F101K/LYF-F101K-000-01-39-130818": the maker, the
				// model and the firmware, each after a slash.
				if b, ok := knownBrand(strings.TrimLeft(t[:k], "$")); ok {
					if m, _, _ := strings.Cut(t[k+1:], "/"); m != "" && strings.IndexByte(t[k+1:], '/') > 0 {
						s.devBrand, s.devName = b, b+" "+m
						return
					}
				}
				t = t[:k]
			}
			if try(t) {
				return
			}
			for w := range strings.FieldsFuncSeq(p.text(e), func(r rune) bool { return r == ' ' || r == '/' }) {
				if try(w) {
					return
				}
			}
		}
		for _, pr := range p.products {
			for w := range strings.FieldsSeq(pr.name) {
				if try(w) {
					return
				}
			}
		}
	}
}

// startsWithBrand reports a token that begins with a brand's own name, a
// cheap test that spares most tokens the full model lookup. It is asked of
// every word of many user agents, so only the brands with the token's
// first letter are compared, without case, byte by byte: brand names are
// ASCII (TestBrandNamesASCII), and for an ASCII name this answers as
// strings.EqualFold does.
func startsWithBrand(tok string) bool {
	if tok == "" {
		return false
	}
	for _, b := range brandsByInitial[lowerASCII(tok[0])] {
		if len(tok) >= len(b) && asciiHasPrefixLower(tok, b) {
			return true
		}
	}
	return false
}

// brandsByInitial lists the distinct brand names of brandPrefixes in lower
// case, by their first byte.
var brandsByInitial = func() (t [256][]string) {
	seen := map[string]bool{}
	for _, bp := range brandPrefixes {
		b := asciiLower(bp.brand)
		if b == "" || seen[b] {
			continue
		}
		seen[b] = true
		t[b[0]] = append(t[b[0]], b)
	}
	return t
}()

func lowerASCII(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// asciiHasPrefixLower reports whether s starts with the lower case prefix,
// ignoring the case of ASCII letters in s.
func asciiHasPrefixLower(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		if lowerASCII(s[i]) != prefix[i] {
			return false
		}
	}
	return true
}

func hasSuffixFold(s, suffix string) bool {
	return len(s) >= len(suffix) && strings.EqualFold(s[len(s)-len(suffix):], suffix)
}

// featurePhone recognises the Java ME and MediaTek MAUI phones and their
// browsers: they announce the MIDP profile or a WAP browser.
func (s *state) featurePhone() {
	p := s.p
	if p.has(kwMIDP) || p.has(kwMAUI) || p.has(kwWAPBrowser) || p.has(kwUPBrowser) || p.has(kwJ2ME) ||
		p.has(kwOperaMini) || p.has(kwSEMCBrowser) || p.has(kwObigo) || p.has(kwTeleca) {
		s.devClass = "Mobile"
		for _, e := range p.entries {
			if p.ltext(e) == "java" {
				// "UCWEB/2.0 (Java; U; MIDP-2.0; Nokia112)": the Java
				// edition of a browser for phones.
				s.devClass = "Phone"
				if s.os.class == "" || s.os.class == Unknown {
					s.os.class = "Mobile"
				}
				break
			}
		}
		if s.devBrand == "" || s.devBrand == Unknown {
			for _, pr := range p.products {
				name := strings.TrimPrefix(pr.name, "Mozilla ")
				if k := strings.LastIndexByte(name, ' '); k > 0 && allLetters(name[k+1:]) && pr.version != "" {
					// "SAMSUNG GT-S3332 Opera/9.80": the model, then the
					// browser the version belongs to.
					name = name[:k]
				}
				if b, rest := brandOfModel(name); b != "" {
					s.devBrand = b
					s.devName = b
					if rest != "" {
						s.devName = b + " " + normalizeName(rest)
					}
					break
				}
			}
		}
	}
}

// windowsPhoneModel reads "...; NOKIA; Lumia 930)" style vendor/model pairs.
func (s *state) windowsPhoneModel() {
	p := s.p
	for i, e := range p.entries {
		lt := p.ltext(e)
		if strings.HasPrefix(lt, "iemobile") && i+2 < len(p.entries) {
			// Windows Phone 8 puts its processor and input ("ARM;
			// Touch;") between the browser and the maker.
			for i+3 < len(p.entries) && (p.ltext(p.entries[i+1]) == "arm" || p.ltext(p.entries[i+1]) == "touch") {
				i++
			}
			vendor := strings.TrimSpace(p.text(p.entries[i+1]))
			model := strings.TrimSpace(p.text(p.entries[i+2]))
			if vendor == "" || strings.ContainsAny(vendor, "/:") {
				return
			}
			brand, _ := brandOfModel(vendor)
			if brand == "" {
				brand = normalizeName(vendor)
			}
			s.devBrand = brand
			rest := model
			if hasPrefixFold(rest, brand) {
				rest = strings.TrimLeft(rest[len(brand):], " _-")
			}
			if rest == "" || strings.EqualFold(model, vendor) {
				s.devName = brand + " Windows Phone"
				return
			}
			s.devName = brand + " " + normalizeName(rest)
			return
		}
	}
}

// androidDevice finds the model in "(Linux; Android 10; SM-G960F Build/...)".
func (s *state) androidDevice() {
	p := s.p
	model, build := "", ""
	androidBlock := -2   // the comment section that names Android
	bareAndroid := false // that entry is "Android" without a version
	for _, e := range p.entries {
		lt := p.ltext(e)
		t := p.text(e)
		if strings.HasPrefix(lt, "android") || strings.HasPrefix(lt, "andr0id ") || strings.HasPrefix(lt, "adr ") {
			// The last section that names Android wins: an app may put
			// its own "(Android 5.0.2)" before the webview's comment.
			androidBlock = e.block
			bareAndroid = lt == "android"
			continue
		}
		// The model sits in the same comment section as the Android
		// version: "(Linux; Android 9) AppleWebKit/537.36 (KHTML, like
		// Gecko)" names no model, and "KHTML" is not one.
		if androidBlock == -2 || e.block != androidBlock {
			continue
		}
		if k := strings.Index(lt, "build/"); k >= 0 {
			m := strings.TrimSpace(t[:k])
			if m != "" {
				model = m
				build = lt[k+len("build/"):]
				break
			}
			continue
		}
		if isAndroidNoise(lt) {
			continue
		}
		model = t
		break
	}
	if model == "" {
		model = s.modelElsewhere()
	}
	if k := strings.Index(p.lowerOf(model), " miui/"); k > 0 {
		model = model[:k]
	}
	model = strings.TrimSpace(strings.TrimPrefix(model, "Model "))
	switch {
	case s.tablet || p.has(kwOperaTablet):
		s.devClass = "Tablet"
	case s.mobile:
		s.devClass = "Phone"
	case s.mozilla && bareAndroid:
		// "(Android; Linux armv7l; rv:10.0.3)": the old Firefox and AIR
		// runtimes that say neither Mobile nor Tablet nor the version.
		s.devClass = "Mobile"
	case s.mozilla:
		s.devClass = "Tablet"
	default:
		s.devClass = "Mobile"
	}
	if model == "" || strings.EqualFold(model, "k") || strings.EqualFold(model, "mobile") {
		s.devBrand, s.devName = Unknown, "Android Mobile"
		if model == "K" {
			s.reducedAndroid()
		}
		return
	}
	brand, rest := brandOfModel(model)
	if brand == "" && strings.HasPrefix(build, "10.") && len(build) > 5 && build[3] >= '0' && build[3] <= '3' && build[4] == '.' {
		// BlackBerry 10's Android runtime reports the BlackBerry 10
		// release as the build ("Leap Build/10.3.2.231").
		brand, rest = "BlackBerry", model
	}
	if brand == "" && (strings.HasPrefix(build, "huawei") || strings.HasPrefix(build, "honor") || p.has(kwHarmonyOS)) {
		// Huawei and Honor name their builds after the maker and model
		// ("Build/HUAWEIMAR-L21A") even when the model field is odd.
		brand, rest = "Huawei", model
	}
	if brand == "" {
		// Unknown maker: Yauaa shows the first word as the brand when the
		// model is "Maker Model".
		if k := strings.IndexByte(model, ' '); k > 0 && !isVersionLike(model) {
			brand = normalizeName(model[:k])
			rest = model[k+1:]
		} else if k := strings.IndexAny(model, "-_"); k > 0 && k+1 < len(model) && isLetter(model[0]) && allAlnum(model[:k]) {
			// "YC-83P", "Tesla_SP9_2": the same with the maker and the
			// model joined by a dash or an underscore.
			brand = normalizeName(model[:k])
			rest = strings.ReplaceAll(model[k+1:], "-", " ")
		} else {
			s.devBrand, s.devName = Unknown, normalizeName(model)
			return
		}
	}
	s.devBrand = brand
	if rest == "" {
		s.devName = brand
		return
	}
	s.devName = brand + " " + normalizeName(rest)
	if brand == "Amazon" {
		s.amazonDevice(model)
	}
	if brand == "Huawei" && androidBlock >= 0 {
		for _, e := range p.entries {
			if e.block == androidBlock && p.ltext(e) == "harmonyos" {
				// Huawei's HarmonyOS runs Android apps and says
				// "Android 10" for them; its own version is not given.
				s.os.name, s.os.version = "HarmonyOS", Unknown
				break
			}
		}
	}
}

// modelElsewhere looks for a device model outside the usual place: in
// another comment entry ("(SM-G950F; Android 9)") or as a "Brand/Model"
// product ("Appie/8.11.1 Samsung/SM-A505FN Android/11").
func (s *state) modelElsewhere() string {
	p := s.p
	bare := "" // a brand without a model, used only if no model is found
	for i, e := range p.entries {
		lt := p.ltext(e)
		if isAndroidNoise(lt) || strings.HasPrefix(lt, "android") || strings.HasPrefix(lt, "linux") {
			continue
		}
		t := strings.TrimPrefix(p.text(e), "Model ")
		if k := strings.IndexByte(t, ':'); k > 0 && strings.Contains(lt, " android:") {
			// "LenovoTB-X606X_EEA:mt8768 Android:29": the model and its
			// chipset, then the API level. Exynos chipsets are Samsung's.
			if strings.HasPrefix(lt[k+1:], "exynos") {
				return "Samsung " + t[:k]
			}
			t = t[:k]
		}
		if strings.HasPrefix(lt, "exynos") && isModelNumber(strings.ToUpper(t)) {
			return "Samsung " + t
		}
		if b, rest := brandOfModel(t); b != "" {
			if rest != "" && !strings.EqualFold(rest, b) {
				return t
			}
			// Apps list "...; samsung; SM-T310; ..." (Instagram's
			// "Android (19/4.4.2; 200dpi; 800x1280; samsung; SM-T310")
			// with the maker and the model in separate entries.
			if i+1 < len(p.entries) && p.entries[i+1].block == e.block {
				next := p.text(p.entries[i+1])
				if nb, _ := brandOfModel(next); nb == b || nb == "" && isModelNumber(next) {
					return b + " " + next
				}
			}
			if bare == "" {
				bare = t
			}
		}
	}
	if len(p.products) > 1 && len(p.products[0].version) > 1 && p.products[0].version[0] == 'V' && isDigits(p.products[0].version[1:]) &&
		p.products[1].name == "Linux" {
		// The browsers of MediaTek's reference phones start with the
		// model and its hardware revision: "Athens15_TD/V2 Linux/3.0.13
		// Android/4.0 Release/02.15.2012 Browser/AppleWebKit534.30".
		return p.products[0].name
	}
	for _, pr := range p.products {
		if b, ok := knownBrand(pr.name); ok && pr.version != "" && !isVersionLike(pr.version) {
			return b + " " + pr.version
		}
		name := pr.name
		if k := strings.LastIndexByte(name, ' '); k > 0 && pr.lword == "android" {
			// "Appie/8.32.1 Doro 8040 Android/11": the model, then the
			// system the version belongs to.
			name = name[:k]
		}
		if b, _ := brandOfModel(name); b != "" && strings.ContainsAny(name, "-0123456789") {
			return name
		}
		if strings.HasPrefix(pr.lname, "android-") {
			if b, _ := brandOfModel(pr.name[8:]); b != "" {
				return pr.name[8:]
			}
		}
	}
	return bare
}

// anonymized marks the user agents that privacy tools have rewritten:
// they say so ("anonymized by Abelssoft", "Anonymisiert durch AlMiSoft"),
// or they send an Opera 9 release that never existed: from version 10 on
// (and in the 9.70 previews) Opera froze its token at "Opera/9.80", so a
// later "Opera/9.99" was made up. Such a string says nothing reliable about the
// device.
func (s *state) anonymized() {
	p := s.p
	if p.has(kwAnonymizedBy) || p.has(kwAnonymisedBy) || p.has(kwAnonymisiertDurch) || p.has(kwAnonymizedByTight) ||
		p.has(kwAnonymisiertDurchTight) {
		s.devClass = "Anonymized"
		return
	}
	if p.has(kwWebLight) {
		// Google Web Light fetches and slims pages for slow connections
		// on the user's behalf; the device it announces is a fixed one.
		s.devClass, s.devBrand, s.devName = "Anonymized", "Google", "Google Weblight"
		return
	}
	if p.has(kwWirelessTranscoder) {
		// Its predecessor for mobile phones, the Google Wireless
		// Transcoder, does not name the device at all.
		s.devClass, s.devBrand, s.devName = "Anonymized", "Google", "Google Wireless Transcoder"
		return
	}
	if zeroedComment(p) {
		s.devClass = "Anonymized"
		return
	}
	if op, ok := p.product("Opera"); ok && strings.HasPrefix(op.version, "9.") && len(op.version) == 4 {
		if minor := atoiPrefix(op.version[2:]); minor > 80 {
			s.devClass = "Anonymized"
		}
	}
}

// frozenOSVersion applies the "frozen" platform versions of modern
// browsers: Chrome, Edge and Firefox stopped updating the OS version in the
// user agent (Windows 11 still says "Windows NT 10.0", every macOS since
// Big Sur says "10_15_7" or "10.15"), so the real version is at least that.
func (s *state) frozenOSVersion() {
	if s.agClass == "Robot" || s.reducedPlatform() {
		// Headless browsers report the system they run on unchanged; a
		// reduced platform names no release to bound.
		return
	}
	major := atoiPrefix(s.agVersion)
	modern := false
	switch s.agName {
	case "SamsungBrowser", "Edge":
		// Samsung Internet numbers its own releases, and a privacy tool
		// may dress up Edge's; the Chromium under them tells their age.
		if ch, ok := s.p.product("Chrome"); ok {
			modern = atoiPrefix(ch.version) >= 90
		} else {
			modern = major >= 90
		}
	case "Chrome", "Chromium", "Firefox":
		modern = major >= 90
	case "Safari":
		modern = major >= 14
	default:
		// A browser on Apple's WebKit that keeps Safari's "Version/16.5"
		// token ("Version/16.5 Safari/605.1.15 Ddg/17.5") has Safari's
		// frozen macOS platform too.
		if s.os.name != "Mac OS" || s.engName != "AppleWebKit" {
			break
		}
		if ver, ok := s.p.product("Version"); ok {
			_, safari := s.p.product("Safari")
			modern = safari && atoiPrefix(ver.version) >= 14
		}
	}
	if !modern {
		return
	}
	if s.agName == "Safari" && s.os.name == "iOS" && strings.HasPrefix(s.os.version, "18.") {
		if ver, ok := s.p.product("Version"); ok && atoiPrefix(ver.version) >= 26 {
			// From iOS 26 on, Safari keeps "iPhone OS 18_6" in the
			// platform and tells the real release only as its own
			// version, which now follows the system's numbering.
			s.os.version = s.agVersion
			return
		}
	}
	switch {
	case s.os.name == "Windows NT" && s.os.version == "10.0":
		s.os.version = ">=10"
	case s.os.name == "Mac OS" && (s.os.version == "10.15.7" || s.os.version == "10.15" && s.agName == "Firefox"):
		s.os.version = ">=10.15.7"
	}
}

// firefoxOSReleases maps the Gecko versions that Firefox OS releases
// shipped with to those releases (Mozilla's documentation of the Firefox
// OS user agent); other Gecko versions are shown as they are.
var firefoxOSReleases = map[string]string{
	"18.0": "1.0.1", "18.1": "1.1", "26.0": "1.2", "28.0": "1.3", "30.0": "1.4", "32.0": "2.0", "34.0": "2.1",
	"37.0": "2.2", "44.0": "2.5",
}

func firefoxOSVersion(gecko string) string {
	if r, ok := firefoxOSReleases[gecko]; ok {
		return r
	}
	return gecko
}

// desktopMode restores the handheld class of Minimo's Linux platform and
// the system of Samsung Internet's "desktop site" mode, which replaces the
// Android platform with a Linux desktop one: Samsung Internet runs on
// Android (and lately Windows, which it names).
// Other browsers that carry its token on a headset ("OculusBrowser/22.2
// SamsungBrowser/4.0") keep their platform.
func (s *state) desktopMode() {
	p := s.p
	if s.os.name == "Linux" && p.has(kwMinimo) {
		if _, ok := p.product("Minimo"); ok {
			// Minimo, Mozilla's browser for handhelds, ran on Linux PDAs.
			s.os.class, s.devClass = "Mobile", "Mobile"
			return
		}
	}
	if s.os.name != "Linux" || !p.has(kwSamsungBrowser) || p.has(kwOculusBrowser) {
		return
	}
	if _, ok := p.product("SamsungBrowser"); ok {
		s.os = osInfo{name: "Android", version: Unknown, class: "Mobile", cpu: s.os.cpu}
	}
}

// reducedPlatform applies Chrome's "reduced" user agent: from release
// 101 on, Chrome sends its version as "<major>.0.0.0" together with a
// fixed platform, "Windows NT 10.0; Win64; x64" on Windows and "Android
// 10; K" on Android, whatever the real system is; only the client hints
// tell it. Such a platform says nothing about the system version, nor does
// an Android version next to a hidden model ("K", "Unspecified Device"). Edge
// and Samsung Internet keep their own rule (frozenOSVersion). A reduced
// version older than release 90, from before the reduction was announced,
// is not a real browser, and its platform is not believed at all. It
// reports whether it decided the version.
func (s *state) reducedPlatform() bool {
	p := s.p
	if s.os.name != "Android" && (s.os.name != "Windows NT" || !p.has(kwWindowsNT100)) {
		return false
	}
	ch, ok := p.product("Chrome")
	if !ok || !strings.HasSuffix(ch.version, ".0.0.0") {
		return false
	}
	switch {
	case s.os.name == "Windows NT" && s.os.version == "10.0" && p.has(kwWindowsNT100) && s.agName != "Edge" && s.agName != "SamsungBrowser":
		s.os.version = Unknown
		if atoiPrefix(ch.version) < 90 {
			s.os.name = Unknown
		}
		return true
	case s.os.name == "Android":
		for i, e := range p.entries {
			if i+1 < len(p.entries) && strings.HasPrefix(p.ltext(e), "android ") {
				// "K" and "Unspecified Device" stand for the hidden model.
				if m := p.ltext(p.entries[i+1]); m == "k" || m == "unspecified device" {
					s.os.version = Unknown
					return true
				}
			}
		}
	}
	return false
}

// isAndroidNoise reports comment entries that sit between the Android
// version and the model but are not the model: "U", locales, "wv".
func isAndroidNoise(lt string) bool {
	switch lt {
	case "u", "i", "n", "wv", "mobile", "tablet", "linux", "tv", "", "unspecified device":
		return true
	}
	// Firefox's "rv:68.0" engine revision, the CPU of "Linux armv7l" and
	// the operating system entries of browsers that run on Android
	// without being Android ("Sailfish 3.0") are never the model.
	if strings.HasPrefix(lt, "sdk ") && isDigits(lt[4:]) {
		return true // "SDK 31", the API level some apps add
	}
	if strings.HasPrefix(lt, "rv:") || strings.HasPrefix(lt, "linux ") || strings.HasPrefix(lt, "sailfish") ||
		strings.HasPrefix(lt, "opera mini") || strings.HasPrefix(lt, "opera tablet") || strings.HasPrefix(lt, "opera mobi") ||
		strings.HasPrefix(lt, "harmonyos") {
		return true
	}
	if rest, ok := strings.CutPrefix(lt, "sdk "); ok && isDigits(rest) {
		return true // an app's "SDK 31" API level, not a model
	}
	if (len(lt) == 2 || len(lt) == 3 && lt[2] == '-') && lt[0] >= 'a' && lt[0] <= 'z' && lt[1] >= 'a' && lt[1] <= 'z' {
		return true // "nl", and "de-" with the country left out
	}
	if len(lt) >= 5 && len(lt) <= 16 && (lt[2] == '-' || lt[2] == '_') && lt[0] >= 'a' && lt[0] <= 'z' && lt[1] >= 'a' && lt[1] <= 'z' &&
		!strings.ContainsAny(lt, " 0123456789") {
		return true // "en-us", "zh_cn_#hans"
	}
	return false
}

// tvDevice recognises television and set-top box markers.
func (s *state) tvDevice() {
	p := s.p
	if p.has(kwVidaa) || p.has(kwHisense) {
		s.os = osInfo{name: "Vidaa", version: Unknown, class: "Embedded", cpu: s.os.cpu}
		if pr, ok := p.product("VIDAA"); ok {
			s.os.version = orUnknown(leadingVersion(pr.version))
		}
		s.devClass, s.devBrand, s.devName = "TV", "Hisense", "Hisense TV"
		s.vidaaModel()
	}
	// Smart TV platforms list "(...; Brand; SmartTV; Model; ...)".
	for i, e := range p.entries {
		lt := p.ltext(e)
		if lt != "smarttv" && lt != "smart-tv" {
			continue
		}
		if lt == "smart-tv" && (i == 0 || p.entries[i-1].block != e.block || p.ltext(p.entries[i-1]) == "smarthub") &&
			(s.devBrand == "" || s.devBrand == Unknown) {
			// Samsung's televisions open their comment with "SMART-TV"
			// ("(SMART-TV; Linux; Tizen 2.2)", "(SMART-TV; X11; Linux
			// i686)"); other makers name themselves first.
			s.devClass, s.devBrand, s.devName = "TV", "Samsung", "Samsung Smart TV"
		}
		if i > 0 && p.entries[i-1].block == e.block {
			// "SmartHub" is Samsung's television portal, not a maker.
			if b := p.text(p.entries[i-1]); b != "" && !strings.ContainsAny(b, "/.0123456789") && len(b) < 20 &&
				!strings.EqualFold(b, "smarthub") {
				s.devBrand = normalizeName(b)
				s.devClass = "TV"
				s.devName = s.devBrand + " TV"
			}
		}
		for j := i + 1; j < len(p.entries) && p.entries[j].block == e.block; j++ {
			m := p.text(p.entries[j])
			if isModelNumber(strings.ReplaceAll(m, "_", "-")) && s.devBrand != "" && s.devBrand != Unknown {
				s.devName = s.devBrand + " " + normalizeName(m)
				break
			}
		}
		break
	}
	// NetTV is the operating system of Philips televisions, announced in
	// the comment ("(CE-HTML/1.0 NETTV/3.3.0)"). Sets of other makers that
	// run a NetTV-compatible portal add it as a product after their own
	// system ("Zeasn/2.0 NETTV/4.5.0 Mozilla/5.0 (Linux ...)"), which
	// stays their operating system.
	if i := p.index(kwNetTV); i >= 0 && (i == 0 || !isLetter(p.low[i-1])) {
		if p.inComment(i) {
			v := strings.TrimLeft(p.ua[i+len("nettv"):], "/ ")
			s.os = osInfo{name: "NETTV", version: orUnknown(leadingVersion(v)), class: "Embedded", cpu: s.os.cpu}
		} else if s.os.name == "Linux" {
			s.os.class = "Embedded"
		}
		s.devClass, s.devName = "TV", "Nettv Device"
		if p.has(kwPhilips) {
			s.devBrand, s.devName = "Philips", "Philips Unspecified TV"
		}
	}
	if !s.hbbTVDevice() && s.devClass == "TV" {
		s.ceDevice()
	}
	if s.setTopBox() {
		return
	}
	switch {
	case p.has(kwCrKey):
		// Chromecast's "CrKey" (Chrome key) product or comment. Its
		// system is whatever the comment says (a desktop Linux, or
		// nothing), so the class of the system is left as it is.
		s.devClass, s.devBrand, s.devName = "Set-top box", "Google", "Google Chromecast"
		return
	case p.has(kwGoogleTV) && s.os.name != "Fuchsia":
		s.googleTV()
		return
	case p.has(kwWeb0S) || p.has(kwNetCast):
		// LG's television systems. webOS sets name their model in the
		// "(LGE, 49UJ634V-ZD, wired)" trailer, except the first
		// generation, which puts "WEBOS1" there.
		s.devClass, s.devBrand, s.devName = "TV", "LG", "LG SmartTv"
		if s.ceDevice() && (s.devBrand != "LG" || strings.HasPrefix(asciiLower(s.devName), "lg webos") ||
			strings.HasSuffix(s.devName, "Unspecified TV")) {
			s.devBrand, s.devName = "LG", "LG SmartTv"
		}
		if s.devName == "LG SmartTv" {
			// "LG Browser/5.00.00(+mouse+3D; LGE; 42LM6700-UA; 04.02.00;
			// ...)": the maker, then the model.
			for i, e := range p.entries {
				if p.ltext(e) == "lge" && i+1 < len(p.entries) && p.entries[i+1].block == e.block {
					if m := p.text(p.entries[i+1]); isModelNumber(m) && !strings.HasPrefix(m, "WEBOS") {
						s.devName = "LG " + m
					}
					break
				}
			}
		}
		s.webOSVersion()
	}
	switch {
	case p.has(kwNetCast) && !p.has(kwWeb0S):
		// The NetCast sets before webOS send a plain desktop Linux
		// platform, which Yauaa keeps as a desktop system.
		s.devClass = "TV"
	case p.has(kwSmartDashTV) || smartTVWord(p) || p.has(kwSmartSpaceTV) || p.has(kwHbbTV) ||
		p.has(kwSemiTVSemi) || p.has(kwOpenTVSemi) || p.has(kwGoogleTV) && s.os.name != "Fuchsia" || p.has(kwViera) || p.has(kwBravia):
		s.devClass = "TV"
		if s.os.class == "" || s.os.name == "Linux" || s.os.name == "Android" || s.os.name == "Tizen" {
			s.os.class = "Embedded"
		}
	}
}

// unixDesktops names the workstations of the Unix-like and other desktop
// systems: the maker of the hardware where the system came with it (Sun,
// SGI, IBM), otherwise the system itself, in Yauaa's spelling.
var unixDesktops = map[string]struct{ brand, name string }{
	"FreeBSD": {"", "FreeBsd Desktop"}, "OpenBSD": {"", "OpenBsd Desktop"}, "NetBSD": {"", "Netbsd Desktop"},
	"DragonFly BSD": {"", "DragonFly BSD Desktop"}, "BeOS/Haiku": {"", "Beos/Haiku Desktop"},
	"RISC OS": {"", "Risc OS Desktop"}, "OS/2": {"", "OS/2 Desktop"}, "MorphOS": {"", "MorphOs Desktop"},
	"AmigaOS": {"Amiga", "Amiga"}, "illumOS": {"", "OpenSolaris Desktop"}, "UNIX BSD/SYSV": {"", "Unix BSD/Sysv Desktop"},
	"SunOS": {"SUN Microsystems", "SUN Microsystems Desktop"}, "Solaris": {"SUN Microsystems", "SUN Microsystems Desktop"},
	"IRIX": {"Silicon Graphics", "Silicon Graphics Desktop"}, "AIX": {"IBM", "IBM Desktop"},
	"HP-UX": {"HP", "HP Desktop"},
}

// hbbTVDevice reads the device of a hybrid broadcast TV. The HbbTV
// specification (ETSI TS 102 796) makes such a set add
// "HbbTV/1.x.y (capabilities; vendor; model; software version; hardware
// version; reserved)" to its user agent, so vendor and model sit at fixed
// places. A set that leaves them empty is an "Unspecified TV".
func (s *state) hbbTVDevice() bool {
	p := s.p
	i := p.index(kwHbbTVSlash)
	if i < 0 {
		return false
	}
	s.devClass = "TV"
	s.devBrand, s.devName = "Unspecified TV", "Unspecified TV"
	j := i + len("hbbtv/")
	for j < len(p.ua) && (p.ua[j] == '.' || p.ua[j] >= '0' && p.ua[j] <= '9') {
		j++
	}
	for j < len(p.ua) && p.ua[j] == ' ' {
		j++
	}
	if j >= len(p.ua) || p.ua[j] != '(' {
		// Loewe's sets of the first HbbTV version name their own system
		// in a separate entry ("HBBTV/1.0; LOH/2.01;").
		if v, ok := p.entryVersion("loh/"); ok {
			s.devBrand, s.devName = "Loewe", "Loewe Unspecified TV"
			s.os = osInfo{name: "LOH", version: orUnknown(leadingVersion(v)), class: "Embedded", cpu: s.os.cpu}
		}
		return true
	}
	end := strings.IndexByte(p.ua[j:], ')')
	if end < 0 {
		end = len(p.ua) - j
	}
	var fields [6]string
	n := 0
	for f := range strings.SplitSeq(p.ua[j+1:j+end], ";") {
		if n == len(fields) {
			break
		}
		fields[n] = strings.TrimSpace(f)
		n++
	}
	vendor, model, software := fields[1], fields[2], fields[3]
	if vendor == "" {
		return true
	}
	s.devBrand = brandSpelling(vendor)
	s.devName = s.devBrand + " Unspecified TV"
	if model != "" {
		s.devName = s.devBrand + " " + normalizeName(model)
	}
	if v, ok := strings.CutPrefix(software, "LOH/"); ok {
		// Loewe's own operating system announces itself here.
		s.os = osInfo{name: "LOH", version: orUnknown(leadingVersion(v)), class: "Embedded", cpu: s.os.cpu}
	} else if s.os.name == "Linux" && s.os.version == Unknown && isVersionLike(software) {
		s.os.version = software
	} else if (s.os.name == "" || s.os.name == Unknown) && software != "" {
		// A set that names no platform runs its maker's own firmware,
		// whose version is the software version of the HbbTV entry.
		s.os = osInfo{name: "Proprietary", version: software, class: "Embedded", cpu: s.os.cpu}
	}
	return true
}

// ceDevice reads the "(Vendor, Model, wired)" or "(Vendor, Model,
// wireless)" trailer that consumer electronics (TVs, players, set-top
// boxes) add to say who made them and how they are connected.
func (s *state) ceDevice() bool {
	p := s.p
	end := strings.LastIndex(p.low, ",wire")
	if end < 0 {
		if end = strings.LastIndex(p.low, ", wire"); end < 0 {
			return false
		}
	}
	start := strings.LastIndexByte(p.low[:end], '(')
	if start < 0 {
		return false
	}
	vendor, model, ok := strings.Cut(p.ua[start+1:end], ",")
	vendor, model = strings.TrimSpace(vendor), strings.TrimSpace(model)
	if !ok || vendor == "" || strings.ContainsAny(vendor, ";()") {
		return false
	}
	s.devBrand = brandSpelling(vendor)
	s.devName = s.devBrand + " Unspecified TV"
	if model != "" {
		s.devName = s.devBrand + " " + normalizeName(model)
	}
	return true
}

// brandSpelling writes a vendor name as Yauaa does: a known brand in its
// usual spelling, a shouted name ("TOSHIBA") capitalised, others as given.
func brandSpelling(vendor string) string {
	if vendor == "LGE" {
		return "LG" // LG Electronics
	}
	if b, ok := knownBrand(vendor); ok {
		return b
	}
	if len(vendor) > 3 && strings.ToUpper(vendor) == vendor {
		return capitalize(strings.ToLower(vendor))
	}
	return vendor
}

// isModelNumber reports a token made of capitals and digits with both,
// the shape of a television or phone model number ("HE55A6500UWTS").
func isModelNumber(m string) bool {
	if len(m) < 5 || len(m) > 24 {
		return false
	}
	letters, digits := 0, 0
	for i := 0; i < len(m); i++ {
		c := m[i]
		switch {
		case c >= 'A' && c <= 'Z':
			letters++
		case c >= '0' && c <= '9':
			digits++
		case c == '-':
		default:
			return false
		}
	}
	return letters > 0 && digits > 0
}

// extras fills informational attributes: e-mail, URL, UUID, language.
func (s *state) extras() {
	p := s.p
	if i := strings.IndexByte(p.ua, '@'); i > 0 {
		st := i
		for st > 0 && isEmailChar(p.ua[st-1]) {
			st--
		}
		en := i + 1
		for en < len(p.ua) && isEmailChar(p.ua[en]) {
			en++
		}
		if st < i && en > i+1 && strings.Contains(p.ua[i:en], ".") {
			s.email = strings.TrimRight(p.ua[st:en], ".")
		}
	}
	if i := p.index(kwHTTPWord); i >= 0 {
		en := i
		for en < len(p.ua) && !isSpace(p.ua[en]) && p.ua[en] != ')' && p.ua[en] != ';' && p.ua[en] != ',' {
			en++
		}
		s.url = p.ua[i:en]
	}
	s.uuid = findUUID(p.ua)
	// Internet Explorer 8 and later can emulate an older release for old
	// sites: it then sends the older "MSIE" version next to its own
	// Trident engine, which is always 4 behind the real release.
	if v, ok := p.entryVersion("msie "); ok {
		if t, ok := p.entryVersion("trident/"); ok && atoiPrefix(v) < atoiPrefix(t)+4 && isVersionLike(v) {
			s.ieCompat = cleanVersion(v)
		}
	}
	for _, e := range p.entries {
		if code := localeOf(p.text(e), p.ltext(e)); code != "" {
			s.langCode, s.lang = code, languageName(code)
			break
		}
	}
}

// findUUID returns the first UUID ("8-4-4-4-12" hexadecimal digits) in
// the user agent, the installation or device identifier some apps send, or
// the empty string.
func findUUID(ua string) string {
	const n = 36
	for off := 0; off+n <= len(ua); {
		k := strings.IndexByte(ua[off+8:], '-')
		if k < 0 {
			return ""
		}
		st := off + k // the candidate starts 8 bytes before the dash
		if isUUIDAt(ua, st) && (st == 0 || !isHex(ua[st-1])) && (st+n == len(ua) || !isHex(ua[st+n])) {
			return ua[st : st+n]
		}
		off = st + 1
	}
	return ""
}

func isUUIDAt(s string, i int) bool {
	if i < 0 || i+36 > len(s) {
		return false
	}
	for j := 0; j < 36; j++ {
		c := s[i+j]
		if j == 8 || j == 13 || j == 18 || j == 23 {
			if c != '-' {
				return false
			}
		} else if !isHex(c) {
			return false
		}
	}
	return true
}

func isEmailChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_' || c == '+'
}

// fill writes the findings into the attribute array, deriving the combined
// attributes (NameVersion, majors) in one place so they stay consistent.
func (s *state) fill(v *[numAttributes]string) {
	set := func(i int, val string) {
		if val != "" {
			v[i] = val
		}
	}
	set(attrDeviceClass, s.devClass)
	set(attrDeviceBrand, s.devBrand)
	set(attrDeviceName, s.devName)
	set(attrDeviceCpu, s.devCPU)
	set(attrDeviceFirmwareVersion, s.devFirmware)
	set(attrDeviceVersion, s.devVersion)

	set(attrOperatingSystemClass, s.os.class)
	set(attrOperatingSystemName, s.os.name)
	set(attrOperatingSystemVersion, s.os.version)
	// The five "Name Version" attributes are built in one buffer, one
	// allocation instead of five.
	osName := ""
	if s.os.name != "" {
		name := s.os.name
		if name == "Windows NT" && v[attrOperatingSystemVersion] != Unknown {
			name = "Windows" // "Windows XP", "Windows 7", not "Windows NT 7"
		}
		osName = name
	}

	set(attrLayoutEngineClass, s.engClass)
	set(attrLayoutEngineName, s.engName)
	set(attrLayoutEngineVersion, s.engVersion)
	set(attrLayoutEngineBuild, s.engBuild)
	if s.engName != "" {
		v[attrLayoutEngineVersionMajor] = versionMajor(v[attrLayoutEngineVersion])
	}

	set(attrAgentClass, s.agClass)
	set(attrAgentName, s.agName)
	set(attrAgentVersion, s.agVersion)
	if s.agName != "" {
		v[attrAgentVersionMajor] = versionMajor(v[attrAgentVersion])
	}
	var pairs [5]struct {
		attr        int
		name, value string
	}
	n, size := 0, 0
	add := func(attr int, name, value string) {
		if name != "" {
			pairs[n].attr, pairs[n].name, pairs[n].value = attr, name, value
			n++
			size += len(name) + 1 + len(value)
		}
	}
	add(attrOperatingSystemNameVersion, osName, v[attrOperatingSystemVersion])
	add(attrLayoutEngineNameVersion, s.engName, v[attrLayoutEngineVersion])
	add(attrLayoutEngineNameVersionMajor, s.engName, v[attrLayoutEngineVersionMajor])
	add(attrAgentNameVersion, s.agName, v[attrAgentVersion])
	add(attrAgentNameVersionMajor, s.agName, v[attrAgentVersionMajor])
	if n > 0 {
		buf := make([]byte, 0, size)
		for _, pr := range pairs[:n] {
			start := len(buf)
			buf = append(buf, pr.name...)
			buf = append(buf, ' ')
			buf = append(buf, pr.value...)
			// buf never grows (its capacity is exact) and its bytes are
			// never written again, so the strings may share it.
			v[pr.attr] = unsafe.String(&buf[start], len(buf)-start)
		}
	}
	set(attrAgentInformationEmail, s.email)
	set(attrAgentInformationUrl, s.url)
	set(attrAgentSecurity, s.security)
	set(attrAgentLanguageCode, s.langCode)
	set(attrAgentLanguage, s.lang)
	if s.ieCompat != "" {
		major := versionMajor(s.ieCompat)
		v[attrIECompatibilityVersion] = s.ieCompat
		v[attrIECompatibilityVersionMajor] = major
		v[attrIECompatibilityNameVersion] = "Internet Explorer " + s.ieCompat
		v[attrIECompatibilityNameVersionMajor] = "Internet Explorer " + major
	}
	set(attrAgentUuid, s.uuid)
}

// urlDecode undoes the URL encoding some clients apply to the whole user
// agent ("Mozilla%2F5.0+%28Linux%3B+..."). Other strings are returned
// unchanged, so a "%" in a normal user agent is left alone.
func urlDecode(ua string) string {
	// An encoded user agent has an encoded slash or space and an encoded
	// parenthesis, semicolon or plus for a space. Form encoding alone
	// ("Mozilla/5.0+(Windows+NT+10.0;+Win64;+x64)+...") leaves no space
	// and several plus signs.
	if strings.IndexByte(ua, '%') < 0 {
		if strings.IndexByte(ua, ' ') < 0 && strings.Count(ua, "+") >= 3 && strings.Contains(ua, "+(") {
			return strings.ReplaceAll(ua, "+", " ")
		}
		return ua // every encoded slash or space has a '%': one fast search for most user agents
	}
	slashOrSpace := strings.Contains(ua, "%2F") || strings.Contains(ua, "%2f") || strings.Contains(ua, "%20")
	// "Mozilla/5.0%20(Windows%20NT%2010.0;%20Win64...": only the spaces
	// are encoded.
	spacesOnly := strings.IndexByte(ua, ' ') < 0 && strings.Count(ua, "%20") >= 2
	if !slashOrSpace || !spacesOnly && !strings.Contains(ua, "%28") && !strings.Contains(ua, "%3B") && !strings.Contains(ua, "+") {
		return decodeFirstName(ua)
	}
	if strings.Contains(ua, "%252") || strings.Contains(ua, "..") {
		return ua // double encoding is a traversal probe: keep it for the hacker rules
	}
	b := make([]byte, 0, len(ua))
	for i := 0; i < len(ua); i++ {
		c := ua[i]
		switch {
		case c == '+':
			b = append(b, ' ')
		case c == '%' && i+2 < len(ua) && isHex(ua[i+1]) && isHex(ua[i+2]):
			b = append(b, unhex(ua[i+1])<<4|unhex(ua[i+2]))
			i += 2
		default:
			b = append(b, c)
		}
	}
	return string(b)
}

// decodeFirstName decodes the name of the first product when only that is
// percent-encoded, as CFNetwork apps send their bundle name
// ("Network%20Logger%20Pro/6.1 CFNetwork/976 Darwin/18.2.0"). Encoded
// control characters are left alone: they belong to probes.
func decodeFirstName(ua string) string {
	k := strings.IndexByte(ua, '/')
	if k <= 0 {
		return ua
	}
	name := ua[:k]
	if strings.IndexByte(name, '%') < 0 || strings.IndexByte(name, ' ') >= 0 || strings.Contains(name, "%25") ||
		strings.Contains(name, "..") {
		return ua
	}
	b := make([]byte, 0, len(ua))
	for i := 0; i < k; i++ {
		c := name[i]
		if c == '%' {
			if i+2 >= k || !isHex(name[i+1]) || !isHex(name[i+2]) {
				return ua
			}
			c = unhex(name[i+1])<<4 | unhex(name[i+2])
			if c < 0x20 || c == 0x7f || c == '/' || c == '.' {
				return ua
			}
			i += 2
		}
		b = append(b, c)
	}
	if !utf8.Valid(b) {
		return ua // overlong or broken sequences ("%c0%af") are probes
	}
	return string(append(b, ua[k:]...))
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func unhex(c byte) byte {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

// iosAppAfterMobile names the iOS app that shows pages in the system web
// view and appends its own product after the "Mobile/15E148" token
// ("Mobile/15E148 Klarna/24.27.393", "Mobile/15E148 Safari Line/12.3.0"):
// Safari itself would send "Version/x Safari/y", so a versioned product in
// that place is the app around the web view.
func (s *state) iosAppAfterMobile() bool {
	p := s.p
	for _, pr := range p.productsAfter(func(pr *product) bool { return pr.lname == "mobile" }) {
		name, ln := pr.name, pr.lname
		if strings.HasPrefix(ln, "safari ") {
			name, ln = name[7:], ln[7:]
		}
		switch ln {
		case "", "safari", "version", "mobile", "applewebkit", "webkit", "iphone", "ipad", "ipod", "ios":
			// The device and system repeated ("iPhone/14.8.1") are not
			// the app.
			continue
		}
		if !isLetter(name[0]) || pr.version == "" || pr.version[0] < '0' || pr.version[0] > '9' ||
			!isVersionLike(pr.version) || strings.ContainsAny(name, " ():") {
			return false
		}
		s.agName, s.agClass, s.agVersion = name, "Mobile App", cleanVersion(pr.version)
		return true
	}
	return false
}
