package uaparse

import (
	"fmt"
	"strconv"
	"strings"
)

// Many phones send a bare model code without the maker's name ("V2303A",
// "CPH2219", "22101316UCP"). Makers give their codes a fixed shape, so the
// shape names the maker: tables/model_codes.tsv lists the shapes, and
// modelCodeBrand matches a model against them. The shapes are data, each
// with examples that TestModelCodeExamples checks; this file is the small
// matcher.
//
// A shape is a sequence of elements, each optionally followed by a count
// {n} or {n,m}:
//
//	#  a digit
//	@  a capital letter
//	%  a capital letter or a digit
//	x  any other character: itself, without regard to case
//
// The whole model must match. A shape may start with "^", which means
// nothing: a table line that starts with "#" is a comment, so a shape that
// starts with a digit is written "^#...". A row whose shape holds "%" may require the
// "%" characters to mix letters and digits (column "mixed"), so that
// "G%{4}" takes Google's "GB7N6" but not a number like "G1000". A row
// flagged "sub-brand" names the brand a maker sells a series under where
// the catalogue of Android models names the maker (nubia's "NX563J", which
// Google's list gives to ZTE): such a shape outranks the catalogue, and
// every other shape gives way to the catalogue's exact model. A row flagged
// "start" matches the start of the model, for makers that write a fixed
// series code and then free variant words ("U30GT C4", "U27GT-3GH"); a row
// flagged "word" matches the whole model or its last word, for makers that
// write the product's marketing name first and the model code last ("CITI
// 10 E402 4G CS1235PL").

// codeElem is one element of a compiled shape.
type codeElem struct {
	class    byte // '#', '@', '%', or 0 for a literal
	lit      byte // the literal, in lower case
	min, max int
}

// modelCode is a row of tables/model_codes.tsv, compiled.
type modelCode struct {
	shape    string
	elems    []codeElem
	brand    string
	mixed    bool
	subBrand bool // the brand is a sub-brand the catalogue names the maker of
	start    bool // the shape may be followed by anything
	word     bool // the shape may be the model's last word
	// minLen and maxLen bound the length of a model the shape can be (a
	// row flagged "start" has no upper bound): most models are refused by
	// their length before any element is compared.
	minLen, maxLen int
}

// modelCodes are the shapes by the lower case first byte of the models they
// can match (a shape starting with a class is listed under every byte of
// the class).
var modelCodes [256][]*modelCode

func buildModelCodes() (t [256][]*modelCode) {
	for _, r := range loadTable("model_codes.tsv", tableColumns["model_codes.tsv"]) {
		mc, err := compileModelCode(r[0], r[1], r[2])
		if err != nil {
			panic(err)
		}
		first := mc.elems[0]
		for c := 0; c < 256; c++ {
			if first.min == 0 || codeElemMatches(first, byte(c)) {
				t[c] = append(t[c], mc)
			}
		}
	}
	return t
}

func compileModelCode(shape, brand, flags string) (*modelCode, error) {
	mc := &modelCode{shape: shape, brand: brand}
	shape = strings.TrimPrefix(shape, "^")
	switch flags {
	case "mixed":
		mc.mixed = true
	case "sub-brand":
		mc.subBrand = true
	case "start":
		mc.start = true
	case "word":
		mc.word = true
	case "-":
	default:
		return nil, fmt.Errorf("model code %q: flags %q, want mixed, sub-brand, start, word or -", shape, flags)
	}
	for i := 0; i < len(shape); {
		e := codeElem{min: 1, max: 1}
		switch c := shape[i]; c {
		case '#', '@', '%':
			e.class = c
		default:
			e.lit = lowerASCII(c)
		}
		i++
		if i < len(shape) && shape[i] == '{' {
			end := strings.IndexByte(shape[i:], '}')
			if end < 0 {
				return nil, fmt.Errorf("model code %q: unclosed count", shape)
			}
			lo, hi, two := strings.Cut(shape[i+1:i+end], ",")
			var err1, err2 error
			e.min, err1 = strconv.Atoi(lo)
			e.max = e.min
			if two {
				e.max, err2 = strconv.Atoi(hi)
			}
			if err1 != nil || err2 != nil || e.max < e.min || e.max == 0 {
				return nil, fmt.Errorf("model code %q: bad count %q", shape, shape[i:i+end+1])
			}
			i += end + 1
		}
		mc.elems = append(mc.elems, e)
	}
	if len(mc.elems) == 0 || mc.elems[0].min == 0 {
		return nil, fmt.Errorf("model code %q: must start with an element that is always there", shape)
	}
	for _, e := range mc.elems {
		mc.minLen += e.min
		mc.maxLen += e.max
	}
	return mc, nil
}

func codeElemMatches(e codeElem, c byte) bool {
	switch e.class {
	case '#':
		return c >= '0' && c <= '9'
	case '@':
		return c >= 'A' && c <= 'Z'
	case '%':
		return c >= '0' && c <= '9' || c >= 'A' && c <= 'Z'
	}
	return lowerASCII(c) == e.lit
}

// match reports whether the whole of m has the shape, or, for a row
// flagged "start", its start.
func (mc *modelCode) match(m string) bool {
	if len(m) < mc.minLen || len(m) > mc.maxLen && !mc.start {
		return false
	}
	if !matchCodeElems(mc.elems, m, mc.start) {
		return false
	}
	if mc.mixed {
		// The first character does not count: the rest must mix.
		var letter, digit bool
		for i := 1; i < len(m); i++ {
			letter = letter || m[i] >= 'A' && m[i] <= 'Z'
			digit = digit || m[i] >= '0' && m[i] <= '9'
		}
		return letter && digit
	}
	return true
}

// matchCodeElems reports whether m is the shape elems, or, with prefix,
// starts with it. It matches greedily and backtracks over counts; shapes
// are a handful of elements and models a few bytes, so the search is short.
func matchCodeElems(elems []codeElem, m string, prefix bool) bool {
	if len(elems) == 0 {
		return prefix || m == ""
	}
	e := elems[0]
	n := 0
	for n < e.max && n < len(m) && codeElemMatches(e, m[n]) {
		n++
	}
	for ; n >= e.min; n-- {
		if matchCodeElems(elems[1:], m[n:], prefix) {
			return true
		}
	}
	return false
}

// modelCodeBrand returns the brand whose model-code shape the whole model
// has, or the last word of a model of several words has by a row flagged
// "word", or "".
func modelCodeBrand(model string) string {
	if mc := modelCodeOf(model); mc != nil {
		return mc.brand
	}
	if i := strings.LastIndexByte(model, ' '); i > 0 && i < len(model)-1 && len(model) <= 40 {
		if mc := lastWordCodeOf(model[i+1:]); mc != nil {
			return mc.brand
		}
	}
	return ""
}

// lastWordCodeOf returns the first row flagged "word" whose shape the word
// has, or nil.
func lastWordCodeOf(w string) *modelCode {
	for _, mc := range modelCodes[lowerASCII(w[0])] {
		if mc.word && mc.match(w) {
			return mc
		}
	}
	if c := w[0]; c >= 'A' && c <= 'Z' {
		for _, mc := range modelCodes[c] {
			if mc.word && mc.elems[0].class != 0 && mc.match(w) {
				return mc
			}
		}
	}
	return nil
}

// subBrandCode reports whether the model has the shape of a row flagged
// "sub-brand", whose brand outranks the catalogue's maker.
func subBrandCode(model string) bool {
	mc := modelCodeOf(model)
	return mc != nil && mc.subBrand
}

// modelCodeOf returns the first row whose shape the whole model has, or
// nil.
func modelCodeOf(model string) *modelCode {
	if model == "" || len(model) > 24 {
		return nil
	}
	for _, mc := range modelCodes[lowerASCII(model[0])] {
		if mc.match(model) {
			return mc
		}
	}
	// The table is indexed by the lower case first byte; a capital first
	// byte that a class matches ("@", "%") is indexed as itself.
	if c := model[0]; c >= 'A' && c <= 'Z' {
		for _, mc := range modelCodes[c] {
			if mc.elems[0].class != 0 && mc.match(model) {
				return mc
			}
		}
	}
	return nil
}

// withShapes marks the prefixes of brands.tsv that a model-code shape of
// another maker can start with ("mid" and Coby's "MID#{4}"): only for
// those does brandOfModel match the whole model
// against the shapes, so that the models of other prefixes ("sm-") pay
// nothing for the comparison.
func withShapes(prefixes []brandPrefix) []brandPrefix {
	for i := range prefixes {
		p := prefixes[i].prefix
		lists := [2][]*modelCode{modelCodes[p[0]]}
		if c := p[0]; c >= 'a' && c <= 'z' {
			lists[1] = modelCodes[c-'a'+'A']
		}
		for _, list := range lists {
			for _, mc := range list {
				if mc.brand != prefixes[i].brand && shapeStartsWith(mc.elems, p) {
					prefixes[i].shaped = true
				}
			}
		}
	}
	return prefixes
}

// shapeStartsWith reports whether a model that starts with p, a lower case
// prefix, can have the shape elems: p is read as written in any case.
func shapeStartsWith(elems []codeElem, p string) bool {
	if p == "" {
		return true
	}
	if len(elems) == 0 {
		return false
	}
	e := elems[0]
	fits := func(c byte) bool {
		switch e.class {
		case '#':
			return c >= '0' && c <= '9'
		case '@':
			return lowerASCII(c) >= 'a' && lowerASCII(c) <= 'z'
		case '%':
			return c >= '0' && c <= '9' || lowerASCII(c) >= 'a' && lowerASCII(c) <= 'z'
		}
		return lowerASCII(c) == e.lit
	}
	n := 0
	for n < e.max && n < len(p) && fits(p[n]) {
		n++
	}
	if n == len(p) {
		return true
	}
	for ; n >= e.min; n-- {
		if shapeStartsWith(elems[1:], p[n:]) {
			return true
		}
	}
	return false
}
