package uaparse

import (
	_ "embed"
	"strings"
)

// An Android user agent carries the model name the device reports
// (Build.MODEL), and for most models nothing in that name says who made it:
// "A340" is DEXP's, "S40Pro" Doogee's, "CPH2469" OnePlus's though OPPO's
// codes start the same way. Google Play's list of supported devices names
// the maker of tens of thousands of such models; tables/catalog/
// android_models.tsv is that list as the analyzer reads it, made by
// tools/uaplaymodels (see its header). An exact model is better evidence
// than a prefix or a shape, so a model found there takes its maker, and its
// class when the marketing name says tablet or television, from the row.

// androidModels is the catalogue's text: header comments, then one sorted
// row per key. It is embedded as a string, which lives in the binary's
// read-only data, and searched in place: the catalogue costs no heap and
// no building.
//
//go:embed tables/catalog/android_models.tsv
var androidModels string

// catalogRow is a row of the catalogue.
type catalogRow struct {
	brand, class string
}

// catalogKeyLongest is the longest model name looked up; longer ones are
// not models.
const catalogKeyLongest = 48

// CatalogueKey is how the catalogue writes a model to find it: ASCII
// letters in lower case, without spaces, dashes and underscores, which
// makers and browsers write in different ways ("SM-A515F", "SM A515F").
// tools/uaplaymodels writes the keys with it.
func CatalogueKey(model string) string {
	k, _ := catalogKey(model, make([]byte, 0, len(model)))
	return string(k)
}

// catalogKey appends the key of model to buf; false when the key would be
// longer than buf can hold (the caller's array) or the model is blank.
func catalogKey(model string, buf []byte) ([]byte, bool) {
	model = strings.TrimSpace(model)
	for i := 0; i < len(model); i++ {
		c := model[i]
		if c == ' ' || c == '-' || c == '_' {
			continue
		}
		if len(buf) == cap(buf) {
			return buf, false
		}
		buf = append(buf, lowerASCII(c))
	}
	return buf, len(buf) > 0
}

// catalogLookup finds the model's row in the catalogue by binary search
// over the sorted rows of the embedded text.
func catalogLookup(model string) (catalogRow, bool) {
	var buf [catalogKeyLongest]byte
	k, ok := catalogKey(model, buf[:0])
	if !ok || len(k) < 3 {
		return catalogRow{}, false
	}
	key := string(k) // does not escape: compared only
	rows := androidModels[androidModelsStart:]
	lo, hi := 0, len(rows) // rows[lo:hi] holds whole rows
	for lo < hi {
		mid := lo + (hi-lo)/2
		// The row around mid: back to its start, on to its end.
		start := strings.LastIndexByte(rows[lo:mid], '\n') + 1 + lo
		end := strings.IndexByte(rows[mid:hi], '\n')
		if end < 0 {
			end = hi
		} else {
			end += mid
		}
		row := rows[start:end]
		tab := strings.IndexByte(row, '\t')
		if tab < 0 {
			return catalogRow{}, false
		}
		switch c := strings.Compare(key, row[:tab]); {
		case c == 0:
			rest := row[tab+1:]
			t := strings.IndexByte(rest, '\t')
			if t < 0 {
				return catalogRow{}, false
			}
			r := catalogRow{brand: rest[:t], class: rest[t+1:]}
			if r.class == "-" {
				r.class = ""
			}
			return r, true
		case c < 0:
			hi = start
		default:
			lo = end + 1
		}
	}
	return catalogRow{}, false
}

// androidModelsStart is the offset of the catalogue's first row, after its
// header comments (buildModel sets it).
var androidModelsStart int

// catalogStart finds the first line of the catalogue that is not a comment.
func catalogStart(text string) int {
	i := 0
	for i < len(text) && text[i] == '#' {
		nl := strings.IndexByte(text[i:], '\n')
		if nl < 0 {
			return len(text)
		}
		i += nl + 1
	}
	return i
}

// catalogFacts reads the model's row of the catalogue, if it has one: the
// maker, unless a model-code shape or a maker's convention
// named another (brandByShape: Yauaa's and device-detector's names for a
// sub-brand, Nubia rather than ZTE) or the model starts with the name of
// the brand it is sold under ("Orange Daytona", which Huawei made), and the class when the model's own
// words gave none (hasClass), which it reports (classSet). A Mobile, an
// app's device that says neither Mobile nor Tablet, stays one unless the
// row names a television, as with the model prefixes.
func (s *state) catalogFacts(model string, hasClass bool, brand, rest *string) (classSet bool) {
	row, ok := catalogLookup(model)
	if !ok {
		return false
	}
	if pr, ok := modelPrefixOf(model); ok && pr.brand != row.brand {
		// A row of model_prefixes.tsv speaks for three models or more
		// that device-detector names alike: the brand they are sold
		// under ("BGH Joy Smart A5C", "HEYOU60" of Essentielb), where
		// the catalogue often names the company that made them (ZTE,
		// Alcatel) or the carrier. The row decides.
		return false
	}
	if *brand != row.brand && (*brand == "" || !brandByShape(model) && !hasPrefixFold(model, *brand)) {
		*brand, *rest = row.brand, withoutBrandWords(model, row.brand)
	}
	if !hasClass && row.class != "" && (s.devClass.v != "Mobile" || row.class == "TV") {
		s.devClass.set(row.class, confGeneric+1)
		classSet = true
	}
	return classSet
}
