package uaparse

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Most makers of Android devices name their models with a few fixed
// letters or digits in front ("YT5760L", "32LEX-7225"), and those letters
// are the same for every model of the maker, whoever sells it where.
// tables/model_prefixes.tsv lists such starts with the maker and, where the
// models starting so are of one kind, the device class; modelPrefixOf finds
// the longest one a model starts with. The table is data made by
// tools/uamodelprefixes (see its header), each row with examples that
// TestModelPrefixExamples checks.

// modelPrefix is a row of tables/model_prefixes.tsv.
type modelPrefix struct {
	brand, class string
	digits       bool // the prefix is digits only: the model needs a letter
}

// modelPrefixes maps a lower case prefix to its row. modelPrefixLengths
// maps the first three bytes of the prefixes to a bit set of their lengths,
// so that a model is looked up only at the lengths of the rows that start
// as it does (one lookup for most models).
var (
	modelPrefixes      map[string]modelPrefix
	modelPrefixLengths map[string]uint32
)

// modelPrefixFirst is the length of the key of modelPrefixLengths, the
// shortest a prefix may be; modelPrefixLongest is the longest.
const (
	modelPrefixFirst   = 3
	modelPrefixLongest = 31
)

func buildModelPrefixes() (m map[string]modelPrefix, lengths map[string]uint32) {
	m, lengths = map[string]modelPrefix{}, map[string]uint32{}
	for _, r := range loadTable("model_prefixes.tsv", tableColumns["model_prefixes.tsv"]) {
		if len(r[0]) < modelPrefixFirst || len(r[0]) > modelPrefixLongest {
			panic(fmt.Sprintf("table model_prefixes.tsv: prefix %q is not %d to %d bytes long", r[0], modelPrefixFirst, modelPrefixLongest))
		}
		class := r[2]
		if class == "-" {
			class = ""
		}
		m[r[0]] = modelPrefix{brand: r[1], class: class, digits: isDigits(r[0])}
		lengths[r[0][:modelPrefixFirst]] |= 1 << len(r[0])
	}
	return m, lengths
}

// modelPrefixOf returns the row of the longest prefix of the table that the
// model starts with, without regard to case.
func modelPrefixOf(model string) (modelPrefix, bool) {
	var buf [modelPrefixLongest]byte
	n := min(len(model), len(buf))
	if n < modelPrefixFirst {
		return modelPrefix{}, false
	}
	lb := buf[:n]
	for i := 0; i < n; i++ {
		lb[i] = lowerASCII(model[i])
	}
	// Indexing a map with a converted byte slice does not copy it.
	lengths := modelPrefixLengths[string(lb[:modelPrefixFirst])]
	for l := n; l >= modelPrefixFirst && lengths != 0; l-- {
		if lengths&(1<<l) == 0 {
			continue
		}
		if r, ok := modelPrefixes[string(lb[:l])]; ok {
			if r.digits && !hasLetter(model) {
				continue
			}
			return r, true
		}
	}
	return modelPrefix{}, false
}

// prefixBrand is the maker of the models that start as this one does (r,
// the model's row of the table), and
// the model without the maker's name when it starts with it, given the
// maker brandOfModel found (or ""). The row decides when brandOfModel found
// none, or found another maker by a prefix of brands.tsv: a row says what
// the makers of three models or more starting so are, where a prefix of
// brands.tsv names one product line ("Primo D8" is Walton's, though HTC
// once sold a One Primo).
// The name may be written in the model's own way: "NUU_A1" is NUU Mobile's
// A1, "X_TIGI_V19" X-TIGI's V19, "UMI_Diamond" Umidigi's Diamond.
func prefixBrand(model, found string, r modelPrefix) (brand, rest string, ok bool) {
	if found == r.brand || found != "" && brandByShape(model) {
		return "", model, false
	}
	if n := len(found); n > 0 && len(model) > n+1 && isModelGap(model[n]) && hasPrefixFold(model, found) {
		// "Ulefone_S1": the model starts with the maker's name as
		// brands.tsv spells it, and the row spells it as Yauaa does
		// (Ulephone); the name is still the maker's, not the model's.
		return r.brand, cutModelGap.trimLeft(model[n:]), true
	}
	return r.brand, withoutBrandWords(model, r.brand), true
}

// withoutBrandWords removes the brand's name from the front of a model,
// written in the model's own way: the whole name, spaces and punctuation
// aside ("RunboF1", "O+ Crunch"), else the longest run of whole words
// (ended by a space, dash or underscore) whose letters and digits start the
// name's, three at least ("NUU_A1" of NUU Mobile, "UMI_Diamond" of
// Umidigi), or two that are a word of the name. Two letters that only start
// it are the maker's tag, part of the model ("TA-2" of Tambo, "OV-Quattor10"
// of Overmax), as Yauaa writes such models. The model is kept whole
// when nothing would be left. A word naming the kind of device before the
// brand's name goes with it: "Tablet_DL_3411" is DL's 3411 and "Smartphone
// DL Horizon H8" DL's Horizon H8, where keeping the word would name the
// maker twice.
func withoutBrandWords(model, brand string) string {
	for _, kind := range [...]string{"tablet", "smartphone"} {
		if len(model) > len(kind)+1 && hasPrefixFold(model, kind) && isModelGap(model[len(kind)]) {
			if rest := withoutBrandWords(model[len(kind)+1:], brand); rest != model[len(kind)+1:] {
				return rest
			}
			break
		}
	}
	cut := 0
	bi := 0 // the next byte of the brand to match
	for i := 0; i < len(model); i++ {
		c := lowerASCII(model[i])
		if !isAlnum(c) {
			if (c == ' ' || c == '-' || c == '_') && (bi >= 3 || bi == 2 && (bi == len(brand) || !isAlnum(lowerASCII(brand[bi])))) {
				cut = i
			}
			continue
		}
		for bi < len(brand) && !isAlnum(brand[bi]) && brand[bi] < utf8.RuneSelf {
			bi++
		}
		if bi >= len(brand) {
			cut = i // the whole name matched
			break
		}
		b, w := lowerASCII(brand[bi]), 1
		if b >= utf8.RuneSelf {
			// Models are written in ASCII: "Kruger&Matz DRIVE 4" and
			// "OWN S3000D" name Krüger&Matz and öwn.
			var r rune
			r, w = utf8.DecodeRuneInString(brand[bi:])
			b = latinBase(r)
		}
		if b != c {
			break
		}
		bi += w
	}
	if cut == 0 {
		return model
	}
	if rest := cutModelGap.trimLeft(model[cut:]); rest != "" {
		return rest
	}
	return model
}

// brandByShape reports whether brandOfModel gives the model its maker by a
// model-code shape or a maker's convention (brands.go, model_codes.tsv)
// rather than by a prefix of brands.tsv. Huawei's series shape counts as a
// prefix: three letters, a dash and a variant code are also other makers'
// series ("TEL-1014GIQ", Telefunken's).
func brandByShape(model string) bool {
	var buf [32]byte
	lb := buf[:copy(buf[:], model)]
	for i, c := range lb {
		lb[i] = lowerASCII(c)
	}
	lm := string(lb)
	if lm == "" || strings.HasPrefix(lm, "samsung ") {
		return true
	}
	if bp := brandPrefixOf(lm); bp != nil {
		return (bp.digits || bp.shaped && !hasPrefixFold(lm, bp.brand)) && modelCodeBrand(model) != ""
	}
	return !huaweiModel(model)
}

// modelPrefixFacts reads the model's row of the table (modelPrefixOf): the
// maker of the models that start as this one does (prefixBrand), and the
// class of those models when the row is the maker's and the model's own
// words gave none (hasClass). A Mobile, an app's device that says neither
// Mobile nor Tablet, stays one unless the row names a television.
func (s *state) modelPrefixFacts(model string, hasClass bool, row modelPrefix, brand, rest *string) {
	if b, r, ok := prefixBrand(model, *brand, row); ok {
		*brand, *rest = b, r
	}
	if !hasClass && row.class != "" && row.brand == *brand && (s.devClass.v != "Mobile" || row.class == "TV") {
		s.devClass.set(row.class, confGeneric+1)
	}
}

// isModelGap reports a byte that separates the words of a model code.
func isModelGap(c byte) bool { return c == ' ' || c == '-' || c == '_' }

// latinBase is the lower case ASCII letter a Latin letter with a diacritic
// is written as in ASCII ("ü" as "u"), or 0 for any other rune.
func latinBase(r rune) byte {
	const base = "aaaaaaaceeeeiiiidnooooo/ouuuuyty" // U+00E0 to U+00FF
	if r >= 0xC0 && r <= 0xDE && r != 0xD7 {
		r += 0x20 // the capitals are 0x20 below their small letters
	}
	if r >= 0xE0 && r <= 0xFF && r != 0xF7 {
		return base[r-0xE0]
	}
	return 0
}
