//go:build !purego

package sha256block

//go:noescape
func blockSHANI(dig *State, p []byte)

//go:noescape
func blockAVX2(dig *State, p []byte)

func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)

func xgetbv() (eax, edx uint32)

// supported lists the block functions this CPU runs, fastest first, with
// the conditions crypto/sha256 checks: SHA-NI needs the SHA extensions,
// SSE4.1, SSSE3 and AVX (its loads are VEX-encoded); the AVX2 one AVX2 and
// BMI2. AVX counts only if the operating system saves the YMM registers.
func supported() []Impl {
	maxID, _, _, _ := cpuid(0, 0)
	if maxID < 7 {
		return []Impl{Generic}
	}
	_, _, ecx1, _ := cpuid(1, 0)
	const (
		ssse3, sse41, osxsave, avx = 1 << 9, 1 << 19, 1 << 27, 1 << 28
		avx2, bmi2, sha            = 1 << 5, 1 << 8, 1 << 29
	)
	hasAVX := false
	if ecx1&osxsave != 0 && ecx1&avx != 0 {
		xcr0, _ := xgetbv()
		hasAVX = xcr0&6 == 6 // XMM and YMM state saved
	}
	_, ebx7, _, _ := cpuid(7, 0)
	var impls []Impl
	if hasAVX && ebx7&sha != 0 && ecx1&sse41 != 0 && ecx1&ssse3 != 0 {
		impls = append(impls, SHANI)
	}
	if hasAVX && ebx7&avx2 != 0 && ebx7&bmi2 != 0 {
		impls = append(impls, AVX2)
	}
	return append(impls, Generic)
}

func blockWith(impl Impl, s *State, p []byte) {
	switch impl {
	case SHANI:
		blockSHANI(s, p)
	case AVX2:
		blockAVX2(s, p)
	default:
		blockGeneric(s, p)
	}
}
