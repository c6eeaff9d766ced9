package uaparse

// This file holds every television and set-top box rule: HbbTV and CE-HTML
// markers, the browsers and platforms of televisions, set-top box makers,
// Vidaa, Google TV, webOS TV releases and YouTube's Cobalt (Starboard)
// devices.

import (
	"slices"
	"strings"
)

// tvDevice recognises television and set-top box markers.
func (s *state) tvDevice() {
	p := s.p
	// Hisense's phones and tablets run Android and name the maker in the
	// model ("Hisense U50", "Hisense Infinity H60 5G"): there the name is
	// no television's. Its televisions run VIDAA, or name Hisense on
	// another platform.
	s.tvPlatform()
	if s.devClass.v == "TV" && s.devBrand.c < confTVPlatformMaker {
		s.inettvMaker()
	}
	if p.has(kwVidaa) || p.has(kwHisense) && s.os.name != "Android" {
		s.os = osInfo{name: tvVidaa.system, version: Unknown, class: "Embedded", cpu: s.os.cpu}
		if pr, ok := p.product("VIDAA"); ok {
			s.os.version = orUnknown(leadingVersion(pr.version))
		}
		s.setDevice(confFamily, tvVidaa.class, tvVidaa.maker, tvVidaa.device)
		s.vidaaModel()
	}
	// Smart TV platforms list "(...; Brand; SmartTV; Model; ...)".
	for i, e := range p.entries {
		lt := p.ltext(e)
		if lt != "smarttv" && lt != "smart-tv" {
			continue
		}
		if lt == "smart-tv" && (i == 0 || p.entries[i-1].block != e.block || p.ltext(p.entries[i-1]) == "smarthub") &&
			(s.devBrand.v == "" || s.devBrand.v == Unknown) {
			// Samsung's televisions open their comment with "SMART-TV"
			// ("(SMART-TV; Linux; Tizen 2.2)", "(SMART-TV; X11; Linux
			// i686)"); other makers name themselves first.
			s.setDevice(confFamily, tvSamsungSmartTV.class, tvSamsungSmartTV.maker, tvSamsungSmartTV.device)
		}
		if i > 0 && p.entries[i-1].block == e.block {
			// "SmartHub" is Samsung's television portal, not a maker.
			if b := p.text(p.entries[i-1]); b != "" && !strings.ContainsAny(b, "/.0123456789") && len(b) < 20 &&
				!strings.EqualFold(b, "smarthub") {
				s.devBrand.set(smartTVBrand(b), confFamily+1)
				s.devClass.set("TV", confFamily+1)
				s.devName.set(s.devBrand.v+" TV", confFamily+1)
			}
		}
		for j := i + 1; j < len(p.entries) && p.entries[j].block == e.block; j++ {
			m := p.text(p.entries[j])
			if isModelNumber(strings.ReplaceAll(m, "_", "-")) && s.devBrand.v != "" && s.devBrand.v != Unknown {
				s.devName.set(s.devBrand.v+" "+normalizeName(m), confFamily+3)
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
			v := cutSpaceSlash.trimLeft(p.ua[i+len("nettv"):])
			s.os = osInfo{name: tvNetTV.system, version: orUnknown(leadingVersion(v)), class: "Embedded", cpu: s.os.cpu}
		} else if s.os.name == "Linux" {
			s.os.class = "Embedded"
		}
		s.devClass.set(tvNetTV.class, confFamily)
		s.devName.set(tvNetTV.device, confFamily)
		if p.has(kwPhilips) {
			s.devBrand.set(tvNetTVPhilips.maker, confFamily+1)
			s.devName.set(tvNetTVPhilips.device, confFamily+1)
		}
	}
	if !s.hbbTVDevice() {
		if s.devClass.v == "TV" {
			s.ceDevice()
		} else if s.devClass.v == "Desktop" {
			// The trailer alone names a television: consumer
			// electronics add it to a desktop-like Linux browser
			// ("Opera/9.80 (Linux mips; ) ... (MEDION, Si2156LG32,
			// wireless)").
			s.ceTrailerTV()
			if s.devClass.v == "Desktop" && s.os.name == "Linux" {
				s.vestelUID()
				s.skyQDevice()
				s.infomirMAG()
				s.operaProfile()
			}
		}
	}
	if s.devClass.v == "TV" && s.devBrand.c < confFamily+1 {
		s.oemBrand()
	}
	if s.setTopBox() {
		return
	}
	switch {
	case p.has(kwCrKey) && s.devBrand.c < confTVPlatformMaker:
		// Chromecast's "CrKey" (Chrome key) product or comment. Its
		// system is whatever the comment says (a desktop Linux, or
		// nothing), so the class of the system is left as it is. A
		// television that runs the Cast receiver and names its own
		// platform (VIZIO's SmartCast) is that television.
		s.setDevice(confFamily, tvChromecast.class, tvChromecast.maker, tvChromecast.device)
		return
	case p.has(kwGoogleTV) && s.os.name != "Fuchsia":
		s.googleTV()
		return
	case p.has(kwWeb0S) || p.has(kwNetCast):
		// LG's television systems. webOS sets name their model in the
		// "(LGE, 49UJ634V-ZD, wired)" trailer, except the first
		// generation, which puts "WEBOS1" there.
		s.setDevice(confFamily, tvWebOS.class, tvWebOS.maker, tvWebOS.device)
		if s.ceDevice() && (s.devBrand.v != tvWebOS.maker || strings.HasPrefix(asciiLower(s.devName.v), "lg webos") ||
			strings.HasSuffix(s.devName.v, "Unspecified TV")) {
			s.devBrand.set(tvWebOS.maker, confFamily+4+2)
			s.devName.set(tvWebOS.device, confFamily+4+2)
		}
		if s.devName.v == tvWebOS.device {
			// "LG Browser/5.00.00(+mouse+3D; LGE; 42LM6700-UA; 04.02.00;
			// ...)": the maker, then the model.
			for i, e := range p.entries {
				if p.ltext(e) == "lge" && i+1 < len(p.entries) && p.entries[i+1].block == e.block {
					if m := p.text(p.entries[i+1]); isModelNumber(m) && !strings.HasPrefix(m, "WEBOS") {
						s.devName.set(tvWebOS.maker+" "+m, confFamily+5+3)
					}
					break
				}
			}
		}
		if m, ok := strings.CutPrefix(s.devName.v, tvWebOS.maker+" "); ok && s.devBrand.v == tvWebOS.maker {
			if b := modelCodeBrand(m); b != "" && b != tvWebOS.maker {
				// The webOS sets LG builds for other brands name only
				// LG; their model number is the brand's
				// (tables/model_codes.tsv).
				s.devBrand.set(b, confFamily+5+3)
				s.devName.set(b+" "+m, confFamily+5+4)
			}
		}
		s.webOSVersion()
	}
	switch {
	case p.has(kwNetCast) && !p.has(kwWeb0S):
		// The NetCast sets before webOS send a plain desktop Linux
		// platform, which Yauaa keeps as a desktop system.
		s.devClass.set("TV", confFamily)
	case p.hasAny(&tvWordNeedles) || smartTVWord(p) || p.has(kwGoogleTV) && s.os.name != "Fuchsia" || vieraWord(p):
		// A word of tables/tv_devices.tsv (tvWord), or one that is a word
		// only where it stands alone: "SmartTV", not "SmartTVa"; "Viera",
		// not "RIVIERA".
		s.devClass.set("TV", confFamily)
		if s.os.class == "" || s.os.name == "Linux" || s.os.name == "Android" || s.os.name == "Tizen" {
			s.os.class = "Embedded"
		}
	}
}

// smartTVBrand writes the brand of a "(Brand; SmartTV; ...)" list. The
// sets that Hisense's VIDAA runs on for other brands add the code of the
// company that built them or of the market after a dash or an underscore
// ("JVC-CVTE", "SALORA_cx", "FLEXY_HK"): the brand is the name before it.
func smartTVBrand(b string) string {
	if k := strings.LastIndexAny(b, "-_"); k >= 3 && len(b)-k-1 >= 2 && len(b)-k-1 <= 4 && allLetters(b[k+1:]) {
		b = b[:k]
	}
	if v, ok := tvVendors[strings.ToLower(b)]; ok {
		return v
	}
	return normalizeName(b)
}

// vieraWord reports Panasonic's "Viera" as a word of its own, not the end
// of another ("RIVIERA F23", a phone).
func vieraWord(p *parsed) bool {
	i := p.index(kwViera)
	return i >= 0 && (i == 0 || !isLetter(p.low[i-1]))
}

// hbbTVDevice reads the device of a hybrid broadcast TV. The HbbTV
// specification (ETSI TS 102 796) makes such a set add
// "HbbTV/1.x.y (capabilities; vendor; model; software version; hardware
// version; reserved)" to its user agent, so vendor and model sit at fixed
// places. A set that leaves them empty is an "Unspecified TV".
// What the entry and Loewe's LOH entry make the device is their rows of
// tables/tv_devices.tsv; the fixed fields stay a reader in Go.
func (s *state) hbbTVDevice() bool {
	p := s.p
	i := p.index(kwHbbTVSlash)
	if i < 0 {
		return false
	}
	s.devClass.set(tvHbbTV.class, confFamily)
	s.devBrand.set(tvHbbTV.maker, confFamily)
	s.devName.set(tvHbbTV.device, confFamily)
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
			s.devBrand.set(tvLoewe.maker, confFamily+1)
			s.devName.set(tvLoewe.device, confFamily+1)
			s.os = osInfo{name: tvLoewe.system, version: orUnknown(leadingVersion(v)), class: "Embedded", cpu: s.os.cpu}
		} else if pr, ok := p.product("LOEWE"); ok && strings.EqualFold(pr.version, "TV") {
			// "LOEWE/TV HbbTV/1.1.1 CE-HTML/1.0 SL121/16.16.0": Loewe's
			// older sets name the maker first and the chassis, with its
			// software version, last; the chassis is the model the
			// later sets write in the HbbTV entry ("SL32x", "SL310").
			s.devBrand.set(tvLoewe.maker, confFamily+1)
			s.devName.set(tvLoewe.device, confFamily+1)
			for _, q := range p.products {
				if d := strings.TrimRight(q.name, "xX"); len(d) > 2 && len(q.name) <= 6 && hasPrefixFold(d, "sl") && isDigits(d[2:]) {
					s.devName.set(tvLoewe.maker+" "+normalizeName(q.name), confFamily+3)
					break
				}
			}
		} else if v := hbbTVListVendor(p.ua[j:]); v != "" {
			s.devBrand.set(brandSpelling(v), confFamily+1)
			s.devName.set(s.devBrand.v+" Unspecified TV", confFamily+1)
			// Vestel's sets that list the vendor this way end with the
			// consumer electronics trailer, which names the model
			// ("Digital-TV/V8-T56FT05-LF1V313 (TCL,32D2930,wireless)").
			s.ceDevice()
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
	if c, v, ok := strings.Cut(fields[0], ","); ok && strings.HasPrefix(c, "+") {
		// "(+DRM, XGEM; 93FZTK2;1.1.0;Skardin;Wired)": a comma written for
		// the semicolon after the capabilities; the vendor is after it.
		if v = strings.TrimSpace(v); v != "" && isLetter(v[0]) {
			copy(fields[2:], fields[1:len(fields)-1])
			fields[1] = v
		}
	}
	vendor, model, software := hbbTVVendor(fields[1], fields[2]), fields[2], fields[3]
	if vendor == "" {
		return true
	}
	if hasPrefixFold(model, "smarttv_") {
		// "(+DRM;Hisense;SmartTV_2021;V0000.01.00U.M0421;50A60GEVS_0003;
		// SmartTV_2021;)": Hisense's platforms write the platform's name
		// where the model goes and the model, with a variant after an
		// underscore, in the hardware version.
		if m, _, _ := strings.Cut(fields[4], "_"); isModelNumber(m) {
			model = m
		}
	}
	if k := strings.IndexByte(model, ':'); k > len("smarttv") && k+1 < len(model) && hasPrefixFold(model, "smarttv") {
		// "(+DRM;Samsung;SmartTV2021:QAQ80;...)": Samsung's platform of
		// a year written before the model, after a colon.
		model = model[k+1:]
	}
	if vendor != fields[1] && strings.EqualFold(fields[1], "Amazon") {
		// A Fire TV set of another maker: the maker and model it adds to
		// Amazon's code outrank what the code says in
		// tables/amazon_devices.tsv (a code names the board, which sets of
		// several makers share).
		brand := brandSpelling(vendor)
		s.setDevice(confTable+1, "TV", brand, brand+" "+normalizeName(model[strings.Index(model, vendor)+len(vendor)+1:]))
		return true
	}
	s.devBrand.set(brandSpelling(vendor), confFamily+1)
	s.devName.set(s.devBrand.v+" Unspecified TV", confFamily+1)
	if model != "" {
		s.devName.set(s.devBrand.v+" "+normalizeName(model), confFamily+3)
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

// oemBrand reads the brand of a television whose HbbTV entry named none,
// from the two places where the sets that one company builds for many
// brands name the brand they are sold under:
//   - the Freeview Play entry, which follows the HbbTV convention with the
//     vendor first ("FVC/5.0 (BUSH; MB181; )");
//   - the comment of TiVo OS, "(ODM board BRAND)" ("TiVoOS/1.0.0 (Vestel
//     MB181 CROWN)").
//
// Either outranks the maker of the browser's "Model/Vestel-MB181" product,
// which names the company that built the set.
func (s *state) oemBrand() {
	if c, ok := s.p.commentAfter("FVC/"); ok {
		vendor, model, _ := strings.Cut(c, ";")
		model, _, _ = strings.Cut(model, ";")
		vendor = hbbTVVendor(strings.TrimSpace(vendor), strings.TrimSpace(model))
		if vendor != "" && isLetter(vendor[0]) && !strings.ContainsAny(vendor, ".,") {
			s.devBrand.set(brandSpelling(vendor), confFamily+1)
			s.devName.set(s.devBrand.v+" Unspecified TV", confFamily+1)
			return
		}
	}
	if c, ok := s.p.commentAfter("TiVoOS/"); ok {
		if f := strings.Fields(c); len(f) >= 3 && isLetter(f[2][0]) {
			s.devBrand.set(brandSpelling(strings.Join(f[2:], " ")), confFamily+1)
			s.devName.set(s.devBrand.v+" Unspecified TV", confFamily+1)
		}
	}
}

// commentAfter returns the text of the parenthesised comment that follows
// the first product starting with prefix ("FVC/5.0 (BUSH; MB181; )"), and
// whether there is one. It is asked only by the rules of televisions.
func (p *parsed) commentAfter(prefix string) (string, bool) {
	i := strings.Index(p.ua, prefix)
	if i < 0 {
		return "", false
	}
	rest := p.ua[i+len(prefix):]
	j := strings.IndexAny(rest, " (")
	if j < 0 {
		return "", false
	}
	rest = strings.TrimLeft(rest[j:], " ")
	if rest == "" || rest[0] != '(' {
		return "", false
	}
	end := strings.IndexByte(rest, ')')
	if end < 0 {
		return "", false
	}
	return rest[1:end], true
}

// sonyCEModel reads the model in the comment of Sony's browser, the entry
// before the firmware ("SonyCEBrowser/1.0 (BDPlayer; BDP-S1700;
// BDP2016/M36.D.0020; XAE; )", "SonyCEBrowser/1.0 (KD-55X8500B;
// CTV2014/PKG2.263GAA; AUS)"); the kind of device a player writes first
// is none. It gives "" where no entry with a slash follows a model.
func sonyCEModel(p *parsed) string {
	c, ok := p.commentAfter("SonyCEBrowser/")
	if !ok {
		return ""
	}
	model := ""
	for f := range strings.SplitSeq(c, ";") {
		f = strings.TrimSpace(f)
		if strings.IndexByte(f, '/') > 0 {
			return model
		}
		if !strings.EqualFold(f, "BDPlayer") {
			model = f
		}
	}
	return ""
}

// hbbTVListVendor finds the maker in the entries that follow an HbbTV
// version sent without its parenthesised list, in the comment or, where a
// proxy stripped the parentheses, in the bare list: an entry of its own
// ("HbbTV/1.1.1;CE-HTML/1.0;Vendor/TCL;SW-Version/..."). A name before
// the firmware version ("CE-HTML/1.0;PEAQ LF1V368; en") is not read as the
// maker: Yauaa keeps such a set an Unspecified TV.
// It stays in Go: it reads a place in a list, not a name a row could hold.
func hbbTVListVendor(rest string) string {
	if k := strings.IndexByte(rest, ')'); k >= 0 {
		rest = rest[:k]
	}
	n := 0
	for f := range strings.SplitSeq(rest, ";") {
		if n++; n > 8 {
			break
		}
		f = strings.TrimSpace(f)
		if len(f) > len("vendor/") && strings.EqualFold(f[:len("vendor/")], "vendor/") && isLetter(f[len("vendor/")]) {
			return f[len("vendor/"):]
		}
	}
	return ""
}

// hbbTVVendor gives the brand a television names in the vendor field of
// its HbbTV entry, or of the Freeview Play entry that follows the same
// convention ("FVC/5.0 (VENDOR; MODEL; )"). The vendor is the company that
// made the set, except where the field says otherwise:
//   - sets made for another brand name the chain "maker/brand" or
//     "platform/maker/brand" ("LGE/ATMACA/SUNNY": LG's webOS, built by
//     Atmaca, sold as Sunny): the brand is the last name;
//   - Vestel marks the brand of a customer "CUS:" ("CUS:FUNAI");
//   - the sets that run Hisense's VIDAA for another brand name VIDAA and
//     end the model field with the brand ("2023_VS0643FD2_0104_COLES");
//   - the televisions of other makers that run Amazon's Fire TV name
//     Amazon and add the maker and model to Amazon's model code
//     ("Amazon;AFTBOXE1-TOSHIBA-65UF3D63DA").
//
// A name followed by a version ("Freesat/1.0") is a platform, kept as it
// is.
// These are conventions of the field's syntax (a separator, a mark, the
// end of another field), so they stay in Go; a brand a vendor writes
// another way is a row of tables/tv_vendors.tsv.
func hbbTVVendor(vendor, model string) string {
	vendor = strings.TrimPrefix(vendor, "CUS:")
	if k := strings.LastIndexByte(vendor, '/'); k > 0 && k+1 < len(vendor) && isLetter(vendor[k+1]) {
		first, _, _ := strings.Cut(vendor, "/")
		if k == len(first) && strings.EqualFold(first, "LGE") {
			return first // "LGE/TPV": LG's set, built by another company
		}
		return vendor[k+1:]
	}
	if strings.EqualFold(vendor, "VIDAA") {
		if k := strings.LastIndexByte(model, '_'); k > 0 && len(model)-k > 3 && !strings.ContainsAny(model[k+1:], "0123456789") {
			return model[k+1:]
		}
		return tvVidaa.maker
	}
	if strings.EqualFold(vendor, "Amazon") && strings.HasPrefix(model, "AFT") {
		if _, rest, ok := strings.Cut(model, "-"); ok {
			if maker, _, ok := strings.Cut(rest, "-"); ok && maker != "" && allLetters(maker) {
				return maker
			}
		}
	}
	return vendor
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
	s.devBrand.set(brandSpelling(vendor), confFamily+1)
	s.devName.set(s.devBrand.v+" Unspecified TV", confFamily+1)
	if model != "" {
		s.devName.set(s.devBrand.v+" "+normalizeName(model), confFamily+3)
	}
	return true
}

// ceTrailerTV makes a television of a device whose user agent ends with
// the consumer electronics trailer, "(Vendor, Model, wired)" or "(Vendor,
// Model, wireless)" exactly, and reads the trailer.
// It names no maker of its own: it is the syntax alone, so it stays in Go.
func (s *state) ceTrailerTV() {
	p := s.p
	low := strings.TrimRight(p.low, " ")
	var k int
	switch {
	case strings.HasSuffix(low, ", wired)"), strings.HasSuffix(low, ",wired)"):
		k = strings.LastIndex(low, "wired)")
	case strings.HasSuffix(low, ", wireless)"), strings.HasSuffix(low, ",wireless)"):
		k = strings.LastIndex(low, "wireless)")
	default:
		return
	}
	if start := strings.LastIndexByte(low[:k], '('); start < 0 || strings.Count(low[start:k], ",") != 2 {
		return
	}
	if s.ceDevice() {
		s.devClass.set("TV", confFamily)
	}
}

// vestelUID makes a television of the Opera browser of Vestel's sets,
// which announce the set in "UID(<MAC address>/<board>/<BRAND>/<software
// version>)" ("UID(00:09:DF:3D:64:E3/MB91/VESTEL/3.2.9.r)+CE-HTML"): the
// board is Vestel's ("MB91", "MB97"), the brand the one the set is sold
// under. The class is the row "vestelUID uid(" of tables/tv_devices.tsv;
// the four fields stay a reader in Go.
func (s *state) vestelUID() {
	i := strings.Index(s.p.ua, "UID(")
	if i < 0 {
		return
	}
	rest := s.p.ua[i+len("UID("):]
	end := strings.IndexByte(rest, ')')
	if end < 0 {
		return
	}
	f := strings.Split(rest[:end], "/")
	if len(f) != 4 || strings.Count(f[0], ":") != 5 || !strings.HasPrefix(f[1], "MB") || f[2] == "" || !isLetter(f[2][0]) {
		return
	}
	s.devClass.set(tvVestelUID.class, confFamily)
	s.devBrand.set(brandSpelling(f[2]), confFamily+1)
	s.devName.set(s.devBrand.v+" Unspecified TV", confFamily+1)
}

// operaProfile reads the device profile that Opera's browser for
// televisions and Blu-ray players names, "<Maker>.<kind>.<year>" with more
// words between or after the parts: after "avdn/" in the list of the
// browser's capabilities, where "-v" after the maker marks a set Vestel
// builds ("(avkb/pc,B:461;avvp/ssl;avui/tv;avst/off;avdn/AKAI-v.tv.2013)"),
// or as an entry of the platform comment ("(Linux armv6l; U;
// Panasonic.bd.2012.Mediatek; en)"). The kind of device is a row
// "operaProfile" of tables/tv_devices.tsv; the maker is the brand. It is
// asked only of a desktop Linux that no other rule made a television, and
// reads only Opera's own user agents ("Opera/9.80 (Linux mips; ..."), so
// that other desktops pay nothing for it.
func (s *state) operaProfile() {
	p := s.p
	if !strings.HasPrefix(p.low, "opera/") {
		return
	}
	if i := strings.Index(p.low, "avdn/"); i >= 0 {
		s.readOperaProfile(p.ua[i+len("avdn/"):])
		return
	}
	for _, e := range p.entries {
		if s.readOperaProfile(p.text(e)) {
			return
		}
	}
}

// readOperaProfile reads one profile of operaProfile, ending at the first
// space, semicolon or parenthesis, and reports whether it was one: a
// maker of letters, a kind of tables/tv_devices.tsv and a year among the
// words after it.
func (s *state) readOperaProfile(v string) bool {
	if k := strings.IndexAny(v, " ;()"); k >= 0 {
		v = v[:k]
	}
	dot := strings.IndexByte(v, '.')
	if dot <= 1 {
		return false
	}
	maker := v[:dot]
	if k := strings.IndexByte(maker, '-'); k > 0 {
		maker = maker[:k]
	}
	for i := 0; i < len(maker); i++ {
		if !isLetter(maker[i]) {
			return false
		}
	}
	var kind tvMarkerDevice
	var hasKind, hasYear bool
	for w := range strings.SplitSeq(v[dot+1:], ".") {
		for _, k := range operaProfileKinds {
			if !hasKind && strings.EqualFold(w, k.kind) {
				kind, hasKind = k.tvMarkerDevice, true
			}
		}
		if len(w) == 4 && strings.HasPrefix(w, "20") && isDigits(w[2:]) {
			hasYear = true
		}
	}
	if !hasKind || !hasYear {
		return false
	}
	s.devClass.set(kind.class, confFamily)
	s.devBrand.set(brandSpelling(maker), confFamily+1)
	if kind.class == "TV" {
		s.devName.set(s.devBrand.v+" Unspecified TV", confFamily+1)
	} else {
		s.devName.set(s.devBrand.v+" "+kind.class, confFamily+1)
	}
	return true
}

// skyQDevice reads Sky's Q set-top boxes, whose browser ends its user
// agent with the box's role and "(maker, model, )": "GW-Device/1.0.0
// (Sky, ES140, )" for the main box (the gateway), "MR-Device/1.0.0 (Sky,
// EM150, )" for a multiroom box. The class is the row "skyQDevice
// -device/" of tables/tv_devices.tsv; the ending, which carries the maker,
// stays a reader in Go.
func (s *state) skyQDevice() {
	low := strings.TrimRight(s.p.low, " ")
	if !strings.HasSuffix(low, ", )") {
		return
	}
	start := strings.LastIndexByte(low, '(')
	if start < 0 {
		return
	}
	before := strings.TrimRight(low[:start], " ")
	if !strings.Contains(before[strings.LastIndexByte(before, ' ')+1:], "-device/") {
		return
	}
	maker, model, ok := strings.Cut(s.p.ua[start+1:len(low)-len(", )")], ",")
	maker, model = strings.TrimSpace(maker), strings.TrimSpace(model)
	if !ok || maker == "" || model == "" || !allLetters(maker) || strings.ContainsAny(model, ",;() ") {
		return
	}
	brand := brandSpelling(maker)
	s.setDevice(confFamily, tvSkyQ.class, brand, brand+" "+model)
}

// infomirMAG reads Infomir's MAG IPTV set-top boxes, whose portal
// application names the box before itself: "MAG250 stbapp ver: 2 rev:
// 250". The maker and class are the row "infomirMAG stbapp" of
// tables/tv_devices.tsv; the model before the marker, "MAG" and digits,
// stays a reader in Go.
func (s *state) infomirMAG() {
	i := strings.Index(s.p.ua, " stbapp ")
	if i < 0 {
		return
	}
	model := s.p.ua[strings.LastIndexByte(s.p.ua[:i], ' ')+1 : i]
	if len(model) < 4 || !strings.HasPrefix(model, "MAG") || !isDigits(model[3:]) {
		return
	}
	s.setDevice(confFamily, tvInfomirMAG.class, tvInfomirMAG.maker, tvInfomirMAG.maker+" "+model)
}

// inettvMaker reads the maker and model of a Japanese internet television
// from its InettvBrowser profile, "InettvBrowser/2.2 (00014A;SonyDTV140;
// 0001;0001) KDL40W705C;": the second field is the maker's name and "DTV"
// with a number, and the model follows the profile. Any maker may write
// its name there, so no row lists them: the reader stays in Go.
func (s *state) inettvMaker() {
	c, ok := s.p.commentAfter("InettvBrowser/")
	if !ok {
		return
	}
	f := strings.Split(c, ";")
	if len(f) < 2 {
		return
	}
	k := strings.Index(f[1], "DTV")
	if k < 3 || !allLetters(f[1][:k]) || !isDigits(f[1][k+3:]) {
		return
	}
	brand := brandSpelling(f[1][:k])
	s.devBrand.set(brand, confTVPlatform)
	s.devName.set(brand+" Unspecified TV", confTVPlatform)
	i := strings.Index(s.p.ua, c)
	rest := strings.TrimLeft(s.p.ua[i+len(c)+1:], " ")
	if j := strings.IndexAny(rest, ";)"); j > 0 && isModelNumber(rest[:j]) {
		s.devName.set(brand+" "+rest[:j], confTVPlatform)
	}
}

// vidaaModel reads the model of a Hisense television from the
// "(Hisense;HE55A7000EUWTS;V0000.01.00A.J0828)" comment its browser adds
// after the chipset ("Hisense-MSD6886"): the maker, then the model number
// (the maker of the row "tvDevice vidaa" of tables/tv_devices.tsv).
func (s *state) vidaaModel() {
	p := s.p
	for i, e := range p.entries {
		if p.ltext(e) != "hisense" || i+1 >= len(p.entries) || p.entries[i+1].block != e.block {
			continue
		}
		if m := p.text(p.entries[i+1]); isModelNumber(strings.ReplaceAll(m, "_", "-")) {
			s.devName.set(tvVidaa.maker+" "+normalizeName(m), confFamily+3)
			return
		}
	}
}

// Needles of the set-top box rules.
var (
	kwKreaTV   needleID
	kwRokuDVP  needleID
	kwNSZDash  needleID
	kwAppleTV  needleID
	kwAppleTV2 needleID
)

// setTopBoxMakers are companies that make set-top boxes only; a comment
// entry that starts with one of them ("Arris MediaPlayer 2.0",
// "Sagemcom-OTT-DTIW384") names such a box (tables/set_top_box_makers.tsv;
// the prefix is the lower case name and a space, or a dash in its place).
var setTopBoxMakers []struct{ prefix, brand string }

func buildSetTopBoxMakers() []struct{ prefix, brand string } {
	rows := loadTable("set_top_box_makers.tsv", tableColumns["set_top_box_makers.tsv"])
	out := make([]struct{ prefix, brand string }, len(rows))
	for i, r := range rows {
		out[i].prefix, out[i].brand = r[0]+" ", r[1]
	}
	return out
}

// setTopBoxNeedles lets setTopBox skip the comment when no maker occurs.
var setTopBoxNeedles needleGroup

func buildSetTopBoxNeedles() needleGroup {
	out := make([]string, 0, 2*len(setTopBoxMakers))
	for _, m := range setTopBoxMakers {
		out = append(out, m.prefix, m.prefix[:len(m.prefix)-1]+"-")
	}
	return uaNeedles.group(out)
}

// tvPlatforms maps the lower case name of a browser or platform that runs
// only on televisions and the boxes that drive them to that class, and to
// the system it is, if it is one (tables/tv_platforms.tsv).
var tvPlatforms map[string]tvPlatformRow

type tvPlatformRow struct{ class, system, maker, device string }

func buildTVPlatforms() map[string]tvPlatformRow {
	rows := loadTable("tv_platforms.tsv", tableColumns["tv_platforms.tsv"])
	m := make(map[string]tvPlatformRow, len(rows))
	for _, r := range rows {
		row := tvPlatformRow{class: r[1], system: optionalCell(r[2])}
		if r[3] != "-" {
			row.maker = r[3]
			switch {
			case r[4] != "-":
				row.device = r[4]
			case r[1] == "TV":
				row.device = r[3] + " Unspecified TV"
			default:
				row.device = r[3] + " " + r[1]
			}
		}
		m[r[0]] = row
	}
	return m
}

// confTVPlatformMaker is the confidence of the maker a platform of one
// maker names ("SonyCEBrowser"): under every rule that reads the set's own
// maker or model, the "Model/Sony-KDL-32EX550" product included.
const confTVPlatformMaker = confTVPlatform - 1

// tvModelAfterPlatform writes the set's model that ends the user agent
// after the product of a maker's platform (products[i]), a model code
// without a version, as Sharp's AQUOS sets write it ("AQUOS-AS/2.0
// LC-46LX840H").
func (s *state) tvModelAfterPlatform(r tvPlatformRow, i int) {
	p := s.p
	if r.maker == "" || i+2 != len(p.products) {
		return
	}
	if m := p.products[i+1]; m.version == "" && isModelNumber(m.name) {
		s.devName.set(r.maker+" "+m.name, confTVPlatformMaker)
	}
}

// tvPlatformMaker writes the maker a platform row names, if any, as the
// brand, and the row's device, or the model that the comment after the
// platform's product or a "Model/" entry of a comment gives, as the device
// name.
func (s *state) tvPlatformMaker(r tvPlatformRow, product string) {
	if r.maker == "" {
		return
	}
	s.devBrand.set(r.maker, confTVPlatformMaker)
	s.devName.set(r.device, confTVPlatformMaker)
	if c, ok := s.p.commentAfter(product + "/"); ok && product != "" && r.class == "Set-top box" {
		// "BrightSign/8.0.48 (LS424-W)": a player's model in the comment
		// after the platform (a television's browser puts its profile
		// there, "AQUOSBrowser/1.0 (AS00DTV;V;0001;0001)").
		if m, _, _ := strings.Cut(c, ";"); isModelNumber(m) {
			s.devName.set(r.maker+" "+m, confTVPlatformMaker)
		} else if m := duneHDModel(m); m != "" && strings.EqualFold(product, "DuneHD") {
			s.devName.set(r.maker+" "+m, confTVPlatformMaker)
		}
	}
	if m := sonyCEModel(s.p); m != "" && r.maker == "Sony" {
		s.devName.set(r.maker+" "+normalizeName(m), confTVPlatformMaker)
	}
	if i := strings.Index(s.p.low, " model/"); i > 0 && s.p.inComment(i) {
		// "VIZIO SmartCast(Conjure/... Model/V435-J01)": the model in
		// the platform's comment.
		m := s.p.ua[i+len(" model/"):]
		if k := strings.IndexAny(m, " ;)"); k >= 0 {
			m = m[:k]
		}
		if m != "" && strings.ContainsAny(m, "0123456789") {
			s.devName.set(r.maker+" "+m, confTVPlatformMaker)
		}
	}
}

// tvMarkerDevice is a row of tables/tv_devices.tsv: the class a marker
// makes the device, the maker and the device it names ("" where the
// reader reads them from the user agent) and the system it is.
type tvMarkerDevice struct{ class, maker, device, system string }

// The rows of tables/tv_devices.tsv that the readers of this file write,
// each named by the marker its reader looks for. The readers stay in Go
// because each reads a syntax of its own (a product version, a comment's
// fixed fields, the words around a marker), which a row cannot describe;
// what the marker says about the device is the row's.
var (
	tvKreaTV, tvRoku, tvComcastX1, tvChromecast, tvGoogleTV      tvMarkerDevice
	tvInfomirMAG, tvSkyQ, tvVestelUID, tvVidaa, tvSamsungSmartTV tvMarkerDevice
	tvNetTV, tvNetTVPhilips, tvWebOS, tvHbbTV, tvLoewe           tvMarkerDevice
)

// tvWordNeedles are the words that make a television of a user agent
// wherever they occur (the rows "tvWord" of tables/tv_devices.tsv).
var tvWordNeedles needleGroup

// operaProfileKinds are the kinds of device of the profiles Opera's
// browser for televisions and players names (the rows "operaProfile" of
// tables/tv_devices.tsv), with the lower case kind ("tv", "bd").
var operaProfileKinds []struct {
	kind string
	tvMarkerDevice
}

// starboardTypes are the device types of Cobalt's (Starboard's) products,
// in table order, as the product writes them ("_TV_"), with the class each
// gives (the rows of tables/tv_devices.tsv read by starboardDevice).
var starboardTypes []struct{ token, class string }

// tvVendors maps the lower case vendor a television writes in a vendor
// field to the brand, where the two are spelled apart
// (tables/tv_vendors.tsv).
var tvVendors map[string]string

// confTVPlatform is the confidence of what a platform of
// tables/tv_platforms.tsv says: one under a family's own marker, because a
// rule that names the box or the set ("KreaTV/15.99.2.1 (ARRIS, ...)", a
// Hisense television, a "Google TV Stick" model) is the more specific
// reading of a user agent that also names the browser its maker ships
// ("OMI/4.1.4.54", "TV Safari/537.36").
const confTVPlatform = confFamily - 1

// tvPlatformNeedles lets tvPlatform skip the products and the comment when
// no platform name occurs.
var tvPlatformNeedles needleGroup

func buildTVPlatformNeedles() needleGroup {
	out := make([]string, 0, len(tvPlatforms))
	for k := range tvPlatforms {
		out = append(out, k)
	}
	// Sorted, so that the needles are numbered the same in every run.
	slices.Sort(out)
	return uaNeedles.group(out)
}

// tvPlatform gives the class of a device whose user agent names a browser
// or platform of televisions (tables/tv_platforms.tsv) as a product
// ("SonyCEBrowser/1.0", "ViziOS/1.4") or as a comment entry ("Opera TV
// Store/5606"). It names neither maker nor model: the rules that read
// them (HbbTV, the consumer electronics trailer) are more specific.
func (s *state) tvPlatform() {
	p := s.p
	if !p.hasAny(&tvPlatformNeedles) {
		return
	}
	found := false
	for i := range p.products {
		ln := p.products[i].lname
		r, ok := tvPlatforms[ln]
		if k := strings.LastIndexByte(ln, ' '); !ok && k >= 0 {
			// "VIZIO V505M-K09 ViziOS/1.4.512": the model before the
			// platform, in the same product.
			r, ok = tvPlatforms[ln[k+1:]]
		}
		if ok && found {
			// A browser came first ("OMI/4.23.2.96 ... TiVoOS/1.0.0",
			// "Espial/6.1.5 AQUOSBrowser/2.0"): a later platform still
			// names the system or the maker.
			s.tvPlatformMaker(r, p.products[i].name)
			s.tvModelAfterPlatform(r, i)
			if r.system != "" {
				s.os = osInfo{name: r.system, version: orUnknown(leadingVersion(p.products[i].version)), class: "Embedded", cpu: s.os.cpu}
				return
			}
			continue
		}
		if ok {
			found = true
			s.devClass.set(r.class, confTVPlatform)
			s.tvPlatformMaker(r, p.products[i].name)
			s.tvModelAfterPlatform(r, i)
			if r.system != "" {
				s.os = osInfo{name: r.system, version: orUnknown(leadingVersion(p.products[i].version)), class: "Embedded", cpu: s.os.cpu}
			}
			if k := strings.LastIndexByte(ln, ' '); !s.tvModelProduct() && k > 0 {
				// "VIZIO D32f-J04 ViziOS/1.4": the maker and the model
				// before the platform.
				if maker, model, two := strings.Cut(p.products[i].name[:k], " "); two && model != "" {
					s.devBrand.set(normalizeName(maker), confTVPlatform)
					s.devName.set(normalizeName(maker)+" "+model, confTVPlatform)
				}
			}
			if r.system != "" {
				return
			}
		}
	}
	if found {
		return
	}
	for _, e := range p.entries {
		lt := p.ltext(e)
		if k := strings.IndexByte(lt, '/'); k > 0 {
			lt = lt[:k]
		}
		if r, ok := tvPlatforms[lt]; ok {
			if !found {
				found = true
				s.devClass.set(r.class, confTVPlatform)
				s.tvModelProduct()
			}
			// A later entry may still name the maker ("Opera TV
			// Store/4563; U; SonyCEBrowser/1.0 (BDPlayer; ...").
			s.tvPlatformMaker(r, "")
		}
	}
}

// tvModelProduct reads the maker and the model of a television from the
// "Model/Maker-Model" product its browser adds ("Model/Sony-KDL-32EX550",
// "Model/Vestel-MB181"), and reports whether it found one. It is asked
// only where a platform of tables/tv_platforms.tsv says the device is a
// television or a box.
func (s *state) tvModelProduct() bool {
	pr, ok := s.p.product("Model")
	if !ok {
		return false
	}
	maker, model, two := strings.Cut(pr.version, "-")
	if !two || maker == "" || model == "" || !isLetter(maker[0]) {
		return false
	}
	if _, known := knownBrand(maker); !known {
		// TCL's Opera sets name their platform after its chip, with
		// TCL's own code for the chassis in the comment that follows
		// ("Model/ELM-NT72563C(TCL72563C;V8-NT63CLA-LF1V628;...)").
		for _, e := range s.p.entries {
			if lt := s.p.ltext(e); len(lt) > 4 && strings.HasPrefix(lt, "tcl") && lt[3] >= '0' && lt[3] <= '9' {
				maker = "TCL"
				break
			}
		}
	}
	s.devBrand.set(normalizeName(maker), confTVPlatform)
	s.devName.set(normalizeName(maker)+" "+model, confTVPlatform)
	return true
}

// setTopBox recognises the boxes that connect a television to the
// internet and reports whether it found one:
//   - Arris's KreaTV system ("KreaTV/15.99.2.1 (ARRIS, IPC1100P2, wired)"),
//   - Roku's players, whose product version is the "DVP" (digital video
//     player) firmware ("Roku/DVP-10.5"),
//   - Android TV devices that say so in their model ("SHIELD Android TV"),
//     and Sony's NSZ Google TV players,
//   - the WPE WebKit browser of Comcast's RDK based X1 boxes, which adds
//     only "WPE" to a Linux platform,
//   - comment entries naming a set-top box maker.
//
// What KreaTV, Roku's firmware and WPE make the device is their rows of
// tables/tv_devices.tsv, and the makers are tables/set_top_box_makers.tsv;
// the places each marker is read from stay in Go.
func (s *state) setTopBox() bool {
	p := s.p
	// The needle bits are tested before the products are searched: a bit
	// test is cheaper than product's call, and nearly every user agent
	// has neither needle.
	if p.has(kwKreaTV) {
		if pr, ok := p.product("KreaTV"); ok && isVersionLike(pr.version) {
			s.os = osInfo{name: tvKreaTV.system, version: pr.version, class: "Embedded", cpu: s.os.cpu}
			s.setDevice(confFamily, tvKreaTV.class, tvKreaTV.maker, tvKreaTV.device)
			s.ceDevice()
			return true
		}
	}
	if p.has(kwRokuDVP) {
		if pr, ok := p.product("Roku"); ok {
			s.os = osInfo{name: tvRoku.system, version: pr.version, class: "Embedded", cpu: s.os.cpu}
			s.setDevice(confFamily, tvRoku.class, tvRoku.maker, tvRoku.device)
			return true
		}
	}
	// The word "box" in any case holds the three ASCII letters (no rune
	// from outside ASCII folds to b, o or x): indexLower, one pass without
	// a copy, spares most Android phones hasWordFold's split of the name.
	if s.os.name == "Android" && (p.has(kwAndroidTV) || p.has(kwNSZDash) && s.devBrand.v == "Sony" ||
		indexLower(s.devName.v, "box") >= 0 && hasWordFold(s.devName.v, "box") || strings.Contains(s.devName.v, "BOX")) {
		s.devClass.set("Set-top box", confFamily+1)
		s.os.class = "Embedded"
		if k := strings.IndexByte(s.devName.v, '/'); k > 0 && s.devBrand.v == "Sony" {
			s.devName.set(s.devName.v[:k], confFamily) // "NSZ-GS7/GX70": the player and its remote
		}
		return true
	}
	if s.os.name == "Android" && (strings.Contains(s.devName.v, "Google TV") || strings.HasPrefix(s.devName.v, "Chromecast")) {
		// Google's own streaming devices ("4K Google TV Stick").
		s.devClass.set("Set-top box", confFamily)
		if s.devBrand.v == "" || s.devBrand.v == Unknown {
			s.devBrand.set("Google", confFamily)
			s.devName.set("Google "+s.devName.v, confFamily)
		}
		return true
	}
	if s.os.name == "Linux" && len(p.products) > 0 && p.products[len(p.products)-1].name == "WPE" {
		s.setDevice(confFamily, tvComcastX1.class, tvComcastX1.maker, tvComcastX1.device)
		return true
	}
	if !p.hasAny(&setTopBoxNeedles) {
		return false
	}
	for _, e := range p.entries {
		lt := p.ltext(e)
		for _, m := range setTopBoxMakers {
			// The maker and the model, after a space or a dash
			// ("Sagemcom-OTT-DTIW384 VF").
			if n := len(m.prefix) - 1; len(lt) > n && strings.HasPrefix(lt, m.prefix[:n]) && (lt[n] == ' ' || lt[n] == '-') {
				model := strings.TrimSpace(p.text(e)[len(m.prefix):])
				if k := strings.LastIndexByte(model, ' '); k > 0 && isVersionLike(model[k+1:]) {
					model = model[:k]
				}
				s.setDevice(confFamily, "Set-top box", m.brand, m.brand+" "+normalizeName(model))
				return true
			}
		}
	}
	return false
}

// googleTV handles the Google TV platform of 2010 to 2014, on boxes of
// Sony, Logitech, LG and others: "(Linux; GoogleTV 3.2; NSZ-GS7/GX70
// Build/MASTER)" names the system version and the box, while the first
// generation sends only "GoogleTV/161242", a build number. The device and
// system are the row "googleTV googletv" of tables/tv_devices.tsv; the
// entry and the box after it stay a reader in Go.
func (s *state) googleTV() {
	p := s.p
	s.setDevice(confFamily+1, tvGoogleTV.class, tvGoogleTV.maker, tvGoogleTV.device)
	v := Unknown
	for i, e := range p.entries {
		lt := p.ltext(e)
		if !strings.HasPrefix(lt, "googletv ") {
			continue
		}
		if ver := leadingVersion(lt[len("googletv "):]); strings.Contains(ver, ".") {
			v = ver
		}
		if i+1 < len(p.entries) && p.entries[i+1].block == e.block {
			model := p.text(p.entries[i+1])
			if k := strings.Index(p.ltext(p.entries[i+1]), " build/"); k > 0 {
				model = model[:k]
			}
			if k := strings.IndexByte(model, '/'); k > 0 {
				model = model[:k]
			}
			if b, rest := brandOfModel(model); b != "" && rest != "" {
				s.devBrand.set(b, confFamily+2)
				s.devName.set(b+" "+normalizeName(rest), confFamily+3)
			}
		}
		break
	}
	s.os = osInfo{name: tvGoogleTV.system, version: v, class: "Embedded", cpu: s.os.cpu}
}

// webOSVersion derives the version of LG's webOS TV from the Chromium
// release its web runtime is built on (webOSTVReleases), where the system
// rules left it unknown.
func (s *state) webOSVersion() {
	if s.os.name != "WebOS" || s.os.version != Unknown && s.os.version != "" {
		return
	}
	pr, ok := s.p.product("Chrome")
	if !ok || pr.name != "Chrome" {
		return
	}
	if r, ok := webOSTVReleases[versionMajor(pr.version)]; ok {
		s.os.version = r
	}
}

// starboardNeedles are the device types of starboardDevice in lower case
// (tables/tv_devices.tsv): a user agent without any of them has no product
// for it to read.
var starboardNeedles needleGroup

// starboardDevice reads the device of YouTube's Cobalt (Starboard) and of
// the TV browsers that follow its convention: a product
// "<operator>_<type>_<chipset>/<firmware>" followed by "(<brand>, <model>,
// <connection>)" ("_TV_MT5800/012.002.051.001 (Philips, 32PHS5301-12,
// wireless)", "_GAME_foo/Basjes (Sony, PS5, Carrier pigeon)"). The type
// says what the device is (the rows "starboardDevice" of
// tables/tv_devices.tsv).
func (s *state) starboardDevice() {
	p := s.p
	if s.devClass.v == "TV" || s.devClass.v == "Set-top box" || s.devClass.v == "Game Console" {
		return
	}
	if !p.hasAny(&starboardNeedles) {
		return // no product names a device type the way Starboard does
	}
	for _, pr := range p.products {
		if strings.IndexByte(pr.name, '_') < 0 {
			continue // the Starboard fields are joined by underscores
		}
		class := ""
		for _, t := range starboardTypes {
			if strings.Contains(pr.name, t.token) {
				class = t.class
				break
			}
		}
		if class == "" {
			continue
		}
		// The comment after the product holds brand, model, connection.
		end := strings.Index(p.ua, pr.name)
		if end < 0 {
			return
		}
		rest := p.ua[end+len(pr.name):]
		open := strings.IndexByte(rest, '(')
		close := strings.IndexByte(rest, ')')
		if open < 0 || close < open {
			return
		}
		parts := strings.Split(rest[open+1:close], ",")
		if len(parts) < 2 {
			return
		}
		brand, model := strings.TrimSpace(parts[0]), strings.TrimSpace(parts[1])
		if brand == "" || model == "" {
			return
		}
		s.devClass.set(class, confFamily)
		s.devBrand.set(brandSpelling(brand), confFamily)
		s.devName.set(s.devBrand.v+" "+normalizeName(model), confFamily)
		if s.os.name == "" || s.os.name == "Linux" || s.os.name == "Android" {
			s.os.class = "Embedded"
		}
		return
	}
}

// duneHDModel returns the model a Dune HD player writes first in its
// comment, or "". Dune HD names its models in lower case, by a code or a
// word ("DuneHD/1.0 (tv102; ...)", "(connect; ...)"), which isModelNumber
// would refuse; an operator's build puts its own name before two
// underscores ("(polskytv__tv102; ...)"), and the model is what follows
// them, as device-detector reads it.
func duneHDModel(m string) string {
	if k := strings.LastIndex(m, "__"); k >= 0 {
		m = m[k+2:]
	}
	if m == "" || len(m) > 24 {
		return ""
	}
	for i := 0; i < len(m); i++ {
		if !isAlnumByte(m[i]) {
			return ""
		}
	}
	return m
}
