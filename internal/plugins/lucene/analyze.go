package lucene

import (
	"strings"
	"unicode"
)

// stopWords is Lucene's English stop word set (EnglishAnalyzer's
// ENGLISH_STOP_WORDS_SET), which StopAnalyzer removes.
var stopWords = map[string]bool{
	"a": true, "an": true, "and": true, "are": true, "as": true, "at": true, "be": true, "but": true, "by": true,
	"for": true, "if": true, "in": true, "into": true, "is": true, "it": true, "no": true, "not": true, "of": true,
	"on": true, "or": true, "such": true, "that": true, "the": true, "their": true, "then": true, "there": true,
	"these": true, "they": true, "this": true, "to": true, "was": true, "will": true, "with": true,
}

// stopAnalyze splits a field value as StopAnalyzer does: maximal runs of
// letters, lower-cased, without stop words. Digits and punctuation
// separate words and are dropped.
func stopAnalyze(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) }) {
		w = strings.ToLower(w)
		if !stopWords[w] {
			out = append(out, w)
		}
	}
	return out
}

// standardAnalyze splits query text into words as StandardAnalyzer does,
// close enough for matching: runs of letters and digits, joined across an
// underscore, or across a period, apostrophe or colon between two letters
// or two digits (Unicode's word-boundary rules), lower-cased and without
// stop words.
func standardAnalyze(s string) []string {
	rs := []rune(s)
	alnum := func(i int) bool {
		return i >= 0 && i < len(rs) && (unicode.IsLetter(rs[i]) || unicode.IsDigit(rs[i]))
	}
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			w := strings.ToLower(string(cur))
			if !stopWords[w] {
				out = append(out, w)
			}
			cur = cur[:0]
		}
	}
	for i, r := range rs {
		switch {
		case alnum(i):
			cur = append(cur, r)
		case r == '_' && len(cur) > 0 && alnum(i+1):
			cur = append(cur, r)
		case (r == '.' || r == '\'' || r == ':' || r == ',') && len(cur) > 0 && alnum(i+1) &&
			(unicode.IsLetter(rs[i-1]) && unicode.IsLetter(rs[i+1]) && r != ',' ||
				unicode.IsDigit(rs[i-1]) && unicode.IsDigit(rs[i+1]) && r != ':'):
			cur = append(cur, r)
		default:
			flush()
		}
	}
	flush()
	return out
}
