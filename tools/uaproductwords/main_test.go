package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestTableUpToDate checks that the committed table is what the tool makes
// from the list in testdata and the analyzer's tables.
func TestTableUpToDate(t *testing.T) {
	root := filepath.Join("..", "..")
	var out bytes.Buffer
	if err := run(&out, filepath.Join(root, defaultIn), filepath.Join(root, defaultTables)+string(filepath.Separator)); err != nil {
		t.Fatal(err)
	}
	committed, err := os.ReadFile(filepath.Join(root, defaultTables, "product_words.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out.Bytes(), committed) {
		t.Fatal("tables/product_words.tsv is not what tools/uaproductwords makes; run\n" +
			"  go run ./tools/uaproductwords > internal/plugins/useragent/uaparse/tables/product_words.tsv")
	}
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
