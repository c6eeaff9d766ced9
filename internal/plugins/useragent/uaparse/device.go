package uaparse

import "strings"

// detectDevice derives the device from the operating system and the model
// named in the comment.
func (s *state) detectDevice() {
	p := s.p
	s.devCPU.set(s.os.cpu, confGeneric)
	if s.os.cpu == "" {
		// Tags that name a processor outside the comment entries the
		// system rules read, or in other spellings (tables/cpu_words.tsv),
		// one above the system's empty reading.
		if c := s.cpuFromWords(); c != "" {
			s.devCPU.set(c, confGeneric+1)
		}
	}
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
		s.devBrand.set("Apple", confGeneric)
		switch {
		case p.has(kwAppleTV) || p.has(kwAppleTV2):
			// The Apple TV runs tvOS, a variant of iOS with the same
			// version numbers.
			s.devClass.set("Set-top box", confGeneric)
			s.devName.set("Apple TV", confGeneric)
			s.os.name = "tvOS"
		case p.has(kwIPad):
			s.devClass.set("Tablet", confGeneric)
			s.devName.set("Apple iPad", confGeneric)
		case p.has(kwIPodTouch):
			s.devClass.set("Phone", confGeneric)
			s.devName.set("Apple iPod Touch", confGeneric)
		case p.has(kwIPod):
			s.devClass.set("Phone", confGeneric)
			s.devName.set("Apple iPod", confGeneric)
		case p.has(kwIPhone) && (p.has(kwIPhoneOS) || p.has(kwIPhoneOSNoSpace) || p.iphoneWord()) || p.ucIPhone():
			s.devClass.set("Phone", confGeneric)
			s.devName.set("Apple iPhone", confGeneric)
		default:
			s.devClass.set("Mobile", confGeneric)
			s.devName.set("Apple iOS Device", confGeneric)
		}
		if pr, ok := p.product("Mobile"); ok && pr.version != "" {
			s.devFirmware.set(pr.version, confGeneric)
		}
	case "watchOS":
		s.setDevice(confGeneric, "Watch", "Apple", "Apple Watch")
	case "Mac OS":
		s.setDevice(confGeneric, "Desktop", "Apple", "Apple Macintosh")
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
		s.setDevice(confGeneric, "Desktop", Unknown, "Desktop")
		if p.has(kwARMSemi) || p.has(kwTabletPC) {
			s.devClass.set("Tablet", confProduct)
		}
		if p.has(kwTabletPC) && !p.has(kwTouch) {
			// "Tablet PC 2.0": the pen input of a Windows tablet.
			s.devClass.set("Tablet", confProduct)
			s.devName.set("Tablet PC", confProduct)
		}
		if s.os.name == "Windows NT" && p.has(kwWPDesktop) {
			s.wpDesktop()
		} else {
			s.windowsOEMDevice()
		}
		if p.has(kwARMSemi) {
			s.lumiaDesktopMode()
		}
		if p.has(kwXbox) {
			s.setDevice(confProduct, "Game Console", "Microsoft", "Microsoft Xbox")
			s.os.class = "Game Console"
		}
	case "Chrome OS":
		s.setDevice(confGeneric, "Desktop", Unknown, "Chromebook")
	case "Linux", "Ubuntu", "Kubuntu", "Xubuntu", "Lubuntu", "Linux Mint", "Fedora", "Debian", "Gentoo Linux", "Mageia",
		"SUSE", "CentOS", "Red Hat", "Arch Linux", "Mandriva", "Slackware", "Manjaro", "Sabayon", "Ordissimo":
		if s.ucOperaMiniPhone() {
			s.androidDevice()
			break
		}
		s.setDevice(confGeneric, "Desktop", Unknown, "Linux Desktop")
		if s.os.name == "Ordissimo" {
			// Ordissimo sells its system only on the computers it
			// makes for older people, so the system names the maker.
			s.devBrand.set("Ordissimo", confProduct)
		}
		s.linuxDevice()
	case "Ubuntu Touch":
		s.setDevice(confGeneric, "Phone", Unknown, "Linux Mobile")
		if s.tablet {
			s.devClass.set("Tablet", confGeneric)
		}
	case "Raspbian":
		// The Raspberry Pi foundation's own distribution.
		s.setDevice(confGeneric, "Desktop", "Raspberry", "Raspberry PI")
	case "FreeBSD", "OpenBSD", "NetBSD", "DragonFly BSD", "SunOS", "Solaris", "IRIX", "AIX", "HP-UX", "BeOS/Haiku", "RISC OS", "OS/2",
		"MorphOS", "AmigaOS", "UNIX BSD/SYSV", "illumOS", "OSF1":
		s.setDevice(confGeneric, "Desktop", Unknown, "Desktop")
		if d, ok := unixDesktops[s.os.name]; ok {
			s.devName.set(d.name, confProduct)
			if d.brand != "" {
				s.devBrand.set(d.brand, confProduct)
			}
		}
	case "Windows Phone", "Windows Mobile":
		s.setDevice(confGeneric, "Phone", Unknown, "Generic Windows Phone")
		s.windowsPhoneModel()
		if s.devBrand.v == Unknown {
			s.windowsPhoneVendor()
		}
	case "Windows CE":
		s.setDevice(confGeneric, "Mobile", Unknown, "Mobile")
	case "Android":
		s.androidDevice()
		if s.devBrand.v == "Google" && strings.HasPrefix(s.devName.v, "Google Glass") {
			s.devClass.set("Augmented Reality", confProduct)
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
		s.setDevice(confGeneric, "Mobile", Unknown, "Fuchsia Device")
	case "BlackBerry":
		s.setDevice(confGeneric, "Phone", "BlackBerry", "BlackBerry 10")
	case "RIM OS":
		// The model ("BlackBerry 9900") is read by deviceFromTokens.
		s.devClass.set("Phone", confGeneric)
		if len(p.products) > 0 && p.products[0].lname == "ucweb" {
			for _, e := range p.entries {
				// UC Browser's compact format writes the model number
				// and the firmware last: "UCWEB/2.0(BlackBerry; U;
				// 9.105.0.16; en-us; 9720/9.105.0.16)".
				if m, _, ok := strings.Cut(p.text(e), "/"); ok && len(m) == 4 && isDigits(m) {
					s.setDevice(confProduct, "Phone", "BlackBerry", "BlackBerry "+m)
				}
			}
		}
	case "RIM Tablet OS":
		s.setDevice(confGeneric, "Tablet", "BlackBerry", "BlackBerry PlayBook")
	case "HarmonyOS", "Sailfish":
		if p.has(kwAndroid) {
			// These systems also announce Android, in its layout, with
			// the model where Android puts it.
			s.androidDevice()
			break
		}
		s.devClass.set("Phone", confGeneric)
		if s.tablet {
			s.devClass.set("Tablet", confGeneric)
		}
	case "WebOS", "HP WebOS":
		// Palm's and then HP's system: the model is the product after
		// Safari ("Safari/525.27.1 Pre/1.0", "TouchPad/1.0").
		s.devClass.set("Phone", confGeneric)
		s.devBrand.set("Palm", confGeneric)
		if s.os.name == "HP WebOS" {
			s.devBrand.set("HP", confProduct)
		}
		if strings.Contains(p.low, "touchpad") || strings.Contains(p.low, "hp-tablet") {
			s.devClass.set("Tablet", confProduct)
		}
		if n := len(p.products); n > 1 && strings.EqualFold(p.products[n-2].lword, "safari") && isVersionLike(p.products[n-1].version) &&
			p.products[n-1].name != "" && isLetter(p.products[n-1].name[0]) {
			s.devName.set(s.devBrand.v+" "+normalizeName(p.products[n-1].name), confGeneric)
		}
	case "PalmOS":
		s.palmPDA()
	case "tvOS":
		s.setDevice(confGeneric, "Set-top box", "Apple", "Apple TV")
	case "PICO OS":
		s.setDevice(confGeneric, "Virtual Reality", "Pico", "Pico")
		for _, e := range p.entries {
			if lt := p.ltext(e); strings.HasPrefix(lt, "pico ") {
				if k := picoOSAt(lt); k > 5 {
					s.devName.set("Pico "+normalizeName(p.text(e)[5:k]), confProduct)
				}
				break
			}
		}
	case "Roku OS":
		s.setDevice(confGeneric, "Set-top box", "Roku", "Roku")
		if strings.HasPrefix(s.os.version, "DVP") {
			s.devName.set("Roku Digital Video", confGeneric)
		}
	case "Maemo":
		// Maemo 5, with Firefox for mobile, ran on Nokia's N900.
		s.setDevice(confGeneric, "Phone", "Nokia", "Nokia N900")
	case "KaiOS", "Tizen", "SymbianOS", "Symbian", "Bada", "Firefox OS", "OpenHarmony", "MeeGo":
		s.devClass.set("Phone", confGeneric)
		if s.tablet {
			s.devClass.set("Tablet", confGeneric)
		}
		if s.os.name == "OpenHarmony" && len(p.entries) > 0 {
			// OpenHarmony's first entry is the kind of device: "(Phone;
			// OpenHarmony 5.0)", "(PC; OpenHarmony 6.1; ...)", and
			// "(2in1;OpenHarmony-6.0.2.130;HAD-W24)" for a laptop that
			// folds into a tablet.
			switch p.ltext(p.entries[0]) {
			case "pc", "2in1":
				s.devClass.set("Desktop", confProduct)
			case "tablet":
				s.devClass.set("Tablet", confProduct)
			}
		}
	case "Nintendo":
		s.setDevice(confGeneric, "Game Console", "Nintendo", "Nintendo")
		s.gameConsole()
	case "CellOS":
		// CellOS runs on the PlayStation 3 only; a later console that
		// the entry names is read by gameConsole.
		s.setDevice(confGeneric, "Game Console", "Sony", "Sony PlayStation 3")
		s.gameConsole()
	default:
		if s.os.linux {
			s.setDevice(confGeneric, "Desktop", Unknown, "Linux Desktop")
		}
	}
	if s.os.name == "Linux" && !p.has(kwOculus) && !p.has(kwVRSafari) {
		if _, ok := p.product("SamsungBrowser"); ok {
			// Samsung Internet in its desktop mode, which only its tablet
			// version offers, sends a desktop Linux platform.
			s.setDevice(confProduct, "Tablet", "Samsung", "Samsung Tablet")
			s.os = osInfo{name: "Android", version: Unknown, class: "Mobile", cpu: s.os.cpu}
		}
	}
	s.eReader()
	s.wearable()
	if s.os.name == "" {
		s.homeDevice()
		if s.devClass.v == "" {
			s.gameConsole()
		}
		s.appleProduct()
		s.appleHardware()
	}
	if s.os.name == "iOS" && (s.os.version == "" || s.os.version == Unknown) {
		s.os.version = s.fbIOSRelease()
	}
	s.deviceFamilies()
	if s.devClass.v == "Desktop" || s.devClass.v == "" {
		_, silk := p.product("Silk")
		if !silk {
			_, silk = p.entryVersion("silk/")
		}
		if silk {
			// Amazon's Silk browser runs only on Fire tablets and TVs; in
			// its desktop mode it sends a Linux or Mac desktop platform.
			s.setDevice(confProduct, "Tablet", "Amazon", "Amazon Kindle Fire")
			s.os = osInfo{name: "FireOS", version: Unknown, class: "Mobile", cpu: s.os.cpu}
		}
	}
	if s.os.name == "" {
		switch {
		case s.tablet && s.mozilla:
			s.devClass.set("Tablet", confGeneric)
			s.os = osInfo{name: "Firefox OS", version: firefoxOSVersion(s.engVersion.v), class: "Mobile"}
		case s.mobile && s.mozilla && s.engName.v == "Gecko":
			s.devClass.set("Phone", confGeneric)
			s.os = osInfo{name: "Firefox OS", version: firefoxOSVersion(s.engVersion.v), class: "Mobile"}
		}
	}
	s.tvDevice()
	s.starboardDevice()
	if s.devClass.v == "" {
		s.featurePhone()
	}
	switch s.devClass.v {
	case "", "Phone", "Mobile", "Tablet":
		if (s.devBrand.v == "" || s.devBrand.v == Unknown) && s.os.name != "Fuchsia" {
			s.deviceFromTokens()
		}
	}
	if (s.os.name == "KaiOS" || s.os.name == "Firefox OS") && (s.devName.v == "" || s.devName.v == Unknown) {
		s.geckoPhoneModel()
	}
	if s.os.name == "Tizen" {
		s.tizenDevice()
	}
	if s.os.name == "SymbianOS" && s.devBrand.v == "Nokia" {
		s.symbianGeneric()
	}
	if s.os.name == "Maemo" && (s.devBrand.v == "" || s.devBrand.v == Unknown) && strings.EqualFold(s.os.cpu, "armv7l") {
		// Maemo 5 ran on one ARMv7 device only, Nokia's N900.
		s.devBrand.set("Nokia", confGeneric)
		s.devName.set("Nokia N900", confGeneric)
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
	// A brand with a model wins; only if none is found does a bare brand
	// ("(SAMSUNG; ...)", "OPPO") count, the first one in the order of the
	// search. One pass finds both: a second pass for the bare brand would
	// repeat every test of the first, which set nothing.
	bare := ""
	try := func(tok string) bool {
		tok = trimSpaceSemicolonComma(tok)
		if len(tok) < 3 || !startsWithBrand(tok) || hasSuffixFold(tok, "browser") || hasSuffixFold(tok, "toolbar") {
			return false
		}
		b, rest := brandOfModel(tok)
		if b == "" || !hasPrefixFold(tok, b) {
			return false
		}
		rest = cutSpaceDash.trim(rest)
		if rest == "" || strings.EqualFold(rest, b) {
			if bare == "" {
				bare = b
			}
			return false
		}
		s.devBrand.set(b, confProduct)
		s.devName.set(b+" "+normalizeName(rest), confProduct)
		return true
	}
	for _, e := range p.entries {
		t := p.text(e)
		if k := strings.IndexByte(t, '/'); k > 0 {
			// "LYF/F101K/LYF-F101K-000-01-39-130818": the maker, the
			// model and the firmware, each after a slash.
			if b, ok := knownBrand(strings.TrimLeft(t[:k], "$")); ok {
				if m, _, _ := strings.Cut(t[k+1:], "/"); m != "" && strings.IndexByte(t[k+1:], '/') > 0 {
					s.devBrand.set(b, confProduct)
					s.devName.set(b+" "+m, confProduct)
					return
				}
			}
			t = t[:k]
		}
		if try(t) {
			return
		}
		// The words between spaces and slashes, as
		// strings.FieldsFunc splits them (both bytes are ASCII, so
		// no UTF-8 sequence holds one), without its iterator.
		txt := p.text(e)
		for j := 0; j < len(txt); {
			for j < len(txt) && (txt[j] == ' ' || txt[j] == '/') {
				j++
			}
			k := j
			for k < len(txt) && txt[k] != ' ' && txt[k] != '/' {
				k++
			}
			if k > j && try(txt[j:k]) {
				return
			}
			j = k
		}
	}
	for _, pr := range p.products {
		for w := range strings.FieldsSeq(pr.name) {
			if try(w) {
				return
			}
		}
	}
	if bare != "" {
		s.devBrand.set(bare, confProduct)
		if s.devName.v == "" || s.devName.v == Unknown {
			s.devName.set(bare, confProduct)
		}
	}
}

// geckoPhoneModel reads the model of a KaiOS or Firefox OS phone that
// names no maker: Gecko's mobile platform is "(Mobile; rv:48.0; A405DL)",
// and a comment entry with the shape of a model code (capitals, digits and
// dashes, both letters and digits, isModelNumber) is the model, as the
// model field of Android's comment is. The maker comes from the model's
// prefix in the brands table ("A405" is Alcatel's, "SM-" Samsung's); a
// model of an unknown maker is named alone, with an unknown brand.
// deviceFromTokens has already read the forms that spell a maker of the
// brands table ("Nokia_8110_4G", "LYF/F101K/..."); a maker it does not
// know is read from the same forms here: KaiOS's build names the phone
// "<Maker>_<Model>" ("Energizer_E241", "Multilaser_ZAPP_II_3G"), or
// "<Maker>/<Model>/<firmware>" ("Jio/F491H/Jio-F491H-001-...").
func (s *state) geckoPhoneModel() {
	p := s.p
	for _, e := range p.entries {
		m := p.text(e)
		if maker, model := makerModel(m); maker != "" {
			b := brandSpelling(maker)
			if cb := modelCodeBrand(model); cb != "" {
				if _, known := knownBrand(maker); !known && len(maker) <= 3 {
					// A carrier's tag of three letters before the code
					// of a phone made for it ("ATT_U1030AA",
					// "CKT_U102AC"): the code's shape names the brand
					// the phone is sold under. A longer word is the
					// maker's name ("GEOPHONE_T19I_4G").
					b = cb
				}
			}
			s.devBrand.set(b, confGeneric)
			s.devName.set(p.concat(b, " ", normalizeNameIn(p, model)), confGeneric)
			return
		}
		if !isModelNumber(m) {
			continue
		}
		if b, rest := brandOfModel(m); b != "" {
			s.devBrand.set(b, confGeneric)
			if rest = cutSpaceDash.trim(rest); rest == "" {
				s.devName.set(b, confGeneric)
			} else {
				s.devName.set(p.concat(b, " ", normalizeNameIn(p, rest)), confGeneric)
			}
			return
		}
		s.devBrand.set(Unknown, confGeneric)
		s.devName.set(m, confGeneric)
		return
	}
}

// makerModel splits a KaiOS phone's "<Maker>_<Model>",
// "<Maker>/<Model>/<firmware>" or "<MAKER> <model code>" comment entry:
// the maker is a word of letters, the model starts with a letter or digit
// (after a space, it is a model code). Anything else gives "".
func makerModel(m string) (maker, model string) {
	k := strings.IndexAny(m, "_/ ")
	if k < 2 || k+1 >= len(m) || !allLetters(m[:k]) || !isAlnumByte(m[k+1]) {
		return "", ""
	}
	model = m[k+1:]
	switch m[k] {
	case ' ':
		if !isModelNumber(model) {
			return "", ""
		}
	case '/':
		j := strings.IndexByte(model, '/')
		if j <= 0 {
			return "", ""
		}
		model = model[:j]
	}
	return m[:k], model
}

// isAlnumByte reports an ASCII letter or digit.
func isAlnumByte(c byte) bool {
	return isLetter(c) || c >= '0' && c <= '9'
}

// trimSpaceSemicolonComma is strings.Trim(s, " ;,") without building the
// cut set on each call.
func trimSpaceSemicolonComma(s string) string {
	for len(s) > 0 && (s[0] == ' ' || s[0] == ';' || s[0] == ',') {
		s = s[1:]
	}
	for len(s) > 0 && (s[len(s)-1] == ' ' || s[len(s)-1] == ';' || s[len(s)-1] == ',') {
		s = s[:len(s)-1]
	}
	return s
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
	c := lowerASCII(tok[0])
	if len(tok) > 1 && !brandSeconds[c].has(lowerASCII(tok[1])) {
		return false
	}
	for _, b := range brandsByInitial[c] {
		if len(tok) >= len(b) && asciiHasPrefixLower(tok, b) {
			return true
		}
	}
	return false
}

// brandsByInitial lists the distinct brand names of brandPrefixes in lower
// case, by their first byte.
var brandsByInitial [256][]string

// brandSeconds has, by a brand's first byte, the set of the second bytes
// of the brands of brandsByInitial (every byte for a brand of one letter).
// A token whose second byte is none of them starts with no brand: one bit
// test spares the comparisons with every brand of the initial, which
// deviceFromTokens would make for most tokens of every user agent.
var brandSeconds [256]byteSet

func buildBrandSeconds() (t [256]byteSet) {
	for c, bs := range brandsByInitial {
		for _, b := range bs {
			if len(b) == 1 {
				t[c] = byteSet{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}
				continue
			}
			t[c][b[1]>>6] |= 1 << (b[1] & 63)
		}
	}
	return t
}

func buildBrandsByInitial() (t [256][]string) {
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
}

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

// wapPhoneProduct reports a product only phones send: NTT docomo's i-mode
// phones, which name the network first ("DoCoMo/1.0/D501i", "DoCoMo/2.0
// N905i(c100;TB;W24H16)"), Openwave's browser under the name its first
// releases had ("SIE-S40/2.3 UP/4.1.16r", before UP.Browser), and the WAP
// browser of phones of makers in India and China ("Karbonn K595
// WAP-Browser/1.0.0").
func (p *parsed) wapPhoneProduct() bool {
	for i, pr := range p.products {
		if i == 0 && pr.lname == "docomo" {
			return true
		}
		if pr.lword == "up" || pr.lword == "wap-browser" {
			return true
		}
	}
	return false
}

// cloudPhone reports CloudMosa's Cloud Phone, which names itself first in
// the comment, with its release ("Mozilla/5.0 (Cloud Phone 2.4; Nokia 225
// 4G; UNISOC)", "(Cloud Phone; Generic)").
func (p *parsed) cloudPhone() bool {
	return len(p.entries) > 0 && strings.HasPrefix(p.ltext(p.entries[0]), "cloud phone")
}

// ucIPhone reports UC Browser's compact format on an iPhone, which it
// writes "iPh": "UCWEB/2.0 (iOS; U; iPh OS 6_1; zh-CN; iPh5,2)".
func (p *parsed) ucIPhone() bool {
	if len(p.products) == 0 || p.products[0].lname != "ucweb" {
		return false
	}
	for _, e := range p.entries {
		if strings.HasPrefix(p.ltext(e), "iph os ") {
			return true
		}
	}
	return false
}

// featurePhone recognises the Java ME and MediaTek MAUI phones and their
// browsers: they announce the MIDP profile or a WAP browser, run BREW, or
// send a product only phones send (wapPhoneProduct).
func (s *state) featurePhone() {
	p := s.p
	if p.has(kwMIDP) || p.has(kwMAUI) || p.has(kwWAPBrowser) || p.has(kwUPBrowser) || p.has(kwJ2ME) ||
		p.has(kwOperaMini) || p.has(kwSEMCBrowser) || p.has(kwObigo) || p.has(kwTeleca) || p.wapPhoneProduct() ||
		s.os.name == "BREW" || p.cloudPhone() {
		s.devClass.set("Mobile", confGeneric)
		if s.os.name == "BREW" || p.cloudPhone() {
			// Qualcomm's BREW runs only on phones, the CDMA feature
			// phones of KDDI, Verizon and others ("(KDDI-KC4A; BREW;
			// Opera Mobi; U; ja)", "(compatible; Polaris 6.2; Brew
			// 3.1.5; en)"), and CloudMosa's Cloud Phone is the
			// platform of feature phones whose apps run in its cloud
			// ("(Cloud Phone 2.4; Nokia 225 4G; UNISOC) ...
			// Puffin/132.0.8.80800FP").
			s.devClass.set("Phone", confProduct)
		}
		for _, e := range p.entries {
			if p.ltext(e) == "java" {
				// "UCWEB/2.0 (Java; U; MIDP-2.0; Nokia112)": the Java
				// edition of a browser for phones, which runs on the
				// phone's Java platform, the system Yauaa names Java.
				s.devClass.set("Phone", confProduct)
				if s.os.name == "" || s.os.name == Unknown {
					s.os = osInfo{name: "Java", version: Unknown, class: "Mobile", cpu: s.os.cpu}
				}
				if s.os.class == "" || s.os.class == Unknown {
					s.os.class = "Mobile"
				}
				break
			}
		}
		if s.devBrand.v == "" || s.devBrand.v == Unknown {
			for _, pr := range p.products {
				name := strings.TrimPrefix(pr.name, "Mozilla ")
				if hasPrefixFold(name, "midp") || hasPrefixFold(name, "cldc") {
					// The Java profile ("MIDP-2.0"), never a model.
					continue
				}
				if k := strings.LastIndexByte(name, ' '); k > 0 && pr.version != "" && (allLetters(name[k+1:]) && isBrowserWord(name[k+1:]) || strings.EqualFold(name[k+1:], "wap-browser")) {
					// "SAMSUNG GT-S3332 Opera/9.80", "Karbonn K595
					// WAP-Browser/1.0.0": the model, then the browser the
					// version belongs to. Any other last word
					// is the model's ("T-Mobile Vairy Touch II/5.0", "LAVA
					// KKT Pearl/MIDP-2.0").
					name = name[:k]
				}
				if b, rest := brandOfModel(name); b != "" {
					if len(rest) > 1 && rest[0] == '.' {
						// "LAVA.DISCOVER136.R016_V01": Lava's MediaTek
						// phones write the maker, the model and the
						// firmware, each after a dot.
						rest, _, _ = strings.Cut(rest[1:], ".")
					}
					s.devBrand.set(b, confGeneric)
					s.devName.set(b, confGeneric)
					if rest != "" {
						s.devName.set(b+" "+normalizeName(rest), confProduct)
					}
					break
				}
			}
		}
		s.wapBrowserSlot()
		if (p.has(kwObigo) || p.has(kwTeleca)) && s.agName.c < confProduct {
			s.obigoByName()
		}
		if (s.devBrand.v == "" || s.devBrand.v == Unknown) && len(p.products) > 0 && p.products[0].version != "" {
			// A maker the brands table does not know, in the first
			// product, as phones' WAP browsers write it: "Amoi-CA6/1.0",
			// "Sagem-my411X/1.0", "NGM_Coffee/ObigoInternetBrowser".
			if maker, model := wapMakerModel(p.products[0].name); maker != "" {
				b := brandSpelling(maker)
				s.devBrand.set(b, confGeneric)
				s.devName.set(b+" "+normalizeName(model), confProduct)
			}
		}
		if (s.devBrand.v == "" || s.devBrand.v == Unknown) && p.has(kwMAUI) {
			if k := strings.Index(p.low, "maui/"); k >= 0 {
				if b, model := mauiBuildMaker(p.ua[k+5:]); model != "" {
					s.devBrand.set(b, confGeneric)
					s.devName.set(b+" "+normalizeName(model), confProduct)
				} else if b != "" {
					s.devBrand.set(b, confGeneric)
					s.devName.set(b, confProduct)
				}
			}
		}
	}
}

// isBrowserWord reports a word that is Opera (whose Presto versions the
// code reads, not a table) or a browser's token of tables/browsers.tsv,
// whatever its case. It runs only for a feature phone's products.
func isBrowserWord(w string) bool {
	if strings.EqualFold(w, "opera") {
		return true
	}
	for _, bt := range browserTokens {
		if strings.EqualFold(bt.token, w) {
			return true
		}
	}
	return false
}

// mauiBuildMaker reads the maker and the model a MediaTek feature phone's
// firmware build names after "MAUI/", where the product in front is only
// the board ("TIANQIN61M_11C_HW (MRE/3.1.00(64);
// MAUI/_T19A_MAXVI_P11_MTK6261D_V02_20180721;..."): a word of the build
// that is a maker of tables/brands.tsv, then the model's word. A word that
// is no model (a version with its leading zero, "V02", or digits alone)
// leaves the model "": the maker alone names the phone.
func mauiBuildMaker(build string) (brand, model string) {
	if k := strings.IndexAny(build, ";) "); k >= 0 {
		build = build[:k]
	}
	for len(build) > 0 {
		k := strings.IndexAny(build, "_-")
		word := build
		if k >= 0 {
			word, build = build[:k], build[k+1:]
		} else {
			build = ""
		}
		if len(word) < 4 || !allLetters(word) {
			continue
		}
		b, ok := knownBrand(word)
		if !ok {
			continue
		}
		next := build
		if k := strings.IndexAny(next, "_-"); k >= 0 {
			next = next[:k]
		}
		if next == "" || !allAlnum(next) || isDigits(next) || len(next) > 2 && (next[0] == 'V' || next[0] == 'v') && next[1] == '0' && isDigits(next[2:]) {
			return b, ""
		}
		return b, next
	}
	return "", ""
}

// wapBrowserSlot reads the browser a WAP phone writes where a version
// would be, "SonyEricssonJ108i/R1x Browser/NetFront/3.5 Profile/MIDP-2.1",
// "HUAWEI-M636/001.00 WAP/OBIGO/Q05A": a product named Browser or WAP whose
// version is a browser of tables/browsers.tsv, at the version that starts
// the next product, or Obigo's release code there. NetFront is its own
// layout engine, of the same version.
func (s *state) wapBrowserSlot() {
	p := s.p
	for i := 0; i+1 < len(p.products); i++ {
		if ln := p.products[i].lname; ln != "browser" && ln != "wap" {
			continue
		}
		name := p.products[i].version
		v := p.products[i+1].name
		if k := strings.IndexByte(v, ' '); k > 0 {
			v = v[:k]
		}
		if !isVersionLike(v) && !(strings.EqualFold(name, "obigo") && obigoRelease(v)) {
			return
		}
		for _, bt := range browserTokens {
			if !strings.EqualFold(bt.token, name) {
				continue
			}
			s.setAgent(confProduct, bt.class, bt.name, cleanVersion(v))
			if bt.token == "netfront" {
				s.setEngine(confProduct, "Browser", bt.name, cleanVersion(v))
			}
			return
		}
		return
	}
}

// obigoByName reads the Obigo browser where a phone writes it by its full
// name or by the name of Teleca, the company that made it before, in a
// chain of slashes rather than as a product of its own
// ("NGM_Coffee/ObigoInternetBrowser/QO3C", "HUAWEI_G6310/Obigo
// Browser/Q03C", "TelecaBrowser/Q07C1-1"): Obigo, at the release code
// that follows.
func (s *state) obigoByName() {
	p := s.p
	for _, w := range [...]string{"obigointernetbrowser/", "obigo browser/", "telecabrowser/"} {
		k := strings.Index(p.low, w)
		if k < 0 {
			continue
		}
		v := p.ua[k+len(w):]
		n := 0
		for n < len(v) && isAlnumByte(v[n]) {
			n++
		}
		if obigoRelease(v[:n]) {
			s.setAgent(confProduct, "Browser", "Obigo", v[:n])
		}
		return
	}
}

// obigoRelease reports a release code of the Obigo browser, a Q and a
// digit or an O mistyped for a zero, then letters and digits ("Q03C",
// "Q05A", "QO3C", "Q7").
func obigoRelease(v string) bool {
	if len(v) < 2 || len(v) > 8 || (v[0] != 'Q' && v[0] != 'q') || !(v[1] >= '0' && v[1] <= '9' || v[1] == 'O') {
		return false
	}
	for i := 2; i < len(v); i++ {
		if !isAlnumByte(v[i]) {
			return false
		}
	}
	return true
}

// wapMakerModel splits a WAP phone's "<Maker>-<Model>" (or "_", ".")
// product name: the maker is a word of three letters or more, the model
// starts with a letter or digit and is one word. Anything else gives "".
func wapMakerModel(n string) (maker, model string) {
	k := strings.IndexAny(n, "-_.")
	if k < 3 || k+1 >= len(n) || !allLetters(n[:k]) || !isAlnumByte(n[k+1]) || strings.IndexByte(n, ' ') >= 0 {
		return "", ""
	}
	return n[:k], n[k+1:]
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
			s.devBrand.set(brand, confProduct)
			rest := model
			if hasPrefixFold(rest, brand) {
				rest = cutSpaceDash.trimLeft(rest[len(brand):])
			}
			if rest == "" || strings.EqualFold(model, vendor) {
				s.devName.set(brand+" Windows Phone", confProduct)
				return
			}
			s.devName.set(brand+" "+normalizeName(rest), confProduct)
			return
		}
	}
}

// blockNamesAndroid reports a comment section with an entry that starts
// with "android".
func blockNamesAndroid(p *parsed, block int) bool {
	for _, e := range p.entries {
		if e.block == block && strings.HasPrefix(p.ltext(e), "android") {
			return true
		}
	}
	return false
}

// referenceModel is the model a reference phone's browser writes first
// (m, the first product's name, whose last word in lower case is
// lastWord), without the chipset maker's "sprd-", without the maker's
// name when it is written twice ("DOOV-DOOV_D300",
// "OPSSON-OPSSON-iMO1000") and without the system's name when the
// version is the system's ("UTIME U6 Linux/2.6.35.7").
func referenceModel(m, lastWord string) string {
	if k := strings.LastIndexByte(m, ' '); k > 0 && (lastWord == "linux" || lastWord == "android") {
		// "UTIME U6 Linux/2.6.35.7": the model, then the system the
		// version belongs to.
		m = m[:k]
	}
	if len(m) > 5 && hasPrefixFold(m, "sprd-") {
		m = m[5:]
	}
	if k := strings.IndexAny(m, "-_"); k > 0 && len(m) > 2*k+1 && strings.EqualFold(m[:k], m[k+1:2*k+1]) &&
		(m[2*k+1] == '-' || m[2*k+1] == '_') {
		m = m[k+1:]
	}
	return withoutNetworkTag(m)
}

// withoutNetworkTag is a reference phone's model without the tags its
// browser adds for China Mobile's network: "_TD" for the TD-SCDMA radio
// and "_CMCC" for the carrier ("Coolpad8190_CMCC_TD", "GT-S6818_TD"). The
// maker's model is what stands before them.
func withoutNetworkTag(m string) string {
	if len(m) > 4 && hasSuffixFold(m, "_td") {
		m = m[:len(m)-3]
		if len(m) > 6 && hasSuffixFold(m, "_cmcc") {
			m = m[:len(m)-5]
		}
	}
	return m
}

// embeddedReference is the model of a phone's browser product written
// whole into the Android comment's model field, with more products after
// it: a reference phone's ("SAMSUNG-GT-S7568_TD/1.0 Android/4.0.4
// Release/07.15.2012 Browser/AppleWebKit534.30 Build/IMM76D") or a
// maker's build ("HUAWEI P7-L10/HuaweiP7-L10C02B129 Browser/Browser/4.4.2").
// The model is the first product's name. A firmware after the slash with
// nothing after it stays ("SAMSUNG GT-I8190N/I8190NXXANI1", as Yauaa
// writes it).
func embeddedReference(m string) (string, bool) {
	k := strings.IndexByte(m, '/')
	if k <= 0 {
		return m, false
	}
	sp := strings.IndexByte(m[k:], ' ')
	if sp < 0 || strings.IndexByte(m[k+sp:], '/') < 0 {
		return m, false
	}
	return withoutNetworkTag(strings.TrimSpace(m[:k])), true
}

// lumiaDesktopMode reads Edge on Windows 10 Mobile asking for the desktop
// version of a page: it sends Windows 10's desktop platform with the
// phone's model after the processor ("(Windows NT 10.0; ARM; Lumia
// 550)"). The system stays Windows 10, as sent; the device is the phone.
func (s *state) lumiaDesktopMode() {
	p := s.p
	for _, e := range p.entries {
		if t := p.text(e); hasPrefixFold(t, "lumia ") {
			if b, rest := brandOfModel(t); b != "" {
				s.setDevice(confFamily, "Phone", b, b+" "+normalizeName(rest))
			}
			return
		}
	}
}

// ucOperaMiniPhone reports UC Browser's mode for phones that passes for
// Opera Mini ("UCWEB/2.0 (Linux; U; Opera Mini/7.1.32052/30.3697; en-US;
// Micromax_A62) U2/1.0.0 UCBrowser/9.1.1.420 Mobile"): the platform is
// Linux, but the comment is an Android phone's, with the model after the
// language, where Android's layout puts it.
func (s *state) ucOperaMiniPhone() bool {
	p := s.p
	if !s.mobile || len(p.products) == 0 || p.products[0].lname != "ucweb" {
		return false
	}
	for _, e := range p.entries {
		if strings.HasPrefix(p.ltext(e), "opera mini/") {
			return true
		}
	}
	return false
}

// androidDevice finds the model in "(Linux; Android 10; SM-G960F Build/...)".
func (s *state) androidDevice() {
	p := s.p
	model, build := "", ""
	androidBlock := -2   // the comment section that names Android
	bareAndroid := false // that entry is "Android" without a version
	for i, e := range p.entries {
		lt := p.ltext(e)
		t := p.text(e)
		if strings.HasPrefix(lt, "android") || strings.HasPrefix(lt, "andr0id ") || strings.HasPrefix(lt, "adr ") ||
			strings.HasPrefix(lt, "opera mini/") && s.ucOperaMiniPhone() {
			// The last section that names Android wins: an app may put
			// its own "(Android 5.0.2)" before the webview's comment.
			androidBlock = e.block
			bareAndroid = lt == "android"
			if bareAndroid && (s.os.version == "" || s.os.version == Unknown) && i+1 < len(p.entries) && p.entries[i+1].block == e.block {
				// "(Android; 7.1.1; Mobile; fr)": the release in the
				// next entry.
				if v := p.text(p.entries[i+1]); strings.IndexByte(v, '.') > 0 && leadingVersion(v) == v {
					s.os.version = v
				}
			}
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
				model, _ = embeddedReference(m)
				build = lt[k+len("build/"):]
				break
			}
			continue
		}
		if isAndroidNoise(lt) && !modelLikeLocale(t) {
			continue
		}
		model, _ = embeddedReference(t)
		break
	}
	// Only the model of the Android comment, or the one a reference
	// phone's browser writes first, is looked up in the table of model
	// prefixes: elsewhere a prefix would also match words that are no
	// model ("like Gecko").
	inComment := model != ""
	if model == "" {
		model, inComment = s.modelElsewhere()
	}
	if k := strings.Index(p.lowerOf(model), " miui/"); k > 0 {
		model = model[:k]
	}
	if m, ok := strings.CutPrefix(model, "Model "); ok {
		// "Model SM-G960F": the word some builds put before the model,
		// unless the catalogue lists the whole name as a model
		// ("Model Y" is Sunmax's, "Model 6s" Hyatta's).
		if _, listed := catalogLookup(model); !listed {
			model = m
		}
	}
	model = strings.TrimSpace(model)
	switch {
	case s.tvScreen:
		// A browser made for televisions says so in its own marker
		// (tables/screen_tokens.tsv); the model's class still outranks it.
		s.devClass.set("TV", confGeneric)
	case s.tablet || p.has(kwOperaTablet):
		s.devClass.set("Tablet", confGeneric)
	case s.mobile:
		s.devClass.set("Phone", confGeneric)
	case s.mozilla && bareAndroid:
		// "(Android; Linux armv7l; rv:10.0.3)": the old Firefox and AIR
		// runtimes that say neither Mobile nor Tablet nor the version.
		s.devClass.set("Mobile", confGeneric)
	case s.mozilla && p.has(kwSafari):
		// WebKit browsers leave "Mobile" out of "Mobile Safari" on
		// tablets; without a Safari token the missing word says nothing
		// ("... Version/4.0 Hawk/QuickBrowser/1.0.35", a web view cut
		// after its Chrome version).
		s.devClass.set("Tablet", confGeneric)
	default:
		s.devClass.set("Mobile", confGeneric)
	}
	if model == "" || strings.EqualFold(model, "k") || strings.EqualFold(model, "mobile") {
		s.devBrand.set(Unknown, confGeneric)
		s.devName.set("Android Mobile", confGeneric)
		if model == "K" {
			s.reducedAndroid()
		}
		return
	}
	c := modelClass(model)
	if c == "" && tvBuild(build) {
		// The build names the television branch of Android the
		// device runs; the model, where it names a class, outranks it
		// ("Google TV Stick" is a set-top box).
		c = "TV"
	}
	if c != "" {
		// The model's own words and shape outrank the Mobile and Tablet
		// tokens (tables/model_classes.tsv).
		s.devClass.set(c, confGeneric+1)
	}
	codeName := false
	if m, ok := customSystemModel(model); ok {
		model, codeName = m, true
	}
	brand, rest := brandOfModel(model)
	if brand == "" || brand == "Meizu" && hasPrefixFold(model, "mz-") {
		if m, b, r, ok := modelAfterPrefix(model, brand); ok {
			model, brand, rest = m, b, r
		}
	}
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
	if brand != "" && brand != "Huawei" && huaweiBuildSeries(build, model) {
		// A prefix row of another maker ("lg", "vk") takes a Huawei
		// series code that its build names after Huawei or Honor
		// ("LGN-LX1 Build/HONORLGN-L31").
		brand, rest = "Huawei", model
	}
	if brand == "Huawei" && len(build) > len(model)+3 && strings.EqualFold(build[len(build)-len(model):], model) {
		// The phones other makers sell on Huawei's designs keep
		// Huawei's model codes; their builds name the maker before the
		// model, as Huawei's own do ("GAR-AN00 Build/WIKOGAR-AN00").
		if b, ok := knownBrand(build[:len(build)-len(model)]); ok && b != "Huawei" && b != "Honor" {
			brand = b
		}
	}
	if build != "" && (brand == "" || !hasPrefixFold(model, brand)) {
		if b, ok := builderBrand(build, model); ok {
			brand, rest = b, model
		}
	}
	if inComment {
		// The catalogue's exact model names the maker where no prefix
		// row names another; a prefix row may still give the class.
		prefix, hasPrefix := modelPrefixOf(model)
		if codeName {
			// A code name is no model code: the prefix rows do not
			// speak for it.
			hasPrefix = false
		}
		classSet := s.catalogFacts(model, codeName, c != "", prefix, hasPrefix, &brand, &rest)
		if hasPrefix {
			s.modelPrefixFacts(model, c != "" || classSet, prefix, &brand, &rest)
		}
	}
	if brand == "" && inComment && !codeName {
		// The last word on the maker: the start of the model that Google
		// Play's list gives one maker (catalogprefixes.go).
		brand, rest = catalogPrefixFacts(model)
	}
	if brand == "" {
		// Unknown maker: Yauaa shows the first word as the brand when the
		// model is "Maker Model", unless that word starts many makers'
		// models and names none ("MAX 3", "TAB_868_PRO";
		// tables/product_words.tsv) or is a single letter ("S-715").
		if k := strings.IndexByte(model, ' '); k > 0 && !isVersionLike(model) && makerWord(model[:k]) {
			brand = normalizeName(model[:k])
			rest = model[k+1:]
		} else if k := strings.IndexAny(model, "-_"); k > 0 && k+1 < len(model) && isLetter(model[0]) && allAlnum(model[:k]) && makerWord(model[:k]) {
			// "YC-83P", "Tesla_SP9_2": the same with the maker and the
			// model joined by a dash or an underscore.
			brand = normalizeName(model[:k])
			rest = strings.ReplaceAll(model[k+1:], "-", " ")
		} else {
			s.devBrand.set(Unknown, confGeneric)
			s.devName.set(normalizeName(model), confGeneric)
			return
		}
	}
	s.devBrand.set(brand, confGeneric)
	if rest == "" {
		s.devName.set(brand, confGeneric)
		return
	}
	if s.devClass.v == "TV" {
		if hasPrefixFold(model, brand) {
			rest = withoutTVTag(rest)
		}
		rest = tvModelCode(rest)
	}
	if rest == model {
		rest = withoutVariantNumber(rest)
	}
	rest = makerModelName(brand, rest)
	if len(rest) > len(" android") && hasSuffixFold(rest, " android") {
		// "O+ 8.98 Android": the system written after the model.
		rest = rest[:len(rest)-len(" android")]
	}
	s.devName.set(p.concat(brand, " ", normalizeNameIn(p, rest)), confGeneric)
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

// withoutTVTag is a television's model, written after the maker's name,
// without the tag of one or two capitals that some makers write between
// their name and the model code ("POLARLINE_WK_42PL11TC-SM",
// "SAMTRON_W_43SA701"): the tag marks the platform the set runs, the model
// is the code after it, which has a digit. A model that does not start
// with the maker's name keeps its first word ("AS_4K_CI", Openbox's).
func withoutTVTag(rest string) string {
	k := strings.IndexByte(rest, '_')
	if k < 1 || k > 2 || k+3 > len(rest) {
		return rest
	}
	for i := 0; i < k; i++ {
		if rest[i] < 'A' || rest[i] > 'Z' {
			return rest
		}
	}
	if m := rest[k+1:]; strings.ContainsAny(m, "0123456789") {
		return m
	}
	return rest
}

// withoutVariantNumber is a model sent without its maker's name, one code
// of letters and digits followed by an underscore and a number of up to
// four digits ("R7_2", "ZT216_5", "F105D_128", "M7Go_2019"), without the
// number: it counts a variant, the memory or the year of the model the
// code names. A model of more words keeps it ("Venus_V3_5020", where the
// number is the model's), as does a code after the maker's name
// ("Tesla_SP9_2").
func withoutVariantNumber(model string) string {
	k := strings.IndexByte(model, '_')
	if k < 2 || len(model)-k-1 > 4 || len(model)-k-1 < 1 || !isDigits(model[k+1:]) {
		return model
	}
	if w := model[:k]; !strings.ContainsAny(w, "0123456789") || isDigits(w) || !allAlnum(w) {
		return model
	}
	return model[:k]
}

// makerModelName is the model as its maker sells it, where the maker's
// model codes wrap it in a tag of the maker's and of the line:
//   - Verykool writes the model number after the name (withoutVerykoolNumber);
//   - Multilaser writes "ML-", two letters of the line and a dash before the
//     model ("ML-TI-MS80", "ML-WI-M9-3G" are the MS80 and the M9 3G);
//   - Haier writes "HM-" (Haier Mobile) before its phones' models and "-FL"
//     after them ("HM-G353-FL" is the G353);
//   - Vinga writes "VMP-" (Vinga media player) before its boxes' three
//     digit models and the memory after them ("VMP-045-664" is the 045).
//
// The tags are conventions of a maker's codes, not names a row could hold,
// so they stay in Go; a switch on the brand costs one comparison.
func makerModelName(brand, rest string) string {
	switch brand {
	case "Verykool":
		return withoutVerykoolNumber(rest)
	case "Multilaser":
		if len(rest) > 7 && hasPrefixFold(rest, "ml-") && isLetter(rest[3]) && isLetter(rest[4]) && rest[5] == '-' {
			return rest[6:]
		}
	case "Haier":
		if len(rest) > 7 && hasPrefixFold(rest, "hm-") && hasSuffixFold(rest, "-fl") {
			return rest[3 : len(rest)-3]
		}
	case "Vinga":
		if len(rest) > 8 && hasPrefixFold(rest, "vmp-") && isDigits(rest[4:7]) && rest[7] == '-' {
			return rest[4:7]
		}
	}
	return rest
}

// withoutVerykoolNumber is a Verykool model without the model number the
// maker writes after the phone's name ("verykool Giant s5020",
// "verykool_Fusion_II_SL4502"): Verykool sells its phones by the name, an
// s or SL and four digits being the number on the box. A model that is the
// number alone keeps it.
func withoutVerykoolNumber(rest string) string {
	k := strings.LastIndexAny(rest, " _")
	if k < 3 {
		return rest
	}
	code := rest[k+1:]
	n := 0
	for n < len(code) && isLetter(code[n]) {
		n++
	}
	if n < 1 || n > 2 || len(code)-n != 4 || !isDigits(code[n:]) || code[0] != 's' && code[0] != 'S' {
		return rest
	}
	return rest[:k]
}

// tvModelCode is a television's model code without what its maker writes
// after an underscore: the colour ("TDTV43BS06U_BK"), the board
// ("TDTV75BS06U_9632"), the panel and the resolution
// ("TF-LED40S63T2S_536D400PF33_FHD") or the region ("PTV32SS04Z_CIS_BK"),
// which a shop's model list leaves out; nor the one letter some makers
// write after a dash at the end ("H32F8000Q-f", "LE-43ZTFS25-F"), which
// marks a batch of the same model (its panel or its factory) and is not
// sold as a model of its own. The code is written in capitals and digits,
// six characters or more with a letter and a digit; a name in mixed case
// ("Cinema4K_v01") is kept whole.
func tvModelCode(rest string) string {
	if n := len(rest); n > 8 && rest[n-2] == '-' && isLetter(rest[n-1]) && tvCode(rest[:n-2]) &&
		strings.ContainsAny(rest[strings.LastIndexByte(rest[:n-2], '-')+1:n-2], "0123456789") {
		// The code before the letter ends in a part with a digit: after a
		// word ("Y-4001-FHD-R") the letter belongs to the model's name.
		return rest[:n-2]
	}
	k := strings.IndexByte(rest, '_')
	if k < 6 || !tvCode(rest[:k]) {
		return rest
	}
	return rest[:k]
}

// tvCode reports a code of capitals, digits and dashes with a letter and a
// digit, the shape of a television's model code.
func tvCode(code string) bool {
	digit, letter := false, false
	for i := 0; i < len(code); i++ {
		switch c := code[i]; {
		case c >= '0' && c <= '9':
			digit = true
		case c >= 'A' && c <= 'Z':
			letter = true
		case c != '-':
			return false
		}
	}
	return digit && letter
}

// appDeviceModel reads the device in three apps' syntaxes that write it
// without its maker, where only the catalogue can name the maker: the
// model first in a comment whose next entry is the system ("ivooxApp/2.281
// (G8341; Android 9; d:420031; E5A4)"), the model first in the comment of
// an app named "... for Android" or "... for Android Tablet" ("Pinterest
// for Android/9.0.4 (K83CA; 9)"), and the device's model or code name as a
// product without a version right after the system's ("Pandora/2212.1
// Android/10 crownqltesq (ExoPlayerLib1.5.14.1)"). The model is one word of
// letters and digits with a digit; after the system's product, a code name
// in lower case counts too.
func appDeviceModel(p *parsed) (string, bool) {
	if len(p.entries) > 1 && p.entries[1].block == p.entries[0].block {
		first, next := p.text(p.entries[0]), p.ltext(p.entries[1])
		if len(next) > 8 && strings.HasPrefix(next, "android ") && next[8] >= '1' && next[8] <= '9' && appModelWord(first, false) {
			return first, true
		}
		if len(p.products) > 0 && p.entries[0].block == 0 && appModelWord(first, false) &&
			(strings.HasSuffix(p.products[0].lname, " for android") || strings.HasSuffix(p.products[0].lname, " for android tablet")) {
			return first, true
		}
	}
	for i := 1; i+1 < len(p.products); i++ {
		if pr, next := p.products[i], p.products[i+1]; pr.name == "Android" && pr.version != "" && next.version == "" &&
			appModelWord(next.name, true) && !isAndroidNoise(next.lname) {
			return next.name, true
		}
	}
	return "", false
}

// appModelWord reports one word of four to 24 ASCII letters and digits
// with a digit ("G8341", "K83CA"), or, when codeName, in lower case
// ("crownqltesq").
func appModelWord(s string, codeName bool) bool {
	if len(s) < 4 || len(s) > 24 {
		return false
	}
	digit, upper := false, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digit = true
		case c >= 'A' && c <= 'Z':
			upper = true
		case c < 'a' || c > 'z':
			return false
		}
	}
	return digit || codeName && !upper
}

// makerWord reports whether the first word of a model whose maker no rule
// found can be the maker's name: not a single letter, and not a product word
// of tables/product_words.tsv, alone or before an underscore ("Smart_TV"),
// or followed by the model's number ("TAB9 Kids", "NOTE58 Pro"); a dash may
// join a maker's name ("E-Boda Supreme X80").
func makerWord(w string) bool {
	if len(w) < 2 {
		return false
	}
	if k := strings.IndexByte(w, '_'); k > 0 {
		w = w[:k]
	}
	n := len(w)
	for n > 0 && w[n-1] >= '0' && w[n-1] <= '9' {
		n--
	}
	return !isProductWord(w[:n])
}

// customSystems are the tags custom Android systems put before the device's
// code name in the model: LineageOS ("lineage_j5y17lte"), Resurrection
// Remix ("rr_fortuna3g") and builds of the Android Open Source Project
// ("AOSP on blueline").
var customSystems = [...]string{"lineage_", "rr_", "aosp on "}

// customSystemModel returns the code name behind a custom system's tag.
func customSystemModel(model string) (string, bool) {
	if model == "" {
		return model, false
	}
	switch lowerASCII(model[0]) {
	case 'l', 'r', 'a':
		for _, tag := range customSystems {
			if len(model) > len(tag)+2 && hasPrefixFold(model, tag) {
				return model[len(tag):], true
			}
		}
	}
	return model, false
}

// modelAfterPrefix finds another maker's model behind the short tag that
// a browser, a carrier's build or a custom system put in front of it:
// Meizu's browser writes "MZ-" before every model it runs on
// ("MZ-Infinix X695C", "MZ-M2010J19SY"), Chinese carriers' builds their
// own tag ("OB-OPPO A31c", "BBG-vivo X3V", "YL-Coolpad_7260"). found is
// the brand the whole model gave: none, or Meizu for "MZ-". The tag is
// two to four capitals and a dash; a longer or mixed-case first word is
// more likely the maker's own name ("Garmin-Asus A10", "Getnord-Onyx").
// The rest counts when it starts with its maker's name, or, behind
// Meizu's "MZ-", when it has a maker's code shape ("STK-LX1" is Huawei's);
// Meizu's own models ("MZ-M3s", "MZ-MEIZU 20") keep Meizu.
func modelAfterPrefix(model, found string) (m, brand, rest string, ok bool) {
	i := 0
	for i < len(model) && i < 5 && model[i] >= 'A' && model[i] <= 'Z' {
		i++
	}
	if i < 2 || i > 4 || i+2 > len(model) || model[i] != '-' || !isLetter(model[i+1]) {
		return model, found, "", false
	}
	tail := model[i+1:]
	b, r := brandOfModel(tail)
	if b == "" || b == found {
		return model, found, "", false
	}
	if hasPrefixFold(tail, b) || found == "Meizu" && (huaweiModel(tail) || xiaomiModel(tail) || modelCodeBrand(tail) != "") {
		return tail, b, r, true
	}
	return model, found, "", false
}

// modelElsewhere looks for a device model outside the usual place: in
// another comment entry ("(SM-G950F; Android 9)") or as a "Brand/Model"
// product ("Appie/8.11.1 Samsung/SM-A505FN Android/11"). It reports
// reference when the model is the first product of a reference phone's
// browser, which is the model itself as surely as the Android comment's
// model field is.
func (s *state) modelElsewhere() (model string, reference bool) {
	p := s.p
	if !s.mozilla {
		// Apps' own syntaxes; a browser's Mozilla/5.0 has none of them.
		if m, ok := appDeviceModel(p); ok {
			return m, true
		}
	}
	bare := "" // a brand without a model, used only if no model is found
	for i, e := range p.entries {
		lt := p.ltext(e)
		if isAndroidNoise(lt) || strings.HasPrefix(lt, "android") || strings.HasPrefix(lt, "linux") {
			continue
		}
		t := strings.TrimPrefix(p.text(e), "Model ")
		if k := strings.LastIndex(lt, " on "); k > 0 && strings.Contains(lt[:k], " api ") {
			// "(Build 33470 with API 31 on OPPO CPH2223)": an app's
			// build, the API level and the device it runs on.
			t = p.text(e)[k+len(" on "):]
		}
		if k := strings.IndexByte(t, ':'); k > 0 && strings.Contains(lt, " android:") {
			// "LenovoTB-X606X_EEA:mt8768 Android:29": the model and its
			// chipset, then the API level. Exynos chipsets are Samsung's.
			if strings.HasPrefix(lt[k+1:], "exynos") {
				return "Samsung " + t[:k], false
			}
			t = t[:k]
		}
		if strings.HasPrefix(lt, "exynos") && isModelNumber(strings.ToUpper(t)) {
			return "Samsung " + t, false
		}
		if b, rest := brandOfModel(t); b != "" {
			if rest != "" && !strings.EqualFold(rest, b) {
				return t, false
			}
			// Apps list "...; samsung; SM-T310; ..." (Instagram's
			// "Android (19/4.4.2; 200dpi; 800x1280; samsung; SM-T310")
			// with the maker and the model in separate entries.
			if i+1 < len(p.entries) && p.entries[i+1].block == e.block {
				next := p.text(p.entries[i+1])
				if nb, _ := brandOfModel(next); nb == b || nb == "" && isModelNumber(next) {
					return b + " " + next, false
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
		// A known maker's model loses the network's tags
		// ("Philips T3566_TD/V1"); an unknown one keeps them.
		if b, _ := brandOfModel(p.products[0].name); b != "" {
			return withoutNetworkTag(p.products[0].name), true
		}
		return p.products[0].name, true
	}
	if n := len(p.products); n > 1 && len(p.entries) > 0 && p.products[n-1].version == "" && strings.IndexByte(p.products[n-1].name, ' ') > 0 {
		// "Deezer/5.4.21.97 (Android; 7.1.1; Mobile; fr) WIKO WIM Lite":
		// the maker and the model right after the app's comment that
		// names Android, last.
		last := p.entries[len(p.entries)-1]
		if p.ua[last.end:] == ") "+p.products[n-1].name && blockNamesAndroid(p, last.block) {
			return p.products[n-1].name, true
		}
	}
	if pr, ok := p.product("Device"); ok && len(pr.version) > 2 && pr.name == "Device" {
		// "WhatsApp/2.18.46 Android/6.0.1 Device/Xiaomi-Redmi_3S": an
		// app's own product for the maker and the model.
		return referenceModel(pr.version, ""), true
	}
	if len(p.products) > 2 && p.products[0].version != "" && (p.products[1].name == "Linux" || p.products[1].name == "Android") {
		if _, ok := p.product("Release"); ok {
			// The browsers of other makers' reference phones start the
			// same way, with the model and its release: "koobee-T550/1.0
			// Linux/2.6.35.7 Android/2.3.5 Release/01.17.2013", the maker
			// written twice ("DOOV-DOOV_D300/1.0") or after the chipset's
			// maker ("sprd-BOWAY-I5/1.0").
			return referenceModel(p.products[0].name, p.products[0].lword), true
		}
	}
	for _, pr := range p.products {
		if b, ok := knownBrand(pr.name); ok && pr.version != "" && !isVersionLike(pr.version) {
			return b + " " + pr.version, false
		}
		name := pr.name
		if k := strings.LastIndexByte(name, ' '); k > 0 && (pr.lword == "android" || pr.lword == "linux") {
			// "Appie/8.32.1 Doro 8040 Android/11", "AB-C12 Linux/3.0.13":
			// the model, then the system the version belongs to.
			name = name[:k]
		}
		if strings.Contains(pr.lname, " android ") {
			// "BBC News Android 4.7.1.29/107998": an app's name, the
			// platform it is built for and its version, not a model.
			continue
		}
		// The test of the characters, which most products' names fail
		// ("Mozilla", "AppleWebKit"), comes before the search of the
		// brands.
		if strings.ContainsAny(name, "-0123456789") {
			if b, _ := brandOfModel(name); b != "" {
				return name, false
			}
		}
		if strings.HasPrefix(pr.lname, "android-") {
			if b, _ := brandOfModel(pr.name[8:]); b != "" {
				return pr.name[8:], false
			}
		}
	}
	return bare, false
}

// anonymized marks the user agents that privacy tools have rewritten:
// they say so ("anonymized by Abelssoft", "Anonymisiert durch AlMiSoft"),
// or they send an Opera 9 release that never existed: from version 10 on
// (and in the 9.70 previews) Opera froze its token at "Opera/9.80", so a
// later "Opera/9.99" was made up. Such a string says nothing reliable about the
// device.
func (s *state) anonymized() {
	p := s.p
	for _, a := range anonymizers {
		if !p.has(a.marker) {
			continue
		}
		if a.brand == "" {
			s.devClass.set("Anonymized", confFamily+1)
		} else {
			s.setDevice(confFamily+1, "Anonymized", a.brand, a.name)
		}
		return
	}
	if zeroedComment(p) {
		s.devClass.set("Anonymized", confFamily+1)
		return
	}
	// Every product's name lies in the user agent, so a product named
	// Opera sets the needle bit of "opera"; the bit test spares most user
	// agents product's call.
	if !p.has(kwOpera) {
		return
	}
	if op, ok := p.product("Opera"); ok && strings.HasPrefix(op.version, "9.") && len(op.version) == 4 {
		if minor := atoiPrefix(op.version[2:]); minor > 80 {
			s.devClass.set("Anonymized", confFamily+1)
		}
	}
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
			s.os.class = "Mobile"
			s.devClass.set("Mobile", confProduct)
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

// isAndroidNoise reports comment entries that sit between the Android
// version and the model but are not the model: "U", locales, "wv".
func isAndroidNoise(lt string) bool {
	switch lt {
	case "u", "i", "n", "wv", "mobile", "tablet", "linux", "tv", "", "unspecified device":
		return true
	case "arm", "arm_64", "aarch64", "x86", "x86_64":
		// Yandex's browsers put the processor before or after the
		// Android version ("Android 10; arm_64; ART-L29N").
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
	if strings.IndexByte(lt, '.') > 0 && leadingVersion(lt) == lt {
		return true // "(Android; 7.1.1; Mobile; fr)": the release, after a bare "Android"
	}
	if len(lt) >= 5 && len(lt) <= 16 && (lt[2] == '-' || lt[2] == '_') && lt[0] >= 'a' && lt[0] <= 'z' && lt[1] >= 'a' && lt[1] <= 'z' &&
		!strings.ContainsAny(lt, " 0123456789") {
		return true // "en-us", "zh_cn_#hans"
	}
	return false
}

// modelLikeLocale reports a model that has the shape of a locale, two
// letters, a dash or an underscore and more letters ("Le_Spark", "PX_Pro",
// "UP_Groove"): a locale starts in lower case ("en-us", "zh_CN"), and
// when a proxy has put it in capitals ("EN-GB", "ZH-HANS-CN") its second
// part is a country of two letters or a script of four followed by the
// country; a model starts with a capital and goes on with a longer word.
// Two capitals before a country in lower case ("BE_xl", Bleck's) are a
// model too: a locale in capitals writes its country in capitals.
func modelLikeLocale(t string) bool {
	if len(t) == 5 && (t[2] == '-' || t[2] == '_') && isUpper(t[0]) && isUpper(t[1]) &&
		isLower(t[3]) && isLower(t[4]) {
		return true
	}
	if len(t) < 6 || t[0] < 'A' || t[0] > 'Z' || t[2] != '-' && t[2] != '_' {
		return false
	}
	end := 3
	for end < len(t) && t[end] != '-' && t[end] != '_' {
		end++
	}
	n := end - 3
	return n > 2 && !(n == 4 && end < len(t))
}

// brandSpelling writes a vendor name as Yauaa does: a known brand in its
// usual spelling, a shouted name ("TOSHIBA") capitalised, others as given.
// A vendor that writes its brand another way ("DIXONS-LOGIK", "TDSystems")
// is that brand (tables/tv_vendors.tsv).
func brandSpelling(vendor string) string {
	if vendor == "LGE" {
		return "LG" // LG Electronics
	}
	if b, ok := tvVendors[strings.ToLower(vendor)]; ok {
		return b
	}
	if len(vendor) > 4 && strings.EqualFold(vendor[:3], "tcl") && vendor[3] >= '0' && vendor[3] <= '9' {
		return "TCL" // TCL's chassis code written for the vendor ("TCL72671D")
	}
	if b, ok := knownBrand(vendor); ok {
		return b
	}
	if strings.IndexByte(vendor, '_') > 0 && strings.ToUpper(vendor) == vendor {
		// Makers that fill a fixed field write the spaces of their name as
		// underscores ("MEGA_VISION", "EAS_ELECTRIC"): the words are
		// written as a shouted name of one word would be.
		var b strings.Builder
		for w := range strings.SplitSeq(vendor, "_") {
			if w == "" {
				continue
			}
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			if len(w) > 3 {
				w = capitalize(strings.ToLower(w))
			}
			b.WriteString(w)
		}
		return b.String()
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

// iphoneWord reports whether "iphone" stands in the lower case user agent
// as the start of a word, not inside one: an application's bundle
// identifier ("com.Redoute.RedouteIphone.beta") names the phone without
// saying the device is one, and Yauaa then answers the generic "Apple iOS
// Device". Every browser on an iPhone says "iPhone OS" (or "iPhoneOS"),
// which the caller tests first, so only applications' user agents pay for
// the search.
func (p *parsed) iphoneWord() bool {
	for i, low := 0, p.low; ; {
		j := strings.Index(low[i:], "iphone")
		if j < 0 {
			return false
		}
		if i+j == 0 || !isAlnumByte(low[i+j-1]) {
			return true
		}
		i += j + len("iphone")
	}
}

// tvBuild reports whether an Android build ID (lower case) comes from one of
// Google's branches for televisions and their boxes. The second letter of a
// build ID names the branch it was built from, and the builds of Android TV
// have a T there after the release's letter: "PTT5.181126.002" (Android 9 on
// Google's ADT-2), "QTT8.201201.002", "PTO7.200925.001", "QTG1.230301.001",
// "RTT0.210829.002", "STTC.230104.002"; operators' boxes also write the two
// letters alone ("Build/RT"). Phones and tablets build from other branches
// ("QP1A.191105.004", "RP1A.200720.011", "TP1A.220624.014").
func tvBuild(build string) bool {
	if len(build) < 2 || build[0] < 'o' || build[0] > 'v' || build[1] != 't' {
		return false
	}
	if len(build) == 2 {
		return true
	}
	// The branch and build letters (one or two more), a dot and the
	// six digits of the date.
	k := 2
	for k < len(build) && k < 5 && (build[k] >= 'a' && build[k] <= 'z' || build[k] >= '0' && build[k] <= '9') {
		k++
	}
	if k == 2 || k+7 > len(build) || build[k] != '.' {
		return false
	}
	for _, c := range []byte(build[k+1 : k+7]) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return k+7 == len(build) || build[k+7] == '.'
}

// builderBrand returns the maker that an Android build names, build in
// lower case: small makers name their builds after themselves, alone
// ("TQ700N Build/GOCLEVER") or before the model ("Q700 Build/XOLOQ700",
// "E60w Build/PioneerE60w"), where the model alone has no maker's name or
// only a look another maker's codes share. The maker must be a brand of
// tables/brands.tsv or tables/model_prefixes.tsv; Huawei and Honor, whose builds other makers' phones
// on their designs copy, are read by their own rule.
func builderBrand(build, model string) (string, bool) {
	name := ""
	switch {
	case len(build) > len(model)+2 && strings.EqualFold(build[len(build)-len(model):], model):
		name = build[:len(build)-len(model)]
	case len(build) >= 4 && allLetters(build):
		name = build
	default:
		return "", false
	}
	b, ok := knownBrand(name)
	if !ok {
		b, ok = prefixBrandNames[name]
	}
	if !ok || b == "Huawei" || b == "Honor" {
		return "", false
	}
	return b, true
}

// prefixBrandNames maps the lower case name of each brand of
// tables/model_prefixes.tsv and of each maker of the catalogue of Android
// models to its spelling: the small makers a build names are more often
// rows there than of brands.tsv, whose brands every word of a user agent
// is compared with ("E60w Build/PioneerE60w", "vk6735 Build/vkworld":
// Google Play's list names Pioneer's and Vkworld's devices).
var prefixBrandNames map[string]string

func buildPrefixBrandNames() map[string]string {
	m := map[string]string{}
	for _, r := range modelPrefixes {
		m[asciiLower(r.brand)] = r.brand
	}
	// The catalogue's makers are read from its embedded text in place:
	// its 48,000 rows name fewer than 3,000 makers, so a maker already
	// seen costs one lookup and no copy.
	seen := map[string]bool{}
	for text := androidModels[catalogStart(androidModels):]; text != ""; {
		line := text
		if nl := strings.IndexByte(text, '\n'); nl >= 0 {
			line, text = text[:nl], text[nl+1:]
		} else {
			text = ""
		}
		tab := strings.IndexByte(line, '\t')
		if tab < 0 {
			continue
		}
		brand := line[tab+1:]
		if end := strings.IndexByte(brand, '\t'); end >= 0 {
			brand = brand[:end]
		}
		if brand == "" || seen[brand] {
			continue
		}
		seen[brand] = true
		if l := asciiLower(brand); m[l] == "" {
			m[l] = brand
		}
	}
	return m
}

// huaweiBuildSeries reports a build, in lower case, that writes Huawei or
// Honor before the model's series code and its dash ("HONORLGN-L31" for
// the model "LGN-LX1"; the variant may differ between the two).
func huaweiBuildSeries(build, model string) bool {
	if build == "" || build[0] != 'h' {
		return false
	}
	tag := 0
	switch {
	case strings.HasPrefix(build, "honor"):
		tag = len("honor")
	case strings.HasPrefix(build, "huawei"):
		tag = len("huawei")
	default:
		return false
	}
	k := strings.IndexByte(model, '-')
	return k >= 2 && k <= 4 && len(build) > tag+k+1 && strings.EqualFold(build[tag:tag+k+1], model[:k+1])
}
