package stream

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// This file holds the micro-batches of a stream under
// engine.streaming.broker.maxRatePerPartition, as Spark Streaming's direct
// Kafka stream makes them: once per batch interval, every assigned
// partition contributes at most its share, maxRatePerPartition x
// batchDuration records, and the batch is processed (its partitions side by
// side, up to local[N]) and committed before the next one is taken.
//
// Processing one poll at the rate would not do that. franz-go keeps at
// most one buffered fetch per broker and sends that broker no other fetch
// until every record of it was polled, and a broker fills a fetch response
// partition by partition up to fetch.max.bytes, returning the first record
// batch whole. One fetch response, so one poll, can hold thousands of
// records of one partition and none of the others: processed at 500 a
// second, it would keep the other partitions unfetched for seconds, and its
// offsets uncommitted until its last record.
//
// So the batcher takes from the client no more than each partition's share:
// each poll takes at most as many records as the partition furthest from
// its share still lacks (a poll takes buffered records in their order,
// whatever their partition), and a partition whose share the batch holds is
// paused (PauseFetchPartitions) while the batch waits for the others. A
// poll made while a partition is paused leaves that partition's buffered
// records out, and the client fetches them again once the partition is
// resumed, which the batcher does as soon as the batch is taken, so the
// client fetches ahead while the batch is processed. Records beyond a share
// thus wait in the client's fetch buffer or in Kafka, never in the stream,
// and memory stays bounded by the fetch sizes.
//
// The records of a batch are exactly the records polled since the last
// batch. That is what exactly_once needs: franz-go's GroupTransactSession
// commits, with each transaction, the offsets of every record polled, so a
// record polled and kept for a later batch would be committed unprocessed.

// fillWait bounds how long a batch waits for the records of partitions
// known to have some (their lag says so) that no poll has brought yet: at
// least one batch interval and at least a second, so that a fetch that
// takes a moment on a busy machine does not leave a partition out of a
// batch. Fetches of partitions with records waiting come back at once, so
// the bound is reached only when a broker is slow.
func fillWait(interval time.Duration) time.Duration {
	return max(interval, time.Second)
}

// tp names a topic partition.
type tp struct {
	topic     string
	partition int32
}

// batcher assembles the micro-batches of one consumer client. It is used
// by the consume loop only; forget is called by the client's rebalance
// callbacks.
type batcher struct {
	s     *Stream
	cl    *kgo.Client
	share int

	paused map[tp]bool
	// caughtUp is, for a partition whose lag promises records that no
	// poll will return (control records of transactions and records of
	// aborted ones count in the lag), the end offset at which a poll
	// returned it empty: the batches do not wait for it again until the
	// end offset moves.
	caughtUp map[tp]int64

	mu      sync.Mutex
	revoked []tp
}

// batchShare is the records a partition contributes to one batch at rate
// records a second: rate x interval, at least 1, and at most maxPollRecords,
// the most records a poll takes without a rate limit (memory).
func batchShare(rate int64, interval time.Duration) int {
	n := rate * interval.Milliseconds() / 1000
	return int(min(max(n, 1), maxPollRecords))
}

func newBatcher(s *Stream) *batcher {
	return &batcher{s: s, share: batchShare(s.eng.MaxRate, s.eng.BatchInterval), paused: map[tp]bool{}, caughtUp: map[tp]int64{}}
}

// forget is called by the client's OnPartitionsRevoked and
// OnPartitionsLost callbacks: a partition that leaves the consumer must not
// stay paused should it come back.
func (b *batcher) forget(m map[string][]int32) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for t, ps := range m {
		for _, p := range ps {
			b.revoked = append(b.revoked, tp{t, p})
		}
	}
}

// forgetting wraps a rebalance callback so that it calls forget too.
func (b *batcher) forgetting(f func(context.Context, *kgo.Client, map[string][]int32)) func(context.Context, *kgo.Client, map[string][]int32) {
	return func(ctx context.Context, cl *kgo.Client, m map[string][]int32) {
		b.forget(m)
		f(ctx, cl, m)
	}
}

func (b *batcher) applyRevoked() {
	b.mu.Lock()
	revoked := b.revoked
	b.revoked = nil
	b.mu.Unlock()
	for _, k := range revoked {
		delete(b.caughtUp, k)
	}
	b.resume(revoked)
}

// resume resumes fetching the partitions of ks that the batcher paused.
func (b *batcher) resume(ks []tp) {
	m := map[string][]int32{}
	for _, k := range ks {
		if b.paused[k] {
			delete(b.paused, k)
			m[k.topic] = append(m[k.topic], k.partition)
		}
	}
	if len(m) > 0 {
		b.cl.ResumeFetchPartitions(m)
	}
}

func (b *batcher) resumeAll() {
	ks := make([]tp, 0, len(b.paused))
	for k := range b.paused {
		ks = append(ks, k)
	}
	b.resume(ks)
}

// take returns the next batch: for each partition, at most its share of
// the records that follow the last batch, in offset order. It waits for the
// first record when none is buffered, then at most fillWait for partitions
// that have records waiting and have not brought them yet. ok is false when
// ctx ended or the client closed.
func (b *batcher) take(ctx context.Context) (parts []polledPartition, arrived time.Time, ok bool) {
	b.applyRevoked()
	defer b.resumeAll()
	// What each partition has waiting is read once the first records
	// came: a consumer that just started is assigned its partitions
	// while its first poll waits.
	var pending map[tp]int64
	index := map[tp]int{}
	var fill context.Context
	for {
		if len(parts) > 0 {
			if pending == nil {
				pending = b.pending(ctx)
			}
			if !b.wanting(parts, index, pending) {
				return parts, arrived, true
			}
		}
		pctx := ctx
		if len(parts) > 0 {
			if fill == nil {
				var cancel context.CancelFunc
				fill, cancel = context.WithTimeout(ctx, fillWait(b.s.eng.BatchInterval))
				defer cancel()
			}
			pctx = fill
		}
		fetches := b.cl.PollRecords(pctx, b.limit(parts))
		if ctx.Err() != nil || fetches.IsClientClosed() {
			return nil, time.Time{}, false
		}
		b.s.noteFetchErrors(fetches)
		b.applyRevoked()
		n := len(parts)
		parts = b.absorb(parts, index, pending, fetches)
		if n == 0 && len(parts) > 0 {
			arrived = time.Now()
		}
		if len(parts) == 0 {
			// Nothing is held yet, so a rebalance may run. Under
			// BlockRebalanceOnPoll a poll that returned only errors (a
			// lost group session while the broker is unreachable) keeps
			// rebalances blocked until AllowRebalance: without this the
			// loop polled on, the rejoin never ran and the stream stayed
			// without partitions after the broker came back.
			b.cl.AllowRebalance()
		}
		if fill != nil && fill.Err() != nil {
			// A partition whose records did not come in time is waited
			// for again by the next batch.
			return parts, arrived, true
		}
	}
}

// limit is how many records the next poll may take: what the partition
// furthest from its share still lacks. A poll takes buffered records in
// their order, whatever their partition, so no partition can get more than
// its share.
func (b *batcher) limit(parts []polledPartition) int {
	n := b.share
	for _, p := range parts {
		if lack := b.share - len(p.Records); lack > 0 {
			n = min(n, lack)
		}
	}
	return n
}

// absorb adds the records of a poll to the batch and pauses the partitions
// that reached their share.
//
// A poll can return a partition without records and without error: a
// fetch response that filled up before the partition's records (they come
// with a later fetch), or a partition whose next offsets hold only control
// records of transactions, which the lag counts and no poll returns. In the
// second case the partition's end offset is at most one past the next
// offset to read (one commit or abort marker): the batches do not wait for
// it until its end offset moves.
func (b *batcher) absorb(parts []polledPartition, index map[tp]int, pending map[tp]int64, fetches kgo.Fetches) []polledPartition {
	full := map[string][]int32{}
	var next map[tp]int64
	for _, f := range fetches {
		for _, t := range f.Topics {
			for _, fp := range t.Partitions {
				k := tp{t.Topic, fp.Partition}
				if len(fp.Records) == 0 {
					if fp.Err != nil {
						continue
					}
					if next == nil {
						next = b.s.prog.nextOffsets()
					}
					at, ok := next[k]
					if i, in := index[k]; in {
						at, ok = parts[i].Records[len(parts[i].Records)-1].Offset+1, true
					}
					end := fp.HighWatermark
					if b.s.conf.Guarantee.ReadCommitted && fp.LastStableOffset >= 0 {
						end = min(end, fp.LastStableOffset)
					}
					if ok && end-at <= 1 {
						b.caughtUp[k] = fp.HighWatermark
						delete(pending, k)
					}
					continue
				}
				i, ok := index[k]
				if !ok {
					i = len(parts)
					index[k] = i
					parts = append(parts, polledPartition{FetchTopicPartition: kgo.FetchTopicPartition{Topic: t.Topic, FetchPartition: fp}, TopicID: t.TopicID})
				} else {
					parts[i].Records = append(parts[i].Records, fp.Records...)
					parts[i].HighWatermark = max(parts[i].HighWatermark, fp.HighWatermark)
				}
				if len(parts[i].Records) >= b.share && !b.paused[k] {
					b.paused[k] = true
					full[k.topic] = append(full[k.topic], k.partition)
				}
			}
		}
	}
	if len(full) > 0 {
		b.cl.PauseFetchPartitions(full)
	}
	return parts
}

// wanting reports whether a partition lacks records of its share that its
// lag says are there.
func (b *batcher) wanting(parts []polledPartition, index map[tp]int, pending map[tp]int64) bool {
	for k, lag := range pending {
		have := 0
		if i, ok := index[k]; ok {
			have = len(parts[i].Records)
		}
		if have < b.share && lag > int64(have) {
			return true
		}
	}
	return false
}

// pending returns the records each assigned partition has waiting, as its
// lag says, leaving out the partitions known to be caught up. If
// the end offset of an assigned partition is not known yet (a consumer that
// just joined), the offsets are asked for first.
func (b *batcher) pending(ctx context.Context) map[tp]int64 {
	lags, unknown := b.s.prog.lags()
	if unknown {
		rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		err := b.s.prog.refresh(rctx, kadm.NewClient(b.cl), b.s.eng.AppName)
		cancel()
		if err != nil && !errors.Is(err, context.Canceled) {
			b.s.log.Debug("read partition offsets before a batch", "error", err)
		}
		lags, _ = b.s.prog.lags()
	}
	hwm := b.s.prog.highWatermarks()
	for k := range lags {
		if at, ok := b.caughtUp[k]; ok {
			if hwm[k] == at {
				delete(lags, k)
				continue
			}
			delete(b.caughtUp, k)
		}
	}
	return lags
}

// noteFetchErrors reports the errors of a poll; a cancelled poll is not one.
func (s *Stream) noteFetchErrors(fetches kgo.Fetches) {
	for _, fe := range fetches.Errors() {
		if errors.Is(fe.Err, context.Canceled) || errors.Is(fe.Err, context.DeadlineExceeded) {
			continue
		}
		s.prog.noteError(fmt.Errorf("fetch %s/%d: %w", fe.Topic, fe.Partition, fe.Err))
		s.log.Warn("fetch error", "topic", fe.Topic, "partition", fe.Partition, "error", fe.Err)
	}
}
