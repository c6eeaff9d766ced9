package main

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/weir-streams/weir/internal/plugins/useragent/uaparse"
	"github.com/weir-streams/weir/tools/internal/playdevices"
)

// catalogue is the evidence a prefix row is checked against: the models
// of Google Play's list of supported devices
// (testdata/useragents/google-play-devices) as a device reports them
// (Build.MODEL, what an Android user agent carries), in lower case as the
// analyzer matches a prefix, each with its maker as the analyzer's
// catalogue (tables/catalog/android_models.tsv, made from the same list by
// tools/uaplaymodels) names it. No user agent went into either, so a row
// learned from the tuning part's models can be checked against the makers
// of the models Google lists. Models the catalogue leaves out (two makers
// name them) are left out here too.
type catalogue struct {
	models []string // sorted, distinct
	brands map[string]string
}

// readCatalogue reads the list at listPath and the makers of its models
// from the catalogue at catalogPath.
func readCatalogue(catalogPath, listPath string) (*catalogue, error) {
	makers := map[string]string{}
	err := eachRow(catalogPath, "catalogue", func(cols []string) error {
		if len(cols) < 3 || len(cols) > 3 && cols[3] == "device" {
			return nil // a code name, not a model's name
		}
		makers[cols[0]] = cols[1]
		return nil
	})
	if err != nil {
		return nil, err
	}
	records, err := playdevices.Read(listPath)
	if err != nil {
		return nil, err
	}
	c := &catalogue{brands: map[string]string{}}
	for _, r := range records {
		m := strings.ToLower(strings.TrimSpace(r[3]))
		b, ok := makers[uaparse.CatalogueKey(r[3])]
		if !ok || m == "" {
			continue
		}
		if _, dup := c.brands[m]; !dup {
			c.models = append(c.models, m)
			c.brands[m] = b
		}
	}
	sort.Strings(c.models)
	return c, nil
}

// each calls f with the maker of each model of the list that starts with
// prefix (lower case). A prefix of digits only matches a model with a
// letter, as the analyzer reads it.
func (c *catalogue) each(prefix string, f func(brand string)) {
	digits := strings.Trim(prefix, "0123456789") == ""
	for i := sort.SearchStrings(c.models, prefix); i < len(c.models) && strings.HasPrefix(c.models[i], prefix); i++ {
		m := c.models[i]
		if digits && strings.Trim(m, "0123456789 ") == "" {
			continue
		}
		f(c.brands[m])
	}
}

// evidence counts the listed models that start with a prefix and how many
// of them another maker than brand sells.
func (c *catalogue) evidence(prefix, brand string) (models, others int) {
	c.each(prefix, func(b string) {
		models++
		if !sameMaker(b, brand) {
			others++
		}
	})
	return models, others
}

// madeBy names, for a brand that operators, retailers or a maker's own
// second brand put on devices other companies make, the makers Google's
// list files those devices under. The device carries the brand (its model
// starts with it or with the brand's product line: "BGH Joy Smart A5",
// "Amazing A4", "HEYOU40", "STARTRAIL 8"), and device-detector and Yauaa
// name a device by the brand it carries, so such a maker in the catalogue
// is no evidence against the row.
var madeBy = map[string][]string{
	"BGH":          {"ZTE"},                                                                                  // BGH's Joy phones
	"Digicel":      {"Alcatel", "ZTE"},                                                                       // the operator's DL phones
	"Essentielb":   {"Alcatel"},                                                                              // Boulanger's HEYOU phones
	"Gigabyte":     {"GSmart", "Foxconn"},                                                                    // Gigabyte's GSmart phones
	"i-mobile":     {"Cellon"},                                                                               // i-mobile's IQ and i-STYLE phones
	"ivvi":         {"Coolpad"},                                                                              // Coolpad's second brand
	"Leader Phone": {"LP"},                                                                                   // the list's other name of the maker
	"MTC":          {"Alcatel", "Cellon", "Huawei", "ZTE"},                                                   // the operator's phones
	"MyPhone (PH)": {"ZTE"},                                                                                  // myPhone's myPad tablets
	"Necnot":       {"Necnon"},                                                                               // the list's spelling of the maker
	"Nubia":        {"ZTE"},                                                                                  // ZTE's second brand
	"Qilive":       {"Archos"},                                                                               // Auchan's Qilive tablets and phones
	"SFR":          {"Altice", "Alcatel", "Hisense", "Huawei", "Laiq", "Mobiwire", "Tunisie Telecom", "ZTE"}, // the operator's Star lines
	"Telenor":      {"Alcatel", "Mobiwire", "ZTE"},                                                           // the operator's phones
	"Turkcell":     {"Huawei", "Reeder", "ZTE"},                                                              // the operator's T phones
	"TWM":          {"Infocus", "ZTE"},                                                                       // Taiwan Mobile's Amazing phones
	"öwn":          {"Alcatel", "Entel", "OwnMobile", "ZTE"},                                                 // öwn's phones
}

// sameMaker reports whether the catalogue's maker b is the row's brand:
// the same name, one name the other's start by their letters and digits
// (the catalogue's "Myphone" is "MyPhone (PH)", "RCA" is "RCA Tablets",
// "AVH San Luis" is "AVH"), or a maker that makes the brand's devices
// (madeBy).
func sameMaker(b, brand string) bool {
	for _, m := range madeBy[brand] {
		if b == m {
			return true
		}
	}
	fb, fr := playdevices.Fold(b), playdevices.Fold(brand)
	return fb == fr || fb != "" && fr != "" && (strings.HasPrefix(fb, fr) || strings.HasPrefix(fr, fb))
}

// Thresholds of the catalogue check: a prefix is contradicted when the
// catalogue lists at least minCatalogueModels models starting with it and
// more than maxOtherShare of them are other brands'. Fewer models are too
// little evidence either way (the catalogue lacks many small makers), and
// a prefix the row's maker shares about evenly is still its maker's
// answer more often than not.
const (
	minCatalogueModels = 3
	maxOtherShare      = 0.5
)

// contradicts reports whether the catalogue contradicts a row giving brand
// to the models starting with prefix.
func (c *catalogue) contradicts(prefix, brand string) bool {
	n, others := c.evidence(prefix, brand)
	return n >= minCatalogueModels && float64(others) > maxOtherShare*float64(n)
}

// audit prints, for each row of the prefix table learned from the tuning
// part (its source says so), and for the rows written by hand too when
// hand is set, the catalogue's evidence, and names the rows the catalogue
// contradicts. It returns how many it names.
func audit(w io.Writer, tablePath string, c *catalogue, hand bool) (int, error) {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, "# verdict\tprefix\tbrand\tcatalogue models\tof other brands\tthe other brands")
	bad := 0
	err := eachRow(tablePath, "prefix table", func(cols []string) error {
		if len(cols) < 5 || !hand && !strings.HasPrefix(cols[4], "device-detector tuning part") {
			return nil
		}
		prefix, brand := cols[0], cols[1]
		n, others := c.evidence(prefix, brand)
		verdict := "ok"
		switch {
		case n < minCatalogueModels:
			verdict = "unknown"
		case c.contradicts(prefix, brand):
			verdict = "contradicted"
			bad++
		}
		fmt.Fprintf(bw, "%s\t%s\t%s\t%d\t%d\t%s\n", verdict, prefix, brand, n, others, c.otherBrands(prefix, brand))
		return nil
	})
	if err != nil {
		return 0, err
	}
	return bad, bw.Flush()
}

// otherBrands names the makers other than brand of the listed models
// starting with prefix, the most frequent first, with their counts.
func (c *catalogue) otherBrands(prefix, brand string) string {
	counts := map[string]int{}
	c.each(prefix, func(b string) {
		if !sameMaker(b, brand) {
			counts[b]++
		}
	})
	names := make([]string, 0, len(counts))
	for b := range counts {
		names = append(names, b)
	}
	sort.Slice(names, func(i, j int) bool {
		if counts[names[i]] != counts[names[j]] {
			return counts[names[i]] > counts[names[j]]
		}
		return names[i] < names[j]
	})
	if len(names) > 4 {
		names = names[:4]
	}
	for i, b := range names {
		names[i] = fmt.Sprintf("%s %d", b, counts[b])
	}
	return strings.Join(names, ", ")
}
