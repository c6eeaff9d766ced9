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
	return component.ProcessorSpec(component.Spec{
		Name: RemoveFieldsName,
		Summary: "Removes the fields listed in fields.to.remove, or keeps only those listed in fields.to.keep (one of the two). " +
			"fields.to.keep never removes the technical fields record_id, record_type, record_time and record_errors.",
		Properties: []component.Property{
			{Key: "fields.to.remove", Description: "Comma-separated field names to remove (e.g. policyid,date_raw).", Example: "policyid,date_raw", Validator: component.List(component.NonEmpty)},
			{Key: "fields.to.keep", Description: "Comma-separated field names to keep; every other field is removed, except the technical ones.", Validator: component.List(component.NonEmpty)},
		},
	}, newRemoveFields)
}

// RemoveFieldsConfig is RemoveFields' configuration. The lists' validators
// refuse an empty list, so an empty one is an absent key.
type RemoveFieldsConfig struct {
	Remove []string `key:"fields.to.remove"`
	Keep   []string `key:"fields.to.keep"`
	keep   map[string]bool
}

// Validate asks for one list of the two, and makes the set of the fields
// to keep.
func (c *RemoveFieldsConfig) Validate() error {
	if (len(c.Remove) > 0) == (len(c.Keep) > 0) {
		return errors.New(`give exactly one of "fields.to.remove" and "fields.to.keep"`)
	}
	c.keep = setOf(c.Keep)
	return nil
}

// RemoveFields is the processor.
type RemoveFields struct {
	remove []string
	keep   map[string]bool
}

func newRemoveFields(c *RemoveFieldsConfig, _ component.Env) (component.Processor, error) {
	return &RemoveFields{remove: c.Remove, keep: c.keep}, nil
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
