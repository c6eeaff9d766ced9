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
	// ends is the start of one allocation without pointers, which the
	// garbage collector never scans (pack): value i is the text between
	// offsets ends[i] and ends[i+1] of the bytes that follow the array
	// (ends[0] is 0), and unknownBit in ends[i+1] marks it Unknown, whose
	// bytes are not stored.
	ends *[numAttributes + 1]uint32
}

const unknownBit = 1 << 31

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
	// One byte more than the text needs, so that the data pointer of an
	// empty value at the very end still points into the allocation.
	words := make([]uint32, numAttributes+1+(size+1+3)/4)
	ends := (*[numAttributes + 1]uint32)(words)
	text := unsafe.Slice((*byte)(unsafe.Pointer(&words[numAttributes+1])), size+1)
	off := uint32(0)
	for i := range v {
		if unknown&(1<<i) != 0 {
			ends[i+1] = off | unknownBit
			continue
		}
		off += uint32(copy(text[off:], v[i]))
		ends[i+1] = off
	}
	return Result{ends: ends}
}

// value returns attribute i; i is in range. It is what a cached answer
// costs per attribute read, so it is a few loads and one branch.
func (r Result) value(i int) string {
	if r.ends == nil {
		return Unknown
	}
	end := r.ends[i+1]
	if end&unknownBit != 0 {
		return Unknown
	}
	start := r.ends[i] &^ unknownBit
	// The text follows the array in the same allocation.
	return unsafe.String((*byte)(unsafe.Add(unsafe.Pointer(r.ends), (numAttributes+1)*4+int(start))), end-start)
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
