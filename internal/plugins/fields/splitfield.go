package fields

import (
	"context"
	"fmt"
	"hash/maphash"
	"regexp"
	"strings"
	"sync/atomic"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/fastre"
	"github.com/weir-streams/weir/internal/record"
)

// SplitFieldName is the component identifier.
const SplitFieldName = "pkg.processor.SplitField"

// SplitFieldSpec declares SplitField.
func SplitFieldSpec() component.Spec {
	return component.ProcessorSpec(component.Spec{
		Name: SplitFieldName,
		Summary: "Splits string fields into arrays. Each dynamic key names the field to split; its value is TARGET:REGEX, " +
			"the field that receives the array of parts and the separator (a regular expression, RE2 syntax), e.g. " +
			"description: textArray:\\s*,\\s*. An empty source field is left alone. The parts are always those of Go's regexp.Split; " +
			"a separator that is a plain text, ASCII character classes in the shape A*B C* ([/?], \\s+, \\s*,\\s*), or an alternation of literal texts " +
			"(/|%2[Ff], \\r\\n|\\n, (?i)and|or) is found by a byte scan, any other by Weir's own " +
			"matcher, and only one that looks behind its position (^, \\b) by regexp itself, which costs several times more per record.",
		DynamicProperties: true,
		DynamicKeys:       "a field to split, its value TARGET:REGEX",
		DynamicExamples:   map[string]string{"src_ip": `ip_parts:\.`},
		Properties: []component.Property{
			{Key: "split.limit", Description: "Maximum number of parts; the last part holds the rest of the text (Java's String.split with a positive limit).",
				Default: "10", Validator: component.IntRange(1, 1<<20)},
			{Key: "split.counter.enable", Description: "Also set TARGET+split.counter.suffix to the number of parts.", Default: "false", Validator: component.Bool},
			{Key: "split.counter.suffix", Description: "Suffix of the counter field.", Default: "Counter", Validator: component.NonEmpty},
			overwritePolicy("When TARGET already holds a non-empty value: overwrite_existing, or keep_only_old_field."),
		},
	}, newSplitField)
}

// SplitFieldConfig is SplitField's configuration.
type SplitFieldConfig struct {
	Limit         int    `key:"split.limit"`
	Counter       bool   `key:"split.counter.enable"`
	CounterSuffix string `key:"split.counter.suffix"`
	ConflictPolicy
	Splits map[string]string `key:",dynamic"`
	rules  []splitRule
}

// Validate compiles the separators and names the counter fields.
func (c *SplitFieldConfig) Validate() error {
	return parseDynamic(&c.rules, c.Splits, func(k, v string) (splitRule, error) {
		target, re, ok := strings.Cut(v, ":")
		if !ok || strings.TrimSpace(target) == "" || re == "" {
			return splitRule{}, fmt.Errorf("%q is not TARGET:REGEX", v)
		}
		rx, err := regexp.Compile(re)
		if err != nil {
			return splitRule{}, fmt.Errorf("invalid regular expression: %w", err)
		}
		rule := splitRule{source: k, target: strings.TrimSpace(target), re: rx}
		rule.counterName = rule.target + c.CounterSuffix
		// A one-byte literal (/, a comma) is a class of one byte to the
		// pattern splitter, whose byte scan beats strings.Index's call per
		// part on short parts.
		if lit, complete := rx.LiteralPrefix(); complete && len(lit) > 1 {
			rule.sep = lit
		} else {
			rule.pattern = newPatternSplitter(rx)
		}
		return rule, nil
	})
}

type splitRule struct {
	source, target string
	re             *regexp.Regexp
	// sep is the separator when the regular expression is a plain
	// literal of more than one byte (::, " - "): the text is then
	// cut with strings.Index, without the regexp engine.
	sep string
	// pattern splits around a real regular expression
	// (splitpattern.go); nil for a literal.
	pattern *patternSplitter
	// counterName is target+split.counter.suffix, made once.
	counterName string
}

// SplitField is the processor.
type SplitField struct {
	rules     []splitRule
	limit     int
	counter   bool
	overwrite bool
	// perRecord is the number of parts per record of the previous batch,
	// rounded up, to size the next batch's partsArena. Atomic: a
	// processor is shared by the partitions of a stream.
	perRecord atomic.Int32
	seed      maphash.Seed // of the batch's splitMemo
}

// splitMemo remembers the texts a batch has split and their parts, so that
// a text seen earlier in the batch takes the same array of parts: values
// are immutable, and the records of a batch live and die together. Log
// fields repeat: on the real access log 60 % of the paths of a batch of
// 500 came earlier in the same batch. It is direct-mapped (a text has one
// slot, a new text takes it over), lives on the stack of one Process call
// and keeps nothing between batches.
type splitMemo [256]struct {
	rule  int // rule index + 1; 0: empty
	text  string
	parts []record.Value
}

func newSplitField(c *SplitFieldConfig, _ component.Env) (component.Processor, error) {
	p := &SplitField{rules: c.rules, limit: c.Limit, counter: c.Counter,
		overwrite: c.overwrite(), seed: maphash.MakeSeed()}
	p.perRecord.Store(4)
	return p, nil
}

// Process splits the fields of every record. The arrays of parts of the
// whole batch come from one partsArena, a text split earlier in the batch
// takes the same parts (splitMemo), and each rule remembers where its
// fields were in the previous record (record.GetHint): records of a
// stream share their field order. The separators searched with fastre
// share one fastre.Scratch.
func (p *SplitField) Process(_ context.Context, b *component.Batch) error {
	// The source, target and counter positions of each rule: slots 3i,
	// 3i+1 and 3i+2.
	var hints fieldHints
	a := partsArena{perRecord: int(p.perRecord.Load())}
	var memo splitMemo
	// One backtracking space for every fastre search of the batch (a
	// Process call's own: never shared between goroutines).
	var sc fastre.Scratch
	for ri, r := range b.Records {
		a.left = len(b.Records) - ri
		for i := range p.rules {
			rule := &p.rules[i]
			v, ok := hints.get(r, 3*i, rule.source)
			if !ok {
				continue
			}
			s := textOf(v)
			if s == "" {
				continue
			}
			if !p.overwrite {
				if old, ok := hints.get(r, 3*i+1, rule.target); !isEmptyValue(old, ok) {
					continue
				}
			}
			slot := &memo[(maphash.String(p.seed, s)+uint64(i))%uint64(len(memo))]
			parts := slot.parts
			if slot.rule != i+1 || slot.text != s {
				if rule.sep != "" {
					parts = splitLiteral(s, rule.sep, p.limit, &a)
				} else {
					parts = rule.pattern.split(s, p.limit, &a, &sc)
				}
				slot.rule, slot.text, slot.parts = i+1, s, parts
			}
			hints.set(r, 3*i+1, rule.target, record.ArrayValue(parts))
			if p.counter {
				hints.set(r, 3*i+2, rule.counterName, record.IntValue(int64(len(parts))))
			}
		}
	}
	if n := len(b.Records); n > 0 {
		p.perRecord.Store(int32((len(a.block) + n - 1) / n))
	}
	return nil
}

// isEmptyValue reports whether a field, v and ok as Record.Get returns
// them, is absent or holds an empty value: null, or a value whose text is
// empty.
func isEmptyValue(v record.Value, ok bool) bool {
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
// holding the rest, as regexp.Split(s, limit) does for a literal: the
// parts share s's bytes and their array comes from a.
func splitLiteral(s, sep string, limit int, a *partsArena) []record.Value {
	for n := 1; n < limit; n++ {
		j := strings.Index(s, sep)
		if j < 0 {
			break
		}
		a.add(record.StringValue(s[:j]))
		s = s[j+len(sep):]
	}
	a.add(record.StringValue(s))
	return a.done()
}
