package text

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dlclark/regexp2/v2"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/fastre"
	"github.com/weir-streams/weir/internal/plugins/text/grok"
	"github.com/weir-streams/weir/internal/record"
)

// This file compiles value.regex and key.regex, plain regular expressions
// or grok expressions, into patterns: a regexp and its fastre matcher, or a
// regexp2 for an expression RE2 cannot run, and the field each capture
// group fills.

// conv says how a captured text becomes a field value.
type conv uint8

const (
	convString conv = iota
	convInt
	convFloat
	convBool
	convTime // record_time: epoch milliseconds
)

// target is the field one capture group fills.
type target struct {
	field string
	name  record.Name // field, for record.SetNamed
	conv  conv
}

// pattern is one compiled expression of value.regex or key.regex.
type pattern struct {
	src  string // as written, for grok.match.field
	re   *regexp.Regexp
	fast *fastre.Matcher // nil if re is outside fastre's subset; always anchored
	// search is set for grok expressions, which match anywhere in the
	// line as in Logstash; re is then not anchored. Plain regular
	// expressions are anchored at the start.
	search bool
	// bt runs an expression that RE2 cannot (lookaround, atomic groups,
	// back references); re and fast are then nil. btGroups are the
	// regexp2 group numbers of the targets, in order.
	bt       *regexp2.Regexp
	btGroups []int
	targets  []target // one per capture group of re
	// named is set for grok expressions: only named captures fill fields,
	// and an empty capture sets none, as in Logstash; a later capture of
	// the same field overrides an earlier one.
	named bool
	// bits is the OR of the targets' name bits when their names are all
	// distinct, else 0: with it setFields proves that none of the fields
	// is set yet.
	bits uint64
}

// regexOrGrok checks, on the key alone, each line that is a plain regular
// expression; grok expressions need the pattern library and the other
// keys, so SplitTextConfig.Validate checks them.
var regexOrGrok = component.NewValidator("regular expression (RE2 syntax) or grok expression, one or more lines", func(s string) error {
	if strings.TrimSpace(s) == "" {
		return errors.New("must not be empty")
	}
	for _, l := range splitLines(s) {
		if !grok.IsGrok(l) {
			if err := component.Regex.Validate(l); err != nil {
				return err
			}
		}
	}
	return nil
})

// splitLines returns the non-blank lines of s, without their line ends.
func splitLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSuffix(l, "\r"); strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}

// grokSetup builds the pattern library (go-grok's sets, then the pattern
// files, then the inline definitions) and the expansion options.
func grokSetup(c *SplitTextConfig) (*grok.Library, grok.Options, error) {
	var opts grok.Options
	mode, err := grok.ParseCompat(c.ECS)
	if err != nil {
		return nil, opts, fmt.Errorf("property %q: %w", KeyGrokECS, err)
	}
	lib := grok.NewLibraryFor(mode)
	for _, p := range c.PatternsDir {
		if err := lib.AddPath(p); err != nil {
			return nil, opts, fmt.Errorf("property \"grok.patterns.dir\": %w", err)
		}
	}
	if defs := c.Definitions; defs != "" {
		if err := lib.AddDefinitions(defs, "definition"); err != nil {
			return nil, opts, fmt.Errorf("property \"grok.pattern.definitions\": %w", err)
		}
	}
	if opts.Rename, err = grok.ParseMapping(c.FieldMapping); err != nil {
		return nil, opts, fmt.Errorf("property \"grok.field.mapping\": %w", err)
	}
	opts.AllCaptures = !c.NamedOnly
	return lib, opts, nil
}

// compilePatterns compiles src, the expressions of regexKey (one per line
// when multi is set), and checks them against fields, the list of
// fieldsKey: a plain regex needs one field per capture group; grok
// expressions name their fields, and fields, if given, must name the same
// ones.
func compilePatterns(c *SplitTextConfig, lib *grok.Library, opts grok.Options, regexKey, src, fieldsKey string, fields []string, multi bool) ([]*pattern, error) {
	timeout := c.Timeout
	if src == "" {
		return nil, fmt.Errorf("properties %q and %q must be given together", regexKey, fieldsKey)
	}
	exprs := []string{src}
	if multi && strings.Contains(src, "\n") {
		exprs = splitLines(src)
	}
	where := func(i int) string {
		if len(exprs) == 1 {
			return fmt.Sprintf("property %q", regexKey)
		}
		return fmt.Sprintf("property %q, expression %d", regexKey, i+1)
	}
	var ps []*pattern
	var named []string // fields of the grok expressions, in order
	seen := map[string]bool{}
	for i, expr := range exprs {
		p := &pattern{src: expr}
		regex := expr
		if grok.IsGrok(expr) {
			exp, err := lib.Expand(expr, opts)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", where(i), err)
			}
			// The expansion carries Logstash's flags (grok.rubyFlags): .
			// matches a line end, ^ and $ match at every line, so a
			// multi-line message (a Java stack trace) is one value.
			regex, p.named, p.search = exp.Regex, true, true
			if exp.Backtrack {
				if p.bt, p.btGroups, err = compileBacktrack(exp, timeout); err != nil {
					return nil, fmt.Errorf("%s: %w", where(i), err)
				}
			}
			for _, c := range exp.Captures {
				p.targets = append(p.targets, target{field: c.Field, name: record.MakeName(c.Field), conv: convOf(c)})
				if !seen[c.Field] {
					seen[c.Field] = true
					named = append(named, c.Field)
				}
			}
		}
		if p.bt != nil {
			p.bits = distinctBits(p.targets)
			ps = append(ps, p)
			continue
		}
		anchored := `^(?:` + regex + `)`
		re, err := regexp.Compile(anchored)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", where(i), err)
		}
		if !p.named {
			if len(fields) == 0 {
				what := fmt.Sprintf("missing required property %q", fieldsKey)
				if !multi {
					what = fmt.Sprintf("properties %q and %q must be given together", regexKey, fieldsKey)
				}
				return nil, fmt.Errorf("%s: %s has no named captures, so %q must name its %d capture groups", what, where(i), fieldsKey, re.NumSubexp())
			}
			if n := re.NumSubexp(); n != len(fields) {
				return nil, fmt.Errorf("%s has %d capture groups but %q names %d fields", where(i), n, fieldsKey, len(fields))
			}
			for _, f := range fields {
				t := target{field: f, name: record.MakeName(f)}
				if f == record.FieldTime {
					t.conv = convTime
				}
				p.targets = append(p.targets, t)
			}
		}
		p.re, p.fast = re, compileFast(re)
		if p.search {
			if p.re, err = regexp.Compile(regex); err != nil {
				return nil, fmt.Errorf("%s: %w", where(i), err)
			}
		}
		p.bits = distinctBits(p.targets)
		ps = append(ps, p)
	}
	if len(named) == 0 && len(fields) == 0 && c.MatchField == "" {
		// Every expression is grok and none captures: %{IP} alone, which
		// in Logstash too sets nothing. Say how to name a field.
		return nil, fmt.Errorf("property %q captures no field: name one, as in %%{IP:client} or (?<client>...)", regexKey)
	}
	if len(named) > 0 && len(fields) > 0 {
		if err := sameFields(named, fields); err != nil {
			return nil, fmt.Errorf("%q does not agree with the named captures of %q: %w", fieldsKey, regexKey, err)
		}
	}
	return ps, nil
}

// compileBacktrack compiles an expansion that needs the backtracking
// engine. github.com/dlclark/regexp2 is a port of .NET's engine, whose
// syntax covers what Logstash's Oniguruma patterns use: lookahead and
// lookbehind, atomic groups, possessive quantifiers, back references,
// (?<name>...); grok.BacktrackOptions says how it is set to read them as
// Logstash does.
func compileBacktrack(exp grok.Expansion, timeout time.Duration) (*regexp2.Regexp, []int, error) {
	re, err := regexp2.Compile(exp.Regex, grok.BacktrackOptions)
	if err != nil {
		return nil, nil, fmt.Errorf("expanded expression: %w", err)
	}
	if timeout > 0 {
		re.MatchTimeout = timeout
	}
	groups := make([]int, len(exp.Captures))
	for i := range exp.Captures {
		if groups[i] = re.GroupNumberFromName(fmt.Sprintf("g%d", i)); groups[i] < 0 {
			return nil, nil, fmt.Errorf("expanded expression: capture %d has no group", i)
		}
	}
	return re, groups, nil
}

// convOf gives the conversion of a grok capture; record_time is always a
// timestamp, whatever type the pattern asks for.
func convOf(c grok.Capture) conv {
	if c.Field == record.FieldTime {
		return convTime
	}
	switch c.Type {
	case grok.Int:
		return convInt
	case grok.Float:
		return convFloat
	case grok.Bool:
		return convBool
	}
	return convString
}

// parseInt converts the capture of %{PATTERN:field:int}: an optional sign
// then decimal digits, as strconv.ParseInt reads them after dropping one
// leading '+'. Up to 18 digits, which cannot overflow, are read by a plain
// loop, several times faster than ParseInt on an access log's status and
// size; anything else goes to ParseInt, which gives the same values and
// errors.
func parseInt(text string) (int64, error) {
	i := 0
	if len(text) > 0 && (text[0] == '+' || text[0] == '-') {
		i = 1
	}
	if digits := len(text) - i; digits > 0 && digits <= 18 {
		var n int64
		for ; i < len(text); i++ {
			d := text[i] - '0'
			if d > 9 {
				break
			}
			n = n*10 + int64(d)
		}
		if i == len(text) {
			if text[0] == '-' {
				n = -n
			}
			return n, nil
		}
	}
	return strconv.ParseInt(strings.TrimPrefix(text, "+"), 10, 64)
}

// sameFields reports the names that only one of the lists holds.
func sameFields(captured, listed []string) error {
	in := func(list []string, s string) bool { return slices.Contains(list, s) }
	var missing, extra []string
	for _, f := range listed {
		if !in(captured, f) {
			extra = append(extra, f)
		}
	}
	for _, f := range captured {
		if !in(listed, f) {
			missing = append(missing, f)
		}
	}
	var msgs []string
	if len(extra) > 0 {
		msgs = append(msgs, fmt.Sprintf("it names %s, which no expression captures", quoteAll(extra)))
	}
	if len(missing) > 0 {
		msgs = append(msgs, fmt.Sprintf("it does not name %s, which the expressions capture", quoteAll(missing)))
	}
	if len(msgs) == 0 {
		return nil
	}
	return errors.New(strings.Join(msgs, "; "))
}

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = strconv.Quote(s)
	}
	return strings.Join(q, ", ")
}

// distinctBits returns the OR of the targets' name bits, or 0 when two
// targets name the same field (the later one then overrides the earlier,
// which setFields leaves to SetNamed). Distinct names may share a bit.
func distinctBits(targets []target) uint64 {
	var bits uint64
	for i, t := range targets {
		for _, u := range targets[:i] {
			if u.field == t.field {
				return 0
			}
		}
		bits |= t.name.Bit()
	}
	return bits
}
