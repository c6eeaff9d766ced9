// Command uamodelprefixes derives candidate rows of the user-agent
// analyzer's model prefix table (internal/plugins/useragent/uaparse/tables/
// model_prefixes.tsv) from the tuning part of Matomo device-detector's
// fixtures: for each lower case start of an Android model code, the brand
// (and, where the models agree, the device class) that the fixtures give
// the models starting so.
//
// Only the tuning part is read: a fixture whose user agent falls in the
// frozen check part (the first byte of sha256(salt NUL ua) below 128, as
// splitPart in the analyzer's tests) is skipped before anything else is
// looked at, so that the check part stays a measure of user agents no row
// was derived from.
//
// A prefix becomes a row when at least -support distinct models start with
// it and at least -purity of them have the same brand; of nested prefixes
// with the same brand only the shortest is kept. -cv scores a grid of
// those two settings by deriving rows from one half of the tuning part's
// models and predicting the brands of the other half, which is how the
// settings are chosen without looking at the check part.
//
// A candidate is then checked against evidence no user agent went into:
// Google Play's list of supported devices, with the makers the analyzer's
// catalogue names for its models. A prefix that at least three listed
// models start with, more than half of them other makers', is no row, and
// the longer prefixes of its models are considered in its place, so that
// the row narrows to the part of the prefix its maker owns. -audit prints
// that evidence for each learned row of the committed table.
//
//	go run ./tools/uamodelprefixes -cv
//	go run ./tools/uamodelprefixes > /tmp/rows.tsv
//	go run ./tools/uamodelprefixes -audit
//
// The rows are candidates: they are reviewed before they are committed.
package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
)

const (
	salt     = "weir-ua-split/device-detector"
	halfSalt = "weir-ua-split/device-detector-tuning-halves"
)

type fixture struct {
	UA     string            `json:"ua"`
	Bot    map[string]string `json:"bot"`
	Device map[string]string `json:"device"`
}

// brandNames maps device-detector's brand names to the analyzer's, which
// follow Yauaa: the maker rather than a sub-brand, Yauaa's spellings.
var brandNames = map[string]string{
	"Tecno Mobile":  "Tecno",
	"Sony Ericsson": "SonyEricsson",
	"RIM":           "BlackBerry",
	"Honor":         "Huawei",
	"POCO":          "Xiaomi",
	"Redmi":         "Xiaomi",
	"Ulefone":       "Ulephone",
	// Yauaa names ComTrade's Tesla phones by their own brand, and
	// Positivo's phones made with BGH for Argentina by Positivo.
	"ComTrade Tesla": "Tesla",
	"Positivo BGH":   "Positivo",
}

// classNames maps device-detector's device types to device classes. A row
// gives only Tablet, TV or Car: the analyzer follows Yauaa, which names a phone
// by its Mobile token (and an app's client without one a Mobile), so a
// Phone class from the model would contradict it; phones still count
// against a prefix's class.
var classNames = map[string]string{
	"smartphone":  "Phone",
	"phablet":     "Phone",
	"tablet":      "Tablet",
	"tv":          "TV",
	"car browser": "Car",
}

type model struct {
	code, brand, class string
}

func main() {
	in := flag.String("in", "testdata/useragents/matomo-device-detector/device-detector.jsonl", "device-detector fixtures (JSON lines)")
	brandsFile := flag.String("brands", "internal/plugins/useragent/uaparse/tables/brands.tsv", "the brands table, for the brands' spellings")
	support := flag.Int("support", 3, "least number of distinct models a prefix must start")
	purity := flag.Float64("purity", 0.95, "least share of those models with the row's brand")
	minLen := flag.Int("min", 3, "shortest prefix")
	cv := flag.Bool("cv", false, "score a grid of -support and -purity on two halves of the tuning part instead of printing rows")
	catalogPath := flag.String("catalog", "internal/plugins/useragent/uaparse/tables/catalog/android_models.tsv", "the catalogue of Android models, the independent evidence a row is checked against")
	listPath := flag.String("list", "testdata/useragents/google-play-devices/supported_devices.csv.gz", "Google Play's list of supported devices, whose models the catalogue's makers are looked up for")
	tablePath := flag.String("table", "internal/plugins/useragent/uaparse/tables/model_prefixes.tsv", "the prefix table -audit checks")
	doAudit := flag.Bool("audit", false, "check the table's learned rows against the catalogue instead of printing rows")
	hand := flag.Bool("hand", false, "with -audit, check the rows written by hand too")
	noCheck := flag.Bool("nocatalog", false, "derive rows without the catalogue check")
	half := flag.Int("half", -1, "derive from one half (0 or 1) of the tuning part only, split by the hash uaparse's UAPARSE_DD_HALVES reports by, to see how the rows do on the other half")
	flag.Parse()
	cat, err := readCatalogue(*catalogPath, *listPath)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if *doAudit {
		bad, err := audit(os.Stdout, *tablePath, cat, *hand)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Fprintf(os.Stderr, "%d rows contradicted by the catalogue\n", bad)
		return
	}
	check := cat.contradicts
	if *noCheck {
		check = nil
	}
	spell, err := spellings(*brandsFile)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	models, err := tuningModels(*in, spell, *half)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if *cv {
		crossValidate(models, *minLen, check)
		return
	}
	for _, r := range derive(models, *support, *purity, *minLen, check) {
		class := r.class
		if class == "" {
			class = "-"
		}
		fmt.Printf("%s\t%s\t%s\t%s\t%d models, %.0f %% of them\n", r.prefix, r.brand, class, strings.Join(r.examples, ","), r.n, 100*r.share)
	}
}

// spellings reads the brands table's brand column: a brand it names is
// written as it writes it.
func spellings(path string) (map[string]string, error) {
	m := map[string]string{}
	err := eachRow(path, "brands table", func(cols []string) error {
		if len(cols) > 1 {
			if l := strings.ToLower(cols[1]); m[l] == "" {
				m[l] = cols[1]
			}
		}
		return nil
	})
	return m, err
}

// tuningModels reads the Android model codes and their brands and classes
// from the tuning part's fixtures, one entry per distinct code.
func tuningModels(path string, spell map[string]string, half int) ([]model, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open fixtures: %w", err)
	}
	defer f.Close()
	seen := map[string]bool{}
	var out []model
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var c fixture
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			return nil, fmt.Errorf("decode fixture: %w", err)
		}
		if sum := sha256.Sum256([]byte(salt + "\x00" + c.UA)); sum[0] < 128 {
			continue // the frozen check part
		}
		if sum := sha256.Sum256([]byte(halfSalt + "\x00" + c.UA)); half >= 0 && int(sum[0]&1) != half {
			continue
		}
		brand := c.Device["brand"]
		if c.Bot != nil || brand == "" {
			continue
		}
		code := androidModel(c.UA)
		if code == "" || seen[code] || strings.ContainsAny(code, ",\t") {
			continue
		}
		seen[code] = true
		if b, ok := brandNames[brand]; ok {
			brand = b
		}
		if s, ok := spell[strings.ToLower(brand)]; ok {
			brand = s
		}
		out = append(out, model{code: code, brand: brand, class: classNames[c.Device["type"]]})
	}
	return out, sc.Err()
}

// androidModel returns the model entry of an Android user agent's comment
// ("(Linux; Android 10; SM-G960F Build/QP1A)" gives "SM-G960F"), or "".
func androidModel(ua string) string {
	open := strings.IndexByte(ua, '(')
	for open >= 0 {
		end := strings.IndexByte(ua[open:], ')')
		if end < 0 {
			end = len(ua) - open
		}
		entries := strings.Split(ua[open+1:open+end], ";")
		after := false
		for _, e := range entries {
			e = strings.TrimSpace(e)
			le := strings.ToLower(e)
			if strings.HasPrefix(le, "android") {
				after = true
				continue
			}
			if !after {
				continue
			}
			if k := strings.Index(le, "build/"); k >= 0 {
				return strings.TrimSpace(e[:k])
			}
			if noise(le) {
				continue
			}
			return e
		}
		if after {
			return ""
		}
		next := strings.IndexByte(ua[open+1:], '(')
		if next < 0 {
			break
		}
		open += 1 + next
	}
	return ""
}

// noise reports the comment entries that are not a model: markers,
// processors, languages, the reduced agent's "K".
func noise(le string) bool {
	switch le {
	case "", "u", "i", "n", "k", "wv", "mobile", "tablet", "linux", "tv", "arm", "arm_64", "aarch64", "x86", "x86_64":
		return true
	}
	if strings.HasPrefix(le, "rv:") || strings.HasPrefix(le, "linux ") {
		return true
	}
	if len(le) == 2 || len(le) == 5 && (le[2] == '-' || le[2] == '_') {
		return true // "nl", "en-us"
	}
	return false
}

type row struct {
	prefix, brand, class string
	n                    int
	share                float64
	examples             []string
}

// derive makes the rows: the shortest prefixes that enough models start
// and that mostly one brand uses, and the longer ones that also give a
// class.
//
// A candidate that contradicted reports (the catalogue's check, or nil for
// none) is no row; a longer prefix of the same models may still be one, so
// a prefix that several makers' codes start with narrows to the part of it
// the row's maker owns.
func derive(models []model, support int, purity float64, minLen int, contradicted func(prefix, brand string) bool) []row {
	type tally struct {
		brands, classes map[string]int
		n               int
	}
	counts := map[string]*tally{}
	for _, m := range models {
		lc := strings.ToLower(m.code)
		for l := minLen; l <= len(lc) && l <= 12; l++ {
			p := lc[:l]
			t := counts[p]
			if t == nil {
				t = &tally{brands: map[string]int{}, classes: map[string]int{}}
				counts[p] = t
			}
			t.n++
			t.brands[m.brand]++
			t.classes[m.class]++
		}
	}
	prefixes := make([]string, 0, len(counts))
	for p := range counts {
		prefixes = append(prefixes, p)
	}
	sort.Slice(prefixes, func(i, j int) bool {
		if len(prefixes[i]) != len(prefixes[j]) {
			return len(prefixes[i]) < len(prefixes[j])
		}
		return prefixes[i] < prefixes[j]
	})
	kept := map[string]row{} // prefix to its brand and class
	var out []row
	for _, p := range prefixes {
		t := counts[p]
		if t.n < support || strings.ContainsAny(p, ",\t") {
			continue
		}
		brand, best := "", 0
		for b, n := range t.brands {
			if n > best || n == best && b < brand {
				brand, best = b, n
			}
		}
		share := float64(best) / float64(t.n)
		if share < purity {
			continue
		}
		class := ""
		for c, n := range t.classes {
			if (c == "Tablet" || c == "TV" || c == "Car") && float64(n)/float64(t.n) >= purity {
				class = c
			}
		}
		// A longer prefix of a kept row's brand is kept only for a class
		// the shorter row does not give ("sm-t", Samsung's tablets).
		covered := false
		for l := minLen; l < len(p); l++ {
			if k, ok := kept[p[:l]]; ok && k.brand == brand && (class == "" || k.class == class) {
				covered = true
				break
			}
		}
		if covered || contradicted != nil && contradicted(p, brand) {
			continue
		}
		kept[p] = row{brand: brand, class: class}
		out = append(out, row{prefix: p, brand: brand, class: class, n: t.n, share: share})
	}
	// The examples of a row are models of its brand that no longer row
	// takes.
	index := map[string]int{}
	for i, r := range out {
		index[r.prefix] = i
	}
	for _, m := range models {
		lc := strings.ToLower(m.code)
		for l := min(len(lc), 12); l >= minLen; l-- {
			if i, ok := index[lc[:l]]; ok {
				if r := &out[i]; r.brand == m.brand && len(r.examples) < 2 {
					r.examples = append(r.examples, m.code)
				}
				break
			}
		}
	}
	var kept2 []row
	for _, r := range out {
		if len(r.examples) > 0 {
			kept2 = append(kept2, r)
		}
	}
	sort.Slice(kept2, func(i, j int) bool { return kept2[i].prefix < kept2[j].prefix })
	return kept2
}

// predict gives the brand of the longest row prefix a model starts with.
func predict(rows map[string]string, code string, minLen int) (string, bool) {
	lc := strings.ToLower(code)
	for l := min(len(lc), 12); l >= minLen; l-- {
		if b, ok := rows[lc[:l]]; ok {
			return b, true
		}
	}
	return "", false
}

// crossValidate derives rows from one half of the models (by a hash of the
// code) and scores them on the other, both ways, for a grid of settings.
func crossValidate(models []model, minLen int, contradicted func(prefix, brand string) bool) {
	var halves [2][]model
	for _, m := range models {
		h := sha256.Sum256([]byte("cv\x00" + m.code))
		halves[h[0]&1] = append(halves[h[0]&1], m)
	}
	fmt.Printf("%d models: halves of %d and %d\n", len(models), len(halves[0]), len(halves[1]))
	fmt.Printf("support purity  rows  covered  right  wrong  right on the rows' own half\n")
	for _, sup := range []int{2, 3, 4, 5, 8} {
		for _, pur := range []float64{0.8, 0.9, 0.95, 1.0} {
			nrows, covered, right, total, seenRight := 0, 0, 0, 0, 0
			for k := 0; k < 2; k++ {
				rows := map[string]string{}
				for _, r := range derive(halves[k], sup, pur, minLen, contradicted) {
					rows[r.prefix] = r.brand
					nrows++
				}
				for _, m := range halves[k] {
					if b, ok := predict(rows, m.code, minLen); ok && b == m.brand {
						seenRight++
					}
				}
				for _, m := range halves[1-k] {
					total++
					if b, ok := predict(rows, m.code, minLen); ok {
						covered++
						if b == m.brand {
							right++
						}
					}
				}
			}
			fmt.Printf("%7d %6.2f %5d %7.1f%% %6.1f%% %6.1f%% %6.1f%%\n", sup, pur, nrows/2,
				100*float64(covered)/float64(total), 100*float64(right)/float64(total), 100*float64(covered-right)/float64(total),
				100*float64(seenRight)/float64(total))
		}
	}
}
