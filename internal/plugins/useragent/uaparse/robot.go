package uaparse

import "strings"

var robotMatcher = newSigMatcher(map[uint8][]string{0: robotWords})

// robotWords mark a product or comment entry as an automated client.
var robotWords = []string{
	"bot", "crawler", "spider", "slurp", "scraper", "fetcher", "archiver", "checker", "indexer",
	"externalhit", "externalagent", "preview", "validator", "monitor", "crawl", "catchpoint", "linkcheck", "-probe", "synthetic", "gitlab-runner", "uptime",
	"subscribers", "feed-id", "nutch", "sleuth", "lwp::", "libfetch", "indy library", "scout", "urllog", "robosourcer",
	"protocol discovery",
	"phantomjs", "casperjs", "prerender", "datadogsynthetics", "pingdom", "headlessshell",
}

// notRobotWords are product names containing a robot word by accident.
var notRobotWords = []string{"cubot", "robotic", "abbott", "bottle", "webpreview", "robotframework"}

// httpLibraries are programming language HTTP clients: not browsers, and
// classed as robots as Yauaa does.
var httpLibraries = map[string]string{
	"curl": "Curl", "wget": "Wget", "python-requests": "Python Requests", "python-urllib": "Python Urllib",
	"java": "Oracle Java", "okhttp": "Square Okhttp", "go-http-client": "GO Http Client",
	"apache-httpclient": "Apache HttpClient", "commons-httpclient": "Apache Jakarta Commons-HttpClient",
	"php": "PHP", "restsharp": "RestSharp", "apache-cxf": "Apache CXF", "postmanruntime": "Postman Runtime",
	"httpie": "Httpie", "lwp-request": "LWP-Request", "libwww-perl": "Libwww-Perl", "spray-can": "Spray-CAN",
	"dart": "Dart", "axios": "Axios", "node-fetch": "Node-Fetch", "ruby": "Ruby", "faraday": "Faraday",
	"guzzlehttp": "Guzzle", "scrapy": "Scrapy", "python-httpx": "Python Httpx", "aiohttp": "Aiohttp",
	"reqwest": "Reqwest", "winhttp": "WinHTTP", "masscan": "Masscan", "zgrab": "Zgrab",
}

// robotAgentNames fixes the spelling of names whose token is not the name
// users know.
var robotAgentNames = map[string]string{
	"go-http-client": "Go http client", "postmanruntime": "Postman Runtime", "bingbot": "Bingbot",
	"mediapartners-google": "Google AdSense crawler", "adsbot-google": "Google AdsBot",
	"adsbot-google-mobile": "Google AdsBot", "apis-google": "Google APIs", "feedfetcher-google": "Google Feedfetcher",
	"google-read-aloud": "Google Read Aloud", "storebot-google": "Google Storebot", "google-safety": "Google Safety",
	"duplexweb-google": "Google Duplex on the Web", "googleother": "Google Generic Crawler",
	"facebookexternalhit": "Facebook ExternalHit", "facebookscraper": "Facebook Scraper",
	"facebookcatalog": "Facebook Catalog", "meta-externalagent": "Meta-ExternalAgent", "meta-webindexer": "Meta-WebIndexer",
	"ptst": "WebpageTest", "datadogsynthetics": "Datadog Synthetics", "pingdomtms": "Pingdom TMS",
	"bitlybot": "Bitly bot", "catchpoint": "Catchpoint Analyzer", "commons-httpclient": "Jakarta Commons-HttpClient",
	"xb2.net": "Xb2 Xbase++ Client",
}

// detectRobot recognises crawlers, monitors and HTTP libraries and rewrites
// the device, system and agent as Yauaa reports robots.
func (s *state) detectRobot() {
	p := s.p
	if s.fediverseServer() {
		return
	}
	name, ver, ok := s.findRobot()
	if !ok {
		return
	}
	lname := asciiLower(name)
	mobileDevice := s.os.name == "Android" || s.os.name == "iOS" || s.os.name == "Windows Phone" || s.os.name == "BlackBerry"
	s.devClass = "Robot"
	if mobileDevice {
		s.devClass = "Robot Mobile"
	}
	brand := s.robotBrand(lname)
	s.devBrand = brand
	switch {
	case httpLibraries[lname] != "":
		s.devName = httpLibraries[lname]
		if brand == Unknown {
			if k := strings.IndexByte(s.devName, ' '); k > 0 {
				s.devBrand = s.devName[:k]
			} else {
				s.devBrand = s.devName
			}
		}
	case brand == Unknown:
		s.devName = normalizeName(name)
	default:
		rest := name
		if hasPrefixFold(rest, brand) {
			rest = strings.TrimLeft(rest[len(brand):], " -_.")
		}
		if rest == "" {
			s.devName = brand
		} else {
			s.devName = brand + " " + normalizeName(rest)
		}
	}
	s.os = osInfo{name: "Cloud", version: Unknown, class: "Cloud"}
	switch s.devBrand {
	case "Google":
		s.os.name = "Google Cloud"
	case "Microsoft":
		s.os.name, s.os.version = "Microsoft Cloud", "Microsoft Azure"
	case "Yahoo":
		s.os.name = "Yahoo"
	}
	s.devCPU = ""
	agent := name
	if n, ok := robotAgentNames[lname]; ok {
		agent = name
		name = n
		agent = n
	} else if lname == name {
		agent = normalizeRobotAgent(name)
	}
	s.engClass, s.engName, s.engVersion = "Robot", name, cleanVersion(ver)
	s.agClass, s.agName, s.agVersion = "Robot", agent, cleanVersion(ver)
	if strings.HasPrefix(lname, "googlebot") && !p.has("google.com/bot.html") && !p.has("googlebot.com") {
		// Googlebot only ever points to its own documentation; anything
		// else using the name is pretending.
		s.devClass, s.devBrand, s.devName = "Robot Imitator", Unknown, "Googlebot Imitator"
		s.os = osInfo{name: "Cloud", version: Unknown, class: "Cloud"}
		s.engName, s.engVersion = "Googlebot Imitator", Unknown
		s.agName, s.agVersion = "Googlebot Imitator", Unknown
	}
	if mobileDevice && p.has("googlebot") {
		s.agClass = "Robot Mobile"
	}
}

// normalizeRobotAgent capitalises an all lower case robot name the way the
// agent name is shown ("msnbot-media" -> "Msnbot-Media").
func normalizeRobotAgent(n string) string {
	parts := strings.Split(n, "-")
	for i, w := range parts {
		sub := strings.Split(w, "_")
		for j, x := range sub {
			switch {
			case x == "bot":
				sub[j] = "BOT"
			case len(x) <= 3 && i > 0:
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

// findRobot returns the name and version of the robot in the user agent.
func (s *state) findRobot() (string, string, bool) {
	p := s.p
	// One pass over the whole string tells whether any robot word or
	// Google crawler name occurs at all; most user agents have none, and
	// then no entry or product needs checking.
	if robotMatcher.scan(p.low) == 0 && !p.has("google") {
		return s.contactRobot()
	}
	// A robot name in a comment: "(compatible; Googlebot/2.1; +http://...)".
	for _, e := range p.entries {
		lt := p.ltext(e)
		if isInfoEntry(lt) {
			continue
		}
		if isRobotName(lt) {
			name, ver := splitEntryProduct(p.text(e))
			return name, ver, true
		}
	}
	for i, pr := range p.products {
		lw := pr.lname
		if isRobotName(lw) || lw == "ptst" || lw == "con_aff" {
			return pr.name, pr.version, true
		}
		if i == 0 && httpLibraries[lw] != "" {
			return pr.name, pr.version, true
		}
		if i == 0 && strings.HasPrefix(lw, "jakarta commons-httpclient") {
			return "Jakarta Commons-HttpClient", pr.version, true
		}
	}
	return s.contactRobot()
}

// contactRobot finds robots that give a contact but no robot word.
func (s *state) contactRobot() (string, string, bool) {
	p := s.p
	for i, pr := range p.products {
		if pr.lname == "ptst" || pr.lname == "con_aff" {
			return pr.name, pr.version, true
		}
		if i == 0 && (httpLibraries[pr.lname] != "" || strings.HasPrefix(pr.lname, "jakarta commons-httpclient")) {
			if httpLibraries[pr.lname] == "" {
				return "Jakarta Commons-HttpClient", pr.version, true
			}
			return pr.name, pr.version, true
		}
	}
	if !s.hasContact() {
		return "", "", false
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
			if e.block != inCompat || isInfoEntry(lt) || strings.HasPrefix(lt, "msie") || strings.HasPrefix(lt, "windows") {
				continue
			}
			name, ver := splitEntryProduct(p.text(e))
			return name, ver, true
		}
		return "", "", false
	}
	if len(p.products) > 0 {
		pr := p.products[0]
		return pr.name, pr.version, true
	}
	return "", "", false
}

// hasContact reports a URL or e-mail address in the user agent, the way
// crawlers tell site owners whom to contact.
func (s *state) hasContact() bool {
	p := s.p
	if p.has("http://") || p.has("https://") || p.has("www.") || s.email != "" || strings.Contains(p.ua, "@") {
		return true
	}
	for _, e := range p.entries {
		if lt := p.ltext(e); !strings.ContainsAny(lt, " /") && (strings.HasSuffix(lt, ".com") || strings.HasSuffix(lt, ".net") ||
			strings.HasSuffix(lt, ".org") || strings.HasSuffix(lt, ".io")) {
			return true // a bare domain name, "(compatible; theoldreader.com)"
		}
	}
	return false
}

// isInfoEntry reports comment entries that carry contact information
// rather than a name.
func isInfoEntry(lt string) bool {
	return strings.HasPrefix(lt, "+http") || strings.HasPrefix(lt, "http") || strings.Contains(lt, "@") ||
		strings.HasPrefix(lt, "www.") || strings.HasPrefix(lt, "+www")
}

// splitEntryProduct splits "Name/1.0" (or "Name/1.0 +http://...") inside a
// comment entry.
func splitEntryProduct(t string) (string, string) {
	name, ver := t, ""
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

func isRobotName(lt string) bool {
	if isGoogleRobot(lt) {
		return true
	}
	if !containsRobotWord(lt) {
		return false
	}
	if containsAny(lt, notRobotWords) {
		return false
	}
	// Device models and OS entries never name robots.
	return !strings.HasPrefix(lt, "windows") && !strings.HasPrefix(lt, "android") && !strings.Contains(lt, "build/")
}

// robotBrand finds the company behind a robot from the URL or e-mail
// address it publishes, else Unknown.
func (s *state) robotBrand(lname string) string {
	p := s.p
	switch {
	case strings.Contains(lname, "google") || strings.HasPrefix(lname, "googlebot"):
		return "Google"
	case strings.Contains(lname, "bing") || strings.Contains(lname, "msnbot") || strings.Contains(lname, "adidxbot"):
		return "Microsoft"
	case strings.Contains(lname, "yandex") || strings.Contains(lname, "yadirect"):
		return "Yandex"
	}
	host := ""
	if i := strings.Index(p.low, "://"); i >= 0 {
		host = hostAt(p.low, i+3)
	} else if i := strings.Index(p.low, "www."); i >= 0 {
		host = hostAt(p.low, i)
	} else if i := strings.IndexByte(p.low, '@'); i >= 0 {
		host = hostAt(p.low, i+1)
	}
	if host == "" {
		return Unknown
	}
	labels := strings.Split(host, ".")
	if len(labels) < 2 {
		return Unknown
	}
	label := labels[len(labels)-2]
	if len(labels) >= 3 && (label == "co" || label == "com" || label == "org" || label == "net" || label == "ac") {
		label = labels[len(labels)-3]
	}
	if label == "www" || label == "" {
		return Unknown
	}
	if b, ok := domainBrands[label]; ok {
		return b
	}
	return normalizeName(label)
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
func containsRobotWord(lt string) bool {
	for _, w := range robotWords {
		off := 0
		for {
			k := strings.Index(lt[off:], w)
			if k < 0 {
				break
			}
			end := off + k + len(w)
			if !isLetter(w[len(w)-1]) || end >= len(lt) || !isLetter(lt[end]) && (lt[end] < '0' || lt[end] > '9') {
				return true
			}
			off = off + k + 1
		}
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

// fediverseServers are server applications of federated social networks;
// they fetch profiles and posts from each other and name themselves.
var fediverseServers = map[string]string{
	"pleroma": "Pleroma", "akkoma": "Akkoma", "mastodon": "Mastodon", "misskey": "Misskey", "friendica": "Friendica",
	"calckey": "Calckey", "lemmy": "Lemmy", "peertube": "PeerTube", "pixelfed": "Pixelfed", "gotosocial": "GoToSocial",
	"hubzilla": "Hubzilla", "diaspora": "Diaspora", "writefreely": "WriteFreely", "synapse": "Synapse",
	"construct": "Construct", "funkwhale": "Funkwhale", "firefish": "Firefish", "sharkey": "Sharkey", "bookwyrm": "BookWyrm",
}

// fediverseServer recognises "Pleroma 2.4.4; https://host" and
// "http.rb/5.0.4 (Mastodon/3.5.2; +https://host/)".
func (s *state) fediverseServer() bool {
	p := s.p
	name, ver := "", ""
	for _, pr := range p.products {
		if n, ok := fediverseServers[pr.lname]; ok {
			name, ver = n, pr.version
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
	s.devClass, s.devBrand, s.devName = "Cloud", Unknown, Unknown
	if s.hasContact() {
		s.os = osInfo{name: "Cloud", version: Unknown, class: "Cloud"}
	} else {
		s.os = osInfo{}
	}
	s.engClass, s.engName, s.engVersion = "", "", ""
	s.agClass, s.agName, s.agVersion = "Server", name, cleanVersion(ver)
	s.devCPU = ""
	return true
}
