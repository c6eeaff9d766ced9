package remote_test

import (
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/engine"
	"github.com/weir-streams/weir/internal/streamtest"
)

// BenchmarkPipelineSwapPause measures the pause a pipeline swap through the
// API causes under load: a 4-partition backlog of n real access-log lines
// read at up to 40,000 records/s, 200 ms batches (the spec's sample), a
// swap once a quarter is done. It
// reports the longest gap between consecutive output records (by broker
// timestamp) within one second of the swap, the longest gap before it (the
// stream's own rhythm, for comparison), and records per second before,
// around and after the swap.
//
//	go test -run '^$' -bench PipelineSwapPause -benchtime 1x -count 3 ./internal/remote
func BenchmarkPipelineSwapPause(b *testing.B) {
	const n = 150000
	// 4 partitions at 10,000 records/s each: a steady load of 40,000
	// records/s for about four seconds, the swap after one.
	const maxRate = 10000
	lines := repeatLog(b, n)
	for b.Loop() {
		br := streamtest.StartBroker(b)
		br.CreateTopic(b, "raw", 4)
		br.ProduceLines(b, "raw", lines)
		t0 := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
		api := newAPIServerTB(b)
		api.serveDataflow(typed(br.Addr, t0, t0, "gen1"), "rev 1")
		e := streamtest.NewEngine(b, engine.Settings{AppName: "bench", Workers: 2, BatchInterval: 200 * time.Millisecond, MaxRate: maxRate})
		c := newClientTB(b, settings(api.srv.URL, "bench"), e)
		stop := runClientTB(b, c)
		br.WaitCount(b, "events", n/4, 120*time.Second)
		api.serveDataflow(typed(br.Addr, t0, t0.Add(time.Second), "gen2"), "rev 2")
		for e.Generation("parsing") != 2 {
			time.Sleep(time.Millisecond)
		}
		swapAt := time.Now()
		if done := br.Count(b, "events"); done >= n {
			b.Fatalf("the backlog was done before the swap (%d records)", done)
		}
		msgs := br.Consume(b, "events", n, 180*time.Second)
		stop()
		gap, before, during, after := gapStats(msgs, swapAt, time.Second)
		baseline := baselineGap(msgs, swapAt.Add(-time.Second))
		b.ReportMetric(float64(gap.Milliseconds()), "swap-gap-ms")
		b.ReportMetric(float64(baseline.Milliseconds()), "gap-before-ms")
		b.ReportMetric(before, "rec/s-before")
		b.ReportMetric(during, "rec/s-around")
		b.ReportMetric(after, "rec/s-after")
	}
}
