package docdb

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/delivery"
	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/status"
)

// Retry backoff bounds. The first retry comes quickly (a primary election
// takes about a second); later ones at most every maxBackoff, which keeps a
// down database lightly probed while it comes back.
const (
	minBackoff = 100 * time.Millisecond
	maxBackoff = 5 * time.Second
)

// errClosed is what Put returns, and what pending completions report, once
// the service is closed.
var errClosed = errors.New("docdb service is closed")

// item is one document waiting to be written, and where its outcome goes.
type item struct {
	id  string
	doc bson.Raw
	c   *delivery.Completion
	idx int // index of the record in c.recs
}

// writerConfig is what a writer is built from.
type writerConfig struct {
	coll         *mongo.Collection
	mode         string
	batchSize    int
	flush        time.Duration
	writeTimeout time.Duration
	acknowledged bool
	log          *slog.Logger
	metrics      writerMetrics
}

// writer groups the documents queued by every BulkPut into bulk writes and
// retries them until the database acknowledges or refuses each document.
// Its goroutine is owned by the writer: started by newWriter, stopped and
// waited for by close.
type writer struct {
	cfg   writerConfig
	stats struct{ written, duplicates, refused, retries atomic.Int64 }

	mu      sync.Mutex
	queue   []item
	room    chan struct{} // closed and replaced whenever the queue shrinks
	closing bool

	maxQueued int
	kick      chan struct{} // a full batch is queued
	stop      chan struct{} // closed by close: drain and return
	abortCtx  context.Context
	abort     context.CancelFunc // ends in-flight attempts when close gives up
	done      chan struct{}
}

func newWriter(cfg writerConfig) *writer {
	ctx, cancel := context.WithCancel(context.Background())
	w := &writer{
		cfg:  cfg,
		room: make(chan struct{}),
		// Several full batches may wait while one is written; beyond that
		// Put blocks, so a slow database slows the streams down instead of
		// filling memory.
		maxQueued: max(4*cfg.batchSize, 1000),
		kick:      make(chan struct{}, 1),
		stop:      make(chan struct{}),
		abortCtx:  ctx,
		abort:     cancel,
		done:      make(chan struct{}),
	}
	go w.run()
	return w
}

// put converts recs and queues their documents. Records that cannot become
// a document (too large, not encodable) are refused at once in the
// completion; they never reach the database.
func (w *writer) put(ctx context.Context, recs []*record.Record) (component.Completion, error) {
	c := delivery.NewCompletion(recs, "MongoDB to acknowledge")
	items := make([]item, 0, len(recs))
	for i, r := range recs {
		doc, err := Document(r)
		if err != nil {
			c.Finish(i, err.Error())
			w.stats.refused.Add(1)
			w.cfg.metrics.refused.Inc()
			continue
		}
		items = append(items, item{id: r.ID, doc: doc, c: c, idx: i})
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
		// empty, or it could never be queued.
		if len(w.queue) == 0 || len(w.queue)+len(items) <= w.maxQueued {
			w.queue = append(w.queue, items...)
			full := len(w.queue) >= w.cfg.batchSize
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
			return nil, fmt.Errorf("queue documents for MongoDB: %w", ctx.Err())
		}
	}
}

// take removes up to batchSize items from the queue; with all false it
// takes only a full batch.
func (w *writer) take(all bool) []item {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := min(len(w.queue), w.cfg.batchSize)
	if n == 0 || (!all && n < w.cfg.batchSize) {
		return nil
	}
	batch := make([]item, n)
	copy(batch, w.queue)
	rest := copy(w.queue, w.queue[n:])
	clear(w.queue[rest:])
	w.queue = w.queue[:rest]
	w.cfg.metrics.queued.Set(float64(len(w.queue)))
	close(w.room)
	w.room = make(chan struct{})
	return batch
}

// run is the writer's goroutine: it writes full batches as soon as they are
// queued and everything queued every flush interval.
func (w *writer) run() {
	defer close(w.done)
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
			w.write(batch)
			if w.abortCtx.Err() != nil {
				w.drain()
				return
			}
		}
	}
}

// drain writes what is left at close, or fails it once close gave up.
func (w *writer) drain() {
	for {
		batch := w.take(true)
		if batch == nil {
			return
		}
		if w.abortCtx.Err() != nil {
			for _, it := range batch {
				it.c.Fail(errClosed)
			}
			continue
		}
		w.write(batch)
	}
}

// close stops accepting documents, writes what is queued until ctx ends,
// and waits for the writer's goroutine.
func (w *writer) close(ctx context.Context) {
	w.mu.Lock()
	if w.closing {
		w.mu.Unlock()
		<-w.done
		return
	}
	w.closing = true
	close(w.room) // wake blocked Puts: they see closing
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

// outcome of one document in one attempt.
type outcome uint8

const (
	written outcome = iota
	duplicate
	retry
	refused
)

// write writes one batch until every document is written or refused for
// good, retrying the rest with backoff. Only close's abort stops it early;
// the documents still pending then report errClosed.
func (w *writer) write(batch []item) {
	backoff := minBackoff
	for attempt := 1; len(batch) > 0; attempt++ {
		pending, transient := w.attempt(batch)
		if len(pending) == 0 {
			return
		}
		w.cfg.metrics.retries.Add(float64(len(pending)))
		w.stats.retries.Add(int64(len(pending)))
		w.cfg.log.Warn("MongoDB write failed; retrying with backoff",
			"documents", len(pending), "attempt", attempt, "backoff", backoff, "error", transient)
		t := time.NewTimer(backoff + rand.N(backoff/2))
		select {
		case <-t.C:
		case <-w.abortCtx.Done():
			t.Stop()
			for _, it := range pending {
				it.c.Fail(fmt.Errorf("%w before MongoDB acknowledged the write: %v", errClosed, transient))
			}
			return
		}
		backoff = min(2*backoff, maxBackoff)
		batch = pending
	}
}

// attempt sends one bulk write and settles every document it can. It
// returns the documents to retry and the error that makes them retried.
func (w *writer) attempt(batch []item) ([]item, error) {
	ctx, cancel := context.WithTimeout(w.abortCtx, w.cfg.writeTimeout)
	defer cancel()
	models := make([]mongo.WriteModel, len(batch))
	for i, it := range batch {
		if w.cfg.mode == ModeInsert {
			models[i] = mongo.NewInsertOneModel().SetDocument(it.doc)
		} else {
			models[i] = mongo.NewReplaceOneModel().SetFilter(bson.D{{Key: "_id", Value: it.id}}).SetReplacement(it.doc).SetUpsert(true)
		}
	}
	start := time.Now()
	res, err := w.cfg.coll.BulkWrite(ctx, models, options.BulkWrite().SetOrdered(false))
	w.cfg.metrics.duration.Observe(time.Since(start).Seconds())
	if err == nil {
		// With w:0 (UNACKNOWLEDGED) the driver returns no error once the
		// write is sent: that is all such a write concern promises.
		for _, it := range batch {
			w.settle(it, written, "")
		}
		return nil, nil
	}

	var bwe mongo.BulkWriteException
	if errors.As(err, &bwe) {
		// A document is taken as written only if the server's counts
		// account for every statement. A server that stops an unordered
		// bulk at its first error, or reports the wrong index, fails this
		// check; the batch is then split until each outcome is certain.
		if len(bwe.WriteErrors) > 0 && len(batch) > 1 && !accountsFor(res, len(bwe.WriteErrors), len(batch)) {
			return w.split(batch)
		}
		byIndex := make(map[int]mongo.BulkWriteError, len(bwe.WriteErrors))
		for _, we := range bwe.WriteErrors {
			byIndex[we.Index] = we
		}
		var pending []item
		var cause error = err
		for i, it := range batch {
			we, failed := byIndex[i]
			switch {
			case !failed && bwe.WriteConcernError == nil:
				w.settle(it, written, "")
			case !failed:
				// Applied, but the write concern was not confirmed
				// (replication timed out, say): write it again, which
				// upsert makes harmless and insert counts as a duplicate.
				pending = append(pending, it)
				cause = fmt.Errorf("write concern error %d: %s", bwe.WriteConcernError.Code, bwe.WriteConcernError.Message)
			default:
				switch o := w.classifyWriteError(we.Code); o {
				case retry:
					pending = append(pending, it)
				default:
					w.settle(it, o, fmt.Sprintf("MongoDB refused the document (code %d): %s", we.Code, we.Message))
				}
			}
		}
		return pending, cause
	}

	if isDocumentError(err) {
		// The command as a whole was refused because of its content, and
		// the server does not say which document: split the batch until
		// the culprit stands alone, so only it is refused.
		if len(batch) == 1 {
			w.settle(batch[0], refused, fmt.Sprintf("MongoDB refused the document: %v", err))
			return nil, nil
		}
		return w.split(batch)
	}
	// Anything else (network, server selection, timeouts, authentication,
	// a shutting-down or stepping-down server) is about the database, not
	// the documents: retry them all.
	return batch, err
}

// split attempts the two halves of a batch on their own and merges what
// is left to retry.
func (w *writer) split(batch []item) ([]item, error) {
	half := len(batch) / 2
	var pending []item
	var cause error
	for _, part := range [][]item{batch[:half], batch[half:]} {
		p, c := w.attempt(part)
		pending = append(pending, p...)
		if c != nil {
			cause = c
		}
	}
	return pending, cause
}

// accountsFor reports whether a bulk result accounts for every statement:
// each one either succeeded (inserted, matched or upserted) or has a write
// error.
func accountsFor(res *mongo.BulkWriteResult, writeErrors, statements int) bool {
	if res == nil {
		return false
	}
	return int(res.InsertedCount+res.MatchedCount+res.UpsertedCount)+writeErrors == statements
}

// settle records the outcome of one document.
func (w *writer) settle(it item, o outcome, reason string) {
	switch o {
	case written:
		w.stats.written.Add(1)
		w.cfg.metrics.written.Inc()
		it.c.Finish(it.idx, "")
	case duplicate:
		w.stats.duplicates.Add(1)
		w.cfg.metrics.duplicates.Inc()
		it.c.Finish(it.idx, "")
	case refused:
		w.stats.refused.Add(1)
		w.cfg.metrics.refused.Inc()
		w.cfg.log.Warn("MongoDB refused a document for good; it goes to the error topics", "id", it.id, "reason", reason)
		it.c.Finish(it.idx, reason)
	}
}

// Server error codes, from MongoDB's error_codes.yml.
var (
	// transientCodes are write errors that a later attempt may not meet.
	transientCodes = map[int]bool{
		6: true, 7: true, 89: true, 91: true, 112: true, 189: true, 262: true, 9001: true,
		10107: true, 11600: true, 11602: true, 13435: true, 13436: true, 50: true, 64: true,
	}
	// documentCodes are command errors caused by the content of a document.
	documentCodes = map[int]bool{
		2: true, 14: true, 22: true, 52: true, 55: true, 56: true, 57: true, 121: true,
		10334: true, 17419: true, 17280: true,
	}
)

// classifyWriteError says what to do with a document the server reported
// a write error for.
func (w *writer) classifyWriteError(code int) outcome {
	if code == 11000 || code == 11001 {
		if w.cfg.mode == ModeInsert {
			return duplicate
		}
		// Two upserts of the same new id can race to insert it; the
		// loser's retry finds the document and replaces it.
		return retry
	}
	if transientCodes[code] {
		return retry
	}
	return refused
}

// isDocumentError reports whether a command error was caused by the
// content of the documents rather than by the database's state.
func isDocumentError(err error) bool {
	var ce mongo.CommandError
	if !errors.As(err, &ce) {
		return false
	}
	return documentCodes[int(ce.Code)]
}

// Stats are the service's counters since it started, for tests and
// benchmarks; the same figures are exported as metrics.
type Stats struct {
	Written, Duplicates, Refused, Retries float64
}

// writerMetrics are the service's metrics, labelled with its name.
type writerMetrics struct {
	written, duplicates, refused, retries prometheus.Counter
	queued                                prometheus.Gauge
	duration                              prometheus.Observer
}

func newWriterMetrics(m *status.Metrics, labels []string) writerMetrics {
	return writerMetrics{
		written:    m.CounterVec("docdb_documents_written_total", "Documents the database acknowledged.", status.ComponentLabels...).WithLabelValues(labels...),
		duplicates: m.CounterVec("docdb_documents_duplicate_total", "Documents skipped in insert mode because their id already existed.", status.ComponentLabels...).WithLabelValues(labels...),
		refused:    m.CounterVec("docdb_documents_refused_total", "Documents refused for good; they become error records.", status.ComponentLabels...).WithLabelValues(labels...),
		retries:    m.CounterVec("docdb_document_retries_total", "Document writes retried after a transient failure.", status.ComponentLabels...).WithLabelValues(labels...),
		queued:     m.GaugeVec("docdb_queued_documents", "Documents queued for the next bulk writes.", status.ComponentLabels...).WithLabelValues(labels...),
		duration: m.HistogramVec("docdb_bulk_write_seconds", "Duration of one bulk write attempt.",
			prometheus.ExponentialBuckets(0.001, 4, 10), status.ComponentLabels...).WithLabelValues(labels...),
	}
}

func (w *writer) snapshot() Stats {
	return Stats{
		Written:    float64(w.stats.written.Load()),
		Duplicates: float64(w.stats.duplicates.Load()),
		Refused:    float64(w.stats.refused.Load()),
		Retries:    float64(w.stats.retries.Load()),
	}
}
