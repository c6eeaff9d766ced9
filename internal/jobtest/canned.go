package jobtest

// Canned services stand in for the controller services that reach the
// network (a DNS server through IpToFqdn's cache, a MongoDB database, a
// search index). A `weir test` run is a test of the chain: what the
// processors make of the records. It must give the same answer on a
// laptop, in CI and offline, so it cannot depend on what a live DNS server
// or database holds today. The stand-ins are substituted where the engine
// would build the real service: the processors are built and run unchanged,
// find their service by name, and see only the service interface they
// already use (cache.KeyValue, component.Datastore, searchindex.Indexer).

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/plugins/cache"
	"github.com/weir-streams/weir/internal/plugins/dns"
	"github.com/weir-streams/weir/internal/plugins/searchindex"
	"github.com/weir-streams/weir/internal/record"
)

// cannedCache is a cache service whose reverse-DNS entries come from the
// test file. Every address IpToFqdn looks up is answered from the table,
// and an address not in it has no name, so no lookup ever reaches DNS.
// Entries of other users of the cache (IpToGeo...) go to a real LRU.
type cannedCache struct {
	answers map[string]string
	lru     *cache.LRUService
}

func newCannedCache(c *Canned, env component.Env) *cannedCache {
	return &cannedCache{answers: c.ReverseDNS, lru: cache.NewLRUService(env, cache.DefaultSize, nil)}
}

// Get implements cache.KeyValue.
func (c *cannedCache) Get(key cache.Key) (any, bool) {
	if key.Space == dns.CacheSpace {
		return dns.CannedAnswer(c.answers[key.Name]), true
	}
	return c.lru.Get(key)
}

// Set implements cache.KeyValue. Reverse-DNS entries are the table's; the
// others are kept.
func (c *cannedCache) Set(key cache.Key, value any, ttl time.Duration) {
	if key.Space == dns.CacheSpace {
		return
	}
	c.lru.Set(key, value, ttl)
}

// Close implements component.Service.
func (c *cannedCache) Close(ctx context.Context) error { return c.lru.Close(ctx) }

// cannedStore is a datastore (document database or search index) that
// accepts every record but those a refuse rule matches, which it refuses
// for good with the rule's reason, as a database refuses a document.
type cannedStore struct {
	rules  []RefuseRule
	stored atomic.Int64
}

var (
	_ component.Datastore = (*cannedStore)(nil)
	_ searchindex.Indexer = (*cannedStore)(nil)
	_ cache.KeyValue      = (*cannedCache)(nil)
)

// Put implements component.Datastore.
func (s *cannedStore) Put(_ context.Context, recs []*record.Record) (component.Completion, error) {
	var refused []*record.Record
	for _, r := range recs {
		if reason, ok := s.refuses(r); ok {
			c := r.Clone()
			c.AddError(record.ErrDatastoreWrite, reason)
			refused = append(refused, c)
			continue
		}
		s.stored.Add(1)
	}
	return done(refused), nil
}

// Index implements searchindex.Indexer: the same rules as Put, whatever
// the index.
func (s *cannedStore) Index(ctx context.Context, recs []*record.Record, _ searchindex.Target) (component.Completion, error) {
	return s.Put(ctx, recs)
}

func (s *cannedStore) refuses(r *record.Record) (string, bool) {
	for _, rule := range s.rules {
		if ok, err := rule.When.EvalBool(r); err == nil && ok {
			return rule.Reason, true
		}
	}
	return "", false
}

// Close implements component.Service.
func (s *cannedStore) Close(context.Context) error { return nil }

// done is a Completion that is already acknowledged.
type done []*record.Record

func (d done) Wait(context.Context) ([]*record.Record, error) { return d, nil }
