package stream_test

import (
	"context"
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/weir-streams/weir/internal/dataflow"
	"github.com/weir-streams/weir/internal/engine"
	"github.com/weir-streams/weir/internal/stream"
	"github.com/weir-streams/weir/internal/streamtest"
)

// BenchmarkEndToEndLatency measures, for each delivery guarantee, the time
// from the acknowledgement of one access-log line written to the input
// topic to its parsed record becoming visible to a read_committed reader
// of the output topic, at the sample jobs' batch interval (200 ms) and at
// 20 ms, where the commit's share shows. One line is in flight at a time,
// so the figure is the latency of an idle stream: the wait for the
// interval plus processing, produce and commit.
// ns/op is the mean; p50_ms and p99_ms are reported beside it.
//
//	go test -run '^$' -bench EndToEndLatency -benchtime 100x ./internal/stream/
func BenchmarkEndToEndLatency(b *testing.B) {
	line := streamtest.AccessLogLines(b)[0]
	for _, c := range []struct {
		g        string
		interval time.Duration
	}{{stream.AtLeastOnce, 200 * time.Millisecond}, {stream.ExactlyOnce, 200 * time.Millisecond},
		{stream.AtLeastOnce, 20 * time.Millisecond}, {stream.ExactlyOnce, 20 * time.Millisecond}} {
		g := c.g
		b.Run(fmt.Sprintf("%s/interval=%v", g, c.interval), func(b *testing.B) {
			br := streamtest.StartBroker(b)
			br.CreateTopic(b, "raw", 4)
			br.CreateTopic(b, "events", 4)
			s := streamtest.Stream("parsing", br.Addr, "raw", "events", "errors",
				dataflow.Property{Key: stream.KeyGuarantee, Value: g})
			s.Pipeline.Processors = []dataflow.Component{streamtest.ApacheParser(true)}
			streamtest.StartEngine(b, engine.Settings{AppName: "latency", Workers: 2, BatchInterval: c.interval},
				&dataflow.DataFlow{LastModified: time.Unix(1, 0), Streams: []dataflow.Stream{s}})
			prod, err := kgo.NewClient(kgo.SeedBrokers(br.Addr), kgo.ProducerLinger(0))
			if err != nil {
				b.Fatal(err)
			}
			defer prod.Close()
			cons, err := kgo.NewClient(kgo.SeedBrokers(br.Addr), kgo.ConsumeTopics("events"),
				kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()), kgo.FetchIsolationLevel(kgo.ReadCommitted()),
				kgo.FetchMaxWait(100*time.Millisecond))
			if err != nil {
				b.Fatal(err)
			}
			defer cons.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
			defer cancel()
			one := func(i int) time.Duration {
				r := &kgo.Record{Topic: "raw", Key: []byte(fmt.Sprint(i)), Value: []byte(line)}
				if err := prod.ProduceSync(ctx, r).FirstErr(); err != nil {
					b.Fatal(err)
				}
				acked := time.Now()
				for got := 0; got == 0; {
					f := cons.PollFetches(ctx)
					if ctx.Err() != nil {
						b.Fatal("no output within the deadline")
					}
					got = f.NumRecords()
				}
				return time.Since(acked)
			}
			one(-1) // the group joined and the topics known
			lat := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := range b.N {
				lat = append(lat, one(i))
			}
			b.StopTimer()
			sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50_ms")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99_ms")
		})
	}
}
