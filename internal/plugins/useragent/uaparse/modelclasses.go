package uaparse

import (
	"fmt"
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
	shape                *modelCode // for kind "shape"
}

var modelClassRules []modelClassRule

func buildModelClassRules() []modelClassRule {
	rows := loadTable("model_classes.tsv", tableColumns["model_classes.tsv"])
	out := make([]modelClassRule, 0, len(rows))
	for _, r := range rows {
		mr := modelClassRule{kind: r[0], pattern: strings.ToLower(r[1]), class: r[2]}
		switch r[0] {
		case "word", "contains":
		case "shape":
			mc, err := compileModelCode(r[1], r[2], "-")
			if err != nil {
				panic(err)
			}
			mr.shape = mc
		default:
			panic(fmt.Sprintf("model_classes.tsv: kind %q of %q, want word, contains or shape", r[0], r[1]))
		}
		out = append(out, mr)
	}
	return out
}

// modelClass returns the device class the model name says, or "".
func modelClass(model string) string {
	if model == "" || len(model) > 64 {
		return ""
	}
	for i := range modelClassRules {
		r := &modelClassRules[i]
		switch r.kind {
		case "contains":
			if containsLowerASCII(model, r.pattern) {
				return r.class
			}
		case "word":
			if modelHasWord(model, r.pattern) {
				return r.class
			}
		case "shape":
			last := model
			if k := strings.LastIndexByte(model, ' '); k >= 0 {
				last = model[k+1:]
			}
			if r.shape.match(model) || r.shape.match(last) {
				return r.class
			}
		}
	}
	return ""
}

// modelHasWord reports whether a word of the model (split at spaces,
// dashes and underscores, compared without case) ends with w, a lower case
// pattern, optionally followed by digits: "pad" is in "MatePad" and "PAD2";
// a pattern shorter than three letters must be the whole word ("tv",
// "TV2"). It works on the model as it is, without a lower case copy: it
// runs for most Android user agents.
func modelHasWord(m, w string) bool {
	for m != "" {
		k := strings.IndexAny(m, " -_")
		word := m
		if k >= 0 {
			word, m = m[:k], m[k+1:]
		} else {
			m = ""
		}
		word = strings.TrimRight(word, "0123456789")
		if len(word) < len(w) || len(w) < 3 && len(word) != len(w) {
			continue
		}
		if asciiHasPrefixLower(word[len(word)-len(w):], w) {
			return true
		}
	}
	return false
}

// containsLowerASCII reports whether s contains sub, a lower case ASCII
// pattern, without regard to the case of s.
func containsLowerASCII(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if asciiHasPrefixLower(s[i:], sub) {
			return true
		}
	}
	return false
}
