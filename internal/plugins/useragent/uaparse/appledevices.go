package uaparse

import "strings"

// appleDeviceVersions maps the lower case tag of every row of
// tables/apple_devices.tsv (Yauaa's AppleDeviceVersion lookup and its two
// siblings) to the device class and version. appleTagMasks are the masks of its keys
// (nameMasks), apart from the shared ones: the tags are many and are asked
// about only for Apple devices, whose product names and comment entries
// ("applewebkit", "khtml", "cpu iphone os 16_6 like mac os x") the masks
// turn away before the map is hashed.
var (
	appleDeviceVersions map[string]appleDevice
	appleTagMasks       *nameMasks
)

// appleDevice is a row of tables/apple_devices.tsv: the device class and
// the version (the product and its generation) of one tag.
type appleDevice struct {
	class, version string
}

func buildAppleDevices() (map[string]appleDevice, *nameMasks) {
	rows := loadTable("apple_devices.tsv", tableColumns["apple_devices.tsv"])
	m := make(map[string]appleDevice, len(rows))
	masks := &nameMasks{}
	for _, r := range rows {
		k := asciiLower(r[0])
		m[k] = appleDevice{class: r[1], version: r[3]}
		masks.add("apple_devices.tsv", k)
	}
	return m, masks
}

// appleDeviceVersion reads the version of an Apple device (DeviceVersion)
// from the tag its user agent sends, by tables/apple_devices.tsv: the
// first word of a product's name ("iPhone10,5/14.4 CFNetwork/..."), a
// product's version ("hw/iPhone13_2"), the model of Meta's in-app
// bracket ("FBDV/iPad3,6"), a comment entry that is a tag or
// starts with one ("(iPad; CPU OS 12_3 like Mac OS X)" is "iPad",
// "(iPhone10,5; iOS 14.4)" is "iPhone 8 Plus (A1897)"; the comma that
// split the identifier into two entries is read back). A model identifier
// (a tag with a digit) outranks a family word ("iPhone"), wherever they
// stand, and within each a product outranks a comment entry. It reads
// what the device rules found: only a device they named Apple's, and not
// a robot, which is no device of its own.
func (s *state) appleDeviceVersion() {
	if s.devBrand.v != "Apple" || strings.HasPrefix(s.devClass.v, "Robot") {
		return
	}
	p := s.p
	model, family := "", ""
	if s.fb.devVersion != "" {
		// Meta's in-app bracket names the model: "FBDV/iPad3,6".
		model, family = appleTag(p.lower(s.fb.devVersion), family)
	}
	if k := strings.IndexAny(p.low, "/ ("); k > 0 {
		// "Watch1,1/4.3.2": the parser split the identifier at its comma.
		model, family = appleTag(p.low[:k], family)
	}
	for i := 0; model == "" && i < len(p.products); i++ {
		pr := &p.products[i]
		if model, family = appleTag(leadingWord(pr.lname), family); model == "" && pr.version != "" && (pr.version[0]|0x20) == 'i' {
			model, family = appleTag(p.lower(pr.version), family)
		}
	}
	for i := 0; model == "" && i < len(p.entries); i++ {
		e := p.entries[i]
		lt := p.ltext(e)
		if i+1 < len(p.entries) && e.end < len(p.low) && p.low[e.end] == ',' && p.entries[i+1].start == e.end+1 &&
			isDigits(p.ltext(p.entries[i+1])) {
			// "(iPhone10,5; ...)": the entries were split at the comma.
			lt = p.low[e.start:p.entries[i+1].end]
		}
		f := family
		if model, family = appleTag(lt, family); model == "" && family == f {
			model, family = appleTag(leadingWord(lt), family)
		}
		if t := trailingTag(lt); model == "" && t != lt {
			// "(MDCR_Macmini8,1)": the identifier after the app's own tag.
			model, _ = appleTag(t, family)
		}
	}
	switch {
	case model != "":
		s.devVersion.set(model, confGeneric)
	case family != "":
		s.devVersion.set(family, confGeneric)
	}
}

// appleTag looks the lower case tag up in tables/apple_devices.tsv: the
// version of a model identifier (a tag with a digit) is returned as model,
// that of a family word as family when none was found before (family is
// the one found so far).
func appleTag(tag, family string) (model, fam string) {
	if !appleTagMasks.mayHold(tag) {
		return "", family
	}
	v, ok := appleDeviceVersions[tag]
	switch {
	case !ok:
		return "", family
	case strings.ContainsAny(tag, "0123456789"):
		return v.version, family
	case family == "":
		return "", v.version
	}
	return "", family
}

// leadingWord is s up to its first space, or all of s.
func leadingWord(s string) string {
	if k := strings.IndexByte(s, ' '); k >= 0 {
		return s[:k]
	}
	return s
}

// fbIOSRelease returns the release of iOS that Meta's apps name in their
// bracket where nothing else names it ("(null) LightSpeed
// [FBAN/MessengerLiteForiOS;...;FBDV/iPad2,5;FBSN/iPhone OS;FBSV/9.3.5;
// ...]"), or Unknown.
func (s *state) fbIOSRelease() string {
	if sn := strings.ToLower(s.fbField("fbsn/")); sn == "ios" || sn == "iphone os" {
		if v := s.fbField("fbsv/"); isVersionLike(v) {
			return v
		}
	}
	return Unknown
}

// appleHardware names the Apple device of an app or service that is no
// browser and says what it runs on only by Apple's model identifier
// (tables/apple_devices.tsv): as its first word ("Watch1,1/4.3.2"), as a
// product's version ("GooglePodcasts/2.0.2 iPod_touch/13.4.1
// hw/iPod9_1"), or at the end of a comment entry, alone or after a tag of
// the app's own ("Spotify/120800923 OSX/0 (MacBookPro6,2)", "Sonos/54.2
// (MDCR_MacBookPro14,1)", the controller app on a Mac, "FBDV/iPhone10,4");
// by a bare marketing name ("iPhone12Pro"); or by the device family after
// the app's name ("iTunes-iPad/5.1.1", with the release of iOS). The identifier says the
// kind of device, and so the system it runs. It is asked only when the
// system rules found no system, and the device is known by nothing else.
func (s *state) appleHardware() {
	if s.devBrand.v == "Apple" || s.devClass.v != "" && s.devClass.v != Unknown {
		return
	}
	p := s.p
	class := ""
	if k := strings.IndexAny(p.low, "/ ("); k > 0 {
		class = appleTagClass(p.low[:k])
	}
	for i := 0; class == "" && i < len(p.products); i++ {
		if v := p.products[i].version; v != "" && (v[0]|0x20) == 'i' || strings.HasPrefix(v, "Mac") || strings.HasPrefix(v, "Watch") {
			class = appleTagClass(p.lower(v))
		}
	}
	for i := 0; class == "" && i < len(p.entries); i++ {
		e := p.entries[i]
		lt := p.ltext(e)
		if i+1 < len(p.entries) && e.end < len(p.low) && p.low[e.end] == ',' && p.entries[i+1].start == e.end+1 &&
			isDigits(p.ltext(p.entries[i+1])) {
			// "(MacBookPro6,2)": the entries were split at the comma.
			lt = p.low[e.start:p.entries[i+1].end]
		}
		class = appleTagClass(trailingTag(lt))
	}
	familyLen := 0
	if class == "" {
		class, familyLen = appleMarketingName(p)
	}
	version := Unknown
	if class == "" && len(p.products) > 0 {
		// "iTunes-iPhone/4.3.3 (4; 16GB)": Apple's app for the device,
		// with the release of iOS it runs.
		first := p.products[0]
		switch {
		case strings.HasSuffix(first.lname, "-iphone"), strings.HasSuffix(first.lname, "-ipod"):
			class = "Phone"
		case strings.HasSuffix(first.lname, "-ipad"):
			class = "Tablet"
		}
		if class != "" && strings.IndexByte(first.version, '.') > 0 && leadingVersion(first.version) == first.version {
			version = first.version
		}
	}
	var name, system string
	switch class {
	case "Phone":
		name, system = "Apple iPhone", "iOS"
		if strings.Contains(p.low, "ipod") {
			name = "Apple iPod Touch"
		}
	case "Tablet":
		name, system = "Apple iPad", "iOS"
	case "Desktop":
		name, system = "Apple Macintosh", "Mac OS"
	case "Watch":
		name, system = "Apple Watch", "watchOS"
	default:
		return
	}
	s.setDevice(confFamily+2, class, "Apple", name)
	s.os = osInfo{name: system, version: version, class: appleSystemClass(class), cpu: s.os.cpu}
	if familyLen > 0 {
		// The name is the version, spelled out; read as a tag it would be
		// another model ("iPhone12" is the iPhone 11's tag).
		s.devVersion.set(spaceMarketingName(p.ua, familyLen), confFamily)
	}
}

// spaceMarketingName puts the spaces back into a marketing name written as
// one word: before a number and before each capitalised word
// ("iPhone11ProMax" is "iPhone 11 Pro Max", "iPhone12mini" "iPhone 12
// mini"), keeping an ordinal whole ("iPhoneSE2ndGen" is "iPhone SE 2nd
// Gen"). The family word, the first familyLen bytes ("iPhone"), is not
// split.
func spaceMarketingName(n string, familyLen int) string {
	var b strings.Builder
	for i := 0; i < len(n); i++ {
		c := n[i]
		if i >= familyLen {
			prev := n[i-1]
			digit, prevDigit := c >= '0' && c <= '9', prev >= '0' && prev <= '9'
			upper, prevLower := c >= 'A' && c <= 'Z', prev >= 'a' && prev <= 'z'
			switch {
			case digit && !prevDigit,
				upper && (prevLower || prevDigit),
				prevDigit && !digit && !upper && !ordinalAt(n, i):
				b.WriteByte(' ')
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

// ordinalAt reports an ordinal suffix ("nd" of "2ndGen") at n[i:], ending
// the name or followed by a capital.
func ordinalAt(n string, i int) bool {
	if i+2 > len(n) {
		return false
	}
	switch n[i : i+2] {
	case "st", "nd", "rd", "th":
		return i+2 == len(n) || n[i+2] >= 'A' && n[i+2] <= 'Z'
	}
	return false
}

// trailingTag is the part of a comment entry after its last slash or
// underscore ("mdcr_macbookpro14,1", "fbdv/iphone10,4"), or the whole
// entry when there is none or only digits follow.
func trailingTag(lt string) string {
	// A loop over the bytes from the end finds the separator:
	// strings.LastIndexAny would first build a set of the two bytes on
	// every call, which costs more than the search, and both separators
	// are ASCII, so a byte equal to one is that character.
	k := len(lt) - 1
	for k >= 0 && lt[k] != '/' && lt[k] != '_' {
		k--
	}
	if k >= 0 && k+1 < len(lt) && !isDigits(lt[k+1:]) {
		return lt[k+1:]
	}
	return lt
}

// appleSystemClass is the operating system class of an Apple device class.
func appleSystemClass(deviceClass string) string {
	if deviceClass == "Desktop" {
		return "Desktop"
	}
	return "Mobile"
}

// appleTagClass is the device class tables/apple_devices.tsv gives a lower
// case model identifier (a tag with a digit), or "".
func appleTagClass(tag string) string {
	if !appleTagMasks.mayHold(tag) || !strings.ContainsAny(tag, "0123456789") {
		return ""
	}
	return appleDeviceVersions[tag].class
}

// appleMarketingName reads a user agent that is only the marketing name of
// an iPhone, iPad or iPod written as one word ("iPhone11ProMax",
// "iPhoneSE2ndGen", "iPadAir"): its class and the length of the family
// word.
func appleMarketingName(p *parsed) (string, int) {
	if len(p.products) != 1 || p.products[0].version != "" || len(p.entries) != 0 || strings.IndexByte(p.ua, ' ') >= 0 {
		return "", 0
	}
	for _, f := range [...]struct{ family, class string }{{"iphone", "Phone"}, {"ipad", "Tablet"}, {"ipod", "Phone"}} {
		if rest, ok := strings.CutPrefix(p.low, f.family); ok && rest != "" && allAlnum(rest) && p.ua[len(f.family)] >= '0' && p.ua[len(f.family)] <= 'Z' {
			return f.class, len(f.family)
		}
	}
	return "", 0
}
