package grok

import (
	"bufio"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/elastic/go-grok/patterns"

	"github.com/weir-streams/weir/internal/localfile"
)

// Sets are go-grok's pattern sets by name, in the order go-grok's
// NewComplete merges them (a later set overrides a name of an earlier one;
// none does in v0.3.1). Default holds the building blocks (WORD, IP,
// HTTPDATE, ...); the others hold the log formats.
var Sets = []struct {
	Name     string
	Patterns map[string]string
}{
	{"default", patterns.Default},
	{"aws", patterns.AWS},
	{"bind9", patterns.Bind9},
	{"bro", patterns.Bro},
	{"exim", patterns.Exim},
	{"haproxy", patterns.HAProxy},
	{"httpd", patterns.Httpd},
	{"firewalls", patterns.Firewalls},
	{"java", patterns.Java},
	{"junos", patterns.Junos},
	{"maven", patterns.Maven},
	{"mcollective", patterns.MCollective},
	{"mongodb", patterns.MongoDB},
	{"postgresql", patterns.PostgreSQL},
	{"rails", patterns.Rails},
	{"redis", patterns.Redis},
	{"ruby", patterns.Ruby},
	{"squid", patterns.Squid},
	{"syslog", patterns.Syslog},
}

// Library is a set of pattern definitions: go-grok's, then the user's,
// which override a library pattern of the same name. It is read-only once
// built.
type Library struct {
	defs map[string]string
	// legacy is set for the library of grok.ecs.compatibility disabled,
	// whose log-format patterns come from the user's files.
	legacy bool
}

// Reordered are the definitions Weir changes, with the one go-grok v0.3.1
// has, and why the change gives the same matches.
//
// IP tries IPV4 before IPV6. The two cannot both match at one position: an
// IPv4 address starts with one to three digits then a dot, an IPv6 address
// with one to four hex digits then a colon, or a colon, and digits are hex
// digits, so whichever order is tried, at most one succeeds. Trying IPv4
// first saves the eight IPv6 forms on every IPv4 address, the common case
// of %{IPORHOST} in access logs. TestReorderedDefinitions checks the
// original text, so that a new go-grok version is looked at again.
var Reordered = map[string]struct{ Original, Weir string }{
	"IP": {Original: `(?:%{IPV6}|%{IPV4})`, Weir: `(?:%{IPV4}|%{IPV6})`},
}

// Fixed are the definitions where go-grok v0.3.1 captures or matches
// something else than Logstash's ECS library, with go-grok's text (a fix
// applies only while go-grok still has it, so that a new version is looked
// at again) and Weir's.
var Fixed = map[string]struct{ Original, Weir, Why string }{
	"SYSLOGPROG": {`%{PROG}(?:\[\d+\])?`, `%{PROG:process.name}(?:\[%{POSINT:process.pid:int}\])?`,
		"go-grok captures neither the program nor its pid, so %{SYSLOGLINE} gives no process.name"},
	"URIPATH": {`(/[A-Za-z0-9$.+!*'(){},~:;=@#%&_\-]+)+`, `(?:/[A-Za-z0-9$.+!*'(){},~:;=@#%&_\-]*)+`,
		"go-grok refuses a bare / and a path ending in /"},
	"CISCOFW733100": {`\\s*%{DATA:[cisco.asa.burst.object}\s*\] drop %{DATA:cisco.asa.burst.id} exceeded. Current burst rate is %{INT:cisco.asa.burst.current_rate:int} per second, max configured rate is %{INT:cisco.asa.burst.configured_rate:int}; Current average rate is %{INT:cisco.asa.burst.avg_rate:int} per second, max configured rate is %{INT:cisco.asa.burst.configured_avg_rate:int}; Cumulative total count is %{INT:cisco.asa.burst.cumulative_count:int}`,
		`\[\s*%{DATA:cisco.asa.burst.object}\s*\] drop %{DATA:cisco.asa.burst.id} exceeded. Current burst rate is %{INT:cisco.asa.burst.current_rate:int} per second, max configured rate is %{INT:cisco.asa.burst.configured_rate:int}; Current average rate is %{INT:cisco.asa.burst.avg_rate:int} per second, max configured rate is %{INT:cisco.asa.burst.configured_avg_rate:int}; Cumulative total count is %{INT:cisco.asa.burst.cumulative_count:int}`,
		"go-grok's text starts with a literal backslash and a broken field name, so it never matches a message"},
	"MONTH": {`\b(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|Jun(?:e)?|Jul(?:y)?|Aug(?:ust)?|Sep(?:tember)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\b`,
		`\b(?:[Jj]an(?:uary|uar)?|[Ff]eb(?:ruary|ruar)?|[Mm](?:a|ä)?r(?:ch|z)?|[Aa]pr(?:il)?|[Mm]a(?:y|i)?|[Jj]un(?:e|i)?|[Jj]ul(?:y|i)?|[Aa]ug(?:ust)?|[Ss]ep(?:tember)?|[Oo](?:c|k)?t(?:ober)?|[Nn]ov(?:ember)?|[Dd]e(?:c|z)(?:ember)?)\b`,
		"go-grok's knows neither German month names (Mai, Mär, März, Okt, Dez) nor lower-case ones, which Logstash's takes; fastre runs it as one span still (its ä is two literal bytes)"},
	"UNIXPATH": {`(/[\w_%!$@:.,+~-]+)+`, `(?:/[\p{L}\p{M}\p{Nd}_%!$@:.,+~-]*)+`,
		"go-grok's refuses / alone, // and a path ending in /, and stops at a letter beyond ASCII (Logstash's [[:alnum:]] is Unicode's)"},
	"WINPATH": {`[A-Za-z]+:(\\[^\\?*]+)+`, `(?:[A-Za-z]+:|\\)(?:\\[^\\?*]*)+`,
		"go-grok's refuses a root C:\\, a doubled separator and a path starting with \\"},
	"URN": {`urn:[0-9A-Za-z][0-9A-Za-z-]{0,31}:[0-9A-Za-z()+,.:=@;$_!*'/?#-]+`, `urn:[0-9A-Za-z][0-9A-Za-z-]{0,31}:(?:%[0-9a-fA-F]{2}|[0-9A-Za-z()+,.:=@;$_!*'/?#-])+`,
		"go-grok's refuses percent-escapes (%2F), which RFC 8141 allows"},
	"IPTABLES": {`IN=(?:%{NOTSPACE:observer.ingress.interface.name})?\s+OUT=(?:%{NOTSPACE:observer.egress.interface.name})?\s+(?:MAC=(?:%{COMMONMAC:destination.mac})?(?::%{COMMONMAC:source.mac})?(?::A-Fa-f0-9{2}:A-Fa-f0-9{2})?\s+)?(:?%{IPTABLES4_PART}|%{IPTABLES6_PART}).*?PROTO=(?:%{WORD:network.transport})?\s+SPT=(?:%{INT:source.port:int})?\s+DPT=(?:%{INT:destination.port:int})?\s+(?:%{IPTABLES_TCP_PART})?`,
		`IN=(?:%{NOTSPACE:observer.ingress.interface.name})?\s+OUT=(?:%{NOTSPACE:observer.egress.interface.name})?\s+(?:MAC=(?:%{COMMONMAC:destination.mac})?(?::%{COMMONMAC:source.mac})?(?::[A-Fa-f0-9]{2}:[A-Fa-f0-9]{2})?\s+)?(:?%{IPTABLES4_PART}|%{IPTABLES6_PART}).*?PROTO=(?:%{WORD:network.transport})?\s+SPT=(?:%{INT:source.port:int})?\s+DPT=(?:%{INT:destination.port:int})?\s+(?:%{IPTABLES_TCP_PART})?`,
		"go-grok's text lost the brackets of [A-Fa-f0-9]{2} after the MAC addresses, so no line with a MAC= of 14 bytes matches (SFW2, SHOREWALL)"},
	"SYSLOGPAMSESSION": {`%{SYSLOGBASE} (%{GREEDYDATA:message})%{WORD:system.auth.pam.module}\(%{DATA:system.auth.pam.origin}\): session %{WORD:system.auth.pam.session_state} for user %{USERNAME:user.name}(?: by %{GREEDYDATA})?`,
		`%{SYSLOGBASE} (?=%{GREEDYDATA:message})%{WORD:system.auth.pam.module}\(%{DATA:system.auth.pam.origin}\): session %{WORD:system.auth.pam.session_state} for user %{USERNAME:user.name}(?: by %{GREEDYDATA})?`,
		"go-grok's consumes the message before the PAM module; Logstash's looks ahead, so that message also holds the text the rest parses (the one pattern of the library that runs on regexp2)"},
	"CISCOFW602303_602304": {`%{WORD:cisco.asa.network.type}: An %{CISCO_DIRECTION:cisco.asa.network.direction} %{DATA:cisco.asa.ipsec.tunnel_type} SA \(SPI=%{DATA:cisco.asa.ipsec.spi}\) between %{IP:source.address} and %{IP:destination.address} \(user=%{DATA:source.user.name}\) has been %{CISCO_ACTION:cisco.asa.outcome}`,
		`%{WORD:cisco.asa.network.type}: An %{CISCO_DIRECTION:cisco.asa.network.direction} %{DATA:cisco.asa.ipsec.tunnel_type} SA \(SPI=\s?%{DATA:cisco.asa.ipsec.spi}\) between %{IP:source.ip} and %{IP:destination.ip} \(user=\s?%{DATA:source.user.name}\) has been %{CISCO_ACTION:cisco.asa.outcome}`,
		"go-grok's keeps the space ASA writes after SPI= and user= in the values"},
	"EXIM_REMOTE_HOST": {`(H=(\(%{NOTSPACE:source.host.name}\) )?(\(%{NOTSPACE:exim.log.remote_address}\) )?\[%{IP:source.address}\](?::%{POSINT:source.port:int})?)`,
		`(H=(%{NOTSPACE:source.address} )?(\(%{NOTSPACE:exim.log.remote_address}\) )?\[%{IP:source.address}\](?::%{POSINT:source.port:int})?)`,
		"go-grok's wants the host name in parentheses, so H=mailer.example [192.0.2.1] is not read and the fields after it are lost"},
	"CLOUDFRONT_ACCESS_LOG": {`(?<timestamp>%{YEAR}[-]%{MONTHNUM}[-]%{MONTHDAY}\t%{TIME})\t%{WORD:aws.cloudfront.x_edge_location}\t(?:-|%{INT:destination.bytes:long})\t%{IPORHOST:source.address}\t%{WORD:http.request.method}\t%{HOSTNAME:url.domain}\t%{NOTSPACE:url.path}\t(?:(?:000)|%{INT:http.response.status_code:int})\t(?:-|%{DATA:http.request.referrer})\t%{DATA:user_agent.original}\t(?:-|%{DATA:url.query})\t(?:-|%{DATA:aws.cloudfront.http.request.cookie})\t%{WORD:aws.cloudfront.x_edge_result_type}\t%{NOTSPACE:aws.cloudfront.x_edge_request_id}\t%{HOSTNAME:aws.cloudfront.http.request.host}\t%{URIPROTO:network.protocol.name}\t(?:-|%{INT:source.bytes:long})\t%{NUMBER:aws.cloudfront.time_taken:float}\t(?:-|%{IP:network.forwarded_ip})\t(?:-|%{DATA:aws.cloudfront.ssl_protocol})\t(?:-|%{NOTSPACE:tls.cipher})\t%{WORD:aws.cloudfront.x_edge_response_result_type}(?:\t(?:-|HTTP/%{NUMBER:http.version})\t(?:-|%{DATA:aws.cloudfront.fle_status})\t(?:-|%{DATA:aws.cloudfront.fle_encrypted_fields})\t%{INT:source.port:int}\t%{NUMBER:aws.cloudfront.time_to_first_byte:float}\t(?:-|%{DATA:aws.cloudfront.x_edge_detailed_result_type})\t(?:-|%{NOTSPACE:http.request.mime_type})\t(?:-|%{INT:aws.cloudfront.http.request.size:long})\t(?:-|%{INT:aws.cloudfront.http.request.range.start:long})\t(?:-|%{INT:aws.cloudfront.http.request.range.end:long}))?`,
		`(?<timestamp>%{YEAR}[-]%{MONTHNUM}[-]%{MONTHDAY}\t%{TIME})\t%{WORD:aws.cloudfront.x_edge_location}\t(?:-|%{INT:destination.bytes:long})\t%{IPORHOST:source.ip}\t%{WORD:http.request.method}\t%{HOSTNAME:url.domain}\t%{NOTSPACE:url.path}\t(?:(?:000)|%{INT:http.response.status_code:int})\t(?:-|%{DATA:http.request.referrer})\t%{DATA:user_agent.original}\t(?:-|%{DATA:url.query})\t(?:-|%{DATA:aws.cloudfront.http.request.cookie})\t%{WORD:aws.cloudfront.x_edge_result_type}\t%{NOTSPACE:aws.cloudfront.x_edge_request_id}\t%{HOSTNAME:aws.cloudfront.http.request.host}\t%{URIPROTO:network.protocol}\t(?:-|%{INT:source.bytes:long})\t%{NUMBER:aws.cloudfront.time_taken:float}\t(?:-|%{IP:network.forwarded_ip})\t(?:-|%{DATA:aws.cloudfront.ssl_protocol})\t(?:-|%{NOTSPACE:tls.cipher})\t%{WORD:aws.cloudfront.x_edge_response_result_type}(?:\t(?:-|HTTP/%{NUMBER:http.version})\t(?:-|%{DATA:aws.cloudfront.fle_status})\t(?:-|%{DATA:aws.cloudfront.fle_encrypted_fields})\t%{INT:source.port:int}\t%{NUMBER:aws.cloudfront.time_to_first_byte:float}\t(?:-|%{DATA:aws.cloudfront.x_edge_detailed_result_type})\t(?:-|%{NOTSPACE:http.request.mime_type})\t(?:-|%{INT:aws.cloudfront.http.request.size:long})\t(?:-|%{INT:aws.cloudfront.http.request.range.start:long})\t(?:-|%{INT:aws.cloudfront.http.request.range.end:long}))?`,
		"Logstash's ECS library names the client source.ip and the protocol network.protocol"},
	"EMAILLOCALPART": {`[a-zA-Z][a-zA-Z0-9_.+-=:]+`, "[a-zA-Z0-9!#$%&'*+/=?^_`{|}~-]+(?:\\.[a-zA-Z0-9!#$%&'*+/=?^_`{|}~-]+)*",
		"go-grok's refuses a local part that starts with a digit or holds { } and takes a:b and a..b; Weir's is RFC 5322's dot-atom, as Logstash's ECS one"},
}

// renames are the field names go-grok writes otherwise than Logstash's ECS
// library, applied to every definition: an IP address is [source][ip],
// not source.address (HAProxy's excepted, where Logstash writes address
// too), a syslog host is [host][hostname], a body size is bytes, and what
// Logstash keeps out of the event is under [@metadata], not metadata.
var renames = []struct {
	re   *regexp.Regexp
	to   string
	skip string // the set it does not apply to
}{
	{regexp.MustCompile(`(%\{IP(?:V4|V6)?:(?:source|destination|client|server)(?:\.nat)?)\.address\}`), "${1}.ip}", "haproxy"},
	{regexp.MustCompile(`%\{SYSLOGHOST:host\.name\}`), "%{SYSLOGHOST:host.hostname}", ""},
	{regexp.MustCompile(`:http\.response\.body\.size([:}])`), ":http.response.body.bytes$1", ""},
	{regexp.MustCompile(`:metadata\.`), ":@metadata.", ""},
}

// NewLibrary returns the library of the ECS modes: NewBaseLibrary's, with
// Logstash's ECS field names where a definition has the structure of
// Logstash's (ecsFields).
func NewLibrary() *Library {
	l := NewBaseLibrary()
	for name, fields := range ecsFields {
		if def, ok := withFields(l.defs[name], fields); ok {
			l.defs[name] = def
		}
	}
	maps.Copy(l.defs, ecsTexts)
	addFamilies(l, false)
	return l
}

// ecsTexts are Weir's ECS definitions where go-grok's names fields
// otherwise than Logstash's ECS library and its structure differs too, so
// that no field table can rename them. They apply to the ECS modes only:
// the legacy names are given to go-grok's own texts.
var ecsTexts = map[string]string{
	"CISCOFW106023":   `%{CISCO_ACTION:cisco.asa.outcome}(?: protocol)? %{WORD:cisco.asa.network.transport} src %{CISCO_SRC_HOST_PORT_USER} dst %{CISCO_DST_HOST_PORT_USER}(?: \(type %{INT:cisco.asa.icmp_type:int}, code %{INT:cisco.asa.icmp_code:int}\))? by access-group "?%{DATA:cisco.asa.rule_name}"? \[%{DATA:@metadata.cisco.asa.hashcode1}, %{DATA:@metadata.cisco.asa.hashcode2}\]`,
	"MONGO_SLOWQUERY": `%{WORD:mongodb.profile.op} %{MONGO_WORDDASH:mongodb.database}\.%{MONGO_WORDDASH:mongodb.collection} %{WORD}: (?<mongodb.query.original>\{ %{MONGO_QUERY_CONTENT} \}) ntoreturn:%{NONNEGINT:mongodb.profile.ntoreturn:int} ntoskip:%{NONNEGINT:mongodb.profile.ntoskip:int} nscanned:%{NONNEGINT:mongodb.profile.nscanned:int}.*? nreturned:%{NONNEGINT:mongodb.profile.nreturned:int}.*? %{INT:mongodb.profile.duration:int}ms`,
}

// addFamilies adds the families of patterns that are Weir's own, in the
// ECS or the legacy names.
func addFamilies(l *Library, legacy bool) {
	for _, family := range []func(bool) map[string]string{nagiosDefinitions, baculaDefinitions} {
		maps.Copy(l.defs, family(legacy))
	}
}

// NewBaseLibrary returns a library holding every pattern set of go-grok,
// with the renames, and the definitions of Fixed and Reordered: what the
// field tables (fields.go, written by tools/grokfields) are aligned with.
func NewBaseLibrary() *Library {
	l := newGoGrok(true)
	for name, f := range Fixed {
		if s, ok := findSet(name); ok && s == f.Original {
			l.defs[name] = f.Weir
		}
	}
	return l
}

// NewGoGrokLibrary returns go-grok's definitions as go-grok has them,
// but for Reordered (which changes no match): what tests compare Weir's
// expansion with go-grok on.
func NewGoGrokLibrary() *Library { return newGoGrok(false) }

func newGoGrok(rename bool) *Library {
	l := &Library{defs: map[string]string{}}
	for _, s := range Sets {
		for name, def := range s.Patterns {
			for _, r := range renames {
				if rename && r.skip != s.Name {
					def = r.re.ReplaceAllString(def, r.to)
				}
			}
			l.defs[name] = def
		}
	}
	for name, r := range Reordered {
		if l.defs[name] == r.Original {
			l.defs[name] = r.Weir
		}
	}
	return l
}

// findSet returns go-grok's own text of a pattern.
func findSet(name string) (string, bool) {
	for _, s := range Sets {
		if d, ok := s.Patterns[name]; ok {
			return d, true
		}
	}
	return "", false
}

// Lookup returns the definition of a pattern.
func (l *Library) Lookup(name string) (string, bool) {
	d, ok := l.defs[name]
	return d, ok
}

// Names returns the names of every pattern, sorted.
func (l *Library) Names() []string {
	return slices.Sorted(maps.Keys(l.defs))
}

var patternName = regexp.MustCompile(`^\w+$`)

// AddDefinitions adds definitions written as in a Logstash pattern file:
// one per line, the name, white space, then the expression; blank lines
// and lines starting with # are skipped. where names the source in errors.
func (l *Library) AddDefinitions(text, where string) error {
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.IndexAny(line, " \t")
		if i < 0 {
			return fmt.Errorf("%s line %d: want NAME followed by its expression, got %q", where, n, truncate(line))
		}
		name, def := line[:i], strings.TrimSpace(line[i+1:])
		if def == "" {
			return fmt.Errorf("%s line %d: want NAME followed by its expression, got %q", where, n, truncate(line))
		}
		if !patternName.MatchString(name) {
			return fmt.Errorf("%s line %d: pattern name %q may hold only letters, digits and _", where, n, name)
		}
		l.defs[name] = def
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %w", where, err)
	}
	return nil
}

// AddPath adds the definitions of a pattern file, or of every regular file
// of a directory (in name order, not recursively), as Logstash's
// patterns_dir does.
func (l *Library) AddPath(path string) error {
	files, err := readPatternFiles(path)
	if err != nil {
		return fmt.Errorf("pattern files: %w", err)
	}
	for _, f := range files {
		// One line at a time, and an error that names the file and the
		// line but never quotes it: the path may name a file that holds
		// something other than patterns (a password, a key), and the error
		// reaches logs, /api/status and the snapshots sent to the REST API.
		for n, line := range strings.Split(f.text, "\n") {
			if err := l.AddDefinitions(line, f.name); err != nil {
				return fmt.Errorf("pattern file %s line %d: not a grok definition (NAME of letters, digits and _, white space, then the expression)", f.name, n+1)
			}
		}
	}
	return nil
}

// patternFile is one pattern file as read.
type patternFile struct{ name, text string }

// readPatternFiles is the one place that reads pattern files from disk: the
// file path, or every regular file of the directory path, in name order.
func readPatternFiles(path string) ([]patternFile, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	names := []string{path}
	if st.IsDir() {
		entries, err := os.ReadDir(path)
		if err != nil {
			return nil, err
		}
		names = names[:0]
		for _, e := range entries {
			if e.Type().IsRegular() {
				names = append(names, filepath.Join(path, e.Name()))
			}
		}
	}
	out := make([]patternFile, 0, len(names))
	for _, n := range names {
		// A regular file under the pattern files' size limit: a path of
		// /dev/zero or a FIFO is refused at once (docs/security.md).
		b, err := localfile.Read(n, localfile.Patterns)
		if err != nil {
			return nil, err
		}
		out = append(out, patternFile{name: n, text: string(b)})
	}
	return out, nil
}

// SpecMapping renames the ECS fields of the library's httpd patterns
// (HTTPD_COMMONLOG, HTTPD_COMBINEDLOG and their aliases COMMONAPACHELOG and
// COMBINEDAPACHELOG) to the field names of Weir's sample jobs and of the
// service specification.
var SpecMapping = map[string]string{
	"source.address":              "src_ip",
	"apache.access.user.identity": "identd",
	"user.name":                   "user",
	"timestamp":                   "record_time",
	"http.request.method":         "http_method",
	"url.original":                "http_query",
	"http.version":                "http_version",
	"http.response.status_code":   "http_status",
	"http.response.body.bytes":    "bytes_out",
	"http.response.body.size":     "bytes_out", // go-grok's name, for expressions that write it
	"http.request.referrer":       "http_referer",
	"user_agent.original":         "http_user_agent",
}

// Mappings are the built-in mappings by name.
var Mappings = map[string]map[string]string{"spec": SpecMapping}

// ParseMapping reads a field mapping: a comma-separated list whose entries
// are the name of a built-in mapping (spec) or from=to pairs; later entries
// override earlier ones.
func ParseMapping(items []string) (map[string]string, error) {
	out := map[string]string{}
	for _, it := range items {
		from, to, ok := strings.Cut(it, "=")
		if !ok {
			m, found := Mappings[it]
			if !found {
				return nil, fmt.Errorf("%q is neither a built-in mapping (spec) nor a from=to pair", it)
			}
			maps.Copy(out, m)
			continue
		}
		from, to = strings.TrimSpace(from), strings.TrimSpace(to)
		if from == "" || to == "" {
			return nil, fmt.Errorf("%q: both sides of = must be field names", it)
		}
		out[from] = to
	}
	return out, nil
}

// Compat is Logstash's ecs_compatibility: which field names the library's
// patterns write.
type Compat uint8

// Compatibility modes.
const (
	ECSv1    Compat = iota // v1 and v8: ECS names
	Disabled               // legacy names
)

// ParseCompat reads disabled, v1 or v8 (the empty string is v1).
func ParseCompat(s string) (Compat, error) {
	switch s {
	case "", "v1", "v8":
		return ECSv1, nil
	case "disabled":
		return Disabled, nil
	}
	return ECSv1, fmt.Errorf("%q is not disabled, v1 or v8", s)
}

// NewLibraryFor returns the built-in library of a mode. ECS modes get
// NewLibrary's. The legacy mode gets NewBaseLibrary's building blocks (the
// definitions that capture nothing, whose text does not depend on the
// mode) and its log formats under Logstash's legacy field names: those
// that tools/grokfields aligned with Logstash's legacy texts
// (legacyFields), those Weir names itself (legacyEdits, legacyOwn,
// legacyTexts) and Weir's own families. A log format without legacy names
// is left out, so that a legacy pipeline never receives ECS names; Logstash's
// patterns/legacy, loaded with grok.patterns.dir, gives the rest.
func NewLibraryFor(c Compat) *Library {
	if c != Disabled {
		return NewLibrary()
	}
	l := NewBaseLibrary()
	l.legacy = true
	for name, def := range l.defs {
		for _, e := range legacyEdits[name] {
			def = strings.Replace(def, e[0], e[1], 1)
		}
		fields, ok := legacyFields[name]
		if !ok {
			fields, ok = legacyOwn[name]
		}
		if ok {
			if def, ok := withFields(def, fields); ok {
				l.defs[name] = def
				continue
			}
		}
		if capturing.MatchString(def) {
			delete(l.defs, name)
		}
	}
	maps.Copy(l.defs, legacyTexts)
	addFamilies(l, true)
	// Then whatever refers to a removed pattern (COMBINEDAPACHELOG, an
	// alias of HTTPD_COMBINEDLOG), until nothing changes.
	for changed := true; changed; {
		changed = false
		for name, def := range l.defs {
			for _, m := range reference.FindAllStringSubmatch(def, -1) {
				if _, ok := l.defs[m[1]]; !ok {
					delete(l.defs, name)
					changed = true
					break
				}
			}
		}
	}
	return l
}

// reference finds the pattern names a definition refers to.
var reference = regexp.MustCompile(`%\{(\w+)`)

// capturing finds a named capture in a definition: %{NAME:field} or
// (?<field>...).
var capturing = regexp.MustCompile(`%\{\w+:|\(\?P?<[^=!]`)
