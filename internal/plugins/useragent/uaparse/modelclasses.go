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
	lm := strings.ToLower(model)
	for i := range modelClassRules {
		r := &modelClassRules[i]
		switch r.kind {
		case "contains":
			if strings.Contains(lm, r.pattern) {
				return r.class
			}
		case "word":
			if modelHasWord(lm, r.pattern) {
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

// modelHasWord reports whether a word of the lower case model (split at
// spaces, dashes and underscores) ends with w, optionally followed by
// digits: "pad" is in "matepad" and "pad2"; a pattern shorter than three
// letters must be the whole word ("tv", "tv2").
func modelHasWord(lm, w string) bool {
	for lm != "" {
		k := strings.IndexAny(lm, " -_")
		word := lm
		if k >= 0 {
			word, lm = lm[:k], lm[k+1:]
		} else {
			lm = ""
		}
		word = strings.TrimRight(word, "0123456789")
		// A short pattern ("tv") must be the whole word: as the end of
		// one it is too often part of a model code ("BTV-W09").
		if word == w || len(w) >= 3 && strings.HasSuffix(word, w) {
			return true
		}
	}
	return false
}
