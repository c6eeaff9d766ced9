package fields

import (
	"context"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/record"
)

// NormalizeFieldsName is the component identifier.
const NormalizeFieldsName = "pkg.processor.NormalizeFields"

// NormalizeFieldsSpec declares NormalizeFields.
func NormalizeFieldsSpec() component.Spec {
	return component.ProcessorSpec(component.Spec{
		Name: NormalizeFieldsName,
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
	}, newNormalizeFields)
}

// NormalizeFieldsConfig is NormalizeFields' configuration.
type NormalizeFieldsConfig struct {
	ConflictPolicy
	Renames map[string]string `key:",dynamic"`
	renames []rename
}

// oldNames is the form of a rename's value: the old names, at least one.
var oldNames = component.List(component.NonEmpty)

// Validate reads the old names of each new one.
func (c *NormalizeFieldsConfig) Validate() error {
	return parseDynamic(&c.renames, c.Renames, func(k, v string) (rename, error) {
		return rename{to: k, from: component.SplitList(v)}, oldNames.Validate(v)
	})
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

func newNormalizeFields(c *NormalizeFieldsConfig, _ component.Env) (component.Processor, error) {
	return &NormalizeFields{renames: c.renames, policy: c.Policy}, nil
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
