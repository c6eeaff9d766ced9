package fields

import (
	"context"
	"errors"

	"github.com/weir-streams/weir/internal/component"
)

// RemoveFieldsName is the component identifier.
const RemoveFieldsName = "pkg.processor.RemoveFields"

// RemoveFieldsSpec declares RemoveFields.
func RemoveFieldsSpec() component.Spec {
	return component.Spec{
		Name: RemoveFieldsName,
		Kind: component.KindProcessor,
		Summary: "Removes the fields listed in fields.to.remove, or keeps only those listed in fields.to.keep (one of the two). " +
			"fields.to.keep never removes the technical fields record_id, record_type, record_time and record_errors.",
		Properties: []component.Property{
			{Key: "fields.to.remove", Description: "Comma-separated field names to remove (e.g. policyid,date_raw).", Example: "policyid,date_raw", Validator: component.List(component.NonEmpty)},
			{Key: "fields.to.keep", Description: "Comma-separated field names to keep; every other field is removed, except the technical ones.", Validator: component.List(component.NonEmpty)},
		},
		Check:        checkRemoveFields,
		NewProcessor: newRemoveFields,
	}
}

func checkRemoveFields(conf component.Config) error {
	if conf.IsSet("fields.to.remove") == conf.IsSet("fields.to.keep") {
		return errors.New(`give exactly one of "fields.to.remove" and "fields.to.keep"`)
	}
	return nil
}

// RemoveFields is the processor.
type RemoveFields struct {
	remove []string
	keep   map[string]bool
}

func newRemoveFields(conf component.Config, _ component.Env) (component.Processor, error) {
	if err := checkRemoveFields(conf); err != nil {
		return nil, err
	}
	p := &RemoveFields{remove: conf.List("fields.to.remove")}
	if conf.IsSet("fields.to.keep") {
		p.keep = map[string]bool{}
		for _, f := range conf.List("fields.to.keep") {
			p.keep[f] = true
		}
	}
	return p, nil
}

// Process removes fields from every record.
func (p *RemoveFields) Process(_ context.Context, b *component.Batch) error {
	var drop []string
	for _, r := range b.Records {
		if p.keep == nil {
			for _, f := range p.remove {
				r.Remove(f)
			}
			continue
		}
		drop = drop[:0]
		for _, f := range r.Fields() {
			if !p.keep[f.Name] && !isTechnical(f.Name) {
				drop = append(drop, f.Name)
			}
		}
		for _, f := range drop {
			r.Remove(f)
		}
	}
	return nil
}
