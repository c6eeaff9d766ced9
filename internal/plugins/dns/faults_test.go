package dns_test

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/dataflow"
	"github.com/weir-streams/weir/internal/engine"
	"github.com/weir-streams/weir/internal/plugins/cache"
	"github.com/weir-streams/weir/internal/plugins/dns"
	"github.com/weir-streams/weir/internal/plugins/dns/dnstest"
	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/streamtest"
)

// longFaults reports whether the long variants run (WEIR_LONG_FAULTS=1):
// 100,000 lines and faults of 60 s.
func longFaults() bool { return os.Getenv("WEIR_LONG_FAULTS") == "1" }

// faultHold is how long a fault lasts at least.
func faultHold() time.Duration {
	if longFaults() {
		return 60 * time.Second
	}
	return 3 * time.Second
}

// TestFaultDNS runs SplitText and IpToFqdn in a stream over the real
// access log with a UDP relay with faults between the resolver and the
// test DNS server (Toxiproxy proxies TCP only; see dnstest.Relay). The log
// is fed in three parts: the first before the fault, the second while it
// lasts, the third, of addresses never asked before, after it is removed.
// Every line has exactly one record; no record gets a wrong name (a lookup
// that fails leaves the record without one, as the processor documents);
// the failed lookups show in ip_to_fqdn_lookups_total while the fault
// lasts; the engine stays ready; and after the fault every new address
// gets its verified name.
func TestFaultDNS(t *testing.T) {
	faults := []struct {
		name string
		// fails: a lookup cannot succeed while the fault lasts.
		fails bool
		apply func(r *dnstest.Relay)
	}{
		{"latency", true, func(r *dnstest.Relay) { r.Latency(time.Second, 250*time.Millisecond) }},
		{"bandwidth", false, func(r *dnstest.Relay) { r.Bandwidth(10 * 1024) }},
		{"blackhole", true, func(r *dnstest.Relay) { r.Blackhole() }},
		{"partition", true, func(r *dnstest.Relay) { r.Partition() }},
	}
	for _, fc := range faults {
		t.Run(fc.name, func(t *testing.T) { dnsFault(t, fc.fails, fc.apply) })
	}
}

func dnsFault(t *testing.T, fails bool, apply func(r *dnstest.Relay)) {
	lines := streamtest.AccessLogLines(t)
	_, distinct := logAddresses(t)
	srv := dnstest.Start(t)
	want := serveLogZone(srv, distinct)
	// The third part: the log's lines from fresh addresses, each with a
	// verified name, asked for the first time after the fault.
	var fresh []string
	for i := range 400 {
		ip := fmt.Sprintf("198.51.%d.%d", 100+i/200, i%200+1)
		name := fmt.Sprintf("fresh-%d.clients.weir.test", i)
		srv.AddHost(name, ip)
		want[ip] = name
		_, rest, _ := strings.Cut(lines[i], " ")
		fresh = append(fresh, ip+" "+rest)
	}
	before, during := lines[:3000], lines[3000:]
	if longFaults() {
		for len(during) < 100000-len(before)-len(fresh) {
			during = append(during, lines[len(during)%len(lines)])
		}
	}
	relay := dnstest.StartRelay(t, srv.Addr)

	b := streamtest.StartBroker(t)
	b.CreateTopic(t, "raw", 4)
	s := streamtest.Stream("parsing", b.Addr, "raw", "events", "errors")
	s.Pipeline.Processors = []dataflow.Component{
		streamtest.ApacheParser(true),
		// resolution.timeout is the default, 1 s: under 1 s of latency
		// each way every lookup times out.
		streamtest.Processor("ip_to_fqdn", dns.IpToFqdnName,
			"ip.address.field", "src_ip", "fqdn.field", "src_fqdn",
			"cache.service", "lru_cache_service", "dns.servers", relay.Addr),
	}
	df := &dataflow.DataFlow{LastModified: time.Unix(1, 0), Streams: []dataflow.Stream{s},
		Services: []dataflow.Component{{Name: "lru_cache_service", Component: cache.LRUServiceName,
			Config: streamtest.Props("cache.size", "16384")}}}
	e := streamtest.StartEngine(t, engine.Settings{}, df)

	total := int64(len(before))
	b.ProduceLines(t, "raw", before)
	b.WaitCount(t, "events", total, 3*time.Minute)
	failedBefore := lookups(t, e, "failed") + lookups(t, e, "timeout")

	apply(relay)
	start := time.Now()
	b.ProduceLines(t, "raw", during)
	total += int64(len(during))
	// Records go on while the fault lasts: a lookup ends within
	// resolution.timeout, answered or not.
	b.WaitCount(t, "events", total, 5*time.Minute)
	if d := faultHold() - time.Since(start); d > 0 {
		time.Sleep(d)
	}
	failedDuring := lookups(t, e, "failed") + lookups(t, e, "timeout") - failedBefore
	if fails && failedDuring == 0 {
		t.Errorf("no failed or timed-out lookup counted in weir_ip_to_fqdn_lookups_total while the fault lasted")
	}
	if !e.Ready() {
		t.Errorf("the engine is not ready during a DNS fault: %s", e.NotReadyReason())
	}
	relay.Heal()

	b.ProduceLines(t, "raw", fresh)
	total += int64(len(fresh))
	b.WaitCount(t, "events", total, 3*time.Minute)

	recs := streamtest.Decode(t, b.Consume(t, "events", int(b.Count(t, "events")), time.Minute))
	seen := map[string]bool{}
	named, unnamed := 0, 0
	for _, r := range recs {
		if seen[r.ID] {
			continue // at-least-once delivery may repeat a record
		}
		seen[r.ID] = true
		ip, _ := r.GetString("src_ip")
		exp, known := want[ip]
		if !known {
			t.Fatalf("record %s: address %q is in no input line", r.ID, ip)
		}
		got, has := r.GetString("src_fqdn")
		raw, _ := r.GetString(record.FieldValue)
		isFresh := strings.HasPrefix(ip, "198.51.")
		switch {
		case has && got != exp:
			t.Fatalf("record %s (%s): src_fqdn %q, want %q or none", r.ID, ip, got, exp)
		case isFresh && got != exp:
			t.Fatalf("record %s (%s), sent after the fault: src_fqdn %q, want %q (%.40q)", r.ID, ip, got, exp, raw)
		case has:
			named++
		default:
			unnamed++
		}
	}
	if int64(len(seen)) != total {
		t.Errorf("%d distinct records for %d lines", len(seen), total)
	}
	if dup := len(recs) - len(seen); dup != 0 {
		t.Errorf("%d duplicates: the Kafka link had no fault", dup)
	}
	if n := b.Count(t, "errors"); n != 0 {
		t.Errorf("%d error records, want 0", n)
	}
	if !e.Ready() {
		t.Errorf("the engine is not ready after the fault: %s", e.NotReadyReason())
	}
	t.Logf("%d records: %d named, %d without a name; %v lookups failed or timed out during the fault",
		len(seen), named, unnamed, failedDuring)
}

// lookups returns weir_ip_to_fqdn_lookups_total for one outcome.
func lookups(t *testing.T, e *streamtest.Engine, outcome string) float64 {
	t.Helper()
	return metricSum(t, e, "weir_ip_to_fqdn_lookups_total", "outcome", outcome)
}
