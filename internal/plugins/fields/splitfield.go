package fields

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/record"
)

// SplitFieldName is the component identifier.
const SplitFieldName = "pkg.processor.SplitField"

// SplitFieldSpec declares SplitField.
func SplitFieldSpec() component.Spec {
	return component.Spec{
		Name: SplitFieldName,
		Kind: component.KindProcessor,
		Summary: "Splits string fields into arrays. Each dynamic key names the field to split; its value is TARGET:REGEX, " +
			"the field that receives the array of parts and the separator (a regular expression, RE2 syntax), e.g. " +
			"description: textArray:\\s*,\\s*. An empty source field is left alone. The parts are always those of Go's regexp.Split; " +
			"a separator that is a plain text or one ASCII character class ([/?], \\s+) is found by a byte scan, any other by Weir's own " +
			"matcher, and only one that looks behind its position (^, \\b) by regexp itself, which costs several times more per record.",
		DynamicProperties: true,
		Properties: []component.Property{
			{Key: "split.limit", Description: "Maximum number of parts; the last part holds the rest of the text (Java's String.split with a positive limit).",
				Default: "10", Validator: component.IntRange(1, 1<<20)},
			{Key: "split.counter.enable", Description: "Also set TARGET+split.counter.suffix to the number of parts.", Default: "false", Validator: component.Bool},
			{Key: "split.counter.suffix", Description: "Suffix of the counter field.", Default: "Counter", Validator: component.NonEmpty},
			{Key: "conflict.resolution.policy", Description: "When TARGET already holds a non-empty value: overwrite_existing, or keep_only_old_field.",
				Default: policyKeepOld, Validator: component.Enum(policyOverwrite, policyKeepOld)},
		},
		Check: func(conf component.Config) error {
			_, err := splitRules(conf)
			return err
		},
		NewProcessor: newSplitField,
	}
}

type splitRule struct {
	source, target string
	re             *regexp.Regexp
	// sep is the separator when the regular expression is a plain
	// literal (/, a comma, \.): the text is then cut with strings.Index,
	// without the regexp engine and the slices it allocates per match.
	sep string
	// pattern splits around a real regular expression
	// (splitpattern.go); nil for a literal.
	pattern *patternSplitter
}

func splitRules(conf component.Config) ([]splitRule, error) {
	var rules []splitRule
	for _, k := range sortedKeys(conf.Dynamic()) {
		v := conf.Dynamic()[k]
		target, re, ok := strings.Cut(v, ":")
		if !ok || strings.TrimSpace(target) == "" || re == "" {
			return nil, fmt.Errorf("property %q: %q is not TARGET:REGEX", k, v)
		}
		rx, err := regexp.Compile(re)
		if err != nil {
			return nil, fmt.Errorf("property %q: invalid regular expression: %w", k, err)
		}
		rule := splitRule{source: k, target: strings.TrimSpace(target), re: rx}
		if lit, complete := rx.LiteralPrefix(); complete && lit != "" {
			rule.sep = lit
		} else {
			rule.pattern = newPatternSplitter(rx)
		}
		rules = append(rules, rule)
	}
	return rules, nil
}

// SplitField is the processor.
type SplitField struct {
	rules     []splitRule
	limit     int
	counter   bool
	suffix    string
	overwrite bool
}

func newSplitField(conf component.Config, _ component.Env) (component.Processor, error) {
	rules, err := splitRules(conf)
	if err != nil {
		return nil, err
	}
	limit, err := conf.Int("split.limit")
	if err != nil {
		return nil, err
	}
	counter, err := conf.Bool("split.counter.enable")
	if err != nil {
		return nil, err
	}
	return &SplitField{rules: rules, limit: int(limit), counter: counter, suffix: conf.String("split.counter.suffix"),
		overwrite: conf.String("conflict.resolution.policy") == policyOverwrite}, nil
}

// Process splits the fields of every record.
func (p *SplitField) Process(_ context.Context, b *component.Batch) error {
	for _, r := range b.Records {
		for i := range p.rules {
			rule := &p.rules[i]
			s, ok := r.GetString(rule.source)
			if !ok || s == "" {
				continue
			}
			if !p.overwrite && !isEmpty(r, rule.target) {
				continue
			}
			var parts []record.Value
			if rule.sep != "" {
				parts = splitLiteral(s, rule.sep, p.limit)
			} else {
				parts = rule.pattern.split(s, p.limit)
			}
			r.Set(rule.target, record.ArrayValue(parts))
			if p.counter {
				r.Set(rule.target+p.suffix, record.IntValue(int64(len(parts))))
			}
		}
	}
	return nil
}

// isEmpty reports whether a record lacks a field or holds an empty value
// there: null, or a value whose text is empty.
func isEmpty(r *record.Record, name string) bool {
	v, ok := r.Get(name)
	if !ok || v.IsNull() {
		return true
	}
	switch v.Kind() {
	case record.String:
		s, _ := v.AsString()
		return s == ""
	case record.Bytes:
		b, _ := v.AsBytes()
		return len(b) == 0
	}
	return false // numbers, booleans, arrays and maps render as non-empty text
}

// splitLiteral splits s around sep into at most limit parts, the last
// holding the rest, as regexp.Split(s, limit) does for a literal: one
// allocation, the parts sharing s's bytes.
func splitLiteral(s, sep string, limit int) []record.Value {
	n := min(strings.Count(s, sep)+1, limit)
	parts := make([]record.Value, n)
	for i := 0; i < n-1; i++ {
		j := strings.Index(s, sep)
		parts[i] = record.StringValue(s[:j])
		s = s[j+len(sep):]
	}
	parts[n-1] = record.StringValue(s)
	return parts
}
