package uaparse

import (
	"strconv"
	"strings"
)

// Needles of the browser rules.
var (
	kwMicroMessenger needleID
	kwQQSlash        needleID
)

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
		if v, ok := edgeVersions[e.version]; ok {
			// A build that tables/edge_versions.tsv lists has the
			// release Microsoft shipped it in.
			s.setAgent(confGeneric, "Browser", "Edge", v)
			return
		}
		s.setAgent(confGeneric, "Browser", "Edge", ev+"."+minor)
		return
	}
	if pr, ok := p.operaProduct(); ok && isVersionLike(pr.version) && (isIE || s.engName.v == "Gecko") {
		// "MSIE 6.0; ...) Opera 8.02", "Firefox/2.0.0 Opera 9.51": Opera
		// disguised as another browser names itself last.
		s.setAgent(confGeneric, "Browser", "Opera", cleanVersion(pr.version))
		s.engName.set("Presto", confProduct)
		s.engVersion.set(prestoFor(pr.version), confProduct)
		return
	}
	// A product named after the token is part of the user agent, so a
	// token the needle scan did not see needs no product search: only
	// the rows it saw are read, in order.
	var rows [32]uint16
	for _, row := range p.rowsFound(browserTokenList, rows[:]) {
		bt := browserTokens[row]
		pr, ok := p.product(bt.token)
		if !ok && bt.token == "silk" {
			// A Fire tablet's Silk in its desktop mode writes itself in
			// the Mac comment it borrows ("(Macintosh; U; Intel Mac OS X
			// 10_6_3; en-us; Silk/1.0.13.81_10003810) ... Safari/533.16
			// Silk-Accelerated=true").
			pr.version, ok = p.entryVersion("silk/")
		}
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
				s.setAgent(confGeneric, "Browser Webview", "Chrome Webview", cleanVersion(chromeVersion(ch.version)))
				s.webview = true
				return
			}
		}
		s.setAgent(confGeneric, bt.class, bt.name, cleanVersion(pr.version))
		if pr.version == "" && bt.class == "Special" && len(p.entries) > 0 && p.entries[0].block == 0 &&
			p.products[0].lword == bt.token && isVersionLike(p.text(p.entries[0])) {
			// "Links (2.1; Linux 2.6.18 x86_64; 80x24)": the text
			// browsers put their version first in the comment.
			s.agVersion.set(cleanVersion(p.text(p.entries[0])), confProduct)
		}
		if !isVersionLike(pr.version) && len(pr.version) > 24 {
			// "Aoyou/aHR0cHM6Ly95YXVhYS5iYXNqZXMubmw=": an encoded
			// token in the place of the version.
			s.agVersion.set(Unknown, confProduct)
		}
		switch bt.token {
		case "chrome", "crios", "headlesschrome", "edg", "edga", "edgios":
			s.agVersion.set(cleanVersion(chromeVersion(pr.version)), confProduct)
			if ch, ok := p.chromeProduct(); ok && bt.token != "chrome" && strings.HasSuffix(ch.version, ".0.0.0") {
				// Edge on a reduced Chromium user agent: like Yauaa,
				// report the release that Chromium's token carries.
				s.agVersion.set(chromeVersion(ch.version), confProduct+1)
			}
		case "opr":
			if _, tv := p.product("OMI"); !tv && (s.os.name == "Android" || p.has(kwAndroid)) {
				// Opera for televisions ("OPR/46.0.2207.0 OMI/4.13.2.294")
				// runs on Android TV sets and boxes too, and stays Opera.
				s.agName.set("Opera Mobile", confProduct)
			}
		case "gsa":
			s.agName.set("Google Search App", confProduct)
			s.agClass.set("Mobile App", confProduct)
		case "duckduckgo", "ddg":
			// The DuckDuckGo app of before its own browser engine
			// showed pages in the system web view ("Version/4.0
			// Chrome/74.0 Mobile Safari/537.36 DuckDuckGo/5").
			if _, ok := p.product("Version"); ok {
				if ch, ok := p.product("Chrome"); ok && isVersionLike(ch.version) {
					s.setAgent(confGeneric, "Browser Webview", "Chrome Webview", cleanVersion(chromeVersion(ch.version)))
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
					s.agName.set(pr.name[:k], confProduct)
				}
			}
			s.chromeWebview(pr)
		}
		if s.agClass.v == "Browser" && p.has(kwHeadlessChrome) {
			// A browser built on Chromium run without a screen ("HeadlessChrome/107 ...
			// Edg/107") is that browser driven by a program.
			s.agClass.set("Robot", confProduct)
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
		if av, ok := p.entryVersion("aol "); ok && isVersionLike(av) {
			// "(compatible; MSIE 6.0; AOL 9.0; Windows NT 5.0)": AOL's
			// client, which shows pages with the Internet Explorer it
			// embeds and names its own release beside it.
			s.setAgent(confGeneric, "Browser", "AOL", cleanVersion(av))
			return
		}
		s.setAgent(confGeneric, "Browser", name, ieVersion)
		return
	}
	if op, ok := p.product("Opera"); ok {
		v := op.version
		if ver, ok := p.product("Version"); ok {
			v = ver.version
		}
		s.setAgent(confGeneric, "Browser", "Opera", cleanVersion(v))
		if s.engName.v == "" || s.engName.v == "Mozilla" || s.engName.v == "Gecko" {
			s.setEngine(confProduct, "Browser", "Presto", prestoFor(v))
		}
		if p.has(kwOperaMini) {
			s.agName.set("Opera Mini", confProduct)
			// "(Android; Opera Mini/7.5.33135/191.273; U; ar) ...
			// Version/12.16": the Version token is that of the Presto
			// engine on Opera's servers; the client names its own.
			mv, ok := p.entryVersion("opera mini/")
			if k := strings.IndexByte(mv, '/'); ok && k > 0 && !isVersionLike(mv) {
				// "Opera Mini/att/4.2.18216": an operator's build names
				// the operator before the version.
				mv = mv[k+1:]
			}
			if ok && isVersionLike(mv) {
				if k := strings.IndexByte(mv, '/'); k > 0 {
					mv = mv[:k]
				}
				s.agVersion.set(cleanVersion(mv), confProduct)
			}
		} else if p.has(kwOperaMobi) {
			s.agName.set("Opera Mobile", confProduct)
		} else if p.has(kwOperaTablet) {
			s.agName.set("Opera Tablet", confProduct)
		}
		return
	}
	if _, ok := p.product("GSA"); ok && s.os.name == "iOS" && s.engName.v == "AppleWebKit" {
		// The Google app on iOS shows pages in the system web view.
		s.setAgent(confGeneric, "Browser Webview", "UIWebView", s.engVersion.v)
		s.webview = true
		return
	}
	if sf, ok := p.product("Safari"); ok {
		if s.appendedApp() || s.appInVersion() {
			return
		}
		if p.has(kwUCAppleWebKit) {
			// "(Linux; U; Android 2.3.6; ...) UC AppleWebKit/530+ (KHTML,
			// like Gecko) Mobile Safari/530": UC Browser for Android,
			// which writes its name before the engine and no release.
			s.setAgent(confGeneric, "Browser", "UCBrowser", Unknown)
			return
		}
		if ver, ok := p.product("Version"); ok {
			if s.os.name == "Android" {
				s.setAgent(confGeneric, "Browser", "Stock Android Browser", cleanVersion(ver.version))
			} else {
				s.setAgent(confGeneric, "Browser", "Safari", cleanVersion(ver.version))
			}
			return
		}
		if s.os.name == "Android" {
			// The stock browser ships with the system and shares its
			// version.
			s.setAgent(confGeneric, "Browser", "Stock Android Browser", orUnknown(s.os.version))
			return
		}
		s.setAgent(confGeneric, "Browser", "Safari", cleanVersion(sf.version))
		for i := 1; i < len(p.products); i++ {
			if p.products[i].lword != "safari" {
				continue
			}
			// "AppleWebKit/312.8 (KHTML, like Gecko) Shiira/1.2.1
			// Safari/125": a WebKit browser names itself before the
			// Safari token it sends for compatibility.
			if pr := p.products[i-1]; pr.lname != "" && isLetter(pr.name[0]) && isVersionLike(pr.version) && !platformProducts[pr.lname] &&
				!platformProducts[pr.lword] && !strings.ContainsAny(pr.name, "()") && !strings.HasPrefix(pr.lname, "like ") {
				s.agName.set(pr.name, confProduct)
				s.agVersion.set(cleanVersion(pr.version), confProduct)
			}
			break
		}
		return
	}
	if s.os.name == "Android" {
		if b, ok := p.product("Browser"); ok && hasPrefixFold(b.version, "applewebkit") {
			// "MT6572/V1 Linux/3.4.5 Android/4.2.2 Release/04.23.2014
			// Browser/AppleWebKit534.30": the stock browser of a
			// reference phone, without a Safari token, shares the
			// system's version.
			s.setAgent(confGeneric, "Browser", "Stock Android Browser", orUnknown(s.os.version))
			return
		}
		if b, ok := p.product("Browser"); ok && hasPrefixFold(b.version, "wap") {
			if _, ok := p.product("Release"); ok {
				// "DESAY_TS908_CMCC_TD/1.0 Android/2.3.7 (LinuxOS
				// 2.6.35.7) Release/04.13.2012 Browser/WAP2.0": the same
				// reference phones' stock browser, named by the WAP
				// profile it supports instead of its engine.
				s.setAgent(confGeneric, "Browser", "Stock Android Browser", orUnknown(s.os.version))
				return
			}
		}
	}
	if s.os.name == "iOS" && s.engName.v == "AppleWebKit" {
		if _, ok := p.product("Mobile"); ok {
			if s.iosAppAfterMobile() {
				return
			}
			s.setAgent(confGeneric, "Browser Webview", "UIWebView", s.engVersion.v)
			s.webview = true
			return
		}
	}
	if (s.engName.v == "AppleWebKit" || s.engName.v == "WebKitGTK" || s.engName.v == "Gecko") && s.mozilla && s.lastUnknownProduct() {
		return
	}
	if s.engName.v == "AppleWebKit" && s.mozilla && (len(p.products) <= 3 || s.os.name == "Android" && stockTailOnly(p.products)) {
		if s.os.name == "Tizen" {
			// "(Linux; Tizen 2.3) AppleWebKit/538.1 (KHTML, like
			// Gecko)": Samsung's Tizen browser names nothing but its
			// engine; its version is not written.
			s.setAgent(confGeneric, "Browser", "TizenBrowser", Unknown)
			return
		}
		if s.os.name == "Android" {
			// "(Linux; U; Android; en-us; KaiCloud942 Build/FRF91)
			// AppleWebKit/533.1": the system's own browser, cut after its
			// engine, as a bare engine on a Mac is Safari.
			s.setAgent(confGeneric, "Browser", "Stock Android Browser", orUnknown(s.os.version))
			return
		}
		s.setAgent(confGeneric, "Browser", "AppleWebKit", s.engVersion.v)
		return
	}
	if s.engName.v == "Gecko" && s.mozilla {
		s.setAgent(confGeneric, "Browser", "Gecko", s.engVersion.v)
		return
	}
	if v, ok := p.entryVersion("konqueror/"); ok && s.engName.v == "KHTML" {
		s.setAgent(confGeneric, "Browser", "Konqueror", cleanVersion(v))
		return
	}
	if s.os.name == "Android" && androidPartsOnly(p.products) {
		// "Android 4.4.2;AppleWebKit/537.36;Build/KOT49H;M-PPxX520U
		// Build/KOT49H": an agent made of nothing but the system's
		// release, its engine and its build names no app: the system's
		// own browser, as an Android agent cut after its engine is.
		s.setAgent(confGeneric, "Browser", "Stock Android Browser", orUnknown(s.os.version))
		return
	}
	s.genericAgent()
}

// androidPartsOnly reports an agent whose products are Android's release
// first and then only its engine and its build ("Android 4.1.2;
// AppleWebKit/533.1;Build/JZO54K;Model Build/JZO54K").
func androidPartsOnly(prs []product) bool {
	if len(prs) < 2 || prs[0].lname != "android" {
		return false
	}
	for i := 1; i < len(prs); i++ {
		if prs[i].lword != "applewebkit" && prs[i].lword != "build" {
			return false
		}
	}
	return true
}

// stockTailOnly reports a user agent whose products past Mozilla's token
// and the engine are only the stock browser's Version and Mobile, cut
// before its Safari token ("AppleWebKit/534.30 (KHTML, like Gecko)
// Version/4.0 Mobile"): a browser that names nothing of its own.
func stockTailOnly(prs []product) bool {
	if len(prs) > 5 || len(prs) < 2 || prs[1].lword != "applewebkit" {
		return false
	}
	for i := 2; i < len(prs); i++ {
		if prs[i].lword != "version" && prs[i].lword != "mobile" {
			return false
		}
	}
	return true
}

// firefoxAddOns are the products that Firefox extensions and toolbars
// append to the user agent; they do not name another browser.
var firefoxAddOns map[string]bool

func buildFirefoxAddOns() map[string]bool {
	return map[string]bool{
		"firephp": true, "stumbleupon": true, "owasmime": true, "kaios": true, "yff3": true, "yff35": true,
		"ffco7": true, "navigator": true, "fbsmtwb": true,
	}
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
			strings.ContainsAny(ln, " ():") || chromiumBuild(pr.version) || identifierVersion(pr.version) {
			continue
		}
		s.setAgent(confProduct, "Browser", appName(pr.name), cleanVersion(pr.version))
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
				s.setAgent(confGeneric, "Browser", "Opera Mini", cleanVersion(pr.version))
				return true
			}
			if pr, ok := p.product("OPT"); ok && isVersionLike(pr.version) {
				s.setAgent(confGeneric, "Browser", "Opera Touch", cleanVersion(pr.version))
				return true
			}
			if ch, ok := p.product("Chrome"); ok && isVersionLike(ch.version) {
				s.setAgent(confGeneric, "Browser Webview", "Chrome Webview", cleanVersion(chromeVersion(ch.version)))
				if w, ok := p.product("EdgW"); ok && isVersionLike(w.version) {
					// Microsoft's Edge WebView on Android marks itself.
					s.agName.set("Edge Webview", confProduct)
					s.agVersion.set(cleanVersion(w.version), confProduct)
				}
				s.webview = true
				return true
			}
		}
	}
	return false
}

// platformProducts are the tokens every browser of an engine family sends;
// they never name the browser itself.
var platformProducts map[string]bool

func buildPlatformProducts() map[string]bool {
	return map[string]bool{
		"mozilla": true, "applewebkit": true, "khtml": true, "gecko": true, "like": true, "version": true,
		"safari": true, "mobile": true, "chrome": true, "firefox": true, "like gecko": true, "(khtml": true,
		"webkit": true, "mobile safari": true, "large screen safari": true, "smarttv": true, "smart-tv": true,
	}
}

// lastUnknownProduct names the agent after the last product that is not a
// platform token, for browsers built on an engine that add their own name
// ("Gecko/20060610 Minimo/0.016", "AppleWebKit/531.9 ... AdobeAIR/2.5.1").
func (s *state) lastUnknownProduct() bool {
	p := s.p
	for i := len(p.products) - 1; i > 0; i-- {
		pr := p.products[i]
		ln := pr.lname
		if platformProducts[ln] || platformProducts[pr.lword] || pr.version == "" || strings.HasPrefix(ln, "like ") ||
			identifierVersion(pr.version) {
			continue
		}
		if pr.name == "" || !isLetter(pr.name[0]) && pr.name[0] < '0' || len(pr.name) > 40 || isDistroProduct(ln) {
			continue
		}
		if isDigits(ln) || dottedNumber(ln) {
			// "_LBANK_LBANK/iOS/5.0.1/iPhone 12/16.0": the parts of an
			// app's product after its slashes, a version and a model's
			// number, are no product of their own.
			continue
		}
		name := pr.name
		if strings.HasPrefix(ln, "gecko ") {
			name = name[6:] // "Gecko Kazehakase/0.5.4"
		}
		s.setAgent(confGeneric, "Browser", name, cleanVersion(pr.version))
		if mb, ok := p.product("Mobile"); ok && mb.version != "" && i > 0 && p.products[i-1].lword == "mobile" {
			// "Version/18.6 Mobile/15E148 Snapchat/13.60.1.0": an iPad
			// app in the web view, sending the desktop platform.
			s.agClass.set("Mobile App", confProduct)
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
		s.agName.set("Chrome Webview", confProduct)
		s.agClass.set("Browser Webview", confProduct)
		s.webview = true
	}
}

// genericAgent names the agent after the first meaningful product when no
// known browser matched: apps and tools put their own name first.
func (s *state) genericAgent() {
	p := s.p
	if p.has(kwMAUI) && (s.os.name == "" || s.os.name == "MRE") {
		// MediaTek's feature phones ("WAP Browser/MAUI", "MAUI-Browser",
		// "MRE/3.1.00(64);MAUI/..."): their built-in WAP browser, after
		// the phone's board or model that comes first.
		s.setAgent(confGeneric, "Browser", "MAUI WAP Browser", Unknown)
		return
	}
	for i, pr := range p.products {
		if pr.version == "" {
			continue
		}
		if i > 0 && isVersionLike(pr.version) && strings.Count(pr.name, ".") >= 2 && s.os.class == "Mobile" {
			// "SM-G930F (compatible; Mobile2.0) HandelsbladProduction,
			// com.twipemobile.nrc 5.1.1 (508) / Android 26": after the
			// device and the publisher, which carry no version, the
			// app's package identifier and version name the app.
			if name := packageAppName(pr.name); name != "" {
				s.setAgent(confGeneric, "Mobile App", name, cleanVersion(pr.version))
				return
			}
		}
		break
	}
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
					s.setAgent(confGeneric, "Browser", t[:k], cleanVersion(t[k+1:]))
					return
				}
				break
			}
			continue
		}
		if lw == "dalvik" {
			// The Android runtime's HTTP client: some app we cannot name.
			s.setAgent(confGeneric, "Browser", Unknown, Unknown)
			return
		}
		if lw == "" || lw == "like" || lw == "gecko" || lw == "khtml" {
			continue
		}
		if dottedNumber(pr.name) {
			// A name that is only a version ("2.1.0 (Linux; U; Android
			// 7.0; ...)", Dalvik's user agent with its name cut off,
			// "Mozilla/4.0 (compatible; MSIE) 5.0; Windows 95") names
			// no agent, and what follows it is no product of the
			// agent's either: the agent is Unknown, as for Dalvik's,
			// or Netscape after a bare Mozilla token.
			break
		}
		if strings.HasPrefix(lw, "ddg_") || strings.HasPrefix(lw, "ddg-") {
			// "ddg_android/5.107.0": DuckDuckGo's own browser app.
			s.setAgent(confGeneric, "Browser", "DuckDuckGo", cleanVersion(pr.version))
			return
		}
		if s.platformPathApp(pr) {
			return
		}
		if n, v, ok := nameVersionPlatform(pr.name); ok {
			// "Instagram 3.0.4 Android (...)", "BBC News Android
			// 4.7.1.29/107998": the app's version is the number in
			// its name, not a build number after the slash.
			s.setAgent(confGeneric, "Special", n, v)
			if s.os.class == "Mobile" && strings.IndexByte(n, ' ') < 0 {
				s.agClass.set("Mobile App", confProduct)
			}
			return
		}
		name := appName(pr.name)
		if name == "" {
			continue
		}
		s.agName.set(name, confGeneric)
		class := "Special"
		if (s.mozilla || s.engName.v == "Gecko") && s.os.name != "" && s.os.name != Unknown {
			// "Mozilla/5.0 (Windows NT; Windows NT 10.0; fr-FR)
			// WindowsPowerShell/5.1": a client that writes a browser's
			// Mozilla token and a platform first presents itself as a
			// browser, as Yauaa classes it, and so does one on Gecko,
			// which is only ever a browser's engine ("Ice/0.1 (X11;
			// Linux x86_64; rv:0.1) Gecko/20100101 Ice/0.1"; apps
			// such as iTunes embed WebKit). A bare "Mozilla/5.0
			// Keydrop" names no platform and stays a special agent, as
			// robots that borrow the token are.
			class = "Browser"
		}
		s.agClass.set(class, confGeneric)
		if s.os.class == "Mobile" && !s.appUsesLibrary(i) {
			s.agClass.set("Mobile App", confProduct)
		}
		if k := camelWordAt(name, "Android"); i == 0 && k > 0 && k == len(name)-len("Android") {
			// "MastodonAndroid/1.2.2": the Android build of the app.
			s.agName.set(name[:len(name)-len("Android")], confProduct)
			s.agClass.set("Mobile App", confProduct)
		}
		s.agVersion.set(cleanVersion(pr.version), confGeneric)
		s.appleNetworkApp(i)
		return
	}
	if s.mozilla && s.os.name == "Android" && len(p.products) == 1 && strings.HasSuffix(p.ua, ")") {
		// "Mozilla/5.0 (Linux; Android 7.0; iQM801 Build/NRD90M)": an
		// Android browser's user agent cut after its comment, as the
		// stock browser's is cut after its engine, is the system's own
		// browser on the WebKit every Android browser is built on. (A
		// comment left open runs over the products a proxy cut into it.)
		s.setAgent(confGeneric, "Browser", "Stock Android Browser", orUnknown(s.os.version))
		s.setEngine(confGeneric+1, "Browser", "AppleWebKit", Unknown)
		return
	}
	if s.mozilla {
		// Plain "Mozilla/x (...)" with no other browser token is named
		// after Netscape Navigator, the browser that introduced the token.
		s.setAgent(confGeneric, "Browser", "Netscape", cleanVersion(p.products[0].version))
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
	if n == "" || hasUpperASCII(n) {
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
					s.setAgent(confGeneric, "Browser", "Ecosia", cleanVersion(p.text(e)[k+1:]))
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
			s.setAgent(confGeneric, "Browser", "Mi Browser", p.ua[j:k])
			return true
		}
	}
	if i := p.index(kwAphoneBrowser); i >= 0 {
		// "Safari/534.30; 360 Aphone Browser (6.9.9.22)": Qihoo 360's
		// browser for Android, its release in parentheses after its
		// name.
		v := Unknown
		if j := i + len("aphone browser"); strings.HasPrefix(p.ua[j:], " (") {
			if w := leadingVersion(p.ua[j+2:]); w != "" {
				v = w
			}
		}
		s.setAgent(confGeneric, "Browser", "360 Phone Browser", v)
		return true
	}
	if i := p.index(kwQihu); i >= 0 {
		if v := word(i + len("qihu ")); v != "" {
			s.setAgent(confGeneric, "Browser", "Qihoo 360 Safe Browser", v)
			return true
		}
	}
	if i := p.index(kwMetaSr); i >= 4 && p.low[i-1] == ' ' {
		// "SE 2.X MetaSr": the release sits between "SE " and MetaSr.
		if k := strings.LastIndex(p.low[:i-1], "se "); k >= 0 && (k == 0 || !isLetter(p.low[k-1])) {
			if v := word(k + 3); v != "" {
				s.setAgent(confGeneric, "Browser", "Sogou Explorer", v)
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
	for i := range s.p.products {
		pr := &s.p.products[i]
		ln := pr.lname
		if !strings.HasSuffix(ln, "browser") || ln == "browser" || !isVersionLike(pr.version) {
			continue
		}
		if pr.lword == "mqqbrowser" {
			// "Mobile MQQBrowser/6.2": the QQ browser or its web view
			// inside WeChat and QQ, which the browser tokens name.
			return false
		}
		last := ln
		if k := strings.LastIndexByte(ln, ' '); k >= 0 {
			// "YaApp_Android/23.74/apad YaSearchBrowser/23.74/apad": the
			// word the previous product's second version ran into is not
			// the browser's name.
			last = ln[k+1:]
		}
		switch last {
		case "samsungbrowser", "yabrowser", "ucbrowser", "qqbrowser", "mqqbrowser", "huaweibrowser", "miuibrowser",
			"baidu.sogo.uc.ucbrowser", "mxbrowser", "yasearchbrowser", "qwantbrowser":
			return false
		}
		if _, tv := tvPlatforms[last]; tv {
			// "Presto/2.12.362 Version/12.11 SonyCEBrowser/1.0",
			// "Espial/6.1.5 AQUOSBrowser/2.0", "NetFront/4.1
			// DTVNetBrowser/2.2": a television maker's name for the
			// browser it ships, written after the browser's own product
			// (tables/tv_platforms.tsv), which names the agent.
			continue
		}
		name := pr.name
		if last != "browser" {
			// "NETRANGEMMH Tbrowser/2.0": a browser whose own word holds
			// "browser" is named by that word; the words before it are
			// another product's ("LG Browser" keeps its maker's word).
			name = name[len(name)-len(last):]
		}
		if k := strings.LastIndexByte(name, '.'); k >= 0 {
			name = name[k+1:]
		}
		if strings.IndexByte(name, '_') > 0 && !hasUpper(name) {
			name = appName(name) // "coc_coc_browser" is "Coc Coc Browser"
		}
		if sp, ok := appSpellings[last]; ok {
			// "bdbrowser/6.4.0.3" is Baidu Browser (tables/app_spellings.tsv).
			name = sp
		}
		s.setAgent(confGeneric, "Browser", name, cleanVersion(pr.version))
		return true
	}
	return false
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
		s.setAgent(confGeneric, "Mobile App", name, cleanVersion(pr.version))
		return true
	}
	return false
}

// dottedNumber reports whether s is digits and dots only, with at least
// one dot: a version standing where a name should be.
func dottedNumber(s string) bool {
	dot := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '.' && i > 0:
			dot = true
		case c < '0' || c > '9':
			return false
		}
	}
	return dot
}
