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
	"github.com/weir-streams/weir/internal/plugins/useragent"
	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/status"
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
	for _, bc := range []struct {
		name  string
		procs []dataflow.Configured
	}{{"SplitTextOnly", procs[:1]}, {"FullJob", procs}, {"FullJobWithoutUserAgent", withoutUA}} {
		b.Run(bc.name, func(b *testing.B) {
			deps := stream.ChainDeps{Registry: all.NewRegistry(), Services: svcs, Logger: slog.New(slog.DiscardHandler),
				Metrics: status.NewMetrics(prometheus.NewRegistry())}
			chain, err := stream.BuildChain(context.Background(), "s", 1, bc.procs, deps)
			if err != nil {
				b.Fatal(err)
			}
			defer chain.Close(context.Background(), deps.Logger)
			perRecord := 16 // the stream's default before its first batch
			streamtest.BenchBatches(b, len(lines), 500, func(start, n int) {
				recs := record.NewBatchFields(n, perRecord)
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
				most := 0
				for _, r := range bt.Records {
					most = max(most, r.Len())
				}
				if most > 0 {
					perRecord = most
				}
			})
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
