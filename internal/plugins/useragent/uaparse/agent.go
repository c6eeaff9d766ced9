package uaparse

import "strings"

// browserToken is a product that identifies a browser or app
// (tables/browsers.tsv). The list is ordered: browsers built on Chromium or
// Firefox carry the base browser's token too, so the more specific token
// must be found first.
type browserToken struct {
	token string // lower case product word
	name  string // AgentName
	class string // AgentClass
}

var browserTokens []browserToken

func buildBrowserTokens() []browserToken {
	rows := loadTable("browsers.tsv", tableColumns["browsers.tsv"])
	out := make([]browserToken, len(rows))
	for i, r := range rows {
		out[i] = browserToken{token: r[0], name: r[1], class: r[2]}
	}
	return out
}

// browserTokenNeedles registers each browser token with the needle scan,
// in the order of browserTokens. The tokens are lower case, so a product
// whose last word matches one without case is that same text in the lower
// case user agent.
var browserTokenNeedles []needleID

func buildBrowserTokenNeedles() []needleID {
	out := make([]needleID, len(browserTokens))
	for i, bt := range browserTokens {
		out[i] = uaNeedles.add(bt.token)
	}
	return out
}

// browserTokenList asks the scan which rows of browserTokens can match.
var browserTokenList *needleList

// edgeHTMLToEdge maps the EdgeHTML engine major version to the version of
// the Edge browser that shipped it, as Microsoft published them.
var edgeHTMLToEdge map[string]string

func buildEdgeHTMLToEdge() map[string]string {
	return map[string]string{
		"12": "20", "13": "25", "14": "38", "15": "40", "16": "41", "17": "42", "18": "44", "19": "44",
	}
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
