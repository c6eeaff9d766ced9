package stream_test

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/twmb/franz-go/pkg/kadm"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/dataflow"
	"github.com/weir-streams/weir/internal/engine"
	"github.com/weir-streams/weir/internal/metrics"
	"github.com/weir-streams/weir/internal/plugins/all"
	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/streamtest"
)

// gatedSink stands for a processor that writes elsewhere (BulkPut): its
// completions are acknowledged only when the test opens the gate, and they
// refuse every record whose value starts with "refuse".
type gatedSink struct{ gate chan struct{} }

type gatedCompletion struct {
	gate chan struct{}
	recs []*record.Record
}

func (p gatedSink) Process(_ context.Context, b *component.Batch) error {
	b.Await(gatedCompletion{gate: p.gate, recs: append([]*record.Record(nil), b.Records...)})
	return nil
}

func (c gatedCompletion) Wait(ctx context.Context) ([]*record.Record, error) {
	select {
	case <-c.gate:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	var failed []*record.Record
	for _, r := range c.recs {
		if v, _ := r.GetString(record.FieldValue); strings.HasPrefix(v, "refuse") {
			f := r.Clone()
			f.AddError(record.ErrDatastoreWrite, "refused by the test sink")
			failed = append(failed, f)
		}
	}
	return failed, nil
}

func committed(t *testing.T, b *streamtest.Broker, group string) int64 {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	offs, err := b.Admin().FetchOffsets(ctx, group)
	if err != nil {
		t.Fatalf("fetch offsets: %v", err)
	}
	var n int64
	offs.Each(func(o kadm.OffsetResponse) { n += o.At })
	return n
}

// TestOffsetsWaitForProcessorCompletionsAndRefusalsBecomeErrorRecords
// runs without a rate limit and under maxRatePerPartition, whose batches
// (microbatch.go) wait for the sinks the same way.
func TestOffsetsWaitForProcessorCompletionsAndRefusalsBecomeErrorRecords(t *testing.T) {
	for _, rate := range []int64{0, 500} {
		t.Run(fmt.Sprintf("maxRatePerPartition=%d", rate), func(t *testing.T) { offsetsWaitForCompletions(t, rate) })
	}
}

func offsetsWaitForCompletions(t *testing.T, rate int64) {
	gate := make(chan struct{})
	reg := all.NewRegistry()
	reg.Register(component.Spec{Name: "test.GatedSink", Kind: component.KindProcessor,
		NewProcessor: func(component.Config, component.Env) (component.Processor, error) { return gatedSink{gate: gate}, nil }})
	e := engine.New(engine.Options{
		Settings: engine.Settings{AppName: "gated", Workers: 2, BatchInterval: 10 * time.Millisecond, MaxRate: rate},
		Registry: reg, Logger: slog.New(slog.DiscardHandler), Metrics: metrics.New(prometheus.NewRegistry()),
	})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	defer func() { _ = e.Stop(ctx) }()

	b := streamtest.StartBroker(t)
	b.CreateTopic(t, "in", 1)
	s := streamtest.Stream("s", b.Addr, "in", "out", "errs")
	s.Pipeline.Processors = []dataflow.Component{{Name: "sink", Component: "test.GatedSink"}}
	if err := e.Apply(ctx, &dataflow.DataFlow{LastModified: time.Unix(1, 0), Streams: []dataflow.Stream{s}}); err != nil {
		t.Fatal(err)
	}
	b.ProduceLines(t, "in", []string{"keep 1", "refuse 2", "keep 3"})

	// The outputs are written, but the sink has not acknowledged: nothing
	// may be committed.
	b.WaitCount(t, "out", 3, 30*time.Second)
	time.Sleep(300 * time.Millisecond)
	if n := committed(t, b, "gated"); n != 0 {
		t.Fatalf("committed offset %d before the sink acknowledged", n)
	}
	close(gate)
	deadline := time.Now().Add(30 * time.Second)
	for committed(t, b, "gated") != 3 {
		if time.Now().After(deadline) {
			t.Fatalf("offsets not committed after the sink acknowledged (at %d)", committed(t, b, "gated"))
		}
		time.Sleep(50 * time.Millisecond)
	}
	errs := streamtest.Decode(t, b.Consume(t, "errs", 1, 30*time.Second))
	r := errs[0]
	if v, _ := r.GetString(record.FieldValue); v != "refuse 2" {
		t.Fatalf("error record for %q", v)
	}
	for field, want := range map[string]string{record.FieldErrorProcessor: "sink", record.FieldSourceTopic: "in",
		record.FieldSourceOffset: "1", record.FieldErrors: `["datastore_write_error: refused by the test sink"]`} {
		if got, _ := r.GetString(field); got != want {
			t.Errorf("%s = %q, want %q", field, got, want)
		}
	}
}
