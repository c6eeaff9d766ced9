package uaparse

import "strings"

// This file holds structural rules: rules that read how a user agent is
// built rather than name one product, so that they carry over to user
// agents nobody wrote a rule for. Each is shown by its examples in
// general_test.go. (Other structural rules live with their family: the
// robot words and contact addresses in robot.go, library naming patterns in
// libraryNamed, attack signatures in hacker.go.)

// identifierVersion reports a product "version" that is an identifier of
// the installation or device rather than a release: a UUID
// ("DeviceId/3F2504E0-4F89-11D3-9A0C-0305E82C3301") or a long run of hex
// digits. Such a product names no app; the rules that take an appended
// product as the app skip it.
func identifierVersion(v string) bool {
	if len(v) >= 36 && isUUIDAt(v, 0) {
		return true
	}
	if len(v) < 16 {
		return false
	}
	for i := 0; i < len(v); i++ {
		if !isHex(v[i]) {
			return false
		}
	}
	return true
}

// cocoaApp reads the user agent that Cocoa HTTP libraries (ASIHTTPRequest
// and its successors) build for an iOS or macOS app from its bundle:
// "<App name> <version> rv:<build> (<device>; <system> <version>; <locale>)",
// as in "Airmail 1.3.3 rv:237 (Macintosh; Mac OS X 10.9.3; nl_NL)". The
// parser reads the whole "<App name> <version> rv:<build>" as one product
// name without a version; the app is the words before the version.
func (s *state) cocoaApp() {
	p := s.p
	if len(p.products) == 0 || len(p.entries) == 0 {
		return
	}
	pr := p.products[0]
	if pr.version != "" {
		return
	}
	k := strings.LastIndex(pr.name, " rv:")
	if k <= 0 || strings.IndexByte(pr.name[k+4:], ' ') >= 0 || pr.name[k+4:] == "" {
		return
	}
	head := pr.name[:k]
	sp := strings.LastIndexByte(head, ' ')
	if sp <= 0 {
		return
	}
	name, ver := head[:sp], head[sp+1:]
	if !isVersionLike(ver) || ver[0] < '0' || ver[0] > '9' || !startsWithLetter(name) {
		return
	}
	s.setAgent(confStructure, "Special", name, cleanVersion(ver))
}

// encodedAttack reports an attack hidden behind percent-encoding: a
// payload whose quotes, brackets or equals signs are encoded
// ("Mozilla/5.0 %27%20OR%201%3D1--") is decoded and checked again. Only a
// string with an encoded quote, angle bracket or equals sign is decoded:
// no client encodes those in its own name.
func encodedAttack(ua string) (hackerInfo, bool) {
	if strings.IndexByte(ua, '%') < 0 {
		return hackerInfo{}, false
	}
	low := strings.ToLower(ua)
	if !strings.Contains(low, "%27") && !strings.Contains(low, "%22") && !strings.Contains(low, "%3c") &&
		!strings.Contains(low, "%3d") && !strings.Contains(low, "%3e") {
		return hackerInfo{}, false
	}
	dec := percentDecodeAll(ua)
	if dec == ua {
		return hackerInfo{}, false
	}
	p := parse(collapseSpaces(dec))
	defer releaseParsed(p)
	return detectHacker(p)
}

// percentDecodeAll decodes every "%XX" of s; other bytes are kept.
func percentDecodeAll(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			b.WriteByte(unhex(s[i+1])<<4 | unhex(s[i+2]))
			i += 2
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
