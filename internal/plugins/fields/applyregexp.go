package fields

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/record"
)

// ApplyRegexpName is the component identifier.
const ApplyRegexpName = "pkg.processor.ApplyRegexp"

// ApplyRegexpSpec declares ApplyRegexp, LogIsland's processor that fills
// fields from the capture groups of a regular expression applied to another
// field.
func ApplyRegexpSpec() component.Spec {
	return component.ProcessorSpec(component.Spec{
		Name: ApplyRegexpName,
		Summary: "Fills fields from the capture groups of a regular expression. Each dynamic key names a source field; its value is " +
			"FIELD1,FIELD2,...:REGEX (RE2 syntax), e.g. referer: referer_hostname:https?://([^/]+). The expression must match at the " +
			"start of the source's text (Java's lookingAt; it need not reach the end); group N fills the Nth field, as a string with " +
			"double quotes removed. A group that did not take part in the match leaves its field alone, and so does a source field that " +
			"is absent or empty or does not match: the record goes on unchanged.",
		DynamicProperties: true,
		DynamicExamples:   map[string]string{"record_value": "first_word,second_word:(\\S+)\\s+(\\S+)"},
		Properties: []component.Property{
			overwritePolicy("When a field to fill already holds a non-empty value: overwrite_existing, or keep_only_old_field (the value is kept)."),
		},
	}, newApplyRegexp)
}

// ApplyRegexpConfig is ApplyRegexp's configuration.
type ApplyRegexpConfig struct {
	ConflictPolicy
	Rules map[string]string `key:",dynamic"`
	rules []regexpRule
}

// Validate compiles the rules. LogIsland logs and skips a value without a
// colon; Weir refuses it, since a rule that never runs is a mistake in the
// job file.
func (c *ApplyRegexpConfig) Validate() error {
	return parseDynamic(&c.rules, c.Rules, func(k, v string) (regexpRule, error) {
		fieldList, re, ok := strings.Cut(v, ":")
		if !ok || strings.TrimSpace(fieldList) == "" {
			return regexpRule{}, fmt.Errorf("%q is not FIELD1,FIELD2,...:REGEX", v)
		}
		rx, err := regexp.Compile(`^(?:` + re + `)`)
		if err != nil {
			if _, plain := regexp.Compile(re); plain != nil {
				err = plain // the error of the expression as written
			}
			return regexpRule{}, fmt.Errorf("invalid regular expression: %w", err)
		}
		// Field names are taken as written, spaces included, as
		// LogIsland's String.split(",") does.
		return regexpRule{source: k, targets: strings.Split(fieldList, ","), re: rx}, nil
	})
}

type regexpRule struct {
	source  string
	targets []string
	re      *regexp.Regexp // anchored at the start: Java's Matcher.lookingAt
}

// ApplyRegexp is the processor.
type ApplyRegexp struct {
	rules     []regexpRule
	overwrite bool
}

func newApplyRegexp(c *ApplyRegexpConfig, _ component.Env) (component.Processor, error) {
	return &ApplyRegexp{rules: c.rules, overwrite: c.overwrite()}, nil
}

// Process applies every rule to every record.
func (p *ApplyRegexp) Process(_ context.Context, b *component.Batch) error {
	for _, r := range b.Records {
		for i := range p.rules {
			p.apply(r, &p.rules[i])
		}
	}
	return nil
}

func (p *ApplyRegexp) apply(r *record.Record, rule *regexpRule) {
	v, ok := r.Get(rule.source)
	if !ok || v.IsNull() {
		return
	}
	s := v.Text()
	if s == "" {
		return
	}
	m := rule.re.FindStringSubmatchIndex(s)
	if m == nil {
		return
	}
	groups := len(m)/2 - 1
	for i, name := range rule.targets {
		if i >= groups {
			break
		}
		start, end := m[2*(i+1)], m[2*(i+1)+1]
		if start < 0 {
			continue // the group did not take part in the match
		}
		if !p.overwrite {
			old, ok := r.Get(name)
			if !isEmptyValue(old, ok) {
				continue
			}
		}
		r.SetString(name, strings.ReplaceAll(s[start:end], `"`, ""))
	}
}
