package fields

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	"math"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/record"
)

// DebugStreamName is the component identifier.
const DebugStreamName = "pkg.processor.DebugStream"

// DebugStreamSpec declares DebugStream.
func DebugStreamSpec() component.Spec {
	return component.ProcessorSpec(component.Spec{
		Name: DebugStreamName,
		Summary: "Logs records and passes them on unchanged: one line per record, at info level, through the job's logger " +
			"(--log-format, --log-level), with msg=record, the input's partition and offset, and the record's fields as the group record: " +
			"in JSON a nested object, {\"msg\":\"record\",...,\"partition\":0,\"offset\":12,\"record\":{\"src_ip\":\"83.149.9.216\",\"record_time\":1431857103000,...}} " +
			"(the record's own JSON form), in text one pair per field, record.src_ip=83.149.9.216 record.record_time=1431857103000 " +
			"(maps as record.geo.city=Paris, arrays as JSON). " +
			"debug.sample logs one record in N, so that it can stay in a busy stream; debug.filter and debug.selection narrow what is logged.",
		Properties: []component.Property{
			{Key: "debug.sample", Description: "Log one record in this many (1: every record).", Default: "1", Validator: component.IntRange(1, 1<<30)},
			{Key: "debug.filter", Description: "Only records whose field KEY matches REGEX, written KEY:REGEX (RE2, unanchored).",
				Validator: component.NewValidator("KEY:REGEX", func(s string) error { _, _, err := parseDebugFilter(s); return err })},
			{Key: "debug.selection", Description: "Comma-separated fields to log (names are trimmed); all fields when unset.", Validator: component.List(component.NonEmpty)},
			{Key: "event.serializer", Description: "LogIsland's serializer for the logged form; accepted for LogIsland jobs and ignored (the job's log format, text or JSON, decides the logged form)."},
			{Key: "event.serializer.schema", Description: "Accepted for LogIsland jobs and ignored."},
		},
	}, newDebugStream)
}

// DebugStreamConfig is DebugStream's configuration.
type DebugStreamConfig struct {
	Sample    int64    `key:"debug.sample"`
	Filter    string   `key:"debug.filter"`
	Selection []string `key:"debug.selection"`
	// The logged form is the job's log format's, whatever LogIsland's
	// serializer keys say.
	_         struct{} `key:"event.serializer,ignored"`
	_         struct{} `key:"event.serializer.schema,ignored"`
	filterKey string
	filter    *regexp.Regexp
}

// Validate keeps the filter's field and compiled expression. Its validator
// refuses an empty value, so an empty Filter is an absent one.
func (c *DebugStreamConfig) Validate() error {
	if c.Filter == "" {
		return nil
	}
	var err error
	if c.filterKey, c.filter, err = parseDebugFilter(c.Filter); err != nil {
		return fmt.Errorf("property \"debug.filter\": %w", err)
	}
	return nil
}

func parseDebugFilter(s string) (string, *regexp.Regexp, error) {
	k, re, ok := strings.Cut(s, ":")
	if !ok || k == "" {
		return "", nil, fmt.Errorf("%q is not KEY:REGEX", s)
	}
	rx, err := regexp.Compile(re)
	if err != nil {
		return "", nil, fmt.Errorf("invalid regular expression: %w", err)
	}
	return k, rx, nil
}

// DebugStream is the processor. seen counts records across partitions, so
// that sampling holds for the stream as a whole.
type DebugStream struct {
	every     int64
	seen      atomic.Int64
	filterKey string
	filter    *regexp.Regexp
	selection []string
	log       *slog.Logger
}

func newDebugStream(c *DebugStreamConfig, env component.Env) (component.Processor, error) {
	p := &DebugStream{every: c.Sample, selection: c.Selection, filterKey: c.filterKey, filter: c.filter, log: env.Logger}
	if p.log == nil {
		p.log = slog.New(slog.DiscardHandler)
	}
	return p, nil
}

// Process logs the sampled records of the batch.
func (p *DebugStream) Process(ctx context.Context, b *component.Batch) error {
	if !p.log.Enabled(ctx, slog.LevelInfo) {
		return nil
	}
	if p.filter == nil {
		// Every record counts: one atomic add for the batch, and a
		// step from one sampled record to the next.
		n := int64(len(b.Records))
		first := p.seen.Add(n) - n // the count of the batch's first record, less one
		for i := (p.every - first%p.every) % p.every; i < n; i += p.every {
			p.logRecord(ctx, b, b.Records[i])
		}
		return nil
	}
	for _, r := range b.Records {
		s, ok := r.GetString(p.filterKey)
		if !ok || !p.filter.MatchString(s) {
			continue
		}
		if n := p.seen.Add(1); (n-1)%p.every != 0 {
			continue
		}
		p.logRecord(ctx, b, r)
	}
	return nil
}

// logRecord writes one log line for r: the message "record", the input's
// partition and offset, and the record (or its debug.selection) as the
// group "record", one attribute per field. Through slog's JSON handler the
// group is a nested object, {"record":{"record_id":"...","bytes_out":203023}};
// through the text handler it is one key=value pair per field,
// record.bytes_out=203023. Each value keeps its type, and the handler writes
// it once: the record is not rendered as JSON first and escaped again as a
// string, which cost more than half of a logged record.
//
// The attributes are a new slice for each line, as slog.GroupValue requires
// (the caller must not change the slice afterwards: a handler may keep the
// record past Handle); their values point into the record's own strings,
// which never change.
func (p *DebugStream) logRecord(ctx context.Context, b *component.Batch, r *record.Record) {
	var attrs []slog.Attr
	if len(p.selection) == 0 {
		fs := r.Fields()
		attrs = make([]slog.Attr, len(fs))
		for i, f := range fs {
			attrs[i] = slog.Attr{Key: f.Name, Value: logValue(f.Value)}
		}
	} else {
		attrs = make([]slog.Attr, 0, len(p.selection))
		for _, f := range p.selection {
			if v, ok := r.Get(f); ok {
				attrs = append(attrs, slog.Attr{Key: f, Value: logValue(v)})
			}
		}
	}
	rec := slog.GroupValue(attrs...)
	if len(attrs) == 0 {
		// slog leaves an empty group out of the line: an empty object
		// says that the selection found no field.
		rec = slog.AnyValue(jsonValue{record.MapValue(nil)})
	}
	// Straight to the logger's handler (Process checked that it takes
	// info): Logger.LogAttrs would also walk the stack for the caller's
	// program counter, which no handler of the engine prints (pc 0: no
	// source).
	line := slog.NewRecord(time.Now(), slog.LevelInfo, "record", 0)
	line.AddAttrs(slog.Int("partition", int(b.Partition)), slog.Int64("offset", r.Origin.Offset),
		slog.Attr{Key: "record", Value: rec})
	// A handler's error (a failed write to the log) is not the record's:
	// the logger drops it too.
	_ = p.log.Handler().Handle(ctx, line)
}

// logValue is v as a slog value of its own type: strings, integers, finite
// floats and booleans as slog's own kinds, which both handlers write
// without allocating (floats through encoding/json in the JSON handler);
// a map as a nested group, keys sorted as in Weir's JSON form
// (record.geo.city=Paris in text); anything else (arrays, bytes, null, an
// empty map, NaN and infinities) as jsonValue, the value in Weir's JSON
// form.
func logValue(v record.Value) slog.Value {
	switch v.Kind() {
	case record.String:
		s, _ := v.AsString()
		return slog.StringValue(s)
	case record.Int:
		n, _ := v.AsInt()
		return slog.Int64Value(n)
	case record.Bool:
		t, _ := v.AsBool()
		return slog.BoolValue(t)
	case record.Float:
		if f, _ := v.AsFloat(); !math.IsInf(f, 0) && !math.IsNaN(f) {
			return slog.Float64Value(f)
		}
	case record.Map:
		if m, _ := v.AsMap(); len(m) > 0 {
			return mapGroup(m)
		}
	}
	return slog.AnyValue(jsonValue{v})
}

// mapGroup is a non-empty map as a slog group, in key order.
func mapGroup(m map[string]record.Value) slog.Value {
	keys := slices.Sorted(maps.Keys(m))
	attrs := make([]slog.Attr, len(keys))
	for i, k := range keys {
		attrs[i] = slog.Attr{Key: k, Value: logValue(m[k])}
	}
	return slog.GroupValue(attrs...)
}

// jsonValue logs a record value in Weir's JSON form (record.AppendJSON):
// as JSON in the JSON handler (json.Marshaler) and as the same text, quoted
// where it needs it, in the text handler (encoding.TextMarshaler). A
// struct, not a named record.Value, so that it does not carry
// record.Value's own String method into fmt.
type jsonValue struct{ v record.Value }

// MarshalJSON implements json.Marshaler.
func (j jsonValue) MarshalJSON() ([]byte, error) { return record.AppendJSON(nil, j.v), nil }

// MarshalText implements encoding.TextMarshaler.
func (j jsonValue) MarshalText() ([]byte, error) { return record.AppendJSON(nil, j.v), nil }
