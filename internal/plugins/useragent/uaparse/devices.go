package uaparse

import "strings"

// gameConsole names the model of a Nintendo or Sony console from the
// comment entry that announces it ("Nintendo Switch", "Nintendo 3DS",
// "PlayStation 5 2.03", "PlayStation 4/11.52", "PLAYSTATION 3", "PS2",
// "PSP PlayStation Portable") and, for Sony, the system that model runs.
// Both makers put the console's own name in the user agent, so the model
// is read rather than looked up.
func (s *state) gameConsole() {
	p := s.p
	for _, e := range p.entries {
		lt := p.ltext(e)
		t := p.text(e)
		switch {
		case strings.HasPrefix(lt, "nintendo "):
			model := strings.TrimSpace(t[len("nintendo "):])
			if model == "" {
				continue
			}
			s.setDevice(confFamily, "Game Console", "Nintendo", "Nintendo "+normalizeName(model))
			if handheldNintendo(asciiLower(model)) {
				s.devClass.set("Handheld Game Console", confFamily+1)
			}
			// Nintendo's consoles have no version of their system in the
			// user agent; the console itself is the "version" of the
			// Nintendo platform.
			s.os = osInfo{name: "Nintendo", version: "Nintendo " + model, class: "Game Console", cpu: s.os.cpu}
			return
		case lt == "ps2" || strings.HasPrefix(lt, "ps2 "):
			s.setDevice(confFamily, "Game Console", "Sony", "Sony PlayStation 2")
			for _, e2 := range p.entries {
				// The PlayStation 2's network system, "PlayStation BB
				// Navigator 1.0".
				if l2 := p.ltext(e2); strings.HasPrefix(l2, "playstation bb ") {
					s.os = osInfo{name: "PlayStation BB", version: p.text(e2)[len("playstation bb "):], class: "Game Console", cpu: s.os.cpu}
				}
			}
			return
		case strings.HasPrefix(lt, "psp"):
			s.setDevice(confFamily, "Handheld Game Console", "Sony", "Sony PlayStation Portable")
			return
		case strings.HasPrefix(lt, "playstation"):
			rest := cutSpaceSlash.trimLeft(t[len("playstation"):])
			if rest == "" {
				continue // "(PlayStation; PlayStation 4/11.52)": the model follows
			}
			model, version, _ := strings.Cut(rest, " ")
			if m, v, ok := strings.Cut(model, "/"); ok {
				model, version = m, v
			}
			version = strings.TrimSpace(version)
			if v, _, ok := strings.Cut(version, "/"); ok {
				// "PlayStation 5 3.03/SmartTV": the console's media
				// apps write the mode they run in after the firmware.
				version = v
			}
			s.setDevice(confFamily, "Game Console", "Sony", "Sony PlayStation "+normalizeName(model))
			if model == "3" || model == "4" || model == "5" {
				// A home console's own name outranks the television
				// word of that mode ("SmartTV"); the Vita and the
				// Portable are handhelds (sonyConsoleOS).
				s.devClass.set("Game Console", confFamily+1)
			}
			s.sonyConsoleOS(asciiLower(model), version)
			if pr, ok := p.product("RNPS"); ok && isVersionLike(pr.version) {
				// React Native for PlayStation apps run on their own
				// runtime, which names its version.
				s.os = osInfo{name: "RNPS", version: pr.version, class: "Game Console", cpu: s.os.cpu}
			}
			return
		}
	}
}

// handheldNintendo reports Nintendo's portable consoles (the DS family and
// the 3DS family), which Yauaa classes apart from the home consoles.
func handheldNintendo(lm string) bool {
	return strings.HasSuffix(lm, "ds") || strings.HasSuffix(lm, "dsi") || strings.HasSuffix(lm, "ds xl") ||
		strings.HasSuffix(lm, "dsi xl") || strings.HasSuffix(lm, "ds ll")
}

// sonyConsoleOS sets the system of a PlayStation model: the PlayStation 3
// runs CellOS, the 4 Orbis OS, the 5 its own system and the Vita its own,
// each reporting its firmware version after the model.
func (s *state) sonyConsoleOS(model, version string) {
	name := ""
	switch model {
	case "3":
		name = "CellOS"
		version = ""
	case "4":
		name = "Orbis OS"
	case "5":
		name = "PS5 OS"
	case "vita":
		name = "PlayStation Vita"
	case "portable":
		s.devClass.set("Handheld Game Console", confFamily+1)
		return
	default:
		return
	}
	if !isVersionLike(version) {
		version = Unknown
	}
	s.os = osInfo{name: name, version: version, class: "Game Console", cpu: s.os.cpu}
}

// eReader recognises electronic book readers by the product their reading
// software sends: "PocketBook/626" (the PocketBook's own browser, which is
// also its layout engine) and "Kindle/3.0" (the browser of the E Ink
// Kindles, which run Amazon's FireOS). Kobo and Tolino readers name
// themselves in the model entry instead.
func (s *state) eReader() {
	p := s.p
	// The products' names lie in the user agent: the needle bits spare
	// most user agents two calls of product.
	if p.has(kwPocketBook) {
		if pr, ok := p.product("PocketBook"); ok && isVersionLike(pr.version) {
			s.setDevice(confFamily, "eReader", "PocketBook", "PocketBook")
			s.setEngine(confFamily, "eReader", "PocketBook", cleanVersion(pr.version))
			s.agClass.set("eReader", confFamily)
			s.os.class = "Mobile"
			return
		}
	}
	if p.has(kwKindle) {
		if pr, ok := p.product("Kindle"); ok && isVersionLike(pr.version) && !strings.Contains(pr.lname, "fire") {
			s.setDevice(confFamily, "eReader", "Amazon", "Amazon Kindle")
			s.os = osInfo{name: "FireOS", version: Unknown, class: "Mobile", cpu: s.os.cpu}
			return
		}
	}
	// Only an entry that starts with "ko" or "to" can name a reader: the
	// bits of the entries' first two bytes spare most user agents the
	// loop.
	if ko, to := entryPairKey('k', 'o'), entryPairKey('t', 'o'); p.entryPairs[ko>>6]&(1<<(ko&63)) == 0 && p.entryPairs[to>>6]&(1<<(to&63)) == 0 {
		return
	}
	for _, e := range p.entries {
		lt := p.ltext(e)
		if strings.HasPrefix(lt, "kobo ") || strings.HasPrefix(lt, "tolino ") {
			s.devClass.set("eReader", confFamily)
			if lt[0] == 'k' {
				// The reader's own entry names it, whatever model the
				// Android rules read in it.
				s.devBrand.set("Kobo", confFamily)
				s.devName.set(koboReaderName(p.text(e)), confFamily)
			}
			return
		}
	}
}

// inComment reports whether the byte at offset i of the user agent lies
// inside a comment section ("(...)").
func (p *parsed) inComment(i int) bool {
	for _, e := range p.entries {
		if e.block >= 0 && e.start <= i && i < e.end {
			return true
		}
	}
	return false
}

// Needles of the wearable, headset and car rules.
var (
	kwVRSafari     needleID
	kwMobileVR     needleID
	kwOculus       needleID
	kwWatch        needleID
	kwWatchOS      needleID
	kwQtCarBrowser needleID
	kwTeslaSlash   needleID
	kwPico         needleID
)

// wearable recognises devices worn or driven rather than held:
//   - virtual reality headsets, whose browsers (Samsung Internet for Gear
//     VR, the Oculus and Pico browsers) say "VR Safari" where a phone says
//     "Mobile Safari", and Firefox Reality and its successor Wolvic
//     "Mobile VR" ("(Android 10; Mobile VR; rv:105.0)", "Mobile VR
//     Wolvic/1.0"); Oculus headsets name only their code name
//     ("Pacific", "Quest") and Pico headsets their model and system
//     ("PICO 4 OS5.9.2 like Quest");
//   - watches, whose model names say so ("SmartWatch 3", "LG Watch
//     Urbane", "G Watch R"), and Apple's watchOS;
//   - Tesla cars, whose browser is "QtCarBrowser" or adds "Tesla/<firmware>".
func (s *state) wearable() {
	p := s.p
	switch {
	case p.has(kwVRSafari) || p.has(kwMobileVR) || p.has(kwOculus) && !p.has(kwPico):
		s.devClass.set("Virtual Reality", confFamily)
		if (p.has(kwVRSafari) || p.has(kwOculus)) &&
			(s.devBrand.v == "" || s.devBrand.v == Unknown || s.devBrand.v == "Quest" || s.devBrand.v == "Pacific") {
			// Oculus headsets name only their code name ("Pacific",
			// "Quest 2"), which the generic rule took for a maker;
			// Wolvic's "Mobile VR" runs on headsets of many makers.
			if s.devBrand.v == "" || s.devBrand.v == Unknown {
				s.devName.set("Oculus", confFamily)
			}
			s.devBrand.set("Oculus", confFamily)
			for _, e := range p.entries {
				lt := p.ltext(e)
				if lt == "pacific" || lt == "quest" || strings.HasPrefix(lt, "quest ") {
					s.devName.set("Oculus "+normalizeName(p.text(e)), confFamily+1)
					break
				}
			}
		}
		s.picoHeadset()
	case p.has(kwWatchOS):
		if pr, ok := p.product("watchOS"); ok {
			s.setDevice(confFamily, "Watch", "Apple", "Apple Watch")
			s.os = osInfo{name: "watchOS", version: orUnknown(pr.version), class: "Mobile", cpu: s.os.cpu}
		}
	case p.has(kwWatch) && (s.os.name == "Android" || s.os.name == "Tizen"):
		lm := asciiLower(s.devName.v)
		if !strings.Contains(lm, "watch") {
			return
		}
		s.devClass.set("Watch", confFamily)
		if s.devBrand.v == "G" {
			// LG sold its first Android Wear watches as "G Watch".
			s.devBrand.set("LG", confFamily)
			s.devName.set("LG "+s.devName.v, confFamily)
		}
	case s.os.name == "Android" && len(p.products) > 0 && (p.products[0].name == "AlexaService" || p.products[0].name == "AlexaMediaPlayer"):
		// Amazon's voice assistant: its service on the Echo devices,
		// and the player that plays what it is asked for, on an Echo
		// or in the Alexa app of a phone, whose device it does not name.
		s.agClass.set("Voice", confFamily)
		if p.products[0].name == "AlexaService" {
			s.setDevice(confFamily, "Voice", "Amazon", "Amazon Alexa")
		}
	case p.has(kwQtCarBrowser) || p.has(kwTeslaSlash) && s.os.name == "Linux":
		s.setDevice(confFamily, "Car", "Tesla", "Tesla")
		if p.has(kwQtCarBrowser) {
			// The cars' own Qt browser, before Tesla moved to Chromium
			// ("Chromium/79 ... Tesla/2020.12"), gives no version of
			// its own: the Safari token after it is WebKit's.
			s.setAgent(confFamily, "Browser", "Tesla Browser", Unknown)
		}
	}
}

// picoHeadset reads the model and system of a Pico headset from its
// comment entry ("PICO 4 OS5.9.2 like Quest", "Pico Neo3 Link OS5.8.4.0
// like Quest").
func (s *state) picoHeadset() {
	p := s.p
	for _, e := range p.entries {
		lt := p.ltext(e)
		if !strings.HasPrefix(lt, "pico ") {
			continue
		}
		t := p.text(e)
		model, version := t[len("pico "):], ""
		if k := strings.Index(lt, " os"); k > 0 && k+3 < len(lt) && lt[k+3] >= '0' && lt[k+3] <= '9' {
			model = t[len("pico "):k]
			version = leadingVersion(t[k+3:])
		}
		s.devBrand.set("Pico", confFamily)
		s.devName.set("Pico "+normalizeName(strings.TrimSpace(model)), confFamily)
		if version != "" {
			s.os.name, s.os.version = "PICO OS", version
		}
		return
	}
}

// homeDevice recognises devices that name no operating system in the
// usual places: the PlayStation 3's own HTTP library ("PS3Application
// libhttp/4.8.5-000 (CellOS)"), Sonos speakers ("Linux UPnP/1.0
// Sonos/53.3-71050 (ZPS12)", the model code in the comment) and Amazon's
// Alexa voice service on Echo devices ("AlexaService/2.2 (Linux;Android 9)").
func (s *state) homeDevice() {
	p := s.p
	for _, e := range p.entries {
		if p.ltext(e) == "cellos" {
			s.setDevice(confFamily, "Game Console", "Sony", "Sony PlayStation 3")
			s.os = osInfo{name: "CellOS", version: Unknown, class: "Game Console", cpu: s.os.cpu}
			return
		}
	}
	if len(p.products) > 0 {
		first := p.products[0]
		switch {
		case strings.HasPrefix(first.lname, "android-") && len(first.name) > 8:
			// "Android-SAMSUNG-GT-I9060C/101.40404": the download manager
			// of Samsung's Android browser, with the phone's model; the
			// agent is that browser, on Android's WebKit.
			s.os = osInfo{name: "Android", version: Unknown, class: "Mobile", cpu: s.os.cpu}
			s.devClass.set("Mobile", confFamily)
			s.setAgent(confFamily, "Browser", "Stock Android Browser", cleanVersion(first.version))
			s.setEngine(confFamily, "Browser", "AppleWebKit", Unknown)
			if b, rest := brandOfModel(first.name[8:]); b != "" && rest != "" {
				s.devBrand.set(b, confFamily)
				s.devName.set(b+" "+normalizeName(rest), confFamily)
			}
			return
		case len(p.products) == 2 && len(p.products[1].name) == 1 && s.appPlatformDeviceFound():
			// "WhatsApp/2.2305.7 N": the app's letter names the platform
			// (tables/app_platforms.tsv).
			return
		case first.name == "MSFT-WP" && isVersionLike(first.version):
			// The system HTTP client of Windows Phone ("MSFT-WP/7.10.8860").
			s.os = osInfo{name: "Windows Phone", version: first.version, class: "Mobile", cpu: s.os.cpu}
			s.devClass.set("Phone", confFamily)
			return
		case first.name == "Echo" && len(p.products) == 1 && isVersionLike(first.version):
			// Amazon's Echo speakers fetch with a bare "Echo/1.0".
			s.os = osInfo{name: "FireOS", version: Unknown, class: "Mobile", cpu: s.os.cpu}
			s.setDevice(confFamily, "Voice", "Amazon", "Amazon Echo")
			return
		case strings.Contains(first.lname, "android") || strings.HasSuffix(first.lname, "-ios") || strings.Contains(first.lname, "-ios-"):
			// Apps named after their platform: "GeenStijlAndroidApp/2.0",
			// "MastodonAndroid/1.2.2", "Outlook-iOS/711.2587062.prod.iphone";
			// one named after both ("Outlook-iOS-Android") is only mobile.
			android := strings.Contains(first.lname, "android")
			ios := strings.HasSuffix(first.lname, "-ios") || strings.Contains(first.lname, "-ios-")
			s.devClass.set("Mobile", confFamily)
			switch {
			case android && ios:
				s.os.class = "Mobile"
			case android:
				s.os = osInfo{name: "Android", version: Unknown, class: "Mobile", cpu: s.os.cpu}
			default:
				s.os = osInfo{name: "iOS", version: Unknown, class: "Mobile", cpu: s.os.cpu}
				s.devBrand.set("Apple", confFamily)
				s.devName.set("Apple iOS Device", confFamily)
				switch lv := asciiLower(first.version); {
				case strings.Contains(lv, "iphone"):
					s.devClass.set("Phone", confFamily)
					s.devName.set("Apple iPhone", confFamily)
				case strings.Contains(lv, "ipad"):
					s.devClass.set("Tablet", confFamily)
					s.devName.set("Apple iPad", confFamily)
				}
			}
			return
		case strings.EqualFold(first.version, "android") && len(p.entries) == 0:
			// "member-react-native-application/android/1.11.12": an app
			// that names its platform where the version would be.
			s.os = osInfo{name: "Android", version: Unknown, class: "Mobile", cpu: s.os.cpu}
			s.devClass.set("Mobile", confFamily)
			return
		case len(p.entries) == 0 && (strings.EqualFold(first.version, "ios") || hasPrefixFold(first.version, "ios-") ||
			strings.HasSuffix(first.lname, ".ios")):
			// "BroadwayPodcastNetwork/iOS", "RadioPublic/iOS-2.0",
			// "Goodpods.iOS / 3.5.4": the same with Apple's system.
			s.os = osInfo{name: "iOS", version: Unknown, class: "Mobile", cpu: s.os.cpu}
			s.setDevice(confFamily, "Mobile", "Apple", "Apple iOS Device")
			return
		case len(p.entries) == 0 && (hasPrefixFold(first.version, "android-") || strings.HasSuffix(first.lname, ".android")):
			// "RadioPublic/android-2.2".
			s.os = osInfo{name: "Android", version: Unknown, class: "Mobile", cpu: s.os.cpu}
			s.devClass.set("Mobile", confFamily)
			return
		}
	}
	if len(p.products) >= 2 && p.products[0].name == "Spotify" && (p.products[1].name == "Win32" || p.products[1].name == "Win64") &&
		len(p.entries) > 0 && p.entries[0].block >= 0 {
		// "Spotify/112000510 Win32/0 (PC laptop)": Spotify's desktop
		// client names the platform and the kind of computer.
		s.os = osInfo{name: "Windows", version: Unknown, class: "Desktop", cpu: s.os.cpu}
		s.setDevice(confFamily, "Desktop", Unknown, normalizeName(p.text(p.entries[0])))
		return
	}
	if pr, ok := p.product("Sonos"); ok && isVersionLike(pr.version) {
		s.devBrand.set("Sonos", confFamily)
		s.devName.set("Sonos", confFamily)
		for _, e := range p.entries {
			// "(ZPS12)", the model code, or "(Play:3)", the name Sonos
			// sells its Play speakers under.
			if t := p.text(e); isModelNumber(t) || len(t) == 4 && isModelNumber(t+"-") || len(t) == 6 && strings.HasPrefix(t, "Play:") && isDigits(t[5:]) {
				s.devName.set("Sonos "+t, confFamily+1)
				break
			}
		}
		if _, ok := p.product("UPnP"); ok {
			// "Linux UPnP/1.0": the UPnP server of an embedded Linux.
			s.os = osInfo{name: "Linux", version: Unknown, class: "Embedded", cpu: s.os.cpu}
		}
	}
}

// reducedAndroid handles the reduced user agent of Chrome 110 and later
// (and the browsers built on it), which always sends "(Linux; Android 10;
// K)": the version is frozen, so it says nothing about the real system,
// and the model is hidden. Samsung Internet still names its maker.
func (s *state) reducedAndroid() {
	p := s.p
	for _, e := range p.entries {
		if p.text(e) == "Android 10" {
			s.os.version = Unknown
			break
		}
	}
	if _, ok := p.product("SamsungBrowser"); ok {
		s.devBrand.set("Samsung", confFamily)
		if s.devClass.v == "Phone" {
			s.devName.set("Samsung Phone", confFamily)
		} else {
			s.devName.set("Samsung Tablet", confFamily)
		}
	}
}

var (
	kwWPDesktop needleID
	kwFamilyHub needleID
	kwTVSafari  needleID
)

// wpDesktop handles Internet Explorer on Windows Phone 8 in its desktop
// mode: it claims a Windows NT desktop ("Windows NT 6.2; ARM; ...") but
// adds "WPDesktop" and then the phone's model ("Nokia 625H").
func (s *state) wpDesktop() {
	p := s.p
	version := Unknown
	switch s.os.version {
	case "6.2", "8":
		version = "8"
	case "6.3", "8.1":
		version = "8.1"
	}
	s.os = osInfo{name: "Windows Phone", version: version, class: "Mobile", cpu: s.os.cpu}
	s.setDevice(confFamily, "Phone", Unknown, "Generic Windows Phone")
	for i, e := range p.entries {
		if p.ltext(e) != "wpdesktop" || i+1 >= len(p.entries) || p.entries[i+1].block != e.block {
			continue
		}
		model := p.text(p.entries[i+1])
		if b, rest := brandOfModel(model); b != "" {
			s.devBrand.set(b, confFamily)
			s.devName.set(b, confFamily)
			if rest != "" {
				s.devName.set(b+" "+normalizeName(rest), confFamily)
			}
		}
		return
	}
}

// tizenDevice completes the devices of Samsung's Tizen: phones, watches,
// televisions and the Family Hub refrigerators are all Samsung's; a Tizen
// that names no model and no mobile browser is an embedded device.
func (s *state) tizenDevice() {
	p := s.p
	if s.devBrand.v == "" || s.devBrand.v == Unknown {
		s.devBrand.set("Samsung", confFamily)
	}
	if lm := asciiLower(s.devName.v); strings.HasPrefix(lm, "samsung sm-r5") || strings.HasPrefix(lm, "samsung sm-r6") ||
		strings.HasPrefix(lm, "samsung sm-r7") || strings.HasPrefix(lm, "samsung sm-r8") || strings.HasPrefix(lm, "samsung sm-r9") {
		// The Galaxy Watch Active (SM-R5), the Gear Sport (SM-R6), the
		// Gear S and the Galaxy Watch models.
		s.devClass.set("Watch", confFamily)
		return
	}
	if s.devClass.v == "TV" || p.has(kwTVSafari) {
		s.devClass.set("TV", confFamily)
		s.devName.set("Samsung Smart TV", confFamily)
		s.os.class = "Embedded"
		return
	}
	if p.has(kwFamilyHub) {
		s.devClass.set("Home Appliance", confFamily)
		if !s.mobile {
			s.os.class = "Embedded"
		}
		return
	}
	if s.devName.v == "" || s.devName.v == Unknown {
		s.devName.set("Samsung Tizen Device", confFamily)
		if !s.mobile && !s.tablet && s.devClass.v == "Phone" {
			s.devClass.set(Unknown, confFamily)
			s.os.class = "Embedded"
		}
	}
}

// appleProduct reads the "Apple-iPhone3C1/1104.257" products of Apple's
// own system services: the device kind and its hardware revision.
func (s *state) appleProduct() {
	p := s.p
	if strings.HasPrefix(p.low, "appletv") {
		// "AppleTV11,1/11.1": the Apple TV's own services name the
		// hardware and the tvOS release.
		if k := strings.IndexByte(p.ua, '/'); k > 0 && k < 16 {
			if v := leadingVersion(p.ua[k+1:]); v != "" {
				s.setDevice(confFamily, "Set-top box", "Apple", "Apple TV")
				s.os = osInfo{name: "tvOS", version: v, class: "Mobile", cpu: s.os.cpu}
				return
			}
		}
	}
	if len(p.products) == 0 || !strings.HasPrefix(p.products[0].lname, "apple-i") && !strings.HasPrefix(p.products[0].lname, "apple i") {
		return
	}
	ln := p.products[0].lname[len("apple-"):]
	version := Unknown
	if k := strings.Index(ln, " ios "); k > 0 && isVersionLike(ln[k+5:]) {
		// "Apple iPhone iOS 13.3.1": the device, the system and its version.
		version = leadingVersion(ln[k+5:])
	}
	switch {
	case strings.HasPrefix(ln, "iphone"):
		s.devClass.set("Phone", confFamily)
		s.devName.set("Apple iPhone", confFamily)
	case strings.HasPrefix(ln, "ipod"):
		// Every iPod that runs iOS is an iPod touch.
		s.devClass.set("Phone", confFamily)
		s.devName.set("Apple iPod Touch", confFamily)
	case strings.HasPrefix(ln, "ipad"):
		s.devClass.set("Tablet", confFamily)
		s.devName.set("Apple iPad", confFamily)
	default:
		return
	}
	s.devBrand.set("Apple", confFamily)
	s.os = osInfo{name: "iOS", version: version, class: "Mobile", cpu: s.os.cpu}
}

// deviceFamilies applies what a maker's naming says about the kind of
// device or its maker beyond the brand:
//   - Samsung's tablets are the GT-P, GT-N80xx, SM-T, SM-P and SM-X models,
//     Lenovo's the TB models ("TB-8704F", "TB3-X70F");
//   - Google Glass is an augmented reality headset;
//   - Palm's webOS phones add their model as a product ("Pre/1.0"), HP's
//     TouchPad tablet says "hp-tablet";
//   - Panasonic's Viera televisions name the set only;
func (s *state) deviceFamilies() {
	p := s.p
	if s.os.name == "Android" || s.os.name == "Maemo" {
		if pr, ok := p.product("SailfishBrowser"); ok && pr.name == "SailfishBrowser" {
			// Jolla's Sailfish OS runs Android apps and grew out of
			// Maemo; its own browser says which system it really is.
			v, _ := p.entryVersion("sailfish ")
			s.os.name, s.os.version = "Sailfish", orUnknown(leadingVersion(v))
			s.devClass.set("Phone", confFamily)
		}
	}
	switch s.os.name {
	case "Android":
		if s.devName.v == "Android Mobile" && len(p.entries) > 0 && p.ltext(p.entries[0]) == "fban/fb4a" {
			s.facebookAndroid(true)
		}
		for _, e := range p.entries {
			// "Screen Size phone", "Screen Size 10" tablet": apps that
			// say what kind of screen they run on.
			lt := p.ltext(e)
			if s.devClass.v == "Mobile" && (lt == "mobile2.0" || lt == "tablet2.0") {
				// "(compatible; Mobile2.0)", "(compatible; Tablet2.0)".
				s.devClass.set("Tablet", confFamily)
				if lt[0] == 'm' {
					s.devClass.set("Phone", confFamily+1)
				}
			}
			if strings.HasPrefix(lt, "screen size ") {
				switch {
				case strings.HasSuffix(lt, "phone"):
					s.devClass.set("Phone", confFamily)
				case strings.HasSuffix(lt, "tablet"):
					s.devClass.set("Tablet", confFamily)
				}
			}
		}
		// Only a browser's guess of "Phone" (from "Mobile Safari") is
		// corrected; apps that say nothing of the screen stay "Mobile".
		if s.devClass.v == "Phone" {
			// The model without the brand, compared without case and
			// without copying: this runs for every Android phone.
			m := s.devName.v
			if len(m) > len(s.devBrand.v) && m[len(s.devBrand.v)] == ' ' && strings.HasPrefix(m, s.devBrand.v) {
				m = m[len(s.devBrand.v)+1:]
			}
			pre := func(prefixes ...string) bool {
				for _, x := range prefixes {
					if asciiHasPrefixLower(m, x) {
						return true
					}
				}
				return false
			}
			switch {
			case s.devBrand.v == "Samsung" && pre("gt-p", "gt-n80", "sm-t", "sm-p", "sm-x"):
				s.devClass.set("Tablet", confFamily)
			case pre("tb-") || strings.Contains(m, " TB-") || strings.Contains(m, " tb-") ||
				len(m) > 4 && pre("tb") && m[2] >= '0' && m[2] <= '9' && m[3] == '-':
				s.devClass.set("Tablet", confFamily)
			case s.devBrand.v == "Samsung" && pre("sm-r7", "sm-r8", "sm-r9"):
				// The Gear S and Galaxy Watch models.
				s.devClass.set("Watch", confFamily)
			case s.devBrand.v == "Google" && pre("glass"):
				// The first Glass releases named their own Android based
				// system by its "XE" (Explorer Edition) number ("; XE7)").
				s.devClass.set("Augmented Reality", confFamily)
				for _, e := range p.entries {
					if t := p.text(e); len(t) > 2 && t[0] == 'X' && t[1] == 'E' && isDigits(t[2:]) {
						s.os.name, s.os.class, s.os.version = "Glass OS", "Augmented Reality", t[2:]
					}
				}
			case len(m) > 3 && pre("mid") && (m[3] >= '0' && m[3] <= '9' || m[3] == '-' || m[3] == ' '):
				// "MID713": a Mobile Internet Device, the generic tablets.
				s.devClass.set("Tablet", confFamily)
			}
		}
	case "WebOS":
		if s.devBrand.v == "" || s.devBrand.v == Unknown {
			for _, e := range p.entries {
				if p.ltext(e) == "hp-tablet" {
					s.setDevice(confFamily, "Tablet", "HP", "HP TouchPad")
					if _, ok := p.entryVersion("hpwos/"); ok {
						s.os.name = "HP WebOS" // HP's own name for webOS 3
					}
					return
				}
			}
			for _, name := range [...]string{"Pre", "Pixi", "Veer"} {
				if pr, ok := p.product(name); ok && pr.name == name {
					s.devBrand.set("Palm", confFamily)
					s.devName.set("Palm "+normalizeName(name), confFamily)
					return
				}
			}
		}
	}
	if s.devClass.v == "TV" && (s.devBrand.v == "" || s.devBrand.v == Unknown) && p.has(kwViera) {
		s.devBrand.set("Panasonic", confFamily)
		s.devName.set("Panasonic Viera", confFamily)
	}
}

// amazonDevice completes an Amazon device from its model code: AFT... are
// the Fire TV players, AEO... the Echo Show smart displays, the others
// Fire tablets (and the Fire Phone). They run Fire OS, whose version
// Amazon bases on an Android release: Fire OS 7 on Android 9, Fire OS 8
// on Android 11; the older ones are reported with the Android version.
func (s *state) amazonDevice(model string) {
	s.os.name = "FireOS"
	um := strings.ToUpper(model)
	if d, ok := amazonDevices[um]; ok {
		// A model code of tables/amazon_devices.tsv names the product
		// (and, for televisions that run Fire OS, its maker).
		s.setDevice(confTable, d.class, d.brand, amazonDeviceName(s.p, d.brand, d.name))
	}
	switch {
	case strings.HasPrefix(um, "AFT"):
		s.devClass.set("Set-top box", confFamily)
	case strings.HasPrefix(um, "AEO"):
		s.devClass.set("Smart Display", confFamily)
	case !strings.Contains(um, "PHONE"):
		s.devClass.set("Tablet", confFamily)
	}
	switch versionMajor(s.os.version) {
	case "9":
		s.os.version = "7"
	case "11":
		s.os.version = "8"
	}
}

// amazonDeviceName writes the product name of a row of
// tables/amazon_devices.tsv as a device name: after its brand, unless it
// starts with it, and with the capitals of device names ("1st Gen" is
// "1ST GEN"); a dash between spaces joins the words beside it, as Yauaa
// shows these names ("Fire TV - 1st Gen" is "Fire TV-1ST GEN").
func amazonDeviceName(p *parsed, brand, name string) string {
	if !hasPrefixFold(name, brand) {
		name = brand + " " + name
	}
	return normalizeNameIn(p, strings.ReplaceAll(name, " - ", "-"))
}

// windowsPhoneVendor reads the maker and model of a Windows phone whose
// browser is not Internet Explorer Mobile: "(Windows Phone 10.0; Android
// 4.2.1; Microsoft; RM-1092)" names the maker, then the model, while apps
// in an emulation layer name only the model ("RM-1089_1038").
func (s *state) windowsPhoneVendor() {
	p := s.p
	for i, e := range p.entries {
		t := p.text(e)
		vendor := ""
		switch lt := p.ltext(e); lt {
		case "microsoft":
			vendor = "Microsoft"
		default:
			if b, ok := knownBrand(t); ok {
				vendor = b
			}
		}
		if vendor != "" {
			if i+1 < len(p.entries) && p.entries[i+1].block == e.block {
				if m := p.text(p.entries[i+1]); isModelNumber(m) || strings.ContainsAny(m, "0123456789") && len(m) < 30 {
					s.devBrand.set(vendor, confFamily)
					s.devName.set(vendor+" "+normalizeName(strings.TrimPrefix(m, vendor+" ")), confFamily)
					return
				}
			}
			continue
		}
		if b, rest := brandOfModel(t); b != "" && rest != "" && !hasPrefixFold(t, b) && strings.ContainsAny(t, "0123456789") {
			s.devBrand.set(b, confFamily)
			s.devName.set(b+" "+normalizeName(rest), confFamily)
			return
		}
	}
}

// systemFromEntries reads the systems that only their comment entry
// announces: UC Browser's abbreviation "Adr 7.0" of Android, and
// OpenHarmony with the kind of device before it ("(Phone; OpenHarmony
// 5.0)").
func (s *state) systemFromEntries() {
	p := s.p
	for i, e := range p.entries {
		lt := p.ltext(e)
		switch {
		case lt == "fban/fb4a":
			s.facebookAndroid(false)
			return
		case strings.Contains(lt, " android:"):
			// "(LenovoTB-X606X_EEA:mt8768 Android:29)": the API level.
			k := strings.Index(lt, " android:") + len(" android:")
			end := k
			for end < len(lt) && lt[end] >= '0' && lt[end] <= '9' {
				end++
			}
			if v := androidAPILevel(lt[k:end]); v != "" {
				s.os = osInfo{name: "Android", version: v, class: "Mobile", cpu: s.os.cpu}
				return
			}
		case strings.HasPrefix(lt, "cpu android "):
			// "(Samsung SMJ200M; CPU Android 5.1.1; ...)", the iOS layout
			// ("CPU iPhone OS 12_0") copied by an app; Yauaa keeps the
			// version unknown there.
			s.os = osInfo{name: "Android", version: Unknown, class: "Mobile", cpu: s.os.cpu}
			return
		case strings.HasPrefix(lt, "adr ") && isVersionLike(lt[4:]):
			s.os = osInfo{name: "Android", version: leadingVersion(lt[4:]), class: "Mobile", cpu: s.os.cpu}
			return
		case strings.HasPrefix(lt, "openharmony ") && isVersionLike(lt[len("openharmony "):]):
			s.os = osInfo{name: "OpenHarmony", version: leadingVersion(lt[len("openharmony "):]), class: "Mobile", cpu: s.os.cpu}
			if i > 0 && p.entries[i-1].block == e.block {
				switch p.ltext(p.entries[i-1]) {
				case "phone":
					s.devClass.set("Phone", confFamily)
				case "tablet":
					s.devClass.set("Tablet", confFamily)
				}
			}
			return
		}
	}
}

// facebookAndroid reads the device fields of the Facebook app for Android
// when it sends only its own bracket ("[FBAN/FB4A;...;FBMF/samsung;
// FBDV/SM-G970U;FBSV/12;...]"): the maker (FBMF), the model (FBDV) and
// the Android release (FBSV).
//
// It sets the system first (device false), before the Android rules run,
// and the device once they found no model (device true).
func (s *state) facebookAndroid(device bool) {
	p := s.p
	maker, model, version := "", "", ""
	for _, e := range p.entries {
		t := p.text(e)
		if len(t) < 6 || t[4] != '/' {
			continue
		}
		switch p.ltext(e)[:5] {
		case "fbmf/":
			maker = t[5:]
		case "fbdv/":
			model = t[5:]
		case "fbsv/":
			version = t[5:]
		}
	}
	if !device {
		if isVersionLike(version) {
			s.os = osInfo{name: "Android", version: version, class: "Mobile", cpu: s.os.cpu}
		}
		return
	}
	if model == "" {
		return
	}
	b, rest := brandOfModel(model)
	if b == "" {
		if kb, ok := knownBrand(maker); ok {
			b, rest = kb, model
		}
	}
	if b != "" && rest != "" {
		s.devBrand.set(b, confFamily)
		s.devName.set(b+" "+normalizeName(rest), confFamily)
	}
}

// hasWordFold reports whether s contains word, in any case, as a whole
// space separated word ("Mi Box S" has "box", "Onyx Boox" has not).
func hasWordFold(s, word string) bool {
	for w := range strings.FieldsSeq(s) {
		if strings.EqualFold(w, word) {
			return true
		}
	}
	return false
}

// symbianGeneric handles Nokia's S60 3rd edition browser (SymbianOS 9,
// "Series60/3.1 NokiaN95/10.0.018" inside the comment), whose phone Yauaa
// reports as the generic "Nokia Symbian Phone".
func (s *state) symbianGeneric() {
	p := s.p
	for _, e := range p.entries {
		if lt := p.ltext(e); strings.HasPrefix(lt, "series60/3.") && strings.Contains(lt, " nokia") {
			s.devName.set("Nokia Symbian Phone", confFamily)
			return
		}
	}
}

// palmPDA names the handhelds of Palm OS: personal digital assistants
// rather than phones, named by the model the browser writes after "Palm-"
// ("PalmSource/Palm-TunX", "WebPro/3.5; Palm-Zi72"), else after their
// product line when the browser says it ("Tungsten Proxyless 1.1"),
// otherwise "Palm OS PDA".
func (s *state) palmPDA() {
	p := s.p
	s.setDevice(confFamily, "Mobile", "Palm", "Palm OS PDA")
	for _, e := range p.entries {
		t := p.text(e)
		if k := strings.IndexByte(t, '/'); k > 0 && strings.EqualFold(t[:k], "PalmSource") {
			t = t[k+1:]
		}
		if len(t) > 5 && hasPrefixFold(t, "palm-") && isAlnumByte(t[5]) {
			s.devName.set("Palm "+normalizeName(t[5:]), confFamily+2)
			return
		}
	}
	for _, e := range p.entries {
		lt := p.ltext(e)
		for _, line := range [...]string{"tungsten", "treo", "zire", "centro"} {
			if strings.HasPrefix(lt, line) {
				s.devName.set("Palm "+capitalize(line), confFamily+1)
				return
			}
		}
	}
}

// windowsOEM finds the entry in which a computer maker marks the Windows
// it preinstalled and returns the maker, the model code that may follow in
// the next entry ("HPNTDFJS; H9P") and, for Hewlett-Packard and Compaq,
// whose codes are six letters ("HPNTDF", "CPDTDF"), the kind of machine
// the last four name ("NTDF").
func windowsOEM(p *parsed) (brand, model, kind string) {
	for i, e := range p.entries {
		t := p.text(e)
		if len(t) != 4 && len(t) != 6 && len(t) != 8 || !allAlnum(t) || strings.ToUpper(t) != t {
			continue
		}
		switch {
		case len(t) >= 6 && strings.HasPrefix(t, "HP") && (strings.HasSuffix(t[:6], "TDF") || strings.HasPrefix(t, "HPCM")):
			brand, kind = "HP", t[2:6]
		case len(t) >= 6 && (strings.HasPrefix(t, "CM") || strings.HasPrefix(t, "CP")) && strings.HasSuffix(t[:6], "TDF"):
			brand, kind = "Compaq", t[2:6]
		case windowsOEMs[t] != "":
			// A whole code of the table ("NP06", "MASBJS").
			brand = windowsOEMs[t]
		case len(t) <= 6 && windowsOEMs[t[:4]] != "":
			// The maker's four letters, whatever the edition after them.
			brand = windowsOEMs[t[:4]]
		default:
			continue
		}
		if i+1 < len(p.entries) && p.entries[i+1].block == e.block {
			// (The code written twice, "NP07; NP07", names no model.)
			if m := p.text(p.entries[i+1]); len(m) >= 2 && len(m) <= 5 && isModelCode(m) && m != t {
				model = m
			}
		}
		return brand, model, kind
	}
	return "", "", ""
}

// windowsOEMDevice names a Windows computer after the maker's code:
// "HP H9P" with a model, "HP Ntdf" with only HP's kind of machine, else
// "<Maker> Desktop" or "<Maker> Tablet".
func (s *state) windowsOEMDevice() {
	b, model, kind := windowsOEM(s.p)
	switch {
	case b == "":
		return
	case model != "":
		s.devName.set(b+" "+model, confFamily)
	case b == "HP" && kind != "":
		s.devName.set("HP "+normalizeName(kind), confFamily)
	case s.devClass.v == "Tablet":
		s.devName.set(b+" Tablet", confFamily)
	default:
		s.devName.set(b+" Desktop", confFamily)
	}
	s.devBrand.set(b, confFamily)
}

// smartTVWord reports "SmartTV" as a word of its own ("Linux/SmartTV",
// "SmartTV Safari", "SmartTV/7.0"). "SmartTvA/3.0.0" is a portal API that
// also set-top boxes and other devices announce, not a television.
func smartTVWord(p *parsed) bool {
	i := p.index(kwSmartTV)
	for i >= 0 {
		if end := i + len("smarttv"); end >= len(p.low) || p.low[end] != 'a' {
			return true
		}
		next := strings.Index(p.low[i+len("smarttv"):], "smarttv")
		if next < 0 {
			return false
		}
		i += len("smarttv") + next
	}
	return false
}

var kwRaspbian needleID

// linuxDevice recognises the Linux devices that are not desktops: the
// Raspberry Pi, whose Raspbian system its Chromium names ("Raspbian
// Chromium/72.0"), and Ubuntu Touch phones, which say "Ubuntu 15.04 like
// Android 4.4" and run a mobile browser.
func (s *state) linuxDevice() {
	p := s.p
	if p.has(kwRaspbian) {
		s.devBrand.set("Raspberry", confFamily)
		s.devName.set("Raspberry PI", confFamily)
		s.os.name = "Raspbian"
		return
	}
	if s.os.name == "Ubuntu" && s.mobile {
		for _, e := range p.entries {
			if lt := p.ltext(e); strings.HasPrefix(lt, "ubuntu ") && strings.Contains(lt, " like android") {
				s.devClass.set("Phone", confFamily)
				s.devName.set("Linux Mobile", confFamily)
				s.os.name, s.os.class = "Ubuntu Touch", "Mobile"
				return
			}
		}
	}
}
