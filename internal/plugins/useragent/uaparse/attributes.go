package uaparse

import (
	"encoding/binary"
	"math/bits"
	"unsafe"
)

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

// attributeIndex returns the position of name in attributeNames. It scans
// the 53 names rather than keep a map: it serves the configuration-time
// lookups (IsAttribute, AttributeOf, Result.Get), which must not build the
// model, and a stream reads values by Attribute, not by name.
func attributeIndex(name string) (int, bool) {
	for i, n := range attributeNames {
		if n == name {
			return i, true
		}
	}
	return 0, false
}

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
	_, ok := attributeIndex(name)
	return ok
}

// Result holds the attributes of one analysed user agent. It is immutable and
// cheap to copy: the values live behind a pointer so that cached results are
// shared between callers without copying 53 strings on every lookup.
type Result struct {
	// p is the start of one allocation without pointers, which the
	// garbage collector never scans (pack):
	//
	//   - a uint64 whose bit i is set when value i is known (not
	//     Unknown, whose bytes are not stored), and whose top bit,
	//     wideBit, tells the layout of the offsets that follow;
	//   - the end offsets of the known values in attribute order, after
	//     a 0: uint16 (narrow, every result whose text is under 64 KiB,
	//     that is every real one) or uint32 (wide);
	//   - the known values' bytes.
	//
	// Known value i is the k-th known one, k the number of known values
	// before it, and its text runs from ends[k] to ends[k+1]. Offsets are
	// kept for known values only (19 of 53 on average over DEV) and in
	// 16 bits: a typical result is so about 220 bytes instead of 380.
	// The allocation of the result is most of what an uncached analysis
	// allocates, and those bytes set how often the garbage collector
	// runs, which on two cores was a tenth of the analysis time.
	p unsafe.Pointer
}

const wideBit = 1 << 63

// The bit set of known values and wideBit share a uint64.
var _ = [63 - numAttributes]struct{}{}

// pack copies the values into one new allocation, so that a Result refers
// to no other memory: not to the user agent (a cache must not pin a larger
// buffer the caller's string was a slice of), not to the analysis's pooled
// buffers, which the next analysis overwrites.
func pack(v *[numAttributes]string) Result {
	// Most Unknown values are the constant itself: comparing the data
	// pointer first spares a comparison of bytes for each.
	unknownData := unsafe.StringData(Unknown)
	var known uint64
	size, n := 0, 0
	for i := range v {
		if len(v[i]) == len(Unknown) && (unsafe.StringData(v[i]) == unknownData || v[i] == Unknown) {
			continue
		}
		known |= 1 << i
		size += len(v[i])
		n++
	}
	width := 2
	if size > 0xffff {
		width = 4
		known |= wideBit
	}
	// One byte more than the text needs, so that the data pointer of an
	// empty value at the very end still points into the allocation.
	header := 8 + width*(n+1)
	buf := make([]uint64, (header+size+1+7)/8)
	base := unsafe.Pointer(&buf[0])
	buf[0] = known
	off, k := 0, 0
	for m := known &^ wideBit; m != 0; m &= m - 1 {
		i := bits.TrailingZeros64(m)
		// Values are short (a name, a version): one of 4 to 16 bytes is
		// copied as two words, which beats both a loop of bytes and the
		// call of memmove that copy makes. The words are stored
		// little-endian as they were read, so the bytes land in their
		// order on every architecture. The copy is written out here
		// rather than called: as a function of its own it is past the
		// compiler's inlining budget, and the call would cost as much as
		// the copy.
		t := v[i]
		d := unsafe.Slice((*byte)(unsafe.Add(base, header+off)), len(t))
		switch l := len(t); {
		case l > 16:
			copy(d, t)
		case l >= 8:
			// The first and the last eight bytes, which overlap when
			// the value is shorter than 16.
			last := le64(t, l-8)
			binary.LittleEndian.PutUint64(d, le64(t, 0))
			binary.LittleEndian.PutUint64(d[l-8:], last)
		case l >= 4:
			last := le32(t, l-4)
			binary.LittleEndian.PutUint32(d, le32(t, 0))
			binary.LittleEndian.PutUint32(d[l-4:], last)
		case l > 0:
			// One to three bytes: the first, the middle and the last,
			// which overlap for shorter values, without a loop whose
			// turns vary from value to value.
			d[0], d[l/2], d[l-1] = t[0], t[l/2], t[l-1]
		}
		off += len(t)
		k++
		if width == 2 {
			*(*uint16)(unsafe.Add(base, 8+2*k)) = uint16(off)
		} else {
			*(*uint32)(unsafe.Add(base, 8+4*k)) = uint32(off)
		}
	}
	return Result{p: base}
}

// value returns attribute i; i is in range. It is what a cached answer
// costs per attribute read, so it is a few loads, a count of bits and two
// branches.
func (r Result) value(i int) string {
	if r.p == nil {
		return Unknown
	}
	known := *(*uint64)(r.p)
	if known&(1<<i) == 0 {
		return Unknown
	}
	n := bits.OnesCount64(known &^ wideBit)
	k := bits.OnesCount64(known & (1<<i - 1))
	var start, end int
	width := 2
	if known&wideBit == 0 {
		ends := unsafe.Add(r.p, 8)
		start, end = int(*(*uint16)(unsafe.Add(ends, 2*k))), int(*(*uint16)(unsafe.Add(ends, 2*k+2)))
	} else {
		width = 4
		ends := unsafe.Add(r.p, 8)
		start, end = int(*(*uint32)(unsafe.Add(ends, 4*k))), int(*(*uint32)(unsafe.Add(ends, 4*k+4)))
	}
	// The text follows the offsets in the same allocation.
	return unsafe.String((*byte)(unsafe.Add(r.p, 8+width*(n+1)+start)), end-start)
}

// Get returns the value of the named attribute, or the empty string when name
// is not an attribute name (see IsAttribute). A zero Result answers Unknown.
func (r Result) Get(name string) string {
	i, ok := attributeIndex(name)
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
	i, ok := attributeIndex(name)
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
