package stream

import (
	"context"
	"testing"
	"time"
)

// virtualClock is a clock that moves only when someone sleeps on it. The
// limiter's arithmetic is checked on it because waits measured on the real
// clock of a shared 2-core machine cannot be asserted.
type virtualClock struct{ t time.Time }

func (c *virtualClock) now() time.Time { return c.t }

func (c *virtualClock) sleep(_ context.Context, d time.Duration) error {
	c.t = c.t.Add(d)
	return nil
}

func newVirtualLimiter() (*limiter, *virtualClock) {
	c := &virtualClock{t: time.Unix(1_700_000_000, 0)}
	return &limiter{next: map[tp]time.Time{}, now: c.now, sleep: c.sleep}, c
}

// TestLimiterWorkerServingManyPartitions: one worker that holds several
// partitions and serves their chunks in turn gives each partition its full
// rate, not the rate divided by the number of partitions. With 4 partitions
// at 1,000 records per second and chunks of 100, 40 rounds (16,000 records,
// 4,000 a partition) take 4 virtual seconds, the time one partition's 4,000
// records need alone.
func TestLimiterWorkerServingManyPartitions(t *testing.T) {
	for _, parts := range []int{1, 4, 16} {
		l, c := newVirtualLimiter()
		start := c.t
		const rate, chunk, rounds = 1000, 100, 40
		for range rounds {
			for p := range parts {
				if err := l.wait(context.Background(), tp{"in", int32(p)}, chunk, rate); err != nil {
					t.Fatal(err)
				}
			}
		}
		// The last chunk of each partition starts at 3.9 s: its own 100
		// records are the rate's share of the 40th tenth of a second.
		got := c.t.Sub(start)
		want := time.Duration(rounds-1) * chunk * time.Second / rate
		if got != want {
			t.Errorf("%d partitions: %d records each took %v of virtual time, want %v (each partition at its own rate)", parts, rounds*chunk, got, want)
		}
	}
}

// TestLimiterHoldsEachPartitionToItsRate: a partition served faster than
// its rate waits; the records it took never run ahead of rate × elapsed
// time by more than one chunk.
func TestLimiterHoldsEachPartitionToItsRate(t *testing.T) {
	l, c := newVirtualLimiter()
	start := c.t
	const rate, chunk = 500, 250
	taken := 0
	for range 20 {
		if err := l.wait(context.Background(), tp{"in", 0}, chunk, rate); err != nil {
			t.Fatal(err)
		}
		taken += chunk
		allowed := int(c.t.Sub(start).Seconds()*rate) + chunk
		if taken > allowed {
			t.Fatalf("after %v the partition took %d records, more than %d (rate %d/s plus one chunk)", c.t.Sub(start), taken, allowed, rate)
		}
	}
	if got, want := c.t.Sub(start), 19*chunk*time.Second/rate; got != want {
		t.Errorf("20 chunks of %d at %d/s took %v of virtual time, want %v", chunk, rate, got, want)
	}
}

// TestLimiterUnusedTimeIsNotSaved: a partition that was idle does not get a
// burst above its rate afterwards.
func TestLimiterUnusedTimeIsNotSaved(t *testing.T) {
	l, c := newVirtualLimiter()
	key := tp{"in", 0}
	if err := l.wait(context.Background(), key, 100, 100); err != nil {
		t.Fatal(err)
	}
	c.t = c.t.Add(time.Hour) // idle
	before := c.t
	for range 3 {
		if err := l.wait(context.Background(), key, 100, 100); err != nil {
			t.Fatal(err)
		}
	}
	if got := c.t.Sub(before); got != 2*time.Second {
		t.Errorf("3 chunks of 100 at 100/s after an idle hour took %v, want 2s (no saved-up burst)", got)
	}
}

// TestLimiterStopsWaitingWhenCancelled uses the real clock: a wait for a
// long share of time returns the context's error as soon as it is cancelled.
func TestLimiterStopsWaitingWhenCancelled(t *testing.T) {
	l := &limiter{next: map[tp]time.Time{}}
	ctx, cancel := context.WithCancel(context.Background())
	key := tp{"in", 0}
	if err := l.wait(ctx, key, 1000, 1); err != nil { // the next chunk may start 1,000 s from now
		t.Fatal(err)
	}
	cancel()
	if err := l.wait(ctx, key, 1, 1); err != context.Canceled {
		t.Fatalf("wait after cancel = %v, want context.Canceled", err)
	}
}
