package fields

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/expr"
	"github.com/weir-streams/weir/internal/record"
)

// ConvertSimpleDateFormatFieldsName is the component identifier.
const ConvertSimpleDateFormatFieldsName = "pkg.processor.ConvertSimpleDateFormatFields"

// ConvertSimpleDateFormatFieldsSpec declares ConvertSimpleDateFormatFields.
func ConvertSimpleDateFormatFieldsSpec() component.Spec {
	return component.ProcessorSpec(component.Spec{
		Name: ConvertSimpleDateFormatFieldsName,
		Summary: "Converts dates to epoch milliseconds. Each dynamic key names the field to set; its value gives the date text, " +
			"usually ${source_field} (a constant or ${expression}, docs/expressions.md). input.date.format is a Java SimpleDateFormat " +
			"pattern as LogIsland users write them (dd/MMM/yyyy:HH:mm:ss Z, yyyy-MM-dd'T'HH:mm:ss.SSSXXX, ...). A date that does not parse leaves " +
			"the record unchanged and is counted in convert_date_total{outcome=\"failed\"}, as LogIsland does.",
		DynamicProperties: true,
		DynamicKeys:       "a field to set, its value the date text (usually ${source_field})",
		DynamicExamples:   map[string]string{"event_time": "${date_raw}"},
		Properties: []component.Property{
			{Key: "input.date.format", Description: "Java SimpleDateFormat pattern of the input dates. Supported letters: y M d H h k K m s S a E z Z X and 'quoted text'.",
				Required: true, Example: "dd/MMM/yyyy:HH:mm:ss Z", Validator: component.NewValidator("SimpleDateFormat pattern", func(s string) error {
					_, err := JavaDateLayout(s)
					return err
				})},
			{Key: "timezone", Description: "Time zone (IANA name, or a fixed offset such as +02:00) of dates without an offset of their own. " +
				"UTC by default, as in every processor that reads dates; LogIsland's default is CET, so a job from LogIsland that relied on it sets timezone: CET.",
				Default: "UTC", Validator: component.NewValidator("IANA time zone", func(s string) error {
					_, err := loadZone(s)
					return err
				})},
			overwritePolicy("When the target field exists: overwrite_existing, or keep_only_old_field."),
		},
	}, newConvertSimpleDateFormatFields)
}

// ConvertSimpleDateFormatFieldsConfig is ConvertSimpleDateFormatFields'
// configuration.
type ConvertSimpleDateFormatFieldsConfig struct {
	DateFormat string `key:"input.date.format"`
	Timezone   string `key:"timezone"`
	ConflictPolicy
	Dates  map[string]string `key:",dynamic"`
	layout string
	plan   *datePlan
	loc    *time.Location
	rules  []dateRule
}

// Validate parses the date texts' templates, and keeps the Go layout, the
// fixed-width plan and the location of the keys the single-key validators
// accepted, so that the constructor derives nothing.
func (c *ConvertSimpleDateFormatFieldsConfig) Validate() error {
	var err error
	if c.layout, err = JavaDateLayout(c.DateFormat); err != nil {
		return fmt.Errorf("property \"input.date.format\": %w", err)
	}
	c.plan = newDatePlan(c.DateFormat)
	if c.loc, err = loadZone(c.Timezone); err != nil {
		return fmt.Errorf("property \"timezone\": %w", err)
	}
	return parseDynamic(&c.rules, c.Dates, func(k, v string) (dateRule, error) {
		t, err := expr.ParseTemplate(v)
		return dateRule{field: k, value: t}, err
	})
}

func loadZone(s string) (*time.Location, error) {
	if t, err := time.Parse("-07:00", s); err == nil {
		_, off := t.Zone()
		return time.FixedZone(s, off), nil
	}
	loc, err := time.LoadLocation(s)
	if err != nil {
		return nil, fmt.Errorf("unknown time zone %q", s)
	}
	return loc, nil
}

type dateRule struct {
	field string
	value expr.Template
}

// ConvertSimpleDateFormatFields is the processor.
type ConvertSimpleDateFormatFields struct {
	rules      []dateRule
	pattern    string // input.date.format, as written, for the log
	layout     string
	plan       *datePlan // nil: every date goes to time.ParseInLocation
	loc        *time.Location
	overwrite  bool
	log        *slog.Logger
	ok, failed prometheus.Counter
}

func newConvertSimpleDateFormatFields(c *ConvertSimpleDateFormatFieldsConfig, env component.Env) (component.Processor, error) {
	p := &ConvertSimpleDateFormatFields{rules: c.rules, pattern: c.DateFormat, layout: c.layout, plan: c.plan, loc: c.loc,
		overwrite: c.overwrite(), log: env.Logger}
	if p.log == nil {
		p.log = slog.New(slog.DiscardHandler)
	}
	const name, help = "convert_date_total", "Dates ConvertSimpleDateFormatFields saw, by outcome."
	p.ok, p.failed = counter(env, name, help, "converted"), counter(env, name, help, "failed")
	return p, nil
}

// Process converts the dates of every record. A date of a fixed-width
// pattern is read by the pattern's datePlan; any other, or one the plan
// does not take, by time.ParseInLocation. Each rule remembers where its
// field was set in the previous record.
func (p *ConvertSimpleDateFormatFields) Process(_ context.Context, b *component.Batch) error {
	var ok, failed int
	var hints fieldHints
	for _, r := range b.Records {
		for i, rule := range p.rules {
			if !p.overwrite && r.Has(rule.field) {
				continue
			}
			v, err := rule.value.Eval(r)
			if err != nil || v.IsNull() {
				continue
			}
			s := textOf(v)
			ms, parsed := int64(0), false
			if p.plan != nil {
				ms, parsed = p.plan.parse(s, p.loc)
			}
			if !parsed {
				t, err := time.ParseInLocation(p.layout, s, p.loc)
				if err != nil {
					failed++
					p.log.Debug("cannot parse date", "field", rule.field, "value", s, "expected", p.pattern, "error", err)
					continue
				}
				ms = t.UnixMilli()
			}
			ok++
			hints.set(r, i, rule.field, record.IntValue(ms))
		}
	}
	count(p.ok, ok)
	count(p.failed, failed)
	return nil
}

// JavaDateLayout translates a Java SimpleDateFormat pattern into a Go time
// layout. Letters Go cannot express (week numbers, day of year, era) are
// refused, so that a pattern never parses dates wrongly.
func JavaDateLayout(p string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(p); {
		c := p[i]
		if c == '\'' {
			j := strings.IndexByte(p[i+1:], '\'')
			if j < 0 {
				return "", fmt.Errorf("unclosed quote in %q", p)
			}
			if j == 0 {
				b.WriteByte('\'')
			} else {
				b.WriteString(p[i+1 : i+1+j])
			}
			i += j + 2
			continue
		}
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			b.WriteByte(c)
			i++
			continue
		}
		n := 1
		for i+n < len(p) && p[i+n] == c {
			n++
		}
		var l string
		switch c {
		case 'y', 'u':
			l = "2006"
			if n == 2 {
				l = "06"
			}
		case 'M', 'L':
			l = [...]string{"1", "01", "Jan", "January"}[min(n, 4)-1]
		case 'd':
			l = map[bool]string{true: "2", false: "02"}[n == 1]
		case 'H', 'k':
			l = "15"
		case 'h', 'K':
			l = map[bool]string{true: "3", false: "03"}[n == 1]
		case 'm':
			l = map[bool]string{true: "4", false: "04"}[n == 1]
		case 's':
			l = map[bool]string{true: "5", false: "05"}[n == 1]
		case 'S':
			l = strings.Repeat("0", n)
			// Go needs a separator before fractional seconds; Java
			// patterns always have one (ss.SSS, ss,SSS).
			if bs := b.String(); len(bs) == 0 || (bs[len(bs)-1] != '.' && bs[len(bs)-1] != ',') {
				return "", fmt.Errorf("pattern letter S in %q must follow . or ,", p)
			}
		case 'a':
			l = "PM"
		case 'E':
			l = map[bool]string{true: "Monday", false: "Mon"}[n >= 4]
		case 'z':
			l = "MST"
		case 'Z':
			l = "-0700"
		case 'X':
			l = [...]string{"Z07", "Z0700", "Z07:00"}[min(n, 3)-1]
		default:
			return "", fmt.Errorf("pattern letter %q of %q is not supported", string(c), p)
		}
		b.WriteString(l)
		i += n
	}
	return b.String(), nil
}
