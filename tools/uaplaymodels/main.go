// Command uaplaymodels makes the user-agent analyzer's catalogue of Android
// models (internal/plugins/useragent/uaparse/tables/catalog/android_models.tsv)
// from Google Play's list of supported devices
// (testdata/useragents/google-play-devices): for each model as a device
// reports it in Build.MODEL, which is what an Android user agent carries,
// the maker that sells it and, where the marketing name says so, whether
// it is a tablet, a television, a set-top box, a watch or a camera.
//
// The list is Google's, not a test set: nothing of device-detector's or
// Yauaa's cases is read, so the analyzer's accuracy on their check parts
// stays a measure of user agents no rule was written for.
//
//	go run ./tools/uaplaymodels > internal/plugins/useragent/uaparse/tables/catalog/android_models.tsv
//
// With -prefixes it makes the table of model-code prefixes beside it
// (android_prefixes.tsv, prefixes.go): the maker of a model the list does
// not hold, by the start that listed models of one maker share; -loo
// prints how often such a prefix names the maker of a listed model left
// out, for a grid of settings.
//
//	go run ./tools/uaplaymodels -prefixes > internal/plugins/useragent/uaparse/tables/catalog/android_prefixes.tsv
//	go run ./tools/uaplaymodels -loo
//
// The output is deterministic; TestCatalogueUpToDate and
// TestCataloguePrefixesUpToDate check that the committed tables are what
// the tool makes.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"unicode"

	"github.com/weir-streams/weir/internal/plugins/useragent/uaparse"
	"github.com/weir-streams/weir/tools/internal/playdevices"
)

// Default paths, relative to the repository's root.
const (
	defaultIn       = "testdata/useragents/google-play-devices/supported_devices.csv.gz"
	defaultBrands   = "internal/plugins/useragent/uaparse/tables/brands.tsv"
	defaultPrefixes = "internal/plugins/useragent/uaparse/tables/model_prefixes.tsv"
	defaultCodes    = "internal/plugins/useragent/uaparse/tables/model_codes.tsv"
	defaultVendors  = "internal/plugins/useragent/uaparse/tables/tv_vendors.tsv"
)

// spellingTables are the analyzer's tables whose brand column (the second)
// gives the analyzer's spelling of a brand, tried in this order.
var spellingTables = []string{defaultBrands, defaultPrefixes, defaultCodes, defaultVendors}

// playBrandNames maps Google Play's retail brands to the analyzer's brand
// names, which follow Yauaa: the maker rather than a sub-brand or the
// company's legal name, Yauaa's spellings. Brands not listed keep Google's
// name, without a parenthesised qualifier, in the analyzer's spelling
// where it has one (spellings).
var playBrandNames = map[string]string{
	"LGE":                "LG",
	"TCT (Alcatel)":      "Alcatel",
	"Redmi":              "Xiaomi",
	"POCO":               "Xiaomi",
	"Honor":              "Huawei",
	"Sony Ericsson":      "SonyEricsson",
	"SonyAudio":          "Sony",
	"BQru":               "BQ",
	"Sonimtech":          "Sonim",
	"Advan digital":      "Advan",
	"STK(Santok)":        "STK",
	"Nuu":                "NUU Mobile",
	"Azumi":              "Azumi Mobile",
	"Ulefone":            "Ulephone",
	"Sky Devices":        "Sky",
	"Logic Mobility":     "Logic",
	"NGM Italia SRL":     "NGM",
	"Sigma Mobile":       "Sigma",
	"SPC Mobile":         "SPC",
	"SPC Universe":       "SPC",
	"AGM Mobile":         "AGM",
	"NOA Mobile":         "NOA",
	"MTN Group":          "MTN",
	"Verizon Wireless":   "Verizon",
	"ColorsMobile":       "Colors",
	"Denver Electronics": "Denver",
	"ACE France":         "Ace",
	"HYUNDAI_MAESTRO":    "Hyundai",
	"Tecno":              "Tecno",
	"Blackshark":         "Xiaomi",
	"Mobicell":           "Mobicel",
	"Kruger&Matz":        "Krüger&Matz",
	"Lechpol":            "Krüger&Matz",
	"Making Life Simple": "MLS",
	"LT Electronics":     "LT Mobile",
	"Adart":              "Aligator",
	"TaiwanMobile":       "TWM",
	"Reliance":           "LYF",
	"Qsmart":             "QMobile",
	"Enspert":            "Wiko",
	"Plusone":            "Freetel",
	"Sourcing Creation":  "Essentielb",
	// Google's spellings of brands that write themselves otherwise on
	// their devices and sites, and companies' names for their brands.
	"TWOE":                     "2E",
	"Cloud (TruConnect)":       "Cloud Mobile",
	"Qtouch":                   "Q-Touch",
	"GreenLion":                "Green Lion",
	"Go Mobile":                "GoMobile",
	"Visiontouch":              "Vision Touch",
	"Ikimobile":                "IKI Mobile",
	"Cell_C":                   "Cell-C",
	"7mobile":                  "7 Mobile",
	"Dragontouch":              "Dragon Touch",
	"SMART_KASSEL":             "Smart Kassel",
	"IKALL":                    "I Kall",
	"Jambo_Technology":         "Jambo",
	"Trimble Navigation":       "Trimble",
	"Webfleet Solutions":       "Webfleet",
	"NewBridge":                "New Bridge",
	"Future Mobile Technology": "FMT",
	"FCNT":                     "Fujitsu",
	"MTS (RU)":                 "MTC",
	"MobileTeleSystem":         "MTC",
	"Barnes and Noble":         "Barnes & Noble",
	"Bell Canada":              "Bell",
	"F-Plus":                   "F+",
	"fplus":                    "F+",
	"Maze_speed":               "Maze Speed",
	"SSmooth":                  "Smooth Mobile",
	// A retailer that lists its house brand's devices under its own name.
	"Plaisio": "Turbo-X",
	// Product lines and sub-brands the list files as retail brands, by
	// the maker they are sold under: Microsoft's Surface Duo, Gigabyte's
	// GSmart phones, Coolpad's Dazen, Sky Devices' Elite phones (SKY EVO),
	// and the spellings of öwn (OwnMobile) and F150 (IIIF150) that their
	// model names write otherwise ("OWN FUN 6", "Air1 Pro").
	"Surface":   "Microsoft",
	"GSmart":    "Gigabyte",
	"dazen":     "Coolpad",
	"SKY EVO":   "Sky",
	"OwnMobile": "öwn",
	"IIIF150":   "F150",
	// Brands the list spells otherwise than they write themselves (iQ&T,
	// waipu.tv, i.safe MOBILE), a maker's store or line under its own
	// name (Hi-online of Hi, geaneePro of Geanee, 8849, Unihertz's rugged
	// phones) and ZUK, Lenovo's brand for China.
	"iQandT":        "iQ&T",
	"waiputv":       "waipu.tv",
	"Isafe":         "iSafe Mobile",
	"i.safe MOBILE": "iSafe Mobile",
	"Hi-online":     "Hi",
	"geaneePro":     "Geanee",
	"8849":          "Unihertz",
	"Zuk":           "Lenovo",
	// UMX is Unimax's brand for its prepaid phones; VNPT Technology and
	// Unnion Technologies sell under the company's whole name, which the
	// company words would cut.
	"Umx(Ultimate Mobile Experience)": "Unimax",
	"VNPT Technology":                 "VNPT Technology",
	"Unnion Technologies":             "Unnion Technologies",
	// Brands the list names with a word the analyzer's tables do not
	// write: the company's or a line's ("Tecno Mobile", "HumaxDigital",
	// "FPT Telecom", "Dialog Blaze"), the kind of device ("Sansui TV",
	// "Smart-Tech TV") or the meaning of the name ("IMO(In My Opinion)").
	"Tecno Mobile":       "Tecno",
	"IMO(In My Opinion)": "IMO Mobile",
	"HumaxDigital":       "Humax",
	"FPT Telecom":        "FPT",
	"Dunns":              "DUNNS Mobile",
	"IVA Mobile":         "iVA",
	"Dialog Blaze":       "Dialog",
	"Dialog_TV":          "Dialog",
	"Sansui TV":          "Sansui",
	"Orange TV":          "Orange",
	"Smart-Tech TV":      "Smart Tech",
	// Starlight's phones (I Star, C_Note) are not the Spanish television
	// brand Star-Light that tv_vendors.tsv spells alike.
	"Starlight": "Starlight",
}

// sonyNamedXperias are the marketing names of the Xperia devices launched
// under Sony's name, from the Xperia S in 2012 on, after Sony bought
// Ericsson's half of Sony Ericsson. The list files many of them under
// "Sony Ericsson", the maker name their first firmware reported; they
// were sold as Sony's (the Xperia phones of 2010 and 2011, the arc, neo,
// ray, mini and PLAY, stay Sony Ericsson's).
var sonyNamedXperias = map[string]bool{
	"xperia s": true, "xperia sl": true, "xperia acro s": true, "xperia acro hd": true, "xperia p": true,
	"xperia u": true, "xperia sola": true, "xperia go": true, "xperia tipo": true, "xperia tipo dual": true,
	"xperia miro": true, "xperia ion": true, "xperia j": true, "xperia t": true, "xperia tx": true,
	"xperia v": true, "xperia vl": true, "xperia ul": true, "xperia ax": true, "xperia gx": true,
	"xperia sx": true, "xperia sp": true, "xperia c": true, "xperia z": true, "xperia z1": true,
	"xperia z ultra": true, "xperia tablet z": true,
}

// companyWords end a retail brand that is a company's name rather than the
// brand on its devices ("MLS Innovation", "FPT Trading"); they are taken
// off.
var companyWords = []string{" Innovation", " Trading", " Electronics", " Phones", " Fones", " Group", " Wireless", " Corporation",
	" Technology", " Technologies", " Co., Ltd.", " Ltd.", " Ltd", " Inc.", " Inc", " SRL", " S.A.", " digital"}

// entry is a model of the list: the key it is looked up by, the brand and
// the class ("Tablet", "TV" or ""). A device entry is keyed by the
// device's code name (the Device column, Build.DEVICE: "kenzo",
// "j5y17lte") rather than its model name; custom systems and some
// firmware report the code name as the model ("lineage_j5y17lte", "AOSP
// on blueline", "rosemary").
type entry struct {
	key, brand, class string
	device, bare      bool
}

func main() {
	prefixes := flag.Bool("prefixes", false, "write the table of model-code prefixes (android_prefixes.tsv) instead of the catalogue")
	loo := flag.Bool("loo", false, "print the prefix settings' leave-one-out score on the list")
	flag.Parse()
	write := run
	switch {
	case *prefixes:
		write = runPrefixes
	case *loo:
		write = runLeaveOneOut
	}
	if err := write(os.Stdout, defaultIn, spellingTables...); err != nil {
		fmt.Fprintln(os.Stderr, "uaplaymodels:", err)
		os.Exit(1)
	}
}

// run writes the catalogue made from the list at in, with the brands'
// spellings read from the analyzer's tables.
func run(w io.Writer, in string, spellingTables ...string) error {
	spell := map[string]string{}
	for _, path := range spellingTables {
		if err := readSpellings(path, spell); err != nil {
			return err
		}
	}
	records, err := playdevices.Read(in)
	if err != nil {
		return err
	}
	entries, dropped, droppedDevices := catalogue(records, spell)
	models, bare := 0, 0
	for _, e := range entries {
		switch {
		case e.bare:
			bare++
		case !e.device:
			models++
		}
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, header, models, len(entries)-models-bare, bare, dropped, droppedDevices)
	for _, e := range entries {
		class := e.class
		if class == "" {
			class = "-"
		}
		if e.device {
			fmt.Fprintf(bw, "%s\t%s\t%s\tdevice\n", e.key, e.brand, class)
			continue
		}
		if e.bare {
			fmt.Fprintf(bw, "%s\t%s\t%s\tbare\n", e.key, e.brand, class)
			continue
		}
		fmt.Fprintf(bw, "%s\t%s\t%s\n", e.key, e.brand, class)
	}
	return bw.Flush()
}

const header = `# Android models by the model name a device reports (Build.MODEL), from Google Play's list of
# supported devices (testdata/useragents/google-play-devices, README beside it). Columns: key (the
# model in lower case without spaces, dashes and underscores), brand (the analyzer's name for the
# maker), class (Tablet, TV, Set-top box, Watch or Camera where the marketing name says so, else "-"), and "device" on a row
# keyed by a device's code name (Build.DEVICE, in lower case in the list) that no model is named,
# which custom systems and some firmware report as the model, and "bare" on a row keyed by a
# model code the list writes after its maker's name ("ZTE A2022P"), without it. Sorted by key,
# one row per key, so that the analyzer finds a model by binary search in the embedded text
# without building anything. %d models, %d code names and %d bare codes; %d models and %d code
# names named by more than one brand are left out.
# Made by tools/uaplaymodels; do not edit by hand:
#   go run ./tools/uaplaymodels > internal/plugins/useragent/uaparse/tables/catalog/android_models.tsv
`

// readSpellings adds the brand column (the second) of an analyzer table to
// spell, by the brand's letters and digits in lower case.
func readSpellings(path string, spell map[string]string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("read spellings: %w", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) > 1 {
			if k := playdevices.Fold(cols[1]); spell[k] == "" {
				spell[k] = cols[1]
			}
		}
	}
	return nil
}

// catalogue makes the sorted entries, one per key; a key that two brands
// name is left out (dropped and droppedDevices count them). A code name
// becomes a key only where no model is named so, it has a lower case
// letter as the list writes it (code names are written so; "T10K_Plus" in
// the Device column is a model's name), and its key is four characters
// or more.
func catalogue(records [][]string, spell map[string]string) (entries []entry, dropped, droppedDevices int) {
	byKey := map[string]*entry{}
	ambiguous := map[string]bool{}
	devices := map[string]*entry{}
	ambiguousDevices := map[string]bool{}
	for _, r := range records {
		brand := recordBrand(r, spell)
		key := uaparse.CatalogueKey(r[2])
		if brand == "" || len(key) < 4 || strings.ContainsAny(key, ",()\t\"") || strings.ToUpper(r[2]) == r[2] {
			continue
		}
		class := classOf(r[1]+" "+r[3], r[0])
		e, ok := devices[key]
		switch {
		case !ok:
			devices[key] = &entry{key: key, brand: brand, class: class, device: true}
		case e.brand != brand:
			ambiguousDevices[key] = true
		case e.class != class:
			e.class = ""
		}
	}
	for _, r := range records {
		brand := recordBrand(r, spell)
		key := uaparse.CatalogueKey(r[3])
		if brand == "" || len(key) < 3 || strings.ContainsAny(key, ",()\t\"") {
			continue
		}
		class := classOf(r[1]+" "+r[3], r[0])
		e, ok := byKey[key]
		switch {
		case !ok:
			byKey[key] = &entry{key: key, brand: brand, class: class}
		case subBrands[brand] == e.brand:
		case subBrands[e.brand] == brand:
			e.brand = brand
		case e.brand != brand:
			ambiguous[key] = true
		case e.class != class:
			e.class = "" // the marketing names disagree
		}
	}
	for k, e := range byKey {
		if ambiguous[k] {
			dropped++
			continue
		}
		entries = append(entries, *e)
	}
	for k, e := range devices {
		if _, ok := byKey[k]; ok {
			continue // a model's name, which the model's row answers for
		}
		if ambiguousDevices[k] {
			droppedDevices++
			continue
		}
		entries = append(entries, *e)
	}
	entries = append(entries, bareEntries(records, spell, byKey, ambiguous, devices)...)
	slices.SortFunc(entries, func(a, b entry) int { return strings.Compare(a.key, b.key) })
	return entries, dropped, droppedDevices
}

// bareEntries are the models the list writes after the maker's name
// ("ZTE A2022P", "Lenovo A7600-H", "Micromax AQ5001"), keyed without it:
// the same devices report the bare code too, in other firmware or
// markets ("A2022P", "A7600-H"). Only a code counts, letters and digits
// of four characters or more: a marketing name without its maker ("Note
// 9", "Titan", "X6 Pro") is as likely another maker's. A key that is a
// model's or a code name's, or that two brands name, is left out.
func bareEntries(records [][]string, spell map[string]string, byKey map[string]*entry, ambiguous map[string]bool, devices map[string]*entry) []entry {
	bare := map[string]*entry{}
	ambiguousBare := map[string]bool{}
	for _, r := range records {
		brand := recordBrand(r, spell)
		if brand == "" {
			continue
		}
		rest, ok := afterMakerName(strings.TrimSpace(r[3]), strings.TrimSpace(r[0]), brand)
		key := uaparse.CatalogueKey(rest)
		if !ok || !bareCode(rest, key) || byKey[key] != nil || ambiguous[key] || devices[key] != nil {
			continue
		}
		class := classOf(r[1]+" "+r[3], r[0])
		e, seen := bare[key]
		switch {
		case !seen:
			bare[key] = &entry{key: key, brand: brand, class: class, bare: true}
		case e.brand != brand:
			ambiguousBare[key] = true
		case e.class != class:
			e.class = ""
		}
	}
	var entries []entry
	for k, e := range bare {
		if !ambiguousBare[k] {
			entries = append(entries, *e)
		}
	}
	return entries
}

// afterMakerName is the model after the maker's name (the list's retail
// brand or the analyzer's name for it) and a space, dash or underscore.
func afterMakerName(model string, names ...string) (string, bool) {
	for _, n := range names {
		if len(model) > len(n)+1 && strings.EqualFold(model[:len(n)], n) && strings.ContainsRune(" -_", rune(model[len(n)])) {
			return strings.TrimSpace(model[len(n)+1:]), true
		}
	}
	return "", false
}

// bareCode reports whether a model without its maker's name is a model
// code: a letter and a digit in a key of four to 24 characters and no
// punctuation a model code has not (commas, brackets, slashes), and no
// word of a marketing name (Pro, Max, Plus, Lite, Mini, Ultra, Neo, Prime,
// Note, Power) after its series and number ("X6 Pro", "P8 Max").
func bareCode(rest, key string) bool {
	if len(key) < 4 || len(key) > 24 || strings.ContainsAny(key, ",()/\t\"") || !strings.ContainsAny(key, "0123456789") || strings.IndexFunc(key, unicode.IsLetter) < 0 {
		return false
	}
	for _, w := range strings.FieldsFunc(strings.ToLower(rest), func(r rune) bool { return r == ' ' || r == '-' || r == '_' }) {
		for _, m := range marketingWords {
			if strings.HasSuffix(w, m) {
				return false
			}
		}
	}
	return true
}

// marketingWords are the words of marketing names that end a word of a
// model ("X6pro", "P8 Max").
var marketingWords = []string{"pro", "max", "plus", "lite", "mini", "ultra", "neo", "prime", "note", "power"}

// subBrands are the brands recordBrand takes from a marketing name, by the
// company the list files them under. A model the list names once with the
// sub-brand's marketing name and once with the company's is sold under
// both ("Z2350", the nubia V60 Design and the ZTE Blade V60 Design) and
// keeps the company's name, as it would without the sub-brand's rule.
var subBrands = map[string]string{"Nubia": "ZTE", "Motorola": "Lenovo"}

// recordBrand is the brand a device of the list (retail brand, marketing
// name, device, model) is sold under, in the analyzer's name for it.
func recordBrand(r []string, spell map[string]string) string {
	brand := brandName(r[0], spell)
	switch {
	case strings.HasPrefix(strings.ToLower(r[3]), "nexus "):
		// Google sold the Nexus devices under its own name; the list
		// names the makers (LGE's Nexus 5).
		return "Google"
	case brand == "SonyEricsson" && sonyNamedXperias[strings.ToLower(strings.TrimSpace(r[1]))]:
		return "Sony"
	case brand == "Alcatel" && strings.HasPrefix(strings.ToLower(r[1]), "tcl "):
		// TCL Communication makes both brands and files both under
		// "TCT (Alcatel)"; the marketing name says which one a device
		// is sold under (6127A is the TCL 30E).
		return "TCL"
	case brand == "ZTE" && strings.HasPrefix(strings.ToLower(r[1]), "nubia"):
		// ZTE sells nubia as a brand of its own and files its later
		// models under its name; the marketing name says which (Z2353
		// is the nubia Music).
		return "Nubia"
	case brand == "Lenovo" && strings.HasPrefix(strings.ToLower(r[1]), "moto") && strings.HasPrefix(r[3], "XT"):
		// Lenovo owns Motorola and files some of its phones under its
		// own name; those with Motorola's XT numbers are sold as
		// Motorolas (XT1663, the Motorola M). Lenovo's own tablet sold
		// as the Moto Tab (TB-X704A) stays Lenovo's.
		return "Motorola"
	case brand == "Fujitsu" && strings.HasPrefix(strings.ToLower(r[1]), "regza"):
		// REGZA is Toshiba's brand: the REGZA Phones (IS04, T-01C) were
		// Toshiba's, whose phone business went to Fujitsu in 2010, under
		// whose name the list files them.
		return "Toshiba"
	}
	return brand
}

// brandName is the analyzer's name of a retail brand of the list.
func brandName(retail string, spell map[string]string) string {
	retail = strings.TrimSpace(retail)
	if b, ok := playBrandNames[retail]; ok {
		return b
	}
	if k := strings.IndexByte(retail, '('); k > 0 {
		retail = strings.TrimSpace(retail[:k])
	}
	for _, w := range companyWords {
		if len(retail) > len(w) && strings.EqualFold(retail[len(retail)-len(w):], w) {
			retail = strings.TrimSpace(retail[:len(retail)-len(w)])
		}
	}
	if retail == "" {
		return ""
	}
	if s, ok := spell[playdevices.Fold(retail)]; ok {
		return s
	}
	if strings.ToUpper(retail) == retail && len(retail) > 3 {
		return yauaaCase(retail)
	}
	return retail
}

// yauaaCase writes a brand in capitals the way the analyzer writes a
// maker's name it reads from a model (normalizeName): words of more than
// three letters without digits capitalised, others in capitals.
func yauaaCase(s string) string {
	words := strings.Fields(s)
	for i, w := range words {
		if len(w) > 3 && !strings.ContainsAny(w, "0123456789") {
			words[i] = w[:1] + strings.ToLower(w[1:])
		}
	}
	return strings.Join(words, " ")
}

// classOf reads the marketing name and model for a tablet, a television, a
// set-top box, a watch or a camera; a television's word outranks a box's
// ("Mi TV Stick" is TV, as the sets' names are). The maker's own name is no such word: TechPad and
// Klipad sell phones under a name that ends in "pad" ("TECHPAD X5",
// "KLIPAD_V355B"). The cameras are the ones sold as cameras that run
// Android: Samsung's Galaxy Camera and Galaxy NX and Nikon's COOLPIX; a
// phone named for its camera ("Dual Camera", "Camera Edition") stays a
// phone.
func classOf(name, maker string) string {
	words := strings.FieldsFunc(strings.ToLower(name), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	maker = strings.ToLower(strings.ReplaceAll(maker, " ", ""))
	class := ""
	for i, w := range words {
		switch {
		case w == maker:
		case w == "tv" || w == "smarttv" || w == "androidtv" || w == "googletv" || w == "chromecast":
			return "TV"
		case isBoxWord(w):
			class = "Set-top box"
		case w == "watch" || strings.HasPrefix(w, "watch") && isDigits(w[5:]) || w == "smartwatch" || w == "zenwatch" || w == "ticwatch":
			return "Watch"
		case w == "coolpix", i > 0 && words[i-1] == "galaxy" && (w == "camera" || w == "nx"):
			return "Camera"
		case w == "tab" || w == "tablet" || w == "pad" || strings.HasSuffix(w, "pad") && len(w) > 4 && w != "notepad" ||
			strings.HasPrefix(w, "tab") && len(w) > 3 && isDigits(w[3:]):
			class = "Tablet"
		}
	}
	return class
}

// notBoxes are the words ending in "box" of the list that name no box
// that connects a television: Google's Chromebox and DigiLand's PC box
// are computers, the sound boxes speakers, and Turbo-X (Plaisio's brand,
// "TurboX") and CommBox makers.
var notBoxes = map[string]bool{"chromebox": true, "pcbox": true, "soundbox": true, "flowsoundbox": true, "turbox": true, "commbox": true}

// isBoxWord reports a word of a marketing name or model that names a
// set-top box, a stick or a dongle that connects a television: "Box" and
// the operators' and makers' names that end in it ("Mi Box", "Beebox",
// "MEObox", "Freebox"), "Box" and a generation ("Box5"), "Stick",
// "Dongle", "Streamer".
func isBoxWord(w string) bool {
	switch {
	case w == "stick" || w == "dongle" || w == "streamer":
		return true
	case strings.HasPrefix(w, "box") && isDigits(w[3:]):
		return true
	}
	return strings.HasSuffix(w, "box") && !notBoxes[w]
}

func isDigits(s string) bool {
	return s != "" && bytes.IndexFunc([]byte(s), func(r rune) bool { return r < '0' || r > '9' }) < 0
}
