package text

import (
	"strconv"
	"strings"
	"testing"
)

// TestParseInt checks the fast path of parseInt against what SplitText
// did before it, strconv.ParseInt after dropping one leading '+': same
// value, and an error exactly when that gave one.
func TestParseInt(t *testing.T) {
	inputs := []string{
		"0", "200", "203023", "-0", "+0", "-1", "+7", "++5", "+-5", "--5", "-", "+", "", "1a", "a1", " 1", "1 ",
		"999999999999999999", "-999999999999999999", "9223372036854775807", "9223372036854775808",
		"-9223372036854775808", "-9223372036854775809", "0000000000000000001", "1_000", "0x10", "١٢",
	}
	for _, in := range inputs {
		want, wantErr := strconv.ParseInt(strings.TrimPrefix(in, "+"), 10, 64)
		got, err := parseInt(in)
		if got != want || (err != nil) != (wantErr != nil) {
			t.Errorf("parseInt(%q) = %d, %v; want %d, %v", in, got, err, want, wantErr)
		}
	}
}
