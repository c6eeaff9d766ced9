package fields

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/expr"
	"github.com/weir-streams/weir/internal/record"
)

// FilterRecordsName is the component identifier.
const FilterRecordsName = "pkg.processor.FilterRecords"

// FilterRecordsSpec declares FilterRecords.
func FilterRecordsSpec() component.Spec {
	return component.ProcessorSpec(component.Spec{
		Name: FilterRecordsName,
		Summary: "Keeps the records that meet its criteria and drops the others. The criteria are field.name = field.value " +
			"(the field's text equals the value) and every dynamic key, whose value is a condition (docs/expressions.md, with or without ${...}); " +
			"logic combines them (OR: one suffices, AND: all must hold). A dropped record is counted in " +
			"filter_records_total{outcome=\"dropped\"}; its offset still commits (a dropped record is handled, not lost).",
		DynamicProperties: true,
		DynamicKeys:       "a condition (its name only labels it), its value an expression",
		DynamicExamples:   map[string]string{"not_health": `http_query != "/health"`},
		Properties: []component.Property{
			{Key: "field.name", Description: "Field to compare with field.value.", Default: record.FieldType},
			{Key: "field.value", Description: "Value of field.name that keeps a record (compared as text). Without it, field.name is not a criterion.", Example: "apache_log"},
			{Key: "logic", Description: "How criteria combine: OR (any) or AND (all).", Default: "OR", Validator: component.Enum("OR", "AND")},
			{Key: "keep.errors", Description: "Keep a record whose condition failed to evaluate (an operator on values of the wrong types). " +
				"Kept, it carries the error (expression_error) and goes to the error topics; otherwise it is dropped and counted as failed.",
				Default: "true", Validator: component.Bool},
		},
	}, newFilterRecords)
}

// FilterRecordsConfig is FilterRecords' configuration.
type FilterRecordsConfig struct {
	Field string `key:"field.name"`
	Value string `key:"field.value"`
	// UseValue: field.value was given, so field.name is a criterion (an
	// empty value included).
	UseValue   bool              `key:"field.value,set"`
	Logic      string            `key:"logic"`
	KeepErrors bool              `key:"keep.errors"`
	Conditions map[string]string `key:",dynamic"`
	conds      []condition
}

// Validate compiles the conditions and asks for at least one criterion.
func (c *FilterRecordsConfig) Validate() error {
	err := parseDynamic(&c.conds, c.Conditions, func(k, v string) (condition, error) {
		prog, err := compileExpression(v)
		return condition{key: k, prog: prog}, err
	})
	if !c.UseValue && len(c.Conditions) == 0 {
		err = errors.Join(err, errors.New(`give "field.value" or at least one condition as a dynamic key`))
	}
	return err
}

type condition struct {
	key  string
	prog *expr.Program
}

// FilterRecords is the processor.
type FilterRecords struct {
	field, value string
	useField     bool
	and          bool
	keepErrors   bool
	conds        []condition
	log          *slog.Logger

	kept, dropped, failed prometheus.Counter
}

func newFilterRecords(c *FilterRecordsConfig, env component.Env) (component.Processor, error) {
	p := &FilterRecords{
		field:      c.Field,
		value:      c.Value,
		useField:   c.UseValue,
		and:        strings.EqualFold(c.Logic, "AND"),
		keepErrors: c.KeepErrors,
		conds:      c.conds,
		log:        env.Logger,
	}
	if p.log == nil {
		p.log = slog.New(slog.DiscardHandler)
	}
	const name, help = "filter_records_total", "Records FilterRecords saw, by outcome: kept, dropped, failed (a condition failed to evaluate)."
	p.kept = counter(env, name, help, "kept")
	p.dropped = counter(env, name, help, "dropped")
	p.failed = counter(env, name, help, "failed")
	return p, nil
}

// Process keeps the records that meet the criteria, in order.
func (p *FilterRecords) Process(_ context.Context, b *component.Batch) error {
	out := b.Records[:0]
	var kept, dropped, failed int
	for _, r := range b.Records {
		keep, err := p.keep(r)
		if err != nil {
			failed++
			if p.keepErrors {
				r.AddError(ErrExpression, err.Error())
				out = append(out, r)
			}
			continue
		}
		if keep {
			kept++
			out = append(out, r)
		} else {
			dropped++
		}
	}
	// Clear the tail so that dropped records are not kept alive by the
	// batch's backing array.
	clear(b.Records[len(out):])
	b.Records = out
	count(p.kept, kept)
	count(p.dropped, dropped)
	count(p.failed, failed)
	return nil
}

// keep evaluates the criteria on r, short-circuit.
func (p *FilterRecords) keep(r *record.Record) (bool, error) {
	if p.useField {
		s, ok := r.GetString(p.field)
		match := ok && s == p.value
		if match && !p.and {
			return true, nil
		}
		if !match && p.and {
			return false, nil
		}
	}
	for _, c := range p.conds {
		ok, err := c.prog.EvalBool(r)
		if err != nil {
			return false, fmt.Errorf("condition %s: %w", c.key, err)
		}
		if ok && !p.and {
			return true, nil
		}
		if !ok && p.and {
			return false, nil
		}
	}
	return p.and, nil
}
