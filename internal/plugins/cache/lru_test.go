package cache

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/metrics"
)

// newFakeClock returns a clock that moves only when told, so entry lives
// are tested without sleeping.
func newFakeClock() *ManualClock {
	return NewManualClock(time.Date(2015, 5, 17, 10, 5, 0, 0, time.UTC))
}

func TestLRUEvictsLeastRecentlyUsed(t *testing.T) {
	l := NewLRU[string, int](3, nil)
	for i, k := range []string{"a", "b", "c"} {
		if res := l.Set(k, i, 0); res != Inserted {
			t.Fatalf("Set(%q) = %v, want Inserted", k, res)
		}
	}
	// Touch "a" so that "b" becomes the least recently used.
	if v, res := l.Get("a"); res != Hit || v != 0 {
		t.Fatalf("Get(a) = %v, %v; want 0, Hit", v, res)
	}
	if res := l.Set("d", 3, 0); res != Evicted {
		t.Fatalf("Set(d) = %v, want Evicted", res)
	}
	if _, res := l.Get("b"); res != Miss {
		t.Fatalf("b should have been evicted, Get gave %v", res)
	}
	for _, k := range []string{"a", "c", "d"} {
		if _, res := l.Get(k); res != Hit {
			t.Fatalf("Get(%q) = %v, want Hit", k, res)
		}
	}
	if res := l.Set("c", 30, 0); res != Replaced {
		t.Fatalf("Set(c) again = %v, want Replaced", res)
	}
	if v, _ := l.Get("c"); v != 30 {
		t.Fatalf("Get(c) = %v, want the replaced value 30", v)
	}
	if n := l.Len(); n != 3 {
		t.Fatalf("Len = %d, want 3", n)
	}
	if !l.Delete("c") || l.Delete("c") {
		t.Fatal("Delete(c) should report true once, then false")
	}
	if n := l.Clear(); n != 2 || l.Len() != 0 {
		t.Fatalf("Clear = %d (Len after %d), want 2 and 0", n, l.Len())
	}
}

func TestLRUExpiry(t *testing.T) {
	clk := newFakeClock()
	l := NewLRU[string, string](10, clk.Now)
	l.Set("short", "s", time.Minute)
	l.Set("forever", "f", 0)
	clk.Advance(59 * time.Second)
	if _, res := l.Get("short"); res != Hit {
		t.Fatalf("before its life ends: Get = %v, want Hit", res)
	}
	clk.Advance(time.Second)
	if _, res := l.Get("short"); res != Expired {
		t.Fatalf("at the end of its life: Get = %v, want Expired", res)
	}
	if _, res := l.Get("short"); res != Miss {
		t.Fatalf("an expired entry is removed: Get = %v, want Miss", res)
	}
	clk.Advance(100 * 365 * 24 * time.Hour)
	if _, res := l.Get("forever"); res != Hit {
		t.Fatalf("ttl 0 never expires: Get = %v, want Hit", res)
	}
	// Replacing an entry replaces its life too.
	l.Set("forever", "f2", time.Second)
	clk.Advance(time.Second)
	if _, res := l.Get("forever"); res != Expired {
		t.Fatalf("replaced entry with a life: Get = %v, want Expired", res)
	}
}

func TestLRUCapacityOne(t *testing.T) {
	l := NewLRU[int, int](0, nil) // clamped to one
	l.Set(1, 1, 0)
	if res := l.Set(2, 2, 0); res != Evicted {
		t.Fatalf("Set = %v, want Evicted", res)
	}
	if _, res := l.Get(2); res != Hit {
		t.Fatalf("Get(2) = %v, want Hit", res)
	}
}

// TestLRUConcurrent hammers one cache from several goroutines; run with
// -race it checks the locking, and the invariants below check the list.
func TestLRUConcurrent(t *testing.T) {
	l := NewLRU[int, int](64, nil)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 5000 {
				k := (i*7 + g) % 200
				if v, res := l.Get(k); res == Hit && v != k {
					t.Errorf("Get(%d) = %d", k, v)
					return
				}
				l.Set(k, k, time.Duration(i%3)*time.Hour)
			}
		}()
	}
	wg.Wait()
	if n := l.Len(); n != 64 {
		t.Fatalf("Len = %d, want the capacity 64", n)
	}
	// Walk the list both ways: it must hold exactly the map's entries.
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for e := l.head.next; e != &l.head; e = e.next {
		if l.items[e.key] != e {
			t.Fatalf("list entry %d is not the map's", e.key)
		}
		n++
	}
	m := 0
	for e := l.head.prev; e != &l.head; e = e.prev {
		m++
	}
	if n != len(l.items) || m != n {
		t.Fatalf("list has %d entries forward, %d backward, map %d", n, m, len(l.items))
	}
}

// metricValue reads one sample of a metric family from a registry.
func metricValue(t *testing.T, reg *prometheus.Registry, name string, labels ...string) float64 {
	t.Helper()
	fams, err := reg.Gather()
	if err != nil {
		t.Fatalf("gather metrics: %v", err)
	}
	for _, f := range fams {
		if f.GetName() != name {
			continue
		}
	metrics:
		for _, m := range f.GetMetric() {
			for i, lp := range m.GetLabel() {
				if i*2+1 < len(labels) && (lp.GetName() != labels[i*2] || lp.GetValue() != labels[i*2+1]) {
					continue metrics
				}
			}
			if m.Counter != nil {
				return m.Counter.GetValue()
			}
			return m.Gauge.GetValue()
		}
	}
	t.Fatalf("metric %s%v not found", name, labels)
	return 0
}

func TestLRUServiceMetrics(t *testing.T) {
	reg := prometheus.NewRegistry()
	clk := newFakeClock()
	env := component.Env{Name: "lru_cache_service", Metrics: metrics.New(reg)}
	s := NewLRUService(env, 2, clk.Now)
	k := func(n string) Key { return Key{Space: "test", Name: n} }

	s.Set(k("a"), "A", 0)
	s.Set(k("b"), "B", time.Minute)
	if v, ok := s.Get(k("a")); !ok || v != "A" {
		t.Fatalf("Get(a) = %v, %v", v, ok)
	}
	if _, ok := s.Get(Key{Space: "other", Name: "a"}); ok {
		t.Fatal("a key of another space must not hit")
	}
	s.Set(k("c"), "C", 0) // evicts b, the least recently used
	if _, ok := s.Get(k("b")); ok {
		t.Fatal("b should have been evicted")
	}
	s.Set(k("b"), "B", time.Minute) // evicts a
	clk.Advance(time.Minute)
	if _, ok := s.Get(k("b")); ok {
		t.Fatal("b should have expired")
	}

	lbl := []string{"component", "lru_cache_service", "stream", ""}
	for name, want := range map[string]float64{
		"weir_cache_hits_total":        1,
		"weir_cache_misses_total":      3,
		"weir_cache_evictions_total":   2,
		"weir_cache_expirations_total": 1,
		"weir_cache_entries":           1,
	} {
		if got := metricValue(t, reg, name, lbl...); got != want {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	if err := s.Close(context.Background()); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if got := metricValue(t, reg, "weir_cache_entries", lbl...); got != 0 {
		t.Errorf("after Close weir_cache_entries = %v, want 0", got)
	}
}

func TestLRUSpec(t *testing.T) {
	spec := LRUSpec()
	reg := component.NewRegistry()
	reg.Register(spec)
	if spec.Provides != Capability {
		t.Fatalf("Provides = %q, want %q", spec.Provides, Capability)
	}
	for _, tc := range []struct {
		raw     map[string]string
		wantErr bool
		size    int
	}{
		{raw: map[string]string{}, size: DefaultSize},
		{raw: map[string]string{"cache.size": "10"}, size: 10},
		{raw: map[string]string{"cache.size": "0"}, wantErr: true},
		{raw: map[string]string{"cache.size": "lots"}, wantErr: true},
		{raw: map[string]string{"cache.sise": "10"}, wantErr: true},
	} {
		t.Run(fmt.Sprint(tc.raw), func(t *testing.T) {
			conf, probs := component.NewConfig(&spec, tc.raw)
			if tc.wantErr {
				if probs.Err() == nil {
					t.Fatal("want a validation problem, got none")
				}
				return
			}
			if err := probs.Err(); err != nil {
				t.Fatalf("validation: %v", err)
			}
			svc, err := spec.NewService(context.Background(), conf, component.Env{Name: "c"})
			if err != nil {
				t.Fatalf("NewService: %v", err)
			}
			defer svc.Close(context.Background())
			s, ok := svc.(KeyValue)
			if !ok {
				t.Fatalf("service %T does not implement KeyValue", svc)
			}
			if got := s.(*LRUService).lru.Capacity(); got != tc.size {
				t.Fatalf("capacity = %d, want %d", got, tc.size)
			}
		})
	}
}

func BenchmarkLRUServiceGetHit(b *testing.B) {
	s := NewLRUService(component.Env{Name: "bench"}, DefaultSize, nil)
	keys := make([]Key, 1753)
	for i := range keys {
		keys[i] = Key{Space: "bench", Name: fmt.Sprintf("10.%d.%d.%d", i>>16&255, i>>8&255, i&255)}
		s.Set(keys[i], i, time.Hour)
	}
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			if _, ok := s.Get(keys[i%len(keys)]); !ok {
				b.Error("miss on a warm cache")
				return
			}
			i++
		}
	})
}

// TestServiceSetCopiesKey: a key stored by the service shares no bytes with
// the caller's string. Keys are field values, which are substrings of the
// fetched Kafka batch; sharing would keep the whole batch alive as long as
// the entry lives. The test fails if Set stores the caller's strings.
func TestServiceSetCopiesKey(t *testing.T) {
	s := NewLRUService(component.Env{Name: "keys"}, 4, nil)
	batch := "10.0.0.1 - - [17/May/2015:10:05:03 +0000] \"GET / HTTP/1.1\" 200 0"
	name := batch[:8] // "10.0.0.1", as a field cut from a line
	space := batch[9:10]
	s.Set(Key{Space: space, Name: name}, "host.example.", 0)
	if v, ok := s.Get(Key{Space: "-", Name: "10.0.0.1"}); !ok || v != "host.example." {
		t.Fatalf("Get = %v, %v; want the stored value", v, ok)
	}
	s.lru.mu.Lock()
	defer s.lru.mu.Unlock()
	if len(s.lru.items) != 1 {
		t.Fatalf("%d entries, want 1", len(s.lru.items))
	}
	lo, hi := uintptr(unsafe.Pointer(unsafe.StringData(batch))), uintptr(unsafe.Pointer(unsafe.StringData(batch)))+uintptr(len(batch))
	for k := range s.lru.items {
		for _, str := range []string{k.Space, k.Name} {
			if p := uintptr(unsafe.Pointer(unsafe.StringData(str))); p >= lo && p < hi {
				t.Errorf("stored key string %q points into the caller's batch", str)
			}
		}
	}
}
