package uaparse

import (
	"embed"
	"fmt"
	"strconv"
	"strings"
)

// The rules' facts live in tables/*.tsv, embedded in the binary and read
// once, when the model is first needed (buildModel): brands and their
// model prefixes, HTTP libraries, robot names and companies, Windows OEM
// codes, processor tags, operating systems, Linux distributions and mail
// programs. Each file holds one entry a line, with tab-separated columns,
// the last of which says where the fact comes from; lines starting with
// "#" describe the file. Adding an entry needs no code: add a line with
// its source.
//
//go:embed tables/*.tsv
var tableFiles embed.FS

// loadTable returns the rows of an embedded table, each with cols columns
// (the source column included, and not empty). A malformed table is a
// programming error found by the first test run (TestTablesWellFormed),
// so it panics. Tables are read by buildModel, so the panic comes from the
// first call that needs the model (New, in a job: when ParseUserAgent is
// built, before the stream runs), no longer from the program's start.
func loadTable(name string, cols int) [][]string {
	rows, err := parseTable(name, cols)
	if err != nil {
		panic(err)
	}
	return rows
}

func parseTable(name string, cols int) ([][]string, error) {
	data, err := tableFiles.ReadFile("tables/" + name)
	if err != nil {
		return nil, fmt.Errorf("read table %s: %w", name, err)
	}
	var rows [][]string
	for i, line := range strings.Split(string(data), "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != cols {
			return nil, fmt.Errorf("table %s line %d: %d columns, want %d", name, i+1, len(f), cols)
		}
		for j, v := range f {
			if v == "" {
				return nil, fmt.Errorf("table %s line %d: column %d is empty", name, i+1, j+1)
			}
		}
		rows = append(rows, f)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("table %s: no entries", name)
	}
	return rows, nil
}

// tableMap returns a table's first column mapped to its second.
func tableMap(name string, cols int) map[string]string {
	rows := loadTable(name, cols)
	m := make(map[string]string, len(rows))
	for _, r := range rows {
		m[r[0]] = r[1]
	}
	return m
}

// tableSet returns the set of a table's first column.
func tableSet(name string, cols int) map[string]bool {
	rows := loadTable(name, cols)
	m := make(map[string]bool, len(rows))
	for _, r := range rows {
		m[r[0]] = true
	}
	return m
}

// tableColumns lists every table with its number of columns, for the test
// that parses them all.
var tableColumns map[string]int

func buildTableColumns() map[string]int {
	return map[string]int{
		"brands.tsv": 3, "windows_oem.tsv": 3, "http_libraries.tsv": 4, "robot_names.tsv": 3,
		"robot_companies.tsv": 3, "systems.tsv": 4, "linux_distros.tsv": 3, "cpu.tsv": 5, "email_apps.tsv": 2,
		"hacker_toolkits.tsv": 3, "webview_apps.tsv": 3, "attack_signatures.tsv": 3, "app_spellings.tsv": 3,
		"robot_device_names.tsv": 3, "set_top_box_makers.tsv": 3, "domain_brands.tsv": 3,
		"system_releases.tsv": 4, "fediverse_servers.tsv": 3, "robot_engine_names.tsv": 3, "unix_desktops.tsv": 4,
		"browsers.tsv": 4, "robot_words.tsv": 3, "named_robots.tsv": 5, "amazon_devices.tsv": 5, "named_apps.tsv": 4, "edge_versions.tsv": 3, "browser_tags.tsv": 3, "cpu_words.tsv": 3, "languages.tsv": 4, "apple_devices.tsv": 5, "model_codes.tsv": 5, "model_classes.tsv": 5, "anonymizers.tsv": 5, "app_platforms.tsv": 9, "model_prefixes.tsv": 5,
		"tv_platforms.tsv": 6, "screen_tokens.tsv": 4, "product_words.tsv": 3, "tv_vendors.tsv": 3, "tv_devices.tsv": 8, "app_markers.tsv": appMarkerColumns,
	}
}

// brandPrefixes maps the lower case start of a device model to the brand
// (tables/brands.tsv); the first match in table order wins.
var brandPrefixes []brandPrefix

func buildBrandPrefixes() []brandPrefix {
	rows := loadTable("brands.tsv", tableColumns["brands.tsv"])
	out := make([]brandPrefix, len(rows))
	for i, r := range rows {
		out[i].prefix, out[i].brand = r[0], r[1]
		out[i].digits = isDigits(r[0])
	}
	return out
}

// brandPrefix is a row of tables/brands.tsv; digits marks a prefix made of
// digits only, which needs a model with a letter (brandOfModel), and shaped
// a prefix that another maker's model-code shape can start with
// (withShapes).
type brandPrefix struct {
	prefix, brand  string
	digits, shaped bool
}

// windowsOEMs are the four-letter maker codes of preinstalled Windows
// (tables/windows_oem.tsv).
var windowsOEMs map[string]string

// httpLibraries are programming language HTTP clients, classed as robots as
// Yauaa does, and libraryBrands the makers of those whose device name does
// not start with the maker's one-word name (tables/http_libraries.tsv).
var httpLibraries, libraryBrands map[string]string

func buildHTTPLibraries() (names, makers map[string]string) {
	names, makers = map[string]string{}, map[string]string{}
	for _, r := range loadTable("http_libraries.tsv", tableColumns["http_libraries.tsv"]) {
		names[r[0]] = r[1]
		if r[2] != "-" {
			makers[r[0]] = r[2]
		}
	}
	return names, makers
}

// robotAgentNames fixes the spelling of names whose token is not the name
// users know (tables/robot_names.tsv).
var robotAgentNames map[string]string

// robotCompanies are makers whose robots start with the company's name and
// give no URL (tables/robot_companies.tsv).
var robotCompanies []struct{ prefix, brand string }

func buildRobotCompanies() []struct{ prefix, brand string } {
	rows := loadTable("robot_companies.tsv", tableColumns["robot_companies.tsv"])
	out := make([]struct{ prefix, brand string }, len(rows))
	for i, r := range rows {
		out[i].prefix, out[i].brand = r[0], r[1]
	}
	return out
}

// otherOS lists systems recognised by a lower case token at the start of a
// comment entry, with their class (tables/systems.tsv).
var otherOS []struct{ token, name, class string }

func buildOtherOS() []struct{ token, name, class string } {
	rows := loadTable("systems.tsv", tableColumns["systems.tsv"])
	out := make([]struct{ token, name, class string }, len(rows))
	for i, r := range rows {
		out[i].token, out[i].name, out[i].class = r[0], r[1], r[2]
	}
	return out
}

// linuxDistros maps a lower case distribution token to its display name
// (tables/linux_distros.tsv), first match first.
var linuxDistros []struct{ token, name string }

func buildLinuxDistros() []struct{ token, name string } {
	rows := loadTable("linux_distros.tsv", tableColumns["linux_distros.tsv"])
	out := make([]struct{ token, name string }, len(rows))
	for i, r := range rows {
		out[i].token, out[i].name = r[0], r[1]
	}
	return out
}

// emailApps are mail programs whose product names do not say "mail"
// (tables/email_apps.tsv).
var emailApps map[string]bool

// cpuTag is one row of tables/cpu.tsv.
type cpuTag struct {
	match              cpuMatch
	token, cpu, unless string
}

// cpuMatch is how a row of tables/cpu.tsv compares its token with an entry.
type cpuMatch uint8

const (
	cpuContains cpuMatch = iota
	cpuEqual
	cpuSuffix
)

var cpuTags []cpuTag

func buildCPUTags() []cpuTag {
	rows := loadTable("cpu.tsv", tableColumns["cpu.tsv"])
	out := make([]cpuTag, len(rows))
	for i, r := range rows {
		out[i] = cpuTag{token: r[1], cpu: r[2], unless: r[3]}
		if out[i].unless == "-" {
			out[i].unless = ""
		}
		switch r[0] {
		case "contains":
			out[i].match = cpuContains
		case "equal":
			out[i].match = cpuEqual
		case "suffix":
			out[i].match = cpuSuffix
		default:
			panic(fmt.Sprintf("table cpu.tsv: match %q is not contains, equal or suffix", r[0]))
		}
	}
	return out
}

// cpuFromEntry recognises the processor architecture tags of desktop
// comment sections (tables/cpu.tsv): the first row that matches names the
// processor.
func cpuFromEntry(lt string) string {
	for i := range cpuTags {
		if cpuTagMatches(&cpuTags[i], lt) {
			return cpuTags[i].cpu
		}
	}
	return ""
}

// cpuFromEntryOf is cpuFromEntry for an entry of p: when lt is a part of
// the lower case user agent, a row whose token the needle scan did not
// find anywhere in it cannot match, and is not compared.
func cpuFromEntryOf(p *parsed, lt string) string {
	if !p.inLow(lt) {
		return cpuFromEntry(lt)
	}
	var rows [16]uint16
	for _, row := range p.rowsFound(cpuTagList, rows[:]) {
		if cpuTagMatches(&cpuTags[row], lt) {
			return cpuTags[row].cpu
		}
	}
	return ""
}

// cpuTagList asks the scan which rows of cpuTags can match.
var cpuTagList *needleList

// cpuTagNeedles are the needles of the tokens of cpuTags, in order.
var cpuTagNeedles []needleID

func buildCPUTagNeedles() []needleID {
	ids := make([]needleID, len(cpuTags))
	for i, t := range cpuTags {
		ids[i] = uaNeedles.add(t.token)
	}
	return ids
}

func cpuTagMatches(t *cpuTag, lt string) bool {
	var ok bool
	switch t.match {
	case cpuContains:
		ok = strings.Contains(lt, t.token)
	case cpuEqual:
		ok = lt == t.token
	default:
		ok = strings.HasSuffix(lt, t.token)
	}
	return ok && (t.unless == "" || !strings.Contains(lt, t.unless))
}

// attackSignatures returns the fragments of one family of
// tables/attack_signatures.tsv, in file order, unquoted.
func attackSignatures(family string) []string {
	var out []string
	for _, r := range loadTable("attack_signatures.tsv", tableColumns["attack_signatures.tsv"]) {
		if r[0] != family {
			continue
		}
		f, err := strconv.Unquote(r[1])
		if err != nil || f == "" {
			panic(fmt.Sprintf("table attack_signatures.tsv: fragment %s is not a quoted, non-empty string", r[1]))
		}
		out = append(out, f)
	}
	if len(out) == 0 {
		panic("table attack_signatures.tsv: no fragment of family " + family)
	}
	return out
}

// appSpellings are the names of well-known apps whose product token is
// written differently from the name the maker uses for the app
// (tables/app_spellings.tsv).
var appSpellings map[string]string

// robotDeviceNames are the device names of robots whose name does not
// follow the usual "Brand Product" form (tables/robot_device_names.tsv).
var robotDeviceNames map[string]string

// domainBrands names the companies behind well-known robot domains where
// the domain does not spell the brand (tables/domain_brands.tsv).
var domainBrands map[string]string

// systemReleases maps the version tokens of one scheme of
// tables/system_releases.tsv to the release names.
func systemReleases(scheme string) map[string]string {
	m := map[string]string{}
	for _, r := range loadTable("system_releases.tsv", tableColumns["system_releases.tsv"]) {
		if r[0] == scheme {
			m[r[1]] = r[2]
		}
	}
	if len(m) == 0 {
		panic("table system_releases.tsv: no release of scheme " + scheme)
	}
	return m
}

// fediverseServers are server applications of federated social networks;
// they fetch profiles and posts from each other and name themselves
// (tables/fediverse_servers.tsv).
var fediverseServers map[string]string

// robotEngineNames are the engine names of robots whose agent name is
// spelled differently (tables/robot_engine_names.tsv).
var robotEngineNames map[string]string

// unixDesktops names the workstations of the Unix-like and other desktop
// systems: the maker of the hardware where the system came with it (Sun,
// SGI, IBM), otherwise the system itself, in Yauaa's spelling
// (tables/unix_desktops.tsv; brand "-" is none).
var unixDesktops map[string]struct{ brand, name string }

func buildUnixDesktops() map[string]struct{ brand, name string } {
	m := map[string]struct{ brand, name string }{}
	for _, r := range loadTable("unix_desktops.tsv", tableColumns["unix_desktops.tsv"]) {
		b := r[1]
		if b == "-" {
			b = ""
		}
		m[r[0]] = struct{ brand, name string }{b, r[2]}
	}
	return m
}

// amazonDevices maps the upper case model code of a Fire OS device to its
// class, brand and product name (tables/amazon_devices.tsv).
var amazonDevices map[string]struct{ class, brand, name string }

func buildAmazonDevices() map[string]struct{ class, brand, name string } {
	m := map[string]struct{ class, brand, name string }{}
	for _, r := range loadTable("amazon_devices.tsv", tableColumns["amazon_devices.tsv"]) {
		m[strings.ToUpper(r[0])] = struct{ class, brand, name string }{r[1], r[2], r[3]}
	}
	return m
}

// edgeVersions maps the version of legacy Edge's "Edge/<EdgeHTML
// version>" product to the Edge release (tables/edge_versions.tsv).
var edgeVersions map[string]string

// anonymizer is a row of tables/anonymizers.tsv: a marker of a tool or
// proxy that rewrites the user agent, and the fixed device it announces
// (brand "" when it names none).
type anonymizer struct {
	marker      needleID
	brand, name string
}

// anonymizers are the rows of tables/anonymizers.tsv, in file order.
var anonymizers []anonymizer

func buildAnonymizers() []anonymizer {
	rows := loadTable("anonymizers.tsv", tableColumns["anonymizers.tsv"])
	out := make([]anonymizer, len(rows))
	for i, r := range rows {
		out[i].marker = uaNeedles.add(r[0])
		if r[1] != "-" {
			out[i].brand, out[i].name = r[1], r[2]
		}
	}
	return out
}

// appPlatform is a row of tables/app_platforms.tsv: what an app's platform
// letter says about the system and the device.
type appPlatform struct {
	osName, osVersion, osClass string
	devClass, brand, devName   string
}

// appPlatforms are the rows of tables/app_platforms.tsv by the lower case
// app name, a space and the letter.
var appPlatforms map[string]appPlatform

func buildAppPlatforms() map[string]appPlatform {
	m := map[string]appPlatform{}
	for _, r := range loadTable("app_platforms.tsv", tableColumns["app_platforms.tsv"]) {
		ap := appPlatform{osName: r[2], osVersion: r[3], osClass: r[4], devClass: r[5], brand: r[6], devName: r[7]}
		if ap.osVersion == "-" {
			ap.osVersion = Unknown
		}
		if ap.brand == "-" {
			ap.brand = Unknown
		}
		m[r[0]+" "+r[1]] = ap
	}
	return m
}

// productWords are the words that start many makers' Android model names
// and name none of them (tables/product_words.tsv, lower case): a model's
// first word is not taken for its brand when it is one of them.
var productWords map[string]struct{}

func buildProductWords() map[string]struct{} {
	rows := loadTable("product_words.tsv", tableColumns["product_words.tsv"])
	out := make(map[string]struct{}, len(rows))
	for _, r := range rows {
		out[r[0]] = struct{}{}
	}
	return out
}

// isProductWord reports whether w, in any case, is a row of
// tables/product_words.tsv. The word is lowered on the stack, so the lookup
// allocates nothing.
func isProductWord(w string) bool {
	var buf [16]byte
	if len(w) < 2 || len(w) > len(buf) {
		return false
	}
	for i := 0; i < len(w); i++ {
		buf[i] = lowerASCII(w[i])
	}
	_, ok := productWords[string(buf[:len(w)])]
	return ok
}

// screenToken is a row of tables/screen_tokens.tsv: a marker that stands
// for the Mobile, Tablet or TV token.
type screenToken struct {
	marker     needleID
	tablet, tv bool
}

// screenTokens are the rows of tables/screen_tokens.tsv.
var screenTokens []screenToken

func buildScreenTokens() []screenToken {
	rows := loadTable("screen_tokens.tsv", tableColumns["screen_tokens.tsv"])
	out := make([]screenToken, len(rows))
	for i, r := range rows {
		switch r[1] {
		case "Mobile", "Tablet", "TV":
		default:
			panic(fmt.Sprintf("screen_tokens.tsv: token %q of %q, want Mobile, Tablet or TV", r[1], r[0]))
		}
		out[i] = screenToken{marker: uaNeedles.add(r[0]), tablet: r[1] == "Tablet", tv: r[1] == "TV"}
	}
	return out
}

// optionalCell returns a table cell's value, or "" for "-", the tables'
// mark of a column a row leaves empty.
func optionalCell(c string) string {
	if c == "-" {
		return ""
	}
	return c
}

// buildTVDevices reads tables/tv_devices.tsv into the rows the readers of
// tv.go write (tvKreaTV and the others) and into starboardTypes. A row a
// reader needs and the table lacks is a programming error found by the
// first test run, so it panics, as loadTable does.
func buildTVDevices() {
	rows := loadTable("tv_devices.tsv", tableColumns["tv_devices.tsv"])
	byKey := make(map[string]tvMarkerDevice, len(rows))
	var starboard, words []string
	for _, r := range rows {
		d := tvMarkerDevice{class: r[2], maker: optionalCell(r[3]), device: optionalCell(r[4]), system: optionalCell(r[5])}
		byKey[r[0]+" "+r[1]] = d
		if r[0] == "tvWord" {
			if d.class != "TV" {
				panic("tables/tv_devices.tsv: the word " + r[1] + " gives " + d.class + ", but tvDevice makes every word's device a TV")
			}
			words = append(words, r[1])
		}
		if r[0] == "operaProfile" {
			operaProfileKinds = append(operaProfileKinds, struct {
				kind string
				tvMarkerDevice
			}{r[1], d})
		}
		if r[0] == "starboardDevice" {
			starboard = append(starboard, r[1])
			starboardTypes = append(starboardTypes, struct{ token, class string }{strings.ToUpper(r[1]), d.class})
		}
	}
	row := func(reader, marker string) tvMarkerDevice {
		d, ok := byKey[reader+" "+marker]
		if !ok {
			panic("tables/tv_devices.tsv has no row " + reader + " " + marker)
		}
		return d
	}
	tvKreaTV, tvRoku, tvComcastX1 = row("setTopBox", "kreatv/"), row("setTopBox", "roku/dvp-"), row("setTopBox", "wpe")
	tvChromecast, tvGoogleTV = row("tvDevice", "crkey"), row("googleTV", "googletv")
	tvInfomirMAG, tvSkyQ, tvVestelUID = row("infomirMAG", "stbapp"), row("skyQDevice", "-device/"), row("vestelUID", "uid(")
	tvVidaa, tvSamsungSmartTV, tvNetTV = row("tvDevice", "vidaa"), row("tvDevice", "smart-tv"), row("tvDevice", "nettv")
	tvNetTVPhilips = row("tvDevice", "philips")
	tvWebOS, tvHbbTV, tvLoewe = row("tvDevice", "web0s"), row("hbbTVDevice", "hbbtv/"), row("hbbTVDevice", "loh/")
	starboardNeedles = uaNeedles.group(starboard)
	tvWordNeedles = uaNeedles.group(words)
}

// appMarkerColumns is the number of columns of tables/app_markers.tsv,
// which apps.go's tables read before buildModel fills tableColumns.
const appMarkerColumns = 5

// appMarkers returns the marker and the app's name of the rows of
// tables/app_markers.tsv that one reader of apps.go reads, in table order.
func appMarkers(reader string) [][2]string {
	var out [][2]string
	for _, r := range loadTable("app_markers.tsv", appMarkerColumns) {
		if r[0] == reader {
			out = append(out, [2]string{r[1], r[2]})
		}
	}
	return out
}

// appMarkerNames maps the markers of one reader's rows of
// tables/app_markers.tsv to the apps' names.
func appMarkerNames(reader string) map[string]string {
	rows := appMarkers(reader)
	m := make(map[string]string, len(rows))
	for _, r := range rows {
		m[r[0]] = r[1]
	}
	return m
}
