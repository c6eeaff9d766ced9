package dns

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	mdns "github.com/miekg/dns"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/dataflow"
	"github.com/weir-streams/weir/internal/metrics"
	"github.com/weir-streams/weir/internal/plugins/cache"
	"github.com/weir-streams/weir/internal/plugins/dns/dnstest"
	"github.com/weir-streams/weir/internal/record"
)

// services is a ServiceLookup over a map, standing in for the engine.
type services map[string]component.Service

func (s services) Service(name string) (component.Service, bool) {
	svc, ok := s[name]
	return svc, ok
}

// newFakeClock returns a clock that moves only when told, so entry lives
// are tested without sleeping.
func newFakeClock() *cache.ManualClock {
	return cache.NewManualClock(time.Date(2015, 5, 17, 10, 5, 0, 0, time.UTC))
}

// fixture is a DNS server, a cache on a fake clock and a metrics registry.
type fixture struct {
	t     *testing.T
	dns   *dnstest.Server
	clock *cache.ManualClock
	cache *cache.LRUService
	reg   *prometheus.Registry
	env   component.Env
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	f := &fixture{t: t, dns: dnstest.Start(t), clock: newFakeClock(), reg: prometheus.NewRegistry()}
	m := metrics.New(f.reg)
	f.cache = cache.NewLRUService(component.Env{Name: "lru_cache_service", Metrics: m}, 1000, f.clock.Now)
	t.Cleanup(func() { _ = f.cache.Close(context.Background()) })
	f.env = component.Env{Name: "ip_to_fqdn", Stream: "parsing", Metrics: m,
		Services: services{"lru_cache_service": f.cache}}
	return f
}

// processor builds an IpToFqdn through its spec, as the engine does, with
// the given properties on top of the fixture's defaults.
func (f *fixture) processor(props map[string]string) *IpToFqdn {
	f.t.Helper()
	raw := map[string]string{
		"ip.address.field":    "src_ip",
		"fqdn.field":          "src_fqdn",
		"cache.service":       "lru_cache_service",
		"dns.servers":         f.dns.Addr,
		"resolution.timeout":  "20000", // generous: a slow shared machine must not turn answers into timeouts
		"override.fqdn.field": "true",
	}
	for k, v := range props {
		if strings.HasPrefix(k, "#") {
			continue // a setting of the test, not a property
		}
		if v == "" {
			delete(raw, k)
			continue
		}
		raw[k] = v
	}
	spec := IpToFqdnSpec()
	conf, probs := component.NewConfig(&spec, raw)
	if err := probs.Err(); err != nil {
		f.t.Fatalf("config: %v", err)
	}
	env := f.env
	if n, ok := props["#name"]; ok {
		env.Name = n
	}
	p, err := spec.NewProcessor(conf, env)
	if err != nil {
		f.t.Fatalf("NewProcessor: %v", err)
	}
	return p.(*IpToFqdn)
}

func (f *fixture) metric(name string, labels ...string) float64 {
	f.t.Helper()
	fams, err := f.reg.Gather()
	if err != nil {
		f.t.Fatalf("gather: %v", err)
	}
	for _, fam := range fams {
		if fam.GetName() != name {
			continue
		}
	next:
		for _, m := range fam.GetMetric() {
			got := map[string]string{}
			for _, lp := range m.GetLabel() {
				got[lp.GetName()] = lp.GetValue()
			}
			for i := 0; i+1 < len(labels); i += 2 {
				if got[labels[i]] != labels[i+1] {
					continue next
				}
			}
			switch {
			case m.Counter != nil:
				return m.Counter.GetValue()
			case m.Gauge != nil:
				return m.Gauge.GetValue()
			}
		}
	}
	return 0
}

// batch makes one record per value of src_ip; a nil-free "-" means no
// field at all.
func batch(ips ...string) *component.Batch {
	b := &component.Batch{Topic: "pipeline_raw"}
	for i, ip := range ips {
		r := record.New(fmt.Sprintf("r%d", i), "apache_log", 0)
		if ip != "-" {
			r.SetString("src_ip", ip)
		}
		b.Records = append(b.Records, r)
	}
	return b
}

func process(t *testing.T, p *IpToFqdn, b *component.Batch) {
	t.Helper()
	if err := p.Process(context.Background(), b); err != nil {
		t.Fatalf("Process: %v", err)
	}
}

// fqdns returns the src_fqdn of each record, "" when unset.
func fqdns(b *component.Batch) []string {
	out := make([]string, len(b.Records))
	for i, r := range b.Records {
		out[i], _ = r.GetString("src_fqdn")
	}
	return out
}

func wantFQDNs(t *testing.T, b *component.Batch, want ...string) {
	t.Helper()
	got := fqdns(b)
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("fqdns = %q, want %q", got, want)
	}
}

func TestVerifiedIPv4AndIPv6(t *testing.T) {
	f := newFixture(t)
	f.dns.AddHost("www.example.test", "192.0.2.10", "2001:db8::10")
	f.dns.AddHost("Mixed.Case.example.test", "192.0.2.11")
	p := f.processor(nil)

	b := batch("192.0.2.10", "2001:db8::10", "2001:0db8:0:0::10", "192.0.2.11", "::ffff:192.0.2.10")
	process(t, p, b)
	wantFQDNs(t, b, "www.example.test", "www.example.test", "www.example.test", "Mixed.Case.example.test", "www.example.test")
	for _, r := range b.Records {
		if r.HasErrors() {
			t.Fatalf("record %s has errors: %v", r.ID, r.Errors())
		}
	}
	// Each address family is checked against its own record type.
	if n := f.dns.Queries("A", "www.example.test"); n < 1 {
		t.Errorf("A queries for www.example.test = %d, want at least 1", n)
	}
	if n := f.dns.Queries("AAAA", "www.example.test"); n < 1 {
		t.Errorf("AAAA queries for www.example.test = %d, want at least 1", n)
	}
	if got := f.metric("weir_ip_to_fqdn_records_total", "outcome", "fqdn_set"); got != 5 {
		t.Errorf("records fqdn_set = %v, want 5", got)
	}
}

func TestSpoofedAndUnverifiedNames(t *testing.T) {
	f := newFixture(t)
	// 192.0.2.20 claims to be bank.example.test, whose A record is another
	// address: the name must not be used.
	f.dns.AddPTR("192.0.2.20", "bank.example.test")
	f.dns.AddForward("bank.example.test", "198.51.100.1")
	// 192.0.2.21 points to a name that does not exist forward.
	f.dns.AddPTR("192.0.2.21", "ghost.example.test")
	// 2001:db8::21 points to a name that has only an IPv4 address.
	f.dns.AddPTR("2001:db8::21", "v4only.example.test")
	f.dns.AddForward("v4only.example.test", "192.0.2.99")
	// 192.0.2.22 has two names; the second one verifies.
	f.dns.AddPTR("192.0.2.22", "alias.example.test")
	f.dns.AddForward("alias.example.test", "198.51.100.2")
	f.dns.AddHost("real.example.test", "192.0.2.22")
	p := f.processor(nil)

	b := batch("192.0.2.20", "192.0.2.21", "2001:db8::21", "192.0.2.22")
	process(t, p, b)
	wantFQDNs(t, b, "", "", "", "real.example.test")
	for _, r := range b.Records[:3] {
		if ip, _ := r.GetString("src_ip"); r.Has("src_fqdn") {
			t.Errorf("record with %s got an FQDN; the address is never returned as the name", ip)
		}
	}
	if got := f.metric("weir_ip_to_fqdn_lookups_total", "outcome", "unverified"); got != 3 {
		t.Errorf("unverified lookups = %v, want 3", got)
	}
}

func TestNXDOMAINIsCachedAsAnAnswer(t *testing.T) {
	f := newFixture(t)
	p := f.processor(map[string]string{"cache.max.time": "3600", "cache.failure.time": "60"})
	b := batch("192.0.2.30", "192.0.2.30")
	process(t, p, b)
	wantFQDNs(t, b, "", "")
	if n := f.dns.Queries("PTR", "192.0.2.30"); n != 1 {
		t.Fatalf("PTR queries = %d, want 1 (deduplicated within the batch)", n)
	}
	// NXDOMAIN is an answer: it lives cache.max.time, not the failure time.
	f.clock.Advance(10 * time.Minute)
	process(t, p, batch("192.0.2.30"))
	if n := f.dns.Queries("PTR", "192.0.2.30"); n != 1 {
		t.Fatalf("after 10 minutes PTR queries = %d, want still 1 (cached)", n)
	}
	f.clock.Advance(time.Hour)
	process(t, p, batch("192.0.2.30"))
	if n := f.dns.Queries("PTR", "192.0.2.30"); n != 2 {
		t.Fatalf("after the answer's life PTR queries = %d, want 2", n)
	}
	if got := f.metric("weir_ip_to_fqdn_lookups_total", "outcome", "not_found"); got != 2 {
		t.Errorf("not_found lookups = %v, want 2", got)
	}
}

// TestRunsOfOneAddress covers the reuse, within a batch, of the cache's
// answer for the record before: each record of a run of one address, and
// the first after the run, gets its own address's name (or none), and the
// cache is asked once per run, not once per record.
func TestRunsOfOneAddress(t *testing.T) {
	f := newFixture(t)
	f.dns.AddHost("a.example.test", "192.0.2.40")
	f.dns.AddHost("b.example.test", "192.0.2.41")
	p := f.processor(nil)
	// The first batch fills the cache: 192.0.2.42 has no name (NXDOMAIN).
	process(t, p, batch("192.0.2.40", "192.0.2.41", "192.0.2.42"))
	hits := f.metric("weir_cache_hits_total", "component", "lru_cache_service")

	b := batch("192.0.2.40", "192.0.2.40", "192.0.2.41", "192.0.2.40", "192.0.2.40", "not an address",
		"192.0.2.40", "192.0.2.42", "192.0.2.42", "192.0.2.41")
	process(t, p, b)
	wantFQDNs(t, b, "a.example.test", "a.example.test", "b.example.test", "a.example.test", "a.example.test", "",
		"a.example.test", "", "", "b.example.test")
	for _, ip := range []string{"192.0.2.40", "192.0.2.41", "192.0.2.42"} {
		if n := f.dns.Queries("PTR", ip); n != 1 {
			t.Errorf("PTR queries for %s = %d, want 1 (cached)", ip, n)
		}
	}
	// Runs 40 40 | 41 | 40 40 (the bad value between does not end it) 40 |
	// 42 42 | 41: five cache lookups for nine addresses.
	if got := f.metric("weir_cache_hits_total", "component", "lru_cache_service") - hits; got != 5 {
		t.Errorf("cache hits for the batch = %v, want 5", got)
	}
	if got := f.metric("weir_ip_to_fqdn_records_total", "outcome", "fqdn_set"); got != 2+7 {
		t.Errorf("records fqdn_set = %v, want 9", got)
	}
}

func TestSilentServerTimesOutAndIsCachedAsFailure(t *testing.T) {
	f := newFixture(t)
	f.dns.AddHost("www.example.test", "192.0.2.40")
	f.dns.SetSilent(true)
	const timeout = 300 * time.Millisecond
	p := f.processor(map[string]string{
		"resolution.timeout": fmt.Sprint(timeout.Milliseconds()),
		"cache.max.time":     "86400",
		"cache.failure.time": "60",
	})

	// Many records of one address cost one timeout, not one per record.
	b := batch("192.0.2.40", "192.0.2.40", "192.0.2.40", "192.0.2.40")
	start := time.Now()
	process(t, p, b)
	if el := time.Since(start); el < timeout {
		t.Fatalf("Process returned after %v, before the timeout %v could pass", el, timeout)
	}
	wantFQDNs(t, b, "", "", "", "")
	if got := f.metric("weir_ip_to_fqdn_lookups_total", "outcome", "timeout"); got != 1 {
		t.Fatalf("timeout lookups = %v, want 1", got)
	}
	if n := f.dns.Queries("PTR", "192.0.2.40"); n != 1 {
		t.Fatalf("PTR queries = %d, want 1", n)
	}

	// The failure is cached: the next batches do not ask again...
	f.dns.SetSilent(false)
	process(t, p, batch("192.0.2.40"))
	if n := f.dns.Queries("PTR", "192.0.2.40"); n != 1 {
		t.Fatalf("PTR queries after a cached failure = %d, want 1", n)
	}
	// ...until the failure's shorter life ends, and then the answer is had.
	f.clock.Advance(61 * time.Second)
	b = batch("192.0.2.40")
	process(t, p, b)
	wantFQDNs(t, b, "www.example.test")
	if n := f.dns.Queries("PTR", "192.0.2.40"); n != 2 {
		t.Fatalf("PTR queries after the failure's life = %d, want 2", n)
	}
}

func TestServerFailureAndFallbackServer(t *testing.T) {
	f := newFixture(t)
	f.dns.AddHost("www.example.test", "192.0.2.50")
	f.dns.SetRcode("192.0.2.51", mdns.RcodeServerFailure)
	dead := dnstest.Start(t)
	dead.SetSilent(true)

	// The first server never answers; the second one does, within the
	// share of the timeout left for it.
	p := f.processor(map[string]string{"dns.servers": dead.Addr + "," + f.dns.Addr, "resolution.timeout": "4000"})
	b := batch("192.0.2.50", "192.0.2.51")
	process(t, p, b)
	wantFQDNs(t, b, "www.example.test", "")
	if dead.Total() == 0 {
		t.Error("the first server was never asked")
	}
	if got := f.metric("weir_ip_to_fqdn_lookups_total", "outcome", "failed"); got != 1 {
		t.Errorf("failed lookups = %v, want 1 (SERVFAIL)", got)
	}
	if got := f.metric("weir_ip_to_fqdn_lookups_total", "outcome", "resolved"); got != 1 {
		t.Errorf("resolved lookups = %v, want 1", got)
	}
}

func TestCacheExpiry(t *testing.T) {
	f := newFixture(t)
	f.dns.AddHost("www.example.test", "192.0.2.60")
	p := f.processor(map[string]string{"cache.max.time": "3600"})
	process(t, p, batch("192.0.2.60"))
	f.clock.Advance(3599 * time.Second)
	b := batch("192.0.2.60")
	process(t, p, b)
	wantFQDNs(t, b, "www.example.test")
	if n := f.dns.Queries("PTR", "192.0.2.60"); n != 1 {
		t.Fatalf("within the entry's life PTR queries = %d, want 1", n)
	}
	// The name changes in DNS; once the entry expires the new one is used.
	f.dns.AddHost("renamed.example.test", "192.0.2.60")
	f.clock.Advance(2 * time.Second)
	b = batch("192.0.2.60")
	process(t, p, b)
	if n := f.dns.Queries("PTR", "192.0.2.60"); n != 2 {
		t.Fatalf("after expiry PTR queries = %d, want 2", n)
	}
	wantFQDNs(t, b, "www.example.test") // the first PTR still verifies
	if got := f.metric("weir_cache_expirations_total"); got != 1 {
		t.Errorf("cache expirations = %v, want 1", got)
	}

	// cache.max.time 0: answers never expire.
	g := newFixture(t)
	g.dns.AddHost("www.example.test", "192.0.2.61")
	q := g.processor(map[string]string{"cache.max.time": "0"})
	process(t, q, batch("192.0.2.61"))
	g.clock.Advance(10 * 365 * 24 * time.Hour)
	process(t, q, batch("192.0.2.61"))
	if n := g.dns.Queries("PTR", "192.0.2.61"); n != 1 {
		t.Fatalf("with cache.max.time 0 PTR queries = %d, want 1", n)
	}
}

func TestOverride(t *testing.T) {
	f := newFixture(t)
	f.dns.AddHost("www.example.test", "192.0.2.70")

	keep := f.processor(map[string]string{"override.fqdn.field": "false"})
	b := batch("192.0.2.70", "192.0.2.70")
	b.Records[0].SetString("src_fqdn", "already.set")
	process(t, keep, b)
	wantFQDNs(t, b, "already.set", "www.example.test")

	// A record left alone is not looked up at all.
	c := batch("192.0.2.71")
	c.Records[0].SetString("src_fqdn", "already.set")
	process(t, keep, c)
	if n := f.dns.Queries("PTR", "192.0.2.71"); n != 0 {
		t.Fatalf("PTR queries for a record left alone = %d, want 0", n)
	}

	over := f.processor(map[string]string{"overwrite.fqdn.field": "true", "override.fqdn.field": ""})
	b = batch("192.0.2.70")
	b.Records[0].SetString("src_fqdn", "already.set")
	process(t, over, b)
	wantFQDNs(t, b, "www.example.test")

	// The spec's sample writes the name over the address itself.
	inPlace := f.processor(map[string]string{"fqdn.field": "src_ip"})
	b = batch("192.0.2.70", "192.0.2.72")
	process(t, inPlace, b)
	for i, want := range []string{"www.example.test", "192.0.2.72"} {
		if got, _ := b.Records[i].GetString("src_ip"); got != want {
			t.Errorf("record %d: src_ip = %q, want %q", i, got, want)
		}
	}
	if got := f.metric("weir_ip_to_fqdn_records_total", "outcome", "kept_existing"); got != 2 {
		t.Errorf("kept_existing = %v, want 2", got)
	}
}

func TestValuesThatAreNotAddresses(t *testing.T) {
	f := newFixture(t)
	p := f.processor(nil)
	b := batch("not-an-ip", "192.0.2.1:80", "", "-", "999.1.1.1")
	b.Records = append(b.Records, record.New("int", "apache_log", 0))
	b.Records[len(b.Records)-1].Set("src_ip", record.IntValue(42))
	before := make([]int, len(b.Records))
	for i, r := range b.Records {
		before[i] = r.Len()
	}
	process(t, p, b)
	for i, r := range b.Records {
		if r.Len() != before[i] || r.HasErrors() {
			t.Errorf("record %d changed: %d fields (was %d), errors %v", i, r.Len(), before[i], r.Errors())
		}
	}
	if n := f.dns.Total(); n != 0 {
		t.Errorf("DNS queries = %d, want 0", n)
	}
	if got := f.metric("weir_ip_to_fqdn_records_total", "outcome", "invalid_address"); got != 5 {
		t.Errorf("invalid_address = %v, want 5", got)
	}
	if got := f.metric("weir_ip_to_fqdn_records_total", "outcome", "missing_field"); got != 1 {
		t.Errorf("missing_field = %v, want 1", got)
	}
}

func TestSharedCacheAcrossProcessors(t *testing.T) {
	f := newFixture(t)
	f.dns.AddHost("www.example.test", "192.0.2.80")
	first := f.processor(map[string]string{"#name": "enrich_a"})
	f.env.Stream = "other_stream"
	second := f.processor(map[string]string{"#name": "enrich_b", "fqdn.field": "host"})

	process(t, first, batch("192.0.2.80"))
	b := batch("192.0.2.80")
	process(t, second, b)
	if got, _ := b.Records[0].GetString("host"); got != "www.example.test" {
		t.Fatalf("second processor: host = %q, want the name the first one cached", got)
	}
	if n := f.dns.Queries("PTR", "192.0.2.80"); n != 1 {
		t.Fatalf("PTR queries = %d, want 1: the second processor must use the shared cache", n)
	}
	if got := f.metric("weir_cache_hits_total", "component", "lru_cache_service"); got < 1 {
		t.Errorf("cache hits = %v, want at least 1", got)
	}
}

// TestLookupsRunConcurrently proves, without measuring time, that the
// distinct addresses of a batch are resolved at once: the server holds every
// query until eight wait together, which a one-at-a-time resolver would never
// reach. It also checks the bound of resolution.concurrency.
func TestLookupsRunConcurrently(t *testing.T) {
	f := newFixture(t)
	var ips []string
	for i := range 40 {
		ip := fmt.Sprintf("192.0.2.%d", 100+i)
		f.dns.AddHost(fmt.Sprintf("h%d.example.test", i), ip)
		ips = append(ips, ip, ip, ip) // three records per address
	}
	f.dns.HoldUntil(8)
	f.dns.SetDelay(5 * time.Millisecond)
	p := f.processor(map[string]string{"resolution.concurrency": "8"})
	b := batch(ips...)
	process(t, p, b)
	for i, got := range fqdns(b) {
		if want := fmt.Sprintf("h%d.example.test", i/3); got != want {
			t.Fatalf("record %d: fqdn %q, want %q", i, got, want)
		}
	}
	if got := f.metric("weir_ip_to_fqdn_lookups_total", "outcome", "timeout"); got != 0 {
		t.Fatalf("%v lookups timed out: the held queries were not sent together", got)
	}
	if n := f.dns.MaxInFlight(); n > 8 {
		t.Fatalf("the server saw %d queries at once, more than resolution.concurrency 8", n)
	}
	if n := f.dns.Queries("PTR", ""); n != 40 {
		t.Fatalf("PTR queries = %d, want 40 (one per distinct address)", n)
	}
}

// TestPartitionsShareLookups runs batches of several partitions at once
// over the same addresses: each address is still asked once.
func TestPartitionsShareLookups(t *testing.T) {
	f := newFixture(t)
	var ips []string
	for i := range 50 {
		ip := fmt.Sprintf("198.51.100.%d", i+1)
		f.dns.AddHost(fmt.Sprintf("p%d.example.test", i), ip)
		ips = append(ips, ip)
	}
	f.dns.SetDelay(2 * time.Millisecond)
	p := f.processor(nil)
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for part := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b := batch(ips...)
			b.Partition = int32(part)
			if err := p.Process(context.Background(), b); err != nil {
				errs <- err
				return
			}
			for i, got := range fqdns(b) {
				if want := fmt.Sprintf("p%d.example.test", i); got != want {
					errs <- fmt.Errorf("partition %d record %d: fqdn %q, want %q", part, i, got, want)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := f.dns.Queries("PTR", ""); n != 50 {
		t.Fatalf("PTR queries = %d, want 50", n)
	}
}

func TestCancelledBatchIsNotCached(t *testing.T) {
	f := newFixture(t)
	f.dns.AddHost("www.example.test", "192.0.2.90")
	f.dns.HoldUntil(1000) // hold every query until the context ends
	p := f.processor(nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- p.Process(ctx, batch("192.0.2.90")) }()
	// Cancel once the query has reached the server.
	for f.dns.Queries("PTR", "192.0.2.90") == 0 {
		time.Sleep(time.Millisecond)
	}
	cancel()
	err := <-done
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Process = %v, want context.Canceled", err)
	}
	if f.cache.Len() != 0 {
		t.Fatalf("a cancelled lookup was cached (%d entries)", f.cache.Len())
	}
	if got := f.metric("weir_ip_to_fqdn_lookups_total", "outcome", "timeout"); got != 0 {
		t.Fatalf("a cancellation was counted as a timeout")
	}
}

func TestTruncatedAnswerRetriedOverTCP(t *testing.T) {
	srv := dnstest.Start(t)
	var want []string
	for i := range 40 {
		n := fmt.Sprintf("a-rather-long-host-name-number-%02d.with.many.labels.example.test.", i)
		srv.AddPTR("192.0.2.200", n)
		want = append(want, n)
	}
	r, err := NewResolver([]string{srv.Addr})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	addr := mustAddr(t, "192.0.2.200")
	names, err := r.LookupPTR(ctx, addr)
	if err != nil {
		t.Fatalf("LookupPTR: %v", err)
	}
	if strings.Join(names, ",") != strings.Join(want, ",") {
		t.Fatalf("got %d names, want all %d", len(names), len(want))
	}
}

func TestReverseName(t *testing.T) {
	for _, ip := range []string{"192.0.2.1", "10.0.0.255", "2001:db8::567:89ab", "::1"} {
		want, err := mdns.ReverseAddr(ip)
		if err != nil {
			t.Fatal(err)
		}
		if got := reverseName(mustAddr(t, ip)); got != want {
			t.Errorf("reverseName(%s) = %q, want %q", ip, got, want)
		}
	}
}

func TestSystemServers(t *testing.T) {
	path := t.TempDir() + "/resolv.conf"
	writeFile(t, path, "# comment\nsearch example.test\nnameserver 192.0.2.53\nnameserver 2001:db8::53\noptions ndots:2\n")
	got, err := SystemServers(path)
	if err != nil {
		t.Fatalf("SystemServers: %v", err)
	}
	if want := "192.0.2.53:53,[2001:db8::53]:53"; strings.Join(got, ",") != want {
		t.Fatalf("SystemServers = %v, want %s", got, want)
	}
	writeFile(t, path, "search example.test\n")
	if _, err := SystemServers(path); err == nil {
		t.Fatal("a resolv.conf without nameserver must be an error")
	}
}

// TestValidation checks the keys at validation time: the required keys, the
// alias of override, and cache.service refused when it names no service or
// a service that is not a cache.
func TestValidation(t *testing.T) {
	reg := component.NewRegistry()
	reg.Register(IpToFqdnSpec())
	reg.Register(cache.LRUSpec())
	reg.Register(component.ServiceSpec(component.Spec{Name: "pkg.service.docdb.Fake", Provides: "datastore"},
		func(context.Context, *struct{}, component.Env) (component.Service, error) { return nil, nil }))
	svcSpecs := map[string]*component.Spec{}
	svcSpecs["lru_cache_service"], _ = reg.Lookup(cache.LRUServiceName)
	svcSpecs["datastore_service"], _ = reg.Lookup("pkg.service.docdb.Fake")

	props := func(kv ...string) []dataflow.Property {
		var out []dataflow.Property
		for i := 0; i+1 < len(kv); i += 2 {
			out = append(out, dataflow.Property{Key: kv[i], Value: kv[i+1]})
		}
		return out
	}
	base := []string{"ip.address.field", "src_ip", "fqdn.field", "src_ip"}
	for _, tc := range []struct {
		name string
		kv   []string
		want string // substring of the problems; "" means valid
	}{
		{"valid", append(base, "cache.service", "lru_cache_service", "override.fqdn.field", "true"), ""},
		{"alias", append(base, "cache.service", "lru_cache_service", "overwrite.fqdn.field", "true"), ""},
		{"both spellings", append(base, "cache.service", "lru_cache_service", "overwrite.fqdn.field", "true", "override.fqdn.field", "true"), "also given"},
		{"no cache", base, `missing required property "cache.service"`},
		{"unknown cache", append(base, "cache.service", "lru_cache"), "not defined"},
		{"not a cache", append(base, "cache.service", "datastore_service"), `does not provide "cache"`},
		{"bad servers", append(base, "cache.service", "lru_cache_service", "dns.servers", "8.8.8.8"), "dns.servers"},
		{"bad timeout", append(base, "cache.service", "lru_cache_service", "resolution.timeout", "0"), "resolution.timeout"},
		{"negative max time", append(base, "cache.service", "lru_cache_service", "cache.max.time", "-1"), "cache.max.time"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &dataflow.Stream{Component: dataflow.Component{Name: "parsing"}}
			s.Pipeline.Processors = []dataflow.Component{{Name: "ip_to_fqdn", Component: IpToFqdnName, Config: props(tc.kv...)}}
			_, probs := dataflow.CheckPipeline(s, reg, svcSpecs)
			switch {
			case tc.want == "" && len(probs) > 0:
				t.Fatalf("want valid, got %v", probs)
			case tc.want != "" && !strings.Contains(fmt.Sprint(probs.Err()), tc.want):
				t.Fatalf("want a problem containing %q, got %v", tc.want, probs.Err())
			}
		})
	}
}

func mustAddr(t *testing.T, s string) netip.Addr {
	t.Helper()
	a, err := netip.ParseAddr(s)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
