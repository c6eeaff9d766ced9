package uaparse

import "strings"

// appleDeviceVersions maps the lower case tag of every row of
// tables/apple_devices.tsv (Yauaa's AppleDeviceVersion lookup and its two
// siblings) to the device version. appleTagMasks are the masks of its keys
// (nameMasks), apart from the shared ones: the tags are many and are asked
// about only for Apple devices, whose product names and comment entries
// ("applewebkit", "khtml", "cpu iphone os 16_6 like mac os x") the masks
// turn away before the map is hashed.
var (
	appleDeviceVersions map[string]string
	appleTagMasks       *nameMasks
)

func buildAppleDevices() (map[string]string, *nameMasks) {
	rows := loadTable("apple_devices.tsv", tableColumns["apple_devices.tsv"])
	m := make(map[string]string, len(rows))
	masks := &nameMasks{}
	for _, r := range rows {
		k := asciiLower(r[0])
		m[k] = r[3]
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
		return v, family
	case family == "":
		return "", v
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
