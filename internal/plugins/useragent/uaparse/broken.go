package uaparse

import "strings"

// Rules for broken user agents: strings that lost their product token,
// their platform or their spaces, forged ones, reduced ones, and the traces
// that bug bounty hunters and privacy tools leave. They run once the other
// rules are done: most fill what those left unknown, the others correct a
// reading that the broken form misleads (a frozen platform bound, a
// tablet guessed from a lost "Mobile").

// Needles of the broken user agent rules.
var (
	kwCPUAndroid          needleID
	kwScreenSize          needleID
	kwFirefoxSlash        needleID
	kwSamsungBrowserSlash needleID
	kwReducedWindows      needleID
	kwHuaweiFastApp       needleID
	kwDDGiOS              needleID
)

// repairBroken fills or corrects the attributes of a broken user agent.
func (s *state) repairBroken() {
	p := s.p
	// "(Samsung SMT800; CPU Android 6.0.1; es-cl; ...; Screen Size 10
	// tablet; ...)": an app that sends only a comment copies the layout of
	// iOS ("CPU iPhone OS 9_3") for Android, and says how large the screen
	// is.
	if s.os.name == "" && p.has(kwCPUAndroid) {
		s.os = osInfo{name: "Android", version: Unknown, class: "Mobile", cpu: s.os.cpu}
	}
	if (s.devClass.v == "" || s.devClass.v == Unknown) && p.has(kwScreenSize) {
		for _, e := range p.entries {
			lt := p.ltext(e)
			if !strings.HasPrefix(lt, "screen size") {
				continue
			}
			switch {
			case strings.HasSuffix(lt, "tablet"):
				s.devClass.set("Tablet", confRepair)
			case strings.HasSuffix(lt, "phone"):
				s.devClass.set("Phone", confRepair)
			}
			break
		}
	}
	// A Firefox without any platform and without the "rv:" of the desktop
	// and Android builds ("Mozilla/5.0 Gecko/20100101 Firefox/16.0") is
	// Firefox OS, whose version is that of the browser.
	if s.os.name == "" && s.agName.v == "Firefox" && !p.has(kwRV) && p.has(kwFirefoxSlash) {
		s.os = osInfo{name: "Firefox OS", version: s.agVersion.v, class: "Mobile", cpu: s.os.cpu}
		if s.devClass.v == "" || s.devClass.v == Unknown {
			s.devClass.set("Mobile", confRepair)
		}
	}
	// "Mozilla/3.0 Windows x86; rv:19.0 Gecko/...", "(X11; Windows
	// x86_64)": Windows named with its processor only, in a string without
	// its parentheses or with a stray X11, is a Windows desktop.
	if (s.os.name == "" || s.os.name == "Linux" && s.os.prio <= 1) && windowsWithCPU(p) {
		s.os = osInfo{name: "Windows", version: Unknown, class: "Desktop", cpu: s.os.cpu}
		s.setDevice(confRepair, "Desktop", Unknown, "Desktop")
	}
	// illumos, the open continuation of OpenSolaris (OpenIndiana and
	// SmartOS run on it), is named in its own comment entry.
	if s.os.name == "" {
		for _, e := range p.entries {
			if p.ltext(e) == "illumos" {
				s.os = osInfo{name: "illumOS", version: Unknown, class: "Desktop", cpu: s.os.cpu}
				s.setDevice(confRepair, "Desktop", Unknown, "OpenSolaris Desktop")
				break
			}
		}
	}
	// Chrome OS ships with its browser: the platform version is the
	// version of Chrome.
	if s.os.name == "Chrome OS" && (s.os.version == "" || s.os.version == Unknown) && s.agName.v == "Chrome" &&
		s.agVersion.v != "" && s.agVersion.v != Unknown {
		s.os.version = s.agVersion.v
	}
	// "Version/4.0Mobile Safari/530.17": the "Mobile" of a string that lost
	// its spaces ends the previous product's version.
	if s.devClass.v == "Tablet" && s.os.name == "Android" && !s.mobile {
		for _, pr := range p.products {
			if len(pr.version) > 6 && strings.EqualFold(pr.version[len(pr.version)-6:], "mobile") {
				s.devClass.set("Phone", confRepair)
				break
			}
		}
	}
	// "Chrome/143.0.0.0Safari/537.36Edg/143.0.0.0": when another product
	// is glued to Safari's version the string lost its spaces, and Yauaa
	// keeps the platform version as written instead of the lower bound of
	// the frozen platforms. So it does when an anonymiser put a word into
	// the Firefox product ("Gecko/20100101 null Firefox/102.0").
	if strings.HasPrefix(s.os.version, ">=") && (gluedAfterSafari(p.low) || s.agName.v == "Firefox" && wordBeforeFirefox(p)) {
		switch s.os.version {
		case ">=10":
			s.os.version = "10.0"
		case ">=10.15.7":
			s.os.version = "10.15.7"
		}
	}
	// The frozen platform comes with the Chromium engine, not with the
	// browser built on it: an anonymiser's "Chrome/84 ... Edg/92" still
	// runs Chromium 84, from before the freeze.
	if s.os.version == ">=10" && s.agName.v == "Edge" {
		if ch, ok := p.product("Chrome"); ok && atoiPrefix(ch.version) > 0 && atoiPrefix(ch.version) < 90 {
			s.os.version = "10.0"
		}
	}
	// Chrome's reduced user agent ("Chrome/108.0.0.0", User-Agent
	// Reduction) sends the fixed platform "(Windows NT 10.0; Win64; x64)"
	// on every Windows release, so Yauaa leaves the version unknown. Edge
	// and Samsung Internet are read as before.
	if s.os.name == "Windows NT" && (s.os.version == ">=10" || s.os.version == "10.0") && p.has(kwReducedWindows) &&
		s.agName.v != "Edge" && s.agName.v != "SamsungBrowser" {
		if ch, ok := p.product("Chrome"); ok && strings.HasSuffix(ch.version, ".0.0.0") {
			s.os.version = Unknown
		}
	}
	// Chrome's reduced user agent hides the model as "K" ("Linux; Android
	// 10; K"); Samsung Internet runs only on Samsung's own devices.
	if s.os.name == "Android" && (s.devBrand.v == "" || s.devBrand.v == Unknown) && p.has(kwSamsungBrowserSlash) && reducedModel(p) {
		s.devBrand.set("Samsung", confRepair)
		switch s.devClass.v {
		case "Phone", "Tablet":
			s.devName.set("Samsung "+s.devClass.v, confRepair)
		}
	}
	// "Android/9/G960FXXU5CSF2/28/samsung/samsung/SM-G960F/starlte": the
	// platform as the first product, with the fields of the Android build
	// (release, build, SDK level, brand, manufacturer, model, device)
	// joined by slashes. Yauaa reads it as the stock browser.
	if len(p.products) > 1 && p.products[0].lname == "android" && s.os.name == "Android" && s.agName.v == "Android" &&
		strings.HasPrefix(p.low, "android/"+asciiLower(p.products[0].version)+"/") {
		s.setAgent(confRepair, "Browser", "Stock Android Browser", s.os.version)
		if s.engName.v == "" {
			s.setEngine(confRepair, "Browser", "AppleWebKit", Unknown)
		}
		for i := 1; i+1 < len(p.products); i++ {
			pr := p.products[i]
			if pr.lname != "" && strings.EqualFold(pr.name, pr.version) && strings.EqualFold(pr.name, s.devBrand.v) {
				s.devName.set(s.devBrand.v+" "+p.products[i+1].name, confRepair)
				break
			}
		}
	}
	// Firefox for Android says "Mobile" or "Tablet"; the early Fennec
	// builds ("Android; Linux armv7l; rv:10.0.3") say neither, and are
	// then not known to be a tablet.
	if s.os.name == "Android" && s.engName.v == "Gecko" && !s.mobile && !s.tablet && s.devClass.v == "Tablet" {
		s.devClass.set("Mobile", confRepair)
	}
	// Huawei's quick apps (installable web apps, "hap") run inside the
	// Quick App Center, which names itself by its package:
	// "... hap/1110/huawei com.huawei.fastapp/13.5.1.300 fruitcrush.HUAWEI/1.0.4 ({json})".
	if p.has(kwHuaweiFastApp) {
		for _, pr := range p.products {
			if pr.lword == "com.huawei.fastapp" {
				s.setAgent(confRepair, "Mobile App", "HUAWEI Quick App Center", cleanVersion(pr.version))
				break
			}
		}
	}
	s.fakeWindowsNT()
	// "(Windows NT 5.1) ... Chrome/39.0.852.0 Mobile Safari/5362": a
	// desktop Windows with the "Mobile Safari" of a phone browser is read
	// as a phone, the platform as a mobile one.
	if s.os.name == "Windows NT" && s.devClass.v == "Desktop" && s.mobile && s.engName.v == "Blink" {
		if pr, ok := p.product("Safari"); ok && strings.HasSuffix(pr.lname, "mobile safari") {
			s.devClass.set("Phone", confRepair)
			s.os.class = "Mobile"
		}
	}
	// Trident numbers start at 4.0 (Internet Explorer 8); the "Trident/3.1"
	// of Windows Phone 7.0 is not one of them, and the engine is then
	// known only as Internet Explorer of the MSIE version.
	if s.engName.v == "Trident" && atoiPrefix(s.engVersion.v) < 4 {
		if v, ok := p.entryVersion("msie "); ok && isVersionLike(v) {
			s.engName.set("Internet Explorer", confRepair)
			s.engVersion.set(cleanVersion(v), confRepair)
		}
	}
	// "(Windows; U; Windows NT 5.1 ; pl-pl; ThinkPad Tablet
	// Build/ThinkPadTablet_A310_02)": an Android device in desktop mode
	// keeps Android's "<model> Build/<id>" entry, which names it.
	if s.os.name == "Windows NT" && s.devClass.v == "Desktop" && (s.devBrand.v == "" || s.devBrand.v == Unknown) {
		for _, e := range p.entries {
			t := p.text(e)
			k := strings.Index(p.ltext(e), " build/")
			if k <= 0 {
				continue
			}
			if brand, rest := brandOfModel(t[:k]); brand != "" && rest != "" {
				s.setDevice(confRepair, "Tablet", brand, brand+" "+rest)
				if s.mobile {
					s.devClass.set("Phone", confRepair)
				}
			}
			break
		}
	}
	if s.agName.v == "UIWebView" {
		s.brokenIOSApp()
	}
	// "(Linux; Android 10; null)": a privacy tool or a broken app left
	// "null" where the model belongs; the device is as unknown as with no
	// model at all.
	if s.os.name == "Android" && s.devName.v == "Null" && (s.devBrand.v == "" || s.devBrand.v == Unknown) {
		s.devName.set("Android Mobile", confRepair)
	}
	// "ni3lsBasj3s@intigriti.me Mozilla/5.0 (Macintosh; ...; rv:140.0)
	// Gecko/20100101 Firefox/140.0": with an address put before it,
	// "Mozilla" is no longer the first product, and the readings tied to
	// the Mozilla layout (Gecko's "rv:" version, the frozen platform
	// bounds) are not made.
	if len(p.products) > 0 && p.products[0].lword == "mozilla" && len(p.products[0].lname) > len("mozilla") &&
		strings.IndexByte(p.products[0].name, '@') > 0 {
		if s.engName.v == "Gecko" {
			s.engVersion.set(Unknown, confRepair)
		}
		switch {
		case s.os.version == ">=10":
			s.os.version = "10.0"
		case s.os.version == ">=10.15.7" && s.agName.v == "Firefox":
			s.os.version = "10.15"
		case s.os.version == ">=10.15.7":
			s.os.version = "10.15.7"
		}
	}
	// Nothing names the client, but the device is known: the user agent
	// is the device's own, as in "(Samsung SMJ200M; CPU Android 5.1.1;
	// ...)" or a television's bare HbbTV comment.
	if s.agName.v == "" && s.devBrand.v != "" && s.devBrand.v != Unknown && len(p.products) == 0 &&
		strings.HasPrefix(strings.TrimSpace(p.ua), "(") {
		s.setAgent(confRepair, "Special", s.devBrand.v, Unknown)
	}
	s.bugBountyBrand()
}

// bugBountyBrand marks the traffic of bug bounty hunters: the platforms
// ask their researchers to add the address the platform gives them to the
// user agent ("... Safari/537.36 ni3lsBasj3s@intigriti.me"), so that the
// site owner can tell research from an attack. Yauaa shows the platform as
// the brand of a device that has none of its own.
func (s *state) bugBountyBrand() {
	if s.devBrand.v != "" && s.devBrand.v != Unknown {
		return
	}
	brand := ""
	switch {
	case s.p.has(kwAtIntigriti):
		brand = "Intigriti"
	case s.p.has(kwAtHackerOne):
		brand = "HackerOne"
	case s.p.has(kwAtBugcrowd):
		brand = "Bugcrowd"
	default:
		return
	}
	s.devBrand.set(brand, confRepair)
	if s.devName.v != "" && s.devName.v != Unknown {
		s.devName.set(brand+" "+s.devName.v, confRepair)
	}
}

var (
	kwAtIntigriti needleID
	kwAtHackerOne needleID
	kwAtBugcrowd  needleID
)

// zeroedComment reports a user agent whose platform comment a privacy tool
// overwrote with zeros: "Mozilla/5.0 (000000000; 00000 000 00 0 000000)".
func zeroedComment(p *parsed) bool {
	if len(p.entries) < 2 || p.entries[0].block != 0 {
		return false
	}
	for _, e := range p.entries {
		if e.block != 0 {
			break
		}
		for _, c := range []byte(p.ltext(e)) {
			if c != '0' && c != ' ' {
				return false
			}
		}
	}
	return true
}

// windowsWithCPU reports a comment entry "Windows x86" or "Windows
// x86_64": the platform named by its processor instead of its version.
func windowsWithCPU(p *parsed) bool {
	for _, e := range p.entries {
		lt := p.ltext(e)
		if !strings.HasPrefix(lt, "windows") {
			continue
		}
		switch strings.TrimPrefix(lt[len("windows"):], " ") {
		case "x86", "x86_64", "x64", "i686", "i386", "amd64":
			return true
		}
	}
	return false
}

// gluedAfterSafari reports "Safari/537.36" directly followed by a letter.
func gluedAfterSafari(low string) bool {
	i := strings.LastIndex(low, "safari/")
	if i < 0 {
		return false
	}
	j := i + len("safari/")
	for j < len(low) && (low[j] >= '0' && low[j] <= '9' || low[j] == '.') {
		j++
	}
	return j > i+len("safari/") && j < len(low) && low[j] >= 'a' && low[j] <= 'z'
}

// reducedModel reports the "K" that stands for the model in Chrome's
// reduced Android user agent.
func reducedModel(p *parsed) bool {
	for _, e := range p.entries {
		if e.block == 0 && p.ltext(e) == "k" {
			return true
		}
	}
	return false
}

// wordBeforeFirefox reports a Firefox product whose name has another word
// before it, as in "Gecko/20100101 null Firefox/102.0".
func wordBeforeFirefox(p *parsed) bool {
	ff, ok := p.product("Firefox")
	return ok && len(ff.name) > len(ff.word)
}

// collapseSpaces repairs a user agent padded with runs of spaces
// ("Mozilla    /    5.0      (      Linux      ;  ..."): every run of
// white space becomes one space, and none is kept next to a slash or
// inside the parentheses. Ordinary user agents, without a run of three
// spaces, are returned unchanged.
func collapseSpaces(ua string) string {
	if !hasThreeSpaces(ua) {
		return ua
	}
	b := make([]byte, 0, len(ua))
	space := false
	for i := 0; i < len(ua); i++ {
		c := ua[i]
		if isSpace(c) {
			space = true
			continue
		}
		if space && len(b) > 0 && c != '/' && c != ')' && c != ';' && c != ',' {
			if last := b[len(b)-1]; last != '/' && last != '(' {
				b = append(b, ' ')
			}
		}
		space = false
		b = append(b, c)
	}
	return string(b)
}

// fakeWindowsNT reads the made-up user agents that claim a Windows NT
// release that never existed ("Windows NT 9.0", "Windows NT 9_1_2"). They
// are generated from parts of real ones and keep only the shape:
//   - "Mozilla/5.0 (Windows; Windows NT 9.0; en-US)" names no browser;
//     Yauaa then takes the unknown platform itself for the agent;
//   - "WebKit/576.2.3 (KHTML, like Gecko) Safari/6.0" has no AppleWebKit,
//     and its Safari token carries a browser version where Safari sends
//     its WebKit build (85 and up): the agent is the WebKit token and the
//     engine is left to the Mozilla token.
func (s *state) fakeWindowsNT() {
	if s.os.name != "Windows NT" {
		return
	}
	p := s.p
	nt := ""
	for _, e := range p.entries {
		if lt := p.ltext(e); strings.HasPrefix(lt, "windows nt ") {
			nt = strings.ReplaceAll(lt[len("windows nt "):], "_", ".")
			break
		}
	}
	// Windows NT went from 6.3 (8.1) to 10.0: 7, 8 and 9 never existed.
	if major := atoiPrefix(nt); !isVersionLike(nt) || major < 7 || major > 9 {
		return
	}
	switch s.agName.v {
	case "Netscape":
		s.setAgent(confRepair, "Browser", "Windows NT", nt)
	case "Safari":
		sf, ok := p.product("Safari")
		if !ok || atoiPrefix(sf.version) >= 85 {
			return
		}
		if _, ok := p.product("AppleWebKit"); ok {
			return
		}
		wk, ok := p.product("WebKit")
		if !ok || len(p.products) == 0 {
			return
		}
		s.setAgent(confRepair, "Browser", "WebKit", cleanVersion(wk.version))
		s.setEngine(confRepair, "Browser", "Mozilla", cleanVersion(p.products[0].version))
	}
}

// brokenIOSApp names the iOS app around the system web view when it
// appends itself after "Mobile/<build>" in a broken shape that the regular
// rule (iosAppAfterMobile) does not accept:
//   - "Mobile/13D15; DDG-iOS-709": DuckDuckGo's browser, name and version
//     joined by dashes;
//   - "Mobile/15E148 MAGAPPX|6.1.6-6.1.6-137|iOS 17.5.1 iPhone 12|...":
//     fields separated by bars, name first;
//   - "Mobile/15E148 H@U2FsdGVkX19...==@h Snorlax/2.6.1.2": an opaque
//     token (with '@') before the app's product;
//   - "Mobile/13D15 MOBILE-LEQUIPE/IOS/PHONE/6.9.3": an app that names its
//     platform where its version would be, read as the Android apps that
//     do so are ("member-react-native-application/android/1.11.12"), the
//     platform word standing for the version;
//   - "Mobile/13G34 EmbeddedBrowser/Delfi/440": the embedded browser of a
//     publisher's app, named by its own product, with the app's name and
//     then the app's version after it;
//   - "Mozilla/5.0 Delfi/504.53.0 EmbeddedBrowser (iPad; ...": the same
//     browser named after Mozilla's token, the app's product first.
func (s *state) brokenIOSApp() {
	p := s.p
	if len(p.products) > 2 && p.products[2].lname == "embeddedbrowser" && p.products[2].version == "" {
		if app := p.products[1]; app.name != "" && isLetter(app.name[0]) && !strings.ContainsAny(app.name, " ():@") {
			s.setAgent(confRepair, "Mobile App", app.name, cleanVersion(app.version))
			return
		}
	}
	if p.has(kwDDGiOS) {
		i := p.index(kwDDGiOS) + len("ddg-ios-")
		j := i
		for j < len(p.ua) && (p.ua[j] >= '0' && p.ua[j] <= '9' || p.ua[j] == '.') {
			j++
		}
		if j > i {
			s.setAgent(confRepair, "Browser", "DuckDuckGo", p.ua[i:j])
			return
		}
	}
	for i, pr := range p.products {
		if pr.lname != "mobile" || i+1 >= len(p.products) {
			continue
		}
		next := p.products[i+1]
		name := next.name
		switch {
		case name != "" && isLetter(name[0]) && strings.IndexByte(name, '|') > 0:
			k := strings.IndexByte(name, '|')
			v := name[k+1:]
			if e := strings.IndexAny(v, "|-"); e >= 0 {
				v = v[:e]
			}
			if isVersionLike(v) && !strings.ContainsAny(name[:k], " /") {
				s.setAgent(confRepair, "Mobile App", name[:k], cleanVersion(v))
			}
		case name != "" && isLetter(name[0]) && strings.EqualFold(next.version, "ios") && !strings.ContainsAny(name, " ():@"):
			s.setAgent(confRepair, "Mobile App", name, next.version)
		case next.lname == "embeddedbrowser" && next.version != "" && isLetter(next.version[0]) && i+2 < len(p.products):
			if v := leadingVersion(p.products[i+2].name); v != "" {
				s.setAgent(confRepair, "Mobile App", name, v)
			}
		case strings.IndexByte(name, '@') >= 0 && i+2 < len(p.products):
			app := p.products[i+2]
			if app.name != "" && isLetter(app.name[0]) && isVersionLike(app.version) && !strings.ContainsAny(app.name, " ():@") {
				s.setAgent(confRepair, "Mobile App", app.name, cleanVersion(app.version))
			}
		}
		return
	}
}

// hasThreeSpaces reports whether ua holds three spaces in a row, as
// strings.Contains(ua, "   ") does, but faster on user agents, which are
// full of single spaces (a search for the first space stops at each).
// Every run of three bytes covers exactly one offset that is a multiple of
// three, so only those offsets are read, and a space found there is
// measured with the two bytes on either side: a third of the bytes are
// loaded, where reading eight bytes at a time still handles them all.
func hasThreeSpaces(ua string) bool {
	for i := 0; i < len(ua); i += 3 {
		if ua[i] != ' ' {
			continue
		}
		lo, hi := i, i+1
		for lo > 0 && lo > i-2 && ua[lo-1] == ' ' {
			lo--
		}
		for hi < len(ua) && hi < i+3 && ua[hi] == ' ' {
			hi++
		}
		if hi-lo >= 3 {
			return true
		}
	}
	return false
}

// restoreParens puts back the parentheses some proxies and log pipelines
// strip from a user agent ("Mozilla/5.0 Linux; Android 8.1.0; NB76
// AppleWebKit/537.36 KHTML, like Gecko Chrome/71.0.3578.99 Mobile
// Safari/537.36", "Dalvik/2.1.0 Linux; U; Android 5.1.1; SM-G530T
// Build/LMY47X"). Without them the comment's words read as products. It
// applies only to a string with no parenthesis at all that starts with the
// Mozilla or Dalvik product followed by a comment (a word list with "; "):
// the comment runs to the layout engine's product, or to the end.
func restoreParens(ua string) string {
	if strings.IndexByte(ua, '(') >= 0 || strings.IndexByte(ua, ')') >= 0 {
		return ua
	}
	if !strings.HasPrefix(ua, "Mozilla/") && !strings.HasPrefix(ua, "Dalvik/") {
		return ua
	}
	sp := strings.IndexByte(ua, ' ')
	if sp < 0 {
		return ua
	}
	rest := ua[sp+1:]
	semi := strings.Index(rest, "; ")
	if semi < 0 || strings.IndexByte(rest[:semi], '/') >= 0 {
		return ua
	}
	end := len(rest)
	for _, eng := range [...]string{" AppleWebKit/", " Gecko/", " Presto/"} {
		if k := strings.Index(rest, eng); k >= 0 && k < end {
			end = k
		}
	}
	var b strings.Builder
	b.Grow(len(ua) + 4)
	b.WriteString(ua[:sp+1])
	b.WriteByte('(')
	b.WriteString(rest[:end])
	b.WriteByte(')')
	b.WriteString(strings.Replace(rest[end:], " KHTML, like Gecko ", " (KHTML, like Gecko) ", 1))
	return b.String()
}
