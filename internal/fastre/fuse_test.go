package fastre

import "testing"

// TestFuseSaves checks that the capture groups of the side-by-side job's
// pattern run no opSave of their own (each is folded into the instruction
// after it), and that a pattern starting with a group moves the start.
func TestFuseSaves(t *testing.T) {
	const apache = `^(\S+)\s+(\S+)\s+(\S+)\s+\[([\w:/]+\s[+\-]\d{4})\]\s+"(\S+)\s+(\S+)\s*(\S*)"\s+(\S+)\s+(\S+)\s+"([^"]*)"\s+"([^"]*)"?`
	for _, tt := range []struct {
		pattern    string
		saves, pre int // reachable opSaves, reachable instructions with pre
	}{
		{apache, 0, 23}, // 22 group slots and slot 1
		{`(^a)b`, 0, 3}, // slots 2, 3 and 1, the whole match
		// The loop's split is continued at from two places: the save
		// before it stays.
		{`^x(a|b)*c`, 1, 2},
	} {
		m, err := Compile(tt.pattern)
		if err != nil {
			t.Fatal(err)
		}
		saves, pre := 0, 0
		seen := map[int]bool{}
		var walk func(pc int)
		walk = func(pc int) {
			if seen[pc] {
				return
			}
			seen[pc] = true
			in := m.prog[pc]
			if in.op == opSave {
				saves++
			}
			if in.pre != 0 {
				pre++
			}
			if in.op == opMatch {
				return
			}
			walk(in.next)
			if in.op == opSplit {
				walk(in.alt)
			}
		}
		walk(m.start)
		if saves != tt.saves || pre != tt.pre {
			t.Errorf("%s: %d opSaves and %d fused saves reached, want %d and %d", tt.pattern, saves, pre, tt.saves, tt.pre)
		}
	}
}
