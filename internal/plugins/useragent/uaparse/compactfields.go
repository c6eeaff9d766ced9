package uaparse

import "strings"

// compactFields reads the compact "key(value);" user agent of UC Browser
// for iOS: "dv(iPh12,1);pr(UCBrowser/11.3.5.1203);ov(15_2_1);ss(375x812);
// ...". dv is Apple's device identifier with "iPhone" cut to "iPh" (and
// "iPad" to "iPd"), pr the browser and its version, ov the iOS release
// with underscores. Nothing else in it is a product or a comment, so the
// generic rules read nonsense there.
func (s *state) compactFields() {
	ua := s.p.ua
	if !strings.HasPrefix(ua, "dv(") || !strings.Contains(ua, ");pr(") {
		return
	}
	field := func(key string) string {
		i := strings.Index(ua, key+"(")
		if i < 0 || i > 0 && ua[i-1] != ';' {
			return ""
		}
		v := ua[i+len(key)+1:]
		if j := strings.IndexByte(v, ')'); j >= 0 {
			return v[:j]
		}
		return ""
	}
	name, version, _ := strings.Cut(field("pr"), "/")
	if name == "" || !isVersionLike(version) {
		return
	}
	s.setAgent(confStructure, "Browser", name, version)
	dv := field("dv")
	class, devName := "", ""
	switch {
	case strings.HasPrefix(dv, "iPh"):
		class, devName = "Phone", "Apple iPhone"
	case strings.HasPrefix(dv, "iPd"), strings.HasPrefix(dv, "iPad"):
		class, devName = "Tablet", "Apple iPad"
	default:
		return
	}
	s.setDevice(confStructure, class, "Apple", devName)
	ov := strings.ReplaceAll(field("ov"), "_", ".")
	if !isVersionLike(ov) {
		ov = Unknown
	}
	s.os = osInfo{name: "iOS", version: ov, class: "Mobile", cpu: s.os.cpu}
}
