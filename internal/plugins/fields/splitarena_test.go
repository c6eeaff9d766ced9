package fields

import (
	"regexp"
	"slices"
	"testing"

	"github.com/weir-streams/weir/internal/fastre"
	"github.com/weir-streams/weir/internal/record"
)

// TestPartsArenaKeepsEveryArray splits the 10,000 real access-log lines
// with one arena sized far too small (one part per record, one record
// left), so that blocks run out often, also in the middle of a line's
// parts; every array handed out must still hold its own parts at the end,
// with no room to append into the next one's.
func TestPartsArenaKeepsEveryArray(t *testing.T) {
	lines := accessLogLines(t)
	re := regexp.MustCompile(`\s*[/?"]\s*`)
	p := newPatternSplitter(re)
	if p.class == nil {
		t.Fatalf("%s is not taken by the byte scan", re)
	}
	a := partsArena{perRecord: 1, left: 1}
	got := make([][]record.Value, len(lines))
	blocks := map[*record.Value]bool{}
	for i, s := range lines {
		got[i] = p.split(s, 1<<20, &a, new(fastre.Scratch))
		blocks[&a.block[:1][0]] = true
	}
	if len(blocks) < 100 {
		t.Errorf("the arena used %d blocks; the test wants it to run out often", len(blocks))
	}
	for i, s := range lines {
		want := re.Split(s, -1)
		parts := make([]string, len(got[i]))
		for j, v := range got[i] {
			parts[j], _ = v.AsString()
		}
		if !slices.Equal(parts, want) {
			t.Fatalf("line %d split into %q, want %q", i, parts, want)
		}
		if cap(got[i]) != len(got[i]) {
			t.Fatalf("line %d: parts have room to grow into another line's (len %d cap %d)", i, len(got[i]), cap(got[i]))
		}
	}
}
