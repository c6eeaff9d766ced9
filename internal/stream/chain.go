package stream

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"slices"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/dataflow"
	"github.com/weir-streams/weir/internal/metrics"
	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/status"
)

// Chain is one generation of a stream's processor chain. A batch runs whole
// on one generation; a pipeline swap publishes a new generation and closes
// the old one once the batches that hold it have finished.
type Chain struct {
	Generation int64
	stages     []stage
	inflight   sync.WaitGroup
	closeOnce  sync.Once
}

type stage struct {
	name    string
	proc    component.Processor
	in, out prometheus.Counter
	errs    prometheus.Counter
	dropped prometheus.Counter
	panics  prometheus.Counter
	seconds prometheus.Observer
	log     *slog.Logger
	totals  *status.ProcessorStats // since the chain was built, for the status page
}

// ChainDeps is what building a stream and its chains needs.
type ChainDeps struct {
	// Registry finds the stream's serializers.
	Registry *component.Registry
	Services component.ServiceLookup
	Logger   *slog.Logger
	Metrics  component.Metrics
	// Tap receives samples of the records the stream writes, for weir
	// tap; nil when engine.ui.tap is off.
	Tap *status.Tap
}

// BuildChain builds the processors of a validated pipeline, in order, with
// the configuration validation produced. If one fails, the ones already
// built are closed and the error says which failed. Building has no side
// effects outside the chain (see component's lifecycle contract), so a chain
// can be built beside a running one; Start starts it.
func BuildChain(ctx context.Context, streamName string, gen int64, procs []dataflow.Configured, deps ChainDeps) (*Chain, error) {
	c := &Chain{Generation: gen}
	m := deps.Metrics
	in := m.CounterVec("processor_records_in_total", "Records passed to a processor.", metrics.ComponentLabels...)
	out := m.CounterVec("processor_records_out_total", "Records a processor passed on without errors.", metrics.ComponentLabels...)
	errs := m.CounterVec("processor_records_errors_total", "Records a processor marked as failed.", metrics.ComponentLabels...)
	dropped := m.CounterVec("processor_records_dropped_total", "Records a processor removed from the batch without marking them failed: dropped on purpose (a filter).", metrics.ComponentLabels...)
	panics := m.CounterVec("processor_records_panics_total", "Records on which a processor panicked: each became a runtime_error error record.", metrics.ComponentLabels...)
	secs := m.HistogramVec("processor_batch_seconds", "Time a processor takes for one partition batch.", prometheus.ExponentialBuckets(0.0001, 4, 10), metrics.ComponentLabels...)
	for _, pc := range procs {
		p := pc.Component
		env := component.Env{
			Name:     p.Name,
			Stream:   streamName,
			Logger:   deps.Logger.With("stream", streamName, "processor", p.Name),
			Metrics:  m,
			Services: deps.Services,
		}
		proc, err := pc.Spec.NewProcessor(pc.Config, env)
		if err != nil {
			c.Close(ctx, deps.Logger)
			return nil, fmt.Errorf("build processor %q (%s): %w", p.Name, p.Component, err)
		}
		l := env.MetricLabels()
		c.stages = append(c.stages, stage{
			name: p.Name, proc: proc,
			in: in.WithLabelValues(l...), out: out.WithLabelValues(l...), errs: errs.WithLabelValues(l...), dropped: dropped.WithLabelValues(l...),
			panics: panics.WithLabelValues(l...), seconds: secs.WithLabelValues(l...), log: env.Logger,
			totals: &status.ProcessorStats{Name: p.Name},
		})
	}
	return c, nil
}

// Run passes a batch through every processor. Records that come out of a
// processor with errors are taken out of the batch, marked with the
// processor and their source, and returned for the error topics. A returned
// error means ctx was cancelled: the batch must not be committed.
func (c *Chain) Run(ctx context.Context, b *component.Batch) (failed []*record.Record, err error) {
	failed, _, err = c.run(ctx, b)
	return failed, err
}

// run is Run, and also returns how many records the processors dropped on
// purpose: records a processor took out of the batch without marking them
// failed (a filter). A processor that adds records (a split) drops none.
func (c *Chain) run(ctx context.Context, b *component.Batch) (failed []*record.Record, dropped int, err error) {
	for i := range c.stages {
		if len(b.Records) == 0 {
			break
		}
		st := &c.stages[i]
		n := len(b.Records)
		start := time.Now()
		b.SetProcessor(st.name)
		perr := st.process(ctx, b)
		took := time.Since(start)
		st.seconds.Observe(took.Seconds())
		st.in.Add(float64(n))
		st.totals.Add(took, n)
		if perr != nil {
			if ctx.Err() != nil {
				return nil, 0, fmt.Errorf("processor %q: %w", st.name, ctx.Err())
			}
			// The whole batch failed: every record becomes an error record,
			// so nothing is lost and the stream goes on.
			for _, r := range b.Records {
				r.AddError(record.ErrProcessing, perr.Error())
			}
		}
		if gone := n - len(b.Records); gone > 0 {
			dropped += gone
			st.dropped.Add(float64(gone))
			st.totals.Dropped(gone)
		}
		keep := b.Records[:0]
		for _, r := range b.Records {
			if r.HasErrors() {
				r.MarkSource(st.name)
				failed = append(failed, r)
				st.errs.Inc()
				st.totals.Failed()
				continue
			}
			keep = append(keep, r)
		}
		clear(b.Records[len(keep):])
		b.Records = keep
		st.out.Add(float64(len(keep)))
	}
	return failed, dropped, nil
}

// process calls the processor on the batch. If it panics, the batch is in
// an unknown state, so its records (as they came in) are run again one at a
// time, each as a batch of its own: the records on which the processor
// panics again become runtime_error error records naming the processor and
// the panic, and the others go on with what the processor made of them.
// This costs one slice of record pointers per batch, and relies on what
// processors do to a record being safe to do twice (they set fields; the
// stock processors all are). Completions the processor registered before
// it panicked stay registered.
func (st *stage) process(ctx context.Context, b *component.Batch) error {
	in := slices.Clone(b.Records)
	p, err := st.run(ctx, b)
	if p == nil {
		return err
	}
	st.log.Error("processor panicked; running the batch's records one by one to isolate the records that cause it",
		"panic", fmt.Sprint(p), "records", len(in), "topic", b.Topic, "partition", b.Partition, "stack", string(debug.Stack()))
	out := make([]*record.Record, 0, len(in))
	for _, r := range in {
		one := component.Batch{Topic: b.Topic, Partition: b.Partition, Records: []*record.Record{r}}
		one.SetProcessor(st.name)
		p, err := st.run(ctx, &one)
		if p != nil {
			st.panics.Inc()
			r.AddError(record.ErrRuntime, fmt.Sprintf("processor %q panicked: %v", st.name, p))
			out = append(out, r)
			continue
		}
		if err != nil {
			if ctx.Err() != nil {
				return err
			}
			for _, x := range one.Records {
				x.AddError(record.ErrProcessing, err.Error())
			}
		}
		out = append(out, one.Records...)
		for _, c := range one.Completions() {
			b.Await(c)
		}
	}
	b.Records = out
	return nil
}

// run calls the processor and recovers a panic, returned as p: a bug in
// one processor must cost error records, not the process.
func (st *stage) run(ctx context.Context, b *component.Batch) (p any, err error) {
	defer func() {
		p = recover()
	}()
	return nil, st.proc.Process(ctx, b)
}

// Start starts, in order, the processors that implement
// component.Starter. On error the chain is left for Close, which closes
// every processor, started or not.
func (c *Chain) Start(ctx context.Context) error {
	for _, st := range c.stages {
		if s, ok := st.proc.(component.Starter); ok {
			if err := s.Start(ctx); err != nil {
				return fmt.Errorf("start processor %q: %w", st.name, err)
			}
		}
	}
	return nil
}

// Close closes every processor that holds resources. It is called once no
// batch holds the chain any more; later calls do nothing.
func (c *Chain) Close(ctx context.Context, log *slog.Logger) {
	c.closeOnce.Do(func() {
		var errs []error
		for _, st := range c.stages {
			if cl, ok := st.proc.(component.Closer); ok {
				if err := cl.Close(ctx); err != nil {
					errs = append(errs, fmt.Errorf("close processor %q: %w", st.name, err))
				}
			}
		}
		if err := errors.Join(errs...); err != nil {
			log.Warn("closing processor chain", "generation", c.Generation, "error", err)
		}
	})
}

// Stats returns each processor's totals since the chain was built.
func (c *Chain) Stats() []status.ProcessorTotals {
	out := make([]status.ProcessorTotals, len(c.stages))
	for i, st := range c.stages {
		out[i] = st.totals.Read()
	}
	return out
}

// Processors returns the processor names in order.
func (c *Chain) Processors() []string {
	out := make([]string, len(c.stages))
	for i, st := range c.stages {
		out[i] = st.name
	}
	return out
}
