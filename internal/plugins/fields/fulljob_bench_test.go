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
	"github.com/weir-streams/weir/internal/metrics"
	"github.com/weir-streams/weir/internal/plugins/all"
	"github.com/weir-streams/weir/internal/plugins/cache"
	"github.com/weir-streams/weir/internal/plugins/geoip"
	"github.com/weir-streams/weir/internal/plugins/useragent"
	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/stream"
	"github.com/weir-streams/weir/internal/streamtest"
)

// BenchmarkFullJobChain runs the processor chain of
// conf/index-apache-logs-full.yml (stand-in geo database, warm caches),
// the same chain without its user-agent step (ParseUserAgent, which is not
// part of the kit), and its SplitText alone, over the real access log in
// batches of 500 fresh records, built as the stream builds them: one
// allocation of records and fields per batch, each record with room for as
// many fields as the largest record of the previous batch ended with.
// Kafka is left out: it costs every chain the same.
func BenchmarkFullJobChain(b *testing.B) {
	// The job only needs a valid broker list to load; the benchmark runs
	// its chain and starts no stream.
	b.Setenv("BROKER_LIST", "embedded")
	b.Setenv("GEOIP_DB", "")
	checked, err := config.LoadChecked(filepath.Join(streamtest.Root(), "conf", "index-apache-logs-full.yml"), config.DefaultMaxJobBytes, all.NewRegistry())
	if err != nil {
		b.Fatal(err)
	}
	procs := checked.Plan.Streams[0].Pipeline.Processors
	var withoutUA []dataflow.Configured
	for _, c := range procs {
		if c.Spec.Name != useragent.ParseUserAgentName {
			withoutUA = append(withoutUA, c)
		}
	}
	if len(withoutUA) != len(procs)-1 {
		b.Fatalf("the sample job has no %s step", useragent.ParseUserAgentName)
	}
	geo, err := geoip.Open(standInFile(b), "en", time.Hour, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer geo.Close(context.Background())
	svcs := services{"lru_cache_service": cache.NewLRUService(component.Env{}, 16384, nil), "geo_service": geo}
	lines := streamtest.AccessLogLines(b)
	chains := []*jobChain{{name: "SplitTextOnly", procs: procs[:1]}, {name: "FullJob", procs: procs}, {name: "FullJobWithoutUserAgent", procs: withoutUA}}
	for _, c := range chains {
		deps := stream.ChainDeps{Registry: all.NewRegistry(), Services: svcs, Logger: slog.New(slog.DiscardHandler),
			Metrics: metrics.New(prometheus.NewRegistry())}
		if c.chain, err = stream.BuildChain(context.Background(), "s", 1, c.procs, deps); err != nil {
			b.Fatal(err)
		}
		defer c.chain.Close(context.Background(), deps.Logger)
		c.perRecord = 16 // the stream's default before its first batch
	}
	for _, c := range chains {
		b.Run(c.name, func(b *testing.B) {
			streamtest.BenchBatches(b, len(lines), 500, func(start, n int) { c.run(b, lines, start, n) })
		})
	}
	// Interleaved runs the three chains in turn, batch by batch, and adds
	// up each one's CPU time: on a shared machine the load changes from
	// second to second, and chains timed one after the other meet
	// different loads, which makes their ratio noisy; taken in turns,
	// they meet the same. It reports each chain's cpu-ns/record and the
	// throughput of the full job, with and without its user-agent step,
	// as a fraction of SplitText's.
	b.Run("Interleaved", func(b *testing.B) {
		cpu := make([]time.Duration, len(chains))
		turn := func(start, n int) {
			for i, c := range chains {
				t0 := streamtest.CPUTime()
				c.run(b, lines, start, n)
				cpu[i] += streamtest.CPUTime() - t0
			}
		}
		for start := 0; start < len(lines); start += 500 {
			turn(start, min(500, len(lines)-start))
		}
		clear(cpu)
		b.ReportAllocs()
		b.ResetTimer()
		done, start := 0, 0
		for done < b.N {
			n := min(500, len(lines)-start)
			turn(start, n)
			done += n
			if start += 500; start >= len(lines) {
				start = 0
			}
		}
		b.StopTimer()
		for i, c := range chains {
			b.ReportMetric(float64(cpu[i].Nanoseconds())/float64(done), c.name+"-cpu-ns/record")
		}
		b.ReportMetric(float64(cpu[0])/float64(cpu[1]), "full/split-throughput")
		b.ReportMetric(float64(cpu[0])/float64(cpu[2]), "noUA/split-throughput")
	})
}

// jobChain is one chain of BenchmarkFullJobChain.
type jobChain struct {
	name      string
	procs     []dataflow.Configured
	chain     *stream.Chain
	perRecord int // fields per record: the most the previous batch's records ended with
}

// run processes lines[start:start+n] as fresh records, built as the
// stream builds them: one allocation of records and fields per batch.
func (c *jobChain) run(b *testing.B, lines []string, start, n int) {
	recs := record.NewBatchFields(n, c.perRecord)
	bt := &component.Batch{Records: make([]*record.Record, n)}
	for i := 0; i < n; i++ {
		r := &recs[i]
		r.Init(record.DeriveID("raw", 0, int64(start+i), 0), "", 0)
		r.SetString(record.FieldValue, lines[start+i])
		bt.Records[i] = r
	}
	if _, err := c.chain.Run(context.Background(), bt); err != nil {
		b.Fatal(err)
	}
	most := 0
	for _, r := range bt.Records {
		most = max(most, r.Len())
	}
	if most > 0 {
		c.perRecord = most
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
