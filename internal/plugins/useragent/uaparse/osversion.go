package uaparse

import "strings"

// frozenOSVersion applies the "frozen" platform versions of modern
// browsers: Chrome, Edge and Firefox stopped updating the OS version in the
// user agent (Windows 11 still says "Windows NT 10.0", every macOS since
// Big Sur says "10_15_7" or "10.15"), so the real version is at least that.
func (s *state) frozenOSVersion() {
	if s.agClass.v == "Robot" || s.reducedPlatform() {
		// Headless browsers report the system they run on unchanged; a
		// reduced platform names no release to bound.
		return
	}
	major := atoiPrefix(s.agVersion.v)
	modern := false
	switch s.agName.v {
	case "SamsungBrowser", "Edge":
		// Samsung Internet numbers its own releases, and a privacy tool
		// may dress up Edge's; the Chromium under them tells their age.
		if ch, ok := s.p.product("Chrome"); ok {
			modern = atoiPrefix(ch.version) >= 90
		} else {
			modern = major >= 90
		}
	case "Chrome", "Chromium", "Firefox":
		modern = major >= 90
	case "Safari":
		modern = major >= 14
	default:
		// A browser on Apple's WebKit that keeps Safari's "Version/16.5"
		// token ("Version/16.5 Safari/605.1.15 Ddg/17.5") has Safari's
		// frozen macOS platform too.
		if s.os.name != "Mac OS" || s.engName.v != "AppleWebKit" {
			break
		}
		if ver, ok := s.p.product("Version"); ok {
			_, safari := s.p.product("Safari")
			modern = safari && atoiPrefix(ver.version) >= 14
		}
	}
	if !modern {
		return
	}
	if s.agName.v == "Safari" && s.os.name == "iOS" && strings.HasPrefix(s.os.version, "18.") {
		if ver, ok := s.p.product("Version"); ok && atoiPrefix(ver.version) >= 26 {
			// From iOS 26 on, Safari keeps "iPhone OS 18_6" in the
			// platform and tells the real release only as its own
			// version, which now follows the system's numbering.
			s.os.version = s.agVersion.v
			return
		}
	}
	switch {
	case s.os.name == "Windows NT" && s.os.version == "10.0":
		s.os.version = ">=10"
	case s.os.name == "Mac OS" && (s.os.version == "10.15.7" || s.os.version == "10.15" && s.agName.v == "Firefox"):
		s.os.version = ">=10.15.7"
	}
}

// firefoxOSReleases maps the Gecko versions that Firefox OS releases
// shipped with to those releases (Mozilla's documentation of the Firefox
// OS user agent); other Gecko versions are shown as they are.
var firefoxOSReleases map[string]string

func firefoxOSVersion(gecko string) string {
	if r, ok := firefoxOSReleases[gecko]; ok {
		return r
	}
	return gecko
}

// reducedPlatform applies Chrome's "reduced" user agent: from release
// 101 on, Chrome sends its version as "<major>.0.0.0" together with a
// fixed platform, "Windows NT 10.0; Win64; x64" on Windows and "Android
// 10; K" on Android, whatever the real system is; only the client hints
// tell it. Such a platform says nothing about the system version, nor does
// an Android version next to a hidden model ("K", "Unspecified Device"). Edge
// and Samsung Internet keep their own rule (frozenOSVersion). A reduced
// version older than release 90, from before the reduction was announced,
// is not a real browser, and its platform is not believed at all. It
// reports whether it decided the version.
func (s *state) reducedPlatform() bool {
	p := s.p
	if s.os.name != "Android" && (s.os.name != "Windows NT" || !p.has(kwWindowsNT100)) {
		return false
	}
	ch, ok := p.product("Chrome")
	if !ok || !strings.HasSuffix(ch.version, ".0.0.0") {
		return false
	}
	switch {
	case s.os.name == "Windows NT" && s.os.version == "10.0" && p.has(kwWindowsNT100) && s.agName.v != "Edge" && s.agName.v != "SamsungBrowser":
		s.os.version = Unknown
		if atoiPrefix(ch.version) < 90 {
			s.os.name = Unknown
		}
		return true
	case s.os.name == "Android":
		for i, e := range p.entries {
			if i+1 < len(p.entries) && strings.HasPrefix(p.ltext(e), "android ") {
				// "K" and "Unspecified Device" stand for the hidden model.
				if m := p.ltext(p.entries[i+1]); m == "k" || m == "unspecified device" {
					s.os.version = Unknown
					return true
				}
			}
		}
	}
	return false
}

// osVersionBuild reads the build of the operating system: Android's
// "Build/<id>" at the end of the device entry ("Nexus 6 Build/N6F27M",
// "BROWSER OS_BUILD/KOT49H.89.ee3fb18"), the Chrome OS platform build
// ("CrOS x86_64 13904.97.0"), the Windows build that EdgeHTML carries
// after its own version ("Edge/14.14279") and the firmware build of Google
// TV ("GoogleTV/161242"). Robots and unknown systems get none.
func (s *state) osVersionBuild() {
	p := s.p
	if s.os.name == "" || s.os.name == "Cloud" || s.os.name == Unknown {
		return
	}
	for off := 0; p.has(kwBuildSlash); {
		k := strings.Index(p.low[off:], "build/")
		if k < 0 {
			break
		}
		k += off
		off = k + len("build/")
		if k > 0 && p.low[k-1] != ' ' && p.low[k-1] != '_' && p.low[k-1] != ';' && p.low[k-1] != '(' {
			continue // "ubuild/", a word that ends in "build"
		}
		end := off
		for end < len(p.ua) && p.ua[end] != ' ' && p.ua[end] != ';' && p.ua[end] != ')' && p.ua[end] != ',' {
			end++
		}
		if end > off {
			s.osBuild.set(p.ua[off:end], confStructure)
			return
		}
	}
	switch s.os.name {
	case "Chrome OS":
		for _, e := range p.entries {
			if lt := p.ltext(e); strings.HasPrefix(lt, "cros ") {
				t := p.text(e)
				if sp := strings.LastIndexByte(t, ' '); sp > 0 && isVersionLike(t[sp+1:]) && strings.Count(t[sp+1:], ".") >= 1 {
					s.osBuild.set(t[sp+1:], confStructure)
				}
				return
			}
		}
	case "Windows NT":
		if e, ok := p.product("Edge"); ok {
			if _, b, ok := strings.Cut(e.version, "."); ok && b != "" && isDigits(b) {
				s.osBuild.set(b, confStructure)
			}
		}
	}
	// A product named GoogleTV sets the needle bit of "googletv" (its name
	// lies in the user agent): the bit test spares most user agents
	// product's call.
	if !p.has(kwGoogleTV) {
		return
	}
	if g, ok := p.product("GoogleTV"); ok && g.version != "" && isDigits(g.version) {
		s.osBuild.set(g.version, confStructure)
	}
}
