package uaparse

import (
	"strconv"
	"strings"
	"testing"
)

// TestCataloguePrefixesWellFormed checks the prefix table's layout, which
// the lookup relies on: three columns, prefixes written as CatalogueKey
// writes keys, strictly sorted, none the start of another, a support
// column "maker's models/models"; and that every row names its maker for
// a model that starts with it.
func TestCataloguePrefixesWellFormed(t *testing.T) {
	ensureModel()
	rows := strings.Split(strings.TrimSuffix(androidPrefixes[catalogStart(androidPrefixes):], "\n"), "\n")
	if len(rows) < 1000 || len(rows) != len(catalogPrefixKeys) {
		t.Fatalf("prefix table has %d rows, %d read; want more than 1,000, all read", len(rows), len(catalogPrefixKeys))
	}
	prev := ""
	for i, line := range rows {
		cols := strings.Split(line, "\t")
		if len(cols) != 3 {
			t.Fatalf("row %d %q: %d columns, want 3", i, line, len(cols))
		}
		pre, brand := cols[0], cols[1]
		if pre <= prev {
			t.Fatalf("row %d: prefix %q does not sort after %q", i, pre, prev)
		}
		if prev != "" && strings.HasPrefix(pre, prev) {
			t.Errorf("row %d: prefix %q starts with the row before, %q", i, pre, prev)
		}
		prev = pre
		if len(pre) < 4 || CatalogueKey(pre) != pre {
			t.Errorf("row %d: prefix %q is shorter than four or not written as CatalogueKey writes it", i, pre)
		}
		if brand == "" || strings.TrimSpace(brand) != brand {
			t.Errorf("row %d: brand %q", i, brand)
		}
		top, total, ok := strings.Cut(cols[2], "/")
		a, err1 := strconv.Atoi(top)
		b, err2 := strconv.Atoi(total)
		if !ok || err1 != nil || err2 != nil || a < 3 || b < a || float64(a) < 0.95*float64(b) {
			t.Errorf("row %d: support %q is not three models or more, 95 %% of them the maker's", i, cols[2])
		}
		model := pre + "x9"
		if got, _ := catalogPrefixFacts(model); got != brand {
			t.Errorf("row %d: %q gives maker %q, want %q", i, model, got, brand)
		}
	}
}

// TestCataloguePrefixFacts checks the lookup: the row the model's key
// starts with, in any spelling of the key; no row for a start no row has,
// for a number the digits of a row start, or for a model whose first word
// is longer than the row (the word is more likely the maker's name).
func TestCataloguePrefixFacts(t *testing.T) {
	ensureModel()
	for _, tc := range []struct{ model, brand, rest string }{
		{"PHQ599", "Condor", "PHQ599"},
		{"phq-599", "Condor", "phq-599"},
		{"Symtab30", "Symphony", "Symtab30"},
		{"TP7A9", "Philco", "TP7A9"},
		{"4009Z", "Alcatel", "4009Z"},
		{"Konka X9", "", ""},       // first word longer than the row "konk"
		{"Konk X9", "Konka", "X9"}, // the row reaches past the word
		{"40099", "", ""},          // digits only: a number, not a code
		{"qqqqqq", "", ""},
		{"abc", "", ""},
		{"", "", ""},
		{strings.Repeat("x", 100), "", ""},
	} {
		brand, rest := catalogPrefixFacts(tc.model)
		if brand != tc.brand || rest != tc.rest {
			t.Errorf("catalogPrefixFacts(%q) = %q, %q; want %q, %q", tc.model, brand, rest, tc.brand, tc.rest)
		}
	}
}

// TestCataloguePrefixExamples checks what the prefix table changes in
// whole user agents: the maker of a model that neither a rule nor the
// catalogue knows, where it starts as listed models of one maker do; a
// maker's name first in the model keeps the model's own reading.
func TestCataloguePrefixExamples(t *testing.T) {
	a := New(Options{})
	for _, tc := range []struct{ model, brand, name string }{
		{"PHQ599", "Condor", "Condor PHQ599"},
		{"Symtab30", "Symphony", "Symphony SYMTAB30"},
		{"TP7A9", "Philco", "Philco TP7A9"},
		{"SHF39", "Sharp", "Sharp SHF39"},
		{"LMK599QM", "LG", "LG LMK599QM"},
		// A product word, which the analyzer never takes for the maker,
		// gives way to the prefix.
		{"ELITE P99", "Sky", "Sky Elite P99"},
		// The first word is a maker's name the list does not know,
		// though Konka's and Terra's listed models start with its
		// first letters.
		{"Konkord X9", "Konkord", "Konkord X9"},
		{"TERRANO_7A", "Terrano", "Terrano 7A"},
	} {
		ua := "Mozilla/5.0 (Linux; Android 10; " + tc.model + ") AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36"
		r := a.Analyze(ua)
		if got := r.Get("DeviceBrand"); got != tc.brand {
			t.Errorf("%s: DeviceBrand %q, want %q", tc.model, got, tc.brand)
		}
		if got := r.Get("DeviceName"); got != tc.name {
			t.Errorf("%s: DeviceName %q, want %q", tc.model, got, tc.name)
		}
	}
}
