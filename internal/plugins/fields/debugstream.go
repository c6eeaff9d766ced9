package fields

import (
	"context"
	"fmt"
	"log/slog"
	"regexp"
	"strings"
	"sync/atomic"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/record"
)

// DebugStreamName is the component identifier.
const DebugStreamName = "pkg.processor.DebugStream"

// DebugStreamSpec declares DebugStream.
func DebugStreamSpec() component.Spec {
	return component.Spec{
		Name: DebugStreamName,
		Kind: component.KindProcessor,
		Summary: "Logs records (at info level, as JSON in the record key of the log line) and passes them on unchanged. " +
			"debug.sample logs one record in N, so that it can stay in a busy stream; debug.filter and debug.selection narrow what is logged.",
		Properties: []component.Property{
			{Key: "debug.sample", Description: "Log one record in this many (1: every record).", Default: "1", Validator: component.IntRange(1, 1<<30)},
			{Key: "debug.filter", Description: "Only records whose field KEY matches REGEX, written KEY:REGEX (RE2, unanchored).",
				Validator: component.NewValidator("KEY:REGEX", func(s string) error { _, _, err := parseDebugFilter(s); return err })},
			{Key: "debug.selection", Description: "Comma-separated fields to log (names are trimmed); all fields when unset.", Validator: component.List(component.NonEmpty)},
			{Key: "event.serializer", Description: "LogIsland's serializer for the logged form; accepted for LogIsland jobs and ignored (Weir logs JSON)."},
			{Key: "event.serializer.schema", Description: "Accepted for LogIsland jobs and ignored."},
		},
		NewProcessor: newDebugStream,
	}
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

func newDebugStream(conf component.Config, env component.Env) (component.Processor, error) {
	every, err := conf.Int("debug.sample")
	if err != nil {
		return nil, err
	}
	p := &DebugStream{every: every, selection: conf.List("debug.selection"), log: env.Logger}
	if p.log == nil {
		p.log = slog.New(slog.DiscardHandler)
	}
	if conf.IsSet("debug.filter") {
		if p.filterKey, p.filter, err = parseDebugFilter(conf.String("debug.filter")); err != nil {
			return nil, fmt.Errorf("property \"debug.filter\": %w", err)
		}
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

func (p *DebugStream) logRecord(ctx context.Context, b *component.Batch, r *record.Record) {
	p.log.LogAttrs(ctx, slog.LevelInfo, "record", slog.String("id", r.ID), slog.String("type", r.Type),
		slog.String("record", string(p.render(r))), slog.Int("partition", int(b.Partition)))
}

func (p *DebugStream) render(r *record.Record) []byte {
	if len(p.selection) == 0 {
		return record.AppendFieldsJSON(nil, r.Fields())
	}
	sel := make([]record.Field, 0, len(p.selection))
	for _, f := range p.selection {
		if v, ok := r.Get(f); ok {
			sel = append(sel, record.Field{Name: f, Value: v})
		}
	}
	return record.AppendFieldsJSON(nil, sel)
}
