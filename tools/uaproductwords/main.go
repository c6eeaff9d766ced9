// Command uaproductwords makes the user-agent analyzer's table of product
// words (internal/plugins/useragent/uaparse/tables/product_words.tsv): the
// words that start the Android model names of many makers and name none of
// them ("Tab", "Max", "Note"), which the analyzer never takes for a brand
// where no rule found the maker of a model and its first word would be.
//
// The evidence is Google Play's list of supported devices
// (testdata/useragents/google-play-devices), not a test set: a word is a
// row when the models of at least three makers start with it and a
// separator, no maker of the analyzer's tables has it for its name (unless
// at least ten other makers start their models with it and that maker
// lists under a tenth of them), and a maker named so, if any, lists at most
// a third of the models that start with it. The product lines one maker or
// carrier sells through others are left out by name (excluded).
//
//	go run ./tools/uaproductwords > internal/plugins/useragent/uaparse/tables/product_words.tsv
//
// The output is deterministic; TestTableUpToDate checks that the committed
// table is what the tool makes.
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/weir-streams/weir/tools/internal/playdevices"
)

// Default paths, relative to the repository's root.
const (
	defaultIn      = "testdata/useragents/google-play-devices/supported_devices.csv.gz"
	defaultTables  = "internal/plugins/useragent/uaparse/tables/"
	minMakers      = 3  // makers other than the word's namesake
	minMakersNamed = 10 // the same, for a word that is also a maker's name
)

// excluded are words that pass the test of the list but are the product
// lines one maker or carrier sells through others, or makers' names the
// list does not know as such: the brand they are sold under.
var excluded = map[string]string{
	"staraddict": "SFR's phones", "startrail": "SFR's phones", "starxtrem": "SFR's phones",
	"soshphone": "Sosh's phones", "amazing": "Taiwan Mobile's phones", "mts": "MTS's phones",
	"uscc": "US Cellular's phones", "aquos": "Sharp's line", "andromax": "Smartfren's line",
	"lifetab": "Medion's line", "viewpad": "ViewSonic's line", "galaxy": "Samsung's line",
	"nexus": "Google's line", "era": "Xolo's line", "impress": "Vertex's line",
	"cynus": "Mobistel's line", "hm": "Xiaomi's line", "kirei": "América Movil's line",
	"cherry": "Cherry Mobile's name", "itell": "itel's name", "own": "öwn's name",
	"ice": "Ice Phone's name", "hismarttv": "Hisense's line", "blade": "ZTE's line",
	"vfd": "Vodafone's line", "kt": "KT's codes", "kpad": "kPad's codes",
	"joy": "a maker device-detector names", "it": "a maker device-detector names",
	"matrix": "a maker device-detector names",
}

const header = `# Words that start the Android model names of many makers and name none of them: product words
# ("Tab", "Max", "Note", "Smart TV"), kinds of device and two-letter series tags. Where no rule
# finds the maker of an Android model, the model's first word is taken for its brand ("Pendoo X11
# Pro" is a Pendoo); a word of this table never is, and the brand stays Unknown ("MAX 3", "TAB
# 411 3G"). A word is a row when, in Google Play's list of supported devices
# (testdata/useragents/google-play-devices), the models of at least three makers start with the
# word and a separator, no maker of the analyzer's tables (brands.tsv, model_prefixes.tsv, the
# catalogue) has it for its name (unless at least ten other makers start their models with it and
# that maker lists under a tenth of them: Smart, Neo), and a maker named so, if any, lists at most
# a third of those models. Left out: the product lines that one maker or carrier sells through
# others (SFR's Staraddict, Startrail and Starxtrem, Sosh's SoshPhone, Taiwan Mobile's Amazing,
# MTS's and US Cellular's codes, Sharp's AQUOS, Smartfren's Andromax, Medion's Lifetab,
# ViewSonic's ViewPad, Samsung's Galaxy, Google's Nexus, Xolo's Era, Vertex's Impress, Mobistel's
# Cynus, Xiaomi's HM, América Movil's Kirei, Cherry Mobile's, itel's, öwn's and Ice Phone's names,
# Hisense's HiSmartTV, ZTE's Blade, Vodafone's VFD, KT's and kPad's codes), and Joy, IT and
# Matrix, which device-detector names as makers. Made by tools/uaproductwords:
#   go run ./tools/uaproductwords > internal/plugins/useragent/uaparse/tables/product_words.tsv
# Columns: the word in lower case, an example model (TestProductWordExamples checks that it gets no
# brand from its first word), source.
`

func main() {
	if err := run(os.Stdout, defaultIn, defaultTables); err != nil {
		fmt.Fprintln(os.Stderr, "uaproductwords:", err)
		os.Exit(1)
	}
}

// firstWord is the model's first word in lower case, up to a space, a dash
// or an underscore, and whether more of the model follows it.
func firstWord(model string) (string, bool) {
	k := strings.IndexAny(model, " -_")
	if k < 0 {
		return strings.ToLower(model), false
	}
	return strings.ToLower(model[:k]), k+1 < len(model)
}

// isWord reports two or more ASCII letters.
func isWord(w string) bool {
	if len(w) < 2 {
		return false
	}
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return false
		}
	}
	return true
}

// tableBrands returns the folded names of the brands the analyzer's tables
// name (the second column of each).
func tableBrands(dir string) (map[string]bool, error) {
	names := map[string]bool{}
	for _, name := range []string{"brands.tsv", "model_prefixes.tsv", "catalog/android_models.tsv"} {
		f, err := os.Open(dir + name)
		if err != nil {
			return nil, fmt.Errorf("open %s: %w", name, err)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			line := sc.Text()
			if strings.HasPrefix(line, "#") {
				continue
			}
			if cols := strings.Split(line, "\t"); len(cols) > 1 {
				names[playdevices.Fold(cols[1])] = true
			}
		}
		err = sc.Err()
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", name, err)
		}
	}
	return names, nil
}

// maker is one retail brand of the list and the first model it lists that
// starts with a word.
type maker struct{ brand, model string }

func run(w io.Writer, in, tables string) error {
	records, err := playdevices.Read(in)
	if err != nil {
		return err
	}
	analyzer, err := tableBrands(tables)
	if err != nil {
		return err
	}
	type evidence struct {
		total, own int
		others     []maker
		seen       map[string]bool
	}
	words := map[string]*evidence{}
	for _, r := range records {
		brand, model := r[0], strings.TrimSpace(r[3])
		word, more := firstWord(model)
		if !isWord(word) || !more {
			continue
		}
		e := words[word]
		if e == nil {
			e = &evidence{seen: map[string]bool{}}
			words[word] = e
		}
		e.total++
		if brandWord, _ := firstWord(brand); playdevices.Fold(brand) == word || brandWord == word {
			e.own++
			continue
		}
		if !e.seen[brand] {
			e.seen[brand] = true
			e.others = append(e.others, maker{brand, model})
		}
	}
	keys := make([]string, 0, len(words))
	for word := range words {
		keys = append(keys, word)
	}
	slices.Sort(keys)
	bw := bufio.NewWriter(w)
	bw.WriteString(header)
	for _, word := range keys {
		e := words[word]
		named := analyzer[word]
		switch {
		case len(e.others) < minMakers, e.own*3 > e.total, excluded[word] != "":
			continue
		case named && (e.own*10 >= e.total || len(e.others) < minMakersNamed):
			continue
		}
		shown := make([]string, 0, 3)
		for _, m := range e.others[:min(3, len(e.others))] {
			shown = append(shown, m.brand+" "+m.model)
		}
		source := fmt.Sprintf("starts the models of %d makers in Google Play's list of supported devices (%s)", len(e.others), strings.Join(shown, ", "))
		if e.own > 0 {
			source += fmt.Sprintf("; the maker of that name lists %d of its %d", e.own, e.total)
		}
		if named {
			source += "; also a maker's name, but that maker lists under a tenth of the models that start with it and at least ten other makers start theirs with it"
		}
		fmt.Fprintf(bw, "%s\t%s\t%s\n", word, e.others[0].model, source)
	}
	return bw.Flush()
}
