// Package text holds processors that parse text: SplitText.
package text

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"

	"time"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/plugins/text/fastre"
	"github.com/weir-streams/weir/internal/record"
)

// SplitTextName is the component identifier.
const SplitTextName = "pkg.processor.SplitText"

// SplitText's keys.
const (
	KeyRecordType  = "record.type"
	KeyValueRegex  = "value.regex"
	KeyValueFields = "value.fields"
	KeyKeyRegex    = "key.regex"
	KeyKeyFields   = "key.fields"
	KeyKeepRaw     = "keep.raw.content"
	KeyTimeZone    = "timezone.record.time"
)

// SplitTextSpec declares SplitText.
func SplitTextSpec() component.Spec {
	return component.Spec{
		Name: SplitTextName,
		Kind: component.KindProcessor,
		Summary: "Parses the raw value (record_value) with a regular expression anchored at its start; capture group i " +
			"becomes field i of value.fields. A value that does not match becomes an error record (regex_matching_error) " +
			"that keeps the raw line. record_time is converted to epoch milliseconds.",
		Properties: []component.Property{
			{Key: KeyRecordType, Description: "Record type of the parsed records.", Default: "generic", Validator: component.NonEmpty},
			{Key: KeyValueRegex, Description: "Regular expression (RE2 syntax) applied to record_value, anchored at the start; trailing text is allowed.", Required: true, Example: `(\S+) \S+ (\S+)`, Validator: component.Regex},
			{Key: KeyValueFields, Description: "Comma-separated field names, one per capture group of value.regex, in order.", Required: true, Example: "src_ip,identd", Validator: component.List(component.NonEmpty)},
			{Key: KeyKeyRegex, Description: "Regular expression applied to the message key (record_key), anchored at the start. A key that does not match sets no field.", Validator: component.Regex},
			{Key: KeyKeyFields, Description: "Comma-separated field names, one per capture group of key.regex.", Validator: component.List(component.NonEmpty)},
			{Key: KeyKeepRaw, Description: "Keep the raw line in record_value.", Default: "true", Validator: component.Bool},
			{Key: KeyTimeZone, Description: "Time zone (IANA name) of record_time values that carry no offset of their own.", Default: "UTC", Validator: timeZone},
		},
		Check:        checkSplitText,
		NewProcessor: newSplitText,
	}
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
	name      string
	typ       string
	value     *regexp.Regexp
	valueF    []string
	key       *regexp.Regexp
	keyF      []string
	valueFast *fastre.Matcher // nil if value.regex is outside fastre's subset
	keyFast   *fastre.Matcher // nil if key.regex is absent or outside fastre's subset
	keepRaw   bool
	loc       *time.Location
	timeIndex int // index of record_time in valueF, -1 if absent
}

// checkSplitText refuses, at validation, what a single key cannot show: a
// regex whose capture groups do not match its field list, and a key regex
// without key fields (or the reverse).
func checkSplitText(conf component.Config) error {
	var errs []error
	if _, _, err := compileAnchored(conf, KeyValueRegex, KeyValueFields); err != nil {
		errs = append(errs, err)
	}
	if conf.IsSet(KeyKeyRegex) || conf.IsSet(KeyKeyFields) {
		if _, _, err := compileAnchored(conf, KeyKeyRegex, KeyKeyFields); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func newSplitText(conf component.Config, env component.Env) (component.Processor, error) {
	st := &SplitText{name: env.Name, typ: conf.String(KeyRecordType)}
	var err error
	if st.value, st.valueF, err = compileAnchored(conf, KeyValueRegex, KeyValueFields); err != nil {
		return nil, err
	}
	if conf.IsSet(KeyKeyRegex) || conf.IsSet(KeyKeyFields) {
		if st.key, st.keyF, err = compileAnchored(conf, KeyKeyRegex, KeyKeyFields); err != nil {
			return nil, err
		}
	}
	st.valueFast, st.keyFast = compileFast(st.value), compileFast(st.key)
	if st.keepRaw, err = conf.Bool(KeyKeepRaw); err != nil {
		return nil, err
	}
	if st.loc, err = time.LoadLocation(conf.String(KeyTimeZone)); err != nil {
		return nil, fmt.Errorf("property %q: %w", KeyTimeZone, err)
	}
	st.timeIndex = -1
	for i, f := range st.valueF {
		if f == record.FieldTime {
			st.timeIndex = i
		}
	}
	return st, nil
}

// compileAnchored compiles a regex anchored at the start of the input and
// checks that it has one capture group per field.
func compileAnchored(conf component.Config, regexKey, fieldsKey string) (*regexp.Regexp, []string, error) {
	src := conf.String(regexKey)
	fields := conf.List(fieldsKey)
	if src == "" || len(fields) == 0 {
		return nil, nil, fmt.Errorf("properties %q and %q must be given together", regexKey, fieldsKey)
	}
	re, err := regexp.Compile(`^(?:` + src + `)`)
	if err != nil {
		return nil, nil, fmt.Errorf("property %q: %w", regexKey, err)
	}
	if n := re.NumSubexp(); n != len(fields) {
		return nil, nil, fmt.Errorf("property %q has %d capture groups but %q names %d fields", regexKey, n, fieldsKey, len(fields))
	}
	return re, fields, nil
}

// compileFast compiles re for fastre, or returns nil if re is nil or
// fastre refuses it, in which case regexp alone is used.
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
	if re == nil {
		return nil
	}
	m, err := fastre.Compile(re.String())
	if err != nil {
		return nil
	}
	return m
}

// match returns re.FindStringSubmatchIndex(s), asking fast first when it
// is not nil; idx is scratch space that the result may use.
func match(re *regexp.Regexp, fast *fastre.Matcher, s string, idx []int) []int {
	if fast != nil {
		if m, ok, gaveUp := fast.MatchIndex(s, idx); !gaveUp {
			if !ok {
				return nil
			}
			return m
		}
	}
	return re.FindStringSubmatchIndex(s)
}

// Process parses every record of the batch in place.
func (st *SplitText) Process(_ context.Context, b *component.Batch) error {
	var idx [64]int
	for _, r := range b.Records {
		st.parse(r, idx[:0])
	}
	return nil
}

func (st *SplitText) parse(r *record.Record, idx []int) {
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
	m := match(st.value, st.valueFast, line, idx)
	if m == nil {
		r.AddError(record.ErrRegexMatching, "line does not match value.regex")
		return
	}
	for i, name := range st.valueF {
		start, end := m[2*i+2], m[2*i+3]
		if start < 0 {
			continue // an optional group that did not take part sets no field
		}
		s := line[start:end]
		if i == st.timeIndex {
			ms, err := ParseTime(s, st.loc)
			if err != nil {
				r.AddError("date_parsing_error", err.Error())
				return
			}
			r.Set(name, record.IntValue(ms))
			continue
		}
		r.Set(name, record.StringValue(s))
	}
	if st.key != nil {
		if key, ok := r.GetString(record.FieldKey); ok {
			if km := match(st.key, st.keyFast, key, idx); km != nil {
				for i, name := range st.keyF {
					if km[2*i+2] >= 0 {
						r.Set(name, record.StringValue(key[km[2*i+2]:km[2*i+3]]))
					}
				}
			}
		}
	}
	if !st.keepRaw {
		r.Remove(record.FieldValue)
	}
}

// timeLayouts are the record_time formats understood, tried in order after
// the fast path for Apache's. Layouts without a zone use the configured one.
var timeLayouts = []string{
	"02/Jan/2006:15:04:05 -0700",
	"02/Jan/2006:15:04:05",
	time.RFC3339Nano,
	"2006-01-02T15:04:05.999999999",
	"2006-01-02 15:04:05.999999999 -0700",
	"2006-01-02 15:04:05.999999999",
	"2006-01-02 15:04:05,999",
	time.RFC1123Z,
	time.RFC1123,
	"Jan _2 15:04:05",
	"Jan _2 2006 15:04:05",
}

// ParseTime converts a timestamp to epoch milliseconds. It understands the
// Apache access-log form (17/May/2015:10:05:03 +0000) on a fast path,
// ISO 8601 and a few common log forms, and plain epoch milliseconds. A
// timestamp without an offset is read in loc.
func ParseTime(s string, loc *time.Location) (int64, error) {
	if ms, ok := parseApacheTime(s); ok {
		return ms, nil
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n, nil
	}
	for _, l := range timeLayouts {
		if t, err := time.ParseInLocation(l, s, loc); err == nil {
			if t.Year() == 0 { // syslog forms carry no year
				t = t.AddDate(time.Now().In(loc).Year(), 0, 0)
			}
			return t.UnixMilli(), nil
		}
	}
	return 0, fmt.Errorf("cannot parse record_time %q", s)
}

var months = map[string]time.Month{
	"Jan": 1, "Feb": 2, "Mar": 3, "Apr": 4, "May": 5, "Jun": 6,
	"Jul": 7, "Aug": 8, "Sep": 9, "Oct": 10, "Nov": 11, "Dec": 12,
}

// parseApacheTime parses "02/Jan/2006:15:04:05 -0700" without time.Parse,
// which dominates the cost of parsing a line otherwise.
func parseApacheTime(s string) (int64, bool) {
	if len(s) != 26 || s[2] != '/' || s[6] != '/' || s[11] != ':' || s[14] != ':' || s[17] != ':' || s[20] != ' ' {
		return 0, false
	}
	mon, ok := months[s[3:6]]
	if !ok {
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
	if day < 1 || day > 31 || hh > 23 || mm > 59 || ss > 60 || zh > 23 || zm > 59 {
		return 0, false
	}
	t := time.Date(year, mon, day, hh, mm, ss, 0, time.UTC)
	if t.Day() != day { // 31/Feb and the like
		return 0, false
	}
	off := (zh*60 + zm) * 60
	if s[21] == '-' {
		off = -off
	}
	return (t.Unix() - int64(off)) * 1000, true
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
