package uaparse

import (
	"bufio"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// Matomo device-detector's fixtures are a second, independent source of
// labelled user agents (see testdata/useragents/matomo-device-detector/README.md
// for origin and licence). Their names differ from Yauaa's, which Weir
// follows; ddExpected maps them, and docs/useragent.md documents the mapping.

var ddFile = filepath.Join("..", "..", "..", "..", "testdata", "useragents", "matomo-device-detector", "device-detector.jsonl")

type ddCase struct {
	UA     string            `json:"ua"`
	File   string            `json:"file"`
	Bot    map[string]string `json:"bot"`
	Client map[string]string `json:"client"`
	OS     map[string]string `json:"os"`
	Device map[string]string `json:"device"`
}

func loadDD(tb testing.TB) []ddCase {
	tb.Helper()
	f, err := os.Open(ddFile)
	if err != nil {
		tb.Fatalf("open device-detector fixtures: %v", err)
	}
	defer f.Close()
	var out []ddCase
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var c ddCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			tb.Fatalf("decode device-detector line: %v", err)
		}
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		tb.Fatalf("read device-detector fixtures: %v", err)
	}
	return out
}

// ---------------------------------------------------------------------------
// The frozen splits.
//
// Each external set is split once, by a salted sha256 of the user agent, into
// a tuning part and a check part. Rules are written and tuned only against
// the tuning parts' failures (the failure printers below refuse to print a
// check part); the check parts are scored when a round of work is done, and
// never to choose between rules. The salt of the Yauaa split differs from the
// older tune/check halves (devHalf), so its check part is a set of its own.
// TestFrozenSplits pins each check part's size and fingerprint: changing the
// rule, the salt or the data fails it.

const (
	partTuning = 0
	partCheck  = 1
)

// splitPart returns the part of a set a user agent belongs to: the first
// byte of sha256(salt NUL ua) below 128 is the check part.
func splitPart(salt, ua string) int {
	sum := sha256.Sum256([]byte(salt + "\x00" + ua))
	if sum[0] < 128 {
		return partCheck
	}
	return partTuning
}

const (
	ddSalt    = "weir-ua-split/device-detector"
	yauaaSalt = "weir-ua-split/yauaa-dev-2"
)

// frozenCheck pins each check part: its number of cases and the sha256 of
// its user agents (sorted, newline separated), in hexadecimal.
var frozenCheck = map[string]struct {
	cases       int
	fingerprint string
}{
	"device-detector": {18532, "a3d45a89d25afd6d5f864772ebf4844df1be5186c89e831885218d783cd19315"},
	"yauaa-dev":       {1402, "34a9eb38d7f5e7df50c983c26f9b56a7bf6c97e622f273d6f249b4b118cef4ae"},
}

func partFingerprint(uas []string) string {
	s := append([]string(nil), uas...)
	sort.Strings(s)
	return fmt.Sprintf("%x", sha256.Sum256([]byte(strings.Join(s, "\n"))))
}

func TestFrozenSplits(t *testing.T) {
	sets := map[string][]string{}
	for _, c := range loadDD(t) {
		if splitPart(ddSalt, c.UA) == partCheck {
			sets["device-detector"] = append(sets["device-detector"], c.UA)
		}
	}
	for _, c := range loadDev(t) {
		if !c.ClientHints && splitPart(yauaaSalt, c.UA) == partCheck {
			sets["yauaa-dev"] = append(sets["yauaa-dev"], c.UA)
		}
	}
	for name, want := range frozenCheck {
		got := sets[name]
		if fp := partFingerprint(got); len(got) != want.cases || fp != want.fingerprint {
			t.Errorf("%s check part: %d cases, fingerprint %s; frozen at %d cases, %s",
				name, len(got), fp, want.cases, want.fingerprint)
		}
	}
}

// ---------------------------------------------------------------------------
// Mapping device-detector's names to Weir's attributes.

// ddDeviceClass maps device.type to the DeviceClass values that mean the
// same. A phablet is a phone to Yauaa; a feature phone is a Phone or, when
// its user agent names no model, a Mobile.
var ddDeviceClass = map[string][]string{
	"smartphone":            {"Phone"},
	"phablet":               {"Phone"},
	"feature phone":         {"Phone", "Mobile"},
	"tablet":                {"Tablet"},
	"desktop":               {"Desktop"},
	"tv":                    {"TV", "Set-top box"},
	"console":               {"Game Console", "Handheld Game Console"},
	"wearable":              {"Watch", "Virtual Reality", "Augmented Reality"},
	"car browser":           {"Car"},
	"smart speaker":         {"Voice"},
	"smart display":         {"Smart Display"},
	"portable media player": {"Handheld", "Mobile"},
	"camera":                {"Camera"},
}

// ddAgentName maps client names that name the same product differently.
// Only naming conventions belong here, never a different product.
var ddAgentName = map[string][]string{
	"Chrome Mobile":           {"Chrome"},
	"Chrome Mobile iOS":       {"Chrome"},
	"Mobile Safari":           {"Safari"},
	"Firefox Mobile":          {"Firefox"},
	"Firefox Mobile iOS":      {"Firefox"},
	"Firefox Focus":           {"Firefox Focus", "Firefox"},
	"Opera":                   {"Opera", "Opera Mobile", "Opera Mini"},
	"Opera Mobile":            {"Opera Mobile", "Opera"},
	"Opera Devices":           {"Opera", "Opera TV", "Opera Devices"},
	"Samsung Browser":         {"SamsungBrowser", "Samsung Internet"},
	"Samsung Browser Lite":    {"SamsungBrowser"},
	"Microsoft Edge":          {"Edge"},
	"IE Mobile":               {"IE Mobile", "Internet Explorer"},
	"UC Browser":              {"UCBrowser"},
	"UC Browser Mini":         {"UCBrowser"},
	"UC Browser Turbo":        {"UCBrowser"},
	"Huawei Browser Mobile":   {"Huawei Browser"},
	"Mobile Silk":             {"Silk"},
	"Meizu Browser":           {"MZBrowser"},
	"T-Browser":               {"Tbrowser"},
	"Phoenix Browser":         {"PHX"},
	"vivo Browser":            {"VivoBrowser"},
	"Baidu Browser":           {"baidubrowser", "Baidu Browser"},
	"Puffin Web Browser":      {"Puffin"},
	"AdBlock Browser":         {"ABB"},
	"Seraphic Sraf":           {"Seraphic Sraf Browser"},
	"Hi Browser":              {"HiBrowser"},
	"Odin":                    {"Odin", "HiBrowser"}, // Yauaa names Hisense's Odin browser HiBrowser
	"Yandex Browser":          {"Yandex Browser", "YaBrowser"},
	"Android Browser":         {"Stock Android Browser"},
	"Openwave Mobile Browser": {"Openwave Mobile Browser", "Browser"},
	// Yauaa names these by their token: "Epiphany/3.6.1" is Epiphany,
	// "coc_coc_browser/64.4.128" Coc Coc Browser, "QwantMobile/4.0" Qwant
	// and "Puffin/4.8.0.2790AP" Puffin in its DEV cases.
	"GNOME Web":            {"GNOME Web", "Epiphany"},
	"Coc Coc":              {"Coc Coc", "Coc Coc Browser"},
	"Qwant Mobile":         {"Qwant Mobile", "Qwant"},
	"Puffin Cloud Browser": {"Puffin Cloud Browser", "Puffin"},
	// "Whale/3.20.182.14" is Whale in Yauaa's DEV cases.
	"Whale Browser": {"Whale Browser", "Whale"},
	// BlackBerry's own browser sends Safari's syntax, "Version/6.0.0.587
	// Mobile Safari/534.8+", which Yauaa names Safari at the Version/
	// release in its DEV case of the BlackBerry 9780; Nokia's browser
	// for Symbian, "BrowserNG/7.2.8.10", Yauaa names BrowserNG (its
	// NokiaN8-00 case).
	"BlackBerry Browser": {"BlackBerry Browser", "Safari"},
	"Nokia Browser":      {"Nokia Browser", "BrowserNG"},
	// More names by the token (see OculusBrowser above): "Soul/4.0",
	// "Odd/47.2.1.1", "WIB/0.9.8", "OWB/1.23", "Espial/6.0.4",
	// "Nuanti/2.0", "DuckDuckGo/7", "GOGGalaxyClient/2.0.17.61",
	// "Puffin/8.2.4.705LD" (Yauaa's "Puffin/4.8.0.2790AP" is Puffin),
	// "YaBrowser/21.1.0.188 (lite)" (Yauaa's browser tag YaBrowser is
	// Yandex Browser).
	"Soul Browser":               {"Soul Browser", "Soul"},
	"Odd Browser":                {"Odd Browser", "Odd"},
	"Wear Internet Browser":      {"Wear Internet Browser", "WIB"},
	"Odyssey Web Browser":        {"Odyssey Web Browser", "OWB"},
	"Espial TV Browser":          {"Espial TV Browser", "Espial"},
	"Nuanti Meta":                {"Nuanti Meta", "Nuanti"},
	"DuckDuckGo Privacy Browser": {"DuckDuckGo Privacy Browser", "DuckDuckGo"},
	"GOG Galaxy":                 {"GOG Galaxy", "GOGGalaxyClient"},
	"Puffin Secure Browser":      {"Puffin Secure Browser", "Puffin"},
	"Yandex Browser Lite":        {"Yandex Browser Lite", "Yandex Browser"},
	// AOL's client on the Internet Explorer it embeds ("(compatible;
	// MSIE 3.02; Update a; AOL 3.0; Windows 95)" is AOL 3 in Yauaa's DEV
	// case).
	"AOL Explorer": {"AOL Explorer", "AOL"},
}

// ddOSName maps operating system names.
var ddOSName = map[string][]string{
	"Mac":           {"Mac OS", "Mac OS X"},
	"GNU/Linux":     {"Linux"},
	"Windows":       {"Windows NT", "Windows", "Windows 9x"},
	"Fire OS":       {"FireOS"},
	"BlackBerry OS": {"RIM OS", "BlackBerry OS"},
	"iPadOS":        {"iOS", "iPadOS"},
	"Symbian":       {"Symbian", "SymbianOS"},
	"Symbian OS":    {"Symbian", "SymbianOS"},
	"Symbian^3":     {"Symbian", "SymbianOS"},
	// Yauaa names the system of "SymbianOS/9.2; U; Series60/3.1"
	// SymbianOS in its DEV cases, and Gentoo's "Gentoo Linux"
	// ("(X11; Gentoo 2.7; Linux 5.10; x86_64; ...)").
	"Symbian OS Series 60": {"Symbian OS Series 60", "SymbianOS"},
	"Gentoo":               {"Gentoo", "Gentoo Linux"},
	// Yauaa names no system from a phone's Java profile alone
	// ("ZTE-Z431/1.4.0 NetFront/4.2 QTV5.1 Profile/MIDP-2.1
	// Configuration/CLDC-1.1" and "Nokia2320c-2b/2.0(ATT.11.10)
	// Profile/MIDP-2.1 Configuration/CLDC-1.1" are Unknown in its DEV
	// cases), and Java where the browser says it runs on Java
	// ("UCWEB/2.0 (Java; U; MIDP-2.0; Nokia203/20.37)" is Java there).
	"Java ME": {"Java ME", "JVM", "Java", Unknown},
	// Systems built on Android that Yauaa names Android.
	"Android TV":   {"Android TV", "Android"},
	"Wear OS":      {"Wear OS", "Android"},
	"CyanogenMod":  {"CyanogenMod", "Android"},
	"Lineage OS":   {"Lineage OS", "Android"},
	"MocorDroid":   {"MocorDroid", "Android"},
	"Smartisan OS": {"Smartisan OS", "Android"},
	// "Android 8.1.0; rr_fortuna3g": Resurrection Remix, a system
	// built on Android as Lineage OS is.
	"Resurrection Remix OS": {"Resurrection Remix OS", "Android"},
	// Opera's television platform, which names its system "Linux mips"
	// ("Opera/9.80 (Linux mips; ) Presto/2.12.407 ... MB95/3.6.3.J"):
	// Yauaa names the system Linux in its Opera TV Store cases.
	"Opera TV": {"Opera TV", "Linux"},
	// Yauaa names Solaris by the name it writes, "SunOS" ("(X11; I;
	// SunOS 5.8 sun4u)" is SunOS 5.8 in its DEV cases).
	"Solaris": {"Solaris", "SunOS"},
	// Yauaa's names in its DEV cases: "(Maemo; Linux; U; Sailfish;
	// Mobile; rv:38.0)" is Sailfish, "(PlayBook; U; RIM Tablet OS
	// 2.0.1; en-US)" RIM Tablet OS, and "(BeOS; U; Haiku BePC; en-US;
	// ...)" BeOS/Haiku.
	"Sailfish OS":          {"Sailfish OS", "Sailfish"},
	"BlackBerry Tablet OS": {"BlackBerry Tablet OS", "RIM Tablet OS"},
	"BeOS":                 {"BeOS", "BeOS/Haiku"},
	"Haiku OS":             {"Haiku OS", "BeOS/Haiku"},
}

// ddEngineName maps layout engine names: device-detector's WebKit is
// Yauaa's AppleWebKit, its Edge is EdgeHTML, and its Trident is also what
// Yauaa calls the engine of an Internet Explorer that does not write
// "Trident/" ("MSIE 6.0; Windows NT 5.0", 75 Yauaa DEV cases).
var ddEngineName = map[string][]string{
	"WebKit":  {"AppleWebKit"},
	"Edge":    {"EdgeHTML"},
	"Trident": {"Trident", "Internet Explorer", "Internet Explorer Mobile"},
}

// ddBrand maps brand names that differ only in spelling.
var ddBrand = map[string][]string{
	"Tecno Mobile":  {"Tecno"},
	"Sony Ericsson": {"SonyEricsson"},
	"RIM":           {"BlackBerry", "RIM"},
	// Yauaa, and Weir with it, names Honor's phones Huawei's and POCO's
	// and Redmi's Xiaomi's: the maker, not the sub-brand.
	"Honor": {"Honor", "Huawei"},
	// Yauaa spells Ulefone "Ulephone".
	"Ulefone": {"Ulefone", "Ulephone"},
	// Yauaa names ComTrade's Tesla phones by their own brand, and
	// Positivo's phones made with BGH for Argentina by Positivo.
	"ComTrade Tesla": {"ComTrade Tesla", "Tesla"},
	"Positivo BGH":   {"Positivo BGH", "Positivo"},
	"POCO":           {"POCO", "Xiaomi"},
	"Redmi":          {"Redmi", "Xiaomi"},
}

// ddSubBrands are device-detector's brands that are a maker's sub-brand,
// by maker.
var ddSubBrands = map[string]string{"POCO": "Xiaomi", "Redmi": "Xiaomi"}

func ddAccept(m map[string][]string, v string) []string {
	if alt, ok := m[v]; ok {
		return alt
	}
	return []string{v}
}

// ddMajor is the part of a version before the first dot.
func ddMajor(v string) string {
	if i := strings.IndexAny(v, "._"); i >= 0 {
		return v[:i]
	}
	return v
}

// ddExpected returns, per attribute, the values that agree with the case.
// An empty device-detector field means "not known" there and is not scored.
func ddExpected(c ddCase) map[string][]string {
	exp := map[string][]string{}
	if c.Bot != nil {
		// Device-detector files every automated client among its bots,
		// attack tools and federated servers too; Yauaa has classes of
		// its own for those: Hacker for an attack tool or probe
		// ("${jndi:ldap://...}", "sqlmap/1.0-dev" in its DEV cases) and
		// a Cloud device with a Server agent for a federated server
		// ("Synapse/1.68.0", "http.rb/5.1.0 (Mastodon/4.0.2; +https://...)").
		exp["DeviceClass"] = []string{"Robot", "Robot Mobile", "Robot Imitator", "Cloud", "Hacker"}
		exp["AgentClass"] = []string{"Robot", "Robot Mobile", "Robot Imitator", "Cloud Application", "Special", "Hacker", "Server"}
		return exp
	}
	if v, ok := ddDeviceClass[c.Device["type"]]; ok {
		exp["DeviceClass"] = v
		if (v[0] == "Phone" || v[0] == "Tablet") && ddHandheldUnsaid(c.UA) {
			// Yauaa calls a handheld Mobile when its user agent does
			// not say which kind it is: Android apps and runtimes
			// ("Dalvik/2.1.0 (Linux; U; Android 9; ANE-LX1 ...)"),
			// Windows CE and MIDP phones.
			exp["DeviceClass"] = append(v[:len(v):len(v)], "Mobile")
		}
		if c.Device["type"] == "tablet" && ddReaderScreen(c.UA) {
			// Device-detector has no class of e-ink readers; Yauaa's is
			// eReader ("Kindle/3.0 (screen 600x800; rotate)").
			exp["DeviceClass"] = append(v[:len(v):len(v)], "eReader")
		}
		if c.Device["type"] == "portable media player" && strings.Contains(c.UA, "iPod") {
			// Yauaa classes the iPod and the iPod touch as phones.
			exp["DeviceClass"] = append(v[:len(v):len(v)], "Phone")
		}
	}
	if b := c.Device["brand"]; b != "" {
		brands := ddAccept(ddBrand, b)
		if k := strings.LastIndex(b, " ("); k > 0 && strings.HasSuffix(b, ")") && len(b)-k <= 6 {
			// Device-detector tells two makers of one name apart by
			// their country ("MyPhone (PH)", "myPhone (PL)"); the brand
			// the devices and Yauaa write has no such qualifier.
			brands = append(brands[:len(brands):len(brands)], b[:k])
		}
		exp["DeviceBrand"] = brands
		// Device-detector names many models by what they are sold as
		// ("Galaxy S9"), Yauaa by the code in the user agent
		// ("SM-G960F"); DeviceName is scored only when the model is
		// written in the user agent as it is, and then must be the brand
		// and that model (spaces, dashes and case aside).
		if m := c.Device["model"]; m != "" && ddWritten(c.UA, m, b) {
			var names []string
			for _, b := range brands {
				names = append(names, b+" "+m)
			}
			if maker, ok := ddSubBrands[b]; ok {
				// Yauaa names a sub-brand's phone after the maker with
				// the sub-brand kept in the model ("Xiaomi Pocophone
				// F1", "Xiaomi Redmi 7A" in its DEV cases), where
				// device-detector's model leaves the sub-brand out.
				names = append(names, maker+" "+b+" "+m)
			}
			exp["DeviceName"] = append(names, m)
		}
	}
	if n := c.OS["name"]; n != "" {
		exp["OperatingSystemName"] = ddAccept(ddOSName, n)
		switch {
		case n == "Android" && c.Device["brand"] == "Amazon":
			// Yauaa names the Android of Amazon's devices FireOS ("Android
			// 4.2.2; Amazon Kindle Fire Build/JDQ39E" is FireOS 4.2.2 in
			// its DEV case); device-detector the older ones Android.
			exp["OperatingSystemName"] = append(exp["OperatingSystemName"], "FireOS")
		case n == "webOS" && strings.Contains(c.UA, "hpwOS/"):
			// HP's webOS, "(hp-tablet; Linux; hpwOS/3.0.5; U; en-US)", is
			// HP WebOS in Yauaa's DEV case.
			exp["OperatingSystemName"] = append(exp["OperatingSystemName"], "HP WebOS")
		case n == "Meta Horizon":
			// Meta's headsets send the Android or the desktop Linux their
			// system is built on, which Yauaa names ("(Linux; Android
			// 7.1.1; Pacific) ... OculusBrowser/10.16" is Android 7.1.1 and
			// "(X11; Linux x86_64; Quest) ... OculusBrowser/22.2" Linux in
			// its DEV cases).
			if strings.Contains(c.UA, "Android ") {
				exp["OperatingSystemName"] = append(exp["OperatingSystemName"], "Android")
			} else if strings.Contains(c.UA, "Linux") {
				exp["OperatingSystemName"] = append(exp["OperatingSystemName"], "Linux")
			}
		}
		if n == "GNU/Linux" && (strings.Contains(c.UA, "VIDAA") || strings.Contains(c.UA, "Hisense")) {
			// Hisense's Linux for televisions, which Yauaa names Vidaa in
			// all its VIDAA cases and in its Hisense cases that do not
			// write VIDAA ("OPR/40.0.2207.0 OMI/4.9.0.237.Martell-2.312
			// Model/Hisense-MT5658-SDK4", "SRAF/4.0
			// Hisense-MSD6886(Hisense;...").
			exp["OperatingSystemName"] = []string{"Linux", "Vidaa"}
		}
		if v := c.OS["version"]; v != "" {
			exp["OperatingSystemVersion"] = []string{v, ">=" + v}
			if k := strings.LastIndexByte(v, '.'); k > 0 && strings.Contains(c.UA, "Darwin/") {
				// Yauaa reads Apple's systems from a Darwin version and
				// writes the release it cannot tell with a question mark
				// ("CFNetwork/673.2.1 Darwin/13.1.0" is Mac OS 10.9.? and
				// "CFNetwork/978.0.7 Darwin/18.7.0" iOS 12.? in its DEV
				// cases); device-detector gives a point release.
				exp["OperatingSystemVersion"] = append(exp["OperatingSystemVersion"], v[:k]+".?")
				if strings.Count(v, ".") == 1 {
					// Yauaa writes the first release of a Darwin version
					// with its point release, ".0" ("Darwin/18.2.0
					// (x86_64)" is Mac OS 10.14.1 in its DEV case, so
					// Darwin/19.0.0 is 10.15.0); device-detector 10.15.
					exp["OperatingSystemVersion"] = append(exp["OperatingSystemVersion"], v+".0")
				}
			}
			if n == "webOS" {
				// Yauaa writes a webOS TV release by its major number
				// ("Web0S ... Chrome/68.0.3440.106 ... WebAppManager" is
				// WebOS 5.x in its DEV case), as the Chromium version it
				// reads it from is shared by the point releases of one
				// major (Chrome 38 by webOS 3.0 and 3.5); device-detector
				// 5.0.
				exp["OperatingSystemVersion"] = append(exp["OperatingSystemVersion"], ddMajor(v)+".x")
			}
			if n == "webOS" && strings.Contains(c.UA, "Web0S") && (!strings.Contains(c.UA, "WebAppManager") || !strings.Contains(c.UA, " Chrome/")) {
				// Yauaa reads a webOS TV release only from the Chromium
				// version of the web app runtime's agent ("Chrome/68.0
				// ... WebAppManager"); LG's browser, which
				// device-detector dates by its "webOS.TV-2020" token, has
				// no version in Yauaa's answer ("LG Browser/7.00.00(LGE;
				// WEBOS1; ...); webOS.TV-2014" is WebOS ?? in its DEV
				// case), nor has the first runtime, before Chromium
				// ("AppleWebKit/537.41 ... Large Screen WebAppManager
				// Safari/537.41", WebOS ?? in its DEV case).
				exp["OperatingSystemVersion"] = append(exp["OperatingSystemVersion"], Unknown)
			}
			if k := strings.Index(c.UA, "SymbianOS/"); k >= 0 && n == "Symbian OS Series 60" {
				// Yauaa gives the SymbianOS release, device-detector the
				// Series 60 platform's ("SymbianOS/9.2; U; Series60/3.1"
				// is SymbianOS 9.2 in its DEV cases).
				sv := c.UA[k+len("SymbianOS/"):]
				if e := strings.IndexAny(sv, ";) "); e >= 0 {
					sv = sv[:e]
				}
				exp["OperatingSystemVersion"] = append(exp["OperatingSystemVersion"], sv)
			}
			if n == "Fire OS" || n != "Android" && slices.Contains(ddOSName[n], "Android") {
				// Yauaa gives Fire OS the release of the Android it is
				// built on ("Android 5.1.1; AFTT" is FireOS 5.1.1 in its
				// DEV cases); device-detector Fire OS's own (5). The
				// systems built on Android that Yauaa names Android
				// (CyanogenMod, Lineage OS, MocorDroid, ...) have no rule
				// of Yauaa's: its Android rules give the release written
				// after "Android" ("Android 2.3.7; ...; CyanogenMod-7.2.0"
				// is Android 2.3.7); device-detector the custom system's
				// own (7.2.0).
				if k := strings.Index(c.UA, "Android "); k >= 0 {
					av := c.UA[k+len("Android "):]
					if e := strings.IndexAny(av, ";) "); e >= 0 {
						av = av[:e]
					}
					exp["OperatingSystemVersion"] = append(exp["OperatingSystemVersion"], av)
				}
			}
			if n == "Nintendo" || n == "Nintendo Mobile" {
				// Yauaa's release of a Nintendo system is the console's
				// name ("(Nintendo Switch; WifiWebAuthApplet)" is
				// Nintendo at Nintendo Switch in its DEV case);
				// device-detector's the model alone (Switch).
				exp["OperatingSystemVersion"] = append(exp["OperatingSystemVersion"], "Nintendo "+v)
			}
			if n == "Windows" && v == "10" {
				// Windows 10 and 11 both say "Windows NT 10.0"; Yauaa
				// gives the version as written.
				exp["OperatingSystemVersion"] = append(exp["OperatingSystemVersion"], "10.0")
			}
			if k := strings.Index(c.UA, " Chrome/"); k >= 0 && n == "Chrome OS" && strings.Contains(c.UA, "CrOS ") {
				// Yauaa's release of Chrome OS is the browser's Chrome
				// version ("(X11; CrOS x86_64 13904.97.0) ...
				// Chrome/91.0.4472.167" is Chrome OS 91.0.4472.167 in its
				// DEV cases), device-detector's the platform's.
				cv := c.UA[k+len(" Chrome/"):]
				if e := strings.IndexAny(cv, " )"); e >= 0 {
					cv = cv[:e]
				}
				exp["OperatingSystemVersion"] = append(exp["OperatingSystemVersion"], cv)
			}
			if n == "BlackBerry OS" && strings.Contains(c.UA, "BlackBerry; U; BlackBerry ") {
				// Yauaa's release of BlackBerry's own browser is the
				// system's name ("(BlackBerry; U; BlackBerry 9900; nl)
				// ... Version/7.1.0.714" is RIM OS at RIM OS in its DEV
				// cases); device-detector the browser's Version/.
				exp["OperatingSystemVersion"] = append(exp["OperatingSystemVersion"], "RIM OS")
			}
		}
		ddTVSystemConventions(c.UA, n, exp)
	}
	if c.Client["type"] == "browser" {
		if n := c.Client["name"]; n != "" {
			exp["AgentName"] = ddAccept(ddAgentName, n)
			if n == "Dolphin" && strings.Contains(c.UA, "Dolfin/") {
				// Samsung's browser of Bada, "Dolfin/2.0", which Yauaa
				// names as it spells itself.
				exp["AgentName"] = []string{"Dolphin", "Dolfin"}
			}
			if n == "Opera Mobile" && ddOperaMiniBuild(c.UA) {
				// Opera Mini for Android sends the Chromium version of
				// the system's web view and its own build 2254
				// ("OPR/43.2.2254.140293"); Yauaa names it Opera Mini.
				exp["AgentName"] = append(append([]string(nil), exp["AgentName"]...), "Opera Mini")
			}
			if v := c.Client["version"]; v != "" {
				exp["AgentVersionMajor"] = []string{ddMajor(v)}
				if strings.Contains(c.UA, "/v"+v) {
					// Yauaa keeps a version's "v" as written
					// ("MJ12bot/v1.4.8" is major v1 in its DEV cases).
					exp["AgentVersionMajor"] = append(exp["AgentVersionMajor"], "v"+ddMajor(v))
				}
			}
			if k := strings.Index(c.UA, " Edge/"); k >= 0 && n == "Microsoft Edge" && strings.HasPrefix(c.UA[k+len(" Edge/"):], c.Client["version"]) {
				// Legacy Edge sends its EdgeHTML version ("Edge/13.10586"),
				// which device-detector gives; Yauaa gives the Edge
				// release that shipped it (25), from Microsoft's list in
				// tables/edge_versions.tsv.
				ensureModel()
				build := c.UA[k+len(" Edge/"):]
				if e := strings.IndexAny(build, " ;)"); e >= 0 {
					build = build[:e]
				}
				if v, ok := edgeVersions[build]; ok {
					exp["AgentVersionMajor"] = append(exp["AgentVersionMajor"], ddMajor(v))
				} else if v := edgeHTMLToEdge[ddMajor(build)]; v != "" {
					exp["AgentVersionMajor"] = append(exp["AgentVersionMajor"], v)
				}
			}
			if k := strings.Index(c.UA, " OPR/"); k >= 0 && n == "Opera Devices" && strings.Contains(c.UA, " OMI/") {
				// Opera for devices gives its own version in "OMI/4.21"
				// and the Opera it is built on in "OPR/46.0"; Yauaa's
				// cases answer Opera 46, device-detector's Opera Devices
				// 4.
				exp["AgentVersionMajor"] = append(exp["AgentVersionMajor"], ddMajor(c.UA[k+len(" OPR/"):]))
			}
			if (n == "Chrome" || n == "Safari") && strings.Contains(c.UA, "Web0S") && strings.Contains(c.UA, "WebAppManager") {
				// The web app runtime of LG's webOS televisions, which
				// device-detector names after the Chrome or Safari token
				// it sends and Yauaa LG Browser at the webOS release the
				// Chromium version tells ("Web0S ... Chrome/68.0.3440.106
				// Safari/537.36 WebAppManager" is LG Browser 5.x in its
				// DEV case).
				ensureModel()
				exp["AgentName"] = append(exp["AgentName"], "LG Browser")
				if k := strings.Index(c.UA, " Chrome/"); k >= 0 && exp["AgentVersionMajor"] != nil {
					if r, ok := webOSTVReleases[ddMajor(c.UA[k+len(" Chrome/"):])]; ok {
						exp["AgentVersionMajor"] = append(exp["AgentVersionMajor"], ddMajor(r))
					}
				}
			}
			if k := strings.Index(c.UA, " UCBrowser/"); k >= 0 && n == "UC Browser Turbo" {
				// UC Browser Turbo writes its own version in "UCTurbo/1.10.3"
				// after the UC Browser it is built on; Yauaa's UC Browser
				// rule takes the version of the UCBrowser product
				// ("UCBrowser/11.2.0.863" is UCBrowser 11 in its DEV case),
				// device-detector UCTurbo's.
				exp["AgentVersionMajor"] = append(exp["AgentVersionMajor"], ddMajor(c.UA[k+len(" UCBrowser/"):]))
			}
			// The analyzer reads tokens whatever their case, so the
			// conventions below look for them in the lower case user
			// agent (same byte offsets): a user agent written wholly in
			// lower case ("... version/4.0 chrome/30.0.0.0 mobile
			// safari/537.36") follows them too.
			low := asciiLower(c.UA)
			if k := strings.Index(low, " chrome/"); k >= 0 && n == "QtWebEngine" {
				// Yauaa names the Chromium inside Qt's web engine Chrome,
				// with Chromium's version ("QtWebEngine/5.15.2
				// Chrome/83.0.4103.122" is Chrome 83 in its OS/2 case).
				exp["AgentName"] = []string{"QtWebEngine", "Chrome"}
				exp["AgentVersionMajor"] = append(exp["AgentVersionMajor"], ddMajor(c.UA[k+len(" Chrome/"):]))
			}
			if k := strings.Index(low, " chrome/"); k >= 0 && (strings.Contains(low, "; wv)") || strings.Contains(low, "; wv applewebkit/") ||
				strings.Contains(low, "version/4.0 chrome/") && strings.Contains(low, "android")) {
				// Device-detector names the app inside an Android web
				// view; Yauaa names the web view (and the app in
				// WebviewAppName). An Android app's browser whose agent
				// is a web view's without the "wv" entry ("Version/4.0
				// Chrome/57.0.2987.108 Quark/2.4.5.934", "Version/4.0
				// Chrome/33.0.0.0 Mobile Safari/537.36; leidianbrowser
				// (100.0.2)") Yauaa names Chrome Webview too. A proxy may
				// have stripped the parentheses ("...; wv
				// AppleWebKit/537.36").
				exp["AgentName"] = append(exp["AgentName"], "Chrome Webview")
				if exp["AgentVersionMajor"] != nil {
					exp["AgentVersionMajor"] = append(exp["AgentVersionMajor"], ddMajor(c.UA[k+len(" Chrome/"):]))
				}
			}
			if k := strings.Index(c.UA, " QQ/"); k >= 0 && n == "QQ Browser" && strings.Contains(c.UA, "_SQ_") {
				// The QQ app's pages, in the QQ browser engine it embeds
				// ("MQQBrowser/6.2 TBS/043670 ... V1_AND_SQ_7.2.0_730_YYB_D
				// QQ/7.2.0.3270"), which Yauaa names QQ Client at the
				// app's version in its DEV cases; device-detector names
				// QQ Browser at the engine's.
				exp["AgentName"] = append(exp["AgentName"], "QQ Client")
				if exp["AgentVersionMajor"] != nil {
					exp["AgentVersionMajor"] = append(exp["AgentVersionMajor"], ddMajor(c.UA[k+len(" QQ/"):]))
				}
			}
			if n == "Firefox" {
				// Firefox's test builds under their code names, which
				// Yauaa names as written ("Namoroka/3.6.3",
				// "Shiretoko/3.3.3" and "Minefield/3.2a1" in its DEV
				// cases).
				for _, code := range []string{"GranParadiso", "Shiretoko", "Minefield", "Namoroka"} {
					if strings.Contains(c.UA, " "+code+"/") {
						exp["AgentName"] = append(exp["AgentName"], code)
					}
				}
			}
			if n == "Chrome Webview" && ddSamsungStockChrome(c.UA) {
				// Samsung's browser before it sent "SamsungBrowser/"
				// writes its own version where a web view writes 4.0
				// ("SAMSUNG SM-N915G ... Version/2.0 Chrome/34.0.1847.76",
				// Chrome 34 in Yauaa's DEV case); device-detector calls it
				// Chrome Webview.
				exp["AgentName"] = append(exp["AgentName"], "Chrome")
			}
		}
		if e := c.Client["engine"]; e != "" {
			exp["LayoutEngineName"] = ddAccept(ddEngineName, e)
			if v := c.Client["engine_version"]; v != "" {
				exp["LayoutEngineVersionMajor"] = []string{ddMajor(v)}
			}
			ddEngineConventions(c.UA, e, exp)
		}
		if k := strings.Index(c.UA, " PocketBook/"); k >= 0 && strings.Contains(c.UA, "(screen ") {
			// Yauaa names a PocketBook reader's browser and its engine
			// after the reader, at its model number ("AppleWebKit/534.34
			// PocketBook/626 (screen 758x1024; ...)" is PocketBook 626
			// for both in its DEV cases).
			model := ddMajor(c.UA[k+len(" PocketBook/"):])
			if e := strings.IndexAny(model, " ;)"); e >= 0 {
				model = model[:e]
			}
			for _, n := range []string{"AgentName", "LayoutEngineName"} {
				if exp[n] != nil {
					exp[n] = append(exp[n], "PocketBook")
				}
			}
			for _, n := range []string{"AgentVersionMajor", "LayoutEngineVersionMajor"} {
				if exp[n] != nil {
					exp[n] = append(exp[n], model)
				}
			}
		}
		if strings.HasPrefix(c.UA, "Dalvik/") && !strings.Contains(c.UA, "AppleWebKit") {
			// Device-detector takes a bare Dalvik runtime for the Android
			// browser on WebKit; Yauaa names no agent and no engine there.
			for _, n := range []string{"AgentName", "LayoutEngineName"} {
				if exp[n] != nil {
					exp[n] = append(exp[n], Unknown)
				}
			}
			delete(exp, "AgentVersionMajor")
			delete(exp, "LayoutEngineVersionMajor")
		}
	}
	return exp
}

// ddTVSystemConventions adds Yauaa's names of television systems that
// device-detector names otherwise, each as Yauaa's DEV cases answer:
//   - Philips' NETTV ("CE-HTML/1.0 NETTV/4.0.2", device-detector's Linux)
//     is NETTV, and Loewe's ("HbbTV/1.1.1 (; LOEWE; SL32x;
//     LOH/1.1.6.27;;)") LOH;
//   - Samsung's Orsay ("Linux/SmartTV+2015; Maple2012") and the Whale OS
//     of Zeasn's browser ("Zeasn/2.0 NETTV/4.5.0 Mozilla/5.0 (Linux
//     armv7i; ...) ... Tbrowser/2.0") are the Linux they send.
func ddTVSystemConventions(ua, name string, exp map[string][]string) {
	switch {
	case name == "GNU/Linux" && strings.Contains(ua, "NETTV/") && !strings.Contains(ua, "Zeasn/"):
		exp["OperatingSystemName"] = append(exp["OperatingSystemName"], "NETTV")
	case name == "GNU/Linux" && strings.Contains(ua, "LOH/"):
		exp["OperatingSystemName"] = append(exp["OperatingSystemName"], "LOH")
	case (name == "Orsay" || name == "Whale OS") && strings.Contains(ua, "Linux"):
		exp["OperatingSystemName"] = append(exp["OperatingSystemName"], "Linux")
		if name == "Whale OS" && exp["OperatingSystemVersion"] != nil {
			// Whale OS's release is not written in the Linux agent it
			// sends: Yauaa's Linux has none ("Zeasn/2.0 NETTV/4.5.0
			// Mozilla/5.0 (Linux;CE-HTML/1.0;U;en), ... Tbrowser/2.0" is
			// Linux ?? in its DEV cases).
			exp["OperatingSystemVersion"] = append(exp["OperatingSystemVersion"], Unknown)
		}
	case name == "PlayStation":
		// Yauaa names the system of each PlayStation after the console:
		// the PlayStation 4's Orbis OS and the PlayStation 5's PS5 OS
		// (its DEV cases "(PlayStation; PlayStation 4/11.52)" and
		// "(PlayStation 5 2.03)"), at the firmware version as written;
		// device-detector writes the console's number before it
		// ("PlayStation 4 1.52" is its 4.1.52).
		for _, c := range []struct{ model, system string }{{"PlayStation 4", "Orbis OS"}, {"PlayStation 5", "PS5 OS"}} {
			if !strings.Contains(ua, c.model) {
				continue
			}
			exp["OperatingSystemName"] = append(exp["OperatingSystemName"], c.system)
			prefix := c.model[len(c.model)-1:] + "."
			for _, v := range exp["OperatingSystemVersion"] {
				if strings.HasPrefix(v, prefix) {
					exp["OperatingSystemVersion"] = append(exp["OperatingSystemVersion"], v[len(prefix):])
					break
				}
			}
		}
	}
}

// ddSamsungStockChrome reports a "Version/<v> Chrome/" agent without the
// "wv" entry whose version is not the web view's 4.0.
func ddSamsungStockChrome(ua string) bool {
	k := strings.Index(ua, " Chrome/")
	v := strings.LastIndex(ua[:max(k, 0)], "Version/")
	if k < 0 || v < 0 || strings.Contains(ua, "; wv") {
		return false
	}
	return !strings.HasPrefix(ua[v:], "Version/4.0 ")
}

// ddEngineConventions adds Yauaa's names of three engines that
// device-detector names by what they are built on, each as Yauaa's own
// cases answer:
//   - UC Browser's own engines, "U3/0.8.0" and "U2/1.0.0", which
//     device-detector calls WebKit with the AppleWebKit version: Yauaa's
//     engine is "UCBrowser U3" (or U2) with the U3 version;
//   - the MediaTek reference browsers' "Browser/AppleWebKit534.30", whose
//     version Yauaa takes as written, "AppleWebKit534.30" (major
//     "AppleWebKit534");
//   - Amazon's Silk ("Silk/93.3.46 like Chrome/93.0") and LG's webOS
//     browser ("Chr0me/68.0"), which device-detector calls Blink: Yauaa
//     reads no Chrome there, and answers AppleWebKit 537.
func ddEngineConventions(ua, engine string, exp map[string][]string) {
	for _, u := range []string{"U3/", "U2/"} {
		if k := strings.Index(ua, " "+u); k >= 0 && engine == "WebKit" {
			exp["LayoutEngineName"] = append(exp["LayoutEngineName"], "UCBrowser "+u[:2])
			exp["LayoutEngineVersionMajor"] = append(exp["LayoutEngineVersionMajor"], ddMajor(ua[k+1+len(u):]))
			return
		}
	}
	if k := strings.Index(ua, "UCBrowser/"); k >= 0 && engine == "WebKit" {
		// UC Browser's own engine, without a U2 or U3 token, which Yauaa
		// names after the browser, with its version, whatever WebKit
		// the agent writes ("AppleWebKit/528.5+ ... UCBrowser/9.0.2.389"
		// and "AppleWebKit/537.51.1 ... UCBrowser/11.2.0.863" are
		// UCBrowser 9 and 11 in its DEV cases).
		exp["LayoutEngineName"] = append(exp["LayoutEngineName"], "UCBrowser")
		exp["LayoutEngineVersionMajor"] = append(exp["LayoutEngineVersionMajor"], ddMajor(ua[k+len("UCBrowser/"):]))
		return
	}
	if k := strings.Index(strings.ToLower(ua), "browser/applewebkit"); k >= 0 && engine == "WebKit" {
		// (Some write "Browser/AppleWebkit533.1", which Yauaa also takes
		// as written.)
		exp["LayoutEngineVersionMajor"] = append(exp["LayoutEngineVersionMajor"], ua[k+len("Browser/"):k+len("Browser/AppleWebKit")]+ddMajor(ua[k+len("Browser/AppleWebKit"):]))
		return
	}
	if k := strings.IndexByte(ua, '/'); k > 0 && engine == "WebKit" && strings.Contains(ua, " CFNetwork/") {
		// An app on Apple's network library, whose engine Yauaa names
		// after the app ("MobileSafari/9537.53 CFNetwork/672.0.8
		// Darwin/14.0.0" is MobileSafari 9537 in its DEV cases). Mac OS
		// X 10.5's apps glued their version to their name before the
		// library ("Safari5533.22.3 CFNetwork/438.16"): the same app.
		app, version := ua[:k], ua[k+1:]
		if w, ok := strings.CutSuffix(app, " CFNetwork"); ok && !strings.ContainsAny(w, " (") {
			if n := strings.TrimRight(w, "0123456789."); len(n) >= 4 && n != w {
				app, version = n, w[len(n):]
			}
		}
		if !strings.ContainsAny(app, " (") {
			exp["LayoutEngineName"] = append(exp["LayoutEngineName"], app)
			if exp["LayoutEngineVersionMajor"] != nil {
				exp["LayoutEngineVersionMajor"] = append(exp["LayoutEngineVersionMajor"], ddMajor(version))
			}
			return
		}
	}
	if engine == "Blink" && (strings.Contains(ua, " Chr0me/") || strings.Contains(ua, " Silk/") && strings.Contains(ua, " like Chrome/")) &&
		strings.Contains(ua, "AppleWebKit/537.") {
		exp["LayoutEngineName"] = append(exp["LayoutEngineName"], "AppleWebKit")
		exp["LayoutEngineVersionMajor"] = append(exp["LayoutEngineVersionMajor"], "537")
	}
	if k := strings.Index(ua, "MSIE "); k >= 0 && engine == "Trident" && strings.Contains(ua, "Trident/3.") && exp["LayoutEngineVersionMajor"] != nil {
		// The Trident 3.1 of Internet Explorer 7 on Windows Phone 7,
		// whose engine Yauaa names Internet Explorer at the browser's
		// release ("MSIE 7.0; Windows Phone OS 7.0; Trident/3.1;
		// IEMobile/7.0" is Internet Explorer 7 in its DEV case).
		exp["LayoutEngineVersionMajor"] = append(exp["LayoutEngineVersionMajor"], ddMajor(ua[k+len("MSIE "):]))
	}
}

// ddHandheldUnsaid reports a user agent of Android, Windows CE or a MIDP
// phone without a Safari token (whose absence of "Mobile" is the tablet
// convention of WebKit browsers) and without a Mobile, Tablet or Phone
// word: apps, runtimes and old browsers. For that structure Yauaa's own
// cases answer Mobile: 159 of the 166 handhelds of yauaa-dev.jsonl (the
// others are Symbian and Series 40 Nokias, a "Mobile2.0" and a
// "Tablet2.0" token, one Dalvik runtime and one Opera Mini), and both of
// Facebook for Android's bracketed agents ("[FBAN/FB4A;FBAV/...]").
func ddHandheldUnsaid(ua string) bool {
	lua := strings.ToLower(ua)
	if strings.Contains(lua, "safari") {
		return false
	}
	if !strings.Contains(lua, "android") && !strings.Contains(lua, "dalvik") && !strings.Contains(ua, "FBAN/FB4A") &&
		!strings.Contains(ua, "Windows CE") && !strings.Contains(ua, "MIDP") {
		return false
	}
	for _, w := range []string{"mobile", "tablet", "phone"} {
		for k := 0; ; {
			i := strings.Index(lua[k:], w)
			if i < 0 {
				break
			}
			i += k
			end := i + len(w)
			if (i == 0 || !isWordByte(lua[i-1])) && (end == len(lua) || !isWordByte(lua[end])) {
				return false
			}
			k = end
		}
	}
	return true
}

// ddReaderScreen reports an e-ink reader's product followed by its screen
// size, "Kindle/3.0 (screen 600x800; rotate)", "PocketBook/627 (screen
// 758x1024; ...)".
func ddReaderScreen(ua string) bool {
	k := strings.Index(ua, " (screen ")
	if k < 0 {
		return false
	}
	w, h, ok := strings.Cut(strings.TrimLeft(ua[k+len(" (screen "):], " "), "x")
	return ok && w != "" && isDigits(w) && h != "" && h[0] >= '0' && h[0] <= '9' && k > 0 && ua[k-1] >= '0' && ua[k-1] <= '9'
}

// ddOperaMiniBuild reports Opera Mini's build number 2254 in an "OPR/"
// version of an Android web view ("OPR/43.2.2254.140293").
func ddOperaMiniBuild(ua string) bool {
	k := strings.Index(ua, "OPR/")
	if k < 0 || !strings.Contains(ua, "Android") {
		return false
	}
	parts := strings.SplitN(ua[k+len("OPR/"):], ".", 4)
	return len(parts) == 4 && parts[2] == "2254"
}

// ddAttributes are the attributes device-detector's fixtures score, in
// report order; its core accuracy is over all of them.
var ddAttributes = []string{
	"DeviceClass", "DeviceBrand", "DeviceName", "OperatingSystemName", "OperatingSystemVersion",
	"LayoutEngineName", "LayoutEngineVersionMajor", "AgentClass", "AgentName", "AgentVersionMajor",
}

// ddMatch reports whether the analyzer's answer is one of the wanted values:
// equal without regard to case, and for names of devices, systems and
// agents also without regard to spaces, dashes and underscores ("OculusBrowser" for
// "Oculus Browser"). An Android version may carry its update
// ("2.1-update1", device-detector's "2.1").
func ddMatch(name, got string, want []string) bool {
	if name == "OperatingSystemVersion" {
		if k := strings.Index(got, "-update"); k > 0 {
			got = got[:k]
		}
		if k := strings.Index(got, " beta"); k > 0 {
			// Yauaa names a beta of an Apple release after the release
			// ("CFNetwork/1240.0.4 Darwin/20.6.0" is iOS 14.7 beta 2 in
			// its DEV case); device-detector gives the release (14.7).
			got = strings.TrimSuffix(got[:k], ".0")
		}
	}
	if name == "DeviceName" {
		// A model device-detector names whole, with what Yauaa keeps and
		// it usually leaves out ("50LEX-8173/UTS2C", "A390 ROW",
		// "HF60LS-EU"), matches as written before each of the parts below
		// is taken off.
		brands := ddWantedBrands(want)
		matches := func(got string) bool {
			for _, w := range want {
				if strings.EqualFold(got, w) || ddSquash(got) == ddSquash(w) {
					return true
				}
			}
			// Or without the maker's tag or the kind of device in front
			// of the model.
			for _, b := range brands {
				if t := ddWithoutMakerTag(got, b); t != got && ddMatchesName(t, want) {
					return true
				}
				if t := ddWithoutKindWord(got, b); t != got && ddMatchesName(t, want) {
					return true
				}
			}
			return false
		}
		if matches(got) {
			return true
		}
		// Yauaa keeps the firmware a model carries after a slash
		// ("Samsung GT-I8190N/I8190NXXANI1"), device-detector leaves it out.
		if k := strings.IndexByte(got, '/'); k > 0 {
			got = strings.TrimSpace(got[:k])
			if matches(got) {
				return true
			}
		}
		// A sales region, a network, a memory size, a second SIM, a
		// television's variant star or Vivo's network letter after the
		// model, as the maker writes them and Yauaa
		// keeps them; device-detector names the model without them,
		// unless its model has them too, which the comparison before
		// each is taken off finds.
		for {
			t := ddWithoutVariantTag(ddWithoutRegion(got))
			if t == got {
				return false
			}
			got = t
			if matches(got) {
				return true
			}
		}
	}
	squash := name == "DeviceName" || name == "AgentName" || name == "OperatingSystemName"
	for _, w := range want {
		if strings.EqualFold(got, w) || squash && ddSquash(got) == ddSquash(w) {
			return true
		}
	}
	return false
}

// ddRegions are the sales regions a maker writes after a model
// ("TB-X606X_EEA", "S920_ROW", "MYSTERY_TV_D3155CH31_UA"), which Yauaa
// keeps in the device's name and device-detector leaves out: the same
// device sold in another market.
var ddRegions = map[string]bool{"eea": true, "row": true, "ru": true, "eu": true, "ua": true}

// ddWithoutRegion is a device's name without a trailing sales region.
func ddWithoutRegion(name string) string {
	k := strings.LastIndexAny(name, " -_")
	if k > 0 && ddRegions[strings.ToLower(name[k+1:])] {
		return name[:k]
	}
	return name
}

// ddNetworks are the networks a maker writes after a model ("Redmi Note 9
// 4G", "Studio J8 LTE", "Redmi Note 14 5G", China Mobile's TD-SCDMA
// "T8300_TD"), which Yauaa keeps in the device's name ("Xiaomi MI Note
// LTE", "Motorola Moto G54 5G", "Nokia 8110 4G", "Samsung SCH-I545 4G",
// "ATHENS15 TD" are DEV answers) and device-detector leaves out where its
// model has no network: the same device built for another network.
var ddNetworks = map[string]bool{"3g": true, "4g": true, "lte": true, "5g": true, "td": true}

// ddWithoutVariantTag is a device's name without one trailing word that
// tells a variant of the same device apart or names its kind, each kept by
// Yauaa as written and left out by device-detector: a network
// (ddNetworks), a memory size ("A10_Lite_2GB", "S19 MAX 32GB", "P13 Blue
// MAX 128 GB"), a second SIM card's slot ("Lumia 640 XL Dual SIM"), the
// star and digit a television's consumer electronics trailer writes for
// the variants of a set ("(TCL,U65P60*6,wired)"; "TCL U49P60*6" and "TCL
// 49DP60*" are DEV answers), the network letter (A, D or L) Vivo writes
// after its models ("vivo X9Plus L", "vivo X6S A"), the "TM" of the builds
// Allview and Vonino make for an operator (Google Play's list names
// "A5_Easy_TM" the A5 Easy, on the device "A5_Easy" that "A5_Easy" is),
// the operator's code and number of Bmobile's builds ("BL60_TG05",
// "BL60M_MV05"; the list names its devices "Bmobile_AX1017_TG05" and
// "Bmobile_AX1017_MV12" both AX1017), or
// the kind of device ("Scepter 8 Tablet", `Bush Spira D2 5.5" Smartphone`).
func ddWithoutVariantTag(name string) string {
	if n := len(name) - len(" dual sim"); n > 0 && strings.EqualFold(name[n:], " dual sim") {
		return name[:n]
	}
	if k := strings.IndexByte(name, '*'); k > 0 && (k+1 == len(name) || isDigits(name[k+1:])) {
		return name[:k]
	}
	k := strings.LastIndexAny(name, " -_")
	if k <= 0 {
		return name
	}
	w := strings.ToLower(name[k+1:])
	switch {
	case ddNetworks[w], w == "tm", w == "tablet", w == "smartphone":
		return name[:k]
	case len(w) == 4 && (w[:2] == "tg" || w[:2] == "mv") && isDigits(w[2:]):
		return name[:k]
	case len(w) > 2 && strings.HasSuffix(w, "gb") && isDigits(w[:len(w)-2]):
		return name[:k]
	case w == "gb":
		if j := strings.LastIndexByte(name[:k], ' '); j > 0 && isDigits(name[j+1:k]) {
			return name[:j]
		}
	case (w == "a" || w == "d" || w == "l") && k > len("vivo ") && strings.EqualFold(name[:len("vivo ")], "vivo "):
		return name[:k]
	}
	return name
}

// ddMatchesName reports whether a device's name is one of the wanted
// names, case, spaces, dashes and underscores aside.
func ddMatchesName(got string, want []string) bool {
	for _, w := range want {
		if strings.EqualFold(got, w) || ddSquash(got) == ddSquash(w) {
			return true
		}
	}
	return false
}

// ddWantedBrands are the brands the wanted names of a device start with:
// each wanted name but the last is a brand, a space and the model, which
// is the last.
func ddWantedBrands(want []string) []string {
	if len(want) < 2 {
		return nil
	}
	m := want[len(want)-1]
	var brands []string
	for _, w := range want[:len(want)-1] {
		if k := len(w) - len(m) - 1; k > 0 && w[k] == ' ' && strings.EqualFold(w[k+1:], m) {
			brands = append(brands, w[:k])
		}
	}
	return brands
}

// ddKindWords are the words naming the kind of device that makers write
// between their name and the model ("Cat Tablet StarGate 2",
// "MYSTERY_TV_D3155SH12", "Smotreshka Box 213"), which Yauaa keeps as
// written and device-detector leaves out of the model.
var ddKindWords = map[string]bool{"tablet": true, "tv": true, "box": true, "smartbox": true, "smartphone": true}

// ddWithoutKindWord is a device's name without a word of ddKindWords
// between the brand and the rest of the model.
func ddWithoutKindWord(name, brand string) string {
	if len(name) <= len(brand)+1 || name[len(brand)] != ' ' || !strings.EqualFold(name[:len(brand)], brand) {
		return name
	}
	rest := name[len(brand)+1:]
	if w, after, ok := strings.Cut(rest, " "); ok && after != "" && ddKindWords[strings.ToLower(w)] {
		return name[:len(brand)+1] + after
	}
	return name
}

// ddWithoutMakerTag is a device's name without the maker's tag that the
// model starts with, two to four letters of the maker's name in their
// order, its first letter first, before a space, a dash or an underscore
// ("OV-Vertis-02" of Overmax, "CW-Vi7" of Chuwi, "LP_Prado" of Leader
// Phone, the "MZ-" Meizu's browser writes), and without the maker's name
// the tag may be followed by ("HW-HUAWEI_C8815", "MZ-MEIZU_M5"). Yauaa
// keeps the tag in the device's name ("Meizu MZ-Meizu M5" for
// "MZ-MEIZU_M5", "Qware QW TB-1380QHD" for "QW TB-1380QHD" are DEV
// answers), device-detector leaves it out.
func ddWithoutMakerTag(name, brand string) string {
	if len(name) <= len(brand)+1 || name[len(brand)] != ' ' || !strings.EqualFold(name[:len(brand)], brand) {
		return name
	}
	rest := name[len(brand)+1:]
	i := 0
	for i < len(rest) && (rest[i] >= 'a' && rest[i] <= 'z' || rest[i] >= 'A' && rest[i] <= 'Z') {
		i++
	}
	if i < 2 || i > 4 || i+1 >= len(rest) || !strings.ContainsRune(" -_", rune(rest[i])) {
		return name
	}
	b := ddSquash(brand)
	tag := strings.ToLower(rest[:i])
	if b == "" || tag[0] != b[0] {
		return name
	}
	for k, j := 1, 1; k < len(tag); k++ {
		for j < len(b) && b[j] != tag[k] {
			j++
		}
		if j == len(b) {
			return name
		}
		j++
	}
	rest = rest[i+1:]
	if len(rest) > len(brand)+1 && strings.EqualFold(rest[:len(brand)], brand) && strings.ContainsRune(" -_", rune(rest[len(brand)])) {
		rest = rest[len(brand)+1:]
	}
	return name[:len(brand)+1] + rest
}

// ddSquash is a name in lower case without spaces, dashes and underscores.
// ddWritten reports whether the model is written in the user agent as it
// is: spaces, dashes, underscores and case aside, and as a whole, neither
// continued by another letter or digit ("Y51" is not written in "vivo
// Y51L") nor following one, unless what it follows is the brand
// ("PantechP9060"). A model of device-detector's own naming ("3", "X",
// "10") would otherwise count as written wherever its letters happen to
// stand ("5053A", "RMX3615"). For the same reason a model that starts or
// ends with a digit is not written as a part of a version number, next to
// its dot ("1" in "Android 8.1.0", "5" in "Mozilla/5.0", "11" in
// "YaBrowser/21.11.4"), nor as the release after "Android" ("12" in
// "Android 12; 2201123C", device-detector's Xiaomi 12).
func ddWritten(ua, model, brand string) bool {
	var sq []byte
	var pos []int // the index in ua of each byte of sq
	for i := 0; i < len(ua); i++ {
		c := ua[i]
		if c == ' ' || c == '-' || c == '_' {
			continue
		}
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		sq = append(sq, c)
		pos = append(pos, i)
	}
	m, b := ddSquash(model), ddSquash(brand)
	if m == "" {
		return false
	}
	for from := 0; ; {
		k := strings.Index(string(sq[from:]), m)
		if k < 0 {
			return false
		}
		k += from
		start, end := pos[k], pos[k+len(m)-1]+1
		left := start == 0 || !isWordByte(lowerASCII(ua[start-1])) || b != "" && strings.HasSuffix(string(sq[:k]), b)
		right := end == len(ua) || !isWordByte(lowerASCII(ua[end]))
		if left && right && !ddInVersion(ua, start, end) {
			return true
		}
		from = k + 1
	}
}

// ddInVersion reports whether ua[start:end], a model found written as a
// whole, is a part of a version number: it starts with a digit after a
// digit and a dot or after "Android ", or ends with a digit before a dot
// and a digit.
func ddInVersion(ua string, start, end int) bool {
	digit := func(c byte) bool { return c >= '0' && c <= '9' }
	if digit(ua[start]) {
		if start >= 2 && ua[start-1] == '.' && digit(ua[start-2]) {
			return true
		}
		if before := strings.ToLower(ua[:start]); strings.HasSuffix(before, "android ") || strings.HasSuffix(before, "android/") {
			return true
		}
	}
	return digit(ua[end-1]) && end+1 < len(ua) && ua[end] == '.' && digit(ua[end+1])
}

func ddSquash(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case ' ', '-', '_':
			return -1
		}
		if r >= 'A' && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, s)
}

// scoreDD scores one part of device-detector's fixtures.
// UAPARSE_DD_FAILURES=<attribute> (or "all") with -run TestFrozenCheckParts
// prints the tuning part's mismatches; the check part's are never printed.
func scoreDD(t *testing.T, part int) devScore {
	return scoreDDHalf(t, part, -1)
}

// ddHalfSalt splits the tuning part in two for tools/uamodelprefixes -half:
// rows derived from one half are scored on both, which shows how much of
// what they gain is memory of the cases they were made from.
const ddHalfSalt = "weir-ua-split/device-detector-tuning-halves"

// scoreDDHalf is scoreDD on one half (0 or 1) of a part, or all of it (-1).
func scoreDDHalf(t *testing.T, part, half int) devScore {
	a := New(Options{})
	d := devScore{per: map[string]score{}}
	failAttr := os.Getenv("UAPARSE_DD_FAILURES")
	for _, c := range loadDD(t) {
		if splitPart(ddSalt, c.UA) != part {
			continue
		}
		if sum := sha256.Sum256([]byte(ddHalfSalt + "\x00" + c.UA)); half >= 0 && int(sum[0]&1) != half {
			continue
		}
		d.cases++
		r := a.Analyze(c.UA)
		for name, want := range ddExpected(c) {
			got := r.Get(name)
			ok := ddMatch(name, got, want)
			if !ok && part == partTuning && (failAttr == name || failAttr == "all") {
				fmt.Printf("DDFAIL %s: got %q want %q | %s | %.200s\n", name, got, want, c.File, c.UA)
			}
			d.add(name, ok, true)
		}
	}
	return d
}

// scoreYauaaPart scores one part of the fresh split of Yauaa's DEV cases
// (UA-only cases, core attributes). UAPARSE_YAUAA_FAILURES=<attribute> (or
// "core") prints the tuning part's mismatches; the check part's are never
// printed.
func scoreYauaaPart(t *testing.T, part int) devScore {
	a := New(Options{})
	d := devScore{per: map[string]score{}}
	failAttr := os.Getenv("UAPARSE_YAUAA_FAILURES")
	for _, c := range loadDev(t) {
		if c.ClientHints || splitPart(yauaaSalt, c.UA) != part {
			continue
		}
		d.cases++
		r := a.Analyze(c.UA)
		for _, name := range coreAttributes {
			want, ok := c.Expected[name]
			if !ok {
				continue
			}
			want = expectedValue(want)
			got := r.Get(name)
			if got != want && part == partTuning && (failAttr == name || failAttr == "core") {
				fmt.Printf("YFAIL %s: got %q want %q | %s | %.200s\n", name, got, want, c.Source, c.UA)
			}
			d.add(name, got == want, true)
		}
	}
	return d
}

// checkFloors are the lowest accuracies (per cent) the frozen check parts
// may fall to: core accuracy and each attribute, set a little under the
// figures measured when the check parts were scored after a round of work.
// They are a guard against regressions, not a target to tune against: the
// check parts' failures are never printed.
var checkFloors = map[string]map[string]float64{
	"device-detector": {
		"core": 96.2, "DeviceClass": 94.7, "DeviceBrand": 86.4, "DeviceName": 88.9,
		"OperatingSystemName": 98.6, "OperatingSystemVersion": 98.8, "LayoutEngineName": 99.1,
		"LayoutEngineVersionMajor": 99.4, "AgentClass": 90.7, "AgentName": 98.6, "AgentVersionMajor": 99.3,
	},
	"yauaa-dev": {
		"core": 98.3, "DeviceClass": 98.6, "DeviceBrand": 97.7, "DeviceName": 96.5,
		"OperatingSystemClass": 99.1, "OperatingSystemName": 99.0, "OperatingSystemVersion": 98.7,
		"LayoutEngineClass": 99.2, "LayoutEngineName": 98.6, "LayoutEngineVersionMajor": 98.8,
		"AgentClass": 98.4, "AgentName": 97.0, "AgentVersionMajor": 97.8,
	},
}

// TestFrozenCheckParts scores both frozen check parts and fails below
// checkFloors. It also logs the tuning parts beside them, and the gap.
func TestFrozenCheckParts(t *testing.T) {
	parts := map[string][2]devScore{
		"device-detector": {scoreDD(t, partTuning), scoreDD(t, partCheck)},
		"yauaa-dev":       {scoreYauaaPart(t, partTuning), scoreYauaaPart(t, partCheck)},
	}
	for _, name := range []string{"device-detector", "yauaa-dev"} {
		d := parts[name]
		attrs := ddAttributes
		if name == "yauaa-dev" {
			attrs = coreAttributes
		}
		var sb strings.Builder
		fmt.Fprintf(&sb, "%s: %-26s %8s %8s\n", name, "attribute", "tuning", "check")
		for _, a := range attrs {
			fmt.Fprintf(&sb, "  %-34s %7.2f%% %7.2f%%  (%d / %d values)\n", a, d[partTuning].per[a].pct(), d[partCheck].per[a].pct(),
				d[partTuning].per[a].total, d[partCheck].per[a].total)
		}
		fmt.Fprintf(&sb, "  %-34s %7.2f%% %7.2f%%  (%d / %d cases), gap %.2f points\n", "core", d[partTuning].core.pct(),
			d[partCheck].core.pct(), d[partTuning].cases, d[partCheck].cases, d[partTuning].core.pct()-d[partCheck].core.pct())
		t.Log("\n" + sb.String())
		for a, floor := range checkFloors[name] {
			got := d[partCheck].core.pct()
			if a != "core" {
				got = d[partCheck].per[a].pct()
			}
			if got < floor {
				t.Errorf("%s check part: %s accuracy %.2f%% is below the floor %.2f%%", name, a, got, floor)
			}
		}
	}
}

// TestTuningParts scores the tuning parts only, beside nothing: it is the
// test to run while rules are written (with UAPARSE_DD_FAILURES or
// UAPARSE_YAUAA_FAILURES to print their mismatches), so that the check
// parts stay unscored until a round of work is done. It fails nothing.
func TestTuningParts(t *testing.T) {
	if os.Getenv("UAPARSE_TUNING") == "" {
		t.Skip("set UAPARSE_TUNING=1 to score the tuning parts")
	}
	for _, name := range []string{"device-detector", "yauaa-dev"} {
		var d devScore
		attrs := ddAttributes
		if name == "yauaa-dev" {
			d, attrs = scoreYauaaPart(t, partTuning), coreAttributes
		} else {
			d = scoreDD(t, partTuning)
		}
		var sb strings.Builder
		fmt.Fprintf(&sb, "%s tuning part:\n", name)
		for _, a := range attrs {
			fmt.Fprintf(&sb, "  %-34s %7.2f%%  (%d values)\n", a, d.per[a].pct(), d.per[a].total)
		}
		fmt.Fprintf(&sb, "  %-34s %7.2f%%  (%d cases)\n", "core", d.core.pct(), d.cases)
		t.Log("\n" + sb.String())
	}
	if os.Getenv("UAPARSE_DD_HALVES") == "" {
		return
	}
	// The two halves of device-detector's tuning part (see ddHalfSalt).
	h := [2]devScore{scoreDDHalf(t, partTuning, 0), scoreDDHalf(t, partTuning, 1)}
	var sb strings.Builder
	fmt.Fprintf(&sb, "device-detector tuning part by halves:\n")
	for _, a := range ddAttributes {
		fmt.Fprintf(&sb, "  %-34s %7.2f%% %7.2f%%\n", a, h[0].per[a].pct(), h[1].per[a].pct())
	}
	fmt.Fprintf(&sb, "  %-34s %7.2f%% %7.2f%%\n", "core", h[0].core.pct(), h[1].core.pct())
	t.Log("\n" + sb.String())
}
