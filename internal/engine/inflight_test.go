package engine_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/dataflow"
	"github.com/weir-streams/weir/internal/engine"
	"github.com/weir-streams/weir/internal/metrics"
	"github.com/weir-streams/weir/internal/plugins/all"
	"github.com/weir-streams/weir/internal/streamtest"
)

// gate is a processor that holds a batch until the test releases it, and
// remembers whether it was closed while a batch was still inside. No real
// processor can hold a batch at a point the test chooses, which is what
// shows whether a swap or restart closes a chain under a running batch.
type gate struct {
	entered   chan struct{} // closed when the first held batch is inside
	release   chan struct{} // closed by the test to let held batches go
	closed    chan struct{} // closed at the first Close of a holding processor
	built     chan struct{} // receives a value when a passing processor is built
	running   atomic.Int32
	underLoad atomic.Bool // Close came while a batch was inside
	once      sync.Once
	closeOnce sync.Once
}

const gateName = "test.processor.Gate"

func newGate() *gate {
	return &gate{entered: make(chan struct{}), release: make(chan struct{}), closed: make(chan struct{}), built: make(chan struct{}, 16)}
}

// registry is the full registry plus the gate. With hold=true its
// processors hold every batch until release; with hold=false they pass
// batches on.
func (g *gate) registry() *component.Registry {
	reg := all.NewRegistry()
	reg.Register(component.ProcessorSpec(component.Spec{
		Name: gateName, Summary: "Test processor.",
		Properties: []component.Property{{Key: "hold", Default: "false", Validator: component.Bool}},
	}, func(c *gateConfig, _ component.Env) (component.Processor, error) {
		if !c.Hold {
			g.built <- struct{}{}
		}
		return &gateProc{g: g, hold: c.Hold}, nil
	}))
	return reg
}

type gateConfig struct {
	Hold bool `key:"hold"`
}

type gateProc struct {
	g    *gate
	hold bool
}

func (p *gateProc) Process(ctx context.Context, b *component.Batch) error {
	if !p.hold {
		return nil
	}
	p.g.running.Add(1)
	defer p.g.running.Add(-1)
	p.g.once.Do(func() { close(p.g.entered) })
	select {
	case <-p.g.release:
	case <-ctx.Done():
	}
	return nil
}

func (p *gateProc) Close(context.Context) error {
	if !p.hold {
		return nil
	}
	if p.g.running.Load() > 0 {
		p.g.underLoad.Store(true)
	}
	p.g.closeOnce.Do(func() { close(p.g.closed) })
	return nil
}

func gatePipeline(modified time.Time, hold bool) dataflow.Pipeline {
	h := "false"
	if hold {
		h = "true"
	}
	return dataflow.Pipeline{LastModified: modified, Processors: []dataflow.Component{streamtest.Processor("gate", gateName, "hold", h)}}
}

// startHeld starts a one-stream dataflow whose chain holds every batch,
// feeds it a record, and returns once a batch is held inside the chain.
func startHeld(t *testing.T, g *gate) (*engine.Engine, *dataflow.DataFlow, *streamtest.Broker) {
	t.Helper()
	b := streamtest.StartBroker(t)
	b.CreateTopic(t, "raw", 1)
	e := engine.New(engine.Options{
		Settings: engine.Settings{AppName: "inflight", Workers: 1, BatchInterval: 10 * time.Millisecond},
		Registry: g.registry(), Logger: streamtest.Logger(t), Metrics: metrics.New(prometheus.NewRegistry()),
	})
	t.Cleanup(func() {
		g.releaseOnce()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_ = e.Stop(ctx)
	})
	s := streamtest.Stream("s", b.Addr, "raw", "events", "errors")
	s.Pipeline = gatePipeline(time.Unix(10, 0), true)
	df := &dataflow.DataFlow{LastModified: time.Unix(10, 0), Streams: []dataflow.Stream{s}}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := e.Apply(ctx, df); err != nil {
		t.Fatalf("apply: %v", err)
	}
	b.ProduceLines(t, "raw", []string{"held line"})
	select {
	case <-g.entered:
	case <-time.After(30 * time.Second):
		t.Fatal("no batch reached the chain within 30 s")
	}
	return e, df, b
}

var releaseMu sync.Mutex

func (g *gate) releaseOnce() {
	releaseMu.Lock()
	defer releaseMu.Unlock()
	select {
	case <-g.release:
	default:
		close(g.release)
	}
}

// checkNotClosedUnderLoad waits for the change to have built its new chain,
// then gives it time to close the old one: a change that does not wait for
// the batch closes the held processor now. It then releases the batch and
// checks that the old chain was closed after it, once, and that the record
// went through.
func checkNotClosedUnderLoad(t *testing.T, g *gate, b *streamtest.Broker, applied <-chan error) {
	t.Helper()
	select {
	case <-g.built:
	case err := <-applied:
		t.Fatalf("the change returned before building its chain: %v", err)
	case <-time.After(30 * time.Second):
		t.Fatal("the change built no chain within 30 s")
	}
	// The change now stops or replaces the old chain: without waiting for
	// the held batch it would close it within this window.
	select {
	case <-g.closed:
		t.Fatal("the old chain was closed while a batch was still running on it")
	case <-time.After(time.Second):
	}
	g.releaseOnce()
	select {
	case err := <-applied:
		if err != nil {
			t.Fatalf("apply: %v", err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the change did not finish within 60 s of the release")
	}
	select {
	case <-g.closed:
	default:
		t.Fatal("the old chain was never closed")
	}
	if g.underLoad.Load() {
		t.Fatal("the old chain was closed while a batch was still running on it")
	}
	b.Consume(t, "events", 1, 30*time.Second)
}

// applyInBackground applies next while the test goes on; the channel gets
// Apply's answer. The test reads it (checkNotClosedUnderLoad does), so the
// goroutine ends before the test does.
func applyInBackground(e *engine.Engine, next *dataflow.DataFlow) <-chan error {
	applied := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
		defer cancel()
		applied <- e.Apply(ctx, next)
	}()
	return applied
}

// TestSwapWaitsForTheBatchOnTheOldChain: a pipeline swap while a batch is
// inside the old chain closes the old chain only after the batch is done.
func TestSwapWaitsForTheBatchOnTheOldChain(t *testing.T) {
	g := newGate()
	e, df, b := startHeld(t, g)
	next := df.Clone()
	next.Streams[0].Pipeline = gatePipeline(time.Unix(20, 0), false)
	checkNotClosedUnderLoad(t, g, b, applyInBackground(e, next))
	if last, _ := e.LastApply(); last.Kind != "pipeline" {
		t.Fatalf("last apply was %q, want a pipeline swap", last.Kind)
	}
}

// TestRestartWaitsForTheBatchOnTheOldChain: a dataflow restart while a
// batch is inside the old chain closes the old chain only after the batch is
// done (and committed: the record is not processed twice).
func TestRestartWaitsForTheBatchOnTheOldChain(t *testing.T) {
	g := newGate()
	e, df, b := startHeld(t, g)
	next := df.Clone()
	next.LastModified = time.Unix(20, 0)
	next.Streams[0].Pipeline = gatePipeline(time.Unix(20, 0), false)
	checkNotClosedUnderLoad(t, g, b, applyInBackground(e, next))
	if last, _ := e.LastApply(); last.Kind != "dataflow" {
		t.Fatalf("last apply was %q, want a dataflow restart", last.Kind)
	}
	if n := b.Count(t, "events"); n != 1 {
		t.Fatalf("events holds %d records, want the held one once", n)
	}
}
