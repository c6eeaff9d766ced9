package cache

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/metrics"
)

// LRUServiceName is the component identifier of the LRU cache service.
const LRUServiceName = "pkg.service.cache.LRUKeyValueCacheService"

// Capability is what cache services provide (component.Spec.Provides);
// processor properties that name a cache service declare it as their
// ServiceRef, so validation refuses a name that is not a cache.
const Capability = "cache"

// DefaultSize is the default of cache.size.
const DefaultSize = 16384

// MaxSize bounds cache.size so that a typo cannot ask for an absurd amount
// of memory (each entry costs roughly 100 bytes plus its key and value).
const MaxSize = 1 << 26

// Key names an entry. Space separates the users of one shared cache: a
// processor kind uses a space of its own (IpToFqdn uses "ip_to_fqdn"), so
// keys of different kinds never collide, while processors of the same kind
// share entries.
type Key struct {
	Space string
	Name  string
}

// KeyValue is the interface processors use to reach a cache service. Find
// the service with env.Services.Service(name) and assert this interface.
//
// Implementations are safe for concurrent use. Values are shared, not
// copied: store immutable values.
type KeyValue interface {
	// Get returns the live value of key, if any.
	Get(key Key) (value any, ok bool)
	// Set stores value under key. A positive ttl bounds the entry's life; 0
	// means it lives until evicted.
	Set(key Key, value any, ttl time.Duration)
}

// LRUKeyValueCacheService's key.
const (
	KeySize = "cache.size"
)

// LRUSpec declares LRUKeyValueCacheService.
func LRUSpec() component.Spec {
	return component.ServiceSpec(component.Spec{
		Name: LRUServiceName,
		Summary: "A bounded least-recently-used key/value cache, shared by every processor (in any stream) that names it. " +
			"Entries may carry a life of their own. Hits, misses, expirations and evictions are exported as metrics.",
		Provides: Capability,
		Properties: []component.Property{
			{Key: KeySize, Description: "Maximum number of entries; when full, the least recently used entry is evicted.",
				Default: fmt.Sprint(DefaultSize), Validator: component.IntRange(1, MaxSize)},
		},
	}, newLRUService)
}

// LRUConfig is LRUKeyValueCacheService's configuration.
type LRUConfig struct {
	Size int `key:"cache.size"`
}

func newLRUService(_ context.Context, conf *LRUConfig, env component.Env) (component.Service, error) {
	return NewLRUService(env, conf.Size, nil), nil
}

// LRUService is the running LRUKeyValueCacheService. It implements KeyValue
// and component.Service.
type LRUService struct {
	lru       *LRU[Key, any]
	hits      prometheus.Counter
	misses    prometheus.Counter
	expired   prometheus.Counter
	evictions prometheus.Counter
	entries   prometheus.Gauge
}

// NewLRUService returns a cache of size entries that reports to env.Metrics
// (which may be nil, for tests) under env's labels. now is the clock used for
// expiry; nil means time.Now. Tests use it to expire entries without
// sleeping.
func NewLRUService(env component.Env, size int, now func() time.Time) *LRUService {
	s := &LRUService{lru: NewLRU[Key, any](size, now)}
	m := env.Meters()
	labels := env.MetricLabels()
	s.hits = m.CounterVec("cache_hits_total", "Cache lookups that found a live entry.", metrics.ComponentLabels...).WithLabelValues(labels...)
	s.misses = m.CounterVec("cache_misses_total", "Cache lookups that found no live entry (expired entries included).", metrics.ComponentLabels...).WithLabelValues(labels...)
	s.expired = m.CounterVec("cache_expirations_total", "Entries found past their life by a lookup and removed.", metrics.ComponentLabels...).WithLabelValues(labels...)
	s.evictions = m.CounterVec("cache_evictions_total", "Entries evicted to make room for new ones.", metrics.ComponentLabels...).WithLabelValues(labels...)
	// The gauge moves by deltas rather than being set: during a dataflow
	// swap the new service runs beside the old one under the same labels,
	// and each must account only for its own entries.
	s.entries = m.GaugeVec("cache_entries", "Entries held by the cache.", metrics.ComponentLabels...).WithLabelValues(labels...)
	return s
}

// Get implements KeyValue.
func (s *LRUService) Get(key Key) (any, bool) {
	v, res := s.lru.Get(key)
	switch res {
	case Hit:
		s.hits.Inc()
		return v, true
	case Expired:
		s.expired.Inc()
		s.entries.Dec()
	}
	s.misses.Inc()
	return nil, false
}

// Set implements KeyValue. The key's strings are copied: processors key the
// cache by field values, and a field value of a parsed line is a substring
// of the fetched Kafka batch it came from (the stream does not copy lines),
// so a cached key that shared its bytes would keep that whole batch, about
// a megabyte, alive for as long as the entry lives.
func (s *LRUService) Set(key Key, value any, ttl time.Duration) {
	key.Space, key.Name = strings.Clone(key.Space), strings.Clone(key.Name)
	switch s.lru.Set(key, value, ttl) {
	case Inserted:
		s.entries.Inc()
	case Evicted:
		s.evictions.Inc()
	}
}

// Len returns the number of entries.
func (s *LRUService) Len() int { return s.lru.Len() }

// Close drops every entry. The engine closes a service only after every
// stream that uses it has stopped.
func (s *LRUService) Close(context.Context) error {
	s.entries.Sub(float64(s.lru.Clear()))
	return nil
}

var (
	_ KeyValue          = (*LRUService)(nil)
	_ component.Service = (*LRUService)(nil)
)
