package engine_test

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/weir-streams/weir/internal/broker"
	"github.com/weir-streams/weir/internal/engine"
	"github.com/weir-streams/weir/internal/metrics"
	"github.com/weir-streams/weir/internal/plugins/all"
	"github.com/weir-streams/weir/internal/streamtest"
)

// TestEmbeddedBrokerKeepsTopicsAndOffsetsAcrossRestarts runs the job on the
// embedded broker twice over one data directory: the second run finds the
// first run's output and committed offsets, so it processes only the new
// input.
func TestEmbeddedBrokerKeepsTopicsAndOffsetsAcrossRestarts(t *testing.T) {
	dir := t.TempDir()
	lines := streamtest.AccessLogLines(t)
	runOnce := func(input []string, wantEvents int64) {
		// The broker belongs to the caller (app, in weir): it is closed
		// after the engine, as app does.
		b := broker.New(broker.Options{Port: 0, DataDir: dir}, slog.New(slog.DiscardHandler))
		defer func() { _ = b.Close(context.Background()) }()
		e := engine.New(engine.Options{
			Settings: engine.Settings{AppName: "embedded-test", Workers: 2, BatchInterval: 20 * time.Millisecond},
			Registry: all.NewRegistry(),
			Logger:   slog.New(slog.DiscardHandler),
			Metrics:  metrics.New(prometheus.NewRegistry()),
			Broker:   b,
		})
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		defer func() { _ = e.Stop(ctx) }()
		if err := e.Apply(ctx, typedDataflow("embedded", time.Unix(1, 0), time.Unix(1, 0), "apache_log")); err != nil {
			t.Fatalf("apply: %v", err)
		}
		cl, err := kgo.NewClient(kgo.SeedBrokers(e.EmbeddedAddr()))
		if err != nil {
			t.Fatal(err)
		}
		defer cl.Close()
		rs := make([]*kgo.Record, len(input))
		for i, l := range input {
			rs[i] = &kgo.Record{Topic: "raw", Value: []byte(l)}
		}
		if err := cl.ProduceSync(ctx, rs...).FirstErr(); err != nil {
			t.Fatalf("produce: %v", err)
		}
		adm := kadm.NewClient(cl)
		for {
			offs, err := adm.ListEndOffsets(ctx, "events")
			var n int64
			if err == nil {
				offs.Each(func(o kadm.ListedOffset) { n += o.Offset })
			}
			if n == wantEvents {
				break
			}
			if n > wantEvents || ctx.Err() != nil {
				t.Fatalf("events holds %d records, want %d", n, wantEvents)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	runOnce(lines[:1000], 1000)
	// A clean stop committed everything: the second run must not replay.
	runOnce(lines[1000:1500], 1500)
}
