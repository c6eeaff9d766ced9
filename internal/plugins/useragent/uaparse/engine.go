package uaparse

import "strings"

// detectEngine finds the layout engine from its product token.
func (s *state) detectEngine() {
	p := s.p
	if s.os.name == "Windows Phone" {
		// Windows Phone 8.1 appends "like iPhone OS 7_0_3 Mac OS X
		// AppleWebKit/537" for compatibility; its engine is Trident.
		if v, ok := p.entryVersion("trident/"); ok {
			s.setEngine(confGeneric, "Browser", "Trident", cleanVersion(v))
			return
		}
	}
	wk, ok := p.product("AppleWebKit")
	if !ok && p.has(kwBrowserAppleWebKit) {
		// "Browser/AppleWebKit534.30": the built-in browser of Chinese
		// feature phones names its engine as its version.
		if b, found := p.product("Browser"); found && hasPrefixFold(b.version, "applewebkit") {
			wk, ok = b, true
		}
	}
	if ok {
		s.setEngine(confGeneric, "Browser", "AppleWebKit", cleanVersion(wk.version))
		ch, ok := p.chromeProduct()
		if !ok && p.has(kwHeadlessChrome) {
			// Headless Chrome, driven by test and scraping tools, names
			// the same Blink engine by its own product.
			ch, ok = p.product("HeadlessChrome")
		}
		if ok && s.os.name != "iOS" {
			cv := chromeVersion(ch.version)
			if n := atoiPrefix(cv); n >= 28 {
				s.engName.set("Blink", confProduct)
				if strings.Contains(cv, ".") {
					s.engVersion.set(twoParts(cv), confProduct)
				} else {
					s.engVersion.set(cv, confProduct)
				}
			}
		}
		if e, ok := p.product("Edge"); ok && isVersionLike(e.version) {
			s.engName.set("EdgeHTML", confProduct+1)
			s.engVersion.set(cleanVersion(e.version), confProduct+1)
		}
		if s.os.name == "OpenHarmony" || s.os.name == "HarmonyOS" {
			// Huawei's ArkWeb, the engine of its own systems only, names
			// its release beside the Chromium it is built on
			// ("Chrome/114.0.0.0 Safari/537.36 ArkWeb/4.1.6.1"): the
			// engine is ArkWeb.
			if a, ok := p.product("ArkWeb"); ok && isVersionLike(a.version) {
				s.engName.set("ArkWeb", confProduct+1)
				s.engVersion.set(cleanVersion(a.version), confProduct+1)
			}
		}
		if p.has(kwWebKitGTK) {
			if g, ok := p.product("WebKitGTK+"); ok && isVersionLike(g.version) {
				// WebKitGTK, the GNOME port, names its own release.
				s.engName.set("WebKitGTK", confProduct)
				s.engVersion.set(cleanVersion(g.version), confProduct)
			}
		}
		return
	}
	if pr, ok := p.product("Presto"); ok {
		s.setEngine(confGeneric, "Browser", "Presto", cleanVersion(pr.version))
		return
	}
	if len(p.products) > 0 && p.products[0].lname == "opera" && isVersionLike(p.products[0].version) {
		// "Opera/5.0 (...)": only the Presto releases of Opera (up to
		// 12) start with their own name, whatever tokens follow.
		s.setEngine(confGeneric, "Browser", "Presto", prestoFor(p.products[0].version))
		return
	}
	if pr, ok := p.goanna(); ok {
		// Pale Moon's fork of Gecko, which keeps a "Gecko/20100101" token
		// for compatibility. Its version is that of the platform, sent
		// as "rv:" as in Gecko (some releases sent a build date as the
		// Goanna version).
		s.setEngine(confGeneric, "Browser", "Goanna", cleanVersion(pr.version))
		if rv, ok := p.entryVersion("rv:"); ok && isVersionLike(rv) {
			s.engVersion.set(cleanVersion(rv), confProduct)
		}
		return
	}
	if v, ok := p.entryVersion("trident/"); ok {
		s.setEngine(confGeneric, "Browser", "Trident", cleanVersion(v))
		return
	}
	if s.mozilla && p.has(kwParenGecko) {
		for _, pr := range p.products {
			if strings.HasPrefix(pr.lname, "gecko ") && pr.version != "" {
				// "rv:12.3) Gecko Kazehakase/0.5.4": the engine token
				// without its build date, which names no version.
				s.setEngine(confGeneric, "Browser", "Gecko", Unknown)
				return
			}
		}
	}
	if g, ok := p.product("Gecko"); ok || p.has(kwLikeGecko) && p.has(kwRV) {
		s.engClass.set("Browser", confGeneric)
		s.engName.set("Gecko", confGeneric)
		if isVersionLike(g.version) && len(g.version) < 8 && strings.IndexByte(g.version, '.') > 0 {
			// "Gecko/110.0": the mobile builds send the engine version
			// itself, which stays right where "rv:" was frozen at 109.0.
			s.engVersion.set(g.version, confGeneric)
		} else if rv, ok := p.entryVersion("rv:"); ok {
			s.engVersion.set(cleanVersion(rv), confGeneric)
		} else if isVersionLike(g.version) && len(g.version) < 8 {
			s.engVersion.set(g.version, confGeneric)
		} else {
			s.engVersion.set(Unknown, confGeneric)
		}
		if len(g.version) >= 8 && isVersionLike(g.version) {
			s.engBuild.set(g.version, confGeneric)
		}
		if _, ok := p.product("Goanna"); ok {
			// Pale Moon's fork of Gecko, which still sends the Gecko
			// token and the "rv:" of the Firefox it matches.
			s.engName.set("Goanna", confProduct)
		}
		return
	}
	if v, ok := p.entryVersion("msiemobile "); ok && p.has(kwMSIE) {
		// "MSIEMobile 6.5": the engine of Windows Mobile 6.5.
		s.setEngine(confGeneric, "Browser", "Internet Explorer Mobile", cleanVersion(v))
		return
	}
	if pr, ok := p.product("Goanna"); ok {
		s.setEngine(confGeneric, "Browser", "Goanna", cleanVersion(pr.version))
		if rv, ok := p.entryVersion("rv:"); ok {
			s.engVersion.set(cleanVersion(rv), confProduct) // "Goanna/20180327" is a date
		}
		return
	}
	if v, ok := p.entryVersion("msie "); ok {
		v = cleanVersion(v)
		switch versionMajor(v) {
		case "8":
			s.setEngine(confGeneric, "Browser", "Trident", "4.0")
		case "9":
			s.setEngine(confGeneric, "Browser", "Trident", "5.0")
		case "10":
			s.setEngine(confGeneric, "Browser", "Trident", "6.0")
		default:
			s.setEngine(confGeneric, "Browser", "Internet Explorer", v)
		}
		return
	}
	if pr, ok := p.product("KHTML"); ok {
		s.setEngine(confGeneric, "Browser", "KHTML", cleanVersion(pr.version))
		if v, ok := p.entryVersion("konqueror/"); ok && !isVersionLike(pr.version) {
			// "KHTML/TDEHTML/14.1.1": the fork's name in the version.
			s.engVersion.set(cleanVersion(v), confProduct)
		}
		return
	}
	if v, ok := p.entryVersion("konqueror/"); ok && !p.has(kwLikeGecko) {
		// "(compatible; Konqueror/3.1; SunOS)": KDE's browser on its own
		// KHTML engine, which has the browser's version.
		s.setEngine(confGeneric, "Browser", "KHTML", cleanVersion(v))
		return
	}
	if v, ok := p.entryVersion("konqueror/"); ok {
		// "(compatible; Konqueror/3.1-rc5; i686 Linux)": Konqueror
		// shipped with its KHTML engine, of the same version. A bare
		// "(KHTML, like Gecko)" of another browser names no engine.
		s.setEngine(confGeneric, "Browser", "KHTML", cleanVersion(v))
		return
	}
	if pr, ok := p.product("NetFront"); ok {
		s.setEngine(confGeneric, "Browser", "Netfront", cleanVersion(pr.version))
		return
	}
	for _, pr := range p.products {
		// Engines that name themselves without an AppleWebKit token:
		// YouTube's Cobalt (televisions, consoles), Huawei's ArkWeb and
		// Mozilla's Servo ("rv:37.0) Servo/1.0 Firefox/37.0").
		if (pr.lname == "cobalt" || pr.lname == "arkweb" || pr.lname == "servo") && isVersionLike(pr.version) {
			s.setEngine(confGeneric, "Browser", pr.name, cleanVersion(pr.version))
			return
		}
	}
	if p.has(kwExoPlayer) {
		if pr, ok := p.product("ExoPlayerLib"); ok {
			// Google's ExoPlayer media library plays the stream itself.
			s.setEngine(confGeneric, "Special", "ExoPlayer", cleanVersion(pr.version))
			return
		}
	}
	if ch, ok := p.chromeProduct(); ok && atoiPrefix(ch.version) >= 28 {
		// "XXX_APP/1.2025 (Windows_NT 10.0.19045; ...) Electron/37.4.0
		// Chrome/138.0": Chromium's engine without the WebKit token.
		s.setEngine(confGeneric, "Browser", "Blink", twoParts(cleanVersion(chromeVersion(ch.version))))
		return
	}
	if s.os.name == "Android" {
		for _, pr := range p.products {
			if len(pr.lname) > 6 && strings.HasSuffix(pr.lname, "webkit") && isVersionLike(pr.version) {
				// WebKit under a misspelt or a maker's name, where no
				// AppleWebKit token is written: Samsung's TD-SCDMA
				// builds' "ApplelWebkit/535.19", a Nook's "Apple
				// WebKit/533.1", Coolpad's "CoolpadWebkit/533.1". A bare
				// "WebKit/531.2+" keeps the reading of the browsers that
				// write it (Midori).
				s.setEngine(confGeneric, "Browser", "AppleWebKit", cleanVersion(pr.version))
				return
			}
		}
	}
	if s.mozilla {
		s.setEngine(confGeneric, "Browser", "Mozilla", cleanVersion(p.products[0].version))
		return
	}
	if s.os.name == "Android" {
		for _, pr := range p.products {
			if pr.lname == "android" && strings.Contains(p.low, "android/") || strings.HasPrefix(pr.lname, "android-") {
				// "Android/9/G960FXXU5CSF2/...", "Appie/8.31.0 ...
				// Android/7.0-API24": an app that names Android as a
				// product shows its pages in Android's WebKit.
				s.setEngine(confGeneric, "Browser", "AppleWebKit", Unknown)
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
	for i := range p.products {
		pr := &p.products[i]
		if len(pr.lword) == 6 && pr.lword == "chrome" && (len(pr.lname) == 6 || pr.lname == "mobile chrome") {
			return *pr, true
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

// cfnetworkEngine describes the apps that use Apple's HTTP libraries
// directly ("GiFi/415 CFNetwork/1331.0.7 Darwin/21.4.0"): there is no web
// engine, and Yauaa reports the app itself in its place, as a Mobile App
// on iOS and a Desktop App on macOS. App names sent URL encoded
// ("Network%20Logger%20Pro") are decoded.
func (s *state) cfnetworkEngine() {
	p := s.p
	if s.engName.v == "" && s.engClass.v == "" && p.has(kwAlamofire) {
		// "Walibi NL/4.0.15 (nl.walibi.corporate; build:254; iOS
		// 15.4.1) Alamofire/5.5.0": the default user agent of Alamofire,
		// Swift's HTTP library, names no engine but is an app's.
		if _, ok := p.product("Alamofire"); ok {
			switch s.os.name {
			case "iOS":
				s.engClass.set("Mobile App", confGeneric)
			case "Mac OS":
				s.engClass.set("Desktop App", confGeneric)
			}
		}
		return
	}
	if s.engName.v != "" || len(p.products) < 2 || !p.has(kwCFNetwork) {
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
	s.setEngine(confGeneric, class, name, cleanVersion(app.version))
	if s.agName.v == app.name || s.agName.v == appName(app.name) {
		if s.agName.v == app.name {
			s.agName.set(name, confGeneric)
		}
		if class == "Desktop App" && s.agClass.v == "Special" {
			s.agClass.set(class, confProduct)
		}
	}
}

// prestoFor gives the Presto engine version of an Opera release that does
// not send a Presto token: Opera 7 to 9 (Presto 1.x and 2.0), and Opera
// disguised as Internet Explorer or Firefox, which hides its engine too.
// Like Yauaa it answers "1": the token that would tell more is missing.
func prestoFor(string) string {
	return "1"
}

// kwBrowserAppleWebKit is found by the scan of the whole string, which
// spares detectEngine a search of its own for every user agent without
// an AppleWebKit product.
var kwBrowserAppleWebKit needleID
