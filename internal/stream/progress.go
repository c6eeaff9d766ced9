package stream

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/weir-streams/weir/internal/status"
)

// Stream states, as /api/status shows them (docs/status.schema.json).
const (
	StateStarting = "starting"
	StateRunning  = "running"
	StatePaused   = "paused"
	StateStopped  = "stopped"
	StateFailed   = "failed"
)

// offsetsEvery is how often the stream asks the broker for the end offsets
// and committed offsets of its assigned partitions. The lag must move while
// the chain is blocked on a sink and while a partition gets no records; the
// fetch responses alone say nothing then, so a small ticker owned by the
// stream asks (two requests per tick, whatever the number of partitions).
const offsetsEvery = time.Second

// StallBound is how long records may wait with no batch completing before
// the stream counts as stalled and /readyz answers 503: 20 batch intervals,
// and never less than 10 s (a slow sink that still completes batches is
// healthy, only one that completes none is not).
func StallBound(interval time.Duration) time.Duration {
	return max(20*interval, 10*time.Second)
}

// maxErrors is how many recent errors a stream keeps for /api/status.
const maxErrors = 10

// partState is what the stream knows of one assigned partition.
type partState struct {
	committed int64 // next offset to read as committed by the group, -1 none
	processed int64 // next offset after the last acknowledged record, -1 none
	start     int64 // log start offset, -1 unknown
	hwm       int64 // end offset (high watermark) at the last look, -1 unknown
	// oldest is the Kafka timestamp of the first record of a polled batch
	// that is not processed yet; zero when none is known to wait.
	oldest time.Time
}

func (p *partState) lag() int64 {
	if p.hwm < 0 {
		return 0
	}
	from := p.processed
	if from < 0 {
		from = p.committed
	}
	if from < 0 {
		from = max(p.start, 0)
	}
	return max(p.hwm-from, 0)
}

// progress is what a stream reports: its state, its assigned partitions with
// their offsets and lag, its last batch and its recent errors. It is written
// by the consume loop, the client's rebalance callbacks and the offsets
// ticker, and read by /api/status and /metrics; one mutex guards it.
type progress struct {
	name     string
	interval time.Duration
	m        *streamMetrics

	mu           sync.Mutex
	state        string
	reason       string
	parts        map[tp]*partState
	lastBatch    *status.BatchSummary
	lastProgress time.Time // last batch completed, or last time nothing waited
	errs         []status.Error
	// keep is set while the consumer client closes after a failure: the
	// partitions stay listed (and their lag keeps moving) while the stream
	// is paused, until the next client's first assignment replaces them.
	keep  bool
	fresh bool // the next assignment is a new client's first: replace
	// joined is set by every assignment (the consumer reached its brokers
	// and is in its group, even with nothing assigned) and cleared when the
	// consumer fails; readiness reads it with the state and the stall check.
	joined bool
}

func newProgress(name string, interval time.Duration, m *streamMetrics) *progress {
	return &progress{name: name, interval: interval, m: m, state: StateStarting, parts: map[tp]*partState{}, lastProgress: time.Now()}
}

func (p *progress) setState(state, reason string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.state, p.reason = state, reason
	if state == StateRunning {
		p.keep = false
	}
}

func (p *progress) noteError(err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.errs = append(p.errs, status.Error{Time: time.Now().UTC(), Message: err.Error()})
	if len(p.errs) > maxErrors {
		p.errs = append(p.errs[:0], p.errs[len(p.errs)-maxErrors:]...)
	}
}

// newClient is called before a consumer client is created: its first
// assignment replaces the partitions kept from the last one.
func (p *progress) newClient() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.fresh = true
	p.lastProgress = time.Now()
}

// closingAfterFailure keeps the partitions while the failed client closes.
func (p *progress) closingAfterFailure() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.keep = true
}

// assigned is the client's OnPartitionsAssigned callback.
func (p *progress) assigned(_ context.Context, _ *kgo.Client, m map[string][]int32) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.m.rebalances.WithLabelValues(p.name, "assigned").Inc()
	p.joined = true
	if p.fresh {
		p.fresh = false
		keep := map[tp]bool{}
		for t, ps := range m {
			for _, part := range ps {
				keep[tp{t, part}] = true
			}
		}
		for k := range p.parts {
			if !keep[k] {
				p.dropLocked(k)
			}
		}
	}
	for t, ps := range m {
		for _, part := range ps {
			k := tp{t, part}
			if _, ok := p.parts[k]; !ok {
				p.parts[k] = &partState{committed: -1, processed: -1, start: -1, hwm: -1}
			}
		}
	}
}

// revoked is the client's OnPartitionsRevoked and OnPartitionsLost
// callback: the partitions' series are dropped, unless the client closes
// after a failure (the stream is paused and keeps reporting them).
func (p *progress) revoked(kind string) func(context.Context, *kgo.Client, map[string][]int32) {
	return func(_ context.Context, _ *kgo.Client, m map[string][]int32) {
		p.mu.Lock()
		defer p.mu.Unlock()
		if len(m) > 0 {
			p.m.rebalances.WithLabelValues(p.name, kind).Inc()
		}
		if p.keep {
			return
		}
		for t, ps := range m {
			for _, part := range ps {
				p.dropLocked(tp{t, part})
			}
		}
	}
}

// dropAll forgets every partition: the stream stopped.
func (p *progress) dropAll() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for k := range p.parts {
		p.dropLocked(k)
	}
}

func (p *progress) dropLocked(k tp) {
	delete(p.parts, k)
	l := []string{p.name, k.topic, strconv.Itoa(int(k.partition))}
	p.m.lag.DeleteLabelValues(l...)
	p.m.committed.DeleteLabelValues(l...)
	p.m.hwm.DeleteLabelValues(l...)
	p.m.age.DeleteLabelValues(l...)
}

// polled notes the records of a poll before processing: their partitions'
// high watermarks and the timestamp of each partition's first record.
func (p *progress) polled(parts []polledPartition) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, pp := range parts {
		ps := p.parts[tp{pp.Topic, pp.Partition}]
		if ps == nil {
			continue // revoked meanwhile
		}
		ps.hwm = max(ps.hwm, pp.HighWatermark)
		if ps.oldest.IsZero() {
			ps.oldest = pp.Records[0].Timestamp
		}
	}
	p.publishLocked(time.Now())
}

// lags returns the lag of every assigned partition, and whether the end
// offset of one of them is not known yet.
func (p *progress) lags() (lags map[tp]int64, unknown bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	lags = make(map[tp]int64, len(p.parts))
	for k, ps := range p.parts {
		lags[k] = ps.lag()
		unknown = unknown || ps.hwm < 0
	}
	return lags, unknown
}

// nextOffsets returns, for every assigned partition whose position is
// known, the next offset to process: the offset after the last record
// processed, else the committed offset, else the log start offset.
func (p *progress) nextOffsets() map[tp]int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make(map[tp]int64, len(p.parts))
	for k, ps := range p.parts {
		switch {
		case ps.processed >= 0:
			out[k] = ps.processed
		case ps.committed >= 0:
			out[k] = ps.committed
		case ps.start >= 0:
			out[k] = ps.start
		}
	}
	return out
}

// highWatermarks returns the end offset of every assigned partition as last
// seen (-1: not known yet).
func (p *progress) highWatermarks() map[tp]int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make(map[tp]int64, len(p.parts))
	for k, ps := range p.parts {
		out[k] = ps.hwm
	}
	return out
}

// committedRecords notes a successful commit of done, the last record of
// each partition of a batch.
func (p *progress) committedRecords(done []*kgo.Record, b status.BatchSummary) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	for _, r := range done {
		ps := p.parts[tp{r.Topic, r.Partition}]
		if ps == nil {
			continue
		}
		ps.processed = max(ps.processed, r.Offset+1)
		ps.committed = max(ps.committed, r.Offset+1)
		ps.oldest = time.Time{}
	}
	p.lastBatch = &b
	p.lastProgress = now
	p.publishLocked(now)
}

// refresh asks the broker for the end offsets, log start offsets and the
// group's committed offsets of the assigned partitions, and publishes the
// lag. Errors are returned for the caller to log once in a while; the
// gauges keep their last values.
func (p *progress) refresh(ctx context.Context, adm *kadm.Client, group string) error {
	p.mu.Lock()
	topics := map[string]bool{}
	for k := range p.parts {
		topics[k.topic] = true
	}
	p.mu.Unlock()
	if len(topics) == 0 {
		p.mu.Lock()
		p.lastProgress = time.Now()
		p.mu.Unlock()
		return nil
	}
	names := make([]string, 0, len(topics))
	for t := range topics {
		names = append(names, t)
	}
	ends, err := adm.ListEndOffsets(ctx, names...)
	if err != nil {
		return fmt.Errorf("list end offsets: %w", err)
	}
	starts, err := adm.ListStartOffsets(ctx, names...)
	if err != nil {
		return fmt.Errorf("list start offsets: %w", err)
	}
	commits, err := adm.FetchOffsetsForTopics(ctx, group, names...)
	if err != nil {
		return fmt.Errorf("fetch committed offsets: %w", err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for k, ps := range p.parts {
		if o, ok := ends.Lookup(k.topic, k.partition); ok && o.Err == nil {
			ps.hwm = max(ps.hwm, o.Offset)
		}
		if o, ok := starts.Lookup(k.topic, k.partition); ok && o.Err == nil {
			ps.start = o.Offset
		}
		if o, ok := commits.Lookup(k.topic, k.partition); ok && o.Err == nil && o.At >= 0 {
			ps.committed = o.At
		}
	}
	p.publishLocked(time.Now())
	return nil
}

// publishLocked sets the partition gauges from the state.
func (p *progress) publishLocked(now time.Time) {
	var total int64
	for k, ps := range p.parts {
		l := []string{p.name, k.topic, strconv.Itoa(int(k.partition))}
		lag := ps.lag()
		total += lag
		p.m.lag.WithLabelValues(l...).Set(float64(lag))
		p.m.committed.WithLabelValues(l...).Set(float64(ps.committed))
		p.m.hwm.WithLabelValues(l...).Set(float64(ps.hwm))
		p.m.age.WithLabelValues(l...).Set(ageSeconds(ps, lag, now))
	}
	if total == 0 {
		p.lastProgress = now
	}
}

// ageSeconds is the age of the oldest unprocessed record: 0 when nothing
// waits, -1 when records wait but none of them has been seen yet.
func ageSeconds(ps *partState, lag int64, now time.Time) float64 {
	switch {
	case lag == 0:
		return 0
	case ps.oldest.IsZero():
		return -1
	default:
		return max(now.Sub(ps.oldest).Seconds(), 0)
	}
}

// stalledLocked reports whether records wait and no batch completed within
// the stall bound, and why.
func (p *progress) stalledLocked(now time.Time) (bool, string) {
	var total int64
	for _, ps := range p.parts {
		total += ps.lag()
	}
	idle := now.Sub(p.lastProgress)
	if total == 0 || idle <= StallBound(p.interval) {
		return false, ""
	}
	return true, fmt.Sprintf("stream %q: %d records wait and no batch completed for %s (bound %s)",
		p.name, total, idle.Round(time.Second), StallBound(p.interval))
}

// Readiness reports whether the stream is ready to be counted on (/readyz):
// its consumer has joined its group, which it does only after reaching its
// brokers, it has not failed since, and it is not stalled. When it is not,
// the reason says which, for the readiness endpoint's answer.
func (s *Stream) Readiness() (bool, string) {
	s.prog.mu.Lock()
	defer s.prog.mu.Unlock()
	if !s.prog.joined {
		return false, "stream " + s.conf.Name + " has not joined its consumer group"
	}
	if s.prog.state == StateFailed {
		return false, fmt.Sprintf("stream %q failed: %s", s.conf.Name, s.prog.reason)
	}
	if stalled, why := s.prog.stalledLocked(time.Now()); stalled {
		return false, why
	}
	return true, ""
}

// unjoin marks the consumer as out of its group after a failure, until the
// next client's first assignment.
func (p *progress) unjoin() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.joined = false
}

// Status describes the stream for /api/status.
func (s *Stream) Status() status.Stream {
	st := s.state()
	st.Totals, st.Processors = s.totals(), s.processorCounts()
	return st
}

// state is Status without the counters.
func (s *Stream) state() status.Stream {
	gen := s.Generation()
	p := s.prog
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	stalled, _ := p.stalledLocked(now)
	st := status.Stream{
		Name: s.conf.Name, State: p.state, Reason: p.reason, Generation: gen,
		InputTopics: append([]string{}, s.conf.Inputs...), InputPattern: s.conf.InputPattern, BatchIntervalMs: s.eng.BatchInterval.Milliseconds(),
		LastBatch: p.lastBatch, Stalled: stalled, Partitions: []status.Partition{}, LastErrors: append([]status.Error{}, p.errs...),
		Processors: []status.ProcessorCounts{},
	}
	for k, ps := range p.parts {
		lag := ps.lag()
		age := ageSeconds(ps, lag, now)
		if age > 0 {
			age *= 1000
		}
		st.Partitions = append(st.Partitions, status.Partition{Topic: k.topic, Partition: k.partition,
			CommittedOffset: ps.committed, ProcessedOffset: ps.processed, HighWatermark: ps.hwm, Lag: lag, OldestUnprocessedAgeMs: age})
	}
	sort.Slice(st.Partitions, func(i, j int) bool {
		a, b := st.Partitions[i], st.Partitions[j]
		if a.Topic != b.Topic {
			return a.Topic < b.Topic
		}
		return a.Partition < b.Partition
	})
	return st
}

// watchOffsets refreshes the offsets every offsetsEvery until ctx ends. It
// has its own client, so it keeps reporting while the consumer is blocked
// on a sink or closed after a failure. Errors are logged at most once a
// minute.
func (s *Stream) watchOffsets(ctx context.Context) {
	cl, err := kgo.NewClient(append([]kgo.Opt{kgo.SeedBrokers(s.seeds...)}, s.secOpts...)...)
	if err != nil {
		s.log.Error("offsets watcher: kafka client; lag is not reported", "error", err)
		return
	}
	defer cl.Close()
	adm := kadm.NewClient(cl)
	t := time.NewTicker(offsetsEvery)
	defer t.Stop()
	var lastLog time.Time
	for {
		rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		err := s.prog.refresh(rctx, adm, s.eng.AppName)
		cancel()
		if err != nil && ctx.Err() == nil && time.Since(lastLog) > time.Minute {
			lastLog = time.Now()
			s.log.Warn("cannot read partition offsets; lag gauges keep their last values", "error", err)
		}
		select {
		case <-t.C:
		case <-ctx.Done():
			return
		}
	}
}
