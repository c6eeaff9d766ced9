package delivery

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// QueueConfig is what a Queue is built from. T is the sink's queued item:
// one document and where its outcome goes.
type QueueConfig[T any] struct {
	// Sink names the sink in errors, e.g. "MongoDB".
	Sink string
	// BatchSize is the most items in one bulk.
	BatchSize int
	// BulkBytes is the most bytes in one bulk (at least one item is always
	// taken); 0 means no byte bound. Bytes gives an item's size and is
	// required when BulkBytes is set.
	BulkBytes int
	Bytes     func(T) int
	// MaxQueued bounds the items waiting: beyond it Put blocks, so a slow
	// sink slows the streams down instead of filling memory. A put larger
	// than the bound is queued whole when the queue is empty, or it could
	// never be queued.
	MaxQueued int
	// Flush is how often a partial bulk is written.
	Flush time.Duration
	// Concurrent is the most bulks written at once (at least 1).
	Concurrent int
	// Write writes one bulk and settles every item of it. abort ends when
	// Close gave up waiting: Write must then settle what is pending (as
	// failed) and return promptly.
	Write func(abort context.Context, bulk []T)
	// Abandon settles an item that was still queued when Close gave up.
	Abandon func(T)
	// Queued reports the number of items waiting, for a gauge; optional.
	Queued func(n int)
	// Closed is what Put returns once the queue is closed.
	Closed error
}

// Queue groups the items put by every processor of a sink into bulks and
// hands them to the sink's Write, at most Concurrent at once: full bulks
// as soon as they are queued, partial ones every Flush interval. Its
// goroutines are owned by the queue: the run loop is started by NewQueue,
// each bulk's goroutine by the run loop, and Close waits for all of them.
type Queue[T any] struct {
	cfg QueueConfig[T]

	mu          sync.Mutex
	queue       []T
	queuedBytes int
	room        chan struct{} // closed and replaced whenever the queue shrinks
	closing     bool

	kick     chan struct{} // a full bulk is queued
	stop     chan struct{} // closed by Close: drain and return
	slots    chan struct{} // one token per bulk in flight
	inflight sync.WaitGroup
	abortCtx context.Context
	abort    context.CancelFunc // ends in-flight writes when Close gives up
	done     chan struct{}
}

// NewQueue starts a queue.
func NewQueue[T any](cfg QueueConfig[T]) *Queue[T] {
	cfg.Concurrent = max(cfg.Concurrent, 1)
	cfg.BatchSize = max(cfg.BatchSize, 1)
	ctx, cancel := context.WithCancel(context.Background())
	q := &Queue[T]{
		cfg:      cfg,
		room:     make(chan struct{}),
		kick:     make(chan struct{}, 1),
		stop:     make(chan struct{}),
		slots:    make(chan struct{}, cfg.Concurrent),
		abortCtx: ctx,
		abort:    cancel,
		done:     make(chan struct{}),
	}
	go q.run()
	return q
}

// Put queues items, waiting for room while the queue is full. It returns
// cfg.Closed once the queue is closed, and ctx's error if ctx ends first;
// in both cases no item was queued.
func (q *Queue[T]) Put(ctx context.Context, items []T) error {
	if len(items) == 0 {
		return nil
	}
	size := 0
	if q.cfg.BulkBytes > 0 {
		for _, it := range items {
			size += q.cfg.Bytes(it)
		}
	}
	for {
		q.mu.Lock()
		if q.closing {
			q.mu.Unlock()
			return q.cfg.Closed
		}
		if len(q.queue) == 0 || len(q.queue)+len(items) <= q.cfg.MaxQueued {
			q.queue = append(q.queue, items...)
			q.queuedBytes += size
			full := len(q.queue) >= q.cfg.BatchSize || (q.cfg.BulkBytes > 0 && q.queuedBytes >= q.cfg.BulkBytes)
			q.reportLocked()
			q.mu.Unlock()
			if full {
				select {
				case q.kick <- struct{}{}:
				default:
				}
			}
			return nil
		}
		room := q.room
		q.mu.Unlock()
		select {
		case <-room:
		case <-ctx.Done():
			return fmt.Errorf("queue documents for %s: %w", q.cfg.Sink, ctx.Err())
		}
	}
}

func (q *Queue[T]) reportLocked() {
	if q.cfg.Queued != nil {
		q.cfg.Queued(len(q.queue))
	}
}

// take removes one bulk from the queue: up to BatchSize items and
// BulkBytes bytes (at least one item). With all false it takes only a full
// bulk.
func (q *Queue[T]) take(all bool) []T {
	q.mu.Lock()
	defer q.mu.Unlock()
	n, size := min(len(q.queue), q.cfg.BatchSize), 0
	if q.cfg.BulkBytes > 0 {
		n = 0
		for n < len(q.queue) && n < q.cfg.BatchSize {
			l := q.cfg.Bytes(q.queue[n])
			if n > 0 && size+l > q.cfg.BulkBytes {
				break
			}
			n++
			size += l
		}
	}
	full := n == q.cfg.BatchSize || n < len(q.queue)
	if n == 0 || (!all && !full) {
		return nil
	}
	bulk := make([]T, n)
	copy(bulk, q.queue)
	rest := copy(q.queue, q.queue[n:])
	clear(q.queue[rest:])
	q.queue = q.queue[:rest]
	q.queuedBytes -= size
	q.reportLocked()
	close(q.room)
	q.room = make(chan struct{})
	return bulk
}

// run is the queue's goroutine: it dispatches full bulks as soon as they
// are queued and everything queued every flush interval.
func (q *Queue[T]) run() {
	defer close(q.done)
	defer q.inflight.Wait()
	tick := time.NewTicker(q.cfg.Flush)
	defer tick.Stop()
	for {
		all := false
		select {
		case <-q.kick:
		case <-tick.C:
			all = true
		case <-q.stop:
			q.drain()
			return
		}
		for {
			bulk := q.take(all)
			if bulk == nil {
				break
			}
			q.dispatch(bulk)
		}
	}
}

// dispatch writes a bulk in its own goroutine once a slot is free; once
// Close gave up, it abandons the bulk instead.
func (q *Queue[T]) dispatch(bulk []T) {
	q.slots <- struct{}{}
	if q.abortCtx.Err() != nil {
		<-q.slots
		for _, it := range bulk {
			q.cfg.Abandon(it)
		}
		return
	}
	q.inflight.Add(1)
	go func() {
		defer q.inflight.Done()
		defer func() { <-q.slots }()
		q.cfg.Write(q.abortCtx, bulk)
	}()
}

// drain dispatches what is left at Close.
func (q *Queue[T]) drain() {
	for {
		bulk := q.take(true)
		if bulk == nil {
			return
		}
		q.dispatch(bulk)
	}
}

// Close stops accepting items, writes what is queued until ctx ends, then
// aborts the writes in flight, and waits for the queue's goroutines. It
// may be called more than once.
func (q *Queue[T]) Close(ctx context.Context) {
	q.mu.Lock()
	if q.closing {
		q.mu.Unlock()
		<-q.done
		return
	}
	q.closing = true
	close(q.room) // wake blocked Puts: they see closing
	q.room = make(chan struct{})
	q.mu.Unlock()
	close(q.stop)
	select {
	case <-q.done:
	case <-ctx.Done():
		q.abort()
		<-q.done
	}
	q.abort()
}
