package dns_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/plugins/cache"
	"github.com/weir-streams/weir/internal/plugins/dns"
	"github.com/weir-streams/weir/internal/plugins/dns/dnstest"
	"github.com/weir-streams/weir/internal/record"
)

// The benchmarks run the 10,000 client addresses of the real access log
// (1,753 distinct) through IpToFqdn against the test DNS server, which
// answers every query after 2 ms, as a nearby caching resolver would. They
// report lines per second.
//
//	go test -run '^$' -bench IpToFqdn -benchtime 5x ./internal/plugins/dns/

const (
	benchDelay     = 2 * time.Millisecond
	benchBatchSize = 1000 // a 200 ms micro-batch at a few thousand lines/s per partition
)

type benchSetup struct {
	srv   *dnstest.Server
	parts [][]*record.Record // the log's records, dealt to partitions
	lines int
}

func newBenchSetup(b *testing.B, partitions int) *benchSetup {
	perLine, distinct := logAddresses(b)
	s := &benchSetup{srv: dnstest.Start(b), parts: make([][]*record.Record, partitions), lines: len(perLine)}
	serveLogZone(s.srv, distinct)
	s.srv.SetDelay(benchDelay)
	for i, ip := range perLine {
		r := record.New(fmt.Sprint(i), "apache_log", 0)
		r.SetString("src_ip", ip)
		s.parts[i%partitions] = append(s.parts[i%partitions], r)
	}
	return s
}

func (s *benchSetup) processor(b *testing.B, kv cache.KeyValue) *dns.IpToFqdn {
	p, err := dns.New(dns.Options{IPField: "src_ip", FQDNField: "src_fqdn", Override: true, MaxTime: 24 * time.Hour,
		Timeout: 10 * time.Second, Concurrency: 64, Servers: []string{s.srv.Addr}}, kv, component.Env{Name: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	return p
}

// runLog processes every partition's records in batches, the partitions
// concurrently, as a stream's partition workers do.
func (s *benchSetup) runLog(b *testing.B, p *dns.IpToFqdn) {
	var wg sync.WaitGroup
	for part, recs := range s.parts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for start := 0; start < len(recs); start += benchBatchSize {
				bt := &component.Batch{Records: recs[start:min(start+benchBatchSize, len(recs))], Partition: int32(part)}
				if err := p.Process(context.Background(), bt); err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func (s *benchSetup) report(b *testing.B, elapsed time.Duration) {
	b.ReportMetric(float64(s.lines*b.N)/elapsed.Seconds(), "lines/s")
}

// BenchmarkIpToFqdnColdCache: every pass starts with an empty cache, so each
// of the 1,753 addresses costs a PTR and a forward lookup of 2 ms each.
func BenchmarkIpToFqdnColdCache(b *testing.B) {
	for _, partitions := range []int{1, 4} {
		b.Run(fmt.Sprintf("partitions=%d", partitions), func(b *testing.B) {
			s := newBenchSetup(b, partitions)
			var elapsed time.Duration
			b.ResetTimer()
			for range b.N {
				b.StopTimer()
				lru := cache.NewLRUService(component.Env{Name: "bench"}, cache.DefaultSize, nil)
				p := s.processor(b, lru)
				b.StartTimer()
				start := time.Now()
				s.runLog(b, p)
				elapsed += time.Since(start)
			}
			s.report(b, elapsed)
		})
	}
}

// BenchmarkIpToFqdnWarmCache: the cache holds every address; no DNS query
// is sent.
func BenchmarkIpToFqdnWarmCache(b *testing.B) {
	for _, partitions := range []int{1, 2} {
		b.Run(fmt.Sprintf("partitions=%d", partitions), func(b *testing.B) {
			s := newBenchSetup(b, partitions)
			lru := cache.NewLRUService(component.Env{Name: "bench"}, cache.DefaultSize, nil)
			p := s.processor(b, lru)
			s.runLog(b, p)
			queries := s.srv.Total()
			b.ReportAllocs()
			b.ResetTimer()
			start := time.Now()
			for range b.N {
				s.runLog(b, p)
			}
			elapsed := time.Since(start)
			b.StopTimer()
			if n := s.srv.Total(); n != queries {
				b.Fatalf("a warm pass sent %d DNS queries", n-queries)
			}
			s.report(b, elapsed)
		})
	}
}
