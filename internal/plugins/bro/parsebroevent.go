// Package bro holds ParseBroEvent, LogIsland's processor that turns the JSON
// events of the Bro (Zeek) network monitor into records.
package bro

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/record"
)

// ParseBroEventName is the component identifier, LogIsland's.
const ParseBroEventName = "pkg.processor.bro.ParseBroEvent"

// ErrBroEvent is the error type of a record whose record_value is not a Bro
// event.
const ErrBroEvent = "bro_event_error"

// ParseBroEventSpec declares ParseBroEvent.
func ParseBroEventSpec() component.Spec {
	return component.ProcessorSpec(component.Spec{
		Name: ParseBroEventName,
		Summary: "Turns a Bro (Zeek) JSON event in record_value, {\"<event type>\": {<fields>}}, into a record of type <event type> " +
			"whose fields are the event's, with dots in names (at every depth) replaced by underscores: id.orig_h becomes id_orig_h. " +
			"ts, in seconds, becomes epoch milliseconds; version becomes a string (as written); integers, decimals, booleans, arrays and " +
			"objects keep their JSON types. record_key and record_value are removed. A record_value that is not such an event makes " +
			"the record an error record (" + ErrBroEvent + ") with the reason, its value kept.",
		Properties: []component.Property{
			{Key: "debug", Description: "Keep the event in record_value, as a map with normalized names, and set record_key to bro_event_raw.", Default: "false", Validator: component.Bool},
		},
	}, newParseBroEvent)
}

// ParseBroEventConfig is ParseBroEvent's configuration.
type ParseBroEventConfig struct {
	Debug bool `key:"debug"`
}

func newParseBroEvent(c *ParseBroEventConfig, _ component.Env) (component.Processor, error) {
	return &ParseBroEvent{debug: c.Debug}, nil
}

// ParseBroEvent is the processor; safe for concurrent use.
type ParseBroEvent struct{ debug bool }

// Process parses every record's record_value.
func (p *ParseBroEvent) Process(_ context.Context, b *component.Batch) error {
	for _, r := range b.Records {
		if err := p.parse(r); err != nil {
			r.AddError(ErrBroEvent, err.Error())
		}
	}
	return nil
}

func (p *ParseBroEvent) parse(r *record.Record) error {
	v, ok := r.Get(record.FieldValue)
	if !ok || v.IsNull() {
		return fmt.Errorf("no %s", record.FieldValue)
	}
	var raw []byte
	if b, ok := v.AsBytes(); ok {
		raw = b
	} else {
		raw = []byte(v.Text())
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var top map[string]any
	if err := dec.Decode(&top); err != nil {
		return fmt.Errorf("record_value is not a JSON object: %w", err)
	}
	if len(top) != 1 {
		return fmt.Errorf("a Bro event has one event type field, this one has %d", len(top))
	}
	var typ string
	var body any
	for k, v := range top {
		typ, body = k, v
	}
	event, ok := body.(map[string]any)
	if !ok {
		return fmt.Errorf("the content of the %q event is not a JSON object", typ)
	}
	event = normalize(event)
	if p.debug {
		rv, err := record.ValueFromJSON(normalize(top))
		if err != nil {
			return err
		}
		r.SetString(record.FieldKey, "bro_event_raw")
		r.Set(record.FieldValue, rv)
	} else {
		r.Remove(record.FieldKey)
		r.Remove(record.FieldValue)
	}
	for _, k := range slices.Sorted(maps.Keys(event)) {
		val, err := fieldValue(k, event[k])
		if err != nil {
			return fmt.Errorf("field %q: %w", k, err)
		}
		r.Set(k, val)
	}
	r.SetType(typ)
	return nil
}

// normalize replaces dots in keys with underscores, in nested objects too.
func normalize(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		if sub, ok := v.(map[string]any); ok {
			v = normalize(sub)
		}
		out[strings.ReplaceAll(k, ".", "_")] = v
	}
	return out
}

func fieldValue(key string, v any) (record.Value, error) {
	n, isNum := v.(json.Number)
	switch {
	case key == "version" && isNum:
		return record.StringValue(n.String()), nil
	case key == "ts" && isNum:
		f, err := n.Float64()
		if err != nil {
			return record.Value{}, err
		}
		return record.IntValue(int64(f * 1000)), nil // truncated, as LogIsland casts it
	case isNum:
		if i, err := n.Int64(); err == nil {
			return record.IntValue(i), nil
		}
		f, err := n.Float64()
		if err != nil {
			return record.Value{}, err
		}
		return record.FloatValue(f), nil
	}
	return record.ValueFromJSON(v)
}
