package uaparse

import "strings"

// huaweiModel reports whether a model follows Huawei's and Honor's naming:
// a three-letter series code, sometimes with a digit ("MAR", "Che1"), a
// dash, then a variant of one to three letters, one to three digits and up
// to three more letters or digits ("MAR-LX1M", "CAM-TL00H", "EML-L29",
// "ANA-AN00"). Two-letter series codes ("SM-", "LM-", "XQ-") belong to
// other makers and do not match.
func huaweiModel(m string) bool {
	dash := strings.IndexByte(m, '-')
	if dash == 2 && allLetters(m[:2]) && huaweiVariant(m[3:]) {
		// Two-letter series ("SC-UL10") only with Huawei's own variant
		// codes, which other makers' two-letter prefixes ("SM-G960F",
		// "LM-X420") do not use.
		return true
	}
	if dash == 4 && allCapitals(m[:4]) && (huaweiVariant(m[5:]) || wifiVariant(m[5:])) {
		// Four-letter series of the later phones and tablets
		// ("TNNH-AN00", "BTKR-W09"), only with Huawei's own variant codes
		// or its Wi-Fi tablets' W and two digits: other makers' four
		// capitals and a dash ("VOTO-T8100", "LEAP-S1") use neither.
		return true
	}
	if dash != 3 && dash != 4 || m[0] < 'A' || m[0] > 'Z' {
		return false
	}
	for i := 1; i < 3; i++ {
		if !isLetter(m[i]) {
			return false
		}
	}
	if dash == 4 && (m[3] < '0' || m[3] > '9') {
		return false
	}
	rest := m[dash+1:]
	i := 0
	for i < len(rest) && isLetter(rest[i]) {
		i++
	}
	letters := i
	for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
		i++
	}
	digits := i - letters
	tail := len(rest) - i
	if letters < 1 || letters > 3 || digits < 1 || digits > 3 || tail > 3 {
		return false
	}
	if letters == 1 && digits == 1 && tail == 0 {
		// Huawei writes one network letter with two digits ("L09",
		// "W09"); a letter and one digit alone ("SKW-A0", "SAC-A0",
		// "MES-B1") is Black Shark's, Coolpad's and other makers' in
		// Google Play's list, which has no Huawei or Honor model so.
		return false
	}
	for ; i < len(rest); i++ {
		if !isLetter(rest[i]) && (rest[i] < '0' || rest[i] > '9') {
			return false
		}
	}
	return true
}

// xiaomiModel reports Xiaomi's model numbers since 2019, which encode the
// year and month of release: "M2011K2C" (M, four digits, a letter, one or
// two digits, letters; "M2010J19SY", "M1903F10G") or "2201117TG" (seven
// digits, then one to three letters).
func xiaomiModel(m string) bool {
	digitsThenLetters := func(s string, nd int) bool {
		if len(s) < nd+1 || len(s) > nd+3 {
			return false
		}
		for i := 0; i < len(s); i++ {
			c := s[i]
			if i < nd && (c < '0' || c > '9') || i >= nd && (c < 'A' || c > 'Z') {
				return false
			}
		}
		return true
	}
	if len(m) >= 8 && len(m) <= 11 && m[0] == 'M' && m[5] >= 'A' && m[5] <= 'Z' && m[6] >= '0' && m[6] <= '9' {
		for i := 1; i < 5; i++ {
			if m[i] < '0' || m[i] > '9' {
				return false
			}
		}
		i := 7
		if m[i] >= '0' && m[i] <= '9' {
			i++ // the series' second digit
		}
		if i == len(m) || len(m)-i > 3 {
			return false
		}
		for ; i < len(m); i++ {
			if m[i] < 'A' || m[i] > 'Z' {
				return false
			}
		}
		return true
	}
	if len(m) == 7 && strings.HasPrefix(m, "201") && isDigits(m) {
		// The first Redmi phones were sold under 2013 and 2014 model
		// numbers ("2013023", "2014811").
		return true
	}
	return digitsThenLetters(m, 7)
}

// brandPrefixOf returns the first prefix of brands.tsv that lm, a model in
// lower case, starts with, or nil. A prefix of digits ("508", Alcatel's
// 5033D) names a model code, and a code has letters: a number alone
// ("(508)", a build) is no model, so such a prefix needs a letter in lm.
func brandPrefixOf(lm string) *brandPrefix {
	if lm == "" {
		return nil
	}
	var second byte
	if len(lm) > 1 {
		second = lm[1]
	}
	for _, c := range prefixesByInitial[lm[0]] {
		// The second byte is compared first: most prefixes of an
		// initial differ there, and the comparison saves a call.
		if c.second != 0 && c.second != second {
			continue
		}
		bp := &brandPrefixes[c.index]
		if strings.HasPrefix(lm, bp.prefix) && (!bp.digits || hasLetter(lm)) {
			return bp
		}
	}
	return nil
}

// brandOfModel finds the brand of a device model and the model with the
// brand prefix removed.
func brandOfModel(model string) (brand, rest string) {
	// Only the start of the model is compared (no brand or prefix is
	// longer than 32 bytes, TestBrandPrefixLengths), so its lower case
	// form fits a buffer on the stack: this runs for most user agents.
	var buf [32]byte
	lb := buf[:copy(buf[:], model)]
	for i, c := range lb {
		if c >= 'A' && c <= 'Z' {
			lb[i] = c + 'a' - 'A'
		}
	}
	lm := string(lb)
	if len(lm) > 8 && strings.HasPrefix(lm, "samsung ") {
		// Samsung Internet puts "SAMSUNG" in front of whatever device it
		// runs on ("SAMSUNG Redmi Note 9 Pro"); a model with a brand of
		// its own belongs to that brand.
		if b, r := brandOfModel(model[8:]); b != "" && b != "Samsung" {
			return b, r
		}
	}
	if mlsModel(model) {
		return "MLS", model
	}
	if bp := brandPrefixOf(lm); bp != nil {
		own := hasPrefixFold(lm, bp.brand)
		if bp.digits || bp.shaped && !own {
			// A whole model-code shape (Sharp's "509SH", Coby's
			// "MID7012") says more than the few leading characters of
			// a model code ("508", "mid");
			// a model that starts with the maker's own name keeps it.
			if b := modelCodeBrand(model); b != "" {
				return b, model
			}
		}
		if own && bp.brand == "SonyEricsson" {
			// Sony's Xperia phones of 2012 and later still wrote the old
			// company's name before their code ("SonyEricssonLT28h"); the
			// code says which company sold them.
			if b := sonyXperiaBrand(xperiaCode(model[len(bp.brand):])); b != "" {
				return b, model[len(bp.brand):]
			}
		}
		brand = bp.brand
		// Remove the brand itself from the model, not a model prefix
		// such as "SM-" or "Nexus".
		if own {
			rest = cutBrandGap.trimLeft(model[len(brand):])
		} else {
			rest = model
		}
		return brand, rest
	}
	switch {
	case huaweiModel(model):
		return "Huawei", model
	case xiaomiModel(model):
		return "Xiaomi", redmiName(model)
	case alcatelModel(model):
		if tclNumber(model) {
			return "TCL", model
		}
		return "Alcatel", model
	}
	if b := sonyXperiaBrand(model); b != "" {
		return b, model
	}
	if b := modelCodeBrand(model); b != "" {
		if b == "Teclast" {
			return b, cutBoardCode(model)
		}
		return b, model
	}
	return "", model
}

// cutBoardCode removes the board's code that Teclast writes in parentheses
// after the model ("M40(N9H3)", "X10 (M1D3)"): it names the board the
// tablet was built on, not the tablet, whose name is M40 on every board.
func cutBoardCode(m string) string {
	n := len(m)
	if n < 8 || m[n-1] != ')' || m[n-6] != '(' {
		return m
	}
	c := m[n-5 : n-1]
	if c[0] < 'A' || c[0] > 'Z' || c[1] < '0' || c[1] > '9' || c[2] < 'A' || c[2] > 'Z' || c[3] < '0' || c[3] > '9' {
		return m
	}
	return strings.TrimRight(m[:n-6], " ")
}

// sonyXperiaBrand returns the brand of Sony's Xperia "LT28h" / "MT11i" /
// "ST25i" series codes (the carriers' "601SO" codes are in
// tables/model_codes.tsv), or "". The phones launched before Sony bought
// Ericsson's half of the company in 2012 were sold as Sony Ericsson's: the
// lower numbers of each series (LT18i, the Xperia arc S; ST18i, the Xperia
// ray; MT25i, the Xperia neo L) and the SK17, WT19 and MK16 series, which
// ended with it (the first of the series were LT15i, ST15i and MT11i). LT22i (the Xperia P), ST21i (the Xperia tipo) and MT27i
// (the Xperia sola) came out under Sony's name.
func sonyXperiaBrand(m string) string {
	if len(m) >= 4 && len(m) <= 5 && isDigits(m[2:4]) && (len(m) == 4 || m[4] >= 'a' && m[4] <= 'z') {
		n := int(m[2]-'0')*10 + int(m[3]-'0')
		switch m[:2] {
		case "LT":
			return sonyOrEricsson(n >= 15 && n < 22)
		case "ST":
			return sonyOrEricsson(n >= 15 && n < 21)
		case "MT":
			return sonyOrEricsson(n >= 11 && n < 27)
		case "SK", "WT", "MK":
			if n >= 16 && n <= 19 {
				return "SonyEricsson"
			}
		}
	}
	// The Xperia models made for China: "L39h", "L50t", "L55u".
	if len(m) == 4 && (m[0] == 'L' || m[0] == 'l') && isDigits(m[1:3]) && (m[3] == 'h' || m[3] == 't' || m[3] == 'u' || m[3] == 'w' ||
		m[3] == 'T' || m[3] == 'H' || m[3] == 'U' || m[3] == 'W') {
		return "Sony"
	}
	return ""
}

// xperiaCode cuts a carrier's or a region's letters after the variant
// letter of an Xperia code ("ST25iv", "LT22i-o" are ST25i and LT22i).
func xperiaCode(m string) string {
	if len(m) > 5 && m[4] >= 'a' && m[4] <= 'z' {
		return m[:5]
	}
	return m
}

// mlsModel reports whether the model is MLS Innovation's: MLS writes its
// models with a lower case "i" and a capital "Q" ("iQ5017", "iQEL41"),
// while Fly, the other maker of IQ models, writes both in capitals
// ("IQ4415"). Google Play's list of devices has 45 of its 47 models that
// start with "iQ" from MLS; Vivo's iQOO is no MLS model.
func mlsModel(m string) bool {
	return len(m) > 3 && m[0] == 'i' && m[1] == 'Q' && (m[2] >= '0' && m[2] <= '9' || m[2] >= 'A' && m[2] <= 'Z' && m[2] != 'O')
}

// sonyOrEricsson names Sony Ericsson for a model of its years, else Sony.
func sonyOrEricsson(ericsson bool) string {
	if ericsson {
		return "SonyEricsson"
	}
	return "Sony"
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// knownBrand reports whether name (any case) is itself a brand, as in the
// "Samsung/SM-A505FN" products some apps send, and returns its spelling.
func knownBrand(name string) (string, bool) {
	name = strings.TrimSpace(name)
	if name == "" {
		return "", false
	}
	// Only the brands with the same first letter are compared, without
	// case and without copying the name (brand names are ASCII).
	for _, b := range brandsByInitial[lowerASCII(name[0])] {
		if len(b) == len(name) && asciiHasPrefixLower(name, b) {
			return brandSpellings[b], true
		}
	}
	return "", false
}

// brandSpellings gives the spelling of each brand of brandPrefixes by its
// lower case form.
var brandSpellings map[string]string

func buildBrandSpellings() map[string]string {
	m := map[string]string{}
	for _, bp := range brandPrefixes {
		if l := asciiLower(bp.brand); m[l] == "" {
			m[l] = bp.brand
		}
	}
	return m
}

// alcatelModel reports Alcatel's (TCL's) OneTouch model numbers: four
// digits, alone or with one capital for the variant ("8063", "5059D",
// "6045Y").
func alcatelModel(m string) bool {
	m = strings.TrimSuffix(m, "_EEA")
	switch {
	case len(m) == 4:
		return isDigits(m) && m[0] != '0'
	case len(m) == 5:
		return isDigits(m[:4]) && m[0] != '0' && m[4] >= 'A' && m[4] <= 'Z'
	}
	return false
}

// tclNumber reports a model number of alcatelModel's shape with a variant
// letter whose second digit is not 0 ("4188S", "6159A", "9460G"): the
// numbers of the phones and tablets TCL Communication sells under its own
// name since 2020 (TCL 20Y is 6156D, TCL 205 4187D), where the OneTouch
// numbers of its Alcatel phones keep a 0 there ("5033D", "6025H"). A few
// Alcatels have such numbers too (the Pop 3's 5116J, the 1B of 2022's
// 5131E); the catalogue of Android models, which knows the exact model,
// speaks for them.
func tclNumber(m string) bool {
	m = strings.TrimSuffix(m, "_EEA")
	return len(m) == 5 && m[1] != '0'
}

// allLetters reports a non-empty string of ASCII letters only.
func allLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isLetter(s[i]) {
			return false
		}
	}
	return s != ""
}

// huaweiVariant reports the variant codes Huawei and Honor append to a
// series: the network and market letters ("AL", "TL", "UL", "CL", "DL",
// "L", "LX", "AN", "TN", "BD", "NX") and two or three digits ("UL10",
// "AL00", "L21", "LX1").
func huaweiVariant(v string) bool {
	i := 0
	for i < len(v) && v[i] >= 'A' && v[i] <= 'Z' {
		i++
	}
	switch v[:i] {
	case "AL", "TL", "UL", "CL", "DL", "L", "LX", "AN", "TN", "BD", "NX":
	default:
		return false
	}
	d := len(v) - i
	return d >= 1 && d <= 3 && isDigits(v[i:])
}

// wifiVariant reports Huawei's variant code of a Wi-Fi tablet: W and two
// digits ("W09").
func wifiVariant(v string) bool {
	return len(v) == 3 && v[0] == 'W' && isDigits(v[1:])
}

// allCapitals reports a non-empty string of ASCII capitals only.
func allCapitals(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'A' || s[i] > 'Z' {
			return false
		}
	}
	return s != ""
}

// allAlnum reports a non-empty string of ASCII letters and digits only.
func allAlnum(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isLetter(s[i]) && (s[i] < '0' || s[i] > '9') {
			return false
		}
	}
	return s != ""
}

// redmiName gives the first Redmi phones, sold under numbers of their year
// of release, their product names: 2013023 the Redmi 1W, 2014011 the
// Redmi 1S, and the 201481x and 2014821 variants the Redmi 2. Later model
// numbers are kept as they are.
func redmiName(m string) string {
	switch {
	case m == "2013023":
		return "Redmi 1W"
	case m == "2014011":
		return "Redmi 1S"
	case len(m) == 7 && (strings.HasPrefix(m, "201481") || m == "2014821"):
		return "Redmi 2"
	}
	return m
}

// prefixesByInitial lists the positions in brandPrefixes of the prefixes
// starting with each byte, in list order, so that a model is compared
// with the few prefixes that can match it; the first match is the same as
// in a scan of the whole list.
var prefixesByInitial [256][]prefixRef

func buildPrefixesByInitial() (t [256][]prefixRef) {
	for i, bp := range brandPrefixes {
		r := prefixRef{index: i}
		if len(bp.prefix) > 1 {
			r.second = bp.prefix[1]
		}
		t[bp.prefix[0]] = append(t[bp.prefix[0]], r)
	}
	return t
}

// prefixRef is a position in brandPrefixes with the prefix's second byte
// (0 for a prefix of one byte).
type prefixRef struct {
	index  int
	second byte
}
