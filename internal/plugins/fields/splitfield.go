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
			"description: textArray:\\s*,\\s*. An empty source field is left alone.",
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
		rules = append(rules, splitRule{source: k, target: strings.TrimSpace(target), re: rx})
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
		for _, rule := range p.rules {
			s, ok := r.GetString(rule.source)
			if !ok || s == "" {
				continue
			}
			if t, ok := r.GetString(rule.target); ok && t != "" && !p.overwrite {
				continue
			}
			parts := rule.re.Split(s, p.limit)
			r.Set(rule.target, record.StringsValue(parts))
			if p.counter {
				r.Set(rule.target+p.suffix, record.IntValue(int64(len(parts))))
			}
		}
	}
	return nil
}
