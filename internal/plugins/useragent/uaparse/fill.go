package uaparse

import "unsafe"

// fill writes the findings into the attribute array, deriving the combined
// attributes (NameVersion, majors) in one place so they stay consistent.
// The combined values are written into spare when they fit: a buffer that
// nothing else writes while v is in use (the parse state's fillBuf; the
// values are copied out by pack before it goes back to the pool).
func (s *state) fill(v *[numAttributes]string, spare []byte) {
	set := func(i int, val string) {
		if val != "" {
			v[i] = val
		}
	}
	set(attrDeviceClass, s.devClass.v)
	set(attrDeviceBrand, s.devBrand.v)
	set(attrDeviceName, s.devName.v)
	set(attrDeviceCpu, s.devCPU.v)
	set(attrDeviceFirmwareVersion, s.devFirmware.v)
	set(attrDeviceVersion, s.devVersion.v)

	set(attrOperatingSystemClass, s.os.class)
	set(attrOperatingSystemName, s.os.name)
	set(attrOperatingSystemVersion, s.os.version)
	// The five "Name Version" attributes are built in one buffer, one
	// allocation instead of five.
	osName := ""
	if s.os.name != "" {
		name := s.os.name
		if name == "Windows NT" && v[attrOperatingSystemVersion] != Unknown {
			name = "Windows" // "Windows XP", "Windows 7", not "Windows NT 7"
		}
		osName = name
	}

	set(attrLayoutEngineClass, s.engClass.v)
	set(attrLayoutEngineName, s.engName.v)
	set(attrLayoutEngineVersion, s.engVersion.v)
	set(attrLayoutEngineBuild, s.engBuild.v)
	if s.engName.v != "" {
		v[attrLayoutEngineVersionMajor] = versionMajor(v[attrLayoutEngineVersion])
	}

	set(attrAgentClass, s.agClass.v)
	set(attrAgentName, s.agName.v)
	set(attrAgentVersion, s.agVersion.v)
	if s.agName.v != "" {
		v[attrAgentVersionMajor] = versionMajor(v[attrAgentVersion])
	}
	var pairs [5]struct {
		attr        int
		name, value string
	}
	n, size := 0, 0
	add := func(attr int, name, value string) {
		if value == Unknown {
			// A known name with an unknown version: Yauaa's "Android ??".
			// The attribute is determined (its name is), so it is not
			// Unknown; "??" marks the version part only.
			value = "??"
		}
		if name != "" && name != Unknown {
			pairs[n].attr, pairs[n].name, pairs[n].value = attr, name, value
			n++
			size += len(name) + 1 + len(value)
		}
	}
	add(attrOperatingSystemNameVersion, osName, v[attrOperatingSystemVersion])
	add(attrLayoutEngineNameVersion, s.engName.v, v[attrLayoutEngineVersion])
	add(attrLayoutEngineNameVersionMajor, s.engName.v, v[attrLayoutEngineVersionMajor])
	add(attrAgentNameVersion, s.agName.v, v[attrAgentVersion])
	add(attrAgentNameVersionMajor, s.agName.v, v[attrAgentVersionMajor])
	if n > 0 {
		buf := spare[:0]
		if size > len(spare) {
			buf = make([]byte, 0, size)
		}
		for _, pr := range pairs[:n] {
			start := len(buf)
			buf = append(buf, pr.name...)
			buf = append(buf, ' ')
			buf = append(buf, pr.value...)
			// buf never grows (its capacity is at least size) and its
			// bytes are never written again, so the strings may share it.
			v[pr.attr] = unsafe.String(&buf[start], len(buf)-start)
		}
	}
	set(attrAgentInformationEmail, s.email)
	set(attrAgentInformationUrl, s.url)
	set(attrAgentSecurity, s.security)
	set(attrAgentLanguageCode, s.langCode)
	set(attrAgentLanguage, s.lang)
	if s.ieCompat != "" {
		major := versionMajor(s.ieCompat)
		v[attrIECompatibilityVersion] = s.ieCompat
		v[attrIECompatibilityVersionMajor] = major
		v[attrIECompatibilityNameVersion] = "Internet Explorer " + s.ieCompat
		v[attrIECompatibilityNameVersionMajor] = "Internet Explorer " + major
	}
	set(attrAgentUuid, s.uuid)
	set(attrOperatingSystemVersionBuild, s.osBuild.v)
	set(attrAgentBuild, s.agBuild.v)
	set(attrFacebookCarrier, s.fb.carrier)
	set(attrFacebookDeviceClass, s.fb.devClass)
	set(attrFacebookDeviceName, s.fb.devName)
	set(attrFacebookDeviceVersion, s.fb.devVersion)
	set(attrFacebookFBOP, s.fb.fbop)
	set(attrFacebookFBSS, s.fb.fbss)
	set(attrFacebookOperatingSystemName, s.fb.osName)
	set(attrFacebookOperatingSystemVersion, s.fb.osVersion)
	set(attrKoboAffiliate, s.koboAffiliate)
	set(attrKoboPlatformId, s.koboPlatformID)
	if s.wvName.v != "" {
		ver := s.wvVersion.v
		if ver == "" {
			ver = Unknown
		}
		major := versionMajor(ver)
		v[attrWebviewAppName] = s.wvName.v
		v[attrWebviewAppVersion] = ver
		v[attrWebviewAppVersionMajor] = major
		if major == Unknown {
			major = "??" // Yauaa's "Name ??": the app is known, its version not
		}
		v[attrWebviewAppNameVersionMajor] = s.p.concat(s.wvName.v, " ", major)
	}
}

// orUnknownMark is the version part of a combined "Name Version" attribute:
// "??" when the version is unknown, as Yauaa prints it ("Android ??").
func orUnknownMark(v string) string {
	if v == "" || v == Unknown {
		return "??"
	}
	return v
}
