package stream_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/dataflow"
	"github.com/weir-streams/weir/internal/engine"
	"github.com/weir-streams/weir/internal/metrics"
	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/streamtest"
)

// panicky is a processor with a bug: it panics on a batch that holds a
// record whose record_value contains "POISON", and otherwise sets a field.
// No stock processor panics on purpose, so this one stands in for a
// processor bug; everything around it (broker, stream, chain) is real.
type panicky struct{}

func (panicky) Process(_ context.Context, b *component.Batch) error {
	for _, r := range b.Records {
		v, _ := r.GetString(record.FieldValue)
		if strings.Contains(v, "POISON") {
			words := strings.Fields(v)
			r.SetString("last", words[len(words)]) // index out of range: a runtime panic
		}
		r.SetString("checked", "yes")
	}
	return nil
}

func TestPanicOnOneRecordIsolatesIt(t *testing.T) {
	b := streamtest.StartBroker(t)
	b.CreateTopic(t, "poison_in", 1)
	lines := streamtest.AccessLogLines(t)[:200]
	lines[57] = "POISON " + lines[57]
	b.ProduceLines(t, "poison_in", lines)

	reg := streamtest.Registry()
	reg.Register(component.Spec{Name: "test.Panicky", Kind: component.KindProcessor, Summary: "panics on POISON",
		NewProcessor: func(component.Config, component.Env) (component.Processor, error) { return panicky{}, nil }})
	met := prometheus.NewRegistry()
	e := engine.New(engine.Options{
		Settings: engine.Settings{AppName: "weir-test", Workers: 2, BatchInterval: 20 * time.Millisecond},
		Registry: reg, Logger: streamtest.Logger(t), Metrics: metrics.New(met),
	})
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_ = e.Stop(ctx)
	})
	s := streamtest.Stream("poison", b.Addr, "poison_in", "poison_out", "poison_errors")
	s.Pipeline.Processors = []dataflow.Component{streamtest.Processor("buggy", "test.Panicky")}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := e.Apply(ctx, &dataflow.DataFlow{LastModified: time.Unix(1, 0), Streams: []dataflow.Stream{s}}); err != nil {
		t.Fatalf("apply: %v", err)
	}
	waitCommitted(t, b.Addr, "poison_in")
	if nOut, nErr := b.Count(t, "poison_out"), b.Count(t, "poison_errors"); nOut != 199 || nErr != 1 {
		t.Fatalf("%d output and %d error records, want 199 and 1", nOut, nErr)
	}
	out := streamtest.Decode(t, b.Consume(t, "poison_out", 199, 30*time.Second))
	seen := map[string]bool{}
	for _, r := range out {
		if seen[r.ID] {
			t.Fatalf("record %s written twice", r.ID)
		}
		seen[r.ID] = true
		if v, _ := r.GetString("checked"); v != "yes" {
			t.Fatalf("output record not processed: %v", r)
		}
	}
	errs := streamtest.Decode(t, b.Consume(t, "poison_errors", 1, 30*time.Second))
	r := errs[0]
	if v, _ := r.GetString(record.FieldValue); v != lines[57] {
		t.Fatalf("error record value %q, want the poison line", v)
	}
	if e := r.Errors(); len(e) != 1 || !strings.HasPrefix(e[0], `runtime_error: processor "buggy" panicked: runtime error: index out of range`) {
		t.Fatalf("errors %q", e)
	}
	if p, _ := r.GetString(record.FieldErrorProcessor); p != "buggy" {
		t.Fatalf("processor %q, want buggy", p)
	}
	if off, _ := r.Get(record.FieldSourceOffset); off.Text() != "57" {
		t.Fatalf("source offset %s, want 57", off.Text())
	}
	if n := labelCounter(t, met, "weir_processor_records_panics_total", "component", "buggy"); n != 1 {
		t.Fatalf("panics metric %v, want 1", n)
	}
}
