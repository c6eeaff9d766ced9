package record

import (
	"strings"
	"testing"
)

// TestNextUnsafeLong checks nextUnsafe on a string of many eight-byte
// steps: a byte to escape at the start, in the middle, in the last whole
// step and in the shifted load of the last bytes, from several starts, and
// none at all.
func TestNextUnsafeLong(t *testing.T) {
	const long = 64 << 10
	base := strings.Repeat("x", 2*long+40)
	if got := nextUnsafe(base, 3); got != len(base) {
		t.Fatalf("all safe: got %d, want %d", got, len(base))
	}
	for _, at := range []int{0, 5, long - 1, long, long + 1, long + 17, 2*long + 3, len(base) - 9, len(base) - 1} {
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
