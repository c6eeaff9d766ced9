package dns_test

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/dataflow"
	"github.com/weir-streams/weir/internal/engine"
	"github.com/weir-streams/weir/internal/plugins/cache"
	"github.com/weir-streams/weir/internal/plugins/dns"
	"github.com/weir-streams/weir/internal/plugins/dns/dnstest"
	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/streamtest"
)

// logAddresses returns the client address of each line of the real access
// log (its first field), and the distinct addresses, sorted.
func logAddresses(t testing.TB) (perLine, distinct []string) {
	t.Helper()
	lines := streamtest.AccessLogLines(t)
	seen := map[string]bool{}
	for i, l := range lines {
		ip, _, ok := strings.Cut(l, " ")
		if !ok {
			t.Fatalf("line %d has no client address: %.60q", i+1, l)
		}
		perLine = append(perLine, ip)
		if !seen[ip] {
			seen[ip] = true
			distinct = append(distinct, ip)
		}
	}
	sort.Strings(distinct)
	if len(distinct) != 1753 {
		t.Fatalf("the access log has %d distinct addresses, want 1753 (its README)", len(distinct))
	}
	return perLine, distinct
}

// serveLogZone fills the server with an answer for every address of the
// log, of three kinds, and returns the FQDN each address must get ("" for
// none):
//   - most addresses have a name that resolves back to them (verified);
//   - every tenth, from the fourth, has a PTR to a name whose A record is
//     another address (spoofed);
//   - every tenth, from the eighth, has no PTR record (NXDOMAIN).
func serveLogZone(srv *dnstest.Server, distinct []string) map[string]string {
	want := make(map[string]string, len(distinct))
	for i, ip := range distinct {
		name := "h-" + strings.ReplaceAll(ip, ".", "-") + ".clients.weir.test"
		switch i % 10 {
		case 3:
			srv.AddPTR(ip, name)
			srv.AddForward(name, fmt.Sprintf("203.0.113.%d", i%250+1))
			want[ip] = ""
		case 7:
			want[ip] = ""
		default:
			srv.AddHost(name, ip)
			want[ip] = name
		}
	}
	return want
}

// TestRealAccessLogDirect runs the 10,000 lines of the real log through one
// processor from four concurrent partitions, in batches: every record gets
// the answer its address deserves, and each of the 1,753 addresses is asked
// exactly once although many appear in several partitions at once.
func TestRealAccessLogDirect(t *testing.T) {
	perLine, distinct := logAddresses(t)
	srv := dnstest.Start(t)
	want := serveLogZone(srv, distinct)
	srv.SetDelay(time.Millisecond)

	lru := cache.NewLRUService(component.Env{Name: "lru_cache_service"}, cache.DefaultSize, nil)
	t.Cleanup(func() { _ = lru.Close(context.Background()) })
	p, err := dns.New(dns.Options{IPField: "src_ip", FQDNField: "src_fqdn", Override: true, MaxTime: 24 * time.Hour,
		Timeout: 30 * time.Second, Servers: []string{srv.Addr}}, lru, component.Env{Name: "ip_to_fqdn", Stream: "parsing"})
	if err != nil {
		t.Fatal(err)
	}

	const partitions, batchSize = 4, 500
	parts := make([][]*record.Record, partitions)
	for i, ip := range perLine {
		r := record.New(fmt.Sprint(i), "apache_log", 0)
		r.SetString("src_ip", ip)
		parts[i%partitions] = append(parts[i%partitions], r)
	}
	var wg sync.WaitGroup
	errs := make(chan error, partitions)
	for part, recs := range parts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for start := 0; start < len(recs); start += batchSize {
				b := &component.Batch{Records: recs[start:min(start+batchSize, len(recs))], Partition: int32(part)}
				if err := p.Process(context.Background(), b); err != nil {
					errs <- fmt.Errorf("partition %d: %w", part, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}

	named := 0
	for _, recs := range parts {
		for _, r := range recs {
			ip, _ := r.GetString("src_ip")
			got, _ := r.GetString("src_fqdn")
			if got != want[ip] {
				t.Fatalf("record %s (%s): fqdn %q, want %q", r.ID, ip, got, want[ip])
			}
			if got != "" {
				named++
			}
		}
	}
	if n := srv.Queries("PTR", ""); n != len(distinct) {
		t.Fatalf("PTR queries = %d, want %d: each address once", n, len(distinct))
	}
	t.Logf("%d of %d records named; %d PTR, %d A queries", named, len(perLine), srv.Queries("PTR", ""), srv.Queries("A", ""))
}

// TestInStreamOverRealAccessLog runs the processor inside a stream on the
// embedded broker: SplitText with the enrichment regex, then IpToFqdn with
// the spec's sample settings (the name replaces the address in src_ip),
// over the 10,000 real lines on four partitions. Every one of the 1,753
// addresses is answered by the test DNS server, and asked once.
func TestInStreamOverRealAccessLog(t *testing.T) {
	_, distinct := logAddresses(t)
	srv := dnstest.Start(t)
	want := serveLogZone(srv, distinct)
	srv.SetDelay(time.Millisecond)

	b := streamtest.StartBroker(t)
	b.CreateTopic(t, "pipeline_raw", 4)
	lines := streamtest.AccessLogLines(t)
	b.ProduceLines(t, "pipeline_raw", lines)

	s := streamtest.Stream("parsing_stream", b.Addr, "pipeline_raw", "pipeline_events", "pipeline_errors")
	s.Pipeline.Processors = []dataflow.Component{
		streamtest.ApacheParser(true),
		streamtest.Processor("ip_to_fqdn", dns.IpToFqdnName,
			"ip.address.field", "src_ip", "fqdn.field", "src_ip", "override.fqdn.field", "true",
			"cache.service", "lru_cache_service", "cache.max.time", "86400",
			"resolution.timeout", "30000", "dns.servers", srv.Addr),
	}
	df := &dataflow.DataFlow{LastModified: time.Unix(1, 0), Streams: []dataflow.Stream{s},
		Services: []dataflow.Component{{Name: "lru_cache_service", Component: cache.LRUServiceName,
			Config: streamtest.Props("cache.size", "16384")}}}
	e := streamtest.StartEngine(t, engine.Settings{Workers: 4}, df)

	recs := streamtest.Decode(t, b.Consume(t, "pipeline_events", len(lines), 180*time.Second))
	seen := map[string]bool{}
	named := 0
	for _, r := range recs {
		if seen[r.ID] {
			continue // at-least-once delivery may repeat a record
		}
		seen[r.ID] = true
		raw, _ := r.GetString(record.FieldValue)
		ip, _, _ := strings.Cut(raw, " ")
		exp, known := want[ip]
		if !known {
			t.Fatalf("record %s: address %q is not in the log", r.ID, ip)
		}
		if exp == "" {
			exp = ip // no verified name: src_ip keeps the address
		} else {
			named++
		}
		if got, _ := r.GetString("src_ip"); got != exp {
			t.Fatalf("record %s (%s): src_ip = %q, want %q", r.ID, ip, got, exp)
		}
	}
	if len(seen) != len(lines) {
		t.Fatalf("%d distinct records, want %d", len(seen), len(lines))
	}
	if n := b.Count(t, "pipeline_errors"); n != 0 {
		t.Errorf("%d error records, want 0", n)
	}
	for _, ip := range distinct {
		if n := srv.Queries("PTR", ip); n != 1 {
			t.Fatalf("address %s was asked %d times, want once", ip, n)
		}
	}
	hits := metricSum(t, e, "weir_cache_hits_total")
	t.Logf("%d of %d records named; %d PTR queries; %v cache hits", named, len(lines), srv.Queries("PTR", ""), hits)
}

// metricSum sums a metric's samples in the engine's registry, counters and
// gauges, keeping only the samples with the label name and value given in
// label, if any.
func metricSum(t *testing.T, e *streamtest.Engine, name string, label ...string) float64 {
	t.Helper()
	fams, err := e.Metrics.Gather()
	if err != nil {
		t.Fatalf("gather: %v", err)
	}
	sum := 0.0
	for _, f := range fams {
		if f.GetName() != name {
			continue
		}
		for _, m := range f.GetMetric() {
			if len(label) == 2 && !hasLabel(m.GetLabel(), label[0], label[1]) {
				continue
			}
			if m.Counter != nil {
				sum += m.Counter.GetValue()
			} else if m.Gauge != nil {
				sum += m.Gauge.GetValue()
			}
		}
	}
	return sum
}

// hasLabel reports whether labels hold name with value.
func hasLabel(labels []*dto.LabelPair, name, value string) bool {
	for _, l := range labels {
		if l.GetName() == name && l.GetValue() == value {
			return true
		}
	}
	return false
}
