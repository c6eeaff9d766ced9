package uaparse

import (
	_ "embed"
	"strings"
)

// The catalogue knows a model only by its exact name. A model Google
// Play's list does not hold (a maker's newer model, a variant sold in
// another region) most often starts as the listed models of its maker do:
// tables/catalog/android_prefixes.tsv names the maker by the shortest
// start of the catalogue's key that enough listed models share, nearly all
// of them one maker's, made by tools/uaplaymodels from the list alone (see
// its header). No user agent went into it. It is the last word on the
// maker: asked only when no rule and no catalogue row named one.

// androidPrefixes is the prefix table's text: header comments, then one
// sorted row per prefix (prefix, maker, support).
//
//go:embed tables/catalog/android_prefixes.tsv
var androidPrefixes string

// catalogPrefixKeys holds the table's prefixes in order and
// catalogPrefixBrands the maker of each; both are parts of the embedded
// text (buildCatalogPrefixes).
var catalogPrefixKeys, catalogPrefixBrands []string

// buildCatalogPrefixes reads the table's rows once. A malformed row (a
// programming error TestCataloguePrefixesWellFormed catches) panics in the
// first New.
func buildCatalogPrefixes(text string) (keys, brands []string) {
	rows := strings.Split(strings.TrimSuffix(text[catalogStart(text):], "\n"), "\n")
	keys, brands = make([]string, 0, len(rows)), make([]string, 0, len(rows))
	for _, row := range rows {
		cols := strings.Split(row, "\t")
		if len(cols) != 3 || cols[0] == "" || cols[1] == "" {
			panic("catalogue prefixes: malformed row " + row)
		}
		keys, brands = append(keys, cols[0]), append(brands, cols[1])
	}
	return keys, brands
}

// catalogPrefixFacts is the maker the prefix table names for the model,
// and the model without the maker's name when it starts with it; "" when
// no row matches. The rows are sorted and none starts another, so the only
// row that may start the model's key is the last one at or before it.
func catalogPrefixFacts(model string) (brand, rest string) {
	var buf [catalogKeyLongest]byte
	k, ok := catalogKey(model, buf[:0])
	if !ok || len(k) < 3 {
		return "", ""
	}
	lo, hi := 0, len(catalogPrefixKeys)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if compareKey(k, catalogPrefixKeys[mid]) >= 0 {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo == 0 {
		return "", ""
	}
	pre := catalogPrefixKeys[lo-1]
	if len(pre) > len(k) || compareKey(k[:len(pre)], pre) != 0 {
		return "", ""
	}
	if allDigits(pre) && !hasLetter(model) {
		// A prefix of digits only speaks for a maker's model code, which
		// has a letter ("5033D"), not for a number.
		return "", ""
	}
	if len(pre) < firstWordKeyLen(model) {
		// The model starts with a word the list knows no model to start
		// with, most often its maker's own name ("Huadoo HG06",
		// "SAMTRON_43SA701"): the word is the maker, as the first word of
		// a model with no known maker is (androidDevice), not the maker
		// of the listed models that start with its first letters.
		return "", ""
	}
	brand = catalogPrefixBrands[lo-1]
	return brand, withoutBrandWords(model, brand)
}

// firstWordKeyLen is the length in the catalogue's key of the word that
// androidDevice takes for an unknown maker's name, and 0 when it takes
// none: the model's first word before a space, or, where there is none,
// before a dash or an underscore when it is letters and digits that start
// with a letter ("YC-83P"); not a product word or a single letter
// (makerWord), which it does not take.
func firstWordKeyLen(model string) int {
	if k := strings.IndexByte(model, ' '); k > 0 && !isVersionLike(model) && makerWord(model[:k]) {
		n := 0
		for i := 0; i < k; i++ {
			if c := model[i]; c != '-' && c != '_' {
				n++
			}
		}
		return n
	}
	if k := strings.IndexAny(model, "-_"); k > 0 && k+1 < len(model) && isLetter(model[0]) && allAlnum(model[:k]) && makerWord(model[:k]) {
		return k
	}
	return 0
}
