package stream

import (
	"context"
	"fmt"
	"os"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/weir-streams/weir/internal/component"
)

// This file holds the stream's delivery guarantee: how a batch's writes and
// its input offsets are made durable together (docs/delivery.md).
//
// at_least_once (the default): the batch's records are produced, every
// acknowledgement is awaited, then the offsets are committed. A crash
// between the two replays the batch.
//
// exactly_once: each batch is one Kafka transaction, run by franz-go's
// GroupTransactSession: Begin, produce the output and error records, then
// End, which flushes, adds the batch's input offsets to the transaction
// (TxnOffsetCommit, with the consumer group's generation and member id),
// and commits the transaction, or aborts it if anything failed or the group
// rebalanced. A read_committed reader sees the batch's records and the new
// offsets together, or neither.
//
// Fencing (KIP-447, group-metadata fencing): one transactional producer per
// stream and process. A process that lost its partitions in a rebalance (a
// zombie) still carries the old group generation; the group coordinator
// refuses its TxnOffsetCommit (ILLEGAL_GENERATION, UNKNOWN_MEMBER_ID), so
// its transaction aborts and its writes are never visible. The member that
// takes the partitions over fetches their offsets with RequireStable: while
// the zombie's transaction is open, the broker answers
// UNSTABLE_OFFSET_COMMIT and the new owner waits, so it never reads an
// offset the zombie may still commit. Transactional ids then need only be
// unique among live processes, not tied to partitions (the pre-KIP-447
// scheme, one producer per input partition, costs a producer per partition
// and breaks with every rebalance). The id is processing.transactional.id,
// or weir-<app>-<stream>-<host>-<pid>: unique per process on a host, and
// stable across container restarts where the process is PID 1. A process
// that comes back with the same id fences its previous incarnation at
// once (InitProducerID bumps the epoch and aborts the open transaction); one
// with a new id waits, as do read_committed readers of the outputs, until
// the broker aborts the dead one's transaction after
// processing.transaction.timeout.ms.

// Defaults of the guarantee keys.
const (
	defaultTxnTimeout = 30 * time.Second
	minTxnTimeout     = time.Second
	maxTxnTimeout     = 15 * time.Minute // Kafka's transaction.max.timeout.ms default
)

// guaranteeProperties declares the delivery keys.
func guaranteeProperties() []component.Property {
	return []component.Property{
		{Key: KeyGuarantee, Description: "Delivery guarantee from the input topics to the output and error topics. " +
			AtLeastOnce + ": offsets are committed after every write is acknowledged; a crash replays the uncommitted batches (duplicates, never loss). " +
			ExactlyOnce + ": each batch's output records, error records and input offsets are written in one Kafka transaction, so a read_committed consumer sees each input's records exactly once through crashes, restarts and rebalances (docs/delivery.md). " +
			"Sinks outside Kafka (BulkPut, the search index) stay at-least-once and are idempotent by record id.",
			Default: AtLeastOnce, Validator: component.Enum(AtLeastOnce, ExactlyOnce)},
		{Key: KeyIsolationLevel, Description: "How the input topics are read: " + ReadCommitted + " skips the records of aborted and open transactions (what chained exactly_once jobs need), " +
			ReadUncommitted + " reads every record. Default: " + ReadCommitted + " with exactly_once, " + ReadUncommitted + " (Kafka's default) otherwise.",
			Validator: component.Enum(ReadCommitted, ReadUncommitted)},
		{Key: KeyTransactionalID, Description: "With exactly_once, the Kafka transactional id of this stream in this process; it must differ between processes running at once. " +
			"Default: weir-<engine.app.name>-<stream>-<host>-<pid>. Set it to a name that is stable across restarts (a StatefulSet pod name) so that a restarted process aborts its predecessor's open transaction at once instead of waiting for the transaction timeout."},
		{Key: KeyTransactionTimeout, Description: "With exactly_once, how long the broker lets a transaction stay open before aborting it, in ms: a batch must finish within it, and a process killed mid-batch holds back its partitions' new owner and read_committed readers for at most this long.",
			Default: "30000", Validator: component.IntRange(minTxnTimeout.Milliseconds(), maxTxnTimeout.Milliseconds())},
	}
}

// Guarantee is the stream's delivery guarantee, typed.
type Guarantee struct {
	ExactlyOnce   bool          // processing.guarantee is exactly_once
	ReadCommitted bool          // broker.input.isolation.level, with its default applied
	TxnID         string        // processing.transactional.id as given; "" for the default
	TxnTimeout    time.Duration // processing.transaction.timeout.ms
}

// GuaranteeConfig is the key group of the delivery guarantee, as written,
// embedded in StreamConfig.
type GuaranteeConfig struct {
	Guarantee          string        `key:"processing.guarantee"`
	IsolationLevel     string        `key:"broker.input.isolation.level"`
	TransactionalID    string        `key:"processing.transactional.id"`
	TransactionTimeout time.Duration `key:"processing.transaction.timeout.ms"`
}

// guarantee applies the isolation level's default, which depends on the
// guarantee.
func (c GuaranteeConfig) guarantee() Guarantee {
	g := Guarantee{ExactlyOnce: c.Guarantee == ExactlyOnce, TxnID: c.TransactionalID, TxnTimeout: c.TransactionTimeout}
	switch c.IsolationLevel {
	case ReadCommitted:
		g.ReadCommitted = true
	case "":
		g.ReadCommitted = g.ExactlyOnce
	}
	return g
}

// transactionalID is the stream's transactional id in this process.
func (s *Stream) transactionalID() string {
	if id := s.conf.Guarantee.TxnID; id != "" {
		return id
	}
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "localhost"
	}
	return fmt.Sprintf("weir-%s-%s-%s-%d", s.eng.AppName, s.conf.Name, host, os.Getpid())
}

// txnMetrics count the transactions of exactly_once streams.
type txnMetrics struct {
	committed, aborted prometheus.Counter
	commit             prometheus.Observer
}

func newTxnMetrics(deps ChainDeps, name string) txnMetrics {
	m := deps.Metrics
	outcome := m.CounterVec("stream_transactions_total", "Transactions ended by an exactly_once stream, by outcome (committed, aborted). An aborted batch is processed again.", "stream", "outcome")
	return txnMetrics{
		committed: outcome.WithLabelValues(name, "committed"),
		aborted:   outcome.WithLabelValues(name, "aborted"),
		commit: m.HistogramVec("stream_transaction_commit_seconds", "Time to end a committed transaction: flush, offset commit and EndTxn.",
			prometheus.ExponentialBuckets(0.001, 2, 16), "stream").WithLabelValues(name),
	}
}

// committer makes a batch durable with the stream's guarantee. The consume
// loop calls begin before a poll's first write, then exactly one of commit
// and abort; close ends the client.
type committer interface {
	// client is the Kafka client that polls and produces.
	client() *kgo.Client
	begin() error
	// commit makes the batch durable: done holds the last processed
	// record of each partition. It reports whether the batch was
	// committed; false with no error means it was abandoned and its
	// records will be polled again.
	commit(ctx context.Context, done []*kgo.Record) (bool, error)
	// abort abandons the batch after cause, and returns the error that
	// fails the consumer.
	abort(cause error) error
	close()
}

// newCommitter builds the consumer client of one consume run. revoked and
// lost are the progress callbacks.
func (s *Stream) newCommitter(opts []kgo.Opt, revoked, lost func(context.Context, *kgo.Client, map[string][]int32)) (committer, error) {
	g := s.conf.Guarantee
	if g.ReadCommitted {
		opts = append(opts, kgo.FetchIsolationLevel(kgo.ReadCommitted()))
	}
	if !g.ExactlyOnce {
		cl, err := kgo.NewClient(append(opts, kgo.OnPartitionsRevoked(revoked), kgo.OnPartitionsLost(lost))...)
		if err != nil {
			return nil, err
		}
		return offsetCommitter{cl}, nil
	}
	t := &txnCommitter{s: s}
	// franz-go fetches group offsets with RequireStable always (KIP-447):
	// the fencing described at the top of this file needs nothing more.
	sess, err := kgo.NewGroupTransactSession(append(opts,
		kgo.TransactionalID(s.transactionalID()),
		kgo.TransactionTimeout(g.TxnTimeout),
		kgo.OnPartitionsRevoked(func(ctx context.Context, cl *kgo.Client, m map[string][]int32) {
			if len(m) > 0 {
				t.rebalanced.Store(true)
			}
			revoked(ctx, cl, m)
		}),
		kgo.OnPartitionsLost(func(ctx context.Context, cl *kgo.Client, m map[string][]int32) {
			t.rebalanced.Store(true)
			lost(ctx, cl, m)
		}),
	)...)
	if err != nil {
		return nil, err
	}
	t.sess = sess
	return t, nil
}

// offsetCommitter is at_least_once: commit the offsets of what was
// acknowledged.
type offsetCommitter struct{ cl *kgo.Client }

func (c offsetCommitter) client() *kgo.Client { return c.cl }
func (c offsetCommitter) begin() error        { return nil }
func (c offsetCommitter) abort(cause error) error {
	return cause
}

// commit commits what was processed and acknowledged: the whole batch.
func (c offsetCommitter) commit(ctx context.Context, done []*kgo.Record) (bool, error) {
	if len(done) > 0 {
		if err := c.cl.CommitRecords(ctx, done...); err != nil {
			return false, fmt.Errorf("commit offsets: %w", err)
		}
	}
	return true, nil
}

// With BlockRebalanceOnPoll the client must be closed this way, or a
// pending rebalance would wait for a poll that never comes.
func (c offsetCommitter) close() {
	c.cl.AllowRebalance()
	// Close alone waits for the LeaveGroup request as long as the client
	// retries it: with a broker that accepts connections and never
	// answers, a stop waited 40 s and more in it. Leaving is a courtesy
	// (the group notices a member gone within the session timeout), so it
	// gets leaveBound, and Close then returns at once.
	ctx, cancel := context.WithTimeout(context.Background(), leaveBound)
	defer cancel()
	_ = c.cl.LeaveGroupContext(ctx)
	c.cl.Close()
}

// leaveBound is how long closing a consumer waits for the broker to
// acknowledge that it leaves its group.
const leaveBound = 2 * time.Second

// txnCommitter is exactly_once: one transaction per batch.
type txnCommitter struct {
	s    *Stream
	sess *kgo.GroupTransactSession
	open bool // a transaction was begun and not ended
	// rebalanced is set when partitions are revoked or lost during a
	// transaction: the reason End gives none for.
	rebalanced atomic.Bool
}

func (t *txnCommitter) client() *kgo.Client { return t.sess.Client() }

func (t *txnCommitter) begin() error {
	t.rebalanced.Store(false)
	if err := t.sess.Begin(); err != nil {
		return fmt.Errorf("begin transaction: %w", err)
	}
	t.open = true
	return nil
}

// endCtx bounds ending a transaction. It is not the batch's context: a
// hard stop cancels that one, and a cancelled End leaves the transaction's
// outcome unknown, so an End always runs to its answer, within the
// transaction timeout (after which the broker has aborted anyway).
func (t *txnCommitter) endCtx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), t.s.conf.Guarantee.TxnTimeout)
}

// commit ends the batch's transaction, which commits the offsets of every
// record polled since the last: the batch's, as the consume loops poll no
// record beyond it (microbatch.go).
func (t *txnCommitter) commit(_ context.Context, _ []*kgo.Record) (bool, error) {
	start := time.Now()
	ctx, cancel := t.endCtx()
	defer cancel()
	committed, err := t.sess.End(ctx, kgo.TryCommit)
	t.open = false
	if err != nil {
		t.s.tm.aborted.Inc()
		return false, fmt.Errorf("commit transaction: %w", err)
	}
	if !committed {
		t.s.tm.aborted.Inc()
		reason := "the broker refused the transaction's offset commit with an abortable error (a rebalance or a coordinator change)"
		if t.rebalanced.Load() {
			reason = "the consumer group rebalanced during the transaction"
		}
		t.s.log.Warn("transaction aborted; its batch will be processed again", "reason", reason)
		return false, nil
	}
	t.s.tm.committed.Inc()
	t.s.tm.commit.Observe(time.Since(start).Seconds())
	return true, nil
}

func (t *txnCommitter) abort(cause error) error {
	if err := t.end(kgo.TryAbort); err != nil {
		return fmt.Errorf("%w; then abort transaction: %w", cause, err)
	}
	return fmt.Errorf("transaction aborted: %w", cause)
}

// end ends the open transaction, if any, committing or aborting.
func (t *txnCommitter) end(how kgo.TransactionEndTry) error {
	if !t.open {
		return nil
	}
	ctx, cancel := t.endCtx()
	defer cancel()
	_, err := t.sess.End(ctx, how)
	t.open = false
	if how == kgo.TryAbort {
		t.s.tm.aborted.Inc()
	}
	return err
}

// close aborts a transaction left open (a path that failed between begin
// and End), so that it never waits for the transaction timeout, then
// closes the client.
func (t *txnCommitter) close() {
	if err := t.end(kgo.TryAbort); err != nil {
		t.s.log.Warn("abort the open transaction at close; the broker aborts it after the transaction timeout", "error", err)
	}
	t.sess.CloseAllowingRebalance()
}
