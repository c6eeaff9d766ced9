package fields_test

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/config"
	"github.com/weir-streams/weir/internal/dataflow"
	"github.com/weir-streams/weir/internal/plugins/all"
	"github.com/weir-streams/weir/internal/plugins/cache"
	"github.com/weir-streams/weir/internal/plugins/geoip"
	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/status"
	"github.com/weir-streams/weir/internal/stream"
	"github.com/weir-streams/weir/internal/streamtest"
)

// BenchmarkFullJobChain runs the processor chain of
// conf/index-apache-logs-full.yml (stand-in geo database, warm caches) and,
// for comparison, its SplitText alone, over the real access log in batches
// of 500 fresh records, as the stream builds them. Kafka is left out: it
// costs both the same.
func BenchmarkFullJobChain(b *testing.B) {
	b.Setenv("BROKER_LIST", "127.0.0.1:9092")
	b.Setenv("GEOIP_DB", "")
	job, err := config.LoadFile(filepath.Join(streamtest.Root(), "conf", "index-apache-logs-full.yml"))
	if err != nil {
		b.Fatal(err)
	}
	plan, probs := dataflow.Check(job.DataFlow, all.NewRegistry())
	if len(probs) > 0 {
		b.Fatal(probs)
	}
	procs := plan.Streams[0].Pipeline.Processors
	geo, err := geoip.Open(standInFile(b), "en", time.Hour, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer geo.Close(context.Background())
	svcs := services{"lru_cache_service": cache.NewLRUService(component.Env{}, 16384, nil), "geo_service": geo}
	lines := streamtest.AccessLogLines(b)
	for _, bc := range []struct {
		name  string
		procs []dataflow.Configured
	}{{"SplitTextOnly", procs[:1]}, {"FullJob", procs}} {
		b.Run(bc.name, func(b *testing.B) {
			deps := stream.ChainDeps{Registry: all.NewRegistry(), Services: svcs, Logger: slog.New(slog.DiscardHandler),
				Metrics: status.NewMetrics(prometheus.NewRegistry())}
			chain, err := stream.BuildChain(context.Background(), "s", 1, bc.procs, deps)
			if err != nil {
				b.Fatal(err)
			}
			defer chain.Close(context.Background(), deps.Logger)
			const batch = 500
			run := func(start int) int {
				n := min(batch, len(lines)-start)
				recs := record.NewBatch(n)
				bt := &component.Batch{Records: make([]*record.Record, n)}
				for i := 0; i < n; i++ {
					r := &recs[i]
					r.Init(record.DeriveID("raw", 0, int64(start+i), 0), "", 0)
					r.SetString(record.FieldValue, lines[start+i])
					bt.Records[i] = r
				}
				if _, err := chain.Run(context.Background(), bt); err != nil {
					b.Fatal(err)
				}
				return n
			}
			for i := 0; i < len(lines); i += batch { // warm the caches
				run(i)
			}
			b.ReportAllocs()
			b.ResetTimer()
			cpu0 := cpuTime()
			done, start := 0, 0
			for done < b.N {
				done += run(start)
				if start += batch; start >= len(lines) {
					start = 0
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(done), "ns/record")
			b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(done), "cpu-ns/record")
			b.ReportMetric(float64(done)/b.Elapsed().Seconds(), "records/s")
		})
	}
}

// services is a service table for chains built without an engine.
type services map[string]component.Service

func (s services) Service(name string) (component.Service, bool) { c, ok := s[name]; return c, ok }

func standInFile(b *testing.B) string {
	path := filepath.Join(b.TempDir(), "stand-in.mmdb")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	if err := geoip.WriteStandIn(f, geoip.StandInNetworks); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	return path
}
