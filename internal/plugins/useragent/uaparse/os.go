package uaparse

import "strings"

// osInfo is what the comment sections and products tell about the
// operating system. prio orders competing hints: "Windows Phone 10.0;
// Android 4.2.1" is Windows Phone, "X11; Ubuntu; Linux" is Ubuntu.
type osInfo struct {
	name, version, class string
	prio                 int
	cpu                  string
	// linux marks a Linux distribution known only by the name it gives
	// itself ("Moblin/3.5.1"), which runs on a Linux desktop.
	linux bool
}

// windowsNT names the releases of the Windows NT kernel versions
// (tables/system_releases.tsv, as are the release maps below); a
// version not listed ("4.0", "3.51") is shown as it is.
var windowsNT map[string]string

// otherOSByInitial lists the positions in otherOS of the tokens starting
// with each byte, in order, so that an entry is compared only with the
// tokens it can start with.
var otherOSByInitial [256][]int

func buildOtherOSByInitial() (t [256][]int) {
	for i, o := range otherOS {
		if o.token != "" {
			t[o.token[0]] = append(t[o.token[0]], i)
		}
	}
	return t
}

// detectOS scans every comment entry, then the products, and keeps the
// most specific hint.
func detectOS(p *parsed) osInfo {
	var best osInfo
	consider := func(o osInfo) {
		if o.name != "" && o.prio > best.prio {
			cpu := best.cpu
			best = o
			if best.cpu == "" {
				best.cpu = cpu
			}
		}
	}
	// One pass over the string tells whether any distribution name occurs,
	// so the per-entry and per-product distribution checks run only then.
	distro := p.hasAny(&distroNeedles)
	// Likewise for processor names: every answer of cpuFromEntry needs
	// one of cpuHintNeedles in the entry (TestCPUHints), so without one
	// anywhere no entry is asked.
	cpuHint := p.hasAny(&cpuHintNeedles)
	for i, e := range p.entries {
		lt := p.ltext(e)
		t := p.text(e)
		if (lt == "ipados" || lt == "ios" || lt == "watch os") && i+1 < len(p.entries) && p.entries[i+1].block == e.block {
			// "(iPadOS,15.7;...)": a comma between name and version, as
			// in the "[Watch OS,10.0,21R355,Watch7,4]" of Apple's
			// system services.
			if v := leadingVersion(p.text(p.entries[i+1])); v != "" {
				if lt == "watch os" {
					consider(osInfo{name: "watchOS", version: v, class: "Mobile", prio: 8})
				} else {
					consider(osInfo{name: "iOS", version: v, class: "Mobile", prio: 8})
				}
				continue
			}
		}
		switch lt {
		case "khtml", "like gecko", "compatible", "u", "i", "n", "wv", "mobile", "tablet", "touch", "wow64", "win64", "x64":
			if best.cpu == "" && cpuHint {
				best.cpu = cpuFromEntryOf(p, lt)
			}
			continue
		}
		consider(osFromEntry(p, lt, t, distro))
		if best.cpu == "" && cpuHint {
			best.cpu = cpuFromEntryOf(p, lt)
		}
	}
	if best.name == "" && strings.Contains(p.low, "android:") {
		// "(LenovoTB-X606X_EEA:mt8768 Android:29)": the API level.
		if k := strings.Index(p.low, "android:"); k >= 0 {
			if r := androidAPILevel(p.low[k+8:]); r != "" {
				consider(osInfo{name: "Android", version: r, class: "Mobile", prio: 7})
			}
		}
	}
	if best.name == "iOS" && strings.Contains(p.low, "apple tv") {
		best.name = "tvOS" // "(Apple TV; U; CPU OS 8_1_3 like Mac OS X)"
	}
	if best.name == "iOS" && (best.version == "19" || strings.HasPrefix(best.version, "19.")) {
		// Apple numbered the release after iOS 18 26, after the year;
		// its first builds (23A) still wrote "iPhone OS 19_0". No iOS 19
		// was ever released.
		best.version = "26" + best.version[2:]
	}
	if best.name == "WebOS" && best.class == "Embedded" && best.version == Unknown {
		if ch, ok := p.product("Chrome"); ok {
			if r, ok := webOSTVReleases[versionMajor(ch.version)]; ok {
				best.version = r
			}
		}
	}
	if best.name == "Windows NT" && best.version == "8" && p.has(kwARMSemi) {
		// "Windows NT 6.2; ARM": Windows Phone 8 (its desktop mode, and
		// Internet Explorer 10 on it) sends the kernel of Windows 8.
		best.name, best.version, best.class, best.prio = "Windows Phone", "8", "Mobile", 10
	}
	for i := range p.products {
		// The product is read in place: a copy of its five strings for
		// each product would cost more than most of the tests below.
		pr := &p.products[i]
		lw := pr.lword
		if best.name == "Linux" && i > 0 && i+1 < len(p.products) && p.products[i-1].lword == "gecko" && p.products[i+1].lword == "firefox" {
			consider(geckoBuildOS(*pr))
		}
		if best.prio < 8 && distro {
			var rows [8]uint16
			for _, row := range p.distrosIn(pr.lname, rows[:]) {
				d := linuxDistros[row]
				if d.token == "mint" || indexWord(pr.lname, d.token) < 0 {
					continue
				}
				// "Ubuntu/10.04", "Linux Mint/10", "Debian/7.0": a
				// distribution product carries the release, which is more
				// precise than the bare name in the comment, so it wins
				// over it. A release code name ("Ubuntu/hardy") is
				// translated.
				if strings.HasSuffix(pr.lname, d.token) {
					if v := distroRelease(pr.version); v != "" {
						consider(osInfo{name: d.name, version: v, class: "Desktop", prio: 7})
						continue
					}
				}
				consider(osInfo{name: d.name, version: Unknown, class: "Desktop", prio: 6})
			}
		}
		switch {
		case lw == "android" && pr.version != "":
			prio := 7
			if i+1 < len(p.products) && p.products[i+1].lword == "release" {
				// "AT-AS40SE Linux/3.0.13 Android/4.0.4 Release/04.10.2013
				// ... Mobile Safari/534.30 Android 4.0.1;": a reference
				// phone's firmware names the system it runs before the
				// firmware's date; the release its browser writes at the
				// end is the one the browser was built for.
				prio = 8
			}
			consider(osInfo{name: "Android", version: androidVersion(pr.version), class: "Mobile", prio: prio})
		case best.prio < 5 && i > 0 && (p.has(kwAndroid) || p.has(kwIOSWord)) && appPlatformWord(pr) != "":
			// "Podeo/5.0.4 Android", "LBC/65.0.0 Android 12/samsung
			// SM-A125F", "Podimo/1.11.3 build 121/iOS 13.3": an app's user
			// agent that names its platform in words after its own
			// product, as the system's own clients never do. (The
			// platform where the first product's version would be,
			// "Shopify Mobile/Android/9.129.0", is the apps' rule's.)
			consider(appPlatformOS(pr))
		case pr.lname == "msft-wp":
			// "MSFT-WP/7.10.8860": Windows Phone's own HTTP stack.
			consider(osInfo{name: "Windows Phone", version: orUnknown(pr.version), class: "Mobile", prio: 7})
		case best.prio < 2 && (pr.lname == "win32" || pr.lname == "win64"):
			consider(osInfo{name: "Windows", version: Unknown, class: "Desktop", prio: 2})
		case strings.HasPrefix(pr.lname, "apple-i") && (strings.HasPrefix(pr.lname[7:], "phone") || strings.HasPrefix(pr.lname[7:], "pad") ||
			strings.HasPrefix(pr.lname[7:], "pod")):
			// "Apple-iPhone3C1/1104.257": the device and its build.
			consider(osInfo{name: "iOS", version: Unknown, class: "Mobile", prio: 4})
		case lw == "darwin" && best.prio < 5:
			consider(darwinOS(pr.version, p))
		case strings.HasPrefix(lw, "symbianos"):
			consider(osInfo{name: "SymbianOS", version: cleanVersion(pr.version), class: "Mobile", prio: 6})
		case best.prio < 7 && (lw == "solaris" || lw == "freebsd" || lw == "openbsd" || lw == "netbsd" || lw == "sunos"):
			// "Gecko/20100215 Solaris/10.1 (GNU)": a build for that
			// system, whatever platform the comment claims.
			consider(osInfo{name: otherOSName(lw), version: orUnknown(releaseWord(pr.version)), class: "Desktop", prio: 7})
		case best.prio < 7 && p.has(kwSpaceIOSSpace) && strings.Contains(pr.lname, " ios "):
			// "Apple iPhone iOS 13.3.1 AppleWebKit/1": the system named in
			// free text before the first product.
			k := strings.Index(pr.lname, " ios ")
			if v := leadingVersion(pr.lname[k+5:]); v != "" {
				consider(osInfo{name: "iOS", version: v, class: "Mobile", prio: 7})
			}
		case pr.lname == "kreatv" && isVersionLike(pr.version):
			// ARRIS's set-top box platform.
			consider(osInfo{name: "KreaTV", version: pr.version, class: "Embedded", prio: 7})
		case pr.lname == "roku" && pr.version != "":
			// "Roku/DVP-4.1 (024.01E01250A)": Roku's players name their
			// firmware ("DVP" for Digital Video Player).
			consider(osInfo{name: "Roku OS", version: pr.version, class: "Embedded", prio: 7})
		case lw == "kaios":
			consider(osInfo{name: "KaiOS", version: cleanVersion(pr.version), class: "Mobile", prio: 8})
		case lw == "tizen":
			consider(osInfo{name: "Tizen", version: cleanVersion(pr.version), class: "Mobile", prio: 6})
		case strings.HasSuffix(pr.lname, " android") && best.prio < 7:
			consider(osInfo{name: "Android", version: Unknown, class: "Mobile", prio: 7})
		case (lw == "ios" || lw == "ipados" || strings.HasSuffix(pr.lname, "iphone os")) && !strings.HasSuffix(pr.lname, " for ios"):
			consider(osInfo{name: "iOS", version: orUnknown(leadingVersion(pr.version)), class: "Mobile", prio: 7})
		case lw == "ios" || strings.HasSuffix(lw, "-ios"):
			// "Pinterest for iOS/6.80", "Outlook-iOS/711.2587062": an app
			// for iOS, with its own version.
			consider(osInfo{name: "iOS", version: Unknown, class: "Mobile", prio: 2})
		case (lw == "iphone" || lw == "ipad") && isVersionLike(pr.version):
			// "iPhone/15.4.1 hw/iPhone14_3": Yauaa does not take the
			// version after the device for the system's.
			consider(osInfo{name: "iOS", version: Unknown, class: "Mobile", prio: 5})
		case lw == "watchos":
			consider(osInfo{name: "watchOS", version: orUnknown(leadingVersion(pr.version)), class: "Mobile", prio: 7})
		case lw == "cfnetwork" && best.name == "":
			consider(osInfo{name: "iOS", version: Unknown, class: "Mobile", prio: 1})
		}
	}
	if best.name == "" && p.has(kwMAUI) {
		// "MRE/3.1.00(64);MAUI/...", "MRE/3.1.00900;MAUI/...": the MAUI
		// Runtime Environment, MediaTek's platform of the feature phones
		// its MAUI firmware drives, at its release (3.1; the digits
		// after it are the build, which some phones glue to it).
		if k := strings.Index(p.low, "mre/"); k >= 0 {
			if v := leadingVersion(p.low[k+4:]); v != "" {
				if d := strings.IndexByte(v, '.'); d > 0 {
					if e := strings.IndexByte(v[d+1:], '.'); e >= 0 {
						v = v[:d+1+e]
					}
				}
				best = osInfo{name: "MRE", version: v, class: "Mobile", prio: 7}
			}
		}
	}
	return best
}

// geckoBuildOS reads the system from the product that Linux distributions
// put between the Gecko and Firefox tokens of the Firefox they build
// ("Gecko/20091022 Moblin/3.5.1-3.15.18.moblin2 Firefox/3.5.1", "Gecko/
// 20110429 Mandriva Linux/1.9.2.17-0.1mdv2010.0 (2010.0) Firefox/3.6.17"):
// its name and package version. Names of the distribution table are left
// to the distribution rules, and browsers (a SeaMonkey build) are not
// systems. It is asked only where the comment names plain Linux.
func geckoBuildOS(pr product) osInfo {
	if !isVersionLike(pr.version) || pr.name == "" || pr.lname == "goanna" || platformProducts[pr.lname] || !isLetter(pr.name[0]) {
		return osInfo{}
	}
	for _, d := range linuxDistros {
		if pr.lname == d.token {
			return osInfo{}
		}
	}
	for _, bt := range browserTokens {
		if pr.lword == bt.token {
			return osInfo{}
		}
	}
	return osInfo{name: pr.name, version: pr.version, class: "Desktop", prio: 7, linux: true}
}

// otherOSName returns the display name of an otherOS token.
func otherOSName(token string) string {
	for _, o := range otherOS {
		if o.token == token {
			return o.name
		}
	}
	return token
}

func androidVersion(v string) string {
	v = strings.TrimSpace(v)
	if i := strings.IndexAny(v, " -"); i > 0 && !strings.HasPrefix(v[i:], "-update") {
		v = v[:i]
	}
	if v == "" {
		return Unknown
	}
	if r := androidAPILevel(v); r != "" {
		return r
	}
	return v
}

// androidReleases maps Android API levels to the release that introduced
// them (published in the Android developer documentation). Android
// release numbers have not passed 16, so a whole number from 19 up where a
// release is expected is an API level that an app sent instead.
var androidReleases map[string]string

// androidAPILevel returns the release of an API level ("30" is "11"), or
// "" when v is not a known API level.
func androidAPILevel(v string) string {
	end := 0
	for end < len(v) && v[end] >= '0' && v[end] <= '9' {
		end++
	}
	if end != 2 || end < len(v) && v[end] == '.' {
		return ""
	}
	return androidReleases[v[:end]]
}

var distroNeedles needleGroup

func buildDistroNeedles() needleGroup {
	var out []string
	for _, d := range linuxDistros {
		out = append(out, d.token)
	}
	return uaNeedles.group(out)
}

// linuxDistroList asks the scan which rows of linuxDistros can match, and
// allDistroRows are all of them, for text that is not a part of the lower
// case user agent.
var (
	linuxDistroList *needleList
	allDistroRows   []uint16
)

func buildLinuxDistroList() *needleList {
	ids := make([]needleID, len(linuxDistros))
	for i, d := range linuxDistros {
		ids[i] = uaNeedles.add(d.token)
	}
	return newNeedleList(ids)
}

func buildAllDistroRows() []uint16 {
	rows := make([]uint16, len(linuxDistros))
	for i := range rows {
		rows[i] = uint16(i)
	}
	return rows
}

// distrosIn returns the rows of linuxDistros, in order, whose token can
// occur in s: where s is a part of the lower case user agent, those the
// needle scan saw; otherwise all.
func (p *parsed) distrosIn(s string, buf []uint16) []uint16 {
	if !p.inLow(s) {
		return allDistroRows
	}
	return p.rowsFound(linuxDistroList, buf)
}

// cpuHintNeedles are fragments of which every processor name that
// cpuFromEntry recognises contains one.
var cpuHintNeedles needleGroup

// Needles of the iOS and macOS entries: an entry can only contain them if
// the user agent does, which spares most entries the searches.
var (
	kwIPhoneOS        needleID
	kwLinuxAnywhere   needleID
	kwIPadOS          needleID
	kwIPhoneOSNoSpace needleID
	kwMacOSX          needleID
	kwMacOSXOneSpace  needleID
	kwMacOSXNoSpace   needleID

	// kwWindowsNT100 is the platform of Chrome's reduced user agent,
	// written with its spaces (reducedPlatform).
	kwWindowsNT100 needleID
	kwMSIE         needleID

	// Needles of the rules for rarer systems, engines and browsers; each
	// starts with a byte pair that ordinary user agents seldom contain,
	// so that the scan stays cheap.
	kwQihu           needleID
	kwAphoneBrowser  needleID
	kwUCAppleWebKit  needleID
	kwCFNetwork      needleID
	kwAlamofire      needleID
	kwSamsungBrowser needleID
	kwOculusBrowser  needleID
	kwMinimo         needleID
	kwSpaceIOSSpace  needleID
	kwEcosiaSpace    needleID
	kwXiaomiMiui     needleID
	kwWebKitGTK      needleID
	kwGoanna         needleID
	kwExoPlayer      needleID
	kwMetaSr         needleID
	kwOpera          needleID
	kwElectron       needleID
	kwMacOutlook     needleID
	kwPocketBook     needleID
	kwKindle         needleID
)

// osSwitchOpenings are the first two bytes of every text that the
// switch in osFromEntry tests an entry to start with or to equal (none
// is shorter than two bytes), and osSwitchNeedles the needles that guard
// its tests of text anywhere in the entry; an entry that opens with none
// of those pairs, in a user agent with none of those needles, matches no
// case of the switch, so the switch is skipped (TestOSSwitchGate checks
// the switch against both lists). Most entries ("Linux", "X11", "K",
// "rv:109.0", "en-US", "Build/...", model names) are spared some sixty
// prefix tests so; a test of the first byte alone let "Linux" and "rv:"
// through, which begin as "loh/" and "rim tablet os" do.
const osSwitchOpenings = "ad an bb bl cp cr cy io ip lo ma mi nt os pi ri se sy wa wi"

var osSwitchNeedles []needleID

// osSwitchSeconds has, by an opening's first byte, the set of its second
// bytes.
var osSwitchSeconds [256]byteSet

func buildOSSwitchSeconds() (t [256]byteSet) {
	for _, o := range strings.Fields(osSwitchOpenings) {
		t[o[0]][o[1]>>6] |= 1 << (o[1] & 63)
	}
	return t
}

// osSwitchMayMatch reports whether some case of the switch in
// osFromEntry can match the entry lt.
func osSwitchMayMatch(p *parsed, lt string) bool {
	if len(lt) > 1 && osSwitchSeconds[lt[0]].has(lt[1]) {
		return true
	}
	return p.hasAny(&osSwitchGroup)
}

// osSwitchGroup asks the scan about all of osSwitchNeedles at once.
var osSwitchGroup needleGroup

// osFromEntry reads the operating system from one comment entry: lt is
// its lower case text, a part of p.low, and t the text as sent.
func osFromEntry(p *parsed, lt, t string, distro bool) osInfo {
	if osSwitchMayMatch(p, lt) {
		switch {
		case strings.HasPrefix(lt, "windows phone"):
			v := strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(lt, "windows phone"), " os"))
			return osInfo{name: "Windows Phone", version: orUnknown(leadingVersion(v)), class: "Mobile", prio: 10}
		case strings.HasPrefix(lt, "osmeta ") && len(lt) > 7 && lt[7] >= '0' && lt[7] <= '9' && !strings.Contains(p.low, "windows nt"):
			// "osmeta 10.3.2132": Facebook's layer that ran its iOS apps on
			// Windows 10 Mobile, with the system's version. The same layer
			// on a Windows computer says so ("(Windows NT 10.0.16299.98;
			// osmeta 10.3.3308)"), and there the Windows NT entry tells
			// the system.
			return osInfo{name: "Windows Phone", version: leadingVersion(lt[7:]), class: "Mobile", prio: 11}
		case strings.HasPrefix(lt, "windows mobile"):
			return osInfo{name: "Windows Mobile", version: orUnknown(leadingVersion(strings.TrimSpace(lt[14:]))), class: "Mobile", prio: 9}
		case strings.HasPrefix(lt, "windows ce") || lt == "wince":
			v := "CE"
			if len(lt) > 11 && lt[10] == ' ' {
				if r := leadingVersion(lt[11:]); r != "" {
					v = "CE " + r // "Windows CE 5.1"
				}
			}
			return osInfo{name: "Windows CE", version: v, class: "Mobile", prio: 8}
		case strings.HasPrefix(lt, "windows nt") || strings.HasPrefix(lt, "windows-nt") || strings.HasPrefix(lt, "winnt") ||
			strings.HasPrefix(lt, "windowsnt") || strings.HasPrefix(lt, "windows_nt") || strings.HasPrefix(lt, "nt ") ||
			strings.HasPrefix(lt, "os=windows nt"):
			// ("qtver=7.7.4;os=Windows NT 6.0Service Pack 2": QuickTime
			// writes the system as a key and value.)
			rest := lt
			for _, pre := range []string{"windows nt", "windows-nt", "windows_nt", "windowsnt", "winnt", "nt ", "os=windows nt"} {
				if strings.HasPrefix(rest, pre) {
					rest = strings.TrimLeft(rest[len(pre):], " ")
					break
				}
			}
			v := leadingVersion(rest)
			name, ok := windowsNT[v]
			if !ok {
				if v == "" {
					// "(Windows NT; Windows NT 10.0; ...)": an entry with the
					// version wins over the bare one.
					return osInfo{name: "Windows NT", version: Unknown, class: "Desktop", prio: 4}
				}
				name = v
			}
			return osInfo{name: "Windows NT", version: name, class: "Desktop", prio: 5}
		case lt == "windows xp":
			return osInfo{name: "Windows NT", version: "XP", class: "Desktop", prio: 5}
		case lt == "windows 98" || lt == "win98":
			return osInfo{name: "Windows 9x", version: "98", class: "Desktop", prio: 5}
		case lt == "windows 95" || lt == "win95":
			return osInfo{name: "Windows 9x", version: "95", class: "Desktop", prio: 5}
		case strings.HasPrefix(lt, "win 9x 4.90") || lt == "windows me":
			return osInfo{name: "Windows 9x", version: "Millennium Edition", class: "Desktop", prio: 5}
		case lt == "windows 3.1" || lt == "win16" || lt == "windows 3.11":
			return osInfo{name: "Windows 3.x", version: "3.1", class: "Desktop", prio: 5}
		case lt == "win32":
			return osInfo{name: "Windows NT", version: Unknown, class: "Desktop", prio: 2}
		case strings.HasPrefix(lt, "cygwin_nt"):
			return osInfo{name: "Windows NT", version: orUnknown(windowsNT[leadingVersion(lt[10:])]), class: "Desktop", prio: 5}
		case lt == "windows":
			return osInfo{name: "Windows", version: Unknown, class: "Desktop", prio: 2}
		case strings.HasPrefix(lt, "microsoft windows "):
			return osInfo{name: "Windows NT", version: orUnknown(windowsRelease(lt[18:])), class: "Desktop", prio: 5}
		case strings.HasPrefix(lt, "windows ") && len(lt) > 8 && lt[8] >= '0' && lt[8] <= '9':
			// "Windows 2000", "Windows 8.1", "Windows 6.0" (the kernel
			// version), "Windows 95/NT4" (no single release).
			if v := windowsRelease(lt[8:]); v != "" {
				return osInfo{name: "Windows NT", version: v, class: "Desktop", prio: 5}
			}
			if v := leadingVersion(lt[8:]); (v == "95" || v == "98") && (len(lt) == 10 || lt[10] == ' ') {
				return osInfo{name: "Windows 9x", version: v, class: "Desktop", prio: 5}
			}
			return osInfo{name: "Windows", version: Unknown, class: "Desktop", prio: 2}
		case strings.HasPrefix(lt, "windows ") && cpuFromEntry(lt[8:]) != "":
			// "(X11; Windows x86_64)": Windows, on that processor.
			return osInfo{name: "Windows", version: Unknown, class: "Desktop", prio: 3}
		case lt == "wine" || lt == "wine64":
			// "Windows NT 6.3; Wine64": a Windows program under Wine, on
			// Linux.
			return osInfo{name: "Linux", version: Unknown, class: "Desktop", prio: 7}
		case strings.HasPrefix(lt, "adr ") && len(lt) > 4 && lt[4] >= '0' && lt[4] <= '9':
			// UC Browser's "Adr 7.0" names Android.
			return osInfo{name: "Android", version: orUnknown(androidVersion(lt[4:])), class: "Mobile", prio: 7}
		case strings.HasPrefix(lt, "android"):
			rest := cutSpaceSlashCol.trimLeft(strings.TrimPrefix(lt[7:], "_os")) // "android_os/4.4.4"
			if strings.HasPrefix(rest, "api") {
				// "Android API 30": the API level, which names the release.
				return osInfo{name: "Android", version: orUnknown(androidAPILevel(cutSpaceColDash.trimLeft(rest[3:]))), class: "Mobile", prio: 7}
			}
			if len(rest) > 1 && rest[0] == '-' && rest[1] >= '0' && rest[1] <= '9' {
				rest = rest[1:] // "Android-4.0.3"
			}
			return osInfo{name: "Android", version: orUnknown(androidVersion(t[len(t)-len(rest):])), class: "Mobile", prio: 7}
		case p.has(kwIPhoneOS) && strings.Contains(lt, "iphone os") || strings.HasPrefix(lt, "cpu os") || p.has(kwIPadOS) && strings.Contains(lt, "ipad os") ||
			strings.HasPrefix(lt, "cpu ios") || strings.HasPrefix(lt, "cpu like mac os x"):
			i := strings.Index(lt, " os ")
			v := ""
			if strings.HasPrefix(lt, "cpu ios ") {
				v = leadingVersion(lt[8:]) // "CPU iOS 15_5 like Mac OS X"
			} else if i >= 0 {
				v = leadingVersion(lt[i+4:])
			} else if strings.HasPrefix(lt, "cpu os_") {
				v = leadingVersion(lt[7:]) // UC Browser's "(iPhone; CPU OS_6; en-US)"
			}
			return osInfo{name: "iOS", version: orUnknown(v), class: "Mobile", prio: 8}
		case p.has(kwIPhoneOSNoSpace) && strings.Contains(lt, "iphoneos") || strings.HasPrefix(lt, "cpuos"):
			// Spaces stripped by a proxy: "CPUiPhoneOS18_6_2likeMacOSX".
			i := strings.Index(lt, "os") + 2
			if k := strings.Index(lt, "iphoneos"); k >= 0 {
				i = k + len("iphoneos")
			}
			return osInfo{name: "iOS", version: orUnknown(leadingVersion(lt[i:])), class: "Mobile", prio: 8}
		case strings.HasPrefix(lt, "pico ") && picoOSAt(lt) > 0:
			// "PICO 4 OS5.9.2 like Quest": the Pico headsets' own system,
			// on an Android or a desktop Linux platform.
			class := "Desktop"
			if p.has(kwAndroid) {
				class = "Mobile"
			}
			return osInfo{name: "PICO OS", version: orUnknown(leadingVersion(lt[picoOSAt(lt)+3:])), class: class, prio: 9}
		case lt == "ios" || strings.HasPrefix(lt, "ios ") || strings.HasPrefix(lt, "ios/") ||
			len(lt) > 3 && lt[3] >= '0' && lt[3] <= '9' && strings.HasPrefix(lt, "ios"):
			// "iOS 16.5", and "iOS/14.2" of Microsoft Office's apps, whose
			// comment names the system as a product: "(iOS/14.2; Tablet;
			// en-US; AppStore; Apple/iPad8,1)"; apps also write the release
			// against the name ("(twinkle/8.0; iOS11.4.1; iPhone10,1)").
			v := leadingVersion(cutSpaceSlash.trimLeft(lt[3:]))
			if lt == "ios" {
				for _, e := range p.entries {
					if l := p.ltext(e); strings.HasPrefix(l, "iph os ") {
						// UC Browser's compact format: "(iOS; U; iPh OS
						// 6_1; zh-CN; iPh5,2)", the release after iPh OS.
						v = leadingVersion(l[7:])
						break
					} else if strings.HasPrefix(l, "ios ") {
						// Apps that name the platform, then the system at
						// its release: "(iPhone; iOS; iOS 15.6.1; ...)",
						// "(ios; U; iOS 14.7.1; en-CA; ...)".
						if w := leadingVersion(l[4:]); w != "" {
							v = w
							break
						}
					}
				}
			}
			return osInfo{name: "iOS", version: orUnknown(v), class: "Mobile", prio: 8}
		case strings.HasPrefix(lt, "watchos "):
			// "(Watch1,2; watchOS 3.2.2)": an Apple Watch app.
			return osInfo{name: "watchOS", version: orUnknown(leadingVersion(lt[8:])), class: "Mobile", prio: 8}
		case strings.HasPrefix(lt, "mac os/"):
			// "(Mac OS/10.15.7; Desktop; en-US; AppStore;
			// Apple/MacBookPro16,2)": Microsoft Office for Mac.
			return osInfo{name: "Mac OS", version: orUnknown(leadingVersion(lt[7:])), class: "Desktop", prio: 6}
		case strings.HasPrefix(lt, "mac_"):
			// "Mac_PowerPC", "Mac_68000": Internet Explorer's and Opera's
			// names of the classic Mac OS, before Mac OS X, even where
			// "Mac OS X" follows in the same entry.
			return osInfo{name: "Mac OS", version: "before 10", class: "Desktop", prio: 6}
		case p.has(kwMacOSX) && strings.Contains(lt, "mac os x") || p.has(kwMacOSXOneSpace) && strings.Contains(lt, "macos x") ||
			p.has(kwMacOSXNoSpace) && strings.Contains(lt, "macosx"):
			i := strings.Index(lt, "os x")
			v := ""
			if i >= 0 {
				// "Mac OS X Version 10.11.4 (Build 15E65)" of Microsoft's apps.
				v = leadingVersion(strings.TrimPrefix(strings.TrimLeft(lt[i+4:], " "), "version "))
			} else if i = strings.Index(lt, "osx"); i >= 0 {
				v = leadingVersion(lt[i+3:])
			}
			if v == "" {
				v = "10.?"
			}
			cpu := ""
			if strings.Contains(lt, "intel") {
				cpu = "Intel"
			} else if strings.Contains(lt, "ppc") || strings.Contains(lt, "powerpc") {
				cpu = "PowerPC"
			}
			return osInfo{name: "Mac OS", version: v, class: "Desktop", prio: 6, cpu: cpu}
		case lt == "macintosh" || lt == "mac os":
			return osInfo{name: "Mac OS", version: Unknown, class: "Desktop", prio: 3}
		case strings.HasPrefix(lt, "cros "):
			// Chrome OS ships with its browser: the Chrome version is the
			// version of the system (the platform number after the CPU is
			// the build).
			v := Unknown
			if ch, ok := p.product("Chrome"); ok && isVersionLike(ch.version) {
				v = cleanVersion(chromeVersion(ch.version))
			}
			return osInfo{name: "Chrome OS", version: v, class: "Desktop", prio: 6}
		case strings.HasPrefix(lt, "bb10"):
			return osInfo{name: "BlackBerry", version: "BlackBerry 10", class: "Mobile", prio: 8}
		case strings.HasPrefix(lt, "macos") && (len(lt) == 5 || lt[5] == ' ' || lt[5] == '('):
			// "macOS 13.1", "macOS(Catalyst) 13.1.0" (an iPad app on a Mac).
			rest := lt[5:]
			if k := strings.IndexByte(rest, ')'); k >= 0 {
				rest = rest[k+1:]
			}
			return osInfo{name: "Mac OS", version: orUnknown(leadingVersion(strings.TrimSpace(rest))), class: "Desktop", prio: 6}
		case strings.HasPrefix(lt, "windows/") && len(lt) > 8 && lt[8] >= '0' && lt[8] <= '9':
			// "(Windows/10.0; Desktop WOW64; ...)" of Microsoft's Office apps.
			v := leadingVersion(lt[8:])
			name, ok := windowsNT[v]
			if !ok {
				name = v
			}
			return osInfo{name: "Windows NT", version: name, class: "Desktop", prio: 5}
		case lt == "ipad" || lt == "iphone" || lt == "ipod" || lt == "ipod touch" || lt == "ipados":
			// "Opera/9.80 (iPad; U; xx)": the device alone still names the
			// system, for Apple ships no other on it; an entry that gives the
			// version ("CPU OS 15_0") wins over this.
			return osInfo{name: "iOS", version: Unknown, class: "Mobile", prio: 4}
		case lt == "blackberry" || strings.HasPrefix(lt, "blackberry ") && len(lt) > 11 && lt[11] >= '0' && lt[11] <= '9':
			// "(BlackBerry; U; BlackBerry 9900; nl)": the phones before
			// BlackBerry 10 run RIM's own system, which names no version.
			return osInfo{name: "RIM OS", version: "RIM OS", class: "Mobile", prio: 6}
		case strings.HasPrefix(lt, "series40") || strings.HasPrefix(lt, "series30"):
			// Nokia's Series 40 and Series 30+ feature phones are counted
			// with Symbian, as Yauaa does; they name no system version.
			return osInfo{name: "Symbian", version: Unknown, class: "Mobile", prio: 5}
		case strings.HasPrefix(lt, "symbian/"):
			// "Symbian/3" is the Symbian release itself (Nokia N8, E7).
			return osInfo{name: "Symbian", version: orUnknown(leadingVersion(lt[8:])), class: "Mobile", prio: 6}
		case lt == "symbian os" || strings.HasPrefix(lt, "symbian os "):
			return osInfo{name: "SymbianOS", version: orUnknown(leadingVersion(strings.TrimSpace(lt[10:]))), class: "Mobile", prio: 6}
		case strings.HasPrefix(lt, "loh/"):
			// Loewe's television system ("(Linux mips; U; HBBTV/1.0;
			// LOH/2.01; ...)").
			return osInfo{name: "LOH", version: orUnknown(leadingVersion(lt[4:])), class: "Embedded", prio: 7}
		case strings.HasPrefix(lt, "rim tablet os"):
			return osInfo{name: "RIM Tablet OS", version: orUnknown(leadingVersion(strings.TrimSpace(lt[13:]))), class: "Mobile", prio: 8}
		}
	}
	if strings.HasPrefix(lt, "linux ") && len(lt) > 6 && lt[6] >= '0' && lt[6] <= '9' {
		// "Linux 2.6.18-gentoo-r6 x86_64", "Linux 4.4.0-154-generic":
		// the kernel release, as uname prints it, is the version; a
		// distribution named in it is the system.
		v := releaseWord(t[6:])
		if distro {
			lv := lt[6 : 6+len(v)]
			for _, d := range linuxDistros {
				if indexWord(lv, d.token) >= 0 {
					return osInfo{name: d.name, version: v, class: "Desktop", prio: 6}
				}
			}
		}
		return osInfo{name: "Linux", version: v, class: "Desktop", prio: 3}
	}
	if distro && strings.HasPrefix(lt, "ubuntu ") && strings.Contains(lt, " like android") {
		// "(Linux; Ubuntu 15.04 like Android 4.4)": Ubuntu's phone and
		// tablet system, which runs Android's drivers.
		return osInfo{name: "Ubuntu Touch", version: orUnknown(leadingVersion(lt[7:])), class: "Mobile", prio: 8}
	}
	var rows [8]uint16
	distros := rows[:0]
	if distro {
		distros = p.distrosIn(lt, rows[:])
	}
	for _, row := range distros {
		d := linuxDistros[row]
		// A package version such as "3.26.1-1ubuntu1" names the
		// distribution that built the package, not the system.
		if k := indexWord(lt, d.token); k >= 0 && (k == 0 || d.token != "mint") && (k == 0 || lt[k-1] < '0' || lt[k-1] > '9') {
			rest := cutSpaceSlashDsh.trimLeft(lt[k+len(d.token):])
			rest = strings.TrimPrefix(rest, "gnu/linux ") // "Debian GNU/Linux 7.8 (wheezy)"
			v := ""
			if !strings.Contains(rest, d.token) {
				v = leadingVersion(rest)
				if v == "" {
					v = distroRelease(rest)
				}
			}
			return osInfo{name: d.name, version: orUnknown(v), class: "Desktop", prio: 6}
		}
	}
	if distro {
		// "Gecko/2000000000 Ubuntu (hardy) Firefox/8.8.8": the code name
		// alone in a comment after the distribution.
		if r, ok := ubuntuReleases[lt]; ok {
			return osInfo{name: "Ubuntu", version: r, class: "Desktop", prio: 6}
		}
	}
	if lt == "" {
		return osInfo{}
	}
	for _, i := range otherOSByInitial[lt[0]] {
		if o := otherOS[i]; strings.HasPrefix(lt, o.token) {
			if len(lt) > len(o.token) && lt[len(o.token)] >= '0' && lt[len(o.token)] <= '9' {
				// "SunOS5.10": a name run into its number is not read
				// (Yauaa does not either).
				continue
			}
			prio := 6
			if o.token == "harmonyos" || o.token == "sailfish" {
				// Systems that run Android apps and name Android too:
				// "(Linux; Android 10; HarmonyOS; ...)", "(Android 4.4.2;
				// U; Sailfish 3.0)".
				prio = 8
			}
			return osInfo{name: o.name, version: orUnknown(releaseWord(t[len(o.token):])), class: o.class, prio: prio}
		}
	}
	if k := strings.IndexByte(lt, ' '); k >= 3 && k <= 7 && k+1 < len(lt) && isCPUWord(lt[:k]) {
		// "i686 FreeBSD 6.4": the processor first.
		lr, tr := lt[k+1:], t[k+1:]
		for _, i := range otherOSByInitial[lr[0]] {
			if o := otherOS[i]; strings.HasPrefix(lr, o.token) {
				return osInfo{name: o.name, version: orUnknown(releaseWord(tr[len(o.token):])), class: o.class, prio: 6}
			}
		}
	}
	// lt is a part of p.low: without "linux" in the whole string, none
	// of the three tests can hold, and the needle spares them.
	if p.has(kwLinuxAnywhere) && (strings.HasPrefix(lt, "linux") || strings.HasSuffix(lt, " linux") || strings.Contains(lt, "linux ")) {
		return osInfo{name: "Linux", version: Unknown, class: "Desktop", prio: 3}
	}
	if lt == "x11" {
		return osInfo{name: "Linux", version: Unknown, class: "Desktop", prio: 1}
	}
	return osInfo{}
}

// isModelCode reports a short code of capitals and digits with both.
func isModelCode(m string) bool {
	letters, digits := 0, 0
	for i := 0; i < len(m); i++ {
		switch c := m[i]; {
		case c >= 'A' && c <= 'Z':
			letters++
		case c >= '0' && c <= '9':
			digits++
		default:
			return false
		}
	}
	return letters > 0 && digits > 0
}

// windowsReleases names the Windows releases by their marketing number,
// or by the kernel version some clients send in its place ("Windows 6.0"
// is Vista), as Yauaa writes them.
var windowsReleases map[string]string

// windowsRelease reads the release from the text after "Windows ", or ""
// when it names no single known release.
func windowsRelease(rest string) string {
	v := leadingVersion(rest)
	if len(v) < len(rest) && rest[len(v)] != ' ' {
		return "" // "95/NT4"
	}
	return windowsReleases[v]
}

// releaseWord returns the release that follows a system name: the first
// word of rest when it starts with a digit, with the suffixes a release
// carries ("8.2-STABLE", "2.2.8-RELEASE", "4.4.0-154-generic"), or "".
func releaseWord(rest string) string {
	rest = cutSpaceSlashDsh.trimLeft(rest)
	if !isVersionLike(rest) {
		return ""
	}
	end := strings.IndexByte(rest, ' ')
	if end < 0 {
		end = len(rest)
	}
	return rest[:end]
}

// picoOSAt returns the index of " os<digit>" in a Pico headset entry, or
// -1.
func picoOSAt(lt string) int {
	for k := strings.Index(lt, " os"); k >= 0; {
		if k+3 < len(lt) && lt[k+3] >= '0' && lt[k+3] <= '9' {
			return k
		}
		n := strings.Index(lt[k+3:], " os")
		if n < 0 {
			break
		}
		k += 3 + n
	}
	return -1
}

// webOSTVReleases maps the Chromium version of LG's web engine to the
// webOS TV release that ships it (LG's webOS TV developer documentation).
var webOSTVReleases map[string]string

// isCPUWord reports the processor names that precede a system in an entry
// ("i686 FreeBSD 6.4").
func isCPUWord(w string) bool {
	switch w {
	case "i386", "i486", "i586", "i686", "x86", "x86_64", "amd64", "armv6l", "armv7l", "aarch64", "ppc", "sparc", "sparc64", "mips":
		return true
	}
	return false
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func orUnknown(s string) string {
	if s == "" {
		return Unknown
	}
	return s
}

// darwinMacOS and darwinIOS map prefixes of the Darwin kernel version that
// CFNetwork clients send to the macOS and iOS release it shipped with
// (tables/system_releases.tsv, from Yauaa's lookups): the longest prefix
// that matches wins, so "14.5.0" is 10.10.5 and "14.2.0" only 10.10.?.
var (
	darwinMacOS map[string]string
	darwinIOS   map[string]string
)

// darwinMajorMacOS and darwinMajorIOS name the release of a Darwin major
// version without a dot, or one the tables above do not list (Darwin 9
// and 12 on iOS).
var (
	darwinMajorMacOS map[string]string
	darwinMajorIOS   map[string]string
)

func buildDarwinMajorMacOS() map[string]string {
	return map[string]string{"10": "10.6", "11": "10.7", "12": "10.8", "13": "10.9", "14": "10.10",
		"15": "10.11", "16": "10.12", "17": "10.13", "18": "10.14", "19": "10.15", "20": "11", "21": "12", "22": "13", "23": "14", "24": "15"}
}

func buildDarwinMajorIOS() map[string]string {
	return map[string]string{"9": "3.?", "10": "4.?", "11": "5.?", "12": "6.?", "13": "7.?", "14": "8.?",
		"15": "9.?", "16": "10.?", "17": "11.?", "18": "12.?", "19": "13.?", "20": "14.?", "21": "15.?", "22": "16.?", "23": "17.?", "24": "18.?"}
}

// darwinRelease returns the release of the longest prefix of v that
// releases lists. Kernel versions are short; the bound keeps a hostile
// version from costing more than a few lookups (substrings of v, no
// allocation).
func darwinRelease(releases map[string]string, v string) (string, bool) {
	n := len(v)
	if n > 12 {
		n = 12
	}
	for ; n > 0; n-- {
		if r, ok := releases[v[:n]]; ok {
			return r, true
		}
	}
	return "", false
}

// darwinOS maps the Darwin kernel version that CFNetwork clients send to the
// Apple operating system release it shipped with. The processor Darwin
// names ("Darwin/10.8.0 (i386)", "(x86_64)") is a Mac's: iOS devices run on
// ARM and their clients name no processor.
func darwinOS(v string, p *parsed) osInfo {
	mac := p.has(kwX86x64) || p.has(kwI386) || p.has(kwMacintosh) || p.has(kwMacBook) || p.has(kwIMac)
	releases, majors, name, class := darwinIOS, darwinMajorIOS, "iOS", "Mobile"
	if mac {
		releases, majors, name, class = darwinMacOS, darwinMajorMacOS, "Mac OS", "Desktop"
	}
	if r, ok := darwinRelease(releases, v); ok {
		return osInfo{name: name, version: r, class: class, prio: 4}
	}
	if r, ok := majors[versionMajor(v)]; ok {
		return osInfo{name: name, version: r, class: class, prio: 4}
	}
	return osInfo{name: name, version: Unknown, class: class, prio: 4}
}

// indexWord returns the index of word in s where it is not part of a longer
// word (bounded by non-letters), or -1.
func indexWord(s, word string) int {
	off := 0
	for {
		k := strings.Index(s[off:], word)
		if k < 0 {
			return -1
		}
		k += off
		before := k == 0 || !isLetter(s[k-1])
		end := k + len(word)
		after := end >= len(s) || !isLetter(s[end])
		if before && after {
			return k
		}
		off = k + 1
	}
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// ubuntuReleases maps Ubuntu's release code names, which old Firefox
// builds sent instead of the number ("Ubuntu/hardy", "(Ubuntu-feisty)"),
// to the release number (published by Canonical).
var ubuntuReleases map[string]string

// distroRelease reads the release of a distribution from the text after
// its name: a version as it is written ("10.04", "1.5.dfsg+1.5.0.1-4"), or
// an Ubuntu code name, with "-security" (the security updates channel)
// kept as a suffix. It returns "" when there is neither.
func distroRelease(v string) string {
	v = strings.TrimSpace(v)
	if isVersionLike(v) {
		return v
	}
	name, channel, _ := strings.Cut(asciiLower(v), "-")
	if i := strings.IndexAny(name, " ;)"); i >= 0 {
		name = name[:i]
	}
	r, ok := ubuntuReleases[name]
	if !ok {
		return ""
	}
	if channel == "security" {
		return r + " Security"
	}
	return r
}

// appPlatformWord returns "android" or "ios" when a product after an app's
// own names the app's platform: the word alone ("Android"), the word and a
// release ("Android 12"), or the word where the version would be
// ("build 121/iOS"); it returns "" otherwise.
func appPlatformWord(pr *product) string {
	for _, w := range [2]string{"android", "ios"} {
		switch {
		case pr.lname == w && pr.version == "",
			len(pr.lname) > len(w)+1 && pr.lname[len(w)] == ' ' && strings.HasPrefix(pr.lname, w) && isVersionLike(pr.lname[len(w)+1:]),
			strings.EqualFold(pr.version, w):
			return w
		}
	}
	return ""
}

// appPlatformOS is the system appPlatformWord found in a product, at the
// release written after the word ("Android 12"). A release after the word
// where the version would be ("build 121/iOS 13.3") is not read, as it
// cannot be told from the app's own version ("/Android/9.129.0"). An
// Android number above 16 is an API level, not a release.
func appPlatformOS(pr *product) osInfo {
	w := appPlatformWord(pr)
	v := ""
	if len(pr.lname) > len(w)+1 && strings.HasPrefix(pr.lname, w) {
		v = leadingVersion(pr.lname[len(w)+1:])
	}
	if w == "ios" {
		return osInfo{name: "iOS", version: orUnknown(v), class: "Mobile", prio: 5}
	}
	if k := strings.IndexByte(v, '.'); (k < 0 && len(v) > 2) || (k < 0 && v > "16" && len(v) == 2) || k > 2 {
		v = ""
	}
	return osInfo{name: "Android", version: orUnknown(v), class: "Mobile", prio: 5}
}
