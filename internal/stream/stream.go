// Package stream is the Kafka stream, pkg.stream.engine.BrokerRecordStreamParallelProcessing:
// consume a micro-batch, run it through the processor chain per partition,
// produce results and errors, wait for every acknowledgement, commit. It also
// swaps the processor chain of a running stream without leaving the
// consumer group.
//
// Files, one job each: spec.go (keys, spec and typed Config), stream.go
// (lifecycle: New, Start, Swap, Stop), poll.go (the consume loop and a
// batch's way through the chain), chain.go (a processor chain generation),
// producer.go (asynchronous produce and the slab pool), compression.go,
// microbatch.go (the batches under maxRatePerPartition), progress.go (state, assigned
// partitions, offsets and lag, readiness), txn.go (the delivery guarantee:
// offset commits or one transaction per batch) and metrics.go.
package stream

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/dataflow"
	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/status"
)

// Params is what a stream is built from: the engine settings it obeys, its
// own configuration, the seed brokers its broker list resolved to, and its
// validated pipeline.
type Params struct {
	Engine   EngineParams
	Config   Config
	Seeds    []string
	Pipeline dataflow.PipelinePlan
}

// EngineParams are the engine's settings a stream obeys; the engine fills
// them from its own configuration.
type EngineParams struct {
	AppName       string        // the consumer group (engine.app.name)
	Workers       int           // partitions processed at once (engine.master)
	BatchInterval time.Duration // engine.streaming.batchDuration
	MaxRate       int64         // records a second per partition, 0 = no limit
}

// Stream is a running Kafka stream.
//
// Lifecycle: New builds the first processor chain and the serializers, with
// no side effect outside the stream (nothing reaches the broker); Start
// starts the chain's processors, creates topics, checks the broker and
// starts the consume loop; Swap replaces the chain while the loop runs; Stop
// finishes the batch in flight, commits it, leaves the consumer group and
// closes the chain. Stop may be called without Start, after a Start that
// failed, and twice. Start, Swap and Stop are called by one goroutine (the
// engine's apply path); the loop is owned by the Stream and waited for by
// Stop.
type Stream struct {
	eng      EngineParams
	conf     Config
	seeds    []string
	workers  int
	compOpt  kgo.Opt
	partOpts []kgo.Opt // broker.output.partitioner (partitioner.go)
	secOpts  []kgo.Opt // TLS and SASL, for every client of the stream
	inSer    component.Serializer
	outSer   component.Serializer
	errSer   component.Serializer

	deps ChainDeps
	log  *slog.Logger
	m    streamMetrics
	pm   produceMetrics
	prog *progress // state, partitions, lag, last batch (progress.go)

	tm txnMetrics // exactly_once transactions (txn.go)

	mu           sync.Mutex
	chain        *Chain
	lastModified time.Time

	slabs   blockPool[byte]
	sents   blockPool[sent]  // produced messages (producer.go)
	records record.BatchPool // record batches, from one poll to the next
	routes  routes           // routed output topics (route.go)

	// batches keeps the last batches for the status page (batches.go);
	// tally counts the records of the batch in flight.
	batches *status.Ring
	tally   batchTally
	failure atomic.Pointer[failure]

	// fieldHint is the largest field count of a record in the latest
	// chunk, the field capacity of the next chunk's records (0 until
	// a chunk has run).
	fieldHint atomic.Int64

	stopLoop context.CancelFunc // interrupts polling
	stopWork context.CancelFunc // interrupts a batch in flight (hard stop)
	done     chan struct{}
}

// New builds a stream: its serializers and its first processor chain.
func New(ctx context.Context, p Params, deps ChainDeps) (*Stream, error) {
	deps.Logger = deps.Logger.With("stream", p.Config.Name)
	s := &Stream{eng: p.Engine, conf: p.Config, seeds: p.Seeds, workers: max(p.Engine.Workers, 1),
		compOpt: compressionOpt(p.Config.Compression), partOpts: partitionerOpts(p.Config.Partitioner), deps: deps, log: deps.Logger, lastModified: p.Pipeline.LastModified}
	for _, x := range []struct {
		key, name, schema string
		dst               *component.Serializer
	}{{KeyInputSerializer, p.Config.InSer, p.Config.InSchema, &s.inSer}, {KeyOutputSerializer, p.Config.OutSer, p.Config.OutSchema, &s.outSer}, {KeyErrorSerializer, p.Config.ErrSer, p.Config.OutSchema, &s.errSer}} {
		var err error
		if *x.dst, err = NewSerializer(deps.Registry, x.name, x.schema); err != nil {
			return nil, fmt.Errorf("%s: %w", x.key, err)
		}
	}
	var err error
	if s.secOpts, err = p.Config.Security.clientOpts(s.log); err != nil {
		return nil, fmt.Errorf("stream %q: %w", p.Config.Name, err)
	}
	chain, err := BuildChain(ctx, p.Config.Name, 1, p.Pipeline.Processors, deps)
	if err != nil {
		return nil, err
	}
	s.chain = chain
	s.m = newStreamMetrics(deps, p.Config.Name)
	s.pm = newProduceMetrics(deps, p.Config.Name)
	s.tm = newTxnMetrics(deps, p.Config.Name)
	s.m.generation.Set(1)
	s.prog = newProgress(p.Config.Name, p.Engine.BatchInterval, &s.m)
	s.batches = status.NewRing()
	// One full poll of records: the batches of one poll come back
	// before the next takes them.
	s.records.MaxRecords = maxPollRecords
	return s, nil
}

// topicConfigs are the settings of the topics this stream creates: they
// accept the largest message it writes.
func (s *Stream) topicConfigs() map[string]*string {
	maxBytes := strconv.Itoa(s.conf.MaxMessageBytes)
	return map[string]*string{"max.message.bytes": &maxBytes}
}

// Name is the stream's name in the job.
func (s *Stream) Name() string { return s.conf.Name }

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

// Start starts the chain's processors, creates the topics (when autoCreate
// is on), checks that the broker answers, and starts consuming. An error
// leaves no loop running; Stop then closes the chain.
func (s *Stream) Start(ctx context.Context) error {
	if err := s.chain.Start(ctx); err != nil {
		s.prog.setState(StateFailed, err.Error())
		return err
	}
	if err := s.prepareTopics(ctx); err != nil {
		s.prog.setState(StateFailed, err.Error())
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
	cl, err := kgo.NewClient(append([]kgo.Opt{kgo.SeedBrokers(s.seeds...)}, s.secOpts...)...)
	if err != nil {
		return fmt.Errorf("stream %q: kafka client: %w", s.conf.Name, err)
	}
	defer cl.Close()
	adm := kadm.NewClient(cl)
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	topics := append(append(append([]string(nil), s.conf.Inputs...), s.conf.Outputs...), s.conf.Errors...)
	topics = append(topics, s.currentRoutedTopics()...)
	if !s.conf.AutoCreate {
		// Without auto-create the topics must exist: say so now rather than
		// consume nothing.
		md, err := adm.ListTopics(ctx, topics...)
		if err != nil {
			return fmt.Errorf("stream %q: reach brokers %v: %w", s.conf.Name, s.seeds, s.conf.Security.explain(err))
		}
		for _, t := range topics {
			if d, ok := md[t]; !ok || d.Err != nil {
				return fmt.Errorf("stream %q: topic %q does not exist and %s is false", s.conf.Name, t, KeyAutoCreate)
			}
		}
		s.rememberRoutes()
		return nil
	}
	resp, err := adm.CreateTopics(ctx, s.conf.Partitions, s.conf.Replication, s.topicConfigs(), dedupe(topics)...)
	if err != nil {
		return fmt.Errorf("stream %q: create topics on %v: %w", s.conf.Name, s.seeds, s.conf.Security.explain(err))
	}
	for _, r := range resp.Sorted() {
		if r.Err != nil && !errors.Is(r.Err, kerr.TopicAlreadyExists) {
			return fmt.Errorf("stream %q: create topic %q: %w", s.conf.Name, r.Topic, r.Err)
		}
	}
	s.rememberRoutes()
	return nil
}

// rememberRoutes marks the stream's output topics and the routed topics
// known in advance as existing once prepareTopics has created or checked
// them: a record routed to one goes out without asking the broker first.
func (s *Stream) rememberRoutes() {
	for _, t := range s.conf.Outputs {
		s.routes.remember(t)
	}
	for _, t := range s.currentRoutedTopics() {
		s.routes.remember(t)
	}
}

// Stop finishes the batch in flight, commits it (with exactly_once, commits
// its transaction) and leaves the group. If ctx ends first, the batch is
// abandoned uncommitted (its transaction aborted) and is redelivered.
// Stop then closes the processor chain once no batch holds it. It may be
// called without Start and twice.
func (s *Stream) Stop(ctx context.Context) error {
	if s.done != nil {
		s.stopLoop()
		select {
		case <-s.done:
		case <-ctx.Done():
			s.log.Warn("stop deadline reached: the batch in flight is abandoned and not committed; it will be processed again", "error", context.Cause(ctx))
			s.stopWork()
			<-s.done
		}
		s.stopWork()
	}
	s.prog.dropAll()
	s.prog.setState(StateStopped, "")
	s.mu.Lock()
	c := s.chain
	s.mu.Unlock()
	c.inflight.Wait()
	c.Close(ctx, s.log)
	return nil
}

// Swap builds and starts a new processor chain beside the running one and
// publishes it; batches that already hold the old chain finish on it, then
// it is closed. The consumer never leaves the group: no rebalance, no loss
// and no duplicate. If the new chain cannot be built or started, it is
// closed and the old one keeps running.
func (s *Stream) Swap(ctx context.Context, p dataflow.PipelinePlan) error {
	s.mu.Lock()
	gen := s.chain.Generation + 1
	s.mu.Unlock()
	next, err := BuildChain(ctx, s.conf.Name, gen, p.Processors, s.deps)
	if err != nil {
		return err
	}
	if err := next.Start(ctx); err != nil {
		next.Close(ctx, s.log)
		return err
	}
	s.mu.Lock()
	old := s.chain
	s.chain, s.lastModified = next, p.LastModified
	s.mu.Unlock()
	s.m.generation.Set(float64(gen))
	// The old chain's processors may still run a batch: they are closed
	// only once every batch that took the old chain has released it.
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
