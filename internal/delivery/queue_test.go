package delivery

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"
)

// These tests drive the queue with a sink written in the test: the queue
// is plain Go, and the sinks' own tests run it against FerretDB, ZincSearch
// and a _bulk server.

var errTestClosed = errors.New("test sink is closed")

// recorder is a sink that records the bulks written and the items
// abandoned; block, when set, holds every write until it is closed or the
// abort context ends.
type recorder struct {
	mu        sync.Mutex
	bulks     [][]int
	abandoned []int
	block     chan struct{}
}

func (r *recorder) write(abort context.Context, bulk []int) {
	if r.block != nil {
		select {
		case <-r.block:
		case <-abort.Done():
			r.mu.Lock()
			r.abandoned = append(r.abandoned, bulk...)
			r.mu.Unlock()
			return
		}
	}
	r.mu.Lock()
	r.bulks = append(r.bulks, slices.Clone(bulk))
	r.mu.Unlock()
}

func (r *recorder) abandon(it int) {
	r.mu.Lock()
	r.abandoned = append(r.abandoned, it)
	r.mu.Unlock()
}

func (r *recorder) written() []int {
	r.mu.Lock()
	defer r.mu.Unlock()
	var all []int
	for _, b := range r.bulks {
		all = append(all, b...)
	}
	return all
}

func newTestQueue(r *recorder, mod func(*QueueConfig[int])) *Queue[int] {
	cfg := QueueConfig[int]{
		Sink: "the test sink", BatchSize: 4, MaxQueued: 8, Flush: time.Hour, Concurrent: 1,
		Write: r.write, Abandon: r.abandon, Closed: errTestClosed,
	}
	if mod != nil {
		mod(&cfg)
	}
	return NewQueue(cfg)
}

func seq(from, n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = from + i
	}
	return s
}

func TestQueueWritesFullBulksAndDrainsTheRestAtClose(t *testing.T) {
	r := &recorder{}
	q := newTestQueue(r, nil)
	if err := q.Put(context.Background(), seq(0, 6)); err != nil {
		t.Fatal(err)
	}
	q.Close(context.Background())
	if got := r.written(); !slices.Equal(got, seq(0, 6)) {
		t.Fatalf("written %v, want 0..5 once each in order", got)
	}
	for _, b := range r.bulks {
		if len(b) > 4 {
			t.Errorf("bulk of %d items, batch size is 4", len(b))
		}
	}
	if err := q.Put(context.Background(), seq(6, 1)); !errors.Is(err, errTestClosed) {
		t.Fatalf("put after close: %v, want the closed error", err)
	}
}

func TestQueueFlushesPartialBulks(t *testing.T) {
	r := &recorder{}
	q := newTestQueue(r, func(c *QueueConfig[int]) { c.Flush = 10 * time.Millisecond })
	defer q.Close(context.Background())
	if err := q.Put(context.Background(), seq(0, 2)); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for len(r.written()) < 2 {
		if time.Now().After(deadline) {
			t.Fatal("a partial bulk was not written by the flush interval")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestQueueBoundsBulksByBytes(t *testing.T) {
	r := &recorder{}
	q := newTestQueue(r, func(c *QueueConfig[int]) {
		c.BatchSize = 100
		c.MaxQueued = 100
		c.BulkBytes = 10
		c.Bytes = func(int) int { return 4 } // two items per bulk
	})
	if err := q.Put(context.Background(), seq(0, 5)); err != nil {
		t.Fatal(err)
	}
	q.Close(context.Background())
	var sizes []int
	for _, b := range r.bulks {
		sizes = append(sizes, len(b))
	}
	if !slices.Equal(r.written(), seq(0, 5)) || !slices.Equal(sizes, []int{2, 2, 1}) {
		t.Fatalf("bulks %v, want [0 1] [2 3] [4]", r.bulks)
	}
}

func TestQueuePutWaitsForRoomUntilItsContextEnds(t *testing.T) {
	r := &recorder{block: make(chan struct{})}
	q := newTestQueue(r, nil)
	// One full bulk is taken by the blocked write and a second by the run
	// loop, which waits for a free slot; then eight more fill the queue to
	// MaxQueued.
	waitQueued := func(want int) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			q.mu.Lock()
			n := len(q.queue)
			q.mu.Unlock()
			if n == want {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%d items queued, want %d", n, want)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	if err := q.Put(context.Background(), seq(0, 4)); err != nil {
		t.Fatal(err)
	}
	waitQueued(0)
	if err := q.Put(context.Background(), seq(4, 4)); err != nil {
		t.Fatal(err)
	}
	waitQueued(0)
	if err := q.Put(context.Background(), seq(8, 8)); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := q.Put(ctx, seq(16, 1)); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("put into a full queue: %v, want the context's error", err)
	}
	close(r.block)
	q.Close(context.Background())
	if got := r.written(); !slices.Equal(got, seq(0, 16)) {
		t.Fatalf("written %v, want 0..15: the refused put must not be queued", got)
	}
}

func TestQueueCloseGivesUpAndSettlesEveryItem(t *testing.T) {
	r := &recorder{block: make(chan struct{})}
	q := newTestQueue(r, nil)
	if err := q.Put(context.Background(), seq(0, 8)); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	q.Close(ctx)
	got := append(r.written(), r.abandoned...)
	slices.Sort(got)
	if !slices.Equal(got, seq(0, 8)) {
		t.Fatalf("settled %v, want every item 0..7 once", got)
	}
	if len(r.abandoned) == 0 {
		t.Fatal("no item was abandoned although every write was blocked")
	}
	q.Close(context.Background()) // a second close returns
}

func TestRetry(t *testing.T) {
	fast := Backoff{Policy: BackoffConstant, Initial: time.Millisecond}
	cause := errors.New("busy")
	t.Run("until nothing is pending", func(t *testing.T) {
		calls := 0
		var retries []int
		pending, c, aborted := Retry(context.Background(), seq(0, 4), func(b []int) ([]int, time.Duration, error) {
			calls++
			return b[1:], 0, cause // one item settles per attempt
		}, fast, -1, func(p []int, retry int, _ time.Duration, c error) {
			retries = append(retries, retry)
			if !errors.Is(c, cause) {
				t.Errorf("retrying told %v, want the cause", c)
			}
		})
		if len(pending) != 0 || c != nil || aborted || calls != 4 || !slices.Equal(retries, []int{0, 1, 2}) {
			t.Fatalf("pending %v cause %v aborted %v calls %d retries %v", pending, c, aborted, calls, retries)
		}
	})
	t.Run("gives up after max retries", func(t *testing.T) {
		calls := 0
		pending, c, aborted := Retry(context.Background(), seq(0, 3), func(b []int) ([]int, time.Duration, error) {
			calls++
			return b, 0, cause
		}, fast, 2, nil)
		if !slices.Equal(pending, seq(0, 3)) || !errors.Is(c, cause) || aborted || calls != 3 {
			t.Fatalf("pending %v cause %v aborted %v calls %d, want 3 attempts then the items back", pending, c, aborted, calls)
		}
	})
	t.Run("abort ends the wait", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		pending, c, aborted := Retry(ctx, seq(0, 2), func(b []int) ([]int, time.Duration, error) {
			cancel()
			return b, time.Hour, cause // the server asks for an hour
		}, fast, -1, nil)
		if !slices.Equal(pending, seq(0, 2)) || !errors.Is(c, cause) || !aborted {
			t.Fatalf("pending %v cause %v aborted %v", pending, c, aborted)
		}
	})
	t.Run("waits what the server asks", func(t *testing.T) {
		var delays []time.Duration
		first := true
		Retry(context.Background(), seq(0, 1), func(b []int) ([]int, time.Duration, error) {
			if first {
				first = false
				return b, 20 * time.Millisecond, cause
			}
			return nil, 0, nil
		}, fast, -1, func(_ []int, _ int, d time.Duration, _ error) { delays = append(delays, d) })
		if !slices.Equal(delays, []time.Duration{20 * time.Millisecond}) {
			t.Fatalf("delays %v, want the server's 20ms over the 1ms backoff", delays)
		}
	})
}

func TestSplitIsolatesTheRefusedItem(t *testing.T) {
	var refused []int
	var attempt Attempt[int]
	attempt = func(b []int) ([]int, time.Duration, error) {
		if !slices.Contains(b, 5) {
			return nil, 0, nil // written
		}
		if len(b) == 1 {
			refused = append(refused, b[0])
			return nil, 0, nil
		}
		return Split(b, attempt)
	}
	pending, _, _ := attempt(seq(0, 8))
	if len(pending) != 0 || !slices.Equal(refused, []int{5}) {
		t.Fatalf("pending %v refused %v, want only 5 refused", pending, refused)
	}
}

func TestBackoffDelay(t *testing.T) {
	b := Backoff{Initial: 100 * time.Millisecond, Max: time.Second}
	for n, base := range []time.Duration{100, 200, 400, 800, 1000, 1000} {
		base *= time.Millisecond
		if d := b.Delay(n); d < base || d > base+base/2 {
			t.Errorf("exponential delay %d = %v, want within [%v, %v]", n, d, base, base+base/2)
		}
	}
	if d := (Backoff{Policy: BackoffConstant, Initial: time.Second}).Delay(7); d != time.Second {
		t.Errorf("constant delay = %v", d)
	}
	if d := (Backoff{Policy: BackoffNone, Initial: time.Second}).Delay(3); d != 0 {
		t.Errorf("no delay = %v", d)
	}
}
