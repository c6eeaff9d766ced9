package main

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/weir-streams/weir/tools/internal/generated"
)

// TestCataloguePrefixesUpToDate checks that the committed prefix table is
// what the tool makes from the list in testdata and the analyzer's tables.
func TestCataloguePrefixesUpToDate(t *testing.T) {
	root := filepath.Join("..", "..")
	var out bytes.Buffer
	err := runPrefixes(&out, filepath.Join(root, defaultIn), tablesBelow(root)...)
	if err != nil {
		t.Fatal(err)
	}
	generated.Check(t, root, "internal/plugins/useragent/uaparse/tables/catalog/android_prefixes.tsv", out.Bytes(),
		"go run ./tools/uaplaymodels -prefixes")
}

func TestSpeaksForMaker(t *testing.T) {
	for _, tc := range []struct {
		prefix string
		want   bool
	}{
		{"phq5", true},
		{"5033", true},   // digits: read only for a model with a letter
		{"smar", false},  // the start of a generic word
		{"smart", false}, // a generic word
		{"tab10", false}, // a generic word and digits
		{"smarttv", false},
		{"notepro", false},
		{"maxwest", true}, // a maker's name that starts with a generic word
		{"onep", false},   // "one" and the start of "pro"
		{"ktab10", true},
	} {
		if got := speaksForMaker(tc.prefix); got != tc.want {
			t.Errorf("speaksForMaker(%q) = %v, want %v", tc.prefix, got, tc.want)
		}
	}
}

// TestPrefixRows checks the derivation on a small list: the shortest
// start that enough models of one maker share, none where the makers mix,
// and the leave-one-out score.
func TestPrefixRows(t *testing.T) {
	pairs := []modelPair{
		{"abcd1", "A"}, {"abcd2", "A"}, {"abcd3", "A"}, {"abcd4", "A"},
		{"wxyz1", "W"}, {"wxyz2", "V"}, {"wxyz3", "W"}, {"wxyz31", "W"}, {"wxyz32", "W"}, {"wxyz33", "W"},
	}
	rows := prefixRows(pairs, 3, 0.95)
	want := []prefixRow{{"abcd", "A", 4, 4}, {"wxyz3", "W", 4, 4}}
	if len(rows) != len(want) {
		t.Fatalf("rows %+v, want %+v", rows, want)
	}
	for i := range want {
		if rows[i] != want[i] {
			t.Errorf("row %d: %+v, want %+v", i, rows[i], want[i])
		}
	}
	named, right := leaveOneOut(pairs, prefixCounts(pairs), 3, 0.95, nil)
	// abcd1-4 (three others left each), wxyz3 and wxyz31-33 (three
	// left of wxyz3), rightly; and wxyz2, V's only model, which leaves
	// "wxyz" all W's and is named wrongly.
	if named != 9 || right != 8 {
		t.Errorf("leave-one-out named %d, right %d; want 9, 8", named, right)
	}
}
