package fields

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"regexp"

	"github.com/theory/jsonpath"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/record"
)

// EvaluateJsonPathName is the component identifier.
const EvaluateJsonPathName = "pkg.processor.EvaluateJsonPath"

// Error types of EvaluateJsonPath (LogIsland's first).
const (
	ErrInvalidJSONField = "invalid_json_field"
	ErrJSONPath         = "json_path_error"
)

// EvaluateJsonPathSpec declares EvaluateJsonPath.
func EvaluateJsonPathSpec() component.Spec {
	return component.ProcessorSpec(component.Spec{
		Name: EvaluateJsonPathName,
		Summary: "Evaluates JSONPath expressions (RFC 9535, e.g. $.user.name or $.items[0].id) against a field holding JSON and sets each " +
			"result as a field: each dynamic key names the field to set, its value is the path. With return.type scalar a result must be " +
			"a string, number, boolean or null (an object or array makes the record an error record, json_path_error); with json it is " +
			"set as its JSON text. A path that selects several nodes gives an array (scalar) or a JSON array (json). A field that is not " +
			"JSON makes the record an error record (invalid_json_field).",
		DynamicProperties: true,
		DynamicKeys:       "a field to set, its value a JSONPath",
		DynamicExamples:   map[string]string{"req_path": "$.path"},
		Properties: []component.Property{
			{Key: "return.type", Description: "scalar or json.", Default: "scalar", Validator: component.Enum("scalar", "json")},
			{Key: "path.not.found.behavior", Description: "When a path selects nothing: ignore (no field is set) or warn (also logged at warn level).",
				Default: "ignore", Validator: component.Enum("ignore", "warn")},
			{Key: "json.input.field.name", Description: "Field holding the JSON document.", Default: record.FieldValue, Validator: component.NonEmpty},
		},
	}, newEvaluateJsonPath)
}

// EvaluateJsonPathConfig is EvaluateJsonPath's configuration.
type EvaluateJsonPathConfig struct {
	ReturnType string            `key:"return.type"`
	NotFound   string            `key:"path.not.found.behavior"`
	Input      string            `key:"json.input.field.name"`
	Paths      map[string]string `key:",dynamic"`
	rules      []pathRule
	// allMembers: every path is $.NAME (see EvaluateJsonPath.allMembers).
	allMembers bool
}

// Validate parses the paths.
func (c *EvaluateJsonPathConfig) Validate() error {
	err := parseDynamic(&c.rules, c.Paths, func(k, v string) (pathRule, error) {
		path, err := jsonpath.Parse(v)
		rule := pathRule{field: k, path: path}
		if m := memberPath.FindStringSubmatch(v); m != nil {
			rule.member = m[1] + m[2] + m[3]
		}
		return rule, err
	})
	c.allMembers = true
	for _, rule := range c.rules {
		c.allMembers = c.allMembers && rule.member != ""
	}
	return err
}

type pathRule struct {
	field string
	path  *jsonpath.Path
	// member is NAME when the path is $.NAME (an ASCII name), else "".
	member string
}

// memberPath matches a path that selects one member of the top object by
// a plain name, $.NAME or $['NAME'] with NAME in ASCII letters, digits and
// underscores.
var memberPath = regexp.MustCompile(`^\$(?:\.([A-Za-z_][A-Za-z0-9_]*)|\['([A-Za-z0-9_]+)'\]|\["([A-Za-z0-9_]+)"\])$`)

// EvaluateJsonPath is the processor.
type EvaluateJsonPath struct {
	rules  []pathRule
	asJSON bool
	warn   bool
	input  string
	log    *slog.Logger
	// allMembers: every path is $.NAME (pathRule.member), so a flat
	// document (decodeFlatObject) is answered without encoding/json and
	// the JSONPath engine.
	allMembers bool
}

func newEvaluateJsonPath(c *EvaluateJsonPathConfig, env component.Env) (component.Processor, error) {
	p := &EvaluateJsonPath{rules: c.rules, asJSON: c.ReturnType == "json", warn: c.NotFound == "warn",
		input: c.Input, log: env.Logger, allMembers: c.allMembers}
	if p.log == nil {
		p.log = slog.New(slog.DiscardHandler)
	}
	return p, nil
}

// Process evaluates the paths on every record.
func (p *EvaluateJsonPath) Process(_ context.Context, b *component.Batch) error {
	var flat []record.Field
	// Slot 0 is the input field's, slot 1+i rule i's.
	var hints fieldHints
	hints.each(b.Records, p.input, func(r *record.Record, v record.Value) {
		s := textOf(v)
		if p.allMembers && !p.asJSON {
			var ok bool
			if flat, ok = decodeFlatObject(s, flat[:0]); ok {
				p.members(r, flat, &hints)
				return
			}
		}
		dec := json.NewDecoder(bytes.NewReader([]byte(s)))
		dec.UseNumber()
		var doc any
		if err := dec.Decode(&doc); err != nil {
			r.AddError(ErrInvalidJSONField, fmt.Sprintf("field %s: %v", p.input, err))
			return
		}
		for _, rule := range p.rules {
			if err := p.apply(r, rule, doc); err != nil {
				r.AddError(ErrJSONPath, err.Error())
				return
			}
		}
	})
	return nil
}

// members sets each rule's member of a flat document, as the JSONPath
// engine would select it from encoding/json's map: the last member of that
// name (a map keeps the last of duplicate keys). Every value of a flat
// document is a scalar, which return.type scalar takes as it is. hints
// are where each rule's field was set in the previous record.
func (p *EvaluateJsonPath) members(r *record.Record, doc []record.Field, hints *fieldHints) {
	for ri, rule := range p.rules {
		found := -1
		for i := range doc {
			if doc[i].Name == rule.member {
				found = i
			}
		}
		if found < 0 {
			if p.warn {
				p.log.Warn("json path selected nothing", "field", rule.field, "path", rule.path.String(), "record", r.ID)
			}
			continue
		}
		hints.set(r, 1+ri, rule.field, doc[found].Value)
	}
}

func (p *EvaluateJsonPath) apply(r *record.Record, rule pathRule, doc any) error {
	nodes := rule.path.Select(doc)
	if len(nodes) == 0 {
		if p.warn {
			p.log.Warn("json path selected nothing", "field", rule.field, "path", rule.path.String(), "record", r.ID)
		}
		return nil
	}
	var res any = []any(nodes)
	if len(nodes) == 1 {
		res = nodes[0]
	}
	if p.asJSON {
		out, err := json.Marshal(res)
		if err != nil {
			return fmt.Errorf("%s: %w", rule.field, err)
		}
		r.SetString(rule.field, string(out))
		return nil
	}
	if m, ok := res.(map[string]any); ok {
		return fmt.Errorf("%s: path %s selects an object (%d keys), not a scalar: use return.type json", rule.field, rule.path, len(m))
	}
	if a, ok := res.([]any); ok {
		for _, e := range a {
			switch e.(type) {
			case map[string]any, []any:
				return fmt.Errorf("%s: path %s selects a nested structure, not scalars: use return.type json", rule.field, rule.path)
			}
		}
	}
	v, err := record.ValueFromJSON(res)
	if err != nil {
		return fmt.Errorf("%s: %w", rule.field, err)
	}
	r.Set(rule.field, v)
	return nil
}
