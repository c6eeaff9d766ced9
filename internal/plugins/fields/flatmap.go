package fields

import (
	"context"
	"sort"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/record"
)

// FlatMapName is the component identifier.
const FlatMapName = "pkg.processor.FlatMap"

// FlatMapSpec declares FlatMap.
func FlatMapSpec() component.Spec {
	return component.ProcessorSpec(component.Spec{
		Name: FlatMapName,
		Summary: "Turns every field of a record that holds a nested record (a map, as JsonSerializer reads a JSON object) into a record " +
			"of its own, in field order. The leaf takes the map's entries as fields; with copy.root.record.fields it also takes every " +
			"root field that is not itself a map. A leaf's id is the map's record_id if it has one, or the root's id, a slash and the " +
			"field name, so that leaves of one root keep distinct ids; its type is leaf.record.type when set, or the map's record_type, " +
			"or the root's type. A root without nested records yields no leaf and, without keep.root.record, leaves the batch.",
		Properties: []component.Property{
			{Key: "keep.root.record", Description: "Keep the root record in the output, before its leaves.", Default: "true", Validator: component.Bool},
			{Key: "copy.root.record.fields", Description: "Copy the root's fields that are not nested records into each leaf.", Default: "true", Validator: component.Bool},
			{Key: "leaf.record.type", Description: "Type of the leaf records; empty keeps the nested record's own type."},
			{Key: "concat.fields", Description: "Comma-separated fields that, when both the root and the leaf hold a string under that name, become ROOT + concat.separator + LEAF in the leaf.",
				Validator: component.List(component.NonEmpty)},
			{Key: "concat.separator", Description: "Separator of concat.fields.", Default: "/", Validator: component.NonEmpty},
			{Key: "include.position", Description: "Accepted for LogIsland's job files: Weir's records carry no position, so there is none to copy.", Default: "true", Validator: component.Bool},
		},
	}, newFlatMap)
}

// FlatMapConfig is FlatMap's configuration.
type FlatMapConfig struct {
	KeepRoot     bool     `key:"keep.root.record"`
	CopyRoot     bool     `key:"copy.root.record.fields"`
	LeafType     string   `key:"leaf.record.type"`
	ConcatFields []string `key:"concat.fields"`
	Separator    string   `key:"concat.separator"`
	// Weir's records carry no position.
	_      struct{} `key:"include.position,ignored"`
	concat map[string]bool
}

// Validate makes the set of concat.fields.
func (c *FlatMapConfig) Validate() error {
	c.concat = setOf(c.ConcatFields)
	return nil
}

// FlatMap is the processor.
type FlatMap struct {
	keepRoot, copyRoot bool
	leafType           string
	concat             map[string]bool
	sep                string
}

func newFlatMap(c *FlatMapConfig, _ component.Env) (component.Processor, error) {
	return &FlatMap{keepRoot: c.KeepRoot, copyRoot: c.CopyRoot, leafType: c.LeafType, concat: c.concat, sep: c.Separator}, nil
}

// Process replaces the batch with the roots (if kept) and their leaves.
func (p *FlatMap) Process(_ context.Context, b *component.Batch) error {
	out := make([]*record.Record, 0, len(b.Records))
	for _, root := range b.Records {
		if p.keepRoot {
			out = append(out, root)
		}
		for _, f := range root.Fields() {
			if isTechnical(f.Name) {
				continue
			}
			m, ok := f.Value.AsMap()
			if !ok {
				continue
			}
			out = append(out, p.leaf(root, f.Name, m))
		}
	}
	b.Records = out
	return nil
}

func (p *FlatMap) leaf(root *record.Record, name string, m map[string]record.Value) *record.Record {
	id := root.ID + "/" + name
	if v, ok := m[record.FieldID]; ok {
		if s, ok := v.AsString(); ok && s != "" {
			id = s
		}
	}
	typ := root.Type
	if v, ok := m[record.FieldType]; ok {
		if s, ok := v.AsString(); ok && s != "" {
			typ = s
		}
	}
	if p.leafType != "" {
		typ = p.leafType
	}
	leaf := record.New(id, typ, root.CreationDate)
	leaf.Origin = root.Origin
	// A map has no order: its entries are written in name order, so the
	// output is the same on every run.
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if k == record.FieldID || k == record.FieldType || k == record.FieldErrors {
			continue
		}
		leaf.Set(k, m[k])
	}
	if p.copyRoot {
		for _, f := range root.Fields() {
			if f.Name == record.FieldID || f.Name == record.FieldType || f.Name == record.FieldErrors || f.Value.Kind() == record.Map {
				continue
			}
			if p.concat[f.Name] {
				rs, rok := f.Value.AsString()
				lv, _ := leaf.Get(f.Name)
				ls, lok := lv.AsString()
				if rok && lok {
					leaf.SetString(f.Name, rs+p.sep+ls)
					continue
				}
			}
			leaf.Set(f.Name, f.Value)
		}
	}
	return leaf
}
