// Package stream is the Kafka stream, pkg.stream.engine.BrokerRecordStreamParallelProcessing:
// consume a micro-batch, run it through the processor chain per partition,
// produce results and errors, wait for every acknowledgement, commit. It also
// swaps the processor chain of a running stream without leaving the
// consumer group.
package stream

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/pierrec/lz4/v4"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/dataflow"
	"github.com/weir-streams/weir/internal/record"
)

// Settings is a stream's configuration, from its own keys and the engine's.
type Settings struct {
	Name    string
	Group   string // engine.app.name
	Brokers []string

	Inputs, Outputs, Errors []string
	InSer, OutSer, ErrSer   component.Serializer

	Compression kgo.CompressionCodec
	// Compressor, when set, compresses produced batches instead of the
	// client's own compressor for Compression (see newLz4Compressor).
	Compressor kgo.Compressor

	AutoCreate  bool
	Partitions  int32
	Replication int16

	Workers       int           // engine.master
	BatchInterval time.Duration // engine.streaming.batchDuration
	MaxRate       int64         // engine.streaming.broker.maxRatePerPartition, 0 = none
}

// EngineSettings are the engine keys a stream obeys.
type EngineSettings struct {
	Group         string
	Workers       int
	BatchInterval time.Duration
	MaxRate       int64
}

// BrokerResolver turns the broker list of a stream into seed addresses; it
// starts the embedded broker for "embedded".
type BrokerResolver func(list string) ([]string, error)

// NewSettings reads a stream component's configuration.
func NewSettings(c *dataflow.Component, reg *component.Registry, eng EngineSettings, brokers BrokerResolver) (Settings, error) {
	_, conf, err := reg.Configure(c.Component, component.KindStream, c.Values())
	if err != nil {
		return Settings{}, err
	}
	s := Settings{
		Name: c.Name, Group: eng.Group, Workers: max(eng.Workers, 1),
		BatchInterval: eng.BatchInterval, MaxRate: eng.MaxRate,
		Inputs: conf.List("broker.input.topics"), Outputs: conf.List("broker.output.topics"), Errors: conf.List("broker.error.topics"),
	}
	if s.Brokers, err = brokers(conf.String("broker.metadata.broker.list")); err != nil {
		return Settings{}, fmt.Errorf("broker.metadata.broker.list: %w", err)
	}
	for _, x := range []struct {
		key string
		dst *component.Serializer
	}{{"broker.input.topics.serializer", &s.InSer}, {"broker.output.topics.serializer", &s.OutSer}, {"broker.error.topics.serializer", &s.ErrSer}} {
		sspec, err := reg.LookupKind(conf.String(x.key), component.KindSerializer)
		if err != nil {
			return Settings{}, fmt.Errorf("%s: %w", x.key, err)
		}
		if *x.dst, err = sspec.NewSerializer(component.Config{}); err != nil {
			return Settings{}, fmt.Errorf("%s: %w", x.key, err)
		}
	}
	switch conf.String("broker.output.compression") {
	case "none":
		s.Compression = kgo.NoCompression()
	case "gzip":
		s.Compression = kgo.GzipCompression()
	case "lz4":
		s.Compression = kgo.Lz4Compression()
		s.Compressor = newLz4Compressor()
	case "zstd":
		s.Compression = kgo.ZstdCompression()
	default:
		s.Compression = kgo.SnappyCompression()
	}
	if s.AutoCreate, err = conf.Bool("broker.topic.autoCreate"); err != nil {
		return Settings{}, err
	}
	p, err := conf.Int("broker.topic.default.partitions")
	if err != nil {
		return Settings{}, err
	}
	rf, err := conf.Int("broker.topic.default.replicationFactor")
	if err != nil {
		return Settings{}, err
	}
	s.Partitions, s.Replication = int32(p), int16(rf)
	return s, nil
}

// compressionOpt returns the client option that compresses produced
// batches.
func (s *Stream) compressionOpt() kgo.Opt {
	if s.set.Compressor != nil {
		return kgo.WithCompressor(s.set.Compressor)
	}
	return kgo.ProducerBatchCompression(s.set.Compression)
}

// lz4Compressor writes lz4 frames of 64 KiB blocks without a content
// checksum, as the Java producer does, where the client's own lz4 codec
// writes 4 MiB blocks with one. The 4 MiB block buffers were half of the
// live heap at full speed and, being dropped from their pool at every
// garbage collection, a tenth of all allocation; small blocks and no
// checksum also compress about 1.6 times faster, for output about a tenth
// larger (ratio 0.19 instead of 0.18 on the sample job's JSON). Every Kafka
// consumer reads these frames: block size and checksum are declared in the
// frame header.
type lz4Compressor struct {
	writers sync.Pool
}

func newLz4Compressor() *lz4Compressor {
	c := &lz4Compressor{}
	c.writers.New = func() any {
		w := lz4.NewWriter(nil)
		// The options are constants the library accepts; an error here
		// would leave the library's defaults, which are valid lz4 too.
		_ = w.Apply(lz4.BlockSizeOption(lz4.Block64Kb), lz4.ChecksumOption(false), lz4.CompressionLevelOption(lz4.Fast))
		return w
	}
	return c
}

// Compress implements kgo.Compressor. A nil result makes the client send
// the batch uncompressed.
func (c *lz4Compressor) Compress(dst *bytes.Buffer, src []byte, _ ...kgo.CompressFlag) ([]byte, kgo.CompressionCodecType) {
	w := c.writers.Get().(*lz4.Writer)
	defer c.writers.Put(w)
	w.Reset(dst)
	if _, err := w.Write(src); err != nil {
		return nil, kgo.CodecNone
	}
	if err := w.Close(); err != nil {
		return nil, kgo.CodecNone
	}
	return dst.Bytes(), kgo.CodecLz4
}

// maxPollRecords bounds one micro-batch, and with it the memory a batch
// holds, whatever the backlog.
const maxPollRecords = 4096

// Stream is a running Kafka stream.
//
// Lifecycle: New builds the first processor chain; Start creates topics,
// checks the broker and starts the consume loop; Swap replaces the chain
// while the loop runs; Stop finishes the batch in flight, commits it, leaves
// the consumer group and closes the chain. Start, Swap and Stop are called
// by one goroutine (the engine's apply path); the loop is owned by the
// Stream and waited for by Stop.
type Stream struct {
	set  Settings
	deps ChainDeps
	log  *slog.Logger
	m    streamMetrics

	mu           sync.Mutex
	chain        *Chain
	lastModified time.Time

	limiter limiter
	slabs   slabPool
	routes  routes // routed output topics (route.go)

	// fieldHint is the largest field count of a record in the latest
	// chunk, the field capacity of the next chunk's records (0 until
	// a chunk has run).
	fieldHint atomic.Int64

	stopLoop context.CancelFunc // interrupts polling
	stopWork context.CancelFunc // interrupts a batch in flight (hard stop)
	done     chan struct{}
}

// New builds a stream and its first processor chain.
func New(ctx context.Context, set Settings, pipeline dataflow.Pipeline, deps ChainDeps) (*Stream, error) {
	log := deps.Logger.With("stream", set.Name)
	deps.Logger = deps.Logger.With("stream", set.Name)
	chain, err := BuildChain(ctx, set.Name, 1, pipeline.Processors, deps)
	if err != nil {
		return nil, err
	}
	s := &Stream{set: set, deps: deps, log: log, chain: chain, lastModified: pipeline.LastModified}
	s.m = newStreamMetrics(deps, set.Name)
	s.m.generation.Set(1)
	s.limiter.next = map[tp]time.Time{}
	return s, nil
}

// PipelineModified returns the lastModified of the running pipeline.
func (s *Stream) PipelineModified() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastModified
}

// Generation returns the generation of the running chain.
func (s *Stream) Generation() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.chain.Generation
}

// Start creates the topics (when autoCreate is on), checks that the broker
// answers, and starts consuming. An error leaves nothing running.
func (s *Stream) Start(ctx context.Context) error {
	if err := s.prepareTopics(ctx); err != nil {
		return err
	}
	loopCtx, stopLoop := context.WithCancel(context.Background())
	workCtx, stopWork := context.WithCancel(context.Background())
	s.stopLoop, s.stopWork = stopLoop, stopWork
	s.done = make(chan struct{})
	go s.run(loopCtx, workCtx)
	return nil
}

func (s *Stream) prepareTopics(ctx context.Context) error {
	cl, err := kgo.NewClient(kgo.SeedBrokers(s.set.Brokers...))
	if err != nil {
		return fmt.Errorf("stream %q: kafka client: %w", s.set.Name, err)
	}
	defer cl.Close()
	adm := kadm.NewClient(cl)
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	topics := append(append(append([]string(nil), s.set.Inputs...), s.set.Outputs...), s.set.Errors...)
	topics = append(topics, s.currentRoutedTopics()...)
	if !s.set.AutoCreate {
		// Without auto-create the topics must exist: say so now rather than
		// consume nothing.
		md, err := adm.ListTopics(ctx, topics...)
		if err != nil {
			return fmt.Errorf("stream %q: reach brokers %v: %w", s.set.Name, s.set.Brokers, err)
		}
		for _, t := range topics {
			if d, ok := md[t]; !ok || d.Err != nil {
				return fmt.Errorf("stream %q: topic %q does not exist and broker.topic.autoCreate is false", s.set.Name, t)
			}
		}
		return nil
	}
	resp, err := adm.CreateTopics(ctx, s.set.Partitions, s.set.Replication, nil, dedupe(topics)...)
	if err != nil {
		return fmt.Errorf("stream %q: create topics on %v: %w", s.set.Name, s.set.Brokers, err)
	}
	for _, r := range resp.Sorted() {
		if r.Err != nil && !errors.Is(r.Err, kerr.TopicAlreadyExists) {
			return fmt.Errorf("stream %q: create topic %q: %w", s.set.Name, r.Topic, r.Err)
		}
	}
	return nil
}

// Stop finishes the batch in flight, commits it and leaves the group. If
// ctx ends first, the batch is abandoned uncommitted (it is redelivered).
// Stop then closes the processor chain.
func (s *Stream) Stop(ctx context.Context) error {
	if s.done != nil {
		s.stopLoop()
		select {
		case <-s.done:
		case <-ctx.Done():
			s.stopWork()
			<-s.done
		}
		s.stopWork()
	}
	s.mu.Lock()
	c := s.chain
	s.mu.Unlock()
	c.inflight.Wait()
	c.Close(ctx, s.log)
	return nil
}

// Swap builds a new processor chain beside the running one and publishes
// it; batches that already hold the old chain finish on it, then it is
// closed. The consumer never leaves the group: no rebalance, no loss and no
// duplicate. If the new chain cannot be built, the old one keeps running.
func (s *Stream) Swap(ctx context.Context, p dataflow.Pipeline) error {
	s.mu.Lock()
	gen := s.chain.Generation + 1
	s.mu.Unlock()
	next, err := BuildChain(ctx, s.set.Name, gen, p.Processors, s.deps)
	if err != nil {
		return err
	}
	s.mu.Lock()
	old := s.chain
	s.chain, s.lastModified = next, p.LastModified
	s.mu.Unlock()
	s.m.generation.Set(float64(gen))
	old.inflight.Wait()
	old.Close(ctx, s.log)
	s.log.Info("processor chain swapped", "generation", gen, "processors", next.Processors())
	return nil
}

// acquire returns the current chain, held until release. Taking the chain
// under the same lock Swap publishes under guarantees that once Swap has
// replaced it, no new batch can take the old one, so its WaitGroup only
// counts down.
func (s *Stream) acquire() *Chain {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.chain.inflight.Add(1)
	return s.chain
}

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
		kgo.SeedBrokers(s.set.Brokers...),
		kgo.ClientID("weir-"+s.set.Name),
		kgo.ConsumerGroup(s.set.Group),
		kgo.ConsumeTopics(s.set.Inputs...),
		kgo.DisableAutoCommit(),
		kgo.BlockRebalanceOnPoll(),
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
		s.compressionOpt(),
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
		s.m.delay.Observe(max(start.Sub(next), 0).Seconds())
		next = start.Add(s.set.BatchInterval)
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
		s.m.lag.WithLabelValues(s.set.Name, p.Topic, strconv.Itoa(int(p.Partition))).Set(float64(lag))
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
	for range min(s.set.Workers, len(parts)) {
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
	if s.set.MaxRate > 0 {
		chunk = int(max(s.set.MaxRate*s.set.BatchInterval.Milliseconds()/1000, 1))
	}
	for start := 0; start < len(p.Records); start += chunk {
		rs := p.Records[start:min(start+chunk, len(p.Records))]
		if s.set.MaxRate > 0 {
			if err := s.limiter.wait(stopping, tp{p.Topic, p.Partition}, len(rs), s.set.MaxRate); err != nil {
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
		if err := s.set.InSer.Deserialize(r, kr.Key, kr.Value); err != nil {
			r.AddError(record.ErrDeserializing, err.Error())
			r.Set(record.FieldValue, rawValue(kr.Value))
			r.MarkSource("input.serializer")
			failed = append(failed, r)
			continue
		}
		b.Records = append(b.Records, r)
	}
	s.m.in.Add(float64(len(records)))

	chainFailed, err := chain.Run(ctx, &b)
	if err != nil {
		return err
	}
	failed = append(failed, chainFailed...)
	s.noteFields(b.Records)

	var slab []byte
	sent := 0
	for _, r := range b.Records {
		topics, reason := s.outputTopics(ctx, pr.cl, r)
		if reason != "" {
			r.AddError(ErrRouting, reason)
			r.MarkSource("")
			failed = append(failed, r)
			continue
		}
		if slab, err = pr.send(slab, r, topics, s.set.OutSer); err != nil {
			return err
		}
		sent++
	}
	s.m.out.Add(float64(sent))
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
		if slab, err = pr.send(slab, r, s.set.Errors, s.set.ErrSer); err != nil {
			return err
		}
	}
	s.m.errs.Add(float64(len(failed)))
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

// producer produces asynchronously and remembers the first failure.
type producer struct {
	cl      *kgo.Client
	ctx     context.Context
	slabs   *slabPool
	pending sync.WaitGroup
	mu      sync.Mutex
	err     error
	used    [][]byte // slabs taken from slabs, returned by recycle
}

// slabSize is the size of the buffers that serialized records are carved
// from: one allocation serves many records.
const slabSize = 64 << 10

// send serializes r once and produces it to every topic. It returns the slab
// to carve the next record from.
func (p *producer) send(slab []byte, r *record.Record, topics []string, ser component.Serializer) ([]byte, error) {
	if len(topics) == 0 {
		return slab, nil
	}
	if cap(slab)-len(slab) < 1024 {
		slab = p.newSlab()
	}
	start := len(slab)
	slab = append(slab, r.ID...)
	keyEnd := len(slab)
	slab, err := ser.Serialize(slab, r)
	if err != nil {
		return slab[:start], fmt.Errorf("serialize record %s: %w", r.ID, err)
	}
	key, value := slab[start:keyEnd:keyEnd], slab[keyEnd:len(slab):len(slab)]
	for _, t := range topics {
		p.pending.Add(1)
		p.cl.Produce(p.ctx, &kgo.Record{Topic: t, Key: key, Value: value}, p.done)
	}
	return slab, nil
}

// newSlab takes a slab from the pool and remembers it, to give it back
// once the poll is acknowledged.
func (p *producer) newSlab() []byte {
	slab := p.slabs.get()
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
	p.slabs.put(used)
}

// slabPool keeps the serialization slabs of a stream from one poll to the
// next. Serialized records were the largest allocation of a poll (about
// 900 bytes a record in the sample job), and allocating them anew for
// every poll made the garbage collector run that much more often.
type slabPool struct {
	mu   sync.Mutex
	free [][]byte
}

// maxFreeSlabs bounds what the pool keeps between polls: 128 slabs of
// 64 KiB, enough for a full poll of 4,096 records of 2 KB.
const maxFreeSlabs = 128

func (sp *slabPool) get() []byte {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if n := len(sp.free); n > 0 {
		slab := sp.free[n-1]
		sp.free[n-1] = nil
		sp.free = sp.free[:n-1]
		return slab[:0]
	}
	return make([]byte, 0, slabSize)
}

func (sp *slabPool) put(slabs [][]byte) {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	for _, slab := range slabs {
		if len(sp.free) >= maxFreeSlabs {
			return
		}
		sp.free = append(sp.free, slab)
	}
}

func (p *producer) done(_ *kgo.Record, err error) {
	if err != nil {
		p.mu.Lock()
		if p.err == nil {
			p.err = fmt.Errorf("produce: %w", err)
		}
		p.mu.Unlock()
	}
	p.pending.Done()
}

func (p *producer) wait() error {
	p.pending.Wait()
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

type tp struct {
	topic     string
	partition int32
}

// limiter enforces maxRatePerPartition: each partition may take n records
// only once the records before them have used up their share of time.
type limiter struct {
	mu   sync.Mutex
	next map[tp]time.Time
}

func (l *limiter) wait(ctx context.Context, key tp, n int, rate int64) error {
	l.mu.Lock()
	now := time.Now()
	at := l.next[key]
	if at.Before(now) {
		at = now
	}
	l.next[key] = at.Add(time.Duration(float64(n) / float64(rate) * float64(time.Second)))
	l.mu.Unlock()
	if d := time.Until(at); d > 0 {
		select {
		case <-time.After(d):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

func dedupe(ss []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

type streamMetrics struct {
	in, out, errs prometheus.Counter
	batch, delay  prometheus.Observer
	lag           *prometheus.GaugeVec
	generation    prometheus.Gauge
}

func newStreamMetrics(deps ChainDeps, name string) streamMetrics {
	m := deps.Metrics
	return streamMetrics{
		in:         m.CounterVec("stream_records_in_total", "Messages consumed.", "stream").WithLabelValues(name),
		out:        m.CounterVec("stream_records_out_total", "Records written to the output topics.", "stream").WithLabelValues(name),
		errs:       m.CounterVec("stream_records_errors_total", "Records written to the error topics.", "stream").WithLabelValues(name),
		batch:      m.HistogramVec("stream_batch_seconds", "Processing time of a micro-batch, from poll to commit.", prometheus.ExponentialBuckets(0.001, 2, 16), "stream").WithLabelValues(name),
		delay:      m.HistogramVec("stream_scheduling_delay_seconds", "How late a micro-batch started after its interval.", prometheus.ExponentialBuckets(0.001, 2, 16), "stream").WithLabelValues(name),
		lag:        m.GaugeVec("stream_consumer_lag", "Records behind the high watermark, per partition, at the last batch.", "stream", "topic", "partition"),
		generation: m.GaugeVec("stream_chain_generation", "Generation of the running processor chain.", "stream").WithLabelValues(name),
	}
}
