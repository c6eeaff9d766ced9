package fields

import (
	"context"
	"fmt"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/record"
)

// SetJsonAsFieldsName is the component identifier.
const SetJsonAsFieldsName = "pkg.processor.SetJsonAsFields"

// ErrJSON is the error type of a record whose JSON field does not parse.
const ErrJSON = "json_parsing_error"

// SetJsonAsFieldsSpec declares SetJsonAsFields.
func SetJsonAsFieldsSpec() component.Spec {
	return component.ProcessorSpec(component.Spec{
		Name: SetJsonAsFieldsName,
		Summary: "Reads a string field holding a JSON object and sets each of its attributes as a field: strings, numbers " +
			"(integers stay integers), booleans, arrays and nested objects (as maps). A value that is not a JSON object makes the " +
			"record an error record (json_parsing_error) that keeps the field.",
		Properties: []component.Property{
			{Key: "json.field", Description: "Field holding the JSON document.", Default: record.FieldValue, Validator: component.NonEmpty},
			{Key: "keep.json.field", Description: "Keep the JSON field once parsed.", Default: "false", Validator: component.Bool},
			{Key: "overwrite.existing.field", Description: "An attribute replaces a field of the same name; when false the field is left as it was.", Default: "true", Validator: component.Bool},
			{Key: "omit.null.attributes", Description: "Skip attributes whose value is null (otherwise they become null fields).", Default: "false", Validator: component.Bool},
			{Key: "omit.empty.string.attributes", Description: "Skip attributes whose value is the empty string.", Default: "false", Validator: component.Bool},
			{Key: "debug", Description: "Accepted for LogIsland jobs and ignored: use DebugStream to see records.", Default: "false", Validator: component.Bool},
		},
	}, newSetJsonAsFields)
}

// SetJsonAsFieldsConfig is SetJsonAsFields' configuration.
type SetJsonAsFieldsConfig struct {
	Field     string   `key:"json.field"`
	Keep      bool     `key:"keep.json.field"`
	Overwrite bool     `key:"overwrite.existing.field"`
	OmitNull  bool     `key:"omit.null.attributes"`
	OmitEmpty bool     `key:"omit.empty.string.attributes"`
	_         struct{} `key:"debug,ignored"`
}

// SetJsonAsFields is the processor.
type SetJsonAsFields struct {
	field                            string
	keep, overwrite, omitNull, omitE bool
}

func newSetJsonAsFields(c *SetJsonAsFieldsConfig, _ component.Env) (component.Processor, error) {
	return &SetJsonAsFields{field: c.Field, keep: c.Keep, overwrite: c.Overwrite, omitNull: c.OmitNull, omitE: c.OmitEmpty}, nil
}

// Process sets the JSON attributes of every record as fields. A flat
// object of scalars in a string field (the common payload) is decoded by
// decodeFlatObject, into one buffer of fields reused record after record;
// anything else by record.DecodeFieldsJSON. Each attribute remembers where
// it was set in the previous record (records of a stream share their
// field order), so setting it rarely scans the record's names.
func (p *SetJsonAsFields) Process(_ context.Context, b *component.Batch) error {
	var flat []record.Field
	// Slot 0 is the source field's, slot 1+j the j-th attribute's.
	var hints fieldHints
	hints.each(b.Records, p.field, func(r *record.Record, v record.Value) {
		var fs []record.Field
		s, isString := v.AsString()
		if isString {
			var ok bool
			if flat, ok = decodeFlatObject(s, flat[:0]); ok {
				fs = flat
			}
		}
		if fs == nil {
			var data []byte
			if bs, ok := v.AsBytes(); ok {
				data = bs
			} else if isString {
				data = []byte(s)
			} else {
				r.AddError(ErrJSON, fmt.Sprintf("field %s is %s, not a JSON string", p.field, v.Kind()))
				return
			}
			var err error
			if fs, err = record.DecodeFieldsJSON(data); err != nil {
				r.AddError(ErrJSON, fmt.Sprintf("field %s: %v", p.field, err))
				return
			}
		}
		if !p.keep {
			hints.remove(r, 0, p.field)
		}
		for j, f := range fs {
			if p.omitNull && f.Value.IsNull() {
				continue
			}
			if s, ok := f.Value.AsString(); ok && s == "" && p.omitE {
				continue
			}
			if !p.overwrite && r.Has(f.Name) {
				continue
			}
			hints.set(r, 1+j, f.Name, f.Value)
		}
	})
	return nil
}
