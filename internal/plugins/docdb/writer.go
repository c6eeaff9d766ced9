package docdb

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/delivery"
	"github.com/weir-streams/weir/internal/metrics"
	"github.com/weir-streams/weir/internal/record"
)

// retryBackoff is the delay between retries. The first retry comes quickly
// (a primary election takes about a second); later ones at most every 5 s,
// which keeps a down database lightly probed while it comes back.
var retryBackoff = delivery.Backoff{Policy: delivery.BackoffExponential, Initial: 100 * time.Millisecond, Max: 5 * time.Second}

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

// writer groups the documents queued by every BulkPut into bulk writes
// (delivery.Queue, one write at a time) and retries them until the
// database acknowledges or refuses each document. The queue owns its
// goroutine; close waits for it.
type writer struct {
	cfg   writerConfig
	q     *delivery.Queue[item]
	stats struct{ written, duplicates, refused, retries atomic.Int64 }
}

func newWriter(cfg writerConfig) *writer {
	w := &writer{cfg: cfg}
	w.q = delivery.NewQueue(delivery.QueueConfig[item]{
		Sink:      "MongoDB",
		BatchSize: cfg.batchSize,
		// Several full batches may wait while one is written.
		MaxQueued:  max(4*cfg.batchSize, 1000),
		Flush:      cfg.flush,
		Concurrent: 1,
		Write:      w.write,
		Abandon:    func(it item) { it.c.Fail(errClosed) },
		Queued:     func(n int) { cfg.metrics.queued.Set(float64(n)) },
		Closed:     errClosed,
	})
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
	if err := w.q.Put(ctx, items); err != nil {
		return nil, err
	}
	return c, nil
}

// close stops accepting documents, writes what is queued until ctx ends,
// and waits for the writer's goroutine.
func (w *writer) close(ctx context.Context) { w.q.Close(ctx) }

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
func (w *writer) write(abort context.Context, batch []item) {
	attempt := func(part []item) ([]item, time.Duration, error) {
		pending, cause := w.attempt(abort, part)
		return pending, 0, cause
	}
	pending, cause, _ := delivery.Retry(abort, batch, attempt, retryBackoff, -1,
		func(pending []item, retry int, delay time.Duration, cause error) {
			w.cfg.metrics.retries.Add(float64(len(pending)))
			w.stats.retries.Add(int64(len(pending)))
			w.cfg.log.Warn("MongoDB write failed; retrying with backoff",
				"documents", len(pending), "attempt", retry+1, "backoff", delay, "error", cause)
		})
	err := errClosed
	if cause != nil {
		err = fmt.Errorf("%w before MongoDB acknowledged the write: %v", errClosed, cause)
	}
	for _, it := range pending {
		it.c.Fail(err)
	}
}

// attempt sends one bulk write and settles every document it can. It
// returns the documents to retry and the error that makes them retried.
func (w *writer) attempt(abort context.Context, batch []item) ([]item, error) {
	ctx, cancel := context.WithTimeout(abort, w.cfg.writeTimeout)
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
			return w.split(abort, batch)
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
		return w.split(abort, batch)
	}
	// Anything else (network, server selection, timeouts, authentication,
	// a shutting-down or stepping-down server) is about the database, not
	// the documents: retry them all.
	return batch, err
}

// split attempts the two halves of a batch on their own and merges what
// is left to retry.
func (w *writer) split(abort context.Context, batch []item) ([]item, error) {
	pending, _, cause := delivery.Split(batch, func(part []item) ([]item, time.Duration, error) {
		p, c := w.attempt(abort, part)
		return p, 0, c
	})
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

func newWriterMetrics(m component.Metrics, labels []string) writerMetrics {
	return writerMetrics{
		written:    m.CounterVec("docdb_documents_written_total", "Documents the database acknowledged.", metrics.ComponentLabels...).WithLabelValues(labels...),
		duplicates: m.CounterVec("docdb_documents_duplicate_total", "Documents skipped in insert mode because their id already existed.", metrics.ComponentLabels...).WithLabelValues(labels...),
		refused:    m.CounterVec("docdb_documents_refused_total", "Documents refused for good; they become error records.", metrics.ComponentLabels...).WithLabelValues(labels...),
		retries:    m.CounterVec("docdb_document_retries_total", "Document writes retried after a transient failure.", metrics.ComponentLabels...).WithLabelValues(labels...),
		queued:     m.GaugeVec("docdb_queued_documents", "Documents queued for the next bulk writes.", metrics.ComponentLabels...).WithLabelValues(labels...),
		duration: m.HistogramVec("docdb_bulk_write_seconds", "Duration of one bulk write attempt.",
			prometheus.ExponentialBuckets(0.001, 4, 10), metrics.ComponentLabels...).WithLabelValues(labels...),
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
