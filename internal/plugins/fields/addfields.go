package fields

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/expr"
	"github.com/weir-streams/weir/internal/record"
)

// AddFieldsName is the component identifier.
const AddFieldsName = "pkg.processor.AddFields"

// The suffixes of AddFields' dynamic keys that describe another key
// instead of naming a field (LogIsland's).
const (
	suffixType = ".field.type"
	suffixName = ".field.name"
)

// AddFieldsSpec declares AddFields.
func AddFieldsSpec() component.Spec {
	return component.ProcessorSpec(component.Spec{
		Name: AddFieldsName,
		Summary: "Adds fields. Each dynamic key names a field; its value is a constant or ${expression} (docs/expressions.md). " +
			"KEY.field.type gives the type of the value (STRING by default; INT, LONG, FLOAT, DOUBLE, BOOLEAN); " +
			"KEY.field.name gives the field's name instead of KEY, itself a constant or ${expression}. " +
			"A value that does not convert to its type, or an expression that fails, makes the record an error record (expression_error).",
		DynamicProperties: true,
		DynamicKeys:       "a field to add (or KEY.field.type, KEY.field.name), its value a constant or ${expression}",
		DynamicExamples:   map[string]string{"site": "www", "ua_length": "${len(http_user_agent)}"},
		Properties: []component.Property{
			overwritePolicy("What to do when the field already exists: overwrite_existing, or keep_only_old_field (the field is left as it was)."),
		},
	}, newAddFields)
}

// AddFieldsConfig is AddFields' configuration.
type AddFieldsConfig struct {
	ConflictPolicy
	Fields map[string]string `key:",dynamic"`
	rules  []addRule
}

type addRule struct {
	key   string
	name  expr.Template
	value expr.Template
	to    convertType
	typed bool
}

// Validate parses the values, names and types of the fields to add.
func (c *AddFieldsConfig) Validate() error {
	dyn := c.Fields
	c.rules = nil
	var errs []string
	for _, k := range slices.Sorted(maps.Keys(dyn)) {
		if strings.HasSuffix(k, suffixType) || strings.HasSuffix(k, suffixName) {
			base := strings.TrimSuffix(strings.TrimSuffix(k, suffixType), suffixName)
			if _, ok := dyn[base]; !ok {
				errs = append(errs, fmt.Sprintf("property %q describes field %q, which no key adds", k, base))
			}
			continue
		}
		r := addRule{key: k, name: expr.Template{Const: k}}
		var err error
		if r.value, err = expr.ParseTemplate(dyn[k]); err != nil {
			errs = append(errs, fmt.Sprintf("property %q: %v", k, err))
		}
		if n, ok := dyn[k+suffixName]; ok {
			if r.name, err = expr.ParseTemplate(n); err != nil {
				errs = append(errs, fmt.Sprintf("property %q: %v", k+suffixName, err))
			}
		}
		if t, ok := dyn[k+suffixType]; ok {
			if r.to, err = parseConvertType(t); err != nil {
				errs = append(errs, fmt.Sprintf("property %q: %v", k+suffixType, err))
			}
			r.typed = r.to != toString
		}
		c.rules = append(c.rules, r)
	}
	if len(errs) > 0 {
		return fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return nil
}

// AddFields is the processor.
type AddFields struct {
	rules     []addRule
	overwrite bool
}

func newAddFields(c *AddFieldsConfig, _ component.Env) (component.Processor, error) {
	return &AddFields{rules: c.rules, overwrite: c.overwrite()}, nil
}

// Process adds the fields to every record.
func (p *AddFields) Process(_ context.Context, b *component.Batch) error {
	for _, r := range b.Records {
		p.add(r)
	}
	return nil
}

func (p *AddFields) add(r *record.Record) {
	for i := range p.rules {
		rule := &p.rules[i]
		name := rule.key
		if rule.name.Prog != nil || rule.name.Const != rule.key {
			v, err := rule.name.Eval(r)
			if err != nil {
				r.AddError(ErrExpression, fmt.Sprintf("%s%s: %v", rule.key, suffixName, err))
				return
			}
			name = v.Text()
		}
		if !p.overwrite && r.Has(name) {
			continue
		}
		v, err := rule.value.Eval(r)
		if err != nil {
			r.AddError(ErrExpression, fmt.Sprintf("%s: %v", rule.key, err))
			return
		}
		if rule.typed {
			out, ok := convert(v, rule.to)
			if !ok {
				r.AddError(ErrExpression, fmt.Sprintf("%s: cannot convert %s %s to %s", rule.key, v.Kind(), v, convertTypes[typeIndex(rule.to)]))
				return
			}
			v = out
		}
		r.Set(name, v)
	}
}
