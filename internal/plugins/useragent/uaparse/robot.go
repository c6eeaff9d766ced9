package uaparse

import (
	"slices"
	"strings"
	"unsafe"
)

var robotNeedles needleGroup

// robotWordIDs are the needles of robotWords, in the same order.
var robotWordIDs []needleID

func buildRobotWordIDs() []needleID {
	ids := make([]needleID, len(robotWords))
	for i, w := range robotWords {
		ids[i] = uaNeedles.add(w)
	}
	return ids
}

// robotWords mark a product or comment entry as an automated client: the
// generic words and the robot product names of tables/robot_words.tsv, in
// file order.
var robotWords []string

// camelRobotWords are the rows of kind "word" of tables/robot_words.tsv,
// the words camelRobotWord looks for inside camel case names.
var camelRobotWords map[string]bool

func buildCamelRobotWords() map[string]bool {
	m := map[string]bool{}
	for _, w := range robotWordsOfKind("word") {
		m[w] = true
	}
	return m
}

// notRobotWords are product names containing a robot word by accident
// (tables/robot_words.tsv, kind "exception").
var notRobotWords []string

func robotWordsOfKind(kinds ...string) []string {
	var out []string
	for _, r := range loadTable("robot_words.tsv", tableColumns["robot_words.tsv"]) {
		if slices.Contains(kinds, r[1]) {
			out = append(out, r[0])
		}
	}
	return out
}

// robotKind tells how a robot was recognised, which decides how much of
// the ordinary analysis is kept.
type robotKind int

const (
	robotNone robotKind = iota
	// robotNamed robots call themselves a bot, crawler, spider, ...: they
	// are the agent and the layout engine.
	robotNamed
	// robotLibrary robots are HTTP client libraries.
	robotLibrary
	// robotContact robots give a contact URL or address but no robot word
	// in their name.
	robotContact
)

// detectRobot recognises crawlers, monitors and HTTP libraries and rewrites
// the device, system and agent as Yauaa reports robots.
func (s *state) detectRobot() {
	p := s.p
	if s.fediverseServer() || s.appEngine() || s.googleDocs() {
		return
	}
	name, ver, kind := s.findRobot()
	if kind == robotNone {
		if s.forgedBrowser() || s.platformPairs() || s.signedBrowser() {
			return
		}
		s.contactOnlyDevice()
		return
	}
	described := false
	if k := strings.IndexByte(name, ' '); k > 0 && isDomainName(asciiLower(name[:k])) && asciiLower(name[k+1:]) == name[k+1:] &&
		strings.IndexByte(name[k+1:], ' ') > 0 {
		// "Zwemkleding.nl image downloader": a site describing what it
		// fetches is that site's robot.
		d := name[:k]
		name, kind = capitalize(d[:strings.LastIndexByte(d, '.')]), robotContact
		described = true
	}
	trailingSite := ""
	if k := strings.LastIndexByte(name, ' '); k > 0 && isDomainName(asciiLower(name[k+1:])) {
		trailingSite = asciiLower(name[k+1:])
	} else if k := strings.IndexByte(name, ' '); k > 0 && isDomainName(strings.TrimPrefix(asciiLower(name[:k]), "www.")) {
		// "arameda.com Spider": the site in front is the owner's.
		trailingSite = strings.TrimPrefix(asciiLower(name[:k]), "www.")
	}
	name, ver = cleanRobotName(name, ver)
	if name == "" {
		return
	}
	lname := s.p.lower(name)
	mobileDevice := s.os.name == "Android" || s.os.name == "iOS" || s.os.name == "Windows Phone" || s.os.name == "BlackBerry"
	// A robot is a mobile robot when it imitates a named phone or tablet
	// ("Android 6.0.1; Nexus 5X") or says so in its name
	// ("YandexMobileScreenShotBot"); an Android version without a model
	// is not enough.
	namedModel := s.devName.v != "" && s.devName.v != Unknown && s.devName.v != "Android Mobile" && s.devName.v != "Android Tablet" &&
		indexLower(s.devName.v, lname) < 0 // "(Android 3.0; YRSpider; ...)": the robot is no model
	s.devClass.set("Robot", confRobot)
	if kind == robotNamed && (mobileDevice && namedModel || strings.Contains(lname, "mobile")) {
		s.devClass.set("Robot Mobile", confRobot+1)
	}
	agent := name
	if n, ok := robotAgentNames[lname]; ok {
		agent = n
	} else if lname == name {
		agent = normalizeRobotAgent(name)
	}
	keepAgent := false
	// byContactPage: a robot known only by the page it links to, which
	// keeps the layout engine its browser string claims.
	byContactPage := false
	brand := s.robotBrand(lname)
	if brand == Unknown && trailingSite != "" {
		// "datafeeds fetcher aanbiedingvandedag.nl": the site with the
		// name is its owner's.
		brand = normalizeName(trailingSite[:strings.LastIndexByte(trailingSite, '.')])
	}
	if kind == robotContact && !nameBrand(lname) && bigCompanies[brand] && s.urlIsHomePage() {
		// "heritrix/3.1.1 +http://www.baidu.com": a crawler framework
		// whose placeholder address was left at a search engine's home
		// page; the address says nothing about who runs it.
		kind, brand = robotNamed, Unknown
	}
	if brand == Unknown {
		if acr := acronymBot(name); acr != "" {
			// "CBSbot": the initials of its maker and "bot".
			brand = acr
			agent = acr + " Bot"
			name = agent
		}
	}
	s.devBrand.set(brand, confRobot)
	if brand == "Yandex" && len(name) > 3 && name[:2] == "Ya" && name[2] >= 'A' && name[2] <= 'Z' {
		// "YaDirectFetcher": Yandex abbreviates its name in some robots.
		name = "Yandex" + name[2:]
		agent, lname = name, s.p.lower(name)
	}
	switch {
	case kind == robotLibrary && httpLibraries[lname] != "":
		// The library's name and maker are facts of tables/http_libraries.tsv:
		// they are written with confTable, so no later rule undoes them.
		s.devName.set(httpLibraries[lname], confTable)
		if strings.EqualFold(s.devName.v, name) && lname == name {
			agent = s.devName.v // "lwp-request" is "LWP-Request"
		}
		if b, ok := libraryBrands[lname]; ok {
			s.devBrand.set(b, confTable)
		} else if brand != Unknown && !hasPrefixFold(s.devName.v, brand) {
			// "masscan/1.0 (https://github.com/robertdavidgraham/masscan)":
			// the library as used by whoever gives the address.
			s.devName.set(brand+" "+s.devName.v, confTable+1)
		} else if brand == Unknown {
			if k := strings.IndexByte(s.devName.v, ' '); k > 0 {
				s.devBrand.set(s.devName.v[:k], confTable)
			} else {
				s.devBrand.set(s.devName.v, confTable)
			}
		}
	case kind == robotContact && !nameBrand(lname) && s.namedAfterSite(name):
		// A robot named after the site it gives, in its own spelling
		// ("ScoutJet; http://www.scoutjet.com/", "MegaIndex.ru/2.0;
		// +http://megaindex.com/"), is that company's own product.
		b := normalizeName(name)
		if strings.IndexByte(name, '.') > 0 {
			b = name
		}
		s.devName.set(b, confRobot)
		if k := strings.IndexByte(name, ' '); k > 0 {
			b = normalizeName(name[:k])
		}
		s.devBrand.set(b, confRobot+1)
	case kind == robotContact && !nameBrand(lname):
		// A robot known only by the contact it gives is shown as a robot
		// of the company the contact belongs to.
		if brand == Unknown {
			brand = firstWordBrand(agent)
			s.devBrand.set(brand, confRobot+1)
		}
		// Only a robot that links to a page about itself ("+http://
		// example.com/bot.html") introduces itself as a robot; one that
		// gives just its owner's site or mail address is whatever client
		// it says it is, run by that owner, and so is a project published
		// on a code hosting site. Either way the device is the company's
		// robot ("(compatible; BarkRowler/0.9; +https://babbar.tech/
		// crawler)" is Babbar's), as Yauaa names it: the name says nothing
		// a reader knows, so it names no product of the company.
		keepAgent = !s.urlHasPath() && !described
		byContactPage = !keepAgent && !described && !s.codeHostingURL()
		s.devName.set(brand+" Robot", confRobot)
	default:
		if brand == Unknown && !endsInRobotWord(lname) {
			// A robot without a contact and without a generic robot
			// word in its name is a product named after its maker
			// ("Catchpoint", "PhantomJS", "gitlab-runner").
			brand = firstWordBrand(agent)
			s.devBrand.set(brand, confRobot+1)
		}
		s.devName.set(robotDeviceName(s.p, brand, agent, lname), confRobot)
	}
	headless := headlessBrowsers[lname]
	if !headless {
		s.os = osInfo{name: "Cloud", version: Unknown, class: "Cloud"}
	}
	switch s.devBrand.v {
	case "Google":
		s.os.name = "Google Cloud"
	case "Microsoft":
		// Bing's crawlers are shown running in Microsoft's Azure cloud;
		// other Microsoft fetchers just in a cloud.
		if strings.Contains(lname, "bing") || strings.Contains(lname, "msnbot") || strings.Contains(lname, "adidxbot") {
			s.os.name, s.os.version = "Microsoft Cloud", "Microsoft Azure"
		}
	case "Yahoo":
		s.os.name = "Yahoo"
		// Yahoo's crawlers all run in Yahoo's own cloud, and are shown as
		// its robot whatever product they name ("Yahoo! Slurp").
		s.devName.set("Yahoo Robot", confRobot+1)
	}
	if !headless {
		s.devCPU.set("", confRobot)
	}
	if keepAgent {
		if s.mozilla {
			// The compatible section names the client: "coccoc" is
			// shown as "Coccoc".
			s.agName.set(appName(s.agName.v), confRobot)
		} else {
			s.setEngine(confRobot, Unknown, Unknown, Unknown)
			an := appName(name)
			if strings.IndexByte(name, '.') >= 0 {
				an = capitalize(name) // "www.basjes.nl" is not a package name
			}
			s.setAgent(confRobot, "Special", an, cleanVersion(ver))
		}
		return
	}
	if _, mapped := robotAgentNames[lname]; mapped {
		name = agent
	}
	n, engineNamed := robotEngineNames[lname]
	if engineNamed {
		name = n
	}
	if byContactPage && s.mozilla && !engineNamed {
		// A robot's product in a browser string that only its page
		// makes a robot is no layout engine: the string's own engine
		// (Mozilla in a compatible section, Gecko behind rv:) stays,
		// a robot's.
		s.engClass.set("Robot", confRobot)
	} else {
		s.setEngine(confRobot, "Robot", name, cleanVersion(ver))
	}
	s.setAgent(confRobot, "Robot", agent, cleanVersion(ver))
	if strings.HasPrefix(lname, "googlebot") {
		// Google's many Googlebots ("Googlebot-Video/1.0") share one
		// crawler engine, whose own version they do not give.
		s.engName.set("Googlebot", confRobot+1)
		s.engVersion.set(Unknown, confRobot+1)
	}
	if s.devBrand.v == "Google" && strings.HasPrefix(lname, "google ") && s.inKHTMLComment(name) {
		// "(KHTML, like Gecko; Google Page Speed Insights)": a Google
		// service that renders pages in its own browser, shown as
		// Google itself.
		s.devName.set("Google", confRobot+1)
	}
	if headless && lname != "phantomjs" {
		// "CasperJS/1.1.3+PhantomJS/1.9.8": a scripting tool on top of a
		// headless browser; the browser is the engine.
		if k := strings.Index(p.low, "+phantomjs/"); k >= 0 {
			s.engName.set("PhantomJS", confRobot+1)
			s.engVersion.set(cleanVersion(leadingVersion(p.low[k+len("+phantomjs/"):])), confRobot+1)
		} else if pj, ok := p.product("PhantomJS"); ok {
			s.engName.set("PhantomJS", confRobot+1)
			s.engVersion.set(cleanVersion(pj.version), confRobot+1)
		}
	}
	// Only a bare "Googlebot" without Google's address is an imitator;
	// Google's specialised crawlers ("Googlebot-Video/1.0") often omit it.
	if lname == "googlebot" && !p.has(kwGoogleBotHTML) && !p.has(kwGooglebotCom) {
		s.googlebotImitator(ver)
	}
	// Bingbot always gives its page as an entry of its own:
	// "bingbot/2.0; +http://www.bing.com/bingbot.htm".
	if lname == "bingbot" && !p.has(kwBingbotHTM) {
		s.imitator(ver, "Bingbot", "Microsoft")
	}
	if mobileDevice && p.has(kwGooglebot) {
		s.agClass.set("Robot Mobile", confRobot+1)
	}
}

// googlebotImitator describes a client that calls itself Googlebot but does
// not point to Google's documentation, as Googlebot always does. The
// company behind it shows in its own URL, and a product of its own, if it
// names one, is the agent.
func (s *state) googlebotImitator(ver string) {
	s.imitator(ver, "Googlebot", "Google")
}

// imitator describes a client that claims to be the crawler bot of company
// without the crawler's exact signature; see googlebotImitator.
func (s *state) imitator(ver, bot, company string) {
	p := s.p
	brand := Unknown
	if b := s.urlBrand(); b != "" && b != company {
		brand = b
	}
	name := bot + " Imitator"
	s.setDevice(confRobot+2, "Robot Imitator", brand, name)
	if brand != Unknown {
		s.devName.set(brand+" "+name, confRobot+3+2)
	}
	s.os = osInfo{name: "Cloud", version: Unknown, class: "Cloud"}
	ver = cleanVersion(ver)
	s.engName.set(name, confRobot+2)
	s.engVersion.set(ver, confRobot+2)
	s.agName.set(name, confRobot+2)
	s.agVersion.set(ver, confRobot+2)
	lbot := asciiLower(bot)
	// "Ryderspider/1.0 (Googlebot/2.1)", "(compatible; Googlebot/2.1;
	// BeforeYouClick/1.0; ...)": the imitator's own name and version.
	for i, pr := range p.products {
		if i == 0 && pr.lname == "mozilla" || pr.version == "" || strings.HasPrefix(pr.lname, lbot) || !startsWithLetter(pr.name) {
			continue
		}
		s.agName.set(pr.name, confRobot+3)
		s.agVersion.set(cleanVersion(pr.version), confRobot+3)
		return
	}
	for _, e := range p.entries {
		lt := p.ltext(e)
		if strings.HasPrefix(lt, lbot) || lt == "compatible" || isInfoEntry(lt) || !strings.Contains(lt, "/") {
			continue
		}
		n, v := splitEntryProduct(p.text(e))
		if n != "" && isLetter(n[0]) {
			s.agName.set(n, confRobot+3)
			s.agVersion.set(cleanVersion(v), confRobot+3)
		}
		return
	}
}

// inKHTMLComment reports that name is an entry of the "(KHTML, like
// Gecko; ...)" comment.
func (s *state) inKHTMLComment(name string) bool {
	p := s.p
	for _, e := range p.entries {
		if p.text(e) != name {
			continue
		}
		for _, f := range p.entries {
			if f.block == e.block && p.ltext(f) == "khtml" {
				return true
			}
		}
	}
	return false
}

// appEngine recognises requests of applications hosted on Google App
// Engine ("AppEngine-Google; (+http://code.google.com/appengine; appid:
// s~myapp)"), whatever browser or robot the application claims to be: the
// device is Google's cloud and the agent is the application.
func (s *state) appEngine() bool {
	p := s.p
	if !p.has(kwAppEngineGoogle) {
		return false
	}
	app := Unknown
	if k := strings.Index(p.low, "appid:"); k >= 0 {
		id := strings.TrimSpace(p.low[k+len("appid:"):])
		// App Engine prefixes the identifier with its partition ("s~").
		if len(id) > 2 && id[1] == '~' {
			id = id[2:]
		}
		end := 0
		for end < len(id) && (isAlnum(id[end]) || id[end] == '-' || id[end] == '_' || id[end] == '.') {
			end++
		}
		if end > 0 {
			app = normalizeRobotAgent(id[:end])
		}
	}
	s.devClass.set("Robot", confRobot)
	s.devBrand.set("Google", confRobot)
	s.devName.set("Google Appengine", confRobot)
	s.devCPU.set("", confRobot)
	s.os = osInfo{name: "Google Cloud", version: Unknown, class: "Cloud"}
	s.setEngine(confRobot, "Cloud", "Cloud", Unknown)
	s.setAgent(confRobot, "Robot", app, Unknown)
	return true
}

// acronymBot returns the capitals of a robot named "<CAPITALS>bot"
// ("CBSbot" is "CBS"), or "".
func acronymBot(name string) string {
	n := len(name) - 3
	if n < 2 || name[n:] != "bot" {
		return ""
	}
	for i := 0; i < n; i++ {
		if name[i] < 'A' || name[i] > 'Z' {
			return ""
		}
	}
	return name[:n]
}

// googleDocs recognises Google Docs fetching a document's images or feeds
// for its users ("Mozilla/5.0 (compatible; GoogleDocs; apps-spreadsheets;
// +http://docs.google.com)"): a cloud application, named after the Docs
// component that makes the request.
func (s *state) googleDocs() bool {
	p := s.p
	if !p.has(kwGoogleDocs) {
		return false
	}
	block, app := -1, ""
	for _, e := range p.entries {
		lt := p.ltext(e)
		if lt == "googledocs" {
			block = e.block
			continue
		}
		if e.block != block || app != "" {
			continue
		}
		switch {
		case strings.HasPrefix(lt, "+google-"):
			// "+Google-Document-Conversion"
			app = strings.ReplaceAll(normalizeName(strings.TrimPrefix(p.text(e), "+")), "-", " ")
		case !isInfoEntry(lt) && !strings.HasPrefix(lt, "+"):
			// "apps-spreadsheets", "documents", "script"
			app = "Google Docs " + capitalize(strings.TrimPrefix(lt, "apps-"))
		}
	}
	if block < 0 {
		return false
	}
	if app == "" {
		app = "Google Docs"
	}
	s.devClass.set("Desktop", confRobot)
	s.devBrand.set("Google", confRobot)
	s.devName.set("Google Docs", confRobot)
	s.devCPU.set("", confRobot)
	s.os = osInfo{name: "Google Cloud", version: Unknown, class: "Cloud"}
	s.setEngine(confRobot, "Cloud", "Cloud", Unknown)
	s.setAgent(confRobot, "Cloud Application", app, Unknown)
	return true
}

// headlessBrowsers are browsers without a screen, driven by scripts: they
// run on the machine of whoever runs the script, so the system they report
// is kept.
var headlessBrowsers map[string]bool

// robotDeviceName composes the device name of a robot: the company, then
// the product with the company's name taken off its front ("YandexBot" of
// Yandex is "Yandex BOT", "DotBot" of Opensiteexplorer is "Opensiteexplorer
// Dotbot"). The name is built in p's arena (parsed.concat).
func robotDeviceName(p *parsed, brand, agent, lname string) string {
	if n, ok := robotDeviceNames[lname]; ok {
		return n
	}
	if len(agent) > 8 && strings.EqualFold(agent[len(agent)-8:], " mozilla") {
		// "LightspeedSystemsCrawler Mozilla/5.0 (...)": the robot put
		// its name in front of the browser string it copies.
		agent = agent[:len(agent)-8]
	}
	if brand == Unknown {
		return normalizeNameIn(p, agent)
	}
	if alnumEqualFold(agent, brand) {
		return normalizeNameIn(p, agent)
	}
	rest := agent
	if hasPrefixFold(rest, brand) {
		if len(rest) > len(brand)+1 && rest[len(brand)] == ' ' && (isLetter(rest[len(brand)+1]) || rest[len(brand)+1] == '.') {
			// "SiteGuru Linkchecker": the company's name as a word of
			// its own keeps the robot's spelling.
			return normalizeNameIn(p, agent)
		}
		// (A dot stays: "archive.org_bot" is "Archive .org BOT".)
		rest = cutRobotGap.trimLeft(rest[len(brand):])
	}
	if rest == "" {
		return brand
	}
	return p.concat(brand, " ", normalizeNameIn(p, rest))
}

// alnumEqualFold compares two names ignoring case and everything but
// letters and digits ("MJ12bot" and "MJ12BOT", "Domain-Crawler" and
// "DomainCrawler").
func alnumEqualFold(a, b string) bool {
	i, j := 0, 0
	for {
		for i < len(a) && !isAlnum(a[i]) {
			i++
		}
		for j < len(b) && !isAlnum(b[j]) {
			j++
		}
		if i == len(a) || j == len(b) {
			return i == len(a) && j == len(b)
		}
		if lowerByte(a[i]) != lowerByte(b[j]) {
			return false
		}
		i++
		j++
	}
}

func isAlnum(c byte) bool { return isLetter(c) || c >= '0' && c <= '9' }

func lowerByte(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// genericRobotWords are the words that make a name a robot's name; a robot
// called only that ("Googlebot", "Scspider") says nothing about its maker.
var genericRobotWords = []string{"bot", "spider", "crawler", "crawl", "fetcher", "scraper", "indexer", "checker"}

// endsInRobotWord reports a name made of a prefix and a generic robot word.
func endsInRobotWord(lname string) bool {
	for _, w := range genericRobotWords {
		if strings.HasSuffix(lname, w) || strings.HasSuffix(lname, w+"s") {
			return true
		}
	}
	return false
}

// firstWordBrand takes the first word of a product name as the name of its
// maker: "Gitlab CI Runner" is made by Gitlab, "kube-probe" by Kube,
// "PhantomJS" by PhantomJs.
func firstWordBrand(agent string) string {
	w := agent
	if k := strings.IndexAny(w, " -_/"); k > 0 {
		w = w[:k]
	}
	if w == "" {
		return Unknown
	}
	return normalizeName(w)
}

// cleanRobotName trims what robots write around their name: a domain in
// front ("DomainCheck.io Crawler"), a contact or version behind it
// ("YOURLS v1.7.2 +http://..."), a colon ("Toweyabot: toweya.com"). A name
// that is a domain ("MegaIndex.ru") is kept.
func cleanRobotName(name, ver string) (string, string) {
	name = strings.TrimSpace(name)
	if k := strings.Index(name, ": "); k > 0 {
		switch asciiLower(name[:k]) {
		case "user_agent", "user-agent", "useragent":
			// "user_agent: rc-crawler": a setting pasted with its key.
			name = strings.TrimSpace(name[k+2:])
		}
	}
	if len(name) > 11 && strings.EqualFold(name[:11], "like gecko ") {
		// "... like Gecko BingPreview/1.0b": the end of a browser's
		// comment run into the robot's product.
		name = strings.TrimSpace(name[11:])
	}
	if len(name) > 4 && strings.EqualFold(name[:4], "via ") {
		// "(via ggpht.com GoogleImageProxy)": a proxy says which host it
		// fetches for, then its name.
		if w, rest, ok := strings.Cut(name[4:], " "); ok && isDomainName(asciiLower(w)) && rest != "" {
			name = strings.TrimSpace(rest)
		}
	}
	if k := strings.Index(name, " +"); k > 0 {
		name = strings.TrimSpace(name[:k])
	}
	if k := indexLower(name, " http"); k > 0 {
		name = strings.TrimSpace(name[:k]) // "Visited by http://..."
	}
	// "Feedbin - 1 subscribers", "ADmantX Platform Semantic Analyzer -
	// ADmantX Inc. - www.admantx.com": the name ends before the part
	// with a count or an address.
	for off := 0; ; {
		k := strings.Index(name[off:], " - ")
		if k < 0 {
			break
		}
		k += off
		rest := name[k+3:]
		if rest != "" && (rest[0] >= '0' && rest[0] <= '9' || asciiHasPrefixLower(rest, "www.") ||
			asciiHasPrefixLower(rest, "http")) {
			name = name[:k]
			break
		}
		off = k + 3
	}
	if k := strings.Index(name, ": "); k > 0 {
		name = name[:k]
	}
	if k := strings.LastIndex(name, " v"); k > 0 && k+2 < len(name) && name[k+2] >= '0' && name[k+2] <= '9' {
		name = name[:k]
	}
	if k := strings.IndexByte(name, ' '); k > 0 && ver == "" && k+1 < len(name) && isVersionLike(name[k+1:]) {
		// "NimbleCrawler 1.11 obeys UserAgent NimbleCrawler ...": the
		// version written after a space ends the name.
		v := name[k+1:]
		if sp := strings.IndexByte(v, ' '); sp > 0 {
			v = v[:sp]
		}
		name, ver = name[:k], v
	}
	if k := strings.LastIndexByte(name, ' '); k > 0 && isDomainName(asciiLower(name[k+1:])) {
		// "LinkCheck by Siteimprove.com": the maker's site ends the name.
		name = name[:k]
	}
	if k := strings.IndexByte(name, ' '); k > 0 && isDomainName(strings.TrimPrefix(name[:k], "www.")) {
		rest := strings.TrimSpace(name[k+1:])
		if strings.EqualFold(rest, "mozilla") {
			// "www.deadlinkchecker.com Mozilla/5.0 (...)": the site is
			// the robot, the rest is the browser it imitates.
			d := strings.TrimPrefix(name[:k], "www.")
			return capitalize(d[:strings.LastIndexByte(d, '.')]), ""
		}
		// "arameda.com Spider": the domain is the contact, the rest is
		// the robot; Yauaa capitalises what is left.
		name = capitalize(rest)
	}
	if l := asciiLower(name); strings.Count(l, " ") >= 5 && (strings.Contains(l, " the ") || strings.Contains(l, " is ")) {
		// "NetSystemsResearch studies the availability of ...": a
		// sentence about the robot starts with its name.
		name = name[:strings.IndexByte(name, ' ')]
	}
	return name, ver
}

// namedAfterSite reports a robot name written in the maker's own capitals
// ("ScoutJet", "MegaIndex.ru") that is the name of the web site it links
// to: a product named after its company's site.
func (s *state) namedAfterSite(name string) bool {
	if !hasInnerCapital(name) {
		return false
	}
	host := s.urlHostLabel()
	lname := asciiLower(name)
	if w, rest, ok := strings.Cut(name, " "); ok {
		// "MetaURI API/2.0 +metauri.com": the site's name and a word in
		// capitals for the service.
		if strings.ToUpper(rest) != rest || strings.IndexByte(rest, ' ') >= 0 {
			return false
		}
		lname = asciiLower(w)
	}
	return host != "" && (lname == host || strings.TrimSuffix(lname, domainSuffix(lname)) == host)
}

// hasInnerCapital reports a capital letter after a lower case one
// ("ScoutJet").
func hasInnerCapital(n string) bool {
	for i := 1; i < len(n); i++ {
		if n[i] >= 'A' && n[i] <= 'Z' && n[i-1] >= 'a' && n[i-1] <= 'z' {
			return true
		}
	}
	return false
}

// urlHostLabel returns the owner label of the first URL's host
// ("about.edgewatch.com" is "edgewatch"), or "".
func (s *state) urlHostLabel() string {
	p := s.p
	at := -1
	if i := strings.Index(p.low, "://"); i >= 0 {
		at = i + 3
	} else if i := strings.Index(p.low, "www."); i >= 0 {
		at = i
	}
	host := ""
	if at >= 0 {
		host = hostAt(p.low, at)
	} else {
		// A bare domain among the words: "MetaURI API/2.0 +metauri.com",
		// "... Our website is netsystemsresearch.com".
		for _, pr := range p.products {
			for w := range strings.FieldsSeq(pr.lname) {
				if w = strings.TrimPrefix(w, "+"); isDomainName(w) {
					host = w
				}
			}
		}
	}
	labels := strings.Split(host, ".")
	if len(labels) < 2 {
		return ""
	}
	return labels[len(labels)-2]
}

// codeHostingURL reports a first URL on GitHub or GitLab.
func (s *state) codeHostingURL() bool {
	p := s.p
	i := strings.Index(p.low, "://")
	if i < 0 {
		return false
	}
	host := strings.TrimPrefix(hostAt(p.low, i+3), "www.")
	return host == "github.com" || host == "gitlab.com"
}

// urlHasPath reports that the first URL of the user agent points below the
// home page of its site ("http://example.com/bot.html", not
// "https://example.com/").
func (s *state) urlHasPath() bool {
	p := s.p
	i := strings.Index(p.low, "://")
	if i < 0 {
		return false
	}
	at := i + 3
	end := at + len(hostAt(p.low, at))
	if end >= len(p.low) || p.low[end] != '/' {
		return false
	}
	end++
	if end >= len(p.low) || !isAlnum(p.low[end]) && p.low[end] != '~' && p.low[end] != '_' {
		return false
	}
	// The company's own "about" or "support" page says nothing about a
	// robot: "http://riddler.io/about", "http://www.searchme.com/support/".
	seg := p.low[end:]
	if k := strings.IndexAny(seg, " ;)"); k >= 0 {
		seg = seg[:k]
	}
	switch strings.TrimSuffix(seg, "/") {
	case "about", "support", "contact", "home":
		return false
	}
	return true
}

// urlIsHomePage reports that the first URL is a site's bare home page
// ("http://www.google.com"), with no subdomain other than www and no path.
func (s *state) urlIsHomePage() bool {
	p := s.p
	i := strings.Index(p.low, "://")
	if i < 0 || s.urlHasPath() {
		return false
	}
	host := strings.TrimPrefix(hostAt(p.low, i+3), "www.")
	return strings.Count(host, ".") == 1
}

// bigCompanies are the companies whose home pages crawler frameworks give
// as placeholder contact addresses.
var bigCompanies map[string]bool

// fileExtensions end file names that look like domain names
// ("requirements.txt").
var fileExtensions map[string]bool

func buildFileExtensions() map[string]bool {
	return map[string]bool{
		"txt": true, "js": true, "json": true, "html": true, "htm": true, "php": true, "xml": true, "css": true,
		"jpg": true, "png": true, "gif": true, "exe": true, "py": true, "sh": true, "zip": true, "gz": true, "cfg": true, "ini": true,
	}
}

// domainSuffix returns the top level domain ending a name shaped like a
// domain ("MegaIndex.ru" ends in ".ru"), or "".
func domainSuffix(lname string) string {
	if isDomainName(lname) {
		return lname[strings.LastIndexByte(lname, '.'):]
	}
	return ""
}

// isDomainName reports "example.com" shaped words: labels of letters,
// digits and dashes separated by dots, ending in a letters-only label.
func isDomainName(w string) bool {
	dot := strings.LastIndexByte(w, '.')
	if dot <= 0 || dot == len(w)-1 || len(w)-dot-1 > 6 {
		return false
	}
	for i := dot + 1; i < len(w); i++ {
		if !isLetter(w[i]) {
			return false
		}
	}
	for i := 0; i < dot; i++ {
		if c := w[i]; !isAlnum(c) && c != '-' && c != '.' {
			return false
		}
	}
	return true
}

// normalizeRobotAgent capitalises an all lower case robot name the way the
// agent name is shown ("msnbot-media" -> "Msnbot-Media").
func normalizeRobotAgent(n string) string {
	if strings.IndexByte(n, ' ') > 0 {
		// "alexa site audit" is "Alexa Site Audit": every word capitalised.
		words := strings.Split(n, " ")
		for i, w := range words {
			if w != "" {
				words[i] = normalizeRobotAgent(w)
			}
		}
		return strings.Join(words, " ")
	}
	parts := strings.Split(n, "-")
	for i, w := range parts {
		sub := strings.Split(w, "_")
		for j, x := range sub {
			switch {
			case x == "bot":
				sub[j] = "BOT"
			case len(x) <= 3 && i > 0 || len(x) <= 2 && len(sub) == 1:
				sub[j] = strings.ToUpper(x)
			default:
				sub[j] = capitalize(x)
			}
		}
		parts[i] = strings.Join(sub, "_")
	}
	out := strings.Join(parts, "-")
	if len(n) <= 3 {
		return strings.ToUpper(n)
	}
	return out
}

// findRobot returns the name and version of the robot in the user agent,
// and how it was recognised.
func (s *state) findRobot() (string, string, robotKind) {
	p := s.p
	// One pass over the whole string tells whether any robot word or
	// Google crawler name occurs at all; most user agents have none, and
	// then no entry or product needs checking.
	if !p.hasAny(&robotNeedles) && !p.has(kwGoogle) && !p.has(kwPTST) {
		return s.contactRobot()
	}
	// A robot name in a comment: "(compatible; Googlebot/2.1; +http://...)".
	for i, e := range p.entries {
		lt := p.ltext(e)
		if isInfoEntry(lt) || strings.HasPrefix(lt, "like ") || strings.HasPrefix(lt, "compatible with ") ||
			strings.ContainsAny(lt, "{=") || lt != "" && lt[0] >= '0' && lt[0] <= '9' {
			// (Neither a contact, nor a comparison, "TelegramBot (like
			// TwitterBot)", "(compatible with Googlebot)", nor data an app appends, "(agof={"angebot":
			// ...})", nor a count, "2 subscribers", names the robot.)
			continue
		}
		if isDomainName(lt) && len(p.products) > 0 && isRobotName(p, p.products[0].lname) {
			// "Zookabot/2.4; +http://zookabot.com": the domain is the
			// robot's address, the product its name.
			continue
		}
		if p.spelledAddress(lt) {
			// "(zitebot support [at] zite [dot] com)" still names the
			// robot in its first word, unless the robot's own product
			// comes first ("Yahoo-Newscrawler/3.9 (news-search-crawler
			// at yahoo-inc dot com)"); a plain address names nothing.
			w, rest, _ := strings.Cut(p.text(e), " ")
			if !isRobotName(p, asciiLower(w)) || len(p.products) > 0 && isRobotName(p, p.products[0].lname) {
				continue
			}
			if k := strings.Index(rest, " +"); k >= 0 {
				rest = rest[:k]
			}
			return w, rest, robotNamed
		}
		if isRobotName(p, lt) {
			if i > 0 && p.entries[i-1].block == e.block && strings.HasPrefix(p.ltext(p.entries[i-1]), "android ") &&
				!isRobotName(p, lt[strings.LastIndexByte(lt, ' ')+1:]) {
				// "(Linux; Android 7.0; M bot 54)": the model after the
				// Android version holds a series named "bot" and a
				// number; a robot ends its name with the robot word
				// ("(Android 3.0; ExampleSpider)").
				continue
			}
			if pr, ok := s.robotProductBefore(e); ok {
				return pr.name, pr.version, robotNamed
			}
			name, ver := splitEntryProduct(p.text(e))
			return name, ver, robotNamed
		}
		if v, ok := strings.CutPrefix(lt, "ptst "); ok {
			return "PTST", v, robotNamed
		}
	}
	for i, pr := range p.products {
		lw := pr.lname
		if lw == "ptst" {
			return s.webpageTest(i)
		}
		if isRobotName(p, lw) || lw == "con_aff" || s.loneCompanyRobot(i) {
			return pr.name, pr.version, robotNamed
		}
		if i == 0 && lw != "mozilla" && pr.version != "" && strings.IndexByte(lw, '.') < 0 && isRobotName(p, p.lowerOf(pr.version)) {
			// "CB/Nutch-1.7": the client names the crawler it is built
			// on where others write their version; the product is the
			// robot. (A host name with a path, "example.com/bot.html",
			// is an address, not a product.)
			return pr.name, pr.version, robotNamed
		}
		if name, ok := s.libraryAt(i); ok {
			return name, pr.version, robotLibrary
		}
	}
	return s.contactRobot()
}

// libraryAt reports product i as the HTTP library that sends the request:
// first in the user agent ("curl/7.47.0", "hackney/1.6.6, Mozilla/5.0
// (...)"), after a bare "Mozilla/5.0 (<system>)" that names no browser
// engine ("Mozilla/5.0 (Linux x64) node.js/16.14.2"), or after the web
// server whose own scripts use it ("Apache/2.4.6 (CentOS) PHP/5.4.16").
func (s *state) libraryAt(i int) (string, bool) {
	p := s.p
	// The position is checked first: it rules out almost every product
	// without a lookup of its name.
	if i > 0 {
		first := p.products[0].lname
		switch {
		case i == 1 && first == "mozilla" && (s.engName.v == "Mozilla" || s.engName.v == ""):
		case i == 1 && first == "apache" && isVersionLike(p.products[0].version):
		default:
			return "", false
		}
	}
	pr := p.products[i]
	lw := pr.lname
	if lw == "mozilla" {
		// The first product of most user agents is the browsers' token,
		// which neither the table lists nor libraryNamed takes
		// (TestLibraryAtMozilla): the test spares most user agents a
		// lookup and libraryNamed's searches.
		return "", false
	}
	if httpLibraries[lw] == "" && !strings.HasPrefix(lw, "jakarta commons-httpclient") && !libraryNamed(lw) {
		return "", false
	}
	if httpLibraries[lw] == "" && strings.HasPrefix(lw, "jakarta commons-httpclient") {
		return "Jakarta Commons-HttpClient", true
	}
	return pr.name, true
}

// libraryNamed reports a product named as HTTP client libraries name
// themselves, whether or not tables/http_libraries.tsv lists it: an HTTP
// word with a client word ("Apache-HttpAsyncClient", "Java-http-client",
// "HTTP_Request2", "WinHttpRequest"), a name ending in an HTTP word
// ("lua-resty-http", "hyper-http"), or the curl library and its bindings
// ("libcurl", "PycURL", "r-curl"). libraryAt takes it as the sender only
// when it comes first or behind a bare platform, as with listed libraries:
// an app that names its HTTP layer after its own product ("BBCiPlayer/4.75
// ... BBCHTTPClient/8.0.2") stays the app.
func libraryNamed(lw string) bool {
	if lw == "" || lw[0] < 'a' || lw[0] > 'z' {
		return false // a cut or broken name ("-HttpClient/3.1") names no library
	}
	if strings.Contains(lw, "http") {
		if strings.Contains(lw, "client") || strings.Contains(lw, "request") || strings.HasPrefix(lw, "lib") {
			return true
		}
		if strings.HasSuffix(lw, "-http") || strings.HasSuffix(lw, "_http") || strings.HasSuffix(lw, ".http") {
			return true
		}
	}
	return lw == "libcurl" || strings.HasSuffix(lw, "-curl") || strings.HasPrefix(lw, "pycurl") || strings.HasPrefix(lw, "libcurl-")
}

// loneCompanyRobot reports a user agent that is nothing but a product named
// after a crawler company ("facebookcatalog/1.0"): no browser or app sends
// a bare company name, the company's fetchers do.
func (s *state) loneCompanyRobot(i int) bool {
	p := s.p
	if i != 0 || len(p.products) != 1 || len(p.entries) != 0 {
		return false
	}
	lw := p.products[0].lname
	for _, c := range robotCompanies {
		if strings.HasPrefix(lw, c.prefix) {
			return true
		}
	}
	return false
}

// robotProductBefore returns the robot-named product whose comment holds
// entry e: in "PingdomPageSpeed/1.0 (pingbot/2.0; +http://...)" the
// product is the robot, its comment names the engine it is built on.
func (s *state) robotProductBefore(e entry) (product, bool) {
	p := s.p
	for i, pr := range p.products {
		if i == 0 || pr.version == "" || !isRobotName(p, pr.lname) {
			continue
		}
		k := strings.Index(p.low, pr.lname+"/"+asciiLower(pr.version))
		if k < 0 {
			continue
		}
		end := k + len(pr.lname) + 1 + len(pr.version)
		for end < len(p.low) && p.low[end] == ' ' {
			end++
		}
		if end < e.start && p.low[end] == '(' && strings.IndexByte(p.low[end:e.start], ')') < 0 {
			return pr, true
		}
	}
	return product{}, false
}

// clientLibrary recognises a user agent that is only a client library's
// name and version, "ServiceStack .NET Client 5.90": the HTTP client of a
// program, named "<Maker> ... Client".
func clientLibrary(p *parsed, i int) (string, string, bool) {
	if i != 0 || len(p.products) != 1 || len(p.entries) != 0 {
		return "", "", false
	}
	// The parser reads the version after the space as the product's.
	pr := p.products[0]
	if !isVersionLike(pr.version) || !strings.HasSuffix(pr.name, " Client") || strings.Contains(p.low, "client/") {
		return "", "", false
	}
	return pr.name, pr.version, true
}

// webpageTest reads the "PTST/<version>" token of WebPageTest, the page
// speed test service, or "PTST/<service>/<version>" of the services built on
// it (SpeedCurve).
func (s *state) webpageTest(i int) (string, string, robotKind) {
	p := s.p
	pr := p.products[i]
	if pr.version == "" || isVersionLike(pr.version) {
		return pr.name, pr.version, robotNamed
	}
	ver := ""
	if i+1 < len(p.products) && isVersionLike(p.products[i+1].name) {
		ver = p.products[i+1].name
	}
	return pr.version + " WebpageTest", ver, robotNamed
}

// contactRobot finds robots that give a contact but no robot word.
func (s *state) contactRobot() (string, string, robotKind) {
	p := s.p
	for i := range p.products {
		pr := &p.products[i]
		if pr.lname == "con_aff" || s.loneCompanyRobot(i) {
			return pr.name, pr.version, robotNamed
		}
		if n, v, ok := clientLibrary(p, i); ok {
			return n, v, robotNamed
		}
		if i == 0 && len(p.products) == 1 && len(p.entries) == 0 && pr.version == "" && isDomainName(pr.lname) &&
			!fileExtensions[pr.lname[strings.LastIndexByte(pr.lname, '.')+1:]] {
			// "SpiDir.com": a user agent that is only a web site's name
			// is that site's robot.
			return pr.name[:strings.LastIndexByte(pr.name, '.')], "", robotNamed
		}
		if name, ok := s.libraryAt(i); ok {
			return name, pr.version, robotLibrary
		}
	}
	// "... Safari/537.36 by Siteimprove": a browser run by a company
	// that signs the string.
	if n := len(p.products); n > 2 && s.mozilla {
		last := p.products[n-1]
		if last.version == "" && strings.HasPrefix(last.lname, "by ") && strings.Count(last.lname, " ") == 1 && len(last.lname) > 4 {
			return last.name, "", robotNamed
		}
	}
	// "... (compatible; MSIE 7.0; Windows NT 5.0) Probe by example.com":
	// a tool that signs the browser string it sends with its maker's
	// site. (Anonymisers sign with a name, "anonymized by Abelssoft".)
	if n := len(p.products); n >= 2 && s.mozilla && p.products[n-1].version == "" {
		last := p.products[n-1]
		if k := strings.LastIndex(last.lname, " by "); k > 0 && isDomainName(last.lname[k+4:]) {
			return last.name, "", robotNamed
		}
	}
	if !s.hasContact() {
		if name, ver, ok := s.bareCompatible(); ok {
			return name, ver, robotNamed
		}
		return "", "", robotNone
	}
	// "Mozilla/5.0 (compatible; Name/1.0; +http://example.com/)": a
	// compatible section that gives a contact URL or address is a robot
	// introducing itself, whatever its name.
	if s.mozilla {
		inCompat := -2
		for _, e := range p.entries {
			lt := p.ltext(e)
			if lt == "compatible" {
				inCompat = e.block
				continue
			}
			if e.block != inCompat || isInfoEntry(lt) || strings.HasPrefix(lt, "msie") || strings.HasPrefix(lt, "windows") ||
				isBrowserCommentToken(lt) || isProse(lt) {
				continue
			}
			name, ver := splitEntryProduct(p.text(e))
			if httpLibraries[asciiLower(name)] != "" {
				// "(compatible; Go-http-client/1.1; +bot@example.com)":
				// a library, whoever runs it.
				return name, ver, robotLibrary
			}
			return name, ver, robotContact
		}
		// "(Macintosh; Example/1.0; +http://example.com/example/)": a
		// product in a comment followed by its web address, as robots
		// introduce themselves, outside a compatible section too.
		for i := 1; i < len(p.entries); i++ {
			e, prev := p.entries[i], p.entries[i-1]
			if lt := p.ltext(e); e.block != prev.block || prev.block == inCompat || !isInfoEntry(lt) || strings.IndexByte(lt, '@') >= 0 {
				continue
			}
			name, ver := splitEntryProduct(p.text(prev))
			if ver == "" || !startsWithLetter(name) || strings.IndexByte(name, ' ') >= 0 {
				continue
			}
			if ln := asciiLower(name); !isBrowserProduct(ln) && ln != "build" {
				return name, ver, robotContact
			}
		}
		// "AppleWebKit/537.36 (KHTML, like Gecko); compatible; Name/1.0;
		// +https://...": the compatible section without its parentheses.
		for i, pr := range p.products {
			if pr.lname == "compatible" && i+1 < len(p.products) && startsWithLetter(p.products[i+1].name) {
				return p.products[i+1].name, p.products[i+1].version, robotContact
			}
		}
		// "(compatible; MSIE or Firefox mutant; not on Windows server;
		// +http://...) Daumoa/2.0": a product after a compatible section
		// that names no client is the robot.
		if inCompat >= 0 {
			for i, pr := range p.products {
				if i > 0 && pr.version != "" && startsWithLetter(pr.name) && !isBrowserProduct(pr.lname) {
					return pr.name, pr.version, robotContact
				}
			}
			// Otherwise the browser it names is run by the owner of the
			// address: "(compatible; MSIE 6.0; Windows NT 5.1; SV1;
			// http://www.example.com/bot.html)".
			s.compatContact = true
		}
		// "... Safari/537.36 SeoSiteCheckup (https://seositecheckup.com)":
		// a browser string with a product of its own and its address
		// appended names the robot that drives the browser.
		if n := len(p.products); n > 1 && len(p.entries) > 0 && strings.HasSuffix(p.ua, ")") {
			last := p.products[n-1]
			if last.version == "" && startsWithLetter(last.name) && strings.IndexByte(last.name, ' ') < 0 &&
				isInfoEntry(p.ltext(p.entries[len(p.entries)-1])) {
				return last.name, "", robotContact
			}
			if name, ver, ok := s.appendedContact(); ok {
				return name, ver, robotContact
			}
		}
		if name, ver, ok := s.signedByProduct(); ok {
			return name, ver, robotContact
		}
		if name, ok := s.robotAddress(); ok && !s.compatContact {
			return name, "", robotContact
		}
		return "", "", robotNone
	}
	if len(p.products) > 1 && siteProduct(p, 0) && p.products[1].lname == "mozilla" {
		// "example.com/scan Mozilla/5.0 (Macintosh; ...)": a browser
		// string sent by the service the site names first.
		return p.products[0].name, p.products[0].version, robotContact
	}
	if len(p.products) > 0 && s.os.class != "Mobile" && s.os.class != "Desktop" {
		// (An app on a phone or a desktop that gives its maker's address
		// is that app, not a robot: "ExampleReader/1.6 (Linux;
		// en_US.UTF-8; http://example.org/)".)
		pr := p.products[0]
		return pr.name, pr.version, robotContact
	}
	return "", "", robotNone
}

// bareCompatible reads "Mozilla/5.0 (compatible; Example/1.0)": a
// compatible section (or a comment without it) naming a product with its
// version and nothing else, no system, no browser, no engine, no contact (with a contact it is read as
// Yauaa does, see contactRobot). Browsers, mail programs and apps that send a
// compatible section name their platform ("(compatible; Konqueror/3.5;
// Linux)"); a program that gives only its own name is a robot, with its
// version or as one product word alone ("(compatible; Example)"). (Other
// entries without a version, "(compatible; Example Filter Build-17)", are
// not clearly a product, and the client stays what the string claims; so it
// does when it names a product known not to be a robot, "docker". A
// product after Mozilla without a comment is not read: old television
// browsers write "Mozilla/3.0 WebTV/1.2".)
func (s *state) bareCompatible() (string, string, bool) {
	p := s.p
	if !s.mozilla || s.os.name != "" || s.namesNotRobot || len(p.entries) > 3 {
		return "", "", false
	}
	var name, ver string
	switch {
	case len(p.products) != 1 || len(p.entries) == 0 || p.entries[len(p.entries)-1].block != p.entries[0].block:
		return "", "", false
	case len(p.entries) == 1:
		// "Mozilla/5.0 (Example/1.0)": a product where the system would
		// be.
		name, ver = splitEntryProduct(p.text(p.entries[0]))
	case p.ltext(p.entries[0]) == "compatible":
		name, ver = splitEntryProduct(p.text(p.entries[1]))
	default:
		return "", "", false
	}
	if !startsWithLetter(name) || strings.IndexByte(name, ' ') >= 0 {
		return "", "", false
	}
	if ver == "" && !(len(p.entries) == 2 && productWord(name) && strings.HasSuffix(p.ua, ")")) ||
		ver != "" && (ver[0] < '0' || ver[0] > '9') {
		// Without a version only a compatible section naming one product
		// word is read ("Mozilla/5.0 (compatible; Example)"), and only
		// when it is closed: a string cut short may have lost the rest of
		// a browser's name ("(compatible; Konquer").
		return "", "", false
	}
	if ln := asciiLower(name); isBrowserProduct(ln) || strings.HasPrefix(ln, "msie") {
		return "", "", false
	}
	return name, ver, true
}

// productWord reports a word written as a product's name: a capital
// letter, then letters (at least one in lower case) and digits
// ("Example", "ExampleScan2"); not a code or an abbreviation ("U", "SV1",
// "WOW64").
func productWord(w string) bool {
	if len(w) < 3 || !isUpper(w[0]) {
		return false
	}
	lower := false
	for i := 1; i < len(w); i++ {
		switch c := w[i]; {
		case isLower(c):
			lower = true
		case isUpper(c), c >= '0' && c <= '9':
		default:
			return false
		}
	}
	return lower
}

// appendedContact reads a browser string that ends in a comment holding
// nothing but a web address: a program that drives the browser signs the
// string with its own site. A product of its own before the comment
// ("Firefox/55.0 ExampleBrand/1.0 (http://example.com/why-we-visit)") is the
// robot; right after the browser's products ("Safari/537.36
// (+https://example.com)") the robot is known only by its site.
func (s *state) appendedContact() (string, string, bool) {
	p := s.p
	last := p.entries[len(p.entries)-1]
	if len(p.entries) > 1 && p.entries[len(p.entries)-2].block == last.block {
		return "", "", false
	}
	lt := strings.TrimPrefix(p.ltext(last), "via ")
	if !strings.HasPrefix(strings.TrimPrefix(lt, "+"), "http") && !strings.HasPrefix(strings.TrimPrefix(lt, "+"), "www.") {
		return "", "", false
	}
	pr := p.products[len(p.products)-1]
	if k := strings.LastIndex(p.ua, pr.name); k < 0 || k > last.start {
		return "", "", false // the comment is not the last product's
	}
	switch {
	case isBrowserProduct(pr.lname):
		if b := s.urlBrand(); b != "" {
			return b, "", true
		}
	case pr.version != "" && startsWithLetter(pr.name) && strings.IndexByte(pr.name, ' ') < 0:
		return pr.name, pr.version, true
	}
	return "", "", false
}

// signedByProduct reads a product of the browser string followed by its
// own web address, anywhere in the string: in a comment holding nothing
// else ("Gecko/20110515 Example_Capture/1.0.4 (+http://capture.example.com/)
// Namoroka/3.6.17", "(Macintosh; ...) Example-Project
// (http://example.com/) (KHTML, like Gecko)") or as the next product
// ("Safari/537.36; Example/1.0; +example.ai"). A program that drives the
// browser signs the string so; browsers and apps name their maker's site,
// if at all, in their platform comment. (The last product with its address
// is appendedContact's.)
func (s *state) signedByProduct() (string, string, bool) {
	p := s.p
	for i, pr := range p.products {
		if siteProduct(p, i) {
			// "(X11; Linux x86_64) Example.io/6.0 AppleWebKit/537.36",
			// "example.com/scan Mozilla/5.0 (...)": a product named by
			// its site is a service's, not a browser's.
			return pr.name, pr.version, true
		}
	}
	for i := 1; i+1 < len(p.products); i++ {
		next := p.products[i+1].lname
		if len(next) > 1 && next[0] == '+' && isDomainName(next[1:]) {
			if name, ver, ok := signingProduct(p.products[i].name, p.products[i].version); ok {
				return name, ver, true
			}
		}
	}
	if block, ok := contactEntry(p); ok {
		// A comment that gives a contact: the product it belongs to is
		// the robot, or, in the platform comment, the owner of the
		// address.
		for _, e := range p.entries {
			if e.block != block {
				continue
			}
			before := cutSpaceParen.trimRight(p.ua[:e.start])
			tok := before[strings.LastIndexByte(before, ' ')+1:]
			name, ver, _ := strings.Cut(tok, "/")
			if n, v, ok := signingProduct(name, ver); ok && tok != "" && before[len(before)-1] != ')' {
				return n, v, true
			}
			if b := s.urlBrand(); b != "" {
				return b, "", true
			}
			break
		}
	}
	for i, e := range p.entries {
		if i > 0 && p.entries[i-1].block == e.block || i+1 < len(p.entries) && p.entries[i+1].block == e.block {
			continue
		}
		lt := strings.TrimPrefix(p.ltext(e), "+")
		if !strings.HasPrefix(lt, "http://") && !strings.HasPrefix(lt, "https://") {
			continue
		}
		before := cutSpaceParen.trimRight(p.ua[:e.start])
		if k := strings.IndexByte(p.ua[e.start:], ')'); k < 0 || before == "" || before[len(before)-1] == ')' {
			continue // a comment after a comment is no product's
		}
		tok := before[strings.LastIndexByte(before, ' ')+1:]
		name, ver, _ := strings.Cut(tok, "/")
		if n, v, ok := signingProduct(name, ver); ok {
			return n, v, true
		}
	}
	return "", "", false
}

// isSiteName reports a product name that is a web site's domain name
// under a common top level domain ("example.io", "www.example.com"):
// robots and services name themselves after their site, browsers and apps
// do not. (Other endings are not read: "Node.js" ends in a script's.)
func isSiteName(ln string) bool {
	return (strings.HasSuffix(ln, ".com") || strings.HasSuffix(ln, ".net") || strings.HasSuffix(ln, ".org") ||
		strings.HasSuffix(ln, ".io")) && isDomainName(ln)
}

// siteProduct reports product i named by its site: inside a user agent
// ("Mozilla/5.0 (X11; Linux x86_64) Example.io/6.0 AppleWebKit/537.36"), or
// first with a path where the version would be, in front of a browser
// string ("example.com/scan Mozilla/5.0 ..."). Apps are named by their
// site too, "Example.com/1.2.3 (Android 13; ...)", "examplepod.com/v1.5",
// so a first product is not read otherwise; nor is the host of a web
// address ("https: //example.com/...", robotAddress's).
func siteProduct(p *parsed, i int) bool {
	pr := p.products[i]
	if !isSiteName(pr.lname) {
		return false
	}
	if i == 0 {
		return pr.version != "" && (pr.version[0] < '0' || pr.version[0] > '9') && len(p.products) > 1 && p.products[1].lname == "mozilla"
	}
	return !strings.HasSuffix(p.products[i-1].lname, ":")
}

// signingProduct reports whether a product can be a robot signing a
// browser string: a name of its own, not a browser's, engine's or
// Mozilla's token.
func signingProduct(name, ver string) (string, string, bool) {
	ln := asciiLower(name)
	if !startsWithLetter(name) || strings.IndexByte(name, ' ') >= 0 || isBrowserProduct(ln) || ln == "mozilla" || strings.HasPrefix(ln, "+") {
		return "", "", false
	}
	return name, ver, true
}

// robotAddress reads a web address whose path says what the client is
// ("(X11; Linux x86_64; http://example.com/robot)", "Safari/537.36
// http://example.com/monitoring"): the robot of the address's owner, named
// after its site. (In a compatible section the browser named is kept as
// the agent, see contactRobot.)
func (s *state) robotAddress() (string, bool) {
	p := s.p
	i := strings.Index(p.low, "://")
	if i < 0 {
		return "", false
	}
	host := hostAt(p.low, i+3)
	at := i + 3 + len(host)
	if at >= len(p.low) || p.low[at] != '/' {
		return "", false
	}
	end := at
	for end < len(p.low) && p.low[end] != ' ' && p.low[end] != ';' && p.low[end] != ')' {
		end++
	}
	if !isRobotName(p, p.low[at+1:end]) {
		return "", false
	}
	label := s.urlHostLabel()
	return capitalize(label), label != ""
}

// isBrowserCommentToken reports the entries browsers put in their comment
// besides the system: security, architecture, framework and plugin tokens.
func isBrowserCommentToken(lt string) bool {
	switch lt {
	case "u", "i", "n", "sv1", "wow64", "win64", "x64", "x86", "touch", "tablet pc 2.0", "mobile":
		return true
	}
	return strings.HasPrefix(lt, ".net") || strings.HasPrefix(lt, "infopath") || strings.HasPrefix(lt, "trident/") ||
		strings.HasPrefix(lt, "media center") || strings.HasPrefix(lt, "rv:")
}

// isProse reports an entry that is a phrase rather than a name ("not on
// Windows server").
func isProse(lt string) bool {
	return strings.Contains(lt, " on ") || strings.Contains(lt, " or ") || strings.HasPrefix(lt, "not ")
}

// browserProducts are the product tokens of browsers and engines.
var browserProducts map[string]bool

func buildBrowserProducts() map[string]bool {
	m := map[string]bool{"applewebkit": true, "safari": true, "version": true, "mobile": true, "gecko": true,
		"khtml": true, "trident": true, "presto": true, "mobile safari": true, "like gecko": true, "mozilla": true}
	for _, bt := range browserTokens {
		m[bt.token] = true
	}
	return m
}

func isBrowserProduct(lname string) bool { return browserProducts[lname] }

// hasContact reports a URL or e-mail address in the user agent, the way
// crawlers tell site owners whom to contact.
func (s *state) hasContact() bool {
	p := s.p
	if p.has(kwHTTP) || p.has(kwHTTPS) || p.has(kwWWW) || hasEmailAddress(p.low) {
		return true
	}
	// The entries are parts of the lower case user agent, so an entry
	// can be a spelled address or end in a domain's suffix only when the
	// whole string holds one of the needles that asks for; most user
	// agents hold none, and then the entries are not looked at.
	if p.hasAny(&spelledNeedles) {
		for _, e := range p.entries {
			if isSpelledAddress(p.ltext(e)) {
				return true
			}
		}
	}
	if _, ok := contactEntry(p); ok {
		return true
	}
	suffixed := p.hasAny(&domainSuffixNeedles)
	if suffixed {
		for _, e := range p.entries {
			if lt := p.ltext(e); (strings.HasSuffix(lt, ".com") || strings.HasSuffix(lt, ".net") ||
				strings.HasSuffix(lt, ".org") || strings.HasSuffix(lt, ".io")) && !strings.ContainsAny(lt, " /") {
				return true // a bare domain name, "(compatible; theoldreader.com)"
			}
		}
		for i := range p.products {
			if siteProduct(p, i) {
				return true // a product named by its site, "Example.io/6.0"
			}
		}
	}
	for i := range p.products {
		pr := &p.products[i]
		if len(pr.lname) > 1 && pr.lname[0] == '+' && isDomainName(pr.lname[1:]) {
			return true // "MetaURI API/2.0 +metauri.com"
		}
		if suffixed && strings.Count(pr.lname, " ") >= 3 {
			// A sentence ending in its site: "... Our website is
			// netsystemsresearch.com". The site's suffix is one of
			// domainSuffixNeedles, so without them there is none.
			w := pr.lname[strings.LastIndexByte(pr.lname, ' ')+1:]
			if isDomainName(w) && (strings.HasSuffix(w, ".com") || strings.HasSuffix(w, ".net") || strings.HasSuffix(w, ".org")) {
				return true
			}
		}
	}
	return false
}

// hasEmailAddress reports an "@" followed by a domain name ("bot@example.com",
// "info\\@netcraft.com"), not the "@2.0x" of a screen scale.
func hasEmailAddress(low string) bool {
	for off := 0; off < len(low); {
		k := strings.IndexByte(low[off:], '@')
		if k < 0 {
			return false
		}
		at := off + k
		if at > 0 && isDomainName(strings.TrimRight(hostAt(low, at+1), ".")) {
			return true
		}
		off = at + 1
	}
	return false
}

// isInfoEntry reports comment entries that carry contact information
// rather than a name.
func isInfoEntry(lt string) bool {
	return strings.HasPrefix(lt, "+http") || strings.HasPrefix(lt, "http") || strings.HasPrefix(lt, "+ http") || strings.Contains(lt, "@") ||
		strings.HasPrefix(lt, "www.") || strings.HasPrefix(lt, "+www")
}

// spelledNeedles are what every spelled address contains one of.
var spelledNeedles needleGroup

// contactNeedles ask whether a user agent may hold a "contact" entry
// (contactEntry).
var contactNeedles needleGroup

// contactEntry reports a comment entry that introduces the sender's
// contact, "(...; CONTACT; scan@example.net)", "(contact; someone; at;
// example.edu;)", "(contact: ops@example.org)": robots address site owners
// so. It returns the entry's block.
func contactEntry(p *parsed) (int, bool) {
	if !p.hasAny(&contactNeedles) {
		return 0, false
	}
	for _, e := range p.entries {
		if lt := p.ltext(e); lt == "contact" || strings.HasPrefix(lt, "contact:") {
			return e.block, true
		}
	}
	return 0, false
}

// domainSuffixNeedles are the suffixes hasContact reads as a bare domain
// name in an entry.
var domainSuffixNeedles needleGroup

// spelledAddress is isSpelledAddress for an entry lt of p, asked only when
// the user agent contains what such an address needs.
func (p *parsed) spelledAddress(lt string) bool {
	return p.hasAny(&spelledNeedles) && isSpelledAddress(lt)
}

// isSpelledAddress reports an address spelled out against harvesters:
// "support at example dot com", "buibui[dot]bot[at]example[dot]com".
func isSpelledAddress(lt string) bool {
	return strings.Contains(lt, "[dot]") || strings.Contains(lt, "[at]") || strings.Contains(lt, " at ") && strings.Contains(lt, " dot ")
}

// splitEntryProduct splits "Name/1.0" (or "Name/1.0 +http://...") inside a
// comment entry.
func splitEntryProduct(t string) (string, string) {
	name, ver := t, ""
	if k := strings.Index(t, " +"); k > 0 && k < strings.IndexByte(t, '/') {
		// "Google-Shopping-Quality +http://...": the slash is the URL's.
		return strings.TrimSpace(t[:k]), ""
	}
	if k := strings.IndexByte(t, '/'); k > 0 {
		name, ver = t[:k], t[k+1:]
		if sp := strings.IndexAny(ver, " +;"); sp > 0 {
			ver = ver[:sp]
		}
	} else if k := strings.Index(t, " +"); k > 0 {
		name = t[:k]
	}
	return strings.TrimSpace(name), ver
}

func isRobotName(p *parsed, lt string) bool {
	// Every name isGoogleRobot knows holds "google": a part of the user
	// agent without the needle's bit is spared its dozen searches.
	if (p == nil || !p.inLow(lt) || p.has(kwGoogle)) && isGoogleRobot(lt) {
		return true
	}
	if !containsRobotWord(p, lt) && !camelRobotWord(p, lt) {
		return false
	}
	if containsAny(lt, notRobotWords) {
		return false
	}
	// Device models and OS entries never name robots.
	return !strings.HasPrefix(lt, "windows") && !strings.HasPrefix(lt, "android") && !strings.Contains(lt, "build/")
}

// robotBrand finds the company behind a robot: a few crawler names tell it,
// otherwise the URL or e-mail address it publishes; else Unknown.
func (s *state) robotBrand(lname string) string {
	if b := brandOfRobotName(lname); b != "" {
		return b
	}
	if b := s.urlBrand(); b != "" {
		return b
	}
	return Unknown
}

// brandOfRobotName names the company of the big crawler families, whose
// many robots carry the company's name ("YandexMetrika", "AdsBot-Google").
func brandOfRobotName(lname string) string {
	switch {
	case strings.Contains(lname, "google") || strings.HasPrefix(lname, "googlebot"):
		return "Google"
	case strings.Contains(lname, "bing") || strings.Contains(lname, "msnbot") || strings.Contains(lname, "adidxbot"):
		return "Microsoft"
	case strings.Contains(lname, "yandex") || strings.Contains(lname, "yadirect"):
		return "Yandex"
	case strings.HasPrefix(lname, "meta-"):
		return "Meta"
	}
	for _, c := range robotCompanies {
		if strings.HasPrefix(lname, c.prefix) {
			return c.brand
		}
	}
	return ""
}

func nameBrand(lname string) bool { return brandOfRobotName(lname) != "" }

// urlBrand names the owner of the first URL or e-mail address in the user
// agent: the domain name without its top level ("www.semrush.com" is
// Semrush), the account of a code hosting site ("github.com/renovatebot"
// is Renovatebot), nothing for link shorteners and web mail.
func (s *state) urlBrand() string {
	p := s.p
	host, at := "", -1
	if i := strings.Index(p.low, "://"); i >= 0 {
		at = i + 3
	} else if i := strings.Index(p.low, "www."); i >= 0 {
		at = i
	} else if i := strings.IndexByte(p.low, '@'); i >= 0 {
		at = i + 1
	} else if b := s.spelledBrand(); b != "" {
		return b
	} else {
		// A bare domain in a comment or product: "(velen.io)",
		// "MetaURI API/2.0 +metauri.com".
		for _, e := range p.entries {
			if lt := strings.TrimPrefix(p.ltext(e), "+"); isDomainName(lt) {
				host = lt
				break
			}
		}
		if host == "" {
			for _, pr := range p.products {
				for w := range strings.FieldsSeq(pr.lname) {
					if w = strings.TrimPrefix(w, "+"); isDomainName(w) {
						host = w
						break
					}
				}
				if host != "" {
					break
				}
			}
		}
	}
	if at >= 0 {
		host = hostAt(p.low, at)
	}
	if host == "" {
		return ""
	}
	if host == "github.com" || host == "gitlab.com" || host == "www.github.com" {
		// The account owns the project, not the hosting site.
		end := at + len(host)
		if at >= 0 && end < len(p.low) && p.low[end] == '/' {
			if owner := hostAt(p.low, end+1); owner != "" && !strings.Contains(owner, ".") {
				return normalizeName(owner)
			}
		}
		return ""
	}
	labels := strings.Split(host, ".")
	if len(labels) < 2 {
		return ""
	}
	label := labels[len(labels)-2]
	if len(labels) >= 3 && (label == "co" || label == "com" || label == "org" || label == "net" || label == "ac") {
		label = labels[len(labels)-3]
	}
	if label == "www" || label == "" || nonOwnerDomains[label] {
		return ""
	}
	if b, ok := domainBrands[label]; ok {
		return b
	}
	return normalizeName(label)
}

// spelledBrand names the owner of an address spelled out against
// harvesters: the domain label before the last "dot" ("news-search-crawler
// at yahoo-inc dot com" is Yahoo-Inc, "buibui[dot]bot[at]moquadv[dot]com"
// is Moquadv), with a spelled "dash" read as "-".
func (s *state) spelledBrand() string {
	p := s.p
	if !p.hasAny(&spelledNeedles) {
		return ""
	}
	for _, e := range p.entries {
		lt := p.ltext(e)
		if !isSpelledAddress(lt) {
			continue
		}
		t := strings.ReplaceAll(lt, " dash ", "-")
		t = strings.ReplaceAll(t, "[dot]", " dot ")
		k := strings.LastIndex(t, " dot ")
		if k <= 0 {
			continue
		}
		head := strings.TrimSpace(t[:k])
		label := head[strings.LastIndexAny(head, " ]")+1:]
		if label == "" || nonOwnerDomains[label] {
			continue
		}
		return normalizeName(label)
	}
	return ""
}

// nonOwnerDomains are link shorteners and mail providers: they do not tell
// who runs the robot.
var nonOwnerDomains map[string]bool

func buildNonOwnerDomains() map[string]bool {
	return map[string]bool{
		"bit": true, "tinyurl": true, "goo": true, "t": true, "ow": true,
		"github": true, "gitlab": true,
		"gmail": true, "hotmail": true, "outlook": true, "googlemail": true, "mail": true, "protonmail": true,
	}
}

func hostAt(s string, i int) string {
	j := i
	for j < len(s) {
		c := s[j]
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '-' {
			j++
			continue
		}
		break
	}
	return strings.Trim(s[i:j], ".")
}

// containsRobotWord finds a robot word that ends a word: "googlebot",
// "msnbot-media", "YisouSpider", but not the random "iBot7KTt" that
// anonymisers append.
func containsRobotWord(p *parsed, lt string) bool {
	// Where lt is a part of the lower case user agent, a word the needle
	// scan did not find anywhere in it cannot be in lt either, and is
	// not searched for.
	if p != nil && p.inLow(lt) {
		var rows [16]uint16
		for _, row := range p.rowsFound(robotWordList, rows[:]) {
			if robotWordAt(lt, robotWords[row]) {
				return true
			}
		}
		return false
	}
	for _, w := range robotWords {
		if robotWordAt(lt, w) {
			return true
		}
	}
	return false
}

// camelRobotWord reports a generic robot word written as one capitalised
// part of a name in camel case, followed by the next part
// ("KarnoProspectingStudio", "AdsTxtCrawlerTP", "BotPoke"): the lower case
// search of containsRobotWord takes the next letter for the word going on.
// It reads the letter case of the user agent, so lt must be a part of its
// lower case copy.
func camelRobotWord(p *parsed, lt string) bool {
	// Most user agents that get here hold no robot word at all (they
	// name Google), and then nothing is looked up.
	if p == nil || !p.hasAny(&robotNeedles) || !p.inLow(lt) {
		return false
	}
	off := int(uintptr(unsafe.Pointer(unsafe.StringData(lt))) - uintptr(unsafe.Pointer(unsafe.StringData(p.low))))
	orig := p.ua[off : off+len(lt)]
	var rows [16]uint16
	for _, row := range p.rowsFound(robotWordList, rows[:]) {
		w := robotWords[row]
		if !camelRobotWords[w] || !isLetter(w[0]) || !isLetter(w[len(w)-1]) {
			continue
		}
		for k := 0; ; {
			i := strings.Index(lt[k:], w)
			if i < 0 {
				break
			}
			i += k
			end := i + len(w)
			k = i + 1
			if end >= len(lt) || !isUpper(orig[i]) || !isLower(orig[end-1]) || !isUpper(orig[end]) {
				continue
			}
			if i == 0 || !isUpper(orig[i-1]) {
				// The word starts a part: the name's start, or after a
				// lower case letter, a digit or a separator.
				return true
			}
		}
	}
	return false
}

func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }

func isLower(c byte) bool { return c >= 'a' && c <= 'z' }

// robotWordList asks the scan which robot words occur at all.
var robotWordList *needleList

// robotWordAt reports whether the robot word w ends a word of lt
// (containsRobotWord).
func robotWordAt(lt, w string) bool {
	off := 0
	for {
		k := strings.Index(lt[off:], w)
		if k < 0 {
			break
		}
		end := off + k + len(w)
		if end < len(lt) && lt[end] == 's' {
			end++ // "DashLinkPreviews"
		}
		if w == "pingdom" || w == "downloader" {
			// Company and tool names that start the product name
			// ("PingdomTMS", "DownloaderChrome").
			return true
		}
		if w == "preview" && end < len(lt) && lt[end] == '-' {
			// "page-preview-tool": a tool people use to preview
			// pages, named before the browser it runs in.
			off = off + k + 1
			continue
		}
		if !isLetter(w[len(w)-1]) || end >= len(lt) || !isLetter(lt[end]) && (lt[end] < '0' || lt[end] > '9') {
			return true
		}
		off = off + k + 1
	}
	return false
}

// isGoogleRobot recognises Google's many crawlers and fetchers, which
// mostly name themselves "Something-Google" or "GoogleSomething".
func isGoogleRobot(lt string) bool {
	switch {
	case strings.Contains(lt, "-google") && !strings.Contains(lt, "com.google"):
		return true
	case strings.HasPrefix(lt, "google-") || strings.HasPrefix(lt, "googlebot") || strings.HasPrefix(lt, "googleother"):
		return true
	case strings.HasPrefix(lt, "googleassociation") || strings.HasPrefix(lt, "googledocs") || strings.HasPrefix(lt, "google favicon"):
		return true
	case strings.HasPrefix(lt, "google web preview") || strings.HasPrefix(lt, "google page speed") || lt == "google-speakr":
		return true
	}
	return false
}

var fediverseNeedles needleGroup

func buildFediverseNeedles() needleGroup {
	var out []string
	for k := range fediverseServers {
		out = append(out, k)
	}
	// Sorted, so that the needles are numbered the same in every run.
	slices.Sort(out)
	return uaNeedles.group(out)
}

// fediverseServer recognises "Pleroma 2.4.4; https://host" and
// "http.rb/5.0.4 (Mastodon/3.5.2; +https://host/)".
func (s *state) fediverseServer() bool {
	p := s.p
	// Every name looked up below is a part of the lower case user agent,
	// so without a server name in it there is nothing to find.
	if !p.hasAny(&fediverseNeedles) {
		return false
	}
	name, ver := "", ""
	for i, pr := range p.products {
		if n, ok := fediverseServers[pr.lname]; ok {
			name, ver = n, pr.version
			break
		}
		// "Friendica 'Siberian Iris' 2021.12-rc-1445; https://host": a
		// release name between the server and its version.
		if w, _, ok := strings.Cut(pr.lname, " "); ok && i == 0 && fediverseServers[w] != "" && isVersionLike(pr.version) {
			name, ver = fediverseServers[w], pr.version
			break
		}
	}
	if name == "" {
		for _, e := range p.entries {
			n, v := splitEntryProduct(p.ltext(e))
			if fs, ok := fediverseServers[n]; ok && v != "" {
				name, ver = fs, v
				break
			}
		}
	}
	if name == "" {
		return false
	}
	if k := strings.IndexAny(ver, "+-"); k > 0 {
		ver = ver[:k]
	}
	s.setDevice(confRobot, "Cloud", Unknown, Unknown)
	if s.os.name != "" {
		// The server's app on a phone ("Mastodon/2023.9 (...; iOS
		// 16.1.0)") keeps the phone's system.
	} else if s.hasContact() {
		s.os = osInfo{name: "Cloud", version: Unknown, class: "Cloud"}
	} else {
		s.os = osInfo{}
	}
	s.setEngine(confRobot, "", "", "")
	s.setAgent(confRobot, "Server", name, cleanVersion(ver))
	s.devCPU.set("", confRobot)
	return true
}

// forgedBrowser recognises browser user agents written by a program rather
// than sent by the browser: a template placeholder left empty ("Windows NT
// 5.1; {}") or a platform followed by a colon where every browser writes
// a semicolon ("Macintosh: Intel Mac OS X 10_15_5"). The first keeps the
// browser and system it copied; the second is too broken to trust the
// system it names.
func (s *state) forgedBrowser() bool {
	p := s.p
	if !p.has(kwEmptyBraces) && !p.has(kwMacintoshColon) {
		return false
	}
	for i, e := range p.entries {
		lt := p.ltext(e)
		if lt == "{}" {
			s.devClass.set("Robot", confRobot)
			return true
		}
		if i == 0 && strings.HasPrefix(lt, "macintosh:") {
			s.devClass.set("Robot", confRobot)
			s.devBrand.set(Unknown, confRobot)
			s.devName.set(Unknown, confRobot)
			s.devCPU.set("", confRobot)
			s.os = osInfo{}
			return true
		}
	}
	return false
}

// signedBrowser recognises a browser whose user signs its requests with an
// e-mail address, as security researchers do ("... Safari/537.36
// +someone@example.com"): a device without a brand of its own is shown as
// that owner's ("Example Linux Desktop").
func (s *state) signedBrowser() bool {
	p := s.p
	if s.devBrand.v != Unknown && s.devBrand.v != "" || s.devName.v == "" || s.devName.v == Unknown || !hasEmailAddress(p.low) {
		return false
	}
	i := strings.IndexByte(p.low, '@')
	host := strings.TrimRight(hostAt(p.low, i+1), ".")
	labels := strings.Split(host, ".")
	if len(labels) < 2 || nonOwnerDomains[labels[len(labels)-2]] {
		return false
	}
	brand := normalizeName(labels[len(labels)-2])
	s.devBrand.set(brand, confRobot)
	s.devName.set(brand+" "+s.devName.v, confRobot)
	return true
}

// platformPairs reads the system of server tooling that describes its
// platform as key/value products, the way Go programs such as Docker do
// ("docker/19.03.5 go/go1.12.12 kernel/3.10.0-1062.el7.x86_64 os/linux
// arch/amd64"): a Linux server in the cloud with that kernel.
func (s *state) platformPairs() bool {
	p := s.p
	if !p.has(kwKernelSlash) || s.os.name != "" {
		return false
	}
	kernel, system := "", ""
	for _, pr := range p.products {
		switch pr.lname {
		case "kernel":
			kernel = pr.version
		case "os":
			system = asciiLower(pr.version)
		}
	}
	if kernel == "" || system != "linux" {
		return false
	}
	s.os = osInfo{name: "Linux", version: kernel, class: "Cloud"}
	return true
}

// contactOnlyDevice describes a client that names no device and no system
// but leaves a contact ("Mozilla/4.0 (http://example.nl)"): only a program
// run by the owner of that contact sends such a string, so the device is
// that company's robot in the cloud, while the agent stays the client it
// claims to be.
func (s *state) contactOnlyDevice() {
	if !s.compatContact && (s.devClass.v != "" && s.devClass.v != Unknown || s.os.name != "" || !s.hasContact()) {
		return
	}
	brand := s.urlBrand()
	if brand == "" {
		return
	}
	s.setDevice(confRobot, "Robot", brand, brand+" Robot")
	s.os = osInfo{name: "Cloud", version: Unknown, class: "Cloud"}
}
