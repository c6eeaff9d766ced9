package uaparse

import "strings"

// browserToken is a product that identifies a browser or app. The list is
// ordered: browsers built on Chromium or Firefox carry the base browser's
// token too, so the more specific token must be found first.
type browserToken struct {
	token string // lower case product word
	name  string // AgentName
	class string // AgentClass
}

var browserTokens = []browserToken{
	{"aoyou", "Aoyou", "Browser"},
	{"edga", "Edge", "Browser"}, {"edgios", "Edge", "Browser"}, {"edg", "Edge", "Browser"},
	{"oprgx", "Opera GX", "Browser"}, {"opt", "Opera Touch", "Browser"}, {"opr", "Opera", "Browser"},
	{"opx", "Opera GX", "Browser"}, {"opios", "Opera", "Browser"}, {"opera mini", "Opera Mini", "Browser"},
	{"yabrowser", "Yandex Browser", "Browser"}, {"yasearchbrowser", "Yandex Browser", "Browser"},
	{"samsungbrowser", "SamsungBrowser", "Browser"}, {"huaweibrowser", "Huawei Browser", "Browser"},
	{"hibrowser", "HiBrowser", "Browser"}, {"miuibrowser", "MiuiBrowser", "Browser"},
	{"ucbrowser", "UCBrowser", "Browser"}, {"ucweb", "UCBrowser", "Browser"}, {"ucturbo", "UCBrowser", "Browser"},
	{"micromessenger", "WeChat", "Mobile App"}, {"qq", "QQ Client", "Browser"},
	{"mqqbrowser", "QQ Browser", "Browser"}, {"qqbrowser", "QQ Browser", "Browser"}, {"vivaldi", "Vivaldi", "Browser"}, {"brave", "Brave", "Browser"},
	{"ddg", "DuckDuckGo", "Browser"}, {"duckduckgo", "DuckDuckGo", "Browser"}, {"ecosia", "Ecosia", "Browser"},
	{"silk", "Silk", "Browser"}, {"maxthon", "Maxthon", "Browser"}, {"mxbrowser", "Maxthon", "Browser"},
	{"iron", "Iron", "Browser"}, {"coast", "Coast", "Browser"}, {"puffin", "Puffin", "Browser"},
	{"crios", "Chrome", "Browser"}, {"crmo", "Chrome", "Browser"}, {"fxios", "Firefox", "Browser"}, {"focus", "Firefox Focus", "Browser"},
	{"klar", "Firefox Klar", "Browser"}, {"electron", "Electron app", "Desktop App"},
	{"qwantmobile", "Qwant", "Browser"}, {"seamonkey", "SeaMonkey", "Browser"}, {"thunderbird", "Thunderbird", "Email Client"},
	{"palemoon", "PaleMoon", "Browser"}, {"waterfox", "Waterfox", "Browser"}, {"icecat", "IceCat", "Browser"},
	{"iceweasel", "Iceweasel", "Browser"}, {"epiphany", "Epiphany", "Browser"}, {"konqueror", "Konqueror", "Browser"},
	{"midori", "Midori", "Browser"}, {"falkon", "Falkon", "Browser"}, {"qupzilla", "QupZilla", "Browser"},
	{"otter", "Otter", "Browser"}, {"camino", "Camino", "Browser"}, {"netscape6", "Netscape6", "Browser"},
	{"netscape", "Netscape", "Browser"}, {"navigator", "Netscape", "Browser"}, {"fennec", "Fennec", "Browser"},
	{"namoroka", "Namoroka", "Browser"}, {"minefield", "Minefield", "Browser"}, {"shiretoko", "Shiretoko", "Browser"},
	{"k-meleon", "K-Meleon", "Browser"}, {"galeon", "Galeon", "Browser"}, {"dolfin", "Dolfin", "Browser"},
	{"sleipnir", "Sleipnir", "Browser"}, {"lunascape", "Lunascape", "Browser"}, {"kinza", "Kinza", "Browser"},
	{"superbird", "Superbird", "Browser"}, {"dragon", "Comodo Dragon", "Browser"}, {"qtweb", "QtWeb", "Browser"},
	{"arora", "Arora", "Browser"}, {"coolnovo", "CoolNovo", "Browser"},
	{"sraf", "Seraphic Sraf Browser", "Browser"}, {"flock", "Flock", "Browser"}, {"whale", "Whale", "Browser"}, {"avast", "Avast Secure Browser", "Browser"},
	{"instagram", "Instagram", "Mobile App"}, {"appie", "Albert Heijn App", "Mobile App"},
	{"odin", "HiBrowser", "Browser"}, {"headlesschrome", "Chrome", "Robot"}, {"chromium", "Chromium", "Browser"}, {"firefox", "Firefox", "Browser"}, {"chrome", "Chrome", "Browser"},
	{"netfront", "Netfront", "Browser"}, {"blazer", "Blazer", "Browser"}, {"browserng", "BrowserNG", "Browser"},
	{"lynx", "Lynx", "Special"}, {"links", "Links", "Special"}, {"w3m", "w3m", "Special"}, {"dillo", "Dillo", "Special"},
}

// browserTokenNeedles registers each browser token with the needle scan,
// in the order of browserTokens. The tokens are lower case, so a product
// whose last word matches one without case is that same text in the lower
// case user agent.
var browserTokenNeedles = func() []needleID {
	out := make([]needleID, len(browserTokens))
	for i, bt := range browserTokens {
		out[i] = uaNeedles.add(bt.token)
	}
	return out
}()

// edgeHTMLToEdge maps the EdgeHTML engine major version to the version of
// the Edge browser that shipped it, as Microsoft published them.
var edgeHTMLToEdge = map[string]string{
	"12": "20", "13": "25", "14": "38", "15": "40", "16": "41", "17": "42", "18": "44", "19": "44",
}

// chromeVersion applies the "reduced user agent" convention: Chrome 101+
// sends "110.0.0.0", which only carries the major version.
//
// Chrome and Edge 99 could also be told (a flag for testing sites against
// three-digit versions) to send the coming major release in the minor
// place: "99.100.4844.51" is release 100.
func chromeVersion(v string) string {
	if strings.HasSuffix(v, ".0.0.0") {
		return strings.TrimSuffix(v, ".0.0.0")
	}
	if strings.HasPrefix(v, "99.1") && len(v) > 6 && v[6] == '.' && isVersionLike(v[3:]) {
		return v[3:6] + ".0" + v[6:]
	}
	return v
}

// twoParts keeps "major.minor" of a version.
func twoParts(v string) string {
	i := strings.IndexByte(v, '.')
	if i < 0 {
		return v
	}
	if j := strings.IndexByte(v[i+1:], '.'); j >= 0 {
		return v[:i+1+j]
	}
	return v
}
