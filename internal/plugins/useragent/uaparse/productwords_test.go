package uaparse

import (
	"strings"
	"testing"
)

// TestProductWordExamples analyses the example model of every row of
// tables/product_words.tsv in an Android user agent: the row's word never
// becomes the brand (the brand is Unknown or a maker another rule names),
// and a word that is also a maker's name in the brand tables or the
// catalogue says in its source why it is a row.
func TestProductWordExamples(t *testing.T) {
	a := New(Options{})
	makers := map[string]bool{}
	for _, r := range loadTable("brands.tsv", tableColumns["brands.tsv"]) {
		makers[strings.ToLower(r[1])] = true
	}
	for _, r := range modelPrefixes {
		makers[strings.ToLower(r.brand)] = true
	}
	for _, line := range strings.Split(androidModels, "\n") {
		if f := strings.Split(line, "\t"); len(f) > 2 && !strings.HasPrefix(line, "#") {
			makers[strings.ToLower(f[1])] = true
		}
	}
	rows := loadTable("product_words.tsv", tableColumns["product_words.tsv"])
	if len(rows) < 100 {
		t.Fatalf("product_words.tsv: %d rows, want the table", len(rows))
	}
	for _, r := range rows {
		word, example := r[0], r[1]
		if word != strings.ToLower(word) || strings.ContainsAny(word, " -_") {
			t.Errorf("product word %q: want one lower case word", word)
		}
		if makers[word] && !strings.Contains(r[2], "also a maker's name") {
			t.Errorf("product word %q is a maker's name in the brand tables or the catalogue, and its source does not say why it is a row", word)
		}
		if !isProductWord(strings.ToUpper(word)) {
			t.Errorf("product word %q: not found in capitals", word)
		}
		k := strings.IndexAny(example, " -_")
		if k <= 0 || !strings.EqualFold(example[:k], word) {
			t.Errorf("product word %q: example %q does not start with the word and a separator", word, example)
			continue
		}
		ua := "Mozilla/5.0 (Linux; Android 10; " + example + ") AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36"
		if b := a.Analyze(ua).Get("DeviceBrand"); strings.EqualFold(b, word) {
			t.Errorf("product word %q: %q gets the brand %q", word, example, b)
		}
	}
	// Without a known maker the first word of a model is still the brand
	// when it is no product word ("Zqvx" is made up).
	ua := "Mozilla/5.0 (Linux; Android 10; Zqvx Max 3) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36"
	if b := a.Analyze(ua).Get("DeviceBrand"); b != "Zqvx" {
		t.Errorf("%q: DeviceBrand %q, want Zqvx", ua, b)
	}
	// A dash may join a maker's name; a single letter before it is a
	// series letter, no maker ("Zqvx" is made up).
	ua = "Mozilla/5.0 (Linux; Android 10; Z-Qvx V11) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36"
	if b := a.Analyze(ua).Get("DeviceBrand"); b != "Z-QVX" {
		t.Errorf("%q: DeviceBrand %q, want Z-QVX", ua, b)
	}
	for _, model := range []string{"MAX 3", "TAB_868_PRO", "Note 18 GT", "Smart_TV BQ", "Z-715", "TAB9 Kids", "NOTE58 Pro"} {
		ua := "Mozilla/5.0 (Linux; Android 10; " + model + ") AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36"
		if b := a.Analyze(ua).Get("DeviceBrand"); b != Unknown {
			t.Errorf("%q: DeviceBrand %q, want %s", ua, b, Unknown)
		}
	}
}

// TestXiaomiNumberMonth shows that a bare number shaped like Xiaomi's
// (year, month, five digits, market letters) is Xiaomi's only where its
// month is one: the dates other makers number their models with are not
// (tables/model_codes.tsv). The second model is made up.
func TestXiaomiNumberMonth(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{"Mozilla/5.0 (Linux; Android 12; 22041219PG) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36",
			map[string]string{"DeviceBrand": "Xiaomi"}},
		{"Mozilla/5.0 (Linux; Android 9; 20190699Q) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36",
			map[string]string{"DeviceBrand": "Unknown"}},
	})
}
