package searchindex

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
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
	backoff        delivery.Backoff
	requestTimeout time.Duration
	log            *slog.Logger
	metrics        writerMetrics
	now            func() time.Time // for time-based index names; time.Now if nil
}

// writer groups the documents queued by every processor into bulk
// requests (delivery.Queue), sends up to concurrent.requests of them at
// once, and retries them until the index accepts or refuses each
// document. The queue owns its goroutines; close waits for them.
type writer struct {
	cfg   writerConfig
	q     *delivery.Queue[item]
	stats struct{ indexed, refused, retries atomic.Int64 }
}

func newWriter(cfg writerConfig) *writer {
	if cfg.now == nil {
		cfg.now = time.Now
	}
	w := &writer{cfg: cfg}
	w.q = delivery.NewQueue(delivery.QueueConfig[item]{
		Sink:      "the search index",
		BatchSize: cfg.batchSize,
		BulkBytes: cfg.bulkSize,
		Bytes:     func(it item) int { return len(it.lines) },
		// A full bulk per request in flight may wait beside the ones being
		// sent.
		MaxQueued:  max(2*cfg.concurrent*cfg.batchSize, 1000),
		Flush:      cfg.flush,
		Concurrent: cfg.concurrent,
		Write:      w.write,
		Abandon:    func(it item) { it.c.Fail(errClosed) },
		Queued:     func(n int) { cfg.metrics.queued.Set(float64(n)) },
		Closed:     errClosed,
	})
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
		items = append(items, item{id: r.ID, index: index, lines: buf[start:len(buf):len(buf)], c: c, idx: i})
	}
	if err := w.q.Put(ctx, items); err != nil {
		return nil, err
	}
	return c, nil
}

// close stops accepting documents, sends what is queued until ctx ends,
// and waits for the writer's goroutines.
func (w *writer) close(ctx context.Context) { w.q.Close(ctx) }

// write sends one bulk until every document is indexed or refused for
// good, retrying the rest with backoff up to num.retry times. Documents
// still pending after that, or when close gives up, fail their
// Completion: the stream does not commit the batch and redelivers it.
func (w *writer) write(abort context.Context, batch []item) {
	attempt := func(part []item) ([]item, time.Duration, error) { return w.attempt(abort, part) }
	pending, cause, aborted := delivery.Retry(abort, batch, attempt, w.cfg.backoff, w.cfg.numRetry,
		func(pending []item, retry int, delay time.Duration, cause error) {
			w.cfg.metrics.retried.Add(float64(len(pending)))
			w.stats.retries.Add(int64(len(pending)))
			w.cfg.log.Warn("search index did not accept documents; retrying with backoff",
				"documents", len(pending), "retry", retry+1, "backoff", delay, "error", cause)
		})
	if len(pending) == 0 {
		return
	}
	var err error
	switch {
	case aborted && cause == nil:
		err = errClosed
	case aborted:
		err = fmt.Errorf("%w before the search index accepted the documents: %v", errClosed, cause)
	default:
		w.cfg.log.Error("search index did not accept documents after every retry; their batches are not committed and will be redelivered",
			"documents", len(pending), "retries", w.cfg.numRetry, "error", cause)
		err = fmt.Errorf("search index did not accept %d documents after %d retries: %w", len(pending), w.cfg.numRetry, cause)
	}
	for _, it := range pending {
		it.c.Fail(err)
	}
}

// attempt sends one bulk request and settles every document it can. It
// returns the documents to retry, how long the server asked to wait
// (Retry-After), and why.
func (w *writer) attempt(abort context.Context, batch []item) ([]item, time.Duration, error) {
	size := 0
	for _, it := range batch {
		size += len(it.lines)
	}
	body := make([]byte, 0, size)
	for _, it := range batch {
		body = append(body, it.lines...)
	}
	ctx, cancel := context.WithTimeout(abort, w.cfg.requestTimeout)
	defer cancel()
	start := time.Now()
	res, err := w.cfg.client.bulk(ctx, body)
	w.cfg.metrics.latency.Observe(time.Since(start).Seconds())
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) && abort.Err() == nil {
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
			return delivery.Split(batch, func(part []item) ([]item, time.Duration, error) { return w.attempt(abort, part) })
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
