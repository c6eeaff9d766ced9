package searchindex

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/delivery"
	"github.com/weir-streams/weir/internal/record"
)

// errClosed is what put returns, and what pending completions report, once
// the service is closed.
var errClosed = errors.New("search-index service is closed")

// item is one document waiting to be indexed, and where its outcome goes.
type item struct {
	id    string
	index string
	lines []byte // the action and source lines of the bulk body
	c     *delivery.Completion
	idx   int // index of the record in c.recs
}

// writerConfig is what a writer is built from.
type writerConfig struct {
	client         *client
	batchSize      int
	bulkSize       int
	flush          time.Duration
	concurrent     int
	numRetry       int
	backoff        backoff
	requestTimeout time.Duration
	log            *slog.Logger
	metrics        writerMetrics
	now            func() time.Time // for time-based index names; time.Now if nil
}

// writer groups the documents queued by every processor into bulk
// requests, sends up to concurrent.requests of them at once, and retries
// them until the index accepts or refuses each document. Its goroutines
// are owned by the writer: run is started by newWriter, each bulk's
// goroutine by run, and close waits for all of them.
type writer struct {
	cfg   writerConfig
	stats struct{ indexed, refused, retries atomic.Int64 }

	mu          sync.Mutex
	queue       []item
	queuedBytes int
	room        chan struct{} // closed and replaced whenever the queue shrinks
	closing     bool

	maxQueued int
	kick      chan struct{} // a full bulk is queued
	stop      chan struct{} // closed by close: drain and return
	slots     chan struct{} // one token per bulk in flight
	inflight  sync.WaitGroup
	abortCtx  context.Context
	abort     context.CancelFunc // ends in-flight requests when close gives up
	done      chan struct{}
}

func newWriter(cfg writerConfig) *writer {
	if cfg.now == nil {
		cfg.now = time.Now
	}
	ctx, cancel := context.WithCancel(context.Background())
	w := &writer{
		cfg:  cfg,
		room: make(chan struct{}),
		// A full bulk per request in flight may wait beside the ones being
		// sent; beyond that put blocks, so a slow index slows the streams
		// down instead of filling memory.
		maxQueued: max(2*cfg.concurrent*cfg.batchSize, 1000),
		kick:      make(chan struct{}, 1),
		stop:      make(chan struct{}),
		slots:     make(chan struct{}, cfg.concurrent),
		abortCtx:  ctx,
		abort:     cancel,
		done:      make(chan struct{}),
	}
	go w.run()
	return w
}

// docSizeHint is the bytes of NDJSON a parsed access-log line takes, to
// size a put's buffer.
const docSizeHint = 320

// put converts recs and queues their documents.
func (w *writer) put(ctx context.Context, recs []*record.Record, t Target) (component.Completion, error) {
	c := delivery.NewCompletion(recs, "the search index to accept")
	now := w.cfg.now()
	items := make([]item, 0, len(recs))
	// The documents of a put share one buffer, grown as needed: an item's
	// lines stay valid in the array they were written to.
	buf := make([]byte, 0, len(recs)*docSizeHint)
	size := 0
	for i, r := range recs {
		index, err := indexName(r, t, now)
		if err == nil && r.ID == "" {
			err = errors.New("record has no id to use as _id")
		}
		if err != nil {
			w.refuse(item{id: r.ID, c: c, idx: i}, fmt.Sprintf("search index: document not sent: %v", err))
			continue
		}
		start := len(buf)
		buf = appendDocument(buf, r, index)
		lines := buf[start:len(buf):len(buf)]
		size += len(lines)
		items = append(items, item{id: r.ID, index: index, lines: lines, c: c, idx: i})
	}
	if len(items) == 0 {
		return c, nil
	}
	for {
		w.mu.Lock()
		if w.closing {
			w.mu.Unlock()
			return nil, errClosed
		}
		// A batch larger than the bound is queued whole when the queue is
		// empty, so it cannot wait forever.
		if len(w.queue) == 0 || len(w.queue)+len(items) <= w.maxQueued {
			w.queue = append(w.queue, items...)
			w.queuedBytes += size
			full := len(w.queue) >= w.cfg.batchSize || w.queuedBytes >= w.cfg.bulkSize
			w.cfg.metrics.queued.Set(float64(len(w.queue)))
			w.mu.Unlock()
			if full {
				select {
				case w.kick <- struct{}{}:
				default:
				}
			}
			return c, nil
		}
		room := w.room
		w.mu.Unlock()
		select {
		case <-room:
		case <-ctx.Done():
			return nil, fmt.Errorf("queue documents for the search index: %w", ctx.Err())
		}
	}
}

// take removes one bulk from the queue: up to batchSize documents and
// bulkSize bytes (at least one document). With all false it takes only a
// full bulk.
func (w *writer) take(all bool) []item {
	w.mu.Lock()
	defer w.mu.Unlock()
	n, size := 0, 0
	for n < len(w.queue) && n < w.cfg.batchSize {
		l := len(w.queue[n].lines)
		if n > 0 && size+l > w.cfg.bulkSize {
			break
		}
		n++
		size += l
	}
	full := n == w.cfg.batchSize || n < len(w.queue)
	if n == 0 || (!all && !full) {
		return nil
	}
	batch := make([]item, n)
	copy(batch, w.queue)
	rest := copy(w.queue, w.queue[n:])
	clear(w.queue[rest:])
	w.queue = w.queue[:rest]
	w.queuedBytes -= size
	w.cfg.metrics.queued.Set(float64(len(w.queue)))
	close(w.room)
	w.room = make(chan struct{})
	return batch
}

// run is the writer's goroutine: it sends full bulks as soon as they are
// queued and everything queued every flush interval, at most
// concurrent.requests at once.
func (w *writer) run() {
	defer close(w.done)
	defer w.inflight.Wait()
	tick := time.NewTicker(w.cfg.flush)
	defer tick.Stop()
	for {
		all := false
		select {
		case <-w.kick:
		case <-tick.C:
			all = true
		case <-w.stop:
			w.drain()
			return
		}
		for {
			batch := w.take(all)
			if batch == nil {
				break
			}
			w.dispatch(batch)
		}
	}
}

// dispatch sends a bulk in its own goroutine once a slot is free.
func (w *writer) dispatch(batch []item) {
	w.slots <- struct{}{}
	w.inflight.Add(1)
	go func() {
		defer w.inflight.Done()
		defer func() { <-w.slots }()
		w.write(batch)
	}()
}

// drain sends what is left at close; once close gave up, write fails each
// bulk at once.
func (w *writer) drain() {
	for {
		batch := w.take(true)
		if batch == nil {
			return
		}
		w.dispatch(batch)
	}
}

// close stops accepting documents, sends what is queued until ctx ends,
// and waits for the writer's goroutines.
func (w *writer) close(ctx context.Context) {
	w.mu.Lock()
	if w.closing {
		w.mu.Unlock()
		<-w.done
		return
	}
	w.closing = true
	close(w.room) // wake blocked puts: they see closing
	w.room = make(chan struct{})
	w.mu.Unlock()
	close(w.stop)
	select {
	case <-w.done:
	case <-ctx.Done():
		w.abort()
		<-w.done
	}
	w.abort()
}

// write sends one bulk until every document is indexed or refused for
// good, retrying the rest with backoff up to num.retry times. Documents
// still pending after that, or when close gives up, fail their
// Completion: the stream does not commit the batch and redelivers it.
func (w *writer) write(batch []item) {
	for retry := 0; ; retry++ {
		if w.abortCtx.Err() != nil {
			for _, it := range batch {
				it.c.Fail(errClosed)
			}
			return
		}
		pending, wait, cause := w.attempt(batch)
		if len(pending) == 0 {
			return
		}
		if retry >= w.cfg.numRetry {
			w.cfg.log.Error("search index did not accept documents after every retry; their batches are not committed and will be redelivered",
				"documents", len(pending), "retries", retry, "error", cause)
			err := fmt.Errorf("search index did not accept %d documents after %d retries: %w", len(pending), retry, cause)
			for _, it := range pending {
				it.c.Fail(err)
			}
			return
		}
		w.cfg.metrics.retried.Add(float64(len(pending)))
		w.stats.retries.Add(int64(len(pending)))
		delay := max(w.cfg.backoff.delay(retry), wait)
		w.cfg.log.Warn("search index did not accept documents; retrying with backoff",
			"documents", len(pending), "retry", retry+1, "backoff", delay, "error", cause)
		t := time.NewTimer(delay)
		select {
		case <-t.C:
		case <-w.abortCtx.Done():
			t.Stop()
			for _, it := range pending {
				it.c.Fail(fmt.Errorf("%w before the search index accepted the documents: %v", errClosed, cause))
			}
			return
		}
		batch = pending
	}
}

// attempt sends one bulk request and settles every document it can. It
// returns the documents to retry, how long the server asked to wait
// (Retry-After), and why.
func (w *writer) attempt(batch []item) ([]item, time.Duration, error) {
	size := 0
	for _, it := range batch {
		size += len(it.lines)
	}
	body := make([]byte, 0, size)
	for _, it := range batch {
		body = append(body, it.lines...)
	}
	ctx, cancel := context.WithTimeout(w.abortCtx, w.cfg.requestTimeout)
	defer cancel()
	start := time.Now()
	res, err := w.cfg.client.bulk(ctx, body)
	w.cfg.metrics.latency.Observe(time.Since(start).Seconds())
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) && w.abortCtx.Err() == nil {
			err = fmt.Errorf("no answer within request.timeout (%s): %w", w.cfg.requestTimeout, err)
		}
		var re *requestError
		if errors.As(err, &re) && (re.status == http.StatusRequestEntityTooLarge || re.status == http.StatusBadRequest) {
			// The request as a whole was refused for its content, and the
			// server does not say which document: split the bulk until the
			// culprit stands alone, so only it is refused.
			if len(batch) == 1 {
				w.refuse(batch[0], fmt.Sprintf("search index refused the document (HTTP %d): %s", re.status, re.msg))
				return nil, 0, nil
			}
			return w.split(batch)
		}
		var wait time.Duration
		if re != nil {
			wait = re.retryAfter
		}
		// No answer, a server or proxy error, authentication: nothing is
		// known of any document, so all are retried.
		return batch, wait, err
	}

	var pending []item
	var cause error
	for i, it := range batch {
		var r *itemResult
		if i < len(res.Items) {
			r = res.Items[i].result()
		}
		switch {
		case r == nil:
			// The server answered for fewer documents than it was sent
			// (ZincSearch stops at its first failure and says so in a
			// top-level error): retry the rest.
			pending = append(pending, it)
			cause = fmt.Errorf("the bulk answer has no result for document %d of %d (server error: %s)", i+1, len(batch), string(res.Error))
		case r.Status >= 200 && r.Status < 300 && r.Error == nil:
			w.cfg.metrics.indexed.Inc()
			w.stats.indexed.Add(1)
			it.c.Finish(it.idx, "")
		case retryable(r):
			pending = append(pending, it)
			cause = fmt.Errorf("document refused for load: status %d, %s", r.Status, r.Error.describe())
		default:
			w.refuse(it, fmt.Sprintf("search index refused the document (status %d, index %s): %s", r.Status, it.index, r.Error.describe()))
		}
	}
	return pending, 0, cause
}

// split attempts the two halves of a bulk on their own and merges what is
// left to retry.
func (w *writer) split(batch []item) ([]item, time.Duration, error) {
	half := len(batch) / 2
	var pending []item
	var cause error
	var wait time.Duration
	for _, part := range [][]item{batch[:half], batch[half:]} {
		p, d, c := w.attempt(part)
		pending = append(pending, p...)
		if c != nil {
			cause = c
		}
		wait = max(wait, d)
	}
	return pending, wait, cause
}

// retryable reports whether an item was refused for load, so a later
// attempt may succeed: 429, 502, 503, 504, or a rejected execution
// (a full thread-pool queue) whatever its status.
func retryable(r *itemResult) bool {
	switch r.Status {
	case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	if r.Error != nil {
		switch r.Error.Type {
		case "es_rejected_execution_exception", "rejected_execution_exception", "unavailable_shards_exception":
			return true
		}
	}
	return false
}

func (e *itemError) describe() string {
	if e == nil {
		return "no reason given"
	}
	if e.Type == "" {
		return e.Reason
	}
	return e.Type + ": " + e.Reason
}

// refuse settles a document refused for good: it becomes an error record.
func (w *writer) refuse(it item, reason string) {
	w.stats.refused.Add(1)
	w.cfg.metrics.refused.Inc()
	w.cfg.log.Warn("search index refused a document for good; it goes to the error topics", "id", it.id, "reason", reason)
	it.c.Finish(it.idx, reason)
}

func (w *writer) snapshot() Stats {
	return Stats{
		Indexed: float64(w.stats.indexed.Load()),
		Refused: float64(w.stats.refused.Load()),
		Retries: float64(w.stats.retries.Load()),
	}
}

// Stats are the service's counters since it started, for tests and
// benchmarks; the same figures are exported as metrics.
type Stats struct {
	Indexed, Refused, Retries float64
}
