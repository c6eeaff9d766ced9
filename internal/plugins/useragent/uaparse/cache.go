package uaparse

import (
	"hash/maphash"
	"sync"
)

// lruCache is a sharded least-recently-used cache of analysis results. Real
// traffic repeats a small set of user agents, so most lookups hit; sharding
// by a hash of the key keeps concurrent callers from queueing on one lock.
// Each shard is a classic map plus intrusive doubly linked list, so a hit is
// one map lookup and two pointer swaps under an uncontended mutex.
type lruCache struct {
	seed   maphash.Seed
	shards []lruShard
	mask   uint64
}

type lruShard struct {
	mu    sync.Mutex
	items map[string]*lruNode
	head  lruNode // sentinel: head.next is the most recent, head.prev the least
	cap   int
	_     [40]byte // keeps neighbouring shards' locks on separate cache lines
}

type lruNode struct {
	key        string
	val        Result
	prev, next *lruNode
}

// newLRUCache returns a cache holding about size entries in total, or nil
// when size is not positive (caching off).
func newLRUCache(size int) *lruCache {
	if size <= 0 {
		return nil
	}
	// Small caches get few shards so that each shard still holds a useful
	// number of entries; large ones get up to 64 shards.
	n := 1
	for n < 64 && size/(n*2) >= 64 {
		n *= 2
	}
	c := &lruCache{seed: maphash.MakeSeed(), shards: make([]lruShard, n), mask: uint64(n - 1)}
	per := (size + n - 1) / n
	for i := range c.shards {
		s := &c.shards[i]
		s.cap = per
		s.items = make(map[string]*lruNode, min(per, 4096))
		s.head.next = &s.head
		s.head.prev = &s.head
	}
	return c
}

func (c *lruCache) shard(key string) *lruShard {
	return &c.shards[maphash.String(c.seed, key)&c.mask]
}

func (c *lruCache) get(key string) (Result, bool) {
	s := c.shard(key)
	s.mu.Lock()
	n, ok := s.items[key]
	if !ok {
		s.mu.Unlock()
		return Result{}, false
	}
	if s.head.next != n {
		n.unlink()
		s.pushFront(n)
	}
	v := n.val
	s.mu.Unlock()
	return v, true
}

func (c *lruCache) put(key string, val Result) {
	s := c.shard(key)
	s.mu.Lock()
	defer s.mu.Unlock()
	if n, ok := s.items[key]; ok {
		// Another goroutine analysed the same string concurrently; both
		// results are equal, keep the existing node and refresh it.
		n.unlink()
		s.pushFront(n)
		return
	}
	var n *lruNode
	if len(s.items) >= s.cap {
		// Reuse the least recently used node instead of allocating.
		n = s.head.prev
		n.unlink()
		delete(s.items, n.key)
	} else {
		n = new(lruNode)
	}
	n.key = key
	n.val = val
	s.items[key] = n
	s.pushFront(n)
}

func (c *lruCache) len() int {
	total := 0
	for i := range c.shards {
		s := &c.shards[i]
		s.mu.Lock()
		total += len(s.items)
		s.mu.Unlock()
	}
	return total
}

func (s *lruShard) pushFront(n *lruNode) {
	n.prev = &s.head
	n.next = s.head.next
	s.head.next.prev = n
	s.head.next = n
}

func (n *lruNode) unlink() {
	n.prev.next = n.next
	n.next.prev = n.prev
	n.prev, n.next = nil, nil
}
