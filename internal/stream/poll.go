package stream

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/serialize"
	"github.com/weir-streams/weir/internal/status"
)

// maxPollRecords bounds one micro-batch, and with it the memory a batch
// holds, whatever the backlog. Everything a poll holds until it is
// committed grows with it (the pooled record batches, serialization slabs
// and produce buffers, the copied lines, the fetched records), and so does
// how much of a poll's fixed cost (the flush, the acknowledgements, the
// commit, the produce requests and wake-ups they take) each record bears.
// The sample job at 4,096 against 2,048 ran faster in 11 of 12 alternated
// pairs (median 1.13) for a peak RSS about 10 MB higher (BENCHMARKS.md).
// The garbage collector is not what the bigger poll saves: it took 1 % of
// the CPU at either size (gctrace).
const maxPollRecords = 4096

// pollBytes and pollOutBytes are what a poll aims to hold: pollBytes of
// message values polled, pollOutBytes of serialized output (keys and
// values of the output and error records). A poll of maxPollRecords
// records of 10 KB would hold 40 MB, and the copies, fields and serialized
// output of a batch several times that; a job whose processors turn short
// lines into large records holds several times its input. After each poll
// the next one takes as many records as fit in both at the averages seen,
// between minPollRecords and maxPollRecords. Log lines of 236 bytes parsed
// into 870 bytes of JSON and key (the sample job) come 4,096 at a time;
// the same lines enriched with user agents and host names (1,200 bytes)
// about 3,500. The first poll of a consumer, before any size is known,
// takes minPollRecords, so that large records never come 4,096 at once.
const (
	pollBytes      = 1 << 20
	pollOutBytes   = 4 << 20
	minPollRecords = 256
)

// nextPollRecords returns how many records to poll next, from the
// records of the last poll and the bytes their processing serialized.
func nextPollRecords(parts []polledPartition, outBytes int64) int {
	n, size := 0, 0
	for _, p := range parts {
		for _, r := range p.Records {
			size += len(r.Value) + len(r.Key)
		}
		n += len(p.Records)
	}
	if n == 0 {
		return minPollRecords
	}
	next := maxPollRecords
	if size > 0 {
		next = min(next, pollBytes/(size/n+1))
	}
	if outBytes > 0 {
		next = min(next, int(pollOutBytes/(outBytes/int64(n)+1)))
	}
	return max(next, minPollRecords)
}

// run consumes until stopped. A failed batch (a produce that was not
// acknowledged, a commit refused) restarts the consumer, which resumes from
// the last committed offsets: at-least-once, nothing lost.
func (s *Stream) run(loopCtx, workCtx context.Context) {
	defer close(s.done)
	// The offsets watcher keeps the lag moving while the consumer is
	// blocked or paused; it ends with the loop.
	watchCtx, stopWatch := context.WithCancel(loopCtx)
	var watch sync.WaitGroup
	watch.Add(1)
	go func() {
		defer watch.Done()
		s.watchOffsets(watchCtx)
	}()
	defer watch.Wait()
	defer stopWatch()
	backoff := 500 * time.Millisecond
	for {
		err := s.consume(loopCtx, workCtx)
		if loopCtx.Err() != nil {
			return
		}
		s.pm.restarts.Inc()
		s.prog.noteError(err)
		s.prog.setState(StatePaused, err.Error())
		s.log.Error("stream consumer failed; restarting from the last committed offsets", "error", err, "retry_in", backoff)
		s.noteFailure(err)
		select {
		case <-time.After(backoff):
		case <-loopCtx.Done():
			return
		}
		backoff = min(backoff*2, 30*time.Second)
	}
}

// fetchOpts bounds what the client buffers ahead of processing, for
// memory: two fetches of broker.input.fetch.max.bytes in flight or
// buffered, each with at most broker.input.fetch.max.partition.bytes of a
// partition, which the client decompresses (six to seven times that for
// the sample job's snappy input) and keeps until the records are polled.
// The defaults (512 KiB, 256 KiB) measured against
// 1 MiB and 512 KiB: the sample job's peak RSS 59-64 MB against 68-74
// (median 60.5 against 70) at the same CPU per record (8 alternated pairs,
// median 1.00), lines of 1 KB 69 against 83 MB, also at the same CPU.
// Lines of 10 KB first ran at 14-22 % fewer records per CPU-second with
// the smaller fetches, as a smaller live heap made the collector run a
// third more often over the garbage of slabs that records outgrew; once
// send stopped that, 10 KB ran at the same CPU either way (1.06 in 3
// pairs) at 61 MB against 80 (BENCHMARKS.md, "End to end").
// The broker still returns a batch larger than these whole (KIP-74).
func fetchOpts(c Config) []kgo.Opt {
	return []kgo.Opt{kgo.FetchMaxBytes(int32(c.FetchMaxBytes)), kgo.FetchMaxPartitionBytes(int32(c.FetchMaxPartBytes)), kgo.MaxConcurrentFetches(2)}
}

func (s *Stream) consume(loopCtx, workCtx context.Context) (err error) {
	s.prog.newClient()
	revoked, lost := s.prog.revoked("revoked"), s.prog.revoked("lost")
	var bt *batcher
	if s.eng.MaxRate > 0 {
		bt = newBatcher(s)
		revoked, lost = bt.forgetting(revoked), bt.forgetting(lost)
	}
	cm, err := s.newCommitter(append([]kgo.Opt{
		kgo.SeedBrokers(s.seeds...),
		kgo.ClientID("weir-" + s.conf.Name),
		kgo.ConsumerGroup(s.eng.AppName),
		kgo.DisableAutoCommit(),
		kgo.BlockRebalanceOnPoll(),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
		// A process that dies is replaced within the session timeout; the
		// heartbeat runs beside processing, so long batches do not expire it.
		kgo.SessionTimeout(10 * time.Second),
		kgo.HeartbeatInterval(time.Second),
		// The batch limit is the stream's largest message, which the
		// topics it creates accept too (max.message.bytes); the producer
		// checks each record against it before producing.
		kgo.ProducerBatchMaxBytes(int32(s.conf.MaxMessageBytes)),
		kgo.MaxBufferedRecords(8192),
		s.compOpt,
		// Called after every join, even with nothing assigned: the stream
		// reached its brokers and is in its group (/readyz); the offset
		// watcher learns the partitions it must report.
		kgo.OnPartitionsAssigned(func(ctx context.Context, cl *kgo.Client, m map[string][]int32) {
			s.prog.assigned(ctx, cl, m)
		}),
	}, slices.Concat(s.conf.ConsumerOpts(), fetchOpts(s.conf), s.partOpts, s.secOpts)...), revoked, lost)
	if err != nil {
		return fmt.Errorf("kafka client: %w", err)
	}
	cl := cm.client()
	// After a failure the stream is paused, not unassigned: its
	// partitions stay listed while it waits to resume. close ends a
	// transaction left open and closes the client allowing the pending
	// rebalance (txn.go).
	defer func() {
		if err != nil {
			s.prog.closingAfterFailure()
		}
		cm.close()
	}()
	s.prog.setState(StateRunning, "")
	if bt != nil {
		bt.cl = cl
		return s.consumeBatches(loopCtx, workCtx, cm, bt)
	}

	// Without a rate limit a batch is one poll, sized by bytes
	// (nextPollRecords). due is when the next batch's records count as
	// available: the end of its interval. Scheduling delay (Spark's
	// definition) runs from then, or from the first record's arrival if
	// later, to the start of processing; time spent waiting for records is
	// never counted. While a backlog is drained the intervals keep ticking
	// (due advances by one interval per batch), so a stream whose batches
	// take longer than the interval shows a growing delay.
	due := time.Now()
	behind := false
	pollRecords := minPollRecords
	for {
		if wait := time.Until(due); wait > 0 && !behind {
			select {
			case <-time.After(wait):
			case <-loopCtx.Done():
				return nil
			}
		}
		fetches := cl.PollRecords(loopCtx, pollRecords)
		if loopCtx.Err() != nil || fetches.IsClientClosed() {
			return nil
		}
		polledAt := time.Now()
		s.noteFetchErrors(fetches)
		parts, more := s.partitions(fetches)
		if len(parts) == 0 {
			behind = false
			cl.AllowRebalance()
			continue
		}
		s.prog.polled(parts)
		available := due
		if !behind {
			// The poll waited for the records, or found them buffered by
			// the end of the interval: whichever came later.
			available = maxTime(due, polledAt)
		}
		start := time.Now()
		delay := max(start.Sub(available), 0)
		committed, outBytes, err := s.runBatch(workCtx, cm, cl, parts, start, delay)
		if err != nil {
			return err
		}
		pollRecords = nextPollRecords(parts, outBytes)
		switch {
		case !committed:
			// An aborted transaction: its records are polled again.
		case more:
			// A backlog: take the next batch at once; its records were
			// available when its interval ended.
			due, behind = due.Add(s.eng.BatchInterval), true
		default:
			due, behind = start.Add(s.eng.BatchInterval), false
		}
		cl.AllowRebalance()
	}
}

// consumeBatches is the consume loop under maxRatePerPartition: one batch
// per interval, each partition contributing at most its share
// (microbatch.go). A batch is taken when its interval ends, or, when no
// record waited then, as soon as one arrives; the next interval ends one
// batch interval after that. A batch that takes longer than the interval
// delays the next, whose scheduling delay shows it, as in Spark; the
// average rate stays within the limit since every interval brings at most
// one share per partition.
func (s *Stream) consumeBatches(loopCtx, workCtx context.Context, cm committer, bt *batcher) error {
	cl := cm.client()
	due := time.Now()
	for {
		if wait := time.Until(due); wait > 0 {
			select {
			case <-time.After(wait):
			case <-loopCtx.Done():
				return nil
			}
		}
		began := time.Now()
		parts, arrived, ok := bt.take(loopCtx)
		if !ok {
			return nil
		}
		s.prog.polled(parts)
		// Taking the batch (its fetches) is part of its processing, as
		// reading its offset ranges is in Spark.
		start := maxTime(began, arrived)
		available := maxTime(due, arrived)
		if _, _, err := s.runBatch(workCtx, cm, cl, parts, start, max(start.Sub(available), 0)); err != nil {
			return err
		}
		due = available.Add(s.eng.BatchInterval)
		cl.AllowRebalance()
	}
}

// runBatch processes the partitions of one batch, makes the batch durable
// with the stream's guarantee (txn.go) and records it. committed is false
// with no error when the batch was abandoned (an aborted transaction); its
// records are polled again. An error fails the consumer.
func (s *Stream) runBatch(workCtx context.Context, cm committer, cl *kgo.Client, parts []polledPartition, start time.Time, delay time.Duration) (committed bool, outBytes int64, err error) {
	if err := cm.begin(); err != nil {
		return false, 0, err
	}
	done, outBytes, err := s.processPoll(workCtx, cl, parts)
	if err != nil {
		return false, 0, cm.abort(err)
	}
	if committed, err = cm.commit(workCtx, done); err != nil || !committed {
		return false, outBytes, err
	}
	end := time.Now()
	processing := end.Sub(start)
	s.prog.committedRecords(done, status.BatchSummary{End: end.UTC(), Records: countRecords(parts),
		SchedulingDelayMs: ms(delay), ProcessingMs: ms(processing), TotalDelayMs: ms(delay + processing)})
	s.m.delay.Observe(delay.Seconds())
	s.m.batch.Observe(processing.Seconds())
	s.m.total.Observe((delay + processing).Seconds())
	s.recordBatch(start, delay, parts)
	return true, outBytes, nil
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func countRecords(parts []polledPartition) int {
	n := 0
	for _, p := range parts {
		n += len(p.Records)
	}
	return n
}

// polledPartition is the records of one partition in a poll, with the
// topic's Kafka topic id (zero when the broker gives none).
type polledPartition struct {
	kgo.FetchTopicPartition
	TopicID [16]byte
}

// partitions merges the records of a poll by partition. A poll may hold
// one partition more than once (one entry per buffered fetch response);
// merged, one worker takes a partition's records in offset order. more
// reports whether any partition has records beyond those polled: a
// backlog. The lag gauges are the offsets watcher's and progress's job
// (progress.go), for every assigned partition, not only the polled ones.
func (s *Stream) partitions(fetches kgo.Fetches) (parts []polledPartition, more bool) {
	index := map[tp]int{}
	for _, f := range fetches {
		for _, t := range f.Topics {
			for _, fp := range t.Partitions {
				if len(fp.Records) == 0 {
					continue
				}
				key := tp{t.Topic, fp.Partition}
				if i, ok := index[key]; ok {
					parts[i].Records = append(parts[i].Records, fp.Records...)
					parts[i].HighWatermark = max(parts[i].HighWatermark, fp.HighWatermark)
					if parts[i].TopicID == ([16]byte{}) {
						parts[i].TopicID = t.TopicID
					}
					continue
				}
				index[key] = len(parts)
				parts = append(parts, polledPartition{FetchTopicPartition: kgo.FetchTopicPartition{Topic: t.Topic, FetchPartition: fp}, TopicID: t.TopicID})
			}
		}
	}
	for _, p := range parts {
		more = more || p.HighWatermark > p.Records[len(p.Records)-1].Offset+1
	}
	return parts, more
}

// processPoll runs the partitions of one poll through one chain
// generation, on up to Workers goroutines, and returns once every output,
// error record and completion is acknowledged. It returns the last
// processed record of each partition, to commit, and the bytes serialized
// (nextPollRecords).
func (s *Stream) processPoll(ctx context.Context, cl *kgo.Client, parts []polledPartition) (done []*kgo.Record, outBytes int64, err error) {
	chain := s.acquire()
	defer chain.inflight.Done()

	pr := &producer{cl: cl, ctx: ctx, slabs: &s.slabs, sents: &s.sents, limit: s.conf.MaxMessageBytes,
		errTops: s.conf.Errors, errSer: s.errSer, log: s.log, m: s.pm}
	pr.ack = pr.acked
	// One record batch serves the whole poll, each partition its own
	// stretch of it: the pool then keeps one batch of a full poll, which
	// serves every poll whatever its split into partitions and chunks.
	// (A batch per chunk left the pool unable to serve polls split
	// differently from the last, and every such poll allocated its records
	// anew: 2-3 MB a poll, and more live heap.)
	perRecord := s.fieldsPerRecord()
	recs := s.records.Get(countRecords(parts), perRecord)
	from := make([]int, len(parts))
	for i := 1; i < len(parts); i++ {
		from[i] = from[i-1] + len(parts[i-1].Records)
	}
	work := make(chan int)
	errc := make(chan error, len(parts))
	last := make([]*kgo.Record, len(parts)) // each slot written by one worker
	var wg sync.WaitGroup
	for range min(s.workers, len(parts)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				p := parts[i]
				own := recs[from[i] : from[i]+len(p.Records)]
				if err := s.processChunk(ctx, chain, pr, p.Topic, p.TopicID, p.Partition, p.Records, own); err != nil {
					errc <- err
					continue
				}
				last[i] = p.Records[len(p.Records)-1]
			}
		}()
	}
	for i := range parts {
		work <- i
	}
	close(work)
	wg.Wait()
	close(errc)
	for e := range errc {
		if err == nil {
			err = e
		}
	}
	// Wait for produce acknowledgements even after a failure, so no
	// callback outlives this batch. Once every record is acknowledged the
	// client holds none of them, and their slabs serve the next poll.
	perr := pr.wait()
	if perr == nil {
		// Records the broker refused for good are written again one by
		// one, or become error records; the poll then commits.
		perr = pr.resolve(ctx)
	}
	pr.recycle()
	if perr != nil {
		s.m.produceErrors.WithLabelValues(s.conf.Name, produceReason(perr)).Inc()
		return nil, 0, perr
	}
	if err != nil {
		return nil, 0, err
	}
	// Every record of the poll is serialized and acknowledged (refused
	// ones written again by resolve), and every processor call and
	// completion has returned: the record batch serves the next poll
	// (record.BatchPool's contract). After a failure (returned above) it
	// is left to the garbage collector: a sink may still hold records of
	// an unfinished chunk.
	s.records.Put(recs, perRecord)
	return last, pr.outBytes.Load(), nil
}

// processChunk processes records, whose Weir records are made in recs
// (one each, from the poll's batch), with RunChunk, writing through the
// poll's producer.
func (s *Stream) processChunk(ctx context.Context, chain *Chain, pr *producer, topic string, topicID [16]byte, partition int32, records []*kgo.Record, recs []record.Record) error {
	w := &streamWriter{s: s, pr: pr}
	defer pr.release(&w.out)
	b := component.Batch{Topic: topic, Partition: partition, Records: make([]*record.Record, 0, len(records))}
	ids := record.NewIDs(len(records))
	decode := func(i int) (*record.Record, bool) {
		kr, r := records[i], &recs[i]
		r.Origin = record.Origin{Topic: kr.Topic, TopicID: topicID, Partition: kr.Partition, Offset: kr.Offset}
		r.Init(ids.ID(r.Origin), "", kr.Timestamp.UnixMilli())
		return r, decodeFetched(s.inSer, r, kr.Key, kr.Value)
	}
	s.m.in.Add(float64(len(records)))
	s.tally.in.Add(int64(len(records)))
	res, err := RunChunk(ctx, chain, &b, len(records), decode, w)
	if err != nil {
		return err
	}
	s.m.out.Add(float64(res.Written))
	s.tally.out.Add(int64(res.Written))
	s.m.errs.Add(float64(len(res.Failed) + res.Diverted))
	s.tally.errs.Add(int64(len(res.Failed) + res.Diverted))
	if tap := s.deps.Tap; tap.Sample() {
		// One record of each kind, in the JSON form of the written ones.
		if len(res.Kept) > 0 {
			tap.Offer(s.conf.Name, false, serialize.AppendRecordJSON(nil, res.Kept[0]))
		}
		if len(res.Failed) > 0 {
			tap.Offer(s.conf.Name, true, serialize.AppendRecordJSON(nil, res.Failed[0]))
		}
	}
	return nil
}

// streamWriter is the ChunkWriter of a stream's chunk: it produces the
// chunk's records with the poll's producer.
type streamWriter struct {
	s   *Stream
	pr  *producer
	out chunkOut
}

// Processed implements ChunkWriter.
func (w *streamWriter) Processed(kept []*record.Record, dropped int) {
	w.s.m.filtered.Add(float64(dropped))
	w.s.tally.filtered.Add(int64(dropped))
	w.s.noteFields(kept)
	w.out.stamp, w.out.hint = chunkStamp(), len(kept)
}

// Output implements ChunkWriter.
func (w *streamWriter) Output(ctx context.Context, r *record.Record) (string, bool, error) {
	topics, reason := w.s.outputTopics(ctx, w.pr.cl, r)
	if reason != "" {
		return reason, false, nil
	}
	diverted, err := w.pr.send(&w.out, r, topics, w.s.outSer, false)
	return "", diverted, err
}

// Failed implements ChunkWriter.
func (w *streamWriter) Failed(_ context.Context, recs []*record.Record, refused bool) error {
	if refused {
		// The sinks' acknowledgements can take seconds: the records
		// they refused are stamped when they are written, not before.
		w.out.stamp = chunkStamp()
	}
	w.out.hint = len(recs)
	for _, r := range recs {
		if _, err := w.pr.send(&w.out, r, w.s.conf.Errors, w.s.errSer, true); err != nil {
			return err
		}
	}
	return nil
}

// chunkStamp returns the Kafka timestamp (CreateTime) of the messages a
// chunk produces: now, in whole milliseconds as Kafka keeps it. One
// reading of the clock serves the chunk's records; franz-go would read it
// for each message without a timestamp (1-1.5 % of the CPU of the sample
// job).
func chunkStamp() time.Time {
	return time.Now().Truncate(time.Millisecond)
}

// defaultFieldsPerRecord is the field capacity of records before the
// stream has seen a chunk: enough for a parsed log line.
const defaultFieldsPerRecord = 16

// fieldsPerRecord returns the field capacity to give the records of a new
// chunk: the most fields a record of the latest chunk ended with. Sized
// this way, the sample job's records take 12 fields instead of 16, and a
// job whose records end with 30 fields does not grow every record's slice.
func (s *Stream) fieldsPerRecord() int {
	if n := s.fieldHint.Load(); n > 0 {
		return int(n)
	}
	return defaultFieldsPerRecord
}

// noteFields remembers the field count of the chunk's largest record, for
// the next chunk. Records that failed are left out: they are few, and a
// record that outgrows its share only costs an allocation of its own.
func (s *Stream) noteFields(recs []*record.Record) {
	most := 0
	for _, r := range recs {
		most = max(most, r.Len())
	}
	if most > 0 {
		s.fieldHint.Store(int64(most))
	}
}

// produceReason names a refused write for the produce errors counter: the
// Kafka error's name, or the kind of failure, never a free-form message
// (label values must stay few).
func produceReason(err error) string {
	var ke *kerr.Error
	switch {
	case errors.As(err, &ke):
		return ke.Message
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return "canceled"
	case errors.Is(err, kgo.ErrRecordTimeout):
		return "record_timeout"
	case errors.Is(err, kgo.ErrMaxBuffered):
		return "max_buffered"
	default:
		return "other"
	}
}
