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
// The eleventh session measured the sample job at 4,096 against 2,048:
// 11 of 12 alternated pairs faster, median 1.13, peak RSS 72-78 MB against
// 62-67 (BENCHMARKS.md, "Eleventh session"); 4,096 fits the 75 MB aim
// only since the executable's start-up pages leave the resident set
// (package exepages). The garbage collector is not what the bigger poll
// saves: it took 1 % of the CPU at either size (gctrace).
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
// The twelfth session measured the defaults (512 KiB, 256 KiB) against
// 1 MiB and 512 KiB: the sample job's peak RSS 59-64 MB against 68-74
// (median 60.5 against 70) at the same CPU per record (8 alternated pairs,
// median 1.00), lines of 1 KB 69 against 83 MB, also at the same CPU.
// Lines of 10 KB first ran at 14-22 % fewer records per CPU-second with
// the smaller fetches, as a smaller live heap made the collector run a
// third more often over the garbage of slabs that records outgrew; once
// send stopped that, 10 KB ran at the same CPU either way (1.06 in 3
// pairs) at 61 MB against 80 (BENCHMARKS.md, "Twelfth session").
// The broker still returns a batch larger than these whole (KIP-74).
func fetchOpts(c Config) []kgo.Opt {
	return []kgo.Opt{kgo.FetchMaxBytes(int32(c.FetchMaxBytes)), kgo.FetchMaxPartitionBytes(int32(c.FetchMaxPartBytes)), kgo.MaxConcurrentFetches(2)}
}

func (s *Stream) consume(loopCtx, workCtx context.Context) (err error) {
	s.prog.newClient()
	cm, err := s.newCommitter(append([]kgo.Opt{
		kgo.SeedBrokers(s.seeds...),
		kgo.ClientID("weir-" + s.conf.Name),
		kgo.ConsumerGroup(s.eng.AppName),
		kgo.ConsumeTopics(s.conf.Inputs...),
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
	}, slices.Concat(fetchOpts(s.conf), s.partOpts, s.secOpts)...), s.prog.revoked("revoked"), s.prog.revoked("lost"))
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

	// due is when the next batch's records count as available: the end of
	// its interval. Scheduling delay (Spark's definition) runs from then, or
	// from the first record's arrival if later, to the start of
	// processing; time spent waiting for records is never counted. While a
	// backlog is drained the intervals keep ticking (due advances by one
	// interval per batch), so a stream whose batches take longer than the
	// interval shows a growing delay.
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
		// Byte-sized polls (nextPollRecords), within what a transaction
		// may hold under maxRatePerPartition (pollLimit, txn.go).
		fetches := cl.PollRecords(loopCtx, min(pollRecords, s.pollLimit()))
		if loopCtx.Err() != nil || fetches.IsClientClosed() {
			return nil
		}
		polledAt := time.Now()
		for _, fe := range fetches.Errors() {
			if errors.Is(fe.Err, context.Canceled) {
				continue
			}
			s.prog.noteError(fmt.Errorf("fetch %s/%d: %w", fe.Topic, fe.Partition, fe.Err))
			s.log.Warn("fetch error", "topic", fe.Topic, "partition", fe.Partition, "error", fe.Err)
		}
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
		if err := cm.begin(); err != nil {
			return err
		}
		done, outBytes, err := s.processPoll(loopCtx, workCtx, cl, parts)
		pollRecords = nextPollRecords(parts, outBytes)
		if err != nil && !errors.Is(err, errStopping) {
			return cm.abort(err)
		}
		// Make the batch durable with the stream's guarantee (txn.go). A
		// batch not committed (an aborted transaction) is polled again.
		committed, cerr := cm.commit(workCtx, done, err == nil)
		if cerr != nil {
			return cerr
		}
		if !committed {
			if err != nil {
				return nil // stopping
			}
			cl.AllowRebalance()
			continue
		}
		end := time.Now()
		processing := end.Sub(start)
		s.prog.committedRecords(done, status.BatchSummary{End: end.UTC(), Records: countRecords(parts),
			SchedulingDelayMs: ms(delay), ProcessingMs: ms(processing), TotalDelayMs: ms(delay + processing)})
		if err != nil {
			return nil // stopping
		}
		s.m.delay.Observe(delay.Seconds())
		s.m.batch.Observe(processing.Seconds())
		s.m.total.Observe((delay + processing).Seconds())
		s.recordBatch(start, delay)
		if more {
			// A backlog: take the next batch at once; its records were
			// available when its interval ended.
			due, behind = due.Add(s.eng.BatchInterval), true
		} else {
			due, behind = start.Add(s.eng.BatchInterval), false
		}
		cl.AllowRebalance()
	}
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

// errStopping ends a poll early when the stream is asked to stop while a
// rate limit holds records back.
var errStopping = errors.New("stream stopping")

// processPoll runs the partitions of one poll through one chain
// generation, on up to Workers goroutines, and returns once every output,
// error record and completion is acknowledged. It returns the last
// processed record of each partition, to commit, and the bytes serialized
// (nextPollRecords).
func (s *Stream) processPoll(stopping, ctx context.Context, cl *kgo.Client, parts []polledPartition) (done []*kgo.Record, outBytes int64, err error) {
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
				own := recs[from[i] : from[i]+len(parts[i].Records)]
				if err := s.processPartition(stopping, ctx, chain, pr, parts[i], own, &last[i]); err != nil {
					errc <- err
				}
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
		if err == nil || errors.Is(err, errStopping) {
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
	if err != nil && !errors.Is(err, errStopping) {
		return nil, 0, err
	}
	// Every record of the poll is serialized and acknowledged (refused
	// ones written again by resolve), and every processor call and
	// completion has returned: the record batch serves the next poll
	// (record.BatchPool's contract). After a failure it is left to the
	// garbage collector: a sink may still hold records of an unfinished
	// chunk.
	if err == nil {
		s.records.Put(recs, perRecord)
	}
	for _, r := range last {
		if r != nil {
			done = append(done, r)
		}
	}
	return done, pr.outBytes.Load(), err
}

// processPartition processes the records of one partition in offset
// order. Under maxRatePerPartition they go in chunks of one batch
// interval's worth, each waiting for its share of time, so a partition never
// bursts past its rate however much a poll returned.
//
// *last is set to the last record of every chunk whose records were all
// handed to the producer and whose completions were acknowledged; the
// caller commits it once the producer has acknowledged too.
//
// recs holds one record, not yet Init, for each of p's records.
func (s *Stream) processPartition(stopping, ctx context.Context, chain *Chain, pr *producer, p polledPartition, recs []record.Record, last **kgo.Record) error {
	chunk := len(p.Records)
	if s.eng.MaxRate > 0 {
		chunk = int(max(s.eng.MaxRate*s.eng.BatchInterval.Milliseconds()/1000, 1))
	}
	for start := 0; start < len(p.Records); start += chunk {
		end := min(start+chunk, len(p.Records))
		rs := p.Records[start:end]
		if s.eng.MaxRate > 0 {
			if err := s.limiter.wait(stopping, tp{p.Topic, p.Partition}, len(rs), s.eng.MaxRate); err != nil {
				return errStopping
			}
		}
		if err := s.processChunk(ctx, chain, pr, p.Topic, p.TopicID, p.Partition, rs, recs[start:end]); err != nil {
			return err
		}
		*last = rs[len(rs)-1]
	}
	return nil
}

// processChunk processes records, whose Weir records are made in recs
// (one each, from the poll's batch).
func (s *Stream) processChunk(ctx context.Context, chain *Chain, pr *producer, topic string, topicID [16]byte, partition int32, records []*kgo.Record, recs []record.Record) error {
	var out chunkOut
	defer pr.release(&out)
	b := component.Batch{Topic: topic, Partition: partition, Records: make([]*record.Record, 0, len(records))}
	var failed []*record.Record
	ids := record.NewIDs(len(records))
	for i, kr := range records {
		r := &recs[i]
		r.Origin = record.Origin{Topic: kr.Topic, TopicID: topicID, Partition: kr.Partition, Offset: kr.Offset}
		r.Init(ids.ID(r.Origin), "", kr.Timestamp.UnixMilli())
		if !decodeFetched(s.inSer, r, kr.Key, kr.Value) {
			failed = append(failed, r)
			continue
		}
		b.Records = append(b.Records, r)
	}
	s.m.in.Add(float64(len(records)))
	s.tally.in.Add(int64(len(records)))

	chainFailed, err := chain.Run(ctx, &b)
	if err != nil {
		return err
	}
	failed = append(failed, chainFailed...)
	s.noteFields(b.Records)

	sent, unwritable := 0, 0
	out.stamp, out.hint = chunkStamp(), len(b.Records)
	for _, r := range b.Records {
		// A record routed to a topic that cannot be written becomes an
		// error record naming it (route.go); the stream goes on.
		topics, reason := s.outputTopics(ctx, pr.cl, r)
		if reason != "" {
			r.AddError(ErrRouting, reason)
			r.MarkSource("")
			failed = append(failed, r)
			continue
		}
		diverted, err := pr.send(&out, r, topics, s.outSer, false)
		if err != nil {
			return err
		}
		if diverted {
			unwritable++
		} else {
			sent++
		}
	}
	s.m.out.Add(float64(sent))
	s.tally.out.Add(int64(sent))
	refused, err := AwaitCompletions(ctx, &b)
	if err != nil {
		return err
	}
	failed = append(failed, refused...)
	if len(refused) > 0 {
		// The sinks' acknowledgements can take seconds: the records
		// they refused are stamped when they are written, not before.
		out.stamp = chunkStamp()
	}
	out.hint = len(failed)
	for _, r := range failed {
		if _, err = pr.send(&out, r, s.conf.Errors, s.errSer, true); err != nil {
			return err
		}
	}
	s.m.errs.Add(float64(len(failed) + unwritable))
	s.tally.errs.Add(int64(len(failed) + unwritable))
	if tap := s.deps.Metrics.Tap(); tap.Sample() {
		// One record of each kind, in the JSON form of the written ones.
		if len(b.Records) > 0 {
			tap.Offer(s.conf.Name, false, serialize.AppendRecordJSON(nil, b.Records[0]))
		}
		if len(failed) > 0 {
			tap.Offer(s.conf.Name, true, serialize.AppendRecordJSON(nil, failed[0]))
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
