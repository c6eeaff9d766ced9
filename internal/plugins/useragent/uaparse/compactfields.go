package uaparse

import "strings"

// kwTPAPI is the marker of a partner API player's user agent: one without
// it is not read (partnerFields), which spares the usual user agent a
// search of the whole string.
var kwTPAPI needleID

// compactFields reads the compact "key(value);" user agent of UC Browser
// for iOS: "dv(iPh12,1);pr(UCBrowser/11.3.5.1203);ov(15_2_1);ss(375x812);
// ...". dv is Apple's device identifier with "iPhone" cut to "iPh" (and
// "iPad" to "iPd"), pr the browser and its version, ov the iOS release
// with underscores. Nothing else in it is a product or a comment, so the
// generic rules read nonsense there.
func (s *state) compactFields() {
	ua := s.p.ua
	if !strings.HasPrefix(ua, "dv(") || !strings.Contains(ua, ");pr(") {
		return
	}
	field := func(key string) string {
		i := strings.Index(ua, key+"(")
		if i < 0 || i > 0 && ua[i-1] != ';' {
			return ""
		}
		v := ua[i+len(key)+1:]
		if j := strings.IndexByte(v, ')'); j >= 0 {
			return v[:j]
		}
		return ""
	}
	name, version, _ := strings.Cut(field("pr"), "/")
	if name == "" || !isVersionLike(version) {
		return
	}
	s.setAgent(confStructure, "Browser", name, version)
	dv := field("dv")
	class, devName := "", ""
	switch {
	case strings.HasPrefix(dv, "iPh"):
		class, devName = "Phone", "Apple iPhone"
	case strings.HasPrefix(dv, "iPd"), strings.HasPrefix(dv, "iPad"):
		class, devName = "Tablet", "Apple iPad"
	default:
		return
	}
	s.setDevice(confStructure, class, "Apple", devName)
	ov := strings.ReplaceAll(field("ov"), "_", ".")
	if !isVersionLike(ov) {
		ov = Unknown
	}
	s.os = osInfo{name: "iOS", version: ov, class: "Mobile", cpu: s.os.cpu}
}

// partnerFields reads the semicolon separated user agent that players of
// a partner API send, "Amazon;AFTMM;756a522d9f1648b89e76e80be654456a;;
// tpapi;3.202.356": the maker, the model, a 32-digit hexadecimal
// installation identifier, an empty field, "tpapi" and the API version.
// It has no product and no comment, so the generic rules find nothing in
// it. A model of Amazon's is looked up as in a Fire OS user agent
// (tables/amazon_devices.tsv); another maker's is named as it is written.
func (s *state) partnerFields() {
	if !s.p.has(kwTPAPI) {
		return
	}
	f, ok := partnerAPIFields(s.p.ua)
	if !ok {
		return
	}
	if strings.EqualFold(f[0], "amazon") {
		s.os = osInfo{name: "FireOS", version: Unknown, class: "Mobile", cpu: s.os.cpu}
		s.devBrand.set("Amazon", confProduct)
		s.devName.set("Amazon "+strings.ReplaceAll(f[1], "_", " "), confProduct)
		s.amazonDevice(f[1])
		switch {
		case hasPrefixFold(f[1], "echo_show"):
			// The product's name rather than its code: the Echo Show
			// is a smart display, the other Echo devices speakers.
			s.devClass.set("Smart Display", confFamily+1)
		case hasPrefixFold(f[1], "echo"):
			s.devClass.set("Voice", confFamily+1)
		}
		return
	}
	brand := normalizeName(f[0])
	s.devBrand.set(brand, confStructure)
	s.devName.set(brand+" "+normalizeName(f[1]), confStructure)
}

// fireTVFields reads the user agent of the web apps of Amazon's Fire TV
// devices, "smarttv_AFTMM_Build_535062120_Chromium_59.0.2883.91": the
// model code, the build and the Chromium version, joined by underscores.
// It has no product and no comment, so the generic rules find nothing in
// it. The televisions of other makers that run Fire TV add their name and
// model to the code ("smarttv_AFTMM-TCL-TS8011_Build_1234_Chromium_..."):
// such a set is that maker's; otherwise the code is looked up as in a Fire
// OS user agent (tables/amazon_devices.tsv).
func (s *state) fireTVFields() {
	ua := s.p.ua
	if !strings.HasPrefix(ua, "smarttv_AFT") {
		return
	}
	code, rest, ok := strings.Cut(ua[len("smarttv_"):], "_Build_")
	if !ok || code == "" || strings.ContainsAny(code, " ;/()") {
		return
	}
	_, chromium, ok := strings.Cut(rest, "_Chromium_")
	if !ok || !isVersionLike(chromium) {
		return
	}
	s.os = osInfo{name: "FireOS", version: Unknown, class: "Embedded", cpu: s.os.cpu}
	s.setAgent(confStructure, "Browser", "Chromium", chromium)
	s.setEngine(confStructure, "Browser", "Blink", twoParts(chromium))
	if model, maker, ok := strings.Cut(code, "-"); ok {
		if maker, name, ok := strings.Cut(maker, "-"); ok && maker != "" && allLetters(maker) && name != "" {
			brand := brandSpelling(maker)
			s.setDevice(confStructure, "TV", brand, brand+" "+normalizeName(name))
			return
		}
		code = model
	}
	s.devBrand.set("Amazon", confProduct)
	s.devName.set("Amazon "+code, confProduct)
	s.amazonDevice(code)
}

// partnerAPIFields splits a partner API player's user agent
// ("Amazon;Echo_Show_5;<32 hexadecimal digits>;;tpapi;3.199.422") into
// its fields, and reports whether ua has that shape.
func partnerAPIFields(ua string) ([]string, bool) {
	if !strings.Contains(ua, ";;tpapi") {
		return nil, false
	}
	f := strings.Split(ua, ";")
	if len(f) < 5 || f[3] != "" || f[4] != "tpapi" || len(f[2]) != 32 || strings.TrimLeft(strings.ToLower(f[2]), "0123456789abcdef") != "" ||
		f[0] == "" || !allLetters(f[0]) || f[1] == "" || strings.ContainsAny(f[1], " /()") {
		return nil, false
	}
	return f, true
}
