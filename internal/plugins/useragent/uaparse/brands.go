package uaparse

import "strings"

// brandPrefixes maps the lower case start of a device model, as handset
// makers name their products, to the brand. Longer prefixes come first
// where they overlap. The list is hand-made from public model naming
// conventions (Samsung's SM-/GT-, LG's LM-, Motorola's XT, ...).
var brandPrefixes = []struct{ prefix, brand string }{
	{"samsung", "Samsung"}, {"sm-", "Samsung"}, {"gt-", "Samsung"}, {"sgh-", "Samsung"}, {"sch-", "Samsung"},
	{"shv-", "Samsung"}, {"sph-", "Samsung"}, {"shw-", "Samsung"}, {"galaxy", "Samsung"}, {"sc-0", "Samsung"},
	{"sonyericsson", "SonyEricsson"}, {"sony", "Sony"}, {"xperia", "Sony"}, {"so-0", "Sony"},
	{"huawei", "Huawei"}, {"honor", "Huawei"}, {"hw-", "Huawei"},
	{"xiaomi", "Xiaomi"}, {"redmi", "Xiaomi"}, {"mi ", "Xiaomi"}, {"mix ", "Xiaomi"}, {"poco", "Xiaomi"}, {"hm note", "Xiaomi"}, {"mipad", "Xiaomi"},
	{"lg-", "LG"}, {"lg ", "LG"}, {"lgl", "LG"}, {"lgms", "LG"}, {"lm-", "LG"}, {"lg", "LG"},
	{"nexus 4", "Google"}, {"nexus", "Google"}, {"pixel", "Google"}, {"google", "Google"},
	{"htc", "HTC"}, {"motorola", "Motorola"}, {"moto", "Motorola"}, {"xt1", "Motorola"}, {"xt2", "Motorola"}, {"mot-", "Motorola"},
	{"oneplus", "Oneplus"}, {"one a", "Oneplus"}, {"one e", "Oneplus"},
	{"oppo", "Oppo"}, {"cph", "Oppo"}, {"rmx", "Realme"}, {"realme", "Realme"}, {"vivo", "Vivo"},
	{"nokia", "Nokia"}, {"ta-1", "Nokia"}, {"lumia", "Nokia"},
	{"asus", "Asus"}, {"transformer", "Asus"}, {"zenfone", "Asus"},
	{"lenovo", "Lenovo"}, {"thinkpad", "Lenovo"}, {"ideatab", "Lenovo"},
	{"kindle", "Amazon"}, {"kf", "Amazon"}, {"aft", "Amazon"}, {"amazon", "Amazon"},
	{"blackberry", "BlackBerry"}, {"bbb100", "BlackBerry"}, {"bbf100", "BlackBerry"},
	{"alcatel", "Alcatel"}, {"one touch", "Alcatel"}, {"zte", "ZTE"}, {"meizu", "Meizu"}, {"wiko", "Wiko"},
	{"acer", "Acer"}, {"archos", "Archos"}, {"medion", "Medion"}, {"lifetab", "Medion"}, {"cubot", "Cubot"},
	{"tcl", "TCL"}, {"hisense", "Hisense"}, {"infinix", "Infinix"}, {"tecno", "Tecno"}, {"itel", "Itel"},
	{"doogee", "Doogee"}, {"oukitel", "Oukitel"}, {"umidigi", "Umidigi"}, {"blackview", "Blackview"},
	{"ulefone", "Ulefone"}, {"fairphone", "Fairphone"}, {"gigaset", "Gigaset"}, {"doro", "Doro"},
	{"general mobile", "General Mobile"}, {"gm ", "General Mobile"}, {"wileyfox", "Wileyfox"},
	{"thl", "THL"}, {"teclast", "Teclast"}, {"cat ", "CAT"}, {"crosscall", "Crosscall"}, {"vodafone", "Vodafone"},
	{"t-mobile", "T-Mobile"}, {"philips", "Philips"}, {"sharp", "Sharp"}, {"kyocera", "Kyocera"},
	{"panasonic", "Panasonic"}, {"toshiba", "Toshiba"}, {"hp ", "HP"}, {"dell", "Dell"}, {"micromax", "Micromax"},
	{"lava", "Lava"}, {"karbonn", "Karbonn"}, {"gionee", "Gionee"}, {"coolpad", "Coolpad"}, {"leeco", "LeEco"},
	{"letv", "LeEco"}, {"nvidia", "Nvidia"}, {"shield", "Nvidia"}, {"razer", "Razer"}, {"essential", "Essential"},
	{"nothing", "Nothing"}, {"ipro", "Ipro"}, {"allview", "Allview"}, {"prestigio", "Prestigio"}, {"bq ", "BQ"},
	{"energy", "Energy Sistem"}, {"hyundai", "Hyundai"}, {"polaroid", "Polaroid"}, {"pantech", "Pantech"},
	{"kobo", "Kobo"}, {"pocketbook", "PocketBook"}, {"tolino", "Tolino"}, {"onyx", "Onyx"}, {"boox", "Onyx"},
	{"lyf", "LYF"}, {"ls-", "LYF"}, {"manta", "Manta"}, {"mid", "Manta"}, {"o2", "O2"}, {"palm", "Palm"},
	{"sm-", "Samsung"},
}

// huaweiModel reports whether a model looks like Huawei's "ABC-XX00" or
// "ABC-L29" naming (three capitals, a dash, letters and digits).
func huaweiModel(m string) bool {
	if len(m) < 7 || m[3] != '-' {
		return false
	}
	for i := 0; i < 3; i++ {
		if m[i] < 'A' || m[i] > 'Z' {
			return false
		}
	}
	rest := m[4:]
	letters, digits := 0, 0
	for i := 0; i < len(rest); i++ {
		c := rest[i]
		switch {
		case c >= 'A' && c <= 'Z':
			if digits > 0 && i < len(rest)-1 {
				return letters > 0 && digits > 0
			}
			letters++
		case c >= '0' && c <= '9':
			digits++
		case c == ' ':
			return letters > 0 && letters <= 2 && digits > 0
		default:
			return false
		}
	}
	return letters > 0 && letters <= 2 && digits > 0 && digits <= 3
}

// brandOfModel finds the brand of a device model and the model with the
// brand prefix removed.
func brandOfModel(model string) (brand, rest string) {
	lm := strings.ToLower(model)
	for _, bp := range brandPrefixes {
		if strings.HasPrefix(lm, bp.prefix) {
			brand = bp.brand
			// Remove the brand itself from the model, not a model prefix
			// such as "SM-" or "Nexus".
			if strings.HasPrefix(lm, strings.ToLower(brand)) {
				rest = strings.TrimLeft(model[len(brand):], " -_/")
			} else {
				rest = model
			}
			return brand, rest
		}
	}
	if huaweiModel(model) {
		return "Huawei", model
	}
	if sonyModel(model) {
		return "Sony", model
	}
	return "", model
}

// sonyModel reports Sony Xperia's "D5803", "H8266" style model numbers: one
// capital from C to J followed by exactly four digits.
func sonyModel(m string) bool {
	if len(m) != 5 || m[0] < 'C' || m[0] > 'J' {
		return false
	}
	for i := 1; i < 5; i++ {
		if m[i] < '0' || m[i] > '9' {
			return false
		}
	}
	return true
}

// knownBrand reports whether name (any case) is itself a brand, as in the
// "Samsung/SM-A505FN" products some apps send, and returns its spelling.
func knownBrand(name string) (string, bool) {
	ln := strings.ToLower(strings.TrimSpace(name))
	for _, bp := range brandPrefixes {
		if strings.ToLower(bp.brand) == ln {
			return bp.brand, true
		}
	}
	return "", false
}

// domainBrands names the companies behind well-known robot domains where
// the domain does not spell the brand.
var domainBrands = map[string]string{
	"bing": "Microsoft", "msn": "Microsoft", "live": "Microsoft", "microsoft": "Microsoft",
	"google": "Google", "googlebot": "Google", "yandex": "Yandex", "ya": "Yandex", "baidu": "Baidu",
	"facebook": "Facebook", "apple": "Apple", "yahoo": "Yahoo", "naver": "Naver", "archive": "Archive",
	"bit": "Bitly",
}
