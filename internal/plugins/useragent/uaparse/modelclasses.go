package uaparse

import (
	"bytes"
	"fmt"
	"math/bits"
	"strings"
)

// An Android device's class comes first from the "Mobile" and "Tablet"
// tokens, which televisions and boxes leave out and many tablets get wrong.
// The model name often says better: "BBK shell V500DJ6", "MatePad 11",
// "32H520T". tables/model_classes.tsv lists the words and shapes that name
// a class, each with examples that TestModelClassExamples checks; this
// file is the small matcher.

// modelClassRule is a row of tables/model_classes.tsv.
type modelClassRule struct {
	kind, pattern, class string
	k                    modelClassKind // kind, compared as a number in modelClass
	bpattern             []byte         // the lower case pattern, for kinds "word" and "contains"
	shape                *modelCode     // for kinds "shape", "start" and "within"

	// first has bit c set when a model that starts with byte c may have
	// the shape (kinds "shape" and "start"); for kind "within", when the
	// shape's first element matches c. A bit test rules out most models
	// for a rule before the call of fixedStartFits or the search, which
	// would otherwise be most of modelClass's instructions.
	first byteSet

	// second has bit c set when a model may match a "within" row at a
	// position followed by byte c: the bytes of the shape's second
	// element when the first is one character and the second at least
	// one ("-" and a digit for "-#{2}@{2,3}#{2}"). Most positions whose
	// byte passes first fail there ("SM-G950F"), before the search.
	// withSecond is false when the shape does not allow the test.
	second     byteSet
	withSecond bool

	// firstLower is, for kind "within", the one lower case byte that the
	// shape's first element matches in the lower case model, when the
	// element matches exactly the bytes that lower-case to it ('_', or
	// 't' and 'T'): modelClassTry then finds the positions to try with a
	// search for that byte in the lower case model, which skips the bytes
	// between them faster than the test of each. withFirstLower is false
	// when the element matches other bytes.
	firstLower     byte
	withFirstLower bool
}

// byteSet is a set of bytes.
type byteSet [4]uint64

func (b *byteSet) has(c byte) bool { return b[c>>6]&(1<<(c&63)) != 0 }

// mayStart reports whether a model that is m may match the rule's shape:
// m is empty (which fixedStartFits and the search decide), or its first
// byte is in first.
func (r *modelClassRule) mayStart(m string) bool { return m == "" || r.first.has(m[0]) }

// firstBytes returns the bytes a string that has the shape elems (or
// starts with it) can start with: those of each element up to the first
// that must occur at least once; all bytes when every element may be
// absent.
func firstBytes(elems []codeElem) byteSet {
	var b byteSet
	for _, e := range elems {
		eb := elemBytes(e)
		for i := range b {
			b[i] |= eb[i]
		}
		if e.min >= 1 {
			return b
		}
	}
	return byteSet{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}
}

// elemBytes returns the bytes the element matches.
func elemBytes(e codeElem) byteSet {
	var b byteSet
	for c := 0; c < 256; c++ {
		if codeElemMatches(e, byte(c)) {
			b[c>>6] |= 1 << (c & 63)
		}
	}
	return b
}

var modelClassRules []modelClassRule

// modelClassKind is a rule's kind as modelClass compares it.
type modelClassKind uint8

const (
	kindWord modelClassKind = iota
	kindContains
	kindShape
	kindStart
	kindWithin
)

var modelClassKinds = map[string]modelClassKind{
	"word": kindWord, "contains": kindContains, "shape": kindShape, "start": kindStart, "within": kindWithin,
}

// containsByFirst lists, by their first byte, the indexes in
// modelClassRules of the "contains" rules, so that one pass over the
// model finds them all.
var containsByFirst [256][]uint8

// ruleSet is a set of rows of modelClassRules (there are at most 128).
type ruleSet [2]uint64

func (r *ruleSet) add(i int) { r[i>>6] |= 1 << (i & 63) }

func (r *ruleSet) or(o ruleSet) { r[0], r[1] = r[0]|o[0], r[1]|o[1] }

// The rows modelClass tries for a model, by what a row needs: a "word"
// row, a word that ends in its pattern's last letter; a "shape" or
// "start" row, a first byte in its set first (of the model, or for a
// shape of its last word); a "within" row is always tried. modelClass
// goes through the rows of the union in order, so the first match is the
// one a trial of every row in turn would find, at a fraction of the cost
// (the trial of all 74 rows is half of modelClass's instructions).
var (
	classWordByEnd    [256]ruleSet
	classShapeByFirst [256]ruleSet
	classStartByFirst [256]ruleSet
	classShapes       ruleSet // every "shape" row, for an empty last word
	classWithin       ruleSet
)

var (
	// classShapeBySecond and classStartBySecond hold, for each byte c,
	// the "shape" and "start" rows that a model (or last word) whose
	// second byte is c may match: a row whose first two elements are one
	// character each is in the sets of the bytes its second element
	// matches only, since fixedStartFits fails on any other; every other
	// row is in all of them. With the first byte's sets they rule out the
	// rows that share a first byte with the model ("@#{2}@{1,2}#{3}" for
	// "SM-G950F") before the call of modelClassTry.
	classShapeBySecond [256]ruleSet
	classStartBySecond [256]ruleSet
)

func buildModelClassRules() []modelClassRule {
	rows := loadTable("model_classes.tsv", tableColumns["model_classes.tsv"])
	out := make([]modelClassRule, 0, len(rows))
	for _, r := range rows {
		mr := modelClassRule{kind: r[0], k: modelClassKinds[r[0]], pattern: strings.ToLower(r[1]), class: r[2]}
		if mr.class == "-" {
			// A word that names no kind of device: the row matches,
			// so no later row does, and the model has no class.
			mr.class = ""
		}
		mr.bpattern = []byte(mr.pattern)
		switch r[0] {
		case "word", "contains":
		case "shape", "start", "within":
			mc, err := compileModelCode(r[1], r[2], "-")
			if err != nil {
				panic(err)
			}
			mr.shape = mc
			if r[0] == "within" {
				// The bytes of the first element, the test modelClass
				// makes at each position.
				mr.first = elemBytes(mc.elems[0])
				if e := mc.elems; len(e) > 1 && e[0].min == 1 && e[0].max == 1 && e[1].min >= 1 {
					mr.second, mr.withSecond = elemBytes(e[1]), true
				}
				mr.firstLower, mr.withFirstLower = lowerByteOf(mr.first)
			} else {
				mr.first = firstBytes(mc.elems)
			}
		default:
			panic(fmt.Sprintf("model_classes.tsv: kind %q of %q, want word, contains, shape, start or within", r[0], r[1]))
		}
		out = append(out, mr)
	}
	if len(out) > 128 {
		// modelClass marks the matching rules in a 128-bit set.
		panic(fmt.Sprintf("model_classes.tsv: %d rows, at most 128", len(out)))
	}
	for i := range containsByFirst {
		containsByFirst[i] = nil
	}
	classWordByEnd, classShapeByFirst, classStartByFirst = [256]ruleSet{}, [256]ruleSet{}, [256]ruleSet{}
	classShapeBySecond, classStartBySecond = [256]ruleSet{}, [256]ruleSet{}
	classShapes, classWithin = ruleSet{}, ruleSet{}
	for i, r := range out {
		switch r.k {
		case kindContains:
			containsByFirst[r.bpattern[0]] = append(containsByFirst[r.bpattern[0]], uint8(i))
		case kindWord:
			classWordByEnd[r.bpattern[len(r.bpattern)-1]].add(i)
		case kindShape, kindStart:
			for c := 0; c < 256; c++ {
				if !r.first.has(byte(c)) {
					continue
				}
				if r.k == kindShape {
					classShapeByFirst[c].add(i)
				} else {
					classStartByFirst[c].add(i)
				}
			}
			e := r.shape.elems
			fixedSecond := len(e) > 1 && e[0].min == 1 && e[0].max == 1 && e[1].min == 1 && e[1].max == 1
			for c := 0; c < 256; c++ {
				if fixedSecond && !codeElemMatches(e[1], byte(c)) {
					continue
				}
				if r.k == kindShape {
					classShapeBySecond[c].add(i)
				} else {
					classStartBySecond[c].add(i)
				}
			}
			if r.k == kindShape {
				classShapes.add(i)
			}
		case kindWithin:
			classWithin.add(i)
		}
	}
	return out
}

// lowerByteOf returns the byte that every byte of b lower-cases to, and
// true, when b holds exactly the bytes that lower-case to it.
func lowerByteOf(b byteSet) (byte, bool) {
	var l byte
	n := 0
	for c := 0; c < 256; c++ {
		if !b.has(byte(c)) {
			continue
		}
		if n > 0 && lowerASCII(byte(c)) != l {
			return 0, false
		}
		l = lowerASCII(byte(c))
		n++
	}
	if n == 0 {
		return 0, false
	}
	for c := 0; c < 256; c++ {
		if lowerASCII(byte(c)) == l && !b.has(byte(c)) {
			return 0, false
		}
	}
	return l, true
}

// fixedStartFits reports whether m starts with the characters the shape's
// leading single-character elements ask for ("@3#" in "@3#@{3,5}#"): a
// cheap test that rules out most models before the search of
// matchCodeElems.
func fixedStartFits(elems []codeElem, m string) bool {
	for i, e := range elems {
		if e.min != 1 || e.max != 1 {
			return true
		}
		if i >= len(m) || !codeElemMatches(e, m[i]) {
			return false
		}
	}
	return true
}

// modelClass returns the device class the model name says, or "". It runs
// for most Android user agents, so the model is lower-cased once into a
// buffer on the stack and split into words once, and every rule is tried on
// those.
func modelClass(model string) string {
	if model == "" || len(model) > 64 {
		return ""
	}
	var buf [64]byte
	lm := buf[:len(model)]
	for i := 0; i < len(model); i++ {
		lm[i] = lowerASCII(model[i])
	}
	// The words (split at spaces, dashes and underscores), each without
	// its trailing digits ("tv2" is "tv").
	var words [12][2]uint8
	nw := 0
	// The rows to try: those whose cheap test the model passes (see
	// classWordByEnd).
	try := classWithin
	for start := 0; start < len(lm) && nw < len(words); {
		end := start
		for end < len(lm) && lm[end] != ' ' && lm[end] != '-' && lm[end] != '_' {
			end++
		}
		e := end
		for e > start && lm[e-1] >= '0' && lm[e-1] <= '9' {
			e--
		}
		if e > start {
			words[nw] = [2]uint8{uint8(start), uint8(e)}
			nw++
			try.or(classWordByEnd[lm[e-1]])
		}
		start = end + 1
	}
	// One pass marks every "contains" rule the model matches.
	var contains ruleSet
	for i := range lm {
		for _, ri := range containsByFirst[lm[i]] {
			if bytes.HasPrefix(lm[i:], modelClassRules[ri].bpattern) {
				contains[ri>>6] |= 1 << (ri & 63)
			}
		}
	}
	try.or(contains)
	// The model's last word, which a shape may match alone.
	last := model
	if k := strings.LastIndexByte(model, ' '); k >= 0 {
		last = model[k+1:]
		if last == "" {
			try.or(classShapes)
		} else {
			try.or(firstTwo(&classShapeByFirst, &classShapeBySecond, last))
		}
	}
	try.or(firstTwo(&classShapeByFirst, &classShapeBySecond, model))
	try.or(firstTwo(&classStartByFirst, &classStartBySecond, model))
	for w, m := range try {
		for ; m != 0; m &= m - 1 {
			if class, ok := modelClassTry(w*64+bits.TrailingZeros64(m), model, last, lm, words[:nw], &contains); ok {
				return class
			}
		}
	}
	return ""
}

// firstTwo returns the rows of first for m's first byte that second keeps
// for its second byte; m is not empty.
func firstTwo(first, second *[256]ruleSet, m string) ruleSet {
	r := first[m[0]]
	if len(m) > 1 {
		s := &second[m[1]]
		r[0], r[1] = r[0]&s[0], r[1]&s[1]
	}
	return r
}

// modelClassTry returns the class of row i of modelClassRules and true if
// the model matches the row. lm is the lower case model, words its words (see
// modelClass) and contains the "contains" rows it matches.
func modelClassTry(i int, model, last string, lm []byte, words [][2]uint8, contains *ruleSet) (string, bool) {
	r := &modelClassRules[i]
	switch r.k {
	case kindContains:
		if contains[i>>6]&(1<<(i&63)) != 0 {
			return r.class, true
		}
	case kindWord:
		// A pattern shorter than three letters must be the whole
		// word, or its last part in camel case ("FibeTV",
		// "SmarterTV", "iTV912", "SMART4K"): as the end of a word in
		// capitals it is too often part of a model code ("BTV-W09").
		for _, w := range words {
			word := lm[w[0]:w[1]]
			if !bytes.HasSuffix(word, r.bpattern) {
				continue
			}
			start := int(w[1]) - len(r.bpattern)
			if len(word) == len(r.bpattern) ||
				len(r.bpattern) >= 3 && !camelInside(model, int(w[0]), start, int(w[1])) ||
				camelStart(model, start) {
				return r.class, true
			}
		}
	case kindShape:
		// last is a suffix of model: a shorter one is another word (a
		// comparison of lengths, not of bytes).
		if r.mayStart(model) && fixedStartFits(r.shape.elems, model) && r.shape.match(model) ||
			len(last) < len(model) && r.mayStart(last) && fixedStartFits(r.shape.elems, last) && r.shape.match(last) {
			return r.class, true
		}
	case kindStart:
		if r.mayStart(model) && fixedStartFits(r.shape.elems, model) && matchCodeStart(r.shape.elems, model) {
			return r.class, true
		}
	case kindWithin:
		if r.withFirstLower {
			// The positions whose byte the first element matches are
			// those of firstLower in the lower case model.
			for k := 0; k < len(lm); k++ {
				j := bytes.IndexByte(lm[k:], r.firstLower)
				if j < 0 {
					break
				}
				k += j
				if (!r.withSecond || k+1 < len(model) && r.second.has(model[k+1])) &&
					matchCodeStart(r.shape.elems, model[k:]) {
					return r.class, true
				}
			}
			break
		}
		for k := range model {
			if r.first.has(model[k]) && (!r.withSecond || k+1 < len(model) && r.second.has(model[k+1])) &&
				matchCodeStart(r.shape.elems, model[k:]) {
				return r.class, true
			}
		}
	}
	return "", false
}

// camelInside reports whether model[start:end], the end of a word that a
// "word" rule matched, starts inside one part of a camel-case name and
// runs into the next: a small letter followed by a capital, as in
// "RunboX6" (Runbo's X6) and "TurboX_Ray" (Turbo-X's Ray), where "box" is
// no word. A match that starts the word or starts with a capital begins a
// part itself ("CarPad", "MatePad", "MagicBox").
func camelInside(model string, wordStart, start, end int) bool {
	if start == wordStart || model[start] >= 'A' && model[start] <= 'Z' {
		return false
	}
	for k := start + 1; k < end; k++ {
		if model[k] >= 'A' && model[k] <= 'Z' && model[k-1] >= 'a' && model[k-1] <= 'z' {
			return true
		}
	}
	return false
}

// camelStart reports whether a part of a camel-case name starts at
// model[start]: a capital after a small letter or a digit, or a digit
// after a letter ("SMART4K", "era8K").
func camelStart(model string, start int) bool {
	if start == 0 {
		return false
	}
	c, prev := model[start], model[start-1]
	if c >= '0' && c <= '9' {
		return isLetter(prev)
	}
	return c >= 'A' && c <= 'Z' && (prev >= 'a' && prev <= 'z' || prev >= '0' && prev <= '9')
}

// matchCodeStart reports whether m starts with the shape elems: a
// television's model number starts with the screen size and the series
// letters, and what follows them varies too much to write as a shape
// ("43FSY112Xc", "55UCY1-B", "50LEX-8173/UTS2C").
func matchCodeStart(elems []codeElem, m string) bool { return matchCodeElems(elems, m, true) }
