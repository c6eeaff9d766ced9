package uaparse

import (
	_ "embed"
	"fmt"
	"strings"
)

// An Android user agent carries the model name the device reports
// (Build.MODEL), and for most models nothing in that name says who made it:
// "H270" is DEXP's, "S40Pro" Doogee's, "CPH2449" OnePlus's though OPPO's
// codes look the same. Google Play's list of supported devices names the
// maker of tens of thousands of such models; tables/catalog/
// android_models.tsv is that list as the analyzer reads it, made by
// tools/uaplaymodels (see its header). A model found there takes its maker
// from the row unless a maker's shape, the seller's name at the start of
// the model or a prefix row names another (catalogFacts), and its class
// when the marketing name says tablet, television, set-top box, watch or
// camera.

// androidModels is the catalogue's text: header comments, then one sorted
// row per key. It is embedded as a string, which lives in the binary's
// read-only data, and searched in place through an index of its rows
// (catalogRowStarts, catalogIndex).
//
//go:embed tables/catalog/android_models.tsv
var androidModels string

// catalogRow is a row of the catalogue. A device row is keyed by a
// device's code name ("kenzo", "j5y17lte") rather than a model name; a
// bare row by a model code the list writes after its maker's name
// ("ZTE A2022P"), which the device also reports without it.
type catalogRow struct {
	brand, class string
	device, bare bool
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
	lo, hi := 0, len(catalogRowStarts) // the rows lo to hi-1 may hold the key
	if b, ok := catalogBucket(k); ok {
		lo, hi = int(catalogIndex[b]), int(catalogIndex[b+1])
	}
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		row := catalogRowText(mid)
		tab := strings.IndexByte(row, '\t')
		if tab < 0 {
			return catalogRow{}, false
		}
		switch c := compareKey(k, row[:tab]); {
		case c == 0:
			rest := row[tab+1:]
			t := strings.IndexByte(rest, '\t')
			if t < 0 {
				return catalogRow{}, false
			}
			r := catalogRow{brand: rest[:t], class: rest[t+1:]}
			// Only the markers "device" and "bare" end in 'e': the
			// classes end in '-', 't' and 'V'.
			if n := len(r.class); n > 0 && r.class[n-1] == 'e' {
				if c, ok := strings.CutSuffix(r.class, "\tdevice"); ok {
					r.class, r.device = c, true
				} else if c, ok := strings.CutSuffix(r.class, "\tbare"); ok {
					r.class, r.bare = c, true
				}
			}
			if r.class == "-" {
				r.class = ""
			}
			return r, true
		case c < 0:
			hi = mid
		default:
			lo = mid + 1
		}
	}
	return catalogRow{}, false
}

// catalogRowText is the text of row i of the catalogue, without its line
// end.
func catalogRowText(i int) string {
	start, end := int(catalogRowStarts[i]), len(androidModels)
	if i+1 < len(catalogRowStarts) {
		end = int(catalogRowStarts[i+1])
	}
	return strings.TrimSuffix(androidModels[start:end], "\n")
}

// androidModelsStart is the offset of the catalogue's first row, after its
// header comments (buildModel sets it).
var androidModelsStart int

// catalogRowStarts holds the offset in the text of each row of the
// catalogue, in order (175 KB for 44,000 rows). catalogIndex holds, for
// each start of a key of three letters or digits (bucket b), the number of
// the first row at or after that start: the rows of bucket b are among rows
// catalogIndex[b] to catalogIndex[b+1]-1, a handful. A lookup so compares a
// key with two or three rows, one read of the text each; a binary search of
// the whole text reads a dozen parts of it, most of them not in the
// processor's caches. buildModel fills both (buildCatalogIndex).
var (
	catalogRowStarts []int32
	catalogIndex     []uint16
)

// catalogBuckets is the number of three-character starts of a key: digits
// and lower case letters.
const catalogBuckets = 36 * 36 * 36

// catalogBucket is the number of the key's first three bytes, when each is
// a digit or a lower case letter, in the order the sorted catalogue has
// them.
func catalogBucket(k []byte) (int, bool) {
	if len(k) < 3 {
		return 0, false
	}
	a, ok1 := catalogChar(k[0])
	b, ok2 := catalogChar(k[1])
	c, ok3 := catalogChar(k[2])
	return (a*36+b)*36 + c, ok1 && ok2 && ok3
}

func catalogChar(c byte) (int, bool) {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0'), true
	case c >= 'a' && c <= 'z':
		return int(c-'a') + 10, true
	}
	return 0, false
}

// buildCatalogIndex reads the catalogue's rows once for catalogRowStarts
// and catalogIndex. The rows of one bucket are consecutive, as the keys are
// sorted; a row whose key starts with another byte may sit between two
// buckets and is then counted with the one before it, which only adds a
// row to that bucket's search. Row numbers must fit 16 bits (a malformed
// table panics, at the first New).
func buildCatalogIndex(text string, start int) (starts []int32, index []uint16) {
	starts = make([]int32, 0, strings.Count(text[start:], "\n")+1)
	first := make([]int32, catalogBuckets+1)
	for i := range first {
		first[i] = -1
	}
	for i := start; i < len(text); {
		end := strings.IndexByte(text[i:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += i
		}
		n := int32(len(starts))
		starts = append(starts, int32(i))
		if b, ok := catalogBucket([]byte(text[i:min(i+3, end)])); ok && first[b] < 0 {
			first[b] = n
		}
		i = end + 1
	}
	if len(starts) > 1<<16-1 {
		panic(fmt.Sprintf("catalogue of Android models: %d rows, at most %d", len(starts), 1<<16-1))
	}
	index = make([]uint16, catalogBuckets+1)
	next := int32(len(starts))
	for b := catalogBuckets; b >= 0; b-- {
		if first[b] >= 0 {
			next = first[b]
		}
		index[b] = uint16(next)
	}
	return starts, index
}

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

// catalogFacts reads the model's row of the catalogue, if it has one. The
// row names the maker unless the model's row of model_prefixes.tsv
// (prefix, when hasPrefix) names another, a model-code shape flagged
// "sub-brand" named another (subBrandCode: Yauaa's and device-detector's
// names for a sub-brand, Nubia rather than ZTE), or the model starts with
// the name of the brand it is sold under ("Orange Daytona", which Huawei
// made). It gives the class when the model's own words gave none
// (hasClass), and reports whether it did (classSet). A Mobile, an app's
// device that says neither Mobile nor Tablet, stays one unless the row
// names a device that is no handheld of that kind (a television, a box, a
// watch, a camera), as with the model prefixes.
//
// A device row counts only for a code name: a model written in lower case
// as code names are ("rosemary"), or one a custom system's tag preceded
// (codeName: "lineage_j5y17lte", "AOSP on Manta"; such a code name is no
// seller's name, whatever brand it starts with). A model written with
// capitals that is also some device's code name ("Vienna", "Presto") is
// more likely another maker's model of that name.
//
// A bare row (a code the list writes after its maker's name, "ZTE
// A2022P") counts only where no earlier rule found a maker: the list's
// makers write their names before their codes, so the bare code is
// weaker evidence than the whole model's row.
func (s *state) catalogFacts(model string, codeName, hasClass bool, prefix modelPrefix, hasPrefix bool, brand, rest *string) (classSet bool) {
	row, ok := catalogLookup(model)
	switch {
	case ok || *brand != "":
	case codeName:
		row, ok = codeNameFamily(model)
	case variantLetter(model):
		// A variant's letter after the code ("SO51Aa", "A239s"):
		// of the listed models so written whose code the list also
		// has without the letter, 97 % are the same maker's.
		code := model[:len(model)-1]
		if row, ok = catalogLookup(code); row.device {
			ok = false
		}
		if mc := modelCodeOf(code); ok && mc != nil && mc.subBrand {
			// The code's shape names a sub-brand the catalogue
			// files under its company ("NX529Jq" of Nubia, ZTE's).
			row.brand = mc.brand
		}
	}
	if !ok || row.device && !codeName && hasUpper(model) && !cappedCodeName(model, *brand) || row.bare && *brand != "" {
		return false
	}
	if hasPrefix && prefix.brand != row.brand {
		// A row of model_prefixes.tsv speaks for three models or more
		// that device-detector names alike: the brand they are sold
		// under ("BGH Joy Smart A5C", "HEYOU60" of Essentielb), where
		// the catalogue often names the company that made them (ZTE,
		// Alcatel) or the carrier. The row decides.
		return false
	}
	// A model-code shape or a maker's convention (brands.go) guesses the
	// maker from the look of the model; the catalogue knows the model
	// ("5124J" is sold as a TCL, though Alcatel's codes look the same).
	if *brand != row.brand && (*brand == "" || codeName || !subBrandCode(model) && !hasPrefixFold(model, *brand)) {
		*brand, *rest = row.brand, withoutBrandWords(model, row.brand)
	}
	if !hasClass && row.class != "" && (s.devClass.v != "Mobile" || row.class != "Tablet") {
		s.devClass.set(row.class, confGeneric+1)
		classSet = true
	}
	return classSet
}

// codeNameFamily finds the device a custom system's code name stands for
// where the catalogue has not the code name itself, by the two ways makers
// and custom systems vary a code name: the device's code names of its
// variants start with it ("osprey" of LineageOS, "osprey_umts" and
// "osprey_u2" in Google's list; "A6020", "A6020a40"), two at least, which
// must all name one maker (a single longer code name may be the only row
// left of a code name two makers used, which the catalogue leaves out),
// or it is a listed code name with a region's or carrier's
// suffix of up to three letters ("serranoltexx", Samsung's international
// "xx" after "serranolte"). The code name keeps five characters at least;
// only device rows count. It runs only for a code name behind a custom
// system's tag that no rule gave a maker, which few user agents carry.
func codeNameFamily(model string) (catalogRow, bool) {
	var buf [catalogKeyLongest]byte
	k, ok := catalogKey(model, buf[:0])
	b, inBucket := catalogBucket(k)
	if !ok || len(k) < 5 || !inBucket {
		return catalogRow{}, false
	}
	var family catalogRow
	found := 0
	for i := int(catalogIndex[b]); i < int(catalogIndex[b+1]); i++ {
		row := catalogRowText(i)
		if len(row) <= len(k) || compareKey(k, row[:len(k)]) != 0 {
			continue
		}
		r, ok := catalogLookup(row[:strings.IndexByte(row, '\t')])
		switch {
		case !ok || !r.device:
			return catalogRow{}, false
		case found == 0:
			family = r
		case r.brand != family.brand:
			return catalogRow{}, false
		case r.class != family.class:
			family.class = ""
		}
		found++
	}
	if found > 1 {
		return family, true
	}
	for n := len(model) - 1; n >= len(model)-3 && n >= 5; n-- {
		if r, ok := catalogLookup(model[:n]); ok && r.device && isLetter(model[n]) && allLetters(model[n:]) {
			return r, true
		}
	}
	return catalogRow{}, false
}

// cappedCodeName reports a model written with capitals that may still be
// the device's code name the firmware reports in capitals ("AC45NE", Archos
// 45 Neon's "ac45ne"; "Roma R2", "Z2 Plus"): no rule named a maker, and
// the model has a digit and a key of six characters or more. A shorter
// name, or one without a digit ("Vienna", "Presto"), matches some other
// device's code name by chance too often ("C70W", "C1_Max").
func cappedCodeName(model, brand string) bool {
	if brand != "" || !strings.ContainsAny(model, "0123456789") {
		return false
	}
	n := 0
	for i := 0; i < len(model); i++ {
		if c := model[i]; c != ' ' && c != '-' && c != '_' {
			n++
		}
	}
	return n >= 6
}

// variantLetter reports a model code of five characters or more, with a
// digit, that ends in a lower case letter after a digit or a capital: the
// letter makers add for a variant of a model ("SO51Aa", "A239s",
// "LG-D855k").
func variantLetter(model string) bool {
	n := len(model)
	if n < 5 || model[n-1] < 'a' || model[n-1] > 'z' {
		return false
	}
	if c := model[n-2]; !(c >= '0' && c <= '9' || c >= 'A' && c <= 'Z') {
		return false
	}
	return strings.ContainsAny(model, "0123456789")
}

// compareKey compares a key with a row's key byte by byte, as
// strings.Compare would compare them as strings; a string made of the key
// would escape to the heap and cost an allocation for every lookup.
func compareKey(k []byte, s string) int {
	n := min(len(k), len(s))
	for i := 0; i < n; i++ {
		if k[i] != s[i] {
			if k[i] < s[i] {
				return -1
			}
			return 1
		}
	}
	switch {
	case len(k) < len(s):
		return -1
	case len(k) > len(s):
		return 1
	}
	return 0
}
