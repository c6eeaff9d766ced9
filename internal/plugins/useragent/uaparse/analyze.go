package uaparse

import (
	"strings"
	"unicode/utf8"
)

// maxLength is the longest user agent analysed. Longer strings are an
// attempt to overflow buffers (Yauaa uses the same limit and answer).
const maxLength = 2048

// state collects the findings of the rules for one user agent before they
// are written to the attribute array.
type state struct {
	p  *parsed
	os osInfo

	mobile, tablet bool // a "Mobile" or "Tablet" token was seen
	tvScreen       bool // an app's marker says it shows a television's layout
	mozilla        bool // the user agent starts with Mozilla/x

	// The findings of the device, engine and agent families, each with the
	// confidence it was written with (priority.go).
	devClass, devBrand, devName, devCPU, devVersion, devFirmware slot

	engClass, engName, engVersion, engBuild slot

	agClass, agName, agVersion slot

	// Builds of the system and of the agent, the app in the web view, and
	// the fields of Meta's in-app bracket (webview.go, osversion.go).
	osBuild, agBuild  slot
	wvName, wvVersion slot
	fb                facebookFields

	webview bool

	email, url, uuid, security, lang, langCode string

	ieCompat string // the Internet Explorer version a newer one emulates

	// The store and platform of Kobo's reading app (kobo.go).
	koboAffiliate, koboPlatformID string

	// compatContact is set for a browser's compatible section that gives
	// a contact address but no robot name.
	compatContact bool
	// namesNotRobot is set when the user agent names a product of
	// Yauaa's TagsKnownNotToBeRobots (tables/named_robots.tsv, kind
	// not-robot): the robot rules that guess from the shape alone then
	// stay away.
	namesNotRobot bool

	// keyProducts and keyEntries have bit i set when the lower case name
	// of product i, or the text of comment entry i, may be a key of a
	// whole-name table (wholeNameMasks); keysRead says they were read.
	// Several rules ask, so the masks are tested once per name.
	keyProducts, keyEntries uint64
	keysRead                bool
}

// keyCandidates returns keyProducts and keyEntries, reading them on the
// first call. A product or entry past the 64th is always a candidate: the
// rules test it themselves.
func (s *state) keyCandidates() (products, entries uint64) {
	if !s.keysRead {
		s.keysRead = true
		p := s.p
		for i := range p.products {
			if i >= 63 {
				s.keyProducts |= 1 << 63
				break
			}
			if wholeNameMasks.mayHold(p.products[i].lname) {
				s.keyProducts |= 1 << i
			}
		}
		for i, e := range p.entries {
			if i >= 63 {
				s.keyEntries |= 1 << 63
				break
			}
			if wholeNameMasks.mayHold(p.ltext(e)) {
				s.keyEntries |= 1 << i
			}
		}
	}
	return s.keyProducts, s.keyEntries
}

// keyAt reports whether bit i of a mask of keyCandidates is set; i past
// the 63rd takes the last bit, which stands for all of them.
func keyAt(mask uint64, i int) bool {
	return mask&(1<<min(i, 63)) != 0
}

// Needles of the engine and extras rules.
var (
	kwParenGecko needleID
	kwHTTPWord   needleID
	// Addresses spelled out against harvesters: "me [at] example [dot] com",
	// "me at example dot com".
	kwAtBracket needleID
	kwAtWord    needleID
)

// allUnknown is the attribute array before any rule has run.
var allUnknown = func() (v [numAttributes]string) {
	for i := range v {
		v[i] = Unknown
	}
	return v
}()

// analyze runs every rule over ua and returns the attribute values. The
// values are collected in an array on the stack and packed into the
// Result's single allocation at the end (pack), before the parse state and
// the buffers the values may be slices of go back to the pool.
func analyze(ua string) Result {
	return analyzeReporting(ua, nil)
}

// analyzeReporting is analyze that also calls tied, when not nil, with the
// name of each finding whose value the order of the rules decided (see
// slot.tied); tests use it, analysis passes nil.
func analyzeReporting(ua string, tied func(finding string)) Result {
	// One copy of a ready array instead of a loop of stores, which would
	// cost 1 % of an analysis.
	v := allUnknown
	if len(ua) > maxLength {
		fillHacker(&v, hackerInfo{vector: "Buffer overflow", toolkit: Unknown})
		return pack(&v)
	}
	// Only a string that starts with a space, a control byte or a
	// non-ASCII byte can be blank: the first test spares the usual
	// string the call.
	if ua == "" || (ua[0] <= ' ' || ua[0] >= utf8.RuneSelf) && strings.TrimSpace(ua) == "" {
		fillHacker(&v, hackerInfo{vector: Unknown, toolkit: Unknown})
		return pack(&v)
	}
	p := parsePooled(collapseSpaces(restoreParens(urlDecode(ua))))
	if h, ok := detectHacker(p); ok {
		fillHacker(&v, h)
		hackerUUID(&v, p.ua)
		r := pack(&v)
		releaseParsed(p)
		return r
	}
	if h, ok := encodedAttack(ua); ok {
		fillHacker(&v, h)
		hackerUUID(&v, p.ua)
		r := pack(&v)
		releaseParsed(p)
		return r
	}
	s := &state{p: p}
	s.scanTokens()
	s.os = detectOS(p)
	s.detectEngine()
	s.detectAgent()
	s.browserTag()
	s.cocoaApp()
	s.cfnetworkEngine()
	s.mailClient()
	s.namedApp()
	s.ucAgentEngine()
	s.kobo()
	s.detectDevice()
	s.anonymized()
	s.desktopMode()
	s.frozenOSVersion()
	if !s.appNotRobot() && !s.namedRobot() {
		s.detectRobot()
		if !strings.HasPrefix(s.devClass.v, "Robot") {
			s.namedRobotByPrefix()
		}
	}
	s.cloudApp()
	s.appPlatformDevice()
	s.facebookDevice()
	s.osmetaDevice()
	s.officeDevice()
	s.activeSyncDeviceName()
	s.androidInAppName()
	s.repairBroken()
	s.compactFields()
	s.partnerFields()
	s.fireTVFields()
	s.extras()
	if p.has(kwFBBracket) {
		s.fb, _ = readFacebook(p.ua)
	}
	s.appleDeviceVersion()
	s.osVersionBuild()
	s.agentBuild()
	s.webviewApp()
	s.fill(&v, p.fillBuf[:])
	if tied != nil {
		s.reportTies(tied)
	}
	r := pack(&v)
	releaseParsed(p)
	return r
}

// hackerUUID keeps the UUID an attack string carries as a field of its
// own: the identifier is read from the string's structure (8-4-4-4-12
// hexadecimal digits), not from what the client is, so a probe that tags
// itself with a job or session UUID (";__JOB_ID__:<uuid>;") still reports
// it, as a browser does. A UUID that is part of the payload, a segment of a
// URL path ("/phone_home/<uuid>") or the value of a parameter ("=<uuid>"),
// is the attack's data, not the client's identifier, and is not reported.
// It runs only on the hacker path, so the usual analysis pays nothing.
func hackerUUID(v *[numAttributes]string, ua string) {
	u := findUUID(ua)
	if u == "" {
		return
	}
	if i := strings.Index(ua, u); i > 0 && (ua[i-1] == '/' || ua[i-1] == '=') {
		return
	}
	v[attrAgentUuid] = u
}

func fillHacker(v *[numAttributes]string, h hackerInfo) {
	for _, i := range []int{attrDeviceClass, attrDeviceName, attrDeviceBrand, attrDeviceVersion,
		attrOperatingSystemClass, attrOperatingSystemName, attrOperatingSystemVersion, attrOperatingSystemNameVersion,
		attrLayoutEngineClass, attrLayoutEngineName, attrLayoutEngineVersion, attrLayoutEngineVersionMajor,
		attrLayoutEngineNameVersion, attrLayoutEngineNameVersionMajor,
		attrAgentClass, attrAgentName, attrAgentVersion, attrAgentVersionMajor, attrAgentNameVersion, attrAgentNameVersionMajor} {
		v[i] = "Hacker"
	}
	v[attrHackerAttackVector] = h.vector
	v[attrHackerToolkit] = h.toolkit
	if h.agent != "" {
		ver := cleanVersion(h.version)
		v[attrAgentName] = h.agent
		v[attrAgentVersion] = ver
		v[attrAgentVersionMajor] = versionMajor(ver)
		v[attrAgentNameVersion] = h.agent + " " + orUnknownMark(ver)
		v[attrAgentNameVersionMajor] = h.agent + " " + orUnknownMark(versionMajor(ver))
	}
}

// scanTokens records the simple flags the other rules use.
func (s *state) scanTokens() {
	p := s.p
	// The lower case word, compared as bytes, is strings.EqualFold of the
	// word: "mozilla" has no letter that a non-ASCII rune folds to (k, s).
	if len(p.products) > 0 && p.products[0].lword == "mozilla" {
		s.mozilla = true
	}
	for i := range p.products {
		pr := &p.products[i]
		lw := pr.lname
		// "Version/4.0Mobile Safari" and "MobileSafari" are what is left of
		// "Mobile Safari" when spaces were lost.
		if lw == "mobile" || strings.HasPrefix(lw, "mobile ") || strings.HasSuffix(lw, " mobile") || pr.word == "Mobile" ||
			pr.lword == "mobilesafari" || strings.HasSuffix(lw, "mobile safari") {
			s.mobile = true
		}
	}
	for _, e := range p.entries {
		lt := p.ltext(e)
		switch lt {
		case "mobile", "mobi", "phone", "smartphone":
			s.mobile = true
		case "tablet":
			s.tablet = true
		}
		switch {
		case lt == "u" || lt == "n":
			s.security = "Strong security"
		case lt == "i":
			s.security = "Weak security"
		}
	}
	for _, st := range screenTokens {
		if p.has(st.marker) {
			// An app's layout marker speaks for the device where the
			// browser's token does not (tables/screen_tokens.tsv).
			if st.tv {
				s.tvScreen = true
			} else if st.tablet {
				s.tablet = true
			} else {
				s.mobile = true
			}
		}
	}
}
