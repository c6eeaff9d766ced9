package record

import (
	"strings"
	"testing"
)

// TestScanBlocks checks scanBlocks (the SSE2 assembly on amd64, its Go
// form elsewhere) against jsonSafe: every byte value at every position of
// strings of 0 to 80 bytes, so each lands in every lane of a 16-byte step,
// and strings with no byte to escape, whose answer is their whole blocks.
func TestScanBlocks(t *testing.T) {
	safe := strings.Repeat("abcdefghijklmnop", 6)
	for n := 0; n <= 80; n++ {
		buf := []byte(safe[:n])
		if n > 0 {
			if got := scanBlocks(&buf[0], n); got != n&^15 {
				t.Fatalf("all safe, n=%d: got %d, want %d", n, got, n&^15)
			}
		}
		for pos := 0; pos < n; pos++ {
			for c := 0; c < 256; c++ {
				buf[pos] = byte(c)
				want := n &^ 15
				if jsonSafe[c] == 0 && pos < want {
					want = pos
				}
				if got := scanBlocks(&buf[0], n); got != want {
					t.Fatalf("n=%d, byte %#x at %d: got %d, want %d", n, c, pos, got, want)
				}
			}
			buf[pos] = safe[pos]
		}
	}
}

// TestNextUnsafeLong checks nextUnsafe across scanStep, where it calls
// scanBlocks again: a byte to escape just before, at and after the step's
// end, and none at all.
func TestNextUnsafeLong(t *testing.T) {
	base := strings.Repeat("x", 2*scanStep+40)
	if got := nextUnsafe(base, 3); got != len(base) {
		t.Fatalf("all safe: got %d, want %d", got, len(base))
	}
	for _, at := range []int{0, 5, scanStep - 1, scanStep, scanStep + 1, scanStep + 17, 2*scanStep + 3, len(base) - 1} {
		for _, from := range []int{0, 3, 16} {
			if from > at {
				continue
			}
			s := base[:at] + `"` + base[at+1:]
			if got := nextUnsafe(s, from); got != at {
				t.Fatalf("quote at %d, from %d: got %d", at, from, got)
			}
		}
	}
}
