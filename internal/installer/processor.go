package installer

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/pluginrpc"
)

// Restart backoff of a plugin that stopped: the first restart waits
// minBackoff, each failed one doubles the wait up to maxBackoff, and a
// batch that succeeds resets it.
const (
	minBackoff = 100 * time.Millisecond
	maxBackoff = 10 * time.Second
)

// processor is a plugin processor as the stream sees it: a
// component.Processor whose Process sends the batch to the plugin process
// and takes back its records. The process is started when the processor is
// built (with the stream, or beside a running chain for a pipeline swap)
// and stopped by Close, so plugins live and die with their pipeline.
//
// A plugin that dies (crash, kill, lost connection) fails the batch in
// flight with an error, which the chain turns into error records carrying
// the reason (or a redelivery at shutdown), so nothing is lost; the next
// batch restarts it, after a backoff if it keeps dying.
type processor struct {
	bin, sum string
	req      pluginrpc.ConfigureRequest
	timeout  time.Duration // of one batch call; 0: none
	logger   *slog.Logger

	lastSize atomic.Int64 // bytes of the last batch's encoding

	mu      sync.Mutex
	cur     *instance // nil when no plugin process is up
	fails   int       // consecutive failed starts or crashes
	retryAt time.Time // no start before this
	closed  bool
}

// instance is one plugin process with the processor configured in it.
type instance struct {
	run *running
	id  uint64
	// all says the processor reads every field; otherwise reads lists
	// those sent to it (pluginrpc.AppendBatchFields).
	all   bool
	reads []string
}

func newProcessor(ctx context.Context, bin, sum string, req pluginrpc.ConfigureRequest, timeout time.Duration, logger *slog.Logger) (*processor, error) {
	p := &processor{bin: bin, sum: sum, req: req, timeout: timeout, logger: logger}
	inst, err := p.start(ctx)
	if err != nil {
		return nil, err
	}
	p.cur = inst
	return p, nil
}

// start launches the plugin and configures the processor in it.
func (p *processor) start(ctx context.Context) (*instance, error) {
	r, err := launch(p.bin, p.sum, p.logger)
	if err != nil {
		return nil, err
	}
	reply, err := r.rpc.Configure(ctx, p.req)
	if err != nil {
		r.kill()
		return nil, fmt.Errorf("configure %s in its plugin: %w", p.req.Component, err)
	}
	return &instance{run: r, id: reply.Instance, all: reply.AllFields, reads: reply.Reads}, nil
}

// get returns the running instance, starting one (after the backoff) if
// the last one died.
func (p *processor) get(ctx context.Context) (*instance, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for {
		if p.closed {
			return nil, errors.New("plugin processor is closed")
		}
		if p.cur != nil && !p.cur.run.client.Exited() {
			return p.cur, nil
		}
		if p.cur != nil {
			p.dropLocked(errors.New("the plugin process exited"))
		}
		wait := time.Until(p.retryAt)
		if wait <= 0 {
			break
		}
		// Wait without the lock, so that Close and other partitions are
		// not held; whoever wakes first restarts the plugin.
		p.mu.Unlock()
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			p.mu.Lock()
			return nil, ctx.Err()
		case <-t.C:
		}
		p.mu.Lock()
	}
	inst, err := p.start(ctx)
	if err != nil {
		p.failLocked()
		return nil, fmt.Errorf("restart plugin (attempt %d): %w", p.fails, err)
	}
	p.logger.Info("plugin restarted", "binary", p.bin, "after_failures", p.fails)
	p.cur = inst
	return inst, nil
}

// failLocked counts a failure and sets the next start time.
func (p *processor) failLocked() {
	p.fails++
	d := minBackoff << min(p.fails-1, 20)
	p.retryAt = time.Now().Add(min(d, maxBackoff))
}

// dropLocked forgets the current instance after it died.
func (p *processor) dropLocked(cause error) {
	p.logger.Warn("plugin process stopped; it is restarted at the next batch", "binary", p.bin, "error", cause)
	p.cur.run.killHard()
	p.cur = nil
	p.failLocked()
}

// Process sends the batch to the plugin and replaces its records with the
// plugin's.
func (p *processor) Process(ctx context.Context, b *component.Batch) error {
	inst, err := p.get(ctx)
	if err != nil {
		return fmt.Errorf("plugin %s: %w", p.req.Component, err)
	}
	if h := batchInHand.Load(); h != nil {
		(*h)()
	}
	buf := encodeBuffers.Get().(*[]byte)
	// Room for a batch like the last one, so that the encoding does not
	// grow (and copy) a multi-megabyte buffer step by step when the pool
	// hands out a fresh one.
	*buf = slices.Grow((*buf)[:0], int(p.lastSize.Load()))
	*buf = pluginrpc.StartRequest(*buf)
	if inst.all {
		*buf = pluginrpc.AppendBatch(*buf, b.Topic, b.Partition, b.Records)
	} else {
		*buf = pluginrpc.AppendBatchFields(*buf, b.Topic, b.Partition, b.Records, inst.reads)
	}
	p.lastSize.Store(int64(len(*buf)))
	out, err := inst.run.batches.Call(ctx, p.timeout, inst.id, *buf)
	encodeBuffers.Put(buf)
	var perr *pluginrpc.PluginError
	switch {
	case err == nil:
	case ctx.Err() != nil:
		return err
	case errors.As(err, &perr):
		// The plugin is alive and failed the batch itself.
		return fmt.Errorf("plugin %s: %w", p.req.Component, err)
	case errors.Is(err, pluginrpc.ErrCallTimeout):
		// A hung plugin would hold the partition for ever: it is killed
		// like a crashed one, and the batch fails the same way.
		p.mu.Lock()
		if p.cur == inst {
			p.dropLocked(err)
		}
		p.mu.Unlock()
		return fmt.Errorf("plugin %s did not answer within %s (%s); it is killed and restarted: %w", p.req.Component, p.timeout, pluginrpc.TimeoutKey, err)
	default:
		p.mu.Lock()
		if p.cur == inst {
			p.dropLocked(err)
		}
		p.mu.Unlock()
		return fmt.Errorf("plugin %s stopped during the batch (it is restarted): %w", p.req.Component, err)
	}
	recs, err := pluginrpc.ApplyDelta(out, b.Topic, b.Records)
	if err != nil {
		return fmt.Errorf("plugin %s answered a batch Weir cannot read: %w", p.req.Component, err)
	}
	b.Records = recs
	p.mu.Lock()
	p.fails = 0
	p.mu.Unlock()
	return nil
}

// batchInHand, when set, is called by Process once it holds a running
// instance and before it sends the batch. It is nil outside tests: a test
// sets it to kill the plugin at that point, the only way to make the
// process die with a batch in flight deterministically (a kill timed from
// outside lands between batches most of the time, and then no batch fails).
var batchInHand atomic.Pointer[func()]

// encodeBuffers recycles batch encodings: the encoding is written to the
// connection before the call returns, so its buffer is free afterwards.
var encodeBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 1<<20); return &b }}

// closeTimeout bounds the plugin's own Close.
const closeTimeout = 5 * time.Second

// Close stops the plugin process. The chain calls it once no batch runs.
func (p *processor) Close(ctx context.Context) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	if p.cur == nil {
		return nil
	}
	cctx, cancel := context.WithTimeout(ctx, closeTimeout)
	defer cancel()
	err := p.cur.run.rpc.CloseInstance(cctx, p.cur.id)
	p.cur.run.kill()
	p.cur = nil
	if err != nil {
		return fmt.Errorf("close plugin processor %s: %w", p.req.Component, err)
	}
	return nil
}

var (
	_ component.Processor = (*processor)(nil)
	_ component.Closer    = (*processor)(nil)
)
