//go:build !amd64 || purego

package record

import (
	"math/bits"
	"unsafe"
)

// scanBlocks is the assembly's contract in Go, eight bytes a step; nextUnsafe
// does not call it here (haveScanBlocks), since its own loop is the same.
func scanBlocks(p *byte, n int) int {
	s := unsafe.String(p, n&^15)
	for i := 0; i < len(s); i += 8 {
		if m := unsafeBytes(load64(s, i)); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	return len(s)
}

// haveScanBlocks tells nextUnsafe not to call scanBlocks.
const haveScanBlocks = false
