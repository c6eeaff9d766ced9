package fields

import (
	"context"
	"fmt"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/record"
)

// NormalizeFieldsName is the component identifier.
const NormalizeFieldsName = "pkg.processor.NormalizeFields"

// NormalizeFieldsSpec declares NormalizeFields.
func NormalizeFieldsSpec() component.Spec {
	return component.Spec{
		Name: NormalizeFieldsName,
		Kind: component.KindProcessor,
		Summary: "Renames fields. Each dynamic key is the new name; its value is a comma-separated list of the old names " +
			"it replaces (e.g. src_ip: ip,client_ip). conflict.resolution.policy says what happens when the new name is already taken.",
		DynamicProperties: true,
		DynamicKeys:       "the new name of a field, its value the old names it replaces",
		DynamicExamples:   map[string]string{"client_ip": "src_ip"},
		Properties: []component.Property{
			{Key: "conflict.resolution.policy", Description: "When the new field already exists: do_nothing (both fields stay as they are), " +
				"overwrite_existing (the old field's value replaces it and the old field goes), keep_only_old_field (the existing new field stays and the old field goes), " +
				"keep_both_fields (the old field stays beside the existing new one).",
				Default: policyNothing, Validator: component.Enum(policyNothing, policyOverwrite, policyKeepOld, policyKeepBoth)},
		},
		Check: func(conf component.Config) error {
			return checkDynamic(conf, component.List(component.NonEmpty), nil)
		},
		NewProcessor: newNormalizeFields,
	}
}

type rename struct {
	to   string
	from []string
}

// NormalizeFields is the processor.
type NormalizeFields struct {
	renames []rename
	policy  string
}

func newNormalizeFields(conf component.Config, _ component.Env) (component.Processor, error) {
	p := &NormalizeFields{policy: conf.String("conflict.resolution.policy")}
	for _, k := range sortedKeys(conf.Dynamic()) {
		from := component.SplitList(conf.Dynamic()[k])
		if len(from) == 0 {
			return nil, fmt.Errorf("property %q: give the old field names", k)
		}
		p.renames = append(p.renames, rename{to: k, from: from})
	}
	return p, nil
}

// Process renames the fields of every record.
func (p *NormalizeFields) Process(_ context.Context, b *component.Batch) error {
	for _, r := range b.Records {
		for _, rn := range p.renames {
			for _, old := range rn.from {
				if old == rn.to {
					continue
				}
				v, ok := r.Get(old)
				if !ok {
					continue
				}
				p.apply(r, rn.to, old, v)
			}
		}
	}
	return nil
}

func (p *NormalizeFields) apply(r *record.Record, to, old string, v record.Value) {
	if !r.Has(to) {
		r.Set(to, v)
		r.Remove(old)
		return
	}
	switch p.policy {
	case policyOverwrite:
		r.Set(to, v)
		r.Remove(old)
	case policyKeepOld:
		r.Remove(old)
	}
	// do_nothing and keep_both_fields leave both fields.
}
