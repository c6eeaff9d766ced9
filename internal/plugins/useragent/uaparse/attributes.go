package uaparse

import "unsafe"

// Attribute indexes, in the order of the service specification. The order is
// part of the API: Result.Each and AttributeNames report attributes in it.
const (
	attrDeviceClass = iota
	attrDeviceName
	attrDeviceBrand
	attrDeviceCpu
	attrDeviceFirmwareVersion
	attrDeviceVersion
	attrOperatingSystemClass
	attrOperatingSystemName
	attrOperatingSystemVersion
	attrOperatingSystemNameVersion
	attrOperatingSystemVersionBuild
	attrLayoutEngineClass
	attrLayoutEngineName
	attrLayoutEngineVersion
	attrLayoutEngineVersionMajor
	attrLayoutEngineNameVersion
	attrLayoutEngineNameVersionMajor
	attrLayoutEngineBuild
	attrAgentClass
	attrAgentName
	attrAgentVersion
	attrAgentVersionMajor
	attrAgentNameVersion
	attrAgentNameVersionMajor
	attrAgentBuild
	attrAgentLanguage
	attrAgentLanguageCode
	attrAgentInformationEmail
	attrAgentInformationUrl
	attrAgentSecurity
	attrAgentUuid
	attrFacebookCarrier
	attrFacebookDeviceClass
	attrFacebookDeviceName
	attrFacebookDeviceVersion
	attrFacebookFBOP
	attrFacebookFBSS
	attrFacebookOperatingSystemName
	attrFacebookOperatingSystemVersion
	attrAnonymized
	attrHackerAttackVector
	attrHackerToolkit
	attrKoboAffiliate
	attrKoboPlatformId
	attrIECompatibilityVersion
	attrIECompatibilityVersionMajor
	attrIECompatibilityNameVersion
	attrIECompatibilityNameVersionMajor
	attrGSAInstallationID
	attrWebviewAppName
	attrWebviewAppNameVersionMajor
	attrWebviewAppVersion
	attrWebviewAppVersionMajor

	numAttributes
)

// Unknown is the value of every attribute that cannot be determined.
const Unknown = "Unknown"

var attributeNames = [numAttributes]string{
	"DeviceClass",
	"DeviceName",
	"DeviceBrand",
	"DeviceCpu",
	"DeviceFirmwareVersion",
	"DeviceVersion",
	"OperatingSystemClass",
	"OperatingSystemName",
	"OperatingSystemVersion",
	"OperatingSystemNameVersion",
	"OperatingSystemVersionBuild",
	"LayoutEngineClass",
	"LayoutEngineName",
	"LayoutEngineVersion",
	"LayoutEngineVersionMajor",
	"LayoutEngineNameVersion",
	"LayoutEngineNameVersionMajor",
	"LayoutEngineBuild",
	"AgentClass",
	"AgentName",
	"AgentVersion",
	"AgentVersionMajor",
	"AgentNameVersion",
	"AgentNameVersionMajor",
	"AgentBuild",
	"AgentLanguage",
	"AgentLanguageCode",
	"AgentInformationEmail",
	"AgentInformationUrl",
	"AgentSecurity",
	"AgentUuid",
	"FacebookCarrier",
	"FacebookDeviceClass",
	"FacebookDeviceName",
	"FacebookDeviceVersion",
	"FacebookFBOP",
	"FacebookFBSS",
	"FacebookOperatingSystemName",
	"FacebookOperatingSystemVersion",
	"Anonymized",
	"HackerAttackVector",
	"HackerToolkit",
	"KoboAffiliate",
	"KoboPlatformId",
	"IECompatibilityVersion",
	"IECompatibilityVersionMajor",
	"IECompatibilityNameVersion",
	"IECompatibilityNameVersionMajor",
	"GSAInstallationID",
	"WebviewAppName",
	"WebviewAppNameVersionMajor",
	"WebviewAppVersion",
	"WebviewAppVersionMajor",
}

var attributeIndex = func() map[string]int {
	m := make(map[string]int, numAttributes)
	for i, n := range attributeNames {
		m[n] = i
	}
	return m
}()

// AttributeNames returns the names of all attributes the analyzer produces,
// in the order of the service specification. The caller owns the slice.
func AttributeNames() []string {
	out := make([]string, numAttributes)
	copy(out, attributeNames[:])
	return out
}

// IsAttribute reports whether name is one of the attribute names (exact,
// case-sensitive match, as in the specification).
func IsAttribute(name string) bool {
	_, ok := attributeIndex[name]
	return ok
}

// Result holds the attributes of one analysed user agent. It is immutable and
// cheap to copy: the values live behind a pointer so that cached results are
// shared between callers without copying 53 strings on every lookup.
type Result struct {
	// p is the start of one allocation without pointers, which the
	// garbage collector never scans (pack). Its first 16-bit word tells
	// the layout:
	//
	//   - 0, narrow (every result whose text is under 32 KiB, that is
	//     every real one): p is an array of numAttributes+1 uint16 end
	//     offsets, the word 0 included, followed by the values' bytes;
	//     value i is the text between ends[i] and ends[i+1], and
	//     unknownBit16 in ends[i+1] marks it Unknown, whose bytes are not
	//     stored;
	//   - wideMark, wide: the same with uint32 offsets and unknownBit32,
	//     starting at byte 4 (the word 0 is again ends[0]).
	//
	// The narrow layout halves the bytes of the offsets, a third of a
	// typical result: the allocation of the result is most of the bytes
	// an uncached analysis allocates, and those bytes set how often the
	// garbage collector runs.
	p unsafe.Pointer
}

const (
	unknownBit16 = 1 << 15
	unknownBit32 = 1 << 31
	wideMark     = 1
	narrowHeader = (numAttributes + 1) * 2
	wideHeader   = 4 + (numAttributes+1)*4
)

// pack keeps a bit per attribute in a uint64.
var _ = [64 - numAttributes]struct{}{}

// pack copies the values into one new allocation, so that a Result refers
// to no other memory: not to the user agent (a cache must not pin a larger
// buffer the caller's string was a slice of), not to the analysis's pooled
// buffers, which the next analysis overwrites.
func pack(v *[numAttributes]string) Result {
	// Most Unknown values are the constant itself: comparing the data
	// pointer first spares a comparison of bytes for each.
	unknownData := unsafe.StringData(Unknown)
	var unknown uint64 // bit i: v[i] is Unknown
	size := 0
	for i := range v {
		if len(v[i]) == len(Unknown) && (unsafe.StringData(v[i]) == unknownData || v[i] == Unknown) {
			unknown |= 1 << i
			continue
		}
		size += len(v[i])
	}
	if size >= unknownBit16 {
		return packWide(v, unknown, size)
	}
	// One byte more than the text needs, so that the data pointer of an
	// empty value at the very end still points into the allocation.
	buf := make([]uint16, (narrowHeader+size+1+1)/2)
	ends := (*[numAttributes + 1]uint16)(buf)
	base := unsafe.Pointer(&buf[0])
	off := 0
	for i := range v {
		if unknown&(1<<i) != 0 {
			ends[i+1] = uint16(off) | unknownBit16
			continue
		}
		off += copyText(unsafe.Add(base, narrowHeader+off), v[i])
		ends[i+1] = uint16(off)
	}
	return Result{p: base}
}

// copyText copies s to dst, which has room for it, and returns its length.
// Values are short (a name, a version), for which a loop of bytes beats the
// call of memmove that copy makes.
func copyText(dst unsafe.Pointer, s string) int {
	if len(s) > 16 {
		return copy(unsafe.Slice((*byte)(dst), len(s)), s)
	}
	d := unsafe.Slice((*byte)(dst), len(s))
	for j := range d {
		d[j] = s[j]
	}
	return len(s)
}

// packWide is pack for a result whose text does not fit the narrow layout.
func packWide(v *[numAttributes]string, unknown uint64, size int) Result {
	buf := make([]uint32, (wideHeader+size+1+3)/4)
	base := unsafe.Pointer(&buf[0])
	*(*uint16)(base) = wideMark
	ends := (*[numAttributes + 1]uint32)(unsafe.Add(base, 4))
	off := 0
	for i := range v {
		if unknown&(1<<i) != 0 {
			ends[i+1] = uint32(off) | unknownBit32
			continue
		}
		off += copy(unsafe.Slice((*byte)(unsafe.Add(base, wideHeader+off)), len(v[i])), v[i])
		ends[i+1] = uint32(off)
	}
	return Result{p: base}
}

// value returns attribute i; i is in range. It is what a cached answer
// costs per attribute read, so it is a few loads and two branches.
func (r Result) value(i int) string {
	if r.p == nil {
		return Unknown
	}
	ends := (*[numAttributes + 1]uint16)(r.p)
	if ends[0] != 0 {
		return r.wideValue(i)
	}
	end := ends[i+1]
	if end&unknownBit16 != 0 {
		return Unknown
	}
	start := ends[i] &^ unknownBit16
	// The text follows the array in the same allocation.
	return unsafe.String((*byte)(unsafe.Add(r.p, narrowHeader+int(start))), int(end-start))
}

// wideValue is value for the wide layout.
func (r Result) wideValue(i int) string {
	ends := (*[numAttributes + 1]uint32)(unsafe.Add(r.p, 4))
	end := ends[i+1]
	if end&unknownBit32 != 0 {
		return Unknown
	}
	start := ends[i] &^ unknownBit32
	return unsafe.String((*byte)(unsafe.Add(r.p, wideHeader+int(start))), int(end-start))
}

// Get returns the value of the named attribute, or the empty string when name
// is not an attribute name (see IsAttribute). A zero Result answers Unknown.
func (r Result) Get(name string) string {
	i, ok := attributeIndex[name]
	if !ok {
		return ""
	}
	return r.value(i)
}

// Each calls fn for every attribute in the order of AttributeNames.
func (r Result) Each(fn func(name, value string)) {
	for i, n := range attributeNames {
		fn(n, r.value(i))
	}
}

// Map returns a new map of every attribute name to its value.
func (r Result) Map() map[string]string {
	m := make(map[string]string, numAttributes)
	r.Each(func(n, v string) { m[n] = v })
	return m
}

// Attribute identifies one attribute by its position in AttributeNames. A
// caller that reads the same attributes of many results (a stream processor)
// resolves the names once with AttributeOf and then reads values with
// Result.Value, without a map lookup per value.
type Attribute int

// AttributeOf returns the Attribute of name, and false when name is not an
// attribute name (see IsAttribute).
func AttributeOf(name string) (Attribute, bool) {
	i, ok := attributeIndex[name]
	return Attribute(i), ok
}

// Name returns the attribute's name, or the empty string for a value that
// did not come from AttributeOf.
func (a Attribute) Name() string {
	if a < 0 || int(a) >= numAttributes {
		return ""
	}
	return attributeNames[a]
}

// Value returns the value of attribute a. A zero Result answers Unknown, and
// an Attribute that did not come from AttributeOf answers the empty string.
func (r Result) Value(a Attribute) string {
	if a < 0 || int(a) >= numAttributes {
		return ""
	}
	return r.value(int(a))
}
