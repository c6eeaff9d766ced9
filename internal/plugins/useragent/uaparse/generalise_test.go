package uaparse

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// A measure of generalisation that needs no held-out data: variants of DEV
// cases that no rule was written for. Each variant changes what a general
// analyzer must not depend on (the made-up name of a robot or app, its
// version, the identifiers and numbers of an attack payload, a UUID, an
// anonymiser's number, the digits of a model code) and derives the expected
// answer from the original's. A rule that names one product, one payload or
// one model gets the original right and the variant wrong; a rule that reads
// structure gets both right.
//
// The variants are deterministic: every random choice comes from a generator
// seeded with the sha256 of the user agent and the variant's number. Only
// the attributes whose expected value the variant keeps clear are scored
// (see each family); a case whose variant would be unclear is left out, and
// TestGeneralisation logs how many were left out and why.
//
// UAPARSE_VARIANT_FAILURES=<family> (or "all") prints the failing variants of a
// family; UAPARSE_VARIANT_FAILURES=lost prints only those whose original the
// analyzer gets right (what generalisation loses).

// variantsPerCase is how many variants each eligible DEV case gets.
const variantsPerCase = 2

type variant struct {
	family string
	ua     string
	orig   string
	want   map[string]string // only the attributes scored for this family
	// origWant is the DEV case's expected value of each scored attribute,
	// to score the original user agent on the same attributes.
	origWant map[string]string
}

// genFamilies are the families of the generalisation measure, in report
// order.
var genFamilies = []string{"robot", "library", "special", "app", "email", "version", "hacker", "uuid", "anonymized", "device"}

// generalisationFloor is the lowest variant accuracy (per cent of scored
// attribute values) each family may fall to; set just below the figures
// reached, like the DEV floors.
var generalisationFloor = map[string]float64{
	"robot": 95.2, "library": 0, "special": 92.5, "app": 96.5, "email": 0, "version": 98.9,
	"hacker": 99.5, "uuid": 97, "anonymized": 97, "device": 98.0,
}

// variantRand is the deterministic random source of one variant.
func variantRand(ua string, n int) *rand.Rand {
	sum := sha256.Sum256([]byte(fmt.Sprintf("%d\x00%s", n, ua)))
	return rand.New(rand.NewPCG(binary.LittleEndian.Uint64(sum[:8]), binary.LittleEndian.Uint64(sum[8:16])))
}

// ---------------------------------------------------------------------------
// Made-up names.

const (
	genVowels     = "aeiou"
	genConsonants = "bdfgklmnprstvz"
)

// genForbidden are fragments a made-up word must not contain: words that
// rules rightly read (robot words, library and mail words, attack words) and
// fragments of the names of big robot families, so that a made-up name
// never means something by accident.
var genForbidden = []string{
	"bot", "spider", "crawl", "mail", "http", "app", "lib", "java", "web", "net", "fetch", "scan",
	"bing", "goog", "yand", "hack", "test", "null", "anon", "tv", "box", "phone", "pad", "tab",
	"mob", "link", "feed", "news", "sql", "pass", "etc", "win", "mac", "lin", "bsd", "sun", "sam",
	"son", "nok", "mot", "zte", "vivo", "opp", "len", "asu", "acer", "dell", "kin", "fire", "safa",
	"oper", "edg", "gek", "kht", "moz", "pre", "tri", "ios", "and", "droid", "ipo", "mail", "sel",
	"uni", "sleep", "del", "env", "dat", "rob", "agent", "clien", "serv", "cloud", "proxy", "ver",
	"sdk", "api", "lua", "php", "perl", "ruby", "node", "rust", "go-", "dart", "kotl", "swif",
}

// madeUpWord returns a word of the same length and the same pattern of
// vowels and consonants as orig (lower case), that avoids genForbidden, the
// names and keys of our tables and orig itself.
func madeUpWord(rng *rand.Rand, orig string, avoid map[string]bool) string {
	for try := 0; try < 50; try++ {
		var b strings.Builder
		for i := 0; i < len(orig); i++ {
			c := orig[i] | 0x20
			switch {
			case strings.IndexByte(genVowels, c) >= 0:
				b.WriteByte(genVowels[rng.IntN(len(genVowels))])
			case c >= 'a' && c <= 'z':
				b.WriteByte(genConsonants[rng.IntN(len(genConsonants))])
			default:
				b.WriteByte(orig[i])
			}
		}
		w := b.String()
		if w == strings.ToLower(orig) || avoid[w] || genBadWord(w) {
			continue
		}
		return w
	}
	return ""
}

func genBadWord(w string) bool {
	for _, f := range genForbidden {
		if strings.Contains(w, f) {
			return true
		}
	}
	for _, bp := range brandPrefixes {
		if len(bp.prefix) >= 3 && strings.HasPrefix(w, bp.prefix) {
			return true
		}
	}
	return false
}

// applyCase writes the lower case word w in the letter case of pattern
// (same length): an upper case letter of the pattern gives an upper case
// letter.
func applyCase(pattern, w string) string {
	b := []byte(w)
	for i := range b {
		if i < len(pattern) && pattern[i] >= 'A' && pattern[i] <= 'Z' && b[i] >= 'a' && b[i] <= 'z' {
			b[i] -= 'a' - 'A'
		}
	}
	return string(b)
}

// genAffixes are the words a renamed name keeps even where they are glued
// to the made-up part ("ExampleBot", "libexample", "ExampleMail",
// "ExampleHttpClient"): they say what the client is. They are the generic
// robot words of tables/robot_words.tsv (kind "word") and the words of
// library, mail and app names. TestMain sets it once the model is built,
// since it reads tableColumns.
var genAffixes []string

func buildGenAffixes() []string {
	out := []string{"robot", "client", "http", "mail", "lib", "app", "desktop", "request", "check", "link", "feed", "reader"}
	for _, w := range robotWordsOfKind("word") {
		if w = strings.Trim(w, "-:"); len(w) >= 3 && !strings.Contains(w, " ") {
			out = append(out, w)
		}
	}
	// Longest first, so that "crawler" is peeled before "crawl".
	sort.Slice(out, func(i, j int) bool { return len(out[i]) > len(out[j]) })
	return out
}

func affixAt(s string) bool {
	ls := strings.ToLower(s)
	for _, a := range genAffixes {
		if strings.HasPrefix(ls, a) {
			return true
		}
	}
	return false
}

func affixBefore(s string) bool {
	ls := strings.ToLower(s)
	for _, a := range genAffixes {
		if strings.HasSuffix(ls, a) {
			return true
		}
	}
	return false
}

// segmentStart and segmentEnd say whether a name segment can start at i or
// end at j of s: at a non-letter, at a change from lower to upper case
// ("AskPeter") or next to a kept affix ("ExampleBot", "libexample").
func segmentStart(s string, i int) bool {
	return i == 0 || !isLetter(s[i-1]) || affixBefore(s[:i])
}

func segmentEnd(s string, j int) bool {
	return j == len(s) || !isLetter(s[j]) || affixAt(s[j:])
}

// nameSegments splits a product name into the segments a variant renames:
// its letter runs without the kept affixes at either end ("ExampleBot" is
// "Example"). A run is not cut at case changes: "AskExample" and the domain
// "askexample.com" must be renamed alike.
func nameSegments(name string) []string {
	var out []string
	for _, seg := range regexp.MustCompile(`[A-Za-z]+`).FindAllString(name, -1) {
		for changed := true; changed && seg != ""; {
			changed = false
			ls := strings.ToLower(seg)
			for _, a := range genAffixes {
				if len(ls) > len(a) && strings.HasPrefix(ls, a) {
					seg, changed = seg[len(a):], true
					break
				}
				if len(ls) > len(a) && strings.HasSuffix(ls, a) {
					seg, changed = seg[:len(seg)-len(a)], true
					break
				}
			}
		}
		out = append(out, seg)
	}
	return out
}

// replaceWords replaces every case-insensitive occurrence of a key of m in
// s that starts and ends at a segment boundary by its value, written in the
// case of the occurrence. Occurrences inside other words are left alone.
func replaceWords(s string, m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		return len(keys[i]) > len(keys[j]) || len(keys[i]) == len(keys[j]) && keys[i] < keys[j]
	})
	var b strings.Builder
	for i := 0; i < len(s); {
		if isLetter(s[i]) && segmentStart(s, i) {
			done := false
			for _, k := range keys {
				j := i + len(k)
				if j > len(s) || !strings.EqualFold(s[i:j], k) || !segmentEnd(s, j) {
					continue
				}
				b.WriteString(applyCase(s[i:j], m[k]))
				i = j
				done = true
				break
			}
			if done {
				continue
			}
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

// digitMap is a permutation of the digits 1-9 (0 stays 0, so that leading
// zeros and the length of every number are kept).
type digitMap [10]byte

func newDigitMap(rng *rand.Rand) digitMap {
	var m digitMap
	m[0] = '0'
	p := rng.Perm(9)
	for i := 0; i < 9; i++ {
		m[i+1] = byte('1' + p[i])
	}
	return m
}

func (m digitMap) apply(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= '0' && c <= '9' {
			b[i] = m[c-'0']
		}
	}
	return string(b)
}

// ---------------------------------------------------------------------------
// Names our tables list: renaming them would change the facts, not test the
// rules.

// genTableNames are the lower case names and name words of our tables.
// TestMain sets it once the model is built, since it reads tableColumns.
var genTableNames map[string]bool

func buildGenTableNames() map[string]bool {
	m := map[string]bool{}
	words := regexp.MustCompile(`[A-Za-z]{3,}`)
	// brandColumns are the columns (after the first) that hold company or
	// brand names: a name segment that is a company is a fact.
	brandColumns := map[string][]int{
		"brands.tsv": {1}, "robot_companies.tsv": {1}, "domain_brands.tsv": {1},
		"set_top_box_makers.tsv": {1}, "http_libraries.tsv": {1, 2}, "robot_names.tsv": {1},
		"browsers.tsv": {1}, "app_spellings.tsv": {1}, "robot_device_names.tsv": {1},
		"fediverse_servers.tsv": {1}, "webview_apps.tsv": {1},
	}
	for name, cols := range tableColumns {
		if name == "attack_signatures.tsv" || name == "cpu.tsv" || name == "system_releases.tsv" {
			continue
		}
		rows, err := parseTable(name, cols)
		if err != nil {
			continue
		}
		for _, r := range rows {
			if name == "robot_words.tsv" && r[1] == "word" {
				continue // generic words, not names (genAffixes keeps them)
			}
			vals := []string{r[0]}
			for _, c := range brandColumns[name] {
				vals = append(vals, r[c])
			}
			for _, v := range vals {
				m[strings.ToLower(v)] = true
				for _, w := range words.FindAllString(v, -1) {
					if len(w) >= 4 {
						m[strings.ToLower(w)] = true
					}
				}
			}
		}
	}
	return m
}

// genGenericWords are words that say what a client is rather than which one
// it is: a renamed name keeps them ("Example-Feed-Reader", "python-example").
var genGenericWords = map[string]bool{
	"http": true, "https": true, "client": true, "python": true, "java": true, "lib": true, "php": true,
	"ruby": true, "perl": true, "node": true, "net": true, "web": true, "api": true, "sdk": true,
	"bot": true, "robot": true, "spider": true, "crawler": true, "fetcher": true, "fetch": true,
	"scanner": true, "app": true, "mail": true, "agent": true, "browser": true, "mobile": true,
	"android": true, "ios": true, "desktop": true, "server": true, "feed": true, "reader": true,
	"rss": true, "news": true, "link": true, "checker": true, "monitor": true, "search": true,
	"engine": true, "validator": true, "preview": true, "proxy": true, "downloader": true,
	"library": true, "request": true, "requests": true, "the": true, "for": true, "and": true,
	"www": true, "com": true, "org": true, "html": true, "htm": true, "bots": true, "crawlers": true,
	"mac": true, "win": true, "windows": true, "linux": true, "iphone": true, "ipad": true,
	"mozilla": true, "chrome": true, "safari": true, "firefox": true, "msie": true, "gecko": true,
	"applewebkit": true, "khtml": true, "compatible": true,
}

// familyOfCase is the rename family of a DEV case (by Yauaa's class, or its
// test file for libraries), or "" for a case outside the rename families.
func familyOfCase(c devCase) string {
	switch c.Source {
	case "Robots-Google.yaml", "Robots-Bing.yaml", "Robots-Yandex.yaml", "Robots-Meta.yaml", "Robot-Imitators.yaml":
		// Robots of named companies and their imitators: the company is a
		// fact, not a structure.
		return ""
	case "Robots-Libraries-Tests.yaml":
		return "library"
	}
	switch c.Expected["AgentClass"] {
	case "Robot", "Robot Mobile", "Special":
		if libraryName.MatchString(c.Expected["AgentName"]) {
			return "library"
		}
	}
	switch c.Expected["AgentClass"] {
	case "Robot", "Robot Mobile":
		return "robot"
	case "Email Client":
		return "email"
	case "Mobile App", "Desktop App":
		return "app"
	case "Special", "Server", "Cloud Application":
		return "special"
	}
	return ""
}

// nameAt finds the agent name literally in the user agent as a product name:
// after the start or a separator, before the end, a slash, a space or a
// separator.
func nameAt(ua, name string) int {
	for off := 0; ; {
		i := strings.Index(ua[off:], name)
		if i < 0 {
			return -1
		}
		i += off
		j := i + len(name)
		left := i == 0 || strings.IndexByte(" (;,+[", ua[i-1]) >= 0
		right := j == len(ua) || strings.IndexByte("/ ;),", ua[j]) >= 0
		if left && right {
			return i
		}
		off = i + 1
	}
}

// structuralMarker reports whether a user agent still says, by its
// structure, what kind of client it is once its names are made up: a robot
// word, a URL or e-mail address, a library naming pattern.
var structuralMarker = regexp.MustCompile(`(?i)bot|crawl|spider|https?:|www\.|@|[a-z0-9-]\.(com|org|net|io|de|ru|fr|nl|jp|cn|uk)\b|client|^(lib|python|java|perl|php|ruby|node|go-)|-http|http-`)

// libraryName is the naming pattern of HTTP libraries and command line
// clients.
var libraryName = regexp.MustCompile(`(?i)^(lib|python|java|perl|php|ruby|node|go-)|http|client|request|curl|wget`)

// conventionApp matches apps whose user agent follows a convention of its
// own that tells the device or system: WhatsApp's platform letter after its
// version ("WhatsApp/2.23 N" is KaiOS), Sony's "RNPS/6.50" system of
// PlayStation apps. Renamed, they no longer follow it, and what the device
// would be is unclear.
var conventionApp = regexp.MustCompile(`(?i)whatsapp/|rnps/`)

// renameVariant renames the product that carries AgentName to a made-up name
// of the same shape and changes its version digits. Expected values change
// with it: every occurrence of a renamed word in an expected value is
// renamed the same way, and a version that is the product's version (or its
// major part) changes with it. The scored attributes are the core ones and
// the agent's name-version, URL and e-mail; AgentClass is not scored for
// apps, mail programs and special agents whose name (not structure) made
// their class, unless the kept words still say it ("mail").
func renameVariant(c devCase, family string, n int) (variant, string) {
	name := c.Expected["AgentName"]
	if name == "" || name == "Unknown" || name == "Hacker" {
		return variant{}, "no agent name"
	}
	// The product that carries the name: the name itself, or else the
	// product whose version is the agent's version ("ZohoMail-Desktop/1.6.1"
	// of "Zoho mail").
	product := name
	if nameAt(c.UA, name) < 0 {
		product = productOfVersion(c.UA, c.Expected["AgentVersion"])
		if product == "" {
			return variant{}, "agent name not literal in the user agent"
		}
	}
	lua := strings.ToLower(c.UA)
	for _, w := range regexp.MustCompile(`[A-Za-z]{3,}`).FindAllString(name, -1) {
		if !strings.Contains(lua, strings.ToLower(w)) {
			return variant{}, "agent name has words the user agent does not spell (a looked-up name)"
		}
	}
	if genTableNames[strings.ToLower(name)] || genTableNames[strings.ToLower(product)] {
		return variant{}, "name listed in our tables"
	}
	if conventionApp.MatchString(c.UA) {
		return variant{}, "device or system read from this app's own convention"
	}
	if partOfName(c.Expected["DeviceName"], product) || partOfName(c.Expected["DeviceBrand"], product) {
		return variant{}, "device name takes a part of the product name (Yauaa's split unclear)"
	}
	rng := variantRand(c.UA, n)
	m := map[string]string{}
	for _, w := range nameSegments(product) {
		lw := strings.ToLower(w)
		if len(lw) < 3 || genGenericWords[lw] {
			continue
		}
		if genTableNames[lw] {
			return variant{}, "name listed in our tables"
		}
		if _, ok := m[lw]; ok {
			continue
		}
		nw := madeUpWord(rng, lw, genTableNames)
		if nw == "" {
			return variant{}, "no made-up word"
		}
		m[lw] = nw
	}
	if len(m) == 0 {
		return variant{}, "no distinctive word in the name"
	}
	ua := replaceWords(c.UA, m)
	newName := replaceWords(product, m)
	// The product's version: the text after "Name/" up to a separator.
	dm := newDigitMap(rng)
	oldVer, newVer := "", ""
	if i := nameAt(ua, newName); i >= 0 && i+len(newName) < len(ua) && ua[i+len(newName)] == '/' {
		j := i + len(newName) + 1
		k := j
		for k < len(ua) && strings.IndexByte(" ;)(,", ua[k]) < 0 {
			k++
		}
		if v := ua[j:k]; strings.ContainsAny(v, "0123456789") && v == c.Expected["AgentVersion"] &&
			!versionUnclear(c, v, func(attr string) bool {
				return strings.HasPrefix(attr, "Agent") || strings.HasPrefix(attr, "LayoutEngine") && c.Expected["LayoutEngineVersion"] == v
			}) {
			oldVer, newVer = v, dm.apply(v)
			ua = ua[:j] + newVer + ua[k:]
		}
	}
	if ua == c.UA {
		return variant{}, "renaming changed nothing"
	}
	if replaceWords(name, m) == name {
		return variant{}, "agent name does not share the renamed words"
	}
	if family != "email" && family != "app" && !structuralMarker.MatchString(ua) {
		return variant{}, "known only by its name (no robot word, address or library pattern)"
	}
	want := map[string]string{}
	scored := append(append([]string{}, coreAttributes...), "AgentNameVersion", "AgentNameVersionMajor",
		"AgentInformationUrl", "AgentInformationEmail", "AgentVersion")
	for _, attr := range scored {
		v, ok := c.Expected[attr]
		if !ok {
			continue
		}
		v = expectedValue(v)
		if attr == "AgentClass" && family != "robot" &&
			!strings.Contains(strings.ToLower(newName), "mail") {
			continue
		}
		v = replaceWords(v, m)
		if oldVer != "" && (strings.HasPrefix(attr, "Agent") || strings.HasPrefix(attr, "LayoutEngine") &&
			c.Expected["LayoutEngineVersion"] == oldVer) {
			v = mapVersion(v, oldVer, dm)
		}
		want[attr] = v
	}
	// A renamed word left anywhere (inside another word of the user agent
	// or of an expected value: "example" in "exampledata.net") means the
	// rename was partial, and the expectation unclear.
	for w := range m {
		if strings.Contains(strings.ToLower(ua), w) {
			return variant{}, "old name left inside another word"
		}
		for _, v := range want {
			if strings.Contains(strings.ToLower(v), w) {
				return variant{}, "old name left inside another word"
			}
		}
	}
	return variant{family: family, ua: ua, orig: c.UA, want: want}, ""
}

// versionVariant changes only the version digits of the product that
// carries AgentName, for the robots, libraries, apps, mail programs and
// special agents whose names are facts of our tables (so that renaming
// them would change the facts): a rule that reads the version of the
// product it named must read any version. The name stays; AgentVersion,
// its major part and the name-version pairs change with the digits, and so
// do the layout engine's where the engine is the agent (robots).
func versionVariant(c devCase, n int) (variant, string) {
	ver := c.Expected["AgentVersion"]
	product := productOfVersion(c.UA, ver)
	if product == "" {
		return variant{}, "no product carries the agent version"
	}
	if !sharesWord(c.Expected["AgentName"], product) {
		return variant{}, "the product with the agent's version is not the agent (\"Darwin/15.6.0\")"
	}
	if versionUnclear(c, ver, func(attr string) bool {
		return strings.HasPrefix(attr, "Agent") || strings.HasPrefix(attr, "LayoutEngine") && c.Expected["LayoutEngineVersion"] == ver
	}) {
		return variant{}, "another attribute follows the version (or it is written twice)"
	}
	i := strings.Index(c.UA, product+"/"+ver)
	j := i + len(product) + 1
	dm := newDigitMap(variantRand(c.UA, n))
	newVer := dm.apply(ver)
	if newVer == ver {
		return variant{}, "nothing to vary"
	}
	ua := c.UA[:j] + newVer + c.UA[j+len(ver):]
	want := map[string]string{}
	for _, attr := range append(append([]string{}, coreAttributes...), "AgentVersion", "AgentNameVersion", "AgentNameVersionMajor") {
		v, ok := c.Expected[attr]
		if !ok {
			continue
		}
		v = expectedValue(v)
		if strings.HasPrefix(attr, "Agent") || strings.HasPrefix(attr, "LayoutEngine") &&
			c.Expected["LayoutEngineVersion"] == ver {
			v = mapVersion(v, ver, dm)
		}
		want[attr] = v
	}
	return variant{family: "version", ua: ua, orig: c.UA, want: want}, ""
}

// partOfName reports whether a word of value (three letters or more) is a
// part, but not the whole, of a letter run of product: "Velen" of
// "VelenPublicWebCrawler". Yauaa then split the name by what it knows of
// the company, and a renamed product has no clear split.
func partOfName(value, product string) bool {
	runs := regexp.MustCompile(`[A-Za-z]+`).FindAllString(strings.ToLower(product), -1)
	for _, w := range regexp.MustCompile(`[A-Za-z]{3,}`).FindAllString(strings.ToLower(value), -1) {
		for _, r := range runs {
			if r != w && strings.Contains(r, w) && !genGenericWords[w] && !affixAt(w) {
				return true
			}
		}
	}
	return false
}

// versionUnclear reports that a scored expected value other than the
// agent's and engine's own versions is (or starts with the major part of)
// the version a variant changes: Yauaa derived it from that version too
// ("DVP-4.1" of a Roku), and how it would follow the change is unclear. A
// version written twice in the user agent is unclear as well.
func versionUnclear(c devCase, ver string, mapped func(attr string) bool) bool {
	if strings.Count(c.UA, ver) > 1 {
		return true
	}
	major := ver
	if i := strings.IndexAny(ver, ".-_+"); i > 0 {
		major = ver[:i]
	}
	for _, attr := range coreAttributes {
		v := c.Expected[attr]
		if mapped(attr) || v == "" {
			continue
		}
		if strings.Contains(v, ver) || v == major || strings.HasSuffix(v, " "+major) {
			return true
		}
	}
	return false
}

// sharesWord reports whether a word of name (three letters or more) is
// written in product, ignoring case.
func sharesWord(name, product string) bool {
	lp := strings.ToLower(product)
	for _, w := range regexp.MustCompile(`[A-Za-z]{3,}`).FindAllString(name, -1) {
		if strings.Contains(lp, strings.ToLower(w)) {
			return true
		}
	}
	return false
}

// productOfVersion returns the name of the product whose version is v
// ("Name/v"), or "".
func productOfVersion(ua, v string) string {
	if v == "" || !strings.ContainsAny(v, "0123456789") {
		return ""
	}
	for off := 0; ; {
		i := strings.Index(ua[off:], "/"+v)
		if i < 0 {
			return ""
		}
		i += off
		j := i + 1 + len(v)
		if j == len(ua) || strings.IndexByte(" ;),(", ua[j]) >= 0 {
			k := i
			for k > 0 && strings.IndexByte(" ;(,", ua[k-1]) < 0 {
				k--
			}
			if k < i {
				return ua[k:i]
			}
		}
		off = i + 1
	}
}

// mapVersion changes a value that is the version oldVer, its leading
// numeric part or "Name version" of either, by the digit map.
func mapVersion(v, oldVer string, dm digitMap) string {
	head, tail := "", v
	if i := strings.LastIndexByte(v, ' '); i >= 0 {
		head, tail = v[:i+1], v[i+1:]
	}
	if tail != "" && strings.HasPrefix(oldVer, tail) && (len(tail) == len(oldVer) || !(oldVer[len(tail)] >= '0' && oldVer[len(tail)] <= '9')) {
		return head + dm.apply(tail)
	}
	return v
}

// ---------------------------------------------------------------------------
// Hackers.

// attackKeywords are words of the languages attacks are written in (SQL,
// JavaScript and HTML, shell, Java expression languages, template and
// lookup syntaxes, file system paths): a variant keeps them, because they
// make the attack. Every other word of three letters or more is an
// identifier, tag or host name of this payload and is renamed. The list
// comes from the languages, not from our rules.
var attackKeywords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`
select union all from where and or not null case when then else end like rlike sleep waitfor delay
benchmark concat char chr order group having insert into values update set delete drop table exec
execute cast convert as database dbms pipe receive message declare varchar nvarchar int while begin
if ascii substring substr count limit offset version user sysdate now xor elt extractvalue updatexml
xmltype dual master dbo dirtree utl inaddr address get host name http https rdb utf hex
script alert prompt confirm onload onerror onmouseover onfocus svg img src iframe javascript document
cookie window eval image new replace textarea body style expression href function return typeof
undefined noscript title xss var callback tostring html xml doctype entity system public element
include virtual exec cmd echo printenv fboot
jndi ldap ldaps rmi dns iiop corba nds nis lower upper env date sys java base
etc passwd shadow hosts win ini boot system windows bin bash sh cat wget curl nslookup ping id whoami
uname proc self environ usr tmp dev null shell cgi perl python php lwp fetch mkdir kill crontab
ognl memberaccess context actioncontext container class process processbuilder runtime getruntime
start getinputstream ioutils commons apache opensymphony xwork getinstance getproperty tolowercase
contains iswin cmds exe setmemberaccess clear redirecterrorstream access default allowstaticmethodaccess
excludedpackagenames excludedclasses getexcludedpackagenames getexcludedclasses ognlutil ognlcontext
copy tostring string close openstream request output socket make gethostbyname print import require
time true false none log www com org net mozilla compatible gecko khtml applewebkit chrome safari firefox
macintosh intel linux windows nt ppc mach msie trident wow mac esi xsl xslt xmlns xsi xsd
schemalocation stylesheet transform template ssi`) {
		m[w] = true
	}
	return m
}()

var letterRun = regexp.MustCompile(`[A-Za-z]+`)

// hackerVariant varies the payload of an attack and keeps its class: every
// number gets other digits, identifiers and tags (words that are not
// keywords of the attack's language) get made-up words of the same shape,
// and single quotes become double quotes or the other way round where the
// payload uses only one kind. The attack vector, toolkit, and the Hacker
// class and name stay. Forged browsers without a payload (no attack vector)
// and the attacks whose vector Yauaa names after a scanner test are left
// out: what makes them attacks is the exact spelling.
func hackerVariant(c devCase, n int) (variant, string) {
	av := c.Expected["HackerAttackVector"]
	if av == "" || av == "Unknown" || strings.HasPrefix(av, "Nikto") {
		return variant{}, "forgery or scanner-named attack: the exact spelling is the attack"
	}
	if av == "Buffer overflow" {
		return variant{}, "buffer overflow: the length is the attack"
	}
	rng := variantRand(c.UA, n)
	dm := newDigitMap(rng)
	// Numbers change where they stand alone: not inside a word ("md5",
	// "log4j"), a percent escape ("%5c") or an address ("w3.org/1999").
	ua := loneNumber.ReplaceAllStringFunc(c.UA, func(r string) string {
		return r[:1] + dm.apply(r[1:len(r)-1]) + r[len(r)-1:]
	})
	if strings.Contains(c.UA, "://") {
		ua = c.UA
	}
	m := map[string]string{}
	for _, w := range letterRun.FindAllString(ua, -1) {
		lw := strings.ToLower(w)
		// Scanner markers are facts of the toolkit table: they stay.
		if len(lw) < 3 || attackKeywords[lw] || m[lw] != "" || toolkitWord(lw) {
			continue
		}
		if nw := madeUpWord(rng, lw, attackKeywords); nw != "" {
			m[lw] = nw
		}
	}
	ua = replaceWordsExact(ua, m)
	switch sq, dq := strings.Contains(ua, "'"), strings.Contains(ua, `"`); {
	case sq && !dq:
		ua = strings.ReplaceAll(ua, "'", `"`)
	case dq && !sq:
		ua = strings.ReplaceAll(ua, `"`, "'")
	}
	if ua == c.UA {
		return variant{}, "nothing to vary"
	}
	want := map[string]string{}
	for _, attr := range []string{"DeviceClass", "AgentClass", "AgentName", "LayoutEngineClass",
		"OperatingSystemClass", "HackerAttackVector", "HackerToolkit"} {
		if v, ok := c.Expected[attr]; ok {
			want[attr] = expectedValue(v)
		}
	}
	return variant{family: "hacker", ua: ua, orig: c.UA, want: want}, ""
}

// loneNumber is a run of digits between two characters that are neither
// letters, digits, "%" nor ".": the match includes both neighbours.
var loneNumber = regexp.MustCompile(`[^A-Za-z0-9%.][0-9]+[^A-Za-z0-9%.]`)

// toolkitWord reports whether a word is part of a marker of the hacker
// toolkit table.
func toolkitWord(w string) bool {
	for _, r := range loadTable("hacker_toolkits.tsv", tableColumns["hacker_toolkits.tsv"]) {
		if strings.Contains(r[0], w) || strings.Contains(w, r[0]) {
			return true
		}
	}
	return false
}

// replaceWordsExact replaces whole letter runs (case-insensitive keys) by
// their made-up words in the run's case.
func replaceWordsExact(s string, m map[string]string) string {
	return letterRun.ReplaceAllStringFunc(s, func(w string) string {
		if nw, ok := m[strings.ToLower(w)]; ok {
			return applyCase(w, nw)
		}
		return w
	})
}

// ---------------------------------------------------------------------------
// UUIDs and anonymised forms.

var uuidRE = regexp.MustCompile(`[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}`)

// uuidVariant puts fresh random UUIDs (same letter case) in place of every
// UUID of the user agent; AgentUuid follows. The other expected values stay.
func uuidVariant(c devCase, n int) (variant, string) {
	if !uuidRE.MatchString(c.UA) {
		return variant{}, "no UUID"
	}
	rng := variantRand(c.UA, n)
	repl := map[string]string{}
	ua := uuidRE.ReplaceAllStringFunc(c.UA, func(u string) string {
		if r, ok := repl[u]; ok {
			return r
		}
		b := []byte(u)
		upper := strings.ToUpper(u) == u && strings.ContainsAny(u, "ABCDEF")
		for i := range b {
			if b[i] == '-' {
				continue
			}
			b[i] = "0123456789abcdef"[rng.IntN(16)]
			if upper && b[i] >= 'a' {
				b[i] -= 'a' - 'A'
			}
		}
		repl[u] = string(b)
		return string(b)
	})
	want := map[string]string{}
	for _, attr := range append(append([]string{}, coreAttributes...), "AgentUuid") {
		v, ok := c.Expected[attr]
		if !ok {
			continue
		}
		if attr == "AgentUuid" {
			r, ok := repl[v]
			if !ok {
				return variant{}, "AgentUuid is not a UUID of the user agent"
			}
			v = r
		}
		want[attr] = expectedValue(v)
	}
	return variant{family: "uuid", ua: ua, orig: c.UA, want: want}, ""
}

var (
	longNumber = regexp.MustCompile(`\d{6,}`)
	zeroRun    = regexp.MustCompile(`0{3,}|D{3,}`)
	randomTag  = regexp.MustCompile(`/([A-Za-z0-9]{6,10})-(\d{1,3})$`)
	kamoTail   = regexp.MustCompile(` ([A-Z][A-Za-z]{2,9})/(\d{2}\.\d{1,2}\.\d{4}\.\d{1,3})$`)
)

// anonymizedVariant varies what an anonymiser makes up: the number after
// "anonymized by" (and any other number of six digits or more), the length
// of zeroed runs (a run of zeros or of "D" one longer or shorter), the
// random tag some append ("/Ab3dEf7h-42"), and the made-up product that Kamo
// appends (" Herring/98.1.5870.71": another made-up name and version). The
// expected values stay as they are.
func anonymizedVariant(c devCase, n int) (variant, string) {
	switch c.Source {
	case "Anonymized-Tests.yaml", "Anonymized-Null.yaml", "Anonymize-Kamo.yaml":
	default:
		return variant{}, "not an anonymised case"
	}
	rng := variantRand(c.UA, n)
	dm := newDigitMap(rng)
	ua := longNumber.ReplaceAllStringFunc(c.UA, dm.apply)
	ua = zeroRun.ReplaceAllStringFunc(ua, func(r string) string {
		if rng.IntN(2) == 0 {
			return r + r[:1]
		}
		return r[1:]
	})
	ua = randomTag.ReplaceAllStringFunc(ua, func(t string) string {
		b := []byte(t)
		for i := 1; i < len(b) && b[i] != '-'; i++ {
			switch {
			case b[i] >= 'a' && b[i] <= 'z':
				b[i] = byte('a' + rng.IntN(26))
			case b[i] >= 'A' && b[i] <= 'Z':
				b[i] = byte('A' + rng.IntN(26))
			case b[i] >= '0' && b[i] <= '9':
				b[i] = byte('0' + rng.IntN(10))
			}
		}
		return string(b)
	})
	if sm := kamoTail.FindStringSubmatch(ua); sm != nil && !strings.Contains(c.Expected["AgentName"], sm[1]) {
		nw := madeUpWord(rng, strings.ToLower(sm[1]), genTableNames)
		if nw != "" {
			ua = strings.TrimSuffix(ua, sm[0]) + " " + applyCase(sm[1], nw) + "/" + dm.apply(sm[2])
		}
	}
	if ua == c.UA {
		return variant{}, "nothing made up to vary"
	}
	want := map[string]string{}
	for _, attr := range coreAttributes {
		if v, ok := c.Expected[attr]; ok {
			want[attr] = expectedValue(v)
		}
	}
	return variant{family: "anonymized", ua: ua, orig: c.UA, want: want}, ""
}

// ---------------------------------------------------------------------------
// Devices.

// deviceVariant changes the digits of a model code within its brand's
// naming pattern: the letters and the first digit stay (they carry the
// brand's series, "SM-G9..."), the later digits change by a permutation, so
// "SM-G960F" may become "SM-G935F". It applies where DeviceName is the brand
// followed by the model exactly as the user agent spells it; names Yauaa
// looks up (marketing names of model codes) are left out. DeviceName changes
// with the model; DeviceBrand stays.
func deviceVariant(c devCase, n int) (variant, string) {
	brand, name := c.Expected["DeviceBrand"], c.Expected["DeviceName"]
	if brand == "" || brand == "Unknown" || brand == "Apple" || !strings.HasPrefix(name, brand+" ") {
		return variant{}, "no brand and model"
	}
	switch c.Expected["DeviceClass"] {
	case "Phone", "Tablet", "Mobile", "TV", "Watch", "Set-top box", "eReader", "Game Console":
	default:
		return variant{}, "not a device class"
	}
	model := strings.TrimPrefix(name, brand+" ")
	// The digits after the first one; a model with fewer than two digits
	// has nothing to vary within its series.
	first := strings.IndexAny(model, "0123456789")
	if first < 0 || strings.Count(model, "")-1 < 2 || !strings.ContainsAny(model[first+1:], "0123456789") {
		return variant{}, "model without digits to vary"
	}
	if !containsModel(c.UA, model) {
		return variant{}, "model not spelled in the user agent as in DeviceName"
	}
	rng := variantRand(c.UA, n)
	dm := newDigitMap(rng)
	newModel := model[:first+1] + dm.apply(model[first+1:])
	if newModel == model {
		return variant{}, "nothing to vary"
	}
	if _, ok := catalogLookup(newModel); ok {
		// A real model, which the catalogue of Android models knows:
		// its maker is a fact, not the original's by pattern.
		return variant{}, "the varied model is a real one (tables/catalog)"
	}
	ua := strings.ReplaceAll(c.UA, model, newModel)
	want := map[string]string{"DeviceName": brand + " " + newModel, "DeviceBrand": brand}
	return variant{family: "device", ua: ua, orig: c.UA, want: want}, ""
}

func containsModel(ua, model string) bool {
	for off := 0; ; {
		i := strings.Index(ua[off:], model)
		if i < 0 {
			return false
		}
		i += off
		j := i + len(model)
		if (i == 0 || !isAlnum(ua[i-1])) && (j == len(ua) || !isAlnum(ua[j])) {
			return true
		}
		off = i + 1
	}
}

// ---------------------------------------------------------------------------

// buildVariants makes the variants of every UA-only DEV case (all halves:
// the variants are user agents no rule was written for) and counts the
// cases left out by family and reason.
func buildVariants(cases []devCase) ([]variant, map[string]map[string]int) {
	var out []variant
	left := map[string]map[string]int{}
	var c devCase
	add := func(v variant) {
		v.origWant = map[string]string{}
		for attr := range v.want {
			v.origWant[attr] = expectedValue(c.Expected[attr])
		}
		out = append(out, v)
	}
	skip := func(fam, reason string) {
		if left[fam] == nil {
			left[fam] = map[string]int{}
		}
		left[fam][reason]++
	}
	for _, c = range cases {
		if c.ClientHints {
			continue
		}
		for n := 0; n < variantsPerCase; n++ {
			if fam := familyOfCase(c); fam != "" {
				if v, why := renameVariant(c, fam, n); why == "" {
					add(v)
				} else {
					if n == 0 {
						skip(fam, why)
					}
					if strings.Contains(why, "tables") || strings.Contains(why, "looked-up") {
						if v, why := versionVariant(c, n); why == "" {
							add(v)
						} else if n == 0 {
							skip("version", why)
						}
					}
				}
			}
			if c.Expected["DeviceClass"] == "Hacker" {
				if v, why := hackerVariant(c, n); why == "" {
					add(v)
				} else if n == 0 {
					skip("hacker", why)
				}
			}
			if uuidRE.MatchString(c.UA) {
				if v, why := uuidVariant(c, n); why == "" {
					add(v)
				} else if n == 0 {
					skip("uuid", why)
				}
			}
			if strings.HasPrefix(c.Source, "Anonymi") {
				if v, why := anonymizedVariant(c, n); why == "" {
					add(v)
				} else if n == 0 {
					skip("anonymized", why)
				}
			}
			if v, why := deviceVariant(c, n); why == "" {
				add(v)
			} else if n == 0 && c.Expected["DeviceBrand"] != "" && c.Expected["DeviceBrand"] != "Unknown" {
				skip("device", why)
			}
		}
	}
	return out, left
}

type genScore struct {
	variants           int
	ok, total          int // variant attribute values
	origOK             int // the same attributes on the original user agent
	fullOK, origFullOK int // variants (originals) with every scored attribute right
	distinctOrig       map[string]bool
}

func TestGeneralisation(t *testing.T) {
	vs, left := buildVariants(loadDev(t))
	// To score another version of the analyzer on exactly these variants
	// (the generator reads our tables, which change with the analyzer),
	// UAPARSE_VARIANTS_DUMP=file writes them and UAPARSE_VARIANTS_FROM=file
	// reads them instead of generating.
	if path := os.Getenv("UAPARSE_VARIANTS_DUMP"); path != "" {
		writeVariants(t, path, vs)
	}
	if path := os.Getenv("UAPARSE_VARIANTS_FROM"); path != "" {
		vs, left = readVariants(t, path), nil
	}
	a := New(Options{})
	scores := map[string]*genScore{}
	for _, f := range genFamilies {
		scores[f] = &genScore{distinctOrig: map[string]bool{}}
	}
	show := os.Getenv("UAPARSE_VARIANT_FAILURES")
	for _, v := range vs {
		s := scores[v.family]
		s.variants++
		s.distinctOrig[v.orig] = true
		r, ro := a.Analyze(v.ua), a.Analyze(v.orig)
		all, allOrig := true, true
		for attr, want := range v.want {
			s.total++
			got := r.Get(attr)
			if got == want {
				s.ok++
			} else {
				all = false
				lost := ro.Get(attr) == v.origWant[attr]
				if show == v.family || show == "all" || show == "lost" && lost {
					fmt.Printf("VARIANT %s %s: got %q want %q (original %q) | %s | was %s\n",
						v.family, attr, got, want, ro.Get(attr), v.ua, v.orig)
				}
			}
			if ro.Get(attr) == v.origWant[attr] {
				s.origOK++
			} else {
				allOrig = false
			}
		}
		if all {
			s.fullOK++
		}
		if allOrig {
			s.origFullOK++
		}
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "%-11s %6s %8s %9s %9s %9s %9s\n", "family", "cases", "variants", "variant", "original", "var.full", "orig.full")
	var tot genScore
	for _, f := range genFamilies {
		s := scores[f]
		fmt.Fprintf(&sb, "%-11s %6d %8d %8.2f%% %8.2f%% %8.2f%% %8.2f%%\n", f, len(s.distinctOrig), s.variants,
			pct(s.ok, s.total), pct(s.origOK, s.total), pct(s.fullOK, s.variants), pct(s.origFullOK, s.variants))
		tot.variants += s.variants
		tot.ok += s.ok
		tot.total += s.total
		tot.origOK += s.origOK
		tot.fullOK += s.fullOK
		tot.origFullOK += s.origFullOK
	}
	fmt.Fprintf(&sb, "%-11s %6s %8d %8.2f%% %8.2f%% %8.2f%% %8.2f%%\n", "all", "", tot.variants,
		pct(tot.ok, tot.total), pct(tot.origOK, tot.total), pct(tot.fullOK, tot.variants), pct(tot.origFullOK, tot.variants))
	sb.WriteString("left out (family: reason: DEV cases):\n")
	for _, f := range genFamilies {
		reasons := make([]string, 0, len(left[f]))
		for r := range left[f] {
			reasons = append(reasons, r)
		}
		sort.Strings(reasons)
		for _, r := range reasons {
			fmt.Fprintf(&sb, "  %s: %s: %d\n", f, r, left[f][r])
		}
	}
	t.Log("\n" + sb.String())
	for _, f := range genFamilies {
		s := scores[f]
		if f == "email" || f == "library" {
			// Every mail program of DEV is a fact of our tables (or a name
			// Yauaa looks up), and so, since Yauaa's NamedRobots lookup
			// was imported (tables/named_robots.tsv), is every HTTP
			// library of DEV: none has a renamed variant with a clear
			// expectation; their versions are varied in "version".
			continue
		}
		if s.variants < 4 {
			t.Errorf("family %s: only %d variants", f, s.variants)
			continue
		}
		if got := pct(s.ok, s.total); got < generalisationFloor[f] {
			t.Errorf("family %s: variant accuracy %.2f%% is below the floor %.2f%%", f, got, generalisationFloor[f])
		}
	}
}

// variantJSON is a variant as UAPARSE_VARIANTS_DUMP writes it.
type variantJSON struct {
	Family   string            `json:"family"`
	UA       string            `json:"ua"`
	Orig     string            `json:"orig"`
	Want     map[string]string `json:"want"`
	OrigWant map[string]string `json:"orig_want"`
}

func writeVariants(t *testing.T, path string, vs []variant) {
	var b strings.Builder
	for _, v := range vs {
		line, err := json.Marshal(variantJSON{v.family, v.ua, v.orig, v.want, v.origWant})
		if err != nil {
			t.Fatalf("encode variant: %v", err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatalf("write variants: %v", err)
	}
}

func readVariants(t *testing.T, path string) []variant {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read variants: %v", err)
	}
	var out []variant
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var v variantJSON
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Fatalf("decode variant: %v", err)
		}
		out = append(out, variant{family: v.Family, ua: v.UA, orig: v.Orig, want: v.Want, origWant: v.OrigWant})
	}
	return out
}

func pct(ok, total int) float64 {
	if total == 0 {
		return 0
	}
	return 100 * float64(ok) / float64(total)
}
