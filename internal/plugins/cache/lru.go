// Package cache holds Weir's key/value cache service,
// pkg.service.cache.LRUKeyValueCacheService: a bounded least-recently-used
// cache with optional per-entry expiry, shared by every processor that names
// it. Processors reach it through the KeyValue interface declared here.
package cache

import (
	"sync"
	"time"
)

// LRU is a bounded least-recently-used map with optional per-entry expiry.
// It is safe for concurrent use.
//
// One mutex guards it: a hit moves the entry to the front of the recency
// list, so even a read writes. The critical section is a map lookup and a
// few pointer moves, short enough that a single lock serves millions of
// operations per second; sharding would make eviction order approximate.
type LRU[K comparable, V any] struct {
	mu       sync.Mutex
	capacity int
	items    map[K]*entry[K, V]
	// head is a sentinel: head.next is the most recently used entry,
	// head.prev the least recently used one.
	head entry[K, V]
	now  func() time.Time
}

type entry[K comparable, V any] struct {
	key        K
	value      V
	expires    time.Time // zero: never
	prev, next *entry[K, V]
}

// NewLRU returns an LRU that holds at most capacity entries (at least one).
// now is the clock used for expiry; nil means time.Now.
func NewLRU[K comparable, V any](capacity int, now func() time.Time) *LRU[K, V] {
	if capacity < 1 {
		capacity = 1
	}
	if now == nil {
		now = time.Now
	}
	l := &LRU[K, V]{capacity: capacity, now: now}
	// The map grows as entries arrive rather than reserving the full
	// capacity up front: most caches are configured far larger than the
	// set of keys they ever see.
	l.items = make(map[K]*entry[K, V], min(capacity, 1024))
	l.head.next, l.head.prev = &l.head, &l.head
	return l
}

// GetResult tells what a Get found.
type GetResult int

// The results of a Get.
const (
	Miss    GetResult = iota // no entry for the key
	Hit                      // a live entry
	Expired                  // an entry whose life had ended; it was removed
)

// Get returns the value of key and marks it most recently used. An expired
// entry is removed and reported as Expired, with the zero value.
func (l *LRU[K, V]) Get(key K) (V, GetResult) {
	var zero V
	l.mu.Lock()
	e, ok := l.items[key]
	if !ok {
		l.mu.Unlock()
		return zero, Miss
	}
	if !e.expires.IsZero() && !l.now().Before(e.expires) {
		l.unlink(e)
		delete(l.items, key)
		l.mu.Unlock()
		return zero, Expired
	}
	l.moveToFront(e)
	v := e.value
	l.mu.Unlock()
	return v, Hit
}

// SetResult tells what a Set did.
type SetResult int

// The results of a Set.
const (
	Inserted SetResult = iota // a new entry, the cache had room
	Replaced                  // the key had an entry; its value and life were replaced
	Evicted                   // a new entry, the least recently used one was evicted for it
)

// Set stores value under key with the given life (0 or less: no expiry),
// making it the most recently used entry. When the cache is full, the least
// recently used entry is evicted to make room.
func (l *LRU[K, V]) Set(key K, value V, ttl time.Duration) SetResult {
	var expires time.Time
	if ttl > 0 {
		expires = l.now().Add(ttl)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if e, ok := l.items[key]; ok {
		e.value, e.expires = value, expires
		l.moveToFront(e)
		return Replaced
	}
	res := Inserted
	var e *entry[K, V]
	if len(l.items) >= l.capacity {
		// Reuse the evicted entry: a full cache then inserts without
		// allocating.
		e = l.head.prev
		l.unlink(e)
		delete(l.items, e.key)
		res = Evicted
	} else {
		e = new(entry[K, V])
	}
	e.key, e.value, e.expires = key, value, expires
	l.pushFront(e)
	l.items[key] = e
	return res
}

// Delete removes key and reports whether it was present.
func (l *LRU[K, V]) Delete(key K) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	e, ok := l.items[key]
	if ok {
		l.unlink(e)
		delete(l.items, key)
	}
	return ok
}

// Len returns the number of entries, expired ones not yet removed included.
func (l *LRU[K, V]) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.items)
}

// Capacity returns the maximum number of entries.
func (l *LRU[K, V]) Capacity() int { return l.capacity }

// Clear removes every entry and returns how many there were.
func (l *LRU[K, V]) Clear() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := len(l.items)
	clear(l.items)
	l.head.next, l.head.prev = &l.head, &l.head
	return n
}

func (l *LRU[K, V]) unlink(e *entry[K, V]) {
	e.prev.next = e.next
	e.next.prev = e.prev
	e.prev, e.next = nil, nil
}

func (l *LRU[K, V]) pushFront(e *entry[K, V]) {
	e.prev = &l.head
	e.next = l.head.next
	l.head.next.prev = e
	l.head.next = e
}

func (l *LRU[K, V]) moveToFront(e *entry[K, V]) {
	if l.head.next == e {
		return
	}
	l.unlink(e)
	l.pushFront(e)
}
