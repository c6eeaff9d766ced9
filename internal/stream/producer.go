package stream

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/record"
)

// producer produces asynchronously and remembers the first failure that
// must fail the poll.
//
// Delivery contract (docs/operations.md, "Delivery"): a record whose
// serialized form is larger than limit is never handed to the client; it
// becomes an error record (record_too_large) carrying as much of
// record_value as fits. A record the broker refuses for good (too large for
// the topic, invalid) is kept in refused and resolve writes it again alone,
// once: franz-go fails a partition's whole batch with the error of one of
// its records, so writing each refused record alone writes the good ones
// exactly once and isolates the bad one, which becomes an error record. An
// error record that cannot be written even without its value is counted,
// logged once with its coordinates, and skipped: its offset is committed
// with the poll. Any other failure (retriable errors outlast the client's
// own retries only when the stream stops) fails the poll, which restarts
// from the last commit with backoff.
type producer struct {
	cl        *kgo.Client
	ctx       context.Context
	slabs     *blockPool[byte]
	limit     int                  // broker.output.max.message.bytes
	errTops   []string             // error topics, for records that cannot be written
	errSer    component.Serializer // serializer of the error topics
	log       *slog.Logger
	m         produceMetrics
	produced  atomic.Int64 // messages handed to the client, added once a chunk (release)
	outBytes  atomic.Int64 // bytes serialized (keys and values), added once a chunk (release)
	acks      ackCount     // callbacks that have run
	mu        sync.Mutex
	err       error
	used      [][]byte                 // slabs taken from slabs, returned by recycle
	sents     *blockPool[sent]         // message blocks, with the same life as slabs
	block     []sent                   // the current block, carved by newSent
	usedSents [][]sent                 // blocks taken from sents, returned by recycle
	ack       func(*kgo.Record, error) // p.acked, made once
	refused   []refusal                // records the broker refused for good, for resolve
}

// refusal is one record the broker refused for good on one topic.
type refusal struct {
	rec        *record.Record
	topic      string
	isErr      bool // the record was bound for an error topic
	key, value []byte
	err        error
}

// produceMetrics count the records that could not be written as they were.
// restarts counts the consumer restarts after a failed poll: with
// poison records handled, it stays at 0 unless the broker is unreachable.
type produceMetrics struct {
	unwritable, dropped, restarts prometheus.Counter
}

func newProduceMetrics(deps ChainDeps, name string) produceMetrics {
	m := deps.Metrics
	return produceMetrics{
		unwritable: m.CounterVec("stream_records_unwritable_total", "Records too large or refused for good by the broker, written as error records (record_too_large, record_refused) instead.", "stream").WithLabelValues(name),
		restarts:   m.CounterVec("stream_restarts_total", "Consumer restarts from the last committed offsets after a failed poll.", "stream").WithLabelValues(name),
		dropped:    m.CounterVec("stream_records_dropped_total", "Records that could not be written even as an error record without their value: logged with their coordinates and committed.", "stream").WithLabelValues(name),
	}
}

// batchOverhead is what a record batch of one record adds to the record's
// key and value on the wire: the 61-byte batch header and the record's own
// length, attribute, delta and header-count varints, rounded up. A record
// is written only if key + value + batchOverhead <= limit, so the client's
// batch limit and the broker's max.message.bytes, both set to limit, accept
// it whatever the compression.
const batchOverhead = 128

// unwritableProcessor names the stage in record_error_processor when an
// output record (which no processor failed) cannot be written.
const unwritableProcessor = "output.producer"

// slabSize is the size of the buffers that serialized records are carved
// from: one allocation serves many records.
const slabSize = 64 << 10

// chunkOut is what the records of one chunk are produced with: the slab
// they are serialized into, the block of messages they are carved from,
// how many of those it handed to the client, and their Kafka timestamp
// (see produce). One worker uses it, so none of these takes the producer's lock
// or touches a counter shared between workers for every record; release
// must run once the chunk is done (processChunk defers it).
type chunkOut struct {
	slab  []byte
	sents []sent    // messages carved for the chunk and not used yet
	used  int       // messages handed to the client, counted by release
	bytes int       // bytes serialized for the chunk, counted by release
	hint  int       // how many messages the chunk expects to produce still
	stamp time.Time // the Kafka timestamp of the chunk's messages
	last  int       // bytes the chunk's last record serialized to (send)
}

// minSlabRoom is the least room a slab must have left for send to
// serialize a record into it rather than into a new slab.
const minSlabRoom = 1024

// release counts the messages the chunk handed to the client, once the
// chunk is done, for wait. (Messages carved and not used stay unused in
// their block until the poll's blocks are recycled.)
func (p *producer) release(out *chunkOut) {
	if out.used > 0 {
		p.produced.Add(int64(out.used))
		out.used = 0
	}
	if out.bytes > 0 {
		p.outBytes.Add(int64(out.bytes))
		out.bytes = 0
	}
	out.sents = nil
}

// send serializes r once and produces it to every topic (isErr: the error
// topics). It returns whether the record was too large and went to the
// error topics instead.
func (p *producer) send(out *chunkOut, r *record.Record, topics []string, ser component.Serializer, isErr bool) (bool, error) {
	if len(topics) == 0 {
		return false, nil
	}
	// The slab must have room for a record as large as the chunk's last
	// one: a record that outgrows its slab makes append copy the slab's
	// earlier records into a grown buffer, which no pool keeps. With lines
	// of 10 KB (about 25 KB serialized) that was every second or third
	// record, and once a slab for the enrichment job's records of 1,200
	// bytes; stopping it gave 1.73x the records per CPU-second at 10 KB,
	// 1.19x at 1 KB and 1.10x on the enrichment job (BENCHMARKS.md). A record larger than a slab gets a buffer of
	// its own at once.
	slab := out.slab
	if need := max(minSlabRoom, out.last); cap(slab)-len(slab) < need {
		if need <= slabSize {
			slab = p.newSlab()
		} else {
			slab = make([]byte, 0, need+need/4)
		}
	}
	start := len(slab)
	slab = append(slab, r.ID...)
	keyEnd := len(slab)
	slab, err := ser.Serialize(slab, r)
	if err != nil {
		out.slab = slab[:start]
		return false, fmt.Errorf("serialize record %s: %w", r.ID, err)
	}
	if size := len(slab) - start; size+batchOverhead > p.limit {
		// A record larger than a slab grew the slab into a buffer of its
		// own; cutting it back keeps the slab for the next record.
		out.slab = slab[:start]
		reason := fmt.Sprintf("%s bytes > %s", thousands(size), thousands(p.limit))
		p.sendUnwritable(out, r, record.ErrTooLarge, reason)
		return true, nil
	}
	out.slab = slab
	out.bytes += len(slab) - start
	out.last = len(slab) - start
	key, value := slab[start:keyEnd:keyEnd], slab[keyEnd:len(slab):len(slab)]
	for _, t := range topics {
		p.produce(out, r, t, key, value, isErr)
	}
	return false, nil
}

// produce hands one message to the client. A refusal for good is kept for
// resolve; any other failure fails the poll.
//
// The message and what the acknowledgement needs are carved from a block
// of the stream's pool (sent), and the acknowledgement is one callback
// made once per poll (p.ack): a message and a closure allocated for every
// record were a tenth of the bytes a stream allocated.
//
// out.stamp is the message's Kafka timestamp (CreateTime), taken once per
// chunk by the caller (chunkStamp) rather than by the client, which reads
// the clock for every message without one: consumers see the time the
// chunk's records were handed to the producer, the same for all the
// records of a chunk and at most the chunk's processing time (milliseconds)
// earlier than a stamp per message would be.
//
// The message's Partition is its record's input partition, which the
// "input" partitioner writes to (partitioner.go) and the "key" one
// ignores.
func (p *producer) produce(out *chunkOut, r *record.Record, topic string, key, value []byte, isErr bool) {
	m := p.newSent(out)
	m.Record = kgo.Record{Topic: topic, Key: key, Value: value, Timestamp: out.stamp, Partition: r.Origin.Partition}
	m.rec, m.isErr = r, isErr
	p.cl.Produce(p.ctx, &m.Record, p.ack)
}

// acked is the produce callback of every message of the poll.
func (p *producer) acked(kr *kgo.Record, err error) {
	if err == nil {
		p.acks.n.Add(1)
		return
	}
	defer p.acks.n.Add(1) // after the refusal or error is noted, which wait then reads
	// kr is the Record of a sent (its first field) that produce handed
	// to the client, which calls back with the same pointer.
	m := (*sent)(unsafe.Pointer(kr))
	p.mu.Lock()
	defer p.mu.Unlock()
	if refusedForGood(err) {
		p.refused = append(p.refused, refusal{rec: m.rec, topic: kr.Topic, isErr: m.isErr, key: kr.Key, value: kr.Value, err: err})
		return
	}
	if p.err == nil {
		p.err = fmt.Errorf("produce: %w", err)
	}
}

// sent is one message handed to the client and the record it came from.
// The client holds it until its callback has run; the poll's blocks go
// back to the pool after wait.
type sent struct {
	kgo.Record // first: acked finds the sent from the *kgo.Record
	rec        *record.Record
	isErr      bool
}

// ackCount counts the produce callbacks that have run, alone on its cache
// line: the client's goroutines add to it for every message, and sharing a
// line with the producer's lock, which the workers take, would make both
// sides wait on each other's writes.
type ackCount struct {
	_ [64]byte
	n atomic.Int64
	_ [56]byte
}

// sentBlock is how many messages a block of the pool holds.
const sentBlock = 256

// newSent takes the next message carved for the chunk, carving more when
// none is left: as many as the chunk expects (out.hint), at most a block,
// from the poll's current block, under one lock. The message is counted
// in out.used, which release adds to produced once for the chunk.
func (p *producer) newSent(out *chunkOut) *sent {
	if len(out.sents) == 0 {
		want := min(max(out.hint, 1), sentBlock)
		p.mu.Lock()
		if len(p.block) == cap(p.block) {
			p.block = p.sents.get(sentBlock)
			p.usedSents = append(p.usedSents, p.block)
		}
		n := len(p.block)
		k := min(want, cap(p.block)-n)
		p.block = p.block[:n+k]
		out.sents = p.block[n : n+k : n+k]
		p.mu.Unlock()
	}
	out.used++
	out.hint--
	m := &out.sents[0]
	out.sents = out.sents[1:]
	return m
}

// maxFreeSentBlocks bounds the message blocks kept: two full polls of
// maxPollRecords records.
const maxFreeSentBlocks = 2 * maxPollRecords / sentBlock

// refusedForGood reports whether the broker refused a record for what it
// holds, so that writing it again can never succeed: too large, invalid,
// corrupt or with an invalid timestamp. franz-go retries every retriable
// error itself and never reports one while the client runs.
func refusedForGood(err error) bool {
	for _, e := range []error{kerr.MessageTooLarge, kerr.RecordListTooLarge, kerr.InvalidRecord, kerr.CorruptMessage, kerr.InvalidTimestamp} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// sendUnwritable writes, asynchronously, the error record that stands for
// r, which could not be written: the reason, r's coordinates and
// processor, and as much of record_value as fits in the limit. If not even
// the record without its value fits, r is dropped.
func (p *producer) sendUnwritable(out *chunkOut, r *record.Record, errType, reason string) {
	p.m.unwritable.Inc()
	er, value, ok := p.unwritableRecord(r, errType, reason, -1)
	if !ok {
		p.drop(r, errType+": "+reason)
		return
	}
	key := []byte(er.ID)
	for _, t := range p.errTops {
		p.produce(out, er, t, key, value, true)
	}
}

// unwritableRecord builds the error record for r and serializes it with
// the error serializer. keep bounds the bytes of record_value kept (-1: as
// many as fit). ok is false when the record does not fit even with no value.
func (p *producer) unwritableRecord(r *record.Record, errType, reason string, keep int) (er *record.Record, out []byte, ok bool) {
	raw, hasValue := r.Get(record.FieldValue)
	var whole int
	if hasValue {
		whole = valueLen(raw)
	}
	if keep < 0 || keep > whole {
		keep = whole
	}
	for {
		er = record.New(r.ID, r.Type, r.CreationDate)
		er.Origin = r.Origin
		for _, e := range r.Errors() {
			typ, msg, _ := strings.Cut(e, ": ")
			er.AddError(typ, msg)
		}
		er.AddError(errType, reason)
		if k, ok := r.Get(record.FieldKey); ok && valueLen(k) <= 1024 {
			er.Set(record.FieldKey, k)
		}
		if hasValue {
			er.Set(record.FieldValue, cutValue(raw, keep))
			if keep < whole {
				er.Set(record.FieldValueTruncated, record.BoolValue(true))
				er.Set(record.FieldValueSize, record.IntValue(int64(whole)))
			}
		}
		proc, _ := r.GetString(record.FieldErrorProcessor)
		if proc == "" {
			proc = unwritableProcessor
		}
		er.MarkSource(proc)
		var err error
		out, err = p.errSer.Serialize(nil, er)
		if err != nil {
			return nil, nil, false
		}
		size := len(er.ID) + len(out) + batchOverhead
		if size <= p.limit {
			return er, out, true
		}
		if keep == 0 {
			return nil, nil, false
		}
		// Shrink the value by the excess, scaled by what a byte of value
		// costs once serialized (up to 6 for escaped control characters,
		// 4/3 for base64), plus a margin so this converges in a few rounds.
		perByte := float64(len(out)) / float64(keep)
		excess := float64(size-p.limit) / max(perByte, 1)
		keep = max(keep-int(excess*1.05)-16, 0)
	}
}

// drop counts and logs, once, a record that cannot be written at all.
func (p *producer) drop(r *record.Record, reason string) {
	p.m.dropped.Inc()
	p.log.Error("record cannot be written even as an error record without its value; skipped and committed",
		"id", r.ID, "source_topic", r.Origin.Topic, "source_partition", r.Origin.Partition, "source_offset", r.Origin.Offset, "reason", reason)
}

// resolve writes each refused record again, alone and synchronously: a
// good record that shared a batch with a bad one is written once; a record
// refused again becomes an error record; an error record refused again is
// written once more without its value, then dropped. It must run after
// wait and before recycle (the refused messages live in the slabs).
func (p *producer) resolve(ctx context.Context) error {
	p.mu.Lock()
	refused := p.refused
	p.refused = nil
	p.mu.Unlock()
	for _, rf := range refused {
		err := p.cl.ProduceSync(ctx, &kgo.Record{Topic: rf.topic, Key: rf.key, Value: rf.value, Partition: rf.rec.Origin.Partition}).FirstErr()
		if err == nil {
			continue
		}
		if !refusedForGood(err) {
			return fmt.Errorf("produce to %s: %w", rf.topic, err)
		}
		errType := record.ErrRefused
		if errors.Is(err, kerr.MessageTooLarge) || errors.Is(err, kerr.RecordListTooLarge) {
			errType = record.ErrTooLarge
		}
		reason := fmt.Sprintf("topic %s refused %s bytes: %v", rf.topic, thousands(len(rf.key)+len(rf.value)), err)
		keep := -1
		if rf.isErr {
			keep = 0 // it was already as small as the limit allows
		}
		p.m.unwritable.Inc()
		er, value, ok := p.unwritableRecord(rf.rec, errType, reason, keep)
		if !ok {
			p.drop(rf.rec, errType+": "+reason)
			continue
		}
		for _, t := range p.errTops {
			err := p.cl.ProduceSync(ctx, &kgo.Record{Topic: t, Key: []byte(er.ID), Value: value, Partition: rf.rec.Origin.Partition}).FirstErr()
			if err == nil {
				continue
			}
			if !refusedForGood(err) {
				return fmt.Errorf("produce to %s: %w", t, err)
			}
			p.drop(rf.rec, fmt.Sprintf("%s: %s; then the error record: %v", errType, reason, err))
		}
	}
	return nil
}

// valueLen is the length of a string or bytes value (0 for others).
func valueLen(v record.Value) int {
	if s, ok := v.AsString(); ok {
		return len(s)
	}
	if b, ok := v.AsBytes(); ok {
		return len(b)
	}
	return len(v.Text())
}

// cutValue keeps the first n bytes of a string or bytes value; a string is
// cut at a character boundary so that it stays valid text.
func cutValue(v record.Value, n int) record.Value {
	if b, ok := v.AsBytes(); ok {
		return record.BytesValue(b[:min(n, len(b))])
	}
	s, ok := v.AsString()
	if !ok {
		s = v.Text()
	}
	if n >= len(s) {
		return record.StringValue(s)
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return record.StringValue(s[:n])
}

// thousands formats n with comma separators, as the reasons quote sizes.
func thousands(n int) string {
	s := strconv.Itoa(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// newSlab takes a slab from the pool and remembers it, to give it back
// once the poll is acknowledged.
func (p *producer) newSlab() []byte {
	slab := p.slabs.get(slabSize)
	p.mu.Lock()
	p.used = append(p.used, slab)
	p.mu.Unlock()
	return slab
}

// recycle gives the slabs of this poll back to the pool. It must only be
// called after wait: the client reads a record's key and value until the
// record's promise has run. (A slab that append grew was never taken from
// the pool and is simply left to the garbage collector.)
func (p *producer) recycle() {
	p.mu.Lock()
	used := p.used
	p.used = nil
	p.mu.Unlock()
	p.slabs.put(used, maxFreeSlabs)
	p.mu.Lock()
	blocks := p.usedSents
	p.usedSents, p.block = nil, nil
	p.mu.Unlock()
	// Cleared first, so that a free block holds on to no record, slab or
	// context. (usedSents holds each block as it was taken, of length 0.)
	for _, b := range blocks {
		clear(b[:cap(b)])
	}
	p.sents.put(blocks, maxFreeSentBlocks)
}

// blockPool keeps fixed-size blocks of a stream from one poll to the next:
// serialization slabs (Stream.slabs) and produced-message blocks
// (Stream.sents). Serialized records were the largest allocation of a poll
// (about 900 bytes a record in the sample job), and allocating them anew
// for every poll made the garbage collector run that much more often.
type blockPool[T any] struct {
	mu   sync.Mutex
	free [][]T
}

// maxFreeSlabs bounds the slabs kept between polls: 64 slabs of 64 KiB,
// enough for a full poll of 4,096 records serialized to 1 KB each (the
// sample job's are about 800 bytes).
const maxFreeSlabs = 64

// get returns a free block, or a new one of capacity size.
func (bp *blockPool[T]) get(size int) []T {
	bp.mu.Lock()
	defer bp.mu.Unlock()
	if n := len(bp.free); n > 0 {
		b := bp.free[n-1]
		bp.free[n-1] = nil
		bp.free = bp.free[:n-1]
		return b[:0]
	}
	return make([]T, 0, size)
}

// put takes blocks back, keeping at most max of them.
func (bp *blockPool[T]) put(blocks [][]T, max int) {
	bp.mu.Lock()
	defer bp.mu.Unlock()
	for _, b := range blocks {
		if len(bp.free) >= max {
			return
		}
		bp.free = append(bp.free, b)
	}
}

// wait returns once every message of the poll is acknowledged, with the
// first failure. The poll has handed all its messages to the client by
// then, so it flushes: without it the last batch of each partition would
// wait out the client's linger (10 ms) before it is sent, once a poll, for
// nothing (no more records come until the poll is committed). The
// stream's client produces for one poll at a time, so Flush waits for this
// poll's messages only, and franz-go runs a message's callback before it
// counts the message done: once Flush returns nil, every callback has run.
//
// Two cases are left to the count of callbacks: a flush cut short by ctx,
// whose messages still each get their callback, and a message the client
// refused before buffering it (ctx done while Produce blocked on
// MaxBufferedRecords), whose callback franz-go runs on a goroutine of its
// own that Flush does not wait for. Both only happen when a poll fails or
// the stream stops, so wait polls the count then rather than pay for a
// WaitGroup (a contended atomic and its wake-up) on every message.
func (p *producer) wait() error {
	_ = p.cl.Flush(p.ctx) // its only error is ctx's, which the callbacks report too
	for p.acks.n.Load() < p.produced.Load() {
		time.Sleep(time.Millisecond)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}
