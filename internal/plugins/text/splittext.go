// Package text holds processors that parse text: SplitText, with plain
// regular expressions or grok expressions, and the weir grok command.
package text

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/weir-streams/weir/internal/civil"
	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/fastre"
	"github.com/weir-streams/weir/internal/plugins/text/grok"
	"github.com/weir-streams/weir/internal/record"
)

// SplitTextName is the component identifier.
const SplitTextName = "pkg.processor.SplitText"

// SplitText's keys.
const (
	KeyRecordType       = "record.type"
	KeyValueRegex       = "value.regex"
	KeyValueFields      = "value.fields"
	KeyKeyRegex         = "key.regex"
	KeyKeyFields        = "key.fields"
	KeyKeepRaw          = "keep.raw.content"
	KeyTimeZone         = "timezone.record.time"
	KeyGrokPatternsDir  = "grok.patterns.dir"
	KeyGrokDefinitions  = "grok.pattern.definitions"
	KeyGrokFieldMapping = "grok.field.mapping"
	KeyGrokNamedOnly    = "grok.named.captures.only"
	KeyGrokMatchField   = "grok.match.field"
	KeyGrokECS          = "grok.ecs.compatibility"
	KeyGrokTimeout      = "grok.timeout.millis"
	KeyGrokBreakOnMatch = "grok.break.on.match"
	KeyGrokKeepEmpty    = "grok.keep.empty.captures"
	KeyGrokTagOnFailure = "grok.tag.on.failure"
	KeyGrokOverwrite    = "grok.overwrite"
)

// ErrGrokTimeout is the error type of a record whose grok expression ran
// longer than grok.timeout.millis on the backtracking engine.
const ErrGrokTimeout = "grok_timeout"

// SplitTextSpec declares SplitText.
func SplitTextSpec() component.Spec {
	return component.ProcessorSpec(component.Spec{
		Name: SplitTextName,
		Summary: "Parses the raw value (record_value) with a regular expression anchored at its start, or a grok expression searched for anywhere in it, as Logstash does. " +
			"With a plain regular expression, capture group i becomes field i of value.fields; with grok syntax " +
			"(%{PATTERN:field:type}, (?<field>...)) the named captures give the fields (see docs/grok.md). " +
			"A value that does not match becomes an error record (regex_matching_error) that keeps the raw line. " +
			"record_time is converted to epoch milliseconds; it may be written in any of these forms: " + DescribeTimeFormats() +
			". A record_time in none of them makes the record an error record (date_parsing_error) that lists them.",
		Properties: []component.Property{
			{Key: KeyRecordType, Description: "Record type of the parsed records.", Default: "generic", Validator: component.NonEmpty},
			{Key: KeyValueRegex, Description: "Regular expression (RE2 syntax) applied to record_value, anchored at the start (trailing text is allowed), " +
				"or grok expression (Logstash's syntax), which matches anywhere in it. Several expressions, one per line, are tried in order and the first that matches wins.", Required: true, Example: `(\S+) \S+ (\S+)`, Validator: regexOrGrok},
			{Key: KeyValueFields, Description: "Comma-separated field names, one per capture group of value.regex, in order. " +
				"Optional with grok syntax, whose named captures give the fields; if given, it must name the same fields.", Example: "src_ip,user"},
			{Key: KeyKeyRegex, Description: "Regular expression (anchored at the start) or grok expression (matching anywhere) applied to the message key (record_key). A key that does not match sets no field.", Validator: regexOrGrok},
			{Key: KeyKeyFields, Description: "Comma-separated field names, one per capture group of key.regex (optional with grok syntax)."},
			{Key: KeyKeepRaw, Description: "Keep the raw line in record_value.", Default: "true", Validator: component.Bool},
			{Key: KeyTimeZone, Description: "Time zone (IANA name) of record_time values that carry no offset of their own (nginx error logs, syslog RFC 3164, ISO 8601 without a zone). UTC by default, as in every processor that reads dates.", Default: "UTC", Validator: timeZone},
			{Key: KeyGrokPatternsDir, Description: "Comma-separated pattern files or directories (every file in them) with grok definitions, " +
				"one per line: NAME expression (Logstash's patterns_dir). They override library patterns of the same name."},
			{Key: KeyGrokDefinitions, Description: "Inline grok definitions, one per line: NAME expression (Logstash's pattern_definitions). " +
				"They override library patterns and pattern files."},
			{Key: KeyGrokFieldMapping, Description: "Comma-separated renames applied to the fields of grok expressions: from=to pairs, or spec for the " +
				"built-in mapping of the httpd patterns' ECS names to src_ip, identd, user, record_time, http_method, http_query, " +
				"http_version, http_status, bytes_out, http_referer, http_user_agent.", Validator: component.List(component.NonEmpty)},
			{Key: KeyGrokNamedOnly, Description: "Only %{PATTERN:field} and (?<field>...) capture; false makes every %{PATTERN} capture into a field named PATTERN (Logstash's named_captures_only).",
				Default: "true", Validator: component.Bool},
			{Key: KeyGrokMatchField, Description: "Field that receives the expression of value.regex that matched, as written (useful with several)."},
			{Key: KeyGrokECS, Description: "Logstash's ecs_compatibility: v1 and v8 use the built-in library with ECS field names; disabled uses the legacy names " +
				"(a few legacy log formats are not built in: load Logstash's patterns/legacy with grok.patterns.dir).",
				Default: "v1", Validator: component.Enum("disabled", "v1", "v8")},
			{Key: KeyGrokTimeout, Description: "Time limit in milliseconds of one grok expression on one record when it runs on the backtracking engine " +
				"(expressions with lookaround, atomic groups or back references); a record that exceeds it becomes an error record grok_timeout. 0: no limit (Logstash's timeout_millis).",
				Default: "30000", Validator: component.IntRange(0, 1<<31-1)},
			{Key: KeyGrokBreakOnMatch, Description: "With several expressions, stop at the first that matches (Logstash's break_on_match); false applies every expression that matches, in order.",
				Default: "true", Validator: component.Bool},
			{Key: KeyGrokKeepEmpty, Description: "Set a field for a named capture that matched the empty string (Logstash's keep_empty_captures).",
				Default: "false", Validator: component.Bool},
			{Key: KeyGrokTagOnFailure, Description: "Error type of a record that no grok expression matches (Logstash's tag_on_failure).",
				Default: record.ErrRegexMatching, Validator: component.NonEmpty},
			{Key: KeyGrokOverwrite, Description: "Comma-separated fields that a capture replaces when the record already holds them (Logstash's overwrite); " +
				"a capture into any other field the record already holds makes it an array of the old and the captured values, as Logstash does.",
				Validator: component.List(component.NonEmpty)},
		},
	}, newSplitText)
}

// SplitTextConfig is SplitText's typed configuration.
type SplitTextConfig struct {
	RecordType   string        `key:"record.type"`
	ValueRegex   string        `key:"value.regex"`
	ValueFields  []string      `key:"value.fields"`
	KeyRegex     string        `key:"key.regex"`
	KeyFields    []string      `key:"key.fields"`
	KeepRaw      bool          `key:"keep.raw.content"`
	TimeZone     string        `key:"timezone.record.time"`
	PatternsDir  []string      `key:"grok.patterns.dir"`
	Definitions  string        `key:"grok.pattern.definitions"`
	FieldMapping []string      `key:"grok.field.mapping"`
	NamedOnly    bool          `key:"grok.named.captures.only"`
	MatchField   string        `key:"grok.match.field"`
	ECS          string        `key:"grok.ecs.compatibility"`
	Timeout      time.Duration `key:"grok.timeout.millis"`
	BreakOnMatch bool          `key:"grok.break.on.match"`
	KeepEmpty    bool          `key:"grok.keep.empty.captures"`
	TagOnFailure string        `key:"grok.tag.on.failure"`
	Overwrite    []string      `key:"grok.overwrite"`

	compiled *SplitText // what Validate compiled, shared read-only by every instance
}

// Validate compiles the expressions against the pattern library, and so
// refuses what a single key cannot show: a grok reference that is
// unknown, a regex whose capture groups do not match its field list, and a
// key regex without key fields (or the reverse). Every problem found is
// reported.
func (c *SplitTextConfig) Validate() error {
	st, err := build(c)
	if err != nil {
		return err
	}
	c.compiled = st
	return nil
}

var timeZone = component.NewValidator("IANA time zone name, e.g. UTC or Europe/Paris", func(s string) error {
	if _, err := time.LoadLocation(s); err != nil {
		return fmt.Errorf("unknown time zone %q", s)
	}
	return nil
})

// SplitText is the processor. It holds only compiled, read-only state and
// is safe for concurrent use.
type SplitText struct {
	name       string
	typ        string
	value      []*pattern // tried in order
	key        *pattern   // nil without key.regex
	keepRaw    bool
	loc        *time.Location
	matchField string
	timeout    time.Duration
	breakFirst bool   // break_on_match
	keepEmpty  bool   // keep_empty_captures
	failure    string // error type when nothing matches
	overwrite  map[string]bool
}

func newSplitText(c *SplitTextConfig, env component.Env) (component.Processor, error) {
	st := *c.compiled
	st.name = env.Name
	return &st, nil
}

// build compiles the configuration, reporting every problem found.
func build(c *SplitTextConfig) (*SplitText, error) {
	st := &SplitText{typ: c.RecordType, matchField: c.MatchField, failure: c.TagOnFailure,
		timeout: c.Timeout, breakFirst: c.BreakOnMatch, keepEmpty: c.KeepEmpty, keepRaw: c.KeepRaw}
	var errs []error
	lib, opts, err := grokSetup(c)
	if err != nil {
		return nil, err
	}
	if st.failure == "" {
		st.failure = record.ErrRegexMatching
	}
	for _, f := range c.Overwrite {
		if st.overwrite == nil {
			st.overwrite = map[string]bool{}
		}
		st.overwrite[grok.FieldName(f)] = true
	}
	if st.value, err = compilePatterns(c, lib, opts, KeyValueRegex, c.ValueRegex, KeyValueFields, c.ValueFields, true); err != nil {
		errs = append(errs, err)
	}
	if c.KeyRegex != "" || len(c.KeyFields) > 0 {
		ps, err := compilePatterns(c, lib, opts, KeyKeyRegex, c.KeyRegex, KeyKeyFields, c.KeyFields, false)
		if err != nil {
			errs = append(errs, err)
		} else {
			st.key = ps[0]
		}
	}
	if st.loc, err = time.LoadLocation(c.TimeZone); err != nil {
		errs = append(errs, fmt.Errorf("property \"timezone.record.time\": %w", err))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return st, nil
}

// compileFast compiles re for fastre, or returns nil if fastre refuses it,
// in which case regexp alone is used.
//
// The fast path exists because regexp runs log patterns such as the Apache
// one, which are not one-pass, on its backtracker or NFA at 3 to 7 µs a
// line, far from the target of a million lines a second per core; fastre
// takes a few hundred nanoseconds. Its results are identical: it compiles
// the same source (the anchored text re.String returns) with the same
// parser and flags, returns exactly what FindStringSubmatchIndex returns
// (checked against regexp over the real access log, table, random and fuzz
// tests), and says when it gave up so that regexp answers instead.
func compileFast(re *regexp.Regexp) *fastre.Matcher {
	m, err := fastre.Compile(re.String())
	if err != nil {
		return nil
	}
	return m
}

// match returns the capture positions of the first match of p in s, as
// regexp's FindStringSubmatchIndex gives them, or nil. A plain regular
// expression is anchored at the start; a grok expression is searched for
// anywhere, as Logstash does. fastre, which only anchors, answers first:
// the leftmost match of a search that matches at the start is the anchored
// match, so only a line that does not match there costs a search by
// regexp. An expression that needs the backtracking engine runs there,
// bounded by the timeout; err is then errTimeout. idx is scratch space
// that the result may use, sc fastre's.
func (p *pattern) match(s string, idx []int, sc *fastre.Scratch) ([]int, error) {
	if p.bt != nil {
		return p.matchBacktrack(s, idx)
	}
	if p.fast != nil {
		if m, ok, gaveUp := p.fast.MatchIndexScratch(s, idx, sc); !gaveUp {
			if ok {
				return m, nil
			}
			if !p.search {
				return nil, nil
			}
		}
	}
	return p.re.FindStringSubmatchIndex(s), nil
}

// errTimeout is a backtracking match that ran out of time.
var errTimeout = errors.New("timeout")

// matchBacktrack runs p.bt and returns byte positions in the layout of
// FindStringSubmatchIndex (-1 for a group that took no part).
func (p *pattern) matchBacktrack(s string, idx []int) ([]int, error) {
	m, err := p.bt.FindStringMatch(s)
	if err != nil {
		return nil, errTimeout
	}
	if m == nil {
		return nil, nil
	}
	idx = idx[:0]
	start, n := m.ByteRange()
	idx = append(idx, start, start+n)
	for _, g := range p.btGroups {
		grp := m.GroupByNumber(g)
		if grp == nil || len(grp.Captures) == 0 {
			idx = append(idx, -1, -1)
			continue
		}
		start, n := grp.ByteRange()
		idx = append(idx, start, start+n)
	}
	return idx, nil
}

// Process parses every record of the batch in place.
func (st *SplitText) Process(_ context.Context, b *component.Batch) error {
	// One fastre scratch for the whole batch: clearing it for every line
	// was about a tenth of matching one.
	var idx [64]int
	var sc fastre.Scratch
	for _, r := range b.Records {
		st.parse(r, idx[:0], &sc)
	}
	return nil
}

func (st *SplitText) parse(r *record.Record, idx []int, sc *fastre.Scratch) {
	r.SetType(st.typ)
	line, ok := r.GetString(record.FieldValue)
	if !ok {
		r.AddError(record.ErrRegexMatching, "record has no record_value to parse")
		return
	}
	if line == "" {
		r.AddError(record.ErrRegexMatching, "empty line")
		return
	}
	matched := false
	for i, p := range st.value {
		m, err := p.match(line, idx, sc)
		if err != nil {
			r.AddError(ErrGrokTimeout, fmt.Sprintf("expression %d of value.regex ran longer than %s (grok.timeout.millis)", i+1, st.timeout))
			return
		}
		if m == nil {
			continue
		}
		matched = true
		if err := st.setFields(r, p, line, m); err != nil {
			r.AddError(err.kind, err.msg)
			return
		}
		if st.matchField != "" {
			r.SetString(st.matchField, p.src)
		}
		if st.breakFirst {
			break
		}
	}
	if !matched {
		if len(st.value) == 1 {
			r.AddError(st.failure, "line does not match value.regex")
		} else {
			r.AddError(st.failure, fmt.Sprintf("line matches none of the %d expressions of value.regex", len(st.value)))
		}
		return
	}
	if st.key != nil {
		if key, ok := r.GetString(record.FieldKey); ok {
			km, err := st.key.match(key, idx, sc)
			if err != nil {
				r.AddError(ErrGrokTimeout, fmt.Sprintf("key.regex ran longer than %s (grok.timeout.millis)", st.timeout))
				return
			}
			if km != nil {
				if err := st.setFields(r, st.key, key, km); err != nil {
					r.AddError(err.kind, err.msg)
					return
				}
			}
		}
	}
	if !st.keepRaw {
		r.Remove(record.FieldValue)
	}
}

// fieldError is a value that could not be converted.
type fieldError struct{ kind, msg string }

// setFields sets the fields of a match m of p on s. When the record has
// none of the pattern's names yet (p.bits, of distinct names) and
// room for all of them, which is every line of a parse job, the fields are
// appended without SetNamed's call and tests (AddAbsent): the same record.
func (st *SplitText) setFields(r *record.Record, p *pattern, s string, m []int) *fieldError {
	fresh := p.bits != 0 && r.Absent(p.bits) && r.Room() >= len(p.targets)
	var had []bool // which targets the record held before this match
	if !fresh && p.named {
		had = make([]bool, len(p.targets))
		for i, t := range p.targets {
			_, had[i] = r.Get(t.field)
		}
	}
	for i, t := range p.targets {
		start, end := m[2*i+2], m[2*i+3]
		if start < 0 || p.named && start == end && !st.keepEmpty {
			continue // an optional group that did not take part sets no field
		}
		text := s[start:end]
		v := record.StringValue(text)
		if t.conv != convString {
			var fe *fieldError
			if v, fe = st.convert(t, text); fe != nil {
				return fe
			}
		}
		switch {
		case fresh:
			r.AddAbsent(t.name, v)
		case had != nil && had[i] && !st.overwrite[t.field] && !technical(t.field):
			// Logstash's grok adds a capture to a field the event already
			// holds, unless overwrite names it: [old, captured].
			old, _ := r.Get(t.field)
			var arr []record.Value
			if a, ok := old.AsArray(); ok {
				arr = append(arr, a...)
			} else {
				arr = append(arr, old)
			}
			r.SetNamed(t.name, record.ArrayValue(append(arr, v)))
		default:
			r.SetNamed(t.name, v)
			if had != nil {
				// A later capture of the same field in this match adds
				// to it, as Logstash's does (BIND9's query twice).
				for j := i + 1; j < len(p.targets); j++ {
					if p.targets[j].field == t.field {
						had[j] = true
					}
				}
			}
		}
	}
	return nil
}

// technical reports the fields Weir itself sets on every record (record_id,
// record_time, ...): a capture replaces them, as it always did.
func technical(field string) bool { return strings.HasPrefix(field, "record_") }

// convert is the value of a capture of a target that is not a plain
// string.
func (st *SplitText) convert(t target, text string) (record.Value, *fieldError) {
	switch t.conv {
	case convTime:
		ms, err := ParseTime(text, st.loc)
		if err != nil {
			return record.Value{}, &fieldError{"date_parsing_error", err.Error()}
		}
		return record.IntValue(ms), nil
	case convInt:
		n, err := parseInt(text)
		if err != nil {
			var ok bool
			if n, ok = rubyInt(text); !ok {
				return record.Value{}, &fieldError{typeConversionError, fmt.Sprintf("field %s: %q is not an int", t.field, text)}
			}
		}
		return record.IntValue(n), nil
	case convFloat:
		f, err := strconv.ParseFloat(text, 64)
		if err != nil {
			f = rubyFloat(text)
		}
		return record.FloatValue(f), nil
	case convBool:
		b, err := strconv.ParseBool(text)
		if err != nil {
			return record.Value{}, &fieldError{typeConversionError, fmt.Sprintf("field %s: %q is not a bool", t.field, text)}
		}
		return record.BoolValue(b), nil
	}
	return record.StringValue(text), nil
}

// rubyNumber finds the number at the start of a capture as Ruby's String#to_i
// and #to_f read it, which Logstash's :int and :float use: leading white
// space, a sign, digits (and for a float a fraction and an exponent); the
// rest is ignored and no number at all is 0. A greedy capture such as
// Logstash's %{GREEDYDATA:time_taken:float} in CLOUDFRONT_ACCESS_LOG
// relies on it.
var (
	rubyIntPrefix   = regexp.MustCompile(`^\s*[+-]?\d+`)
	rubyFloatPrefix = regexp.MustCompile(`^\s*[+-]?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?`)
)

// rubyInt is String#to_i; ok is false for a number beyond 64 bits.
func rubyInt(text string) (int64, bool) {
	m := strings.TrimSpace(rubyIntPrefix.FindString(text))
	if m == "" {
		return 0, true
	}
	n, err := strconv.ParseInt(strings.TrimPrefix(m, "+"), 10, 64)
	return n, err == nil
}

// rubyFloat is String#to_f.
func rubyFloat(text string) float64 {
	f, err := strconv.ParseFloat(strings.TrimSpace(rubyFloatPrefix.FindString(text)), 64)
	if err != nil {
		return 0
	}
	return f
}

// typeConversionError is the error type of a capture that %{PATTERN:field:int}
// (or float, bool) cannot convert, such as an int beyond 64 bits.
const typeConversionError = "type_conversion_error"

// month returns the month of its English three-letter abbreviation
// (Jan ... Dec, as Apache writes them), or 0. A switch on the three bytes
// packed in a word: a map lookup was a third of parseApacheTime.
func month(s string) int {
	switch uint32(s[0])<<16 | uint32(s[1])<<8 | uint32(s[2]) {
	case 'J'<<16 | 'a'<<8 | 'n':
		return 1
	case 'F'<<16 | 'e'<<8 | 'b':
		return 2
	case 'M'<<16 | 'a'<<8 | 'r':
		return 3
	case 'A'<<16 | 'p'<<8 | 'r':
		return 4
	case 'M'<<16 | 'a'<<8 | 'y':
		return 5
	case 'J'<<16 | 'u'<<8 | 'n':
		return 6
	case 'J'<<16 | 'u'<<8 | 'l':
		return 7
	case 'A'<<16 | 'u'<<8 | 'g':
		return 8
	case 'S'<<16 | 'e'<<8 | 'p':
		return 9
	case 'O'<<16 | 'c'<<8 | 't':
		return 10
	case 'N'<<16 | 'o'<<8 | 'v':
		return 11
	case 'D'<<16 | 'e'<<8 | 'c':
		return 12
	}
	return 0
}

// parseApacheTime parses "02/Jan/2006:15:04:05 -0700" without time.Parse,
// which dominates the cost of parsing a line otherwise.
func parseApacheTime(s string) (int64, bool) {
	if len(s) != 26 || s[2] != '/' || s[6] != '/' || s[11] != ':' || s[14] != ':' || s[17] != ':' || s[20] != ' ' {
		return 0, false
	}
	mon := month(s[3:6])
	if mon == 0 {
		return 0, false
	}
	day, ok1 := digits(s[0:2])
	year, ok2 := digits(s[7:11])
	hh, ok3 := digits(s[12:14])
	mm, ok4 := digits(s[15:17])
	ss, ok5 := digits(s[18:20])
	zh, ok6 := digits(s[22:24])
	zm, ok7 := digits(s[24:26])
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6 && ok7) || (s[21] != '+' && s[21] != '-') {
		return 0, false
	}
	if day < 1 || day > civil.DaysIn(year, mon) || hh > 23 || mm > 59 || ss > 60 || zh > 23 || zm > 59 {
		return 0, false // 31/Feb and the like, as time.Date's normalization caught before
	}
	off := (zh*60 + zm) * 60
	if s[21] == '-' {
		off = -off
	}
	secs := civil.DaysFromEpoch(year, mon, day)*86400 + int64(hh*3600+mm*60+ss)
	return (secs - int64(off)) * 1000, true
}

func digits(s string) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// ensure the interface is met.
var _ component.Processor = (*SplitText)(nil)
