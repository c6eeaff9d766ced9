package fields

import (
	"context"
	"regexp"
	"strings"

	"github.com/weir-streams/weir/internal/component"
)

// ParsePropertiesName is the component identifier.
const ParsePropertiesName = "pkg.processor.ParseProperties"

// propertyPair is LogIsland's pattern: a key without spaces, '=', and a
// value up to the next '=' that ends at a space or the end, trimmed. (RE2
// runs it as LogIsland's Java regex does: it has no backreference or
// look-around.) A value that holds a space therefore runs until the space
// before the next key.
var propertyPair = regexp.MustCompile(`(\S+)=([^=]+)(?:\s|$)`)

// ParsePropertiesSpec declares ParseProperties.
func ParsePropertiesSpec() component.Spec {
	return component.Spec{
		Name: ParsePropertiesName,
		Kind: component.KindProcessor,
		Summary: "Parses a field made of key=value pairs separated by spaces (\"a=1 b=2 c=3\" sets a, b and c to the strings 1, 2 and 3), " +
			"as LogIsland does. Values are strings: convert them with ConvertFieldsType. A record without the field is left alone.",
		Properties: []component.Property{
			{Key: "properties.field", Description: "Field holding the key=value pairs.", Required: true, Example: "properties", Validator: component.NonEmpty},
			{Key: "keep.properties.field", Description: "Keep the parsed field. (LogIsland removes a field named properties whatever properties.field says; Weir removes the parsed field unless this is true.)",
				Default: "false", Validator: component.Bool},
		},
		NewProcessor: newParseProperties,
	}
}

// ParseProperties is the processor.
type ParseProperties struct {
	field string
	keep  bool
}

func newParseProperties(conf component.Config, _ component.Env) (component.Processor, error) {
	keep, err := conf.Bool("keep.properties.field")
	if err != nil {
		return nil, err
	}
	return &ParseProperties{field: conf.String("properties.field"), keep: keep}, nil
}

// Process parses the field of every record.
func (p *ParseProperties) Process(_ context.Context, b *component.Batch) error {
	var idx [][]int
	for _, r := range b.Records {
		s, ok := r.GetString(p.field)
		if !ok {
			continue
		}
		idx = propertyPair.FindAllStringSubmatchIndex(s, -1)
		for _, m := range idx {
			r.SetString(s[m[2]:m[3]], strings.TrimSpace(s[m[4]:m[5]]))
		}
		if !p.keep {
			r.Remove(p.field)
		}
	}
	return nil
}
