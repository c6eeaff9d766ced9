package main

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/weir-streams/weir/tools/internal/generated"
)

// TestTableUpToDate checks that the committed table is what the tool makes
// from the list in testdata and the analyzer's tables.
func TestTableUpToDate(t *testing.T) {
	root := filepath.Join("..", "..")
	var out bytes.Buffer
	if err := run(&out, filepath.Join(root, defaultIn), filepath.Join(root, defaultTables)+string(filepath.Separator)); err != nil {
		t.Fatal(err)
	}
	generated.Check(t, root, filepath.Join(defaultTables, "product_words.tsv"), out.Bytes(), "go run ./tools/uaproductwords")
}

func TestFirstWord(t *testing.T) {
	for _, tc := range []struct {
		model, word string
		more        bool
	}{
		{"MAX 3", "max", true},
		{"TAB_868_PRO", "tab", true},
		{"Pad-7", "pad", true},
		{"Shine", "shine", false},
		{"Note-", "note", false},
	} {
		if w, more := firstWord(tc.model); w != tc.word || more != tc.more {
			t.Errorf("firstWord(%q) = %q, %v; want %q, %v", tc.model, w, more, tc.word, tc.more)
		}
	}
	for w, want := range map[string]bool{"tab": true, "s": false, "tab9": false, "x-bo": false} {
		if isWord(w) != want {
			t.Errorf("isWord(%q) = %v, want %v", w, !want, want)
		}
	}
}
