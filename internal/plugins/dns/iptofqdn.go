// Package dns holds the reverse-DNS enrichment processor
// pkg.processor.enrichment.IpToFqdn and the small DNS resolver it uses.
//
// IpToFqdn turns an IP address field into the address's fully qualified
// domain name, and only a verified one: the name found by the PTR lookup is
// resolved forward and used only if one of its addresses is the original
// address. Answers and failures are kept in a shared cache service, and the
// lookups of a batch run concurrently, so the stream pays about one lookup
// per batch and per address, not one per record.
package dns

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/netip"
	"strings"
	"sync"
	"time"

	mdns "github.com/miekg/dns"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/metrics"
	"github.com/weir-streams/weir/internal/plugins/cache"
	"github.com/weir-streams/weir/internal/record"
)

// IpToFqdnName is the component identifier.
const IpToFqdnName = "pkg.processor.enrichment.IpToFqdn"

// CacheSpace is the cache.Key space of IpToFqdn's entries: every IpToFqdn
// that names the same cache service shares them.
const CacheSpace = "ip_to_fqdn"

// ResolvConf is where the system's DNS servers are read when dns.servers is
// not set.
const ResolvConf = "/etc/resolv.conf"

// maxNames bounds how many PTR names of one address are checked forward, so
// that an address with a huge PTR set cannot cost many lookups.
const maxNames = 4

// IpToFqdn's keys.
const (
	KeyIPField          = "ip.address.field"
	KeyFQDNField        = "fqdn.field"
	KeyOverride         = "override.fqdn.field"
	KeyCacheService     = "cache.service"
	KeyCacheMaxTime     = "cache.max.time"
	KeyCacheFailureTime = "cache.failure.time"
	KeyTimeout          = "resolution.timeout"
	KeyConcurrency      = "resolution.concurrency"
	KeyServers          = "dns.servers"
)

// IpToFqdnSpec declares IpToFqdn.
func IpToFqdnSpec() component.Spec {
	return component.ProcessorSpec(component.Spec{
		Name: IpToFqdnName,
		Summary: "Resolves the IP address (IPv4 or IPv6) of a field to its fully qualified domain name by reverse DNS, " +
			"verified by a forward lookup (anti-spoofing): a name is used only if it resolves back to the same address. " +
			"Answers and failures are cached in a cache service; the lookups of a batch run concurrently.",
		Properties: []component.Property{
			{Key: KeyIPField, Description: "Field holding the IP address to resolve.", Required: true, Example: "src_ip", Validator: component.NonEmpty},
			{Key: KeyFQDNField, Description: "Field receiving the FQDN (may be the address field itself). Nothing is written when no verified name is found.", Required: true, Example: "src_fqdn", Validator: component.NonEmpty},
			{Key: KeyOverride, Aliases: []string{"overwrite.fqdn.field"},
				Description: "When true, an existing value in fqdn.field is overwritten; when false, a record that already has the field is left alone (and not looked up).",
				Default:     "false", Validator: component.Bool},
			{Key: KeyCacheService, Description: "Name of the cache service (LRUKeyValueCacheService) that keeps answers and failures.", Required: true,
				Example: "cache", Validator: component.NonEmpty, ServiceRef: cache.Capability},
			{Key: KeyCacheMaxTime, Description: "Seconds an answer (a verified name, no name, or an unverified name) lives in the cache; 0 means until evicted.",
				Default: "86400", Validator: component.IntRange(0, 10*365*86400)},
			{Key: KeyCacheFailureTime, Description: "Seconds a failure (timeout, server failure, no server reachable) lives in the cache, capped by cache.max.time when that is not 0. Kept short so that an outage is retried soon, long enough that a dead server is not asked on every record.",
				Default: "60", Validator: component.IntRange(1, 10*365*86400)},
			{Key: KeyTimeout, Description: "Milliseconds allowed for resolving one address: the PTR lookup and the forward check together, across every server.",
				Default: "1000", Validator: component.IntRange(1, 600000)},
			{Key: KeyConcurrency, Description: "Maximum number of addresses resolved at once by this processor, across all partitions.",
				Default: "64", Validator: component.IntRange(1, 4096)},
			{Key: KeyServers, Description: "Comma-separated host:port list of the DNS servers to ask, in order. Default: the nameservers of " + ResolvConf + ".",
				Example: "127.0.0.1:53", Validator: component.HostPortList},
		},
	}, newIpToFqdn)
}

// IpToFqdnConfig is IpToFqdn's configuration.
type IpToFqdnConfig struct {
	IPField      string `key:"ip.address.field"`
	FQDNField    string `key:"fqdn.field"`
	Override     bool   `key:"override.fqdn.field"`
	CacheService string `key:"cache.service"`
	// CacheMaxSeconds and CacheFailureSeconds are seconds, as LogIsland's
	// keys are.
	CacheMaxSeconds     int64         `key:"cache.max.time"`
	CacheFailureSeconds int64         `key:"cache.failure.time"`
	Timeout             time.Duration `key:"resolution.timeout"`
	Concurrency         int           `key:"resolution.concurrency"`
	Servers             []string      `key:"dns.servers"`
}

// outcome is what resolving one address gave.
type outcome uint8

const (
	resolved   outcome = iota // a verified name
	notFound                  // no PTR record (NXDOMAIN or empty answer)
	unverified                // names found, none resolves back to the address
	failed                    // server failure, unreachable server, bad answer
	timedOut                  // no answer within resolution.timeout
	numOutcomes
)

var outcomeNames = [numOutcomes]string{"resolved", "not_found", "unverified", "failed", "timeout"}

// isFailure reports whether the outcome is a failure rather than an answer;
// failures live in the cache for cache.failure.time.
func (o outcome) isFailure() bool { return o == failed || o == timedOut }

// entry is the cached result of an address. It is immutable once stored.
type entry struct {
	fqdn    string // without the trailing dot; empty unless resolved
	outcome outcome
}

// Per-record outcomes counted in ip_to_fqdn_records_total.
const (
	recSet          = iota // the FQDN was written
	recNoFQDN              // looked up (or found in the cache) without a verified name
	recKept                // fqdn.field existed and override is false
	recInvalid             // the value is not an IP address
	recMissingField        // the record has no ip.address.field
	numRecOutcomes
)

var recOutcomeNames = [numRecOutcomes]string{"fqdn_set", "no_fqdn", "kept_existing", "invalid_address", "missing_field"}

// IpToFqdn is the processor. It is safe for concurrent use: the cache and
// the resolver are, and the in-flight table is guarded by mu.
type IpToFqdn struct {
	ipField     string
	fqdnField   string
	override    bool
	maxTime     time.Duration
	failureTime time.Duration
	timeout     time.Duration

	cache    cache.KeyValue
	resolver *Resolver
	log      *slog.Logger
	// sem bounds the lookups in flight across every partition.
	sem chan struct{}

	mu       sync.Mutex
	inflight map[string]*call

	records  [numRecOutcomes]prometheus.Counter
	lookups  [numOutcomes]prometheus.Counter
	duration prometheus.Observer
	inFlight prometheus.Gauge
}

// call is one resolution in flight, which concurrent batches (of other
// partitions) that need the same address wait for instead of asking again.
type call struct {
	done chan struct{}
	e    entry
	ok   bool // false: the resolving batch was cancelled; ask again
}

func newIpToFqdn(c *IpToFqdnConfig, env component.Env) (component.Processor, error) {
	kv, err := component.ServiceFor[cache.KeyValue](env, KeyCacheService, c.CacheService, "a key/value cache")
	if err != nil {
		return nil, err
	}
	return New(Options{
		IPField:     c.IPField,
		FQDNField:   c.FQDNField,
		Override:    c.Override,
		MaxTime:     time.Duration(c.CacheMaxSeconds) * time.Second,
		FailureTime: time.Duration(c.CacheFailureSeconds) * time.Second,
		Timeout:     c.Timeout,
		Concurrency: c.Concurrency,
		Servers:     c.Servers,
	}, kv, env)
}

// Options configure an IpToFqdn built with New; they mirror the properties.
type Options struct {
	IPField, FQDNField string
	Override           bool
	MaxTime            time.Duration // 0: answers live until evicted
	FailureTime        time.Duration // capped by MaxTime when MaxTime > 0
	Timeout            time.Duration // per address
	Concurrency        int
	Servers            []string // empty: the system's resolvers
}

// New builds an IpToFqdn on a cache. It is what the spec's constructor
// calls, and what tests and benchmarks use.
func New(o Options, kv cache.KeyValue, env component.Env) (*IpToFqdn, error) {
	log := env.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if o.IPField == "" || o.FQDNField == "" {
		return nil, errors.New("ip.address.field and fqdn.field must be set")
	}
	if o.Timeout <= 0 {
		o.Timeout = time.Second
	}
	if o.Concurrency <= 0 {
		o.Concurrency = 64
	}
	if o.FailureTime <= 0 {
		o.FailureTime = time.Minute
	}
	if o.MaxTime > 0 && o.FailureTime > o.MaxTime {
		o.FailureTime = o.MaxTime
	}
	servers := o.Servers
	if len(servers) == 0 {
		var err error
		if servers, err = SystemServers(ResolvConf); err != nil {
			// Go's own resolver falls back the same way.
			servers = []string{"127.0.0.1:53", "[::1]:53"}
			log.Warn("no system DNS servers, asking localhost", "error", err, "servers", servers)
		}
	}
	res, err := NewResolver(servers)
	if err != nil {
		return nil, fmt.Errorf("ip to fqdn: %w", err)
	}
	p := &IpToFqdn{
		ipField:     o.IPField,
		fqdnField:   o.FQDNField,
		override:    o.Override,
		maxTime:     o.MaxTime,
		failureTime: o.FailureTime,
		timeout:     o.Timeout,
		cache:       kv,
		resolver:    res,
		log:         log,
		sem:         make(chan struct{}, o.Concurrency),
		inflight:    make(map[string]*call),
	}
	p.initMetrics(env)
	log.Debug("ip to fqdn ready", "servers", servers, "timeout", o.Timeout, "concurrency", o.Concurrency,
		"cache_max_time", o.MaxTime, "cache_failure_time", o.FailureTime)
	return p, nil
}

func (p *IpToFqdn) initMetrics(env component.Env) {
	m := env.Meters()
	labels := env.MetricLabels()
	withOutcome := append(append([]string(nil), metrics.ComponentLabels...), "outcome")
	rec := m.CounterVec("ip_to_fqdn_records_total", "Records seen by IpToFqdn, by outcome.", withOutcome...)
	for i, n := range recOutcomeNames {
		p.records[i] = rec.WithLabelValues(append(append([]string(nil), labels...), n)...)
	}
	lk := m.CounterVec("ip_to_fqdn_lookups_total", "Addresses resolved by DNS (cache misses), by outcome.", withOutcome...)
	for i, n := range outcomeNames {
		p.lookups[i] = lk.WithLabelValues(append(append([]string(nil), labels...), n)...)
	}
	p.duration = m.HistogramVec("ip_to_fqdn_lookup_seconds", "Time to resolve and verify one address by DNS.",
		[]float64{.0005, .001, .002, .005, .01, .02, .05, .1, .2, .5, 1, 2, 5}, metrics.ComponentLabels...).WithLabelValues(labels...)
	p.inFlight = m.GaugeVec("ip_to_fqdn_lookups_in_flight", "Addresses being resolved by DNS now.", metrics.ComponentLabels...).WithLabelValues(labels...)
}

// pending is an address of the batch missing from the cache, with the
// records that wait for it.
type pending struct {
	key  string
	addr netip.Addr
	recs []*record.Record
	e    entry
	ok   bool
}

// Process sets fqdn.field on the records whose address has a verified name.
// Cached addresses are applied at once; the others are resolved
// concurrently (each distinct address once) and then applied. Only a done
// ctx fails the batch.
func (p *IpToFqdn) Process(ctx context.Context, b *component.Batch) error {
	var counts [numRecOutcomes]int
	defer func() {
		for i, n := range counts {
			if n > 0 {
				p.records[i].Add(float64(n))
			}
		}
	}()

	var misses map[string]*pending
	var order []*pending // keeps lookups in record order, for fair progress
	// last is the address of the last record answered from the cache in
	// this batch, and lastE its entry. Consecutive lines of an access log
	// often come from the same client (57 % of the lines of testdata's real
	// log have the address of the line before), and a partition's batch
	// keeps their order: a string comparison then answers what the cache
	// would, without hashing the key, taking the cache's lock and reading
	// the clock for the entry's expiry.
	var last string
	var lastE entry
	haveLast := false
	for _, r := range b.Records {
		if !p.override && r.Has(p.fqdnField) {
			counts[recKept]++
			continue
		}
		s, ok := r.GetString(p.ipField)
		if !ok {
			counts[recMissingField]++
			continue
		}
		if haveLast && s == last {
			counts[p.apply(r, lastE)]++
			continue
		}
		if pe := misses[s]; pe != nil {
			pe.recs = append(pe.recs, r)
			continue
		}
		// Parse before asking the cache, so that values that are not
		// addresses are counted as such and not as cache misses.
		addr, err := netip.ParseAddr(s)
		if err != nil {
			counts[recInvalid]++
			continue
		}
		if e, ok := p.cached(s); ok {
			last, lastE, haveLast = s, e, true
			counts[p.apply(r, e)]++
			continue
		}
		if misses == nil {
			misses = make(map[string]*pending)
		}
		pe := &pending{key: s, addr: addr.WithZone("").Unmap(), recs: []*record.Record{r}}
		misses[s] = pe
		order = append(order, pe)
	}
	if len(order) == 0 {
		return nil
	}

	var wg sync.WaitGroup
	for _, pe := range order {
		acquired := false
		select {
		case p.sem <- struct{}{}:
			acquired = true
		case <-ctx.Done():
		}
		if !acquired {
			break
		}
		// A slot taken in the same instant ctx ended is still handed to a
		// goroutine, which finds ctx done and gives the slot back.
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-p.sem }()
			pe.e, pe.ok = p.lookup(ctx, pe.key, pe.addr)
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("ip to fqdn: batch abandoned: %w", err)
	}
	for _, pe := range order {
		for _, r := range pe.recs {
			counts[p.apply(r, pe.e)]++
		}
	}
	return nil
}

// apply writes the FQDN of e to r, if there is one, and returns the
// record's outcome. The address is never written as the name.
func (p *IpToFqdn) apply(r *record.Record, e entry) int {
	if e.outcome != resolved {
		return recNoFQDN
	}
	r.SetString(p.fqdnField, e.fqdn)
	return recSet
}

// cached returns the cache entry of an address. A value of another type
// under our key space is treated as absent.
func (p *IpToFqdn) cached(key string) (entry, bool) {
	v, ok := p.cache.Get(cache.Key{Space: CacheSpace, Name: key})
	if !ok {
		return entry{}, false
	}
	e, ok := v.(entry)
	return e, ok
}

// lookup resolves an address once for every concurrent caller, stores the
// result in the cache and returns it. ok is false only when ctx is done
// before a result was had.
func (p *IpToFqdn) lookup(ctx context.Context, key string, addr netip.Addr) (entry, bool) {
	for {
		p.mu.Lock()
		if c := p.inflight[key]; c != nil {
			p.mu.Unlock()
			select {
			case <-c.done:
				if c.ok {
					return c.e, true
				}
				// The batch that was resolving it was cancelled; this one
				// is not, so it resolves the address itself.
				continue
			case <-ctx.Done():
				return entry{}, false
			}
		}
		// Another partition may have resolved the address since this batch
		// missed it in the cache. Its leader stores the entry before it
		// leaves the in-flight table, so looking again under mu cannot miss
		// it, and each address is asked once per cache life.
		if e, ok := p.cached(key); ok {
			p.mu.Unlock()
			return e, true
		}
		c := &call{done: make(chan struct{})}
		p.inflight[key] = c
		p.mu.Unlock()

		c.e, c.ok = p.resolve(ctx, addr)
		if c.ok {
			ttl := p.maxTime
			if c.e.outcome.isFailure() {
				ttl = p.failureTime
			}
			p.cache.Set(cache.Key{Space: CacheSpace, Name: key}, c.e, ttl)
		}
		p.mu.Lock()
		delete(p.inflight, key)
		p.mu.Unlock()
		close(c.done)
		return c.e, c.ok
	}
}

// resolve asks DNS for the verified name of addr within resolution.timeout.
// ok is false when ctx (not the timeout) ended the lookup: such a result
// says nothing about the address and is not cached.
func (p *IpToFqdn) resolve(ctx context.Context, addr netip.Addr) (e entry, ok bool) {
	p.inFlight.Inc()
	start := time.Now()
	lctx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	e, err := p.verifiedName(lctx, addr)
	p.inFlight.Dec()
	if ctx.Err() != nil {
		return entry{}, false
	}
	// The socket's read deadline may fire a moment before the context's
	// timer, so the clock, not lctx.Err, tells whether the time ran out.
	if dl, _ := lctx.Deadline(); err != nil && !time.Now().Before(dl) {
		e.outcome = timedOut
	}
	p.duration.Observe(time.Since(start).Seconds())
	p.lookups[e.outcome].Inc()
	if e.outcome.isFailure() {
		p.log.Debug("reverse lookup failed", "address", addr, "outcome", outcomeNames[e.outcome], "error", err)
	}
	return e, true
}

// verifiedName looks up the PTR names of addr and returns the first whose
// forward records hold addr. Only records of the address's own family are
// asked for (A for IPv4, AAAA for IPv6): an address of the other family can
// never equal it. The error, when not nil, explains a failure outcome.
func (p *IpToFqdn) verifiedName(ctx context.Context, addr netip.Addr) (entry, error) {
	names, err := p.resolver.LookupPTR(ctx, addr)
	switch {
	case errors.Is(err, ErrNotFound):
		return entry{outcome: notFound}, nil
	case err != nil:
		return entry{outcome: failed}, err
	}
	qtype := mdns.TypeA
	if addr.Is6() {
		qtype = mdns.TypeAAAA
	}
	var failure error
	for i, name := range names {
		if i == maxNames {
			break
		}
		addrs, err := p.resolver.LookupAddrs(ctx, name, qtype)
		if err != nil {
			if !errors.Is(err, ErrNotFound) && failure == nil {
				failure = err
			}
			continue
		}
		for _, a := range addrs {
			if a == addr {
				return entry{fqdn: strings.TrimSuffix(name, "."), outcome: resolved}, nil
			}
		}
	}
	if failure != nil {
		// A name could not be checked: we do not know whether it would
		// have verified, so this is a failure (retried sooner), not an
		// unverified answer.
		return entry{outcome: failed}, failure
	}
	return entry{outcome: unverified}, nil
}

var _ component.Processor = (*IpToFqdn)(nil)
