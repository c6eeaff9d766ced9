package stream

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/record"
)

// maxPollRecords bounds one micro-batch, and with it the memory a batch
// holds, whatever the backlog.
const maxPollRecords = 4096

// run consumes until stopped. A failed batch (a produce that was not
// acknowledged, a commit refused) restarts the consumer, which resumes from
// the last committed offsets: at-least-once, nothing lost.
func (s *Stream) run(loopCtx, workCtx context.Context) {
	defer close(s.done)
	backoff := 500 * time.Millisecond
	for {
		err := s.consume(loopCtx, workCtx)
		if loopCtx.Err() != nil {
			return
		}
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

func (s *Stream) consume(loopCtx, workCtx context.Context) error {
	cl, err := kgo.NewClient(
		kgo.SeedBrokers(s.seeds...),
		kgo.ClientID("weir-"+s.conf.Name),
		kgo.ConsumerGroup(s.eng.AppName),
		kgo.ConsumeTopics(s.conf.Inputs...),
		kgo.DisableAutoCommit(),
		kgo.BlockRebalanceOnPoll(),
		// Called after every join, even with nothing assigned: the stream
		// reached its brokers and is in its group (/readyz).
		kgo.OnPartitionsAssigned(func(context.Context, *kgo.Client, map[string][]int32) { s.joined.Store(true) }),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
		// A process that dies is replaced within the session timeout; the
		// heartbeat runs beside processing, so long batches do not expire it.
		kgo.SessionTimeout(10*time.Second),
		kgo.HeartbeatInterval(time.Second),
		// Bound what the client buffers ahead of processing, for memory.
		kgo.FetchMaxBytes(2<<20),
		kgo.FetchMaxPartitionBytes(1<<20),
		kgo.MaxConcurrentFetches(2),
		kgo.ProducerBatchMaxBytes(1<<20),
		kgo.MaxBufferedRecords(8192),
		s.compOpt,
	)
	if err != nil {
		return fmt.Errorf("kafka client: %w", err)
	}
	// With BlockRebalanceOnPoll the client must be closed this way, or a
	// pending rebalance would wait for a poll that never comes.
	defer cl.CloseAllowingRebalance()

	next := time.Now()
	for {
		if wait := time.Until(next); wait > 0 {
			select {
			case <-time.After(wait):
			case <-loopCtx.Done():
				return nil
			}
		}
		fetches := cl.PollRecords(loopCtx, maxPollRecords)
		if loopCtx.Err() != nil || fetches.IsClientClosed() {
			return nil
		}
		for _, fe := range fetches.Errors() {
			if errors.Is(fe.Err, context.Canceled) {
				continue
			}
			s.log.Warn("fetch error", "topic", fe.Topic, "partition", fe.Partition, "error", fe.Err)
		}
		start := time.Now()
		delay := max(start.Sub(next), 0)
		s.m.delay.Observe(delay.Seconds())
		next = start.Add(s.eng.BatchInterval)
		parts, behind := s.partitions(fetches)
		if behind {
			// A backlog: take the next batch at once. The interval only
			// bounds how long records wait while the stream keeps up.
			next = start
		}
		if len(parts) == 0 {
			cl.AllowRebalance()
			continue
		}
		done, err := s.processPoll(loopCtx, workCtx, cl, parts)
		if err != nil && !errors.Is(err, errStopping) {
			return err
		}
		// Commit exactly what was processed and acknowledged: the whole
		// poll, or, when a stop interrupted a rate-limited poll, the chunks
		// finished before it.
		if len(done) > 0 {
			if cerr := cl.CommitRecords(workCtx, done...); cerr != nil {
				return fmt.Errorf("commit offsets: %w", cerr)
			}
		}
		if err != nil {
			return nil // stopping
		}
		s.m.batch.Observe(time.Since(start).Seconds())
		s.recordBatch(start, delay, parts)
		cl.AllowRebalance()
	}
}

// partitions merges the records of a poll by partition and sets each
// partition's lag. A poll may hold one partition more than once (one entry
// per buffered fetch response); merged, one worker takes a partition's
// records in offset order. behind reports whether any partition has
// records beyond those polled: a backlog.
func (s *Stream) partitions(fetches kgo.Fetches) (parts []kgo.FetchTopicPartition, behind bool) {
	index := map[tp]int{}
	fetches.EachPartition(func(p kgo.FetchTopicPartition) {
		if len(p.Records) == 0 {
			return
		}
		key := tp{p.Topic, p.Partition}
		if i, ok := index[key]; ok {
			parts[i].Records = append(parts[i].Records, p.Records...)
			parts[i].HighWatermark = max(parts[i].HighWatermark, p.HighWatermark)
			return
		}
		index[key] = len(parts)
		parts = append(parts, p)
	})
	for _, p := range parts {
		lag := max(p.HighWatermark-p.Records[len(p.Records)-1].Offset-1, 0)
		s.m.lag.WithLabelValues(s.conf.Name, p.Topic, strconv.Itoa(int(p.Partition))).Set(float64(lag))
		behind = behind || lag > 0
	}
	return parts, behind
}

// errStopping ends a poll early when the stream is asked to stop while a
// rate limit holds records back.
var errStopping = errors.New("stream stopping")

// processPoll runs the partitions of one poll through one chain
// generation, on up to Workers goroutines, and returns once every output,
// error record and completion is acknowledged. It returns the last
// processed record of each partition, to commit.
func (s *Stream) processPoll(stopping, ctx context.Context, cl *kgo.Client, parts []kgo.FetchTopicPartition) ([]*kgo.Record, error) {
	chain := s.acquire()
	defer chain.inflight.Done()

	pr := &producer{cl: cl, ctx: ctx, slabs: &s.slabs}
	work := make(chan int)
	errc := make(chan error, len(parts))
	last := make([]*kgo.Record, len(parts)) // each slot written by one worker
	var wg sync.WaitGroup
	for range min(s.workers, len(parts)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				if err := s.processPartition(stopping, ctx, chain, pr, parts[i], &last[i]); err != nil {
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
	var err error
	for e := range errc {
		if err == nil || errors.Is(err, errStopping) {
			err = e
		}
	}
	// Wait for produce acknowledgements even after a failure, so no
	// callback outlives this batch. Once every record is acknowledged the
	// client holds none of them, and their slabs serve the next poll.
	perr := pr.wait()
	pr.recycle()
	if perr != nil {
		return nil, perr
	}
	if err != nil && !errors.Is(err, errStopping) {
		return nil, err
	}
	var done []*kgo.Record
	for _, r := range last {
		if r != nil {
			done = append(done, r)
		}
	}
	return done, err
}

// processPartition processes the records of one partition in offset
// order. Under maxRatePerPartition they go in chunks of one batch
// interval's worth, each waiting for its share of time, so a partition never
// bursts past its rate however much a poll returned.
//
// *last is set to the last record of every chunk whose records were all
// handed to the producer and whose completions were acknowledged; the
// caller commits it once the producer has acknowledged too.
func (s *Stream) processPartition(stopping, ctx context.Context, chain *Chain, pr *producer, p kgo.FetchTopicPartition, last **kgo.Record) error {
	chunk := len(p.Records)
	if s.eng.MaxRate > 0 {
		chunk = int(max(s.eng.MaxRate*s.eng.BatchInterval.Milliseconds()/1000, 1))
	}
	for start := 0; start < len(p.Records); start += chunk {
		rs := p.Records[start:min(start+chunk, len(p.Records))]
		if s.eng.MaxRate > 0 {
			if err := s.limiter.wait(stopping, tp{p.Topic, p.Partition}, len(rs), s.eng.MaxRate); err != nil {
				return errStopping
			}
		}
		if err := s.processChunk(ctx, chain, pr, p.Topic, p.Partition, rs); err != nil {
			return err
		}
		*last = rs[len(rs)-1]
	}
	return nil
}

func (s *Stream) processChunk(ctx context.Context, chain *Chain, pr *producer, topic string, partition int32, records []*kgo.Record) error {
	b := component.Batch{Topic: topic, Partition: partition, Records: make([]*record.Record, 0, len(records))}
	var failed []*record.Record
	recs := record.NewBatchFields(len(records), s.fieldsPerRecord())
	for i, kr := range records {
		r := &recs[i]
		r.Init(record.DeriveID(kr.Topic, kr.Partition, kr.Offset, 0), "", kr.Timestamp.UnixMilli())
		r.Origin = record.Origin{Topic: kr.Topic, Partition: kr.Partition, Offset: kr.Offset}
		if err := s.inSer.Deserialize(r, kr.Key, kr.Value); err != nil {
			r.AddError(record.ErrDeserializing, err.Error())
			r.Set(record.FieldValue, rawValue(kr.Value))
			r.MarkSource("input.serializer")
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

	var slab []byte
	for _, r := range b.Records {
		if slab, err = pr.send(slab, r, s.conf.Outputs, s.outSer); err != nil {
			return err
		}
	}
	s.m.out.Add(float64(len(b.Records)))
	s.tally.out.Add(int64(len(b.Records)))
	for i, c := range b.Completions() {
		more, err := c.Wait(ctx)
		if err != nil {
			return fmt.Errorf("wait for processor %q acknowledgement: %w", b.AwaitedBy(i), err)
		}
		for _, r := range more {
			r.MarkSource(b.AwaitedBy(i))
		}
		failed = append(failed, more...)
	}
	for _, r := range failed {
		if slab, err = pr.send(slab, r, s.conf.Errors, s.errSer); err != nil {
			return err
		}
	}
	s.m.errs.Add(float64(len(failed)))
	s.tally.errs.Add(int64(len(failed)))
	return nil
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

// rawValue keeps undecodable input as a string when it is text, and as
// bytes (base64 in JSON) when it is not, so no byte is lost.
func rawValue(b []byte) record.Value {
	if utf8.Valid(b) {
		return record.StringValue(string(b))
	}
	return record.BytesValue(append([]byte(nil), b...))
}
