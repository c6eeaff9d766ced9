package fields

import (
	"context"
	"strings"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/record"
)

// ParsePropertiesName is the component identifier.
const ParsePropertiesName = "pkg.processor.ParseProperties"

// The pairs are those of LogIsland's pattern (\S+)=([^=]+)(?:\s|$): a key
// without spaces, '=', and a value up to the next '=' that ends at a space
// or the end, trimmed. A value that holds a space therefore runs until the
// space before the next key. nextPropertyPair (propertypairs.go) finds
// them as Go's regexp does with that pattern (tested against it).

// ParsePropertiesSpec declares ParseProperties.
func ParsePropertiesSpec() component.Spec {
	return component.ProcessorSpec(component.Spec{
		Name: ParsePropertiesName,
		Summary: "Parses a field made of key=value pairs separated by spaces (\"a=1 b=2 c=3\" sets a, b and c to the strings 1, 2 and 3), " +
			"as LogIsland does. Values are strings: convert them with ConvertFieldsType. A record without the field is left alone.",
		Properties: []component.Property{
			{Key: "properties.field", Description: "Field holding the key=value pairs.", Required: true, Example: "properties", Validator: component.NonEmpty},
			{Key: "keep.properties.field", Description: "Keep the parsed field. (LogIsland removes a field named properties whatever properties.field says; Weir removes the parsed field unless this is true.)",
				Default: "false", Validator: component.Bool},
		},
	}, newParseProperties)
}

// ParsePropertiesConfig is ParseProperties' configuration.
type ParsePropertiesConfig struct {
	Field string `key:"properties.field"`
	Keep  bool   `key:"keep.properties.field"`
}

// ParseProperties is the processor.
type ParseProperties struct {
	field string
	keep  bool
}

func newParseProperties(c *ParsePropertiesConfig, _ component.Env) (component.Processor, error) {
	return &ParseProperties{field: c.Field, keep: c.Keep}, nil
}

// Process parses the field of every record. Each pair remembers where
// its key was set in the previous record (records of a stream share their
// field order), so setting it rarely scans the record's names.
func (p *ParseProperties) Process(_ context.Context, b *component.Batch) error {
	// Slot 0 is the parsed field's, slot 1+n the n-th pair's.
	var hints fieldHints
	hints.each(b.Records, p.field, func(r *record.Record, v record.Value) {
		s := textOf(v)
		for pos, n := 0, 0; ; n++ {
			kb, ke, ve, end, found := nextPropertyPair(s, pos)
			if !found {
				break
			}
			hints.set(r, 1+n, s[kb:ke], record.StringValue(strings.TrimSpace(s[ke+1:ve])))
			pos = end
		}
		if !p.keep {
			r.Remove(p.field)
		}
	})
	return nil
}
