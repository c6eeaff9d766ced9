package main

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/weir-streams/weir/internal/plugins/useragent/uaparse"
	"github.com/weir-streams/weir/tools/internal/playdevices"
)

// The catalogue knows a model only by its exact name; a model the list
// does not hold (a maker's newer model, a variant with another region's
// letter) often starts as the listed models of its maker do. The prefix
// table names the maker by the start of a model's key: the shortest start
// of three characters or more that at least prefixSupport listed models
// share, at least prefixShare of them one maker's. The settings were
// chosen by leaving each listed model out in turn (-loo): how often the
// prefix the rest of the list gives names the maker of the model left
// out.
const (
	prefixSupport = 3
	prefixShare   = 0.95
	// prefixShortest is the shortest prefix kept: three characters start
	// too many makers' codes that the list does not hold (leave-one-out
	// on the models of makers with fewer than 100 listed models: 89.8 %
	// right at three, 92.6 % at four).
	prefixShortest = 4
	// keyShortest is the catalogue's shortest key.
	keyShortest = 3
)

// genericWords start models of many makers ("Smart 5", "Tab 10", "Note
// 8", "TV Box"); a prefix that is one of them, the start of one or one
// followed only by others and digits says nothing of a maker, whatever
// share of the list's models that start so one maker has.
var genericWords = []string{
	"android", "tablet", "tab", "pad", "smart", "phone", "mobile", "note", "pro", "max", "mini", "lite",
	"plus", "kids", "kid", "star", "power", "play", "one", "neo", "tv", "box", "hd", "4k", "led", "ultra",
	"super", "nova", "alpha", "book", "touch", "view", "life", "joy",
}

// modelPair is a listed model (its catalogue key) and a maker that names it.
type modelPair struct{ key, brand string }

// listedModels is every distinct (key, maker) pair of the list's model
// names, keys two makers name included: they are evidence that a start is
// shared.
func listedModels(records [][]string, spell map[string]string) []modelPair {
	seen := map[modelPair]bool{}
	var pairs []modelPair
	for _, r := range records {
		brand := recordBrand(r, spell)
		key := uaparse.CatalogueKey(r[3])
		if brand == "" || len(key) < keyShortest || strings.ContainsAny(key, ",()\t\"") {
			continue
		}
		p := modelPair{key, brand}
		if !seen[p] {
			seen[p] = true
			pairs = append(pairs, p)
		}
	}
	slices.SortFunc(pairs, func(a, b modelPair) int {
		if c := strings.Compare(a.key, b.key); c != 0 {
			return c
		}
		return strings.Compare(a.brand, b.brand)
	})
	return pairs
}

// prefixCounts counts, for each start of a key, the listed models of each
// maker that start so.
func prefixCounts(pairs []modelPair) map[string]map[string]int {
	counts := map[string]map[string]int{}
	for _, p := range pairs {
		for l := prefixShortest; l <= len(p.key); l++ {
			pre := p.key[:l]
			m := counts[pre]
			if m == nil {
				m = map[string]int{}
				counts[pre] = m
			}
			m[p.brand]++
		}
	}
	return counts
}

// speaksForMaker reports whether a prefix may name a maker at all: not a
// generic word, the start of one, or generic words and digits. A prefix of
// digits only is kept (Alcatel's "5033"); the analyzer reads it only for a
// model with a letter, a maker's code rather than a number.
func speaksForMaker(pre string) bool {
	rest := pre
	for rest != "" {
		cut := false
		for _, w := range genericWords {
			if strings.HasPrefix(w, rest) {
				return false // the rest is a generic word or its start
			}
			if strings.HasPrefix(rest, w) && len(w) > 1 {
				rest, cut = rest[len(w):], true
				break
			}
		}
		if !cut {
			return true
		}
		if rest == "" || isDigits(rest) {
			return false
		}
	}
	return true
}

// topMaker is the maker with most models in m, leaving one model of
// without out (without "" leaves none out): the maker, its models and the
// models in all. Ties go to the first name in order, so that the output
// does not depend on map order.
func topMaker(m map[string]int, without string) (brand string, top, total int) {
	for b, n := range m {
		if b == without {
			n--
		}
		total += n
		if n > top || n == top && n > 0 && b < brand {
			brand, top = b, n
		}
	}
	return brand, top, total
}

// prefixOf is the shortest start of key that names a maker under the
// settings (support, share), leaving out one model of the maker without;
// "" when none does.
func prefixOf(counts map[string]map[string]int, key, without string, support int, share float64) (pre, brand string, top, total int) {
	for l := prefixShortest; l <= len(key); l++ {
		p := key[:l]
		if !speaksForMaker(p) {
			continue
		}
		b, t, n := topMaker(counts[p], without)
		if n >= support && float64(t) >= share*float64(n) {
			return p, b, t, n
		}
	}
	return "", "", 0, 0
}

// prefixRow is a row of the prefix table.
type prefixRow struct {
	prefix, brand string
	top, total    int
}

// prefixRows makes the table: the shortest naming start of every listed
// model. No row is the start of another, since a row's models all take it
// before any longer start, so a model matches at most one row.
func prefixRows(pairs []modelPair, support int, share float64) []prefixRow {
	counts := prefixCounts(pairs)
	rows := map[string]prefixRow{}
	for _, p := range pairs {
		if pre, b, t, n := prefixOf(counts, p.key, "", support, share); pre != "" {
			rows[pre] = prefixRow{pre, b, t, n}
		}
	}
	out := make([]prefixRow, 0, len(rows))
	for _, r := range rows {
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b prefixRow) int { return strings.Compare(a.prefix, b.prefix) })
	return out
}

// leaveOneOut scores settings on the list itself: each listed model is
// left out in turn and the table the rest of the list gives is asked for
// its maker. named is how many models a row matched, right how many of
// those it named the maker of. With only, only the models of those makers
// are scored.
func leaveOneOut(pairs []modelPair, counts map[string]map[string]int, support int, share float64, only map[string]bool) (named, right int) {
	for _, p := range pairs {
		if only != nil && !only[p.brand] {
			continue
		}
		if pre, b, _, _ := prefixOf(counts, p.key, p.brand, support, share); pre != "" {
			named++
			if b == p.brand {
				right++
			}
		}
	}
	return named, right
}

// smallMaker is the number of listed models under which -loo counts a
// maker as small.
const smallMaker = 100

// runLeaveOneOut prints the leave-one-out score of a grid of settings.
func runLeaveOneOut(w io.Writer, in string, spellingTables ...string) error {
	spell, records, err := readList(in, spellingTables)
	if err != nil {
		return err
	}
	pairs := listedModels(records, spell)
	counts := prefixCounts(pairs)
	// The makers with few listed models, whose models the analyzer's
	// other rules name least often.
	perMaker := map[string]int{}
	for _, p := range pairs {
		perMaker[p.brand]++
	}
	small, smallModels := map[string]bool{}, 0
	for b, n := range perMaker {
		if n < smallMaker {
			small[b] = true
			smallModels += n
		}
	}
	fmt.Fprintf(w, "%d listed models (key and maker); %d of makers with fewer than %d\n", len(pairs), smallModels, smallMaker)
	fmt.Fprintf(w, "support\tshare\trows\tnamed\tright\tprecision\tcoverage\tsmall: precision\tcoverage\n")
	for _, support := range []int{2, 3, 4, 5, 8, 12} {
		for _, share := range []float64{0.8, 0.9, 0.95, 1} {
			named, right := leaveOneOut(pairs, counts, support, share, nil)
			sn, sr := leaveOneOut(pairs, counts, support, share, small)
			rows := len(prefixRows(pairs, support, share))
			fmt.Fprintf(w, "%d\t%.2f\t%d\t%d\t%d\t%.2f%%\t%.2f%%\t%.2f%%\t%.2f%%\n", support, share, rows, named, right,
				100*float64(right)/float64(max(named, 1)), 100*float64(named)/float64(len(pairs)),
				100*float64(sr)/float64(max(sn, 1)), 100*float64(sn)/float64(max(smallModels, 1)))
		}
	}
	return nil
}

// readList reads the brands' spellings and the list.
func readList(in string, spellingTables []string) (map[string]string, [][]string, error) {
	spell := map[string]string{}
	for _, path := range spellingTables {
		if err := readSpellings(path, spell); err != nil {
			return nil, nil, err
		}
	}
	records, err := playdevices.Read(in)
	if err != nil {
		return nil, nil, err
	}
	return spell, records, nil
}

// runPrefixes writes the prefix table made from the list at in.
func runPrefixes(w io.Writer, in string, spellingTables ...string) error {
	spell, records, err := readList(in, spellingTables)
	if err != nil {
		return err
	}
	pairs := listedModels(records, spell)
	counts := prefixCounts(pairs)
	named, right := leaveOneOut(pairs, counts, prefixSupport, prefixShare, nil)
	rows := prefixRows(pairs, prefixSupport, prefixShare)
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, prefixHeader, prefixShortest, prefixSupport, 100*prefixShare,
		len(rows), len(pairs), named, right, 100*float64(right)/float64(max(named, 1)))
	for _, r := range rows {
		fmt.Fprintf(bw, "%s\t%s\t%d/%d\n", r.prefix, r.brand, r.top, r.total)
	}
	return bw.Flush()
}

const prefixHeader = `# Android makers by the start of a model's key (the catalogue's key: lower case, without spaces,
# dashes and underscores), from Google Play's list of supported devices alone
# (testdata/useragents/google-play-devices): for each listed model, the shortest start of %d
# characters or more that at least %d listed models share, at least %.0f%% of them one maker's; a
# start that is a generic word of models ("smart", "tab", "note"), the start of one, or such words
# followed by digits is skipped; a start of digits only names the maker of a model with a letter.
# No row starts another, so a model matches at most one row. Columns: prefix, maker (the
# analyzer's name, as in android_models.tsv), the maker's models and the models that start so.
# %d rows from %d listed models. Each listed model left out in turn, the rest of the list names a
# maker for %d of them, rightly for %d (%.2f%%). The analyzer asks it only when no rule and no
# catalogue row named a maker.
# Made by tools/uaplaymodels; do not edit by hand:
#   go run ./tools/uaplaymodels -prefixes > internal/plugins/useragent/uaparse/tables/catalog/android_prefixes.tsv
`
