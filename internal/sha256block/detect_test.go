//go:build linux && amd64 && !purego

package sha256block

import (
	"os"
	"strings"
	"testing"
)

// TestUsesSHANIWhereTheCPUHasIt checks the CPU detection against what the
// kernel reports in /proc/cpuinfo: with sha_ni and avx there, the SHA-NI
// block function must be the one in use (and AVX2's listed if avx2 and
// bmi2 are there, the 16-lane AVX-512 one in use if avx512f is there), so that a wrong CPUID bit cannot silently leave a
// machine on the slow generic path.
func TestUsesSHANIWhereTheCPUHasIt(t *testing.T) {
	info, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		t.Fatal(err)
	}
	var flags map[string]bool
	for line := range strings.Lines(string(info)) {
		if name, list, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(name) == "flags" {
			flags = map[string]bool{}
			for _, f := range strings.Fields(list) {
				flags[f] = true
			}
			break
		}
	}
	if flags == nil {
		t.Fatal("no flags line in /proc/cpuinfo")
	}
	wantSHANI := flags["sha_ni"] && flags["avx"] && flags["sse4_1"] && flags["ssse3"]
	wantAVX2 := flags["avx2"] && flags["bmi2"]
	wantAVX512 := flags["avx512f"]
	t.Logf("cpuinfo: sha_ni %v, avx2 and bmi2 %v; supported %v", wantSHANI, wantAVX2, supported())
	if got := Using() == SHANI; got != wantSHANI {
		t.Errorf("SHA-NI in use: %v, want %v", got, wantSHANI)
	}
	hasAVX2 := false
	for _, i := range supported() {
		hasAVX2 = hasAVX2 || i == AVX2
	}
	if hasAVX2 != wantAVX2 {
		t.Errorf("AVX2 supported: %v, want %v", hasAVX2, wantAVX2)
	}
	if got := impl16 == AVX512x16; got != wantAVX512 {
		t.Errorf("AVX-512 16 lanes in use: %v, want %v", got, wantAVX512)
	}
}
