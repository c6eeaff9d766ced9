// Package engine is pkg.engine.engine.BrokerStreamProcessingEngine: it owns
// the controller services and the streams of a job, and Apply is the one way
// they start or change, whether the change comes from the job file at
// start-up, from the REST API, or from a test.
package engine

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/dataflow"
	"github.com/weir-streams/weir/internal/status"
	"github.com/weir-streams/weir/internal/stream"
)

// Settings are the engine keys, typed.
type Settings struct {
	AppName       string
	Workers       int
	BatchInterval time.Duration
	MaxRate       int64
	Timeout       time.Duration // 0 = run until stopped
	MemoryLimit   int64         // 0 = none
	UIPort        int           // -1 = no server, 0 = a free port
}

// SettingsFrom reads the engine component of a job.
func SettingsFrom(c *dataflow.Component, reg *component.Registry) (Settings, error) {
	_, conf, err := reg.Configure(c.Component, component.KindEngine, c.Values())
	if err != nil {
		if probs, ok := err.(component.Problems); ok {
			return Settings{}, probs.At("engine.configuration", c.LineOf)
		}
		return Settings{}, err
	}
	s := Settings{AppName: conf.String("engine.app.name"), Workers: Workers(conf.String("engine.master"))}
	if s.BatchInterval, err = conf.Millis("engine.streaming.batchDuration"); err != nil {
		return Settings{}, err
	}
	if s.MaxRate, err = conf.Int("engine.streaming.broker.maxRatePerPartition"); err != nil {
		return Settings{}, err
	}
	if s.Timeout, err = conf.Millis("engine.streaming.timeout"); err != nil {
		return Settings{}, err
	}
	if s.Timeout < 0 {
		s.Timeout = 0
	}
	if conf.IsSet("engine.driver.memory") {
		if s.MemoryLimit, err = ParseSize(conf.String("engine.driver.memory")); err != nil {
			return Settings{}, err
		}
	}
	port, err := conf.Int("engine.ui.port")
	if err != nil {
		return Settings{}, err
	}
	s.UIPort = int(port)
	return s, nil
}

// EmbeddedOptions configure the in-process Kafka broker started when a
// stream's broker list is "embedded".
type EmbeddedOptions struct {
	// Port to listen on, on 127.0.0.1; 0 picks a free one.
	Port int
	// DataDir keeps topics and committed offsets across restarts; empty
	// keeps them in memory only.
	DataDir    string
	Partitions int32
}

// Options build an Engine.
type Options struct {
	Settings Settings
	Registry *component.Registry
	Logger   *slog.Logger
	Metrics  *status.Metrics
	Embedded EmbeddedOptions
}

// Engine runs one job. Apply and Stop are serialized by one lock, so changes
// apply one at a time, in the order they arrive.
type Engine struct {
	opts Options
	log  *slog.Logger

	applyMu sync.Mutex // serializes Apply and Stop
	cur     *running

	stateMu   sync.Mutex // guards the fields below for readers (status)
	snapshot  *dataflow.DataFlow
	lastApply ApplyResult
	applies   int64

	brokerMu sync.Mutex
	embedded *kfake.Cluster
}

// ApplyResult describes the last change applied or refused.
type ApplyResult struct {
	Time   time.Time
	Kind   string // "start", "dataflow", "pipeline", "none"
	Err    string
	Detail string
}

type running struct {
	df       *dataflow.DataFlow
	services *serviceSet
	streams  map[string]*stream.Stream
}

// New returns an engine that runs nothing yet.
func New(opts Options) *Engine {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	return &Engine{opts: opts, log: opts.Logger.With("engine", opts.Settings.AppName)}
}

// Apply makes the engine run df:
//
//   - nothing running: services and streams are built and started;
//   - df.LastModified later than the running dataflow's: the new services
//     and streams are built beside the old ones, the old streams stop
//     (committing their offsets), the new ones start, and the old services
//     close. If anything fails, the old dataflow is started again and the
//     error returned;
//   - otherwise, each stream whose pipeline LastModified is later than the
//     running one has its processor chain swapped without stopping;
//   - a dataflow that fails validation changes nothing.
//
// A bad dataflow never stops a good one.
func (e *Engine) Apply(ctx context.Context, df *dataflow.DataFlow) error {
	e.applyMu.Lock()
	defer e.applyMu.Unlock()
	df = df.Clone()
	if df.Name == "" {
		df.Name = e.opts.Settings.AppName
	}
	kind, detail, err := e.apply(ctx, df)
	e.recordApply(kind, err)
	e.stateMu.Lock()
	e.applies++
	e.lastApply = ApplyResult{Time: time.Now(), Kind: kind, Detail: detail}
	if err != nil {
		e.lastApply.Err = err.Error()
	}
	if e.cur != nil {
		e.snapshot = e.currentModel()
	}
	e.stateMu.Unlock()
	if err != nil {
		e.log.Error("configuration change refused; the running job is unchanged", "change", kind, "error", err)
		return err
	}
	if kind != "none" {
		e.log.Info("configuration change applied", "change", kind, "detail", detail)
	}
	return nil
}

func (e *Engine) apply(ctx context.Context, df *dataflow.DataFlow) (kind, detail string, err error) {
	if probs := dataflow.Validate(df, e.opts.Registry); len(probs) > 0 {
		return "validate", "", fmt.Errorf("invalid dataflow: %w", probs)
	}
	if e.cur == nil {
		r, err := e.startDataflow(ctx, df, nil)
		if err != nil {
			return "start", "", err
		}
		e.cur = r
		return "start", fmt.Sprintf("%d services, %d streams", len(df.Services), len(df.Streams)), nil
	}
	if df.LastModified.After(e.cur.df.LastModified) {
		return "dataflow", df.ModificationReason, e.restart(ctx, df)
	}
	return e.swapPipelines(ctx, df)
}

// startDataflow builds and starts the services and streams of df. When
// services is nil, new services are built; on failure everything it
// started is stopped again.
func (e *Engine) startDataflow(ctx context.Context, df *dataflow.DataFlow, services *serviceSet) (*running, error) {
	built := false
	if services == nil {
		var err error
		if services, err = e.buildServices(ctx, df); err != nil {
			return nil, err
		}
		built = true
	}
	r := &running{df: df, services: services, streams: map[string]*stream.Stream{}}
	if err := e.startStreams(ctx, r); err != nil {
		if built {
			services.close(ctx, e.log)
		}
		return nil, err
	}
	return r, nil
}

func (e *Engine) startStreams(ctx context.Context, r *running) error {
	eng := stream.EngineSettings{Group: e.opts.Settings.AppName, Workers: e.opts.Settings.Workers,
		BatchInterval: e.opts.Settings.BatchInterval, MaxRate: e.opts.Settings.MaxRate}
	deps := stream.ChainDeps{Registry: e.opts.Registry, Services: r.services, Logger: e.opts.Logger, Metrics: e.opts.Metrics}
	for i := range r.df.Streams {
		sc := &r.df.Streams[i]
		set, err := stream.NewSettings(&sc.Component, e.opts.Registry, eng, e.resolveBrokers)
		if err == nil {
			var s *stream.Stream
			if s, err = stream.New(ctx, set, sc.Pipeline, deps); err == nil {
				if err = s.Start(ctx); err == nil {
					r.streams[sc.Name] = s
					continue
				}
				_ = s.Stop(ctx)
			}
		}
		e.stopStreams(ctx, r)
		return fmt.Errorf("start stream %q: %w", sc.Name, err)
	}
	return nil
}

func (e *Engine) stopStreams(ctx context.Context, r *running) {
	var wg sync.WaitGroup
	for name, s := range r.streams {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := s.Stop(ctx); err != nil {
				e.log.Warn("stopping stream", "stream", name, "error", err)
			}
		}()
	}
	wg.Wait()
	r.streams = map[string]*stream.Stream{}
}

// restart replaces the running dataflow with df, or leaves the old one
// running if df cannot start.
func (e *Engine) restart(ctx context.Context, df *dataflow.DataFlow) error {
	old := e.cur
	// Build the new services beside the old ones first: a service that
	// cannot start (a wrong database URI) is refused before anything stops.
	services, err := e.buildServices(ctx, df)
	if err != nil {
		return err
	}
	e.stopStreams(ctx, old)
	r, err := e.startDataflow(ctx, df, services)
	if err != nil {
		services.close(ctx, e.log)
		// Roll back: the old services are still open; start the old
		// streams again from the old model.
		if rerr := e.startStreams(ctx, old); rerr != nil {
			e.log.Error("could not restore the previous dataflow", "error", rerr)
			return errors.Join(err, fmt.Errorf("restore previous dataflow: %w", rerr))
		}
		return err
	}
	old.services.close(ctx, e.log)
	e.cur = r
	return nil
}

// swapPipelines swaps the processor chain of every stream whose pipeline is
// newer. Streams swap independently: one refused pipeline does not undo the
// others.
func (e *Engine) swapPipelines(ctx context.Context, df *dataflow.DataFlow) (kind, detail string, err error) {
	services := dataflow.ServiceSpecs(e.cur.df, e.opts.Registry)
	var errs []error
	var swapped []string
	for i := range df.Streams {
		ns := &df.Streams[i]
		s, ok := e.cur.streams[ns.Name]
		if !ok || !ns.Pipeline.LastModified.After(s.PipelineModified()) {
			continue
		}
		if probs := dataflow.ValidatePipeline(ns, e.opts.Registry, services); len(probs) > 0 {
			errs = append(errs, fmt.Errorf("stream %q: invalid pipeline: %w", ns.Name, probs))
			continue
		}
		if err := s.Swap(ctx, ns.Pipeline); err != nil {
			errs = append(errs, fmt.Errorf("stream %q: swap pipeline: %w", ns.Name, err))
			continue
		}
		cs, _ := e.cur.df.Stream(ns.Name)
		cs.Pipeline = ns.Pipeline
		swapped = append(swapped, ns.Name)
	}
	if len(swapped) == 0 && len(errs) == 0 {
		return "none", "", nil
	}
	sort.Strings(swapped)
	return "pipeline", fmt.Sprintf("swapped %v", swapped), errors.Join(errs...)
}

// Stop stops every stream, then every service, and the embedded broker.
func (e *Engine) Stop(ctx context.Context) error {
	e.applyMu.Lock()
	defer e.applyMu.Unlock()
	if e.cur != nil {
		e.stopStreams(ctx, e.cur)
		e.cur.services.close(ctx, e.log)
		e.cur = nil
	}
	e.brokerMu.Lock()
	defer e.brokerMu.Unlock()
	if e.embedded != nil {
		e.embedded.Close()
		e.embedded = nil
	}
	return nil
}

// Generation returns the chain generation of a running stream, 0 if none.
func (e *Engine) Generation(streamName string) int64 {
	e.applyMu.Lock()
	defer e.applyMu.Unlock()
	if e.cur == nil {
		return 0
	}
	if s, ok := e.cur.streams[streamName]; ok {
		return s.Generation()
	}
	return 0
}

// Snapshot returns the running dataflow with sensitive values redacted, for
// the REST push and the status page. It is nil before the first start.
func (e *Engine) Snapshot() *dataflow.DataFlow {
	e.stateMu.Lock()
	defer e.stateMu.Unlock()
	if e.snapshot == nil {
		return nil
	}
	return e.snapshot.Clone()
}

// LastApply returns the result of the last Apply and the number of applies.
func (e *Engine) LastApply() (ApplyResult, int64) {
	e.stateMu.Lock()
	defer e.stateMu.Unlock()
	return e.lastApply, e.applies
}

// currentModel copies the running model with sensitive values redacted.
func (e *Engine) currentModel() *dataflow.DataFlow {
	df := e.cur.df.Clone()
	redact := func(c *dataflow.Component) {
		spec, ok := e.opts.Registry.Lookup(c.Component)
		if !ok {
			return
		}
		for i, p := range c.Config {
			if d, ok := spec.Property(p.Key); ok && d.Sensitive {
				c.Config[i].Value = component.Redacted
			}
		}
	}
	for i := range df.Services {
		redact(&df.Services[i])
	}
	for i := range df.Streams {
		redact(&df.Streams[i].Component)
		for j := range df.Streams[i].Pipeline.Processors {
			redact(&df.Streams[i].Pipeline.Processors[j])
		}
	}
	return df
}

// resolveBrokers returns the seed brokers of a broker list, starting the
// embedded broker on first use. The embedded broker lives as long as the
// engine, across dataflow restarts.
func (e *Engine) resolveBrokers(list string) ([]string, error) {
	if list != stream.Embedded {
		return component.SplitList(list), nil
	}
	e.brokerMu.Lock()
	defer e.brokerMu.Unlock()
	if e.embedded == nil {
		c, err := StartEmbedded(e.opts.Embedded)
		if err != nil {
			return nil, err
		}
		e.embedded = c
		e.log.Info("embedded Kafka broker started", "address", c.ListenAddrs()[0], "data_dir", e.opts.Embedded.DataDir)
	}
	return e.embedded.ListenAddrs(), nil
}

// EmbeddedAddr returns the address of the embedded broker, "" if it is not
// running.
func (e *Engine) EmbeddedAddr() string {
	e.brokerMu.Lock()
	defer e.brokerMu.Unlock()
	if e.embedded == nil {
		return ""
	}
	return e.embedded.ListenAddrs()[0]
}

// StartEmbedded starts an in-process Kafka-protocol broker (franz-go's
// kfake) on 127.0.0.1. It is a single-process broker for trying Weir and for
// tests; production uses Kafka or Redpanda.
func StartEmbedded(o EmbeddedOptions) (*kfake.Cluster, error) {
	opts := []kfake.Opt{kfake.NumBrokers(1), kfake.Ports(o.Port), kfake.AllowAutoTopicCreation()}
	if o.Partitions > 0 {
		opts = append(opts, kfake.DefaultNumPartitions(int(o.Partitions)))
	}
	if o.DataDir != "" {
		opts = append(opts, kfake.DataDir(o.DataDir))
	}
	c, err := kfake.NewCluster(opts...)
	if err != nil {
		return nil, fmt.Errorf("start embedded kafka broker on 127.0.0.1:%d: %w", o.Port, err)
	}
	return c, nil
}

// Ready reports whether a dataflow runs.
func (e *Engine) Ready() bool { return e.Snapshot() != nil }

// Status describes the engine for /api/status.
func (e *Engine) Status() any {
	last, n := e.LastApply()
	return map[string]any{
		"app":          e.opts.Settings.AppName,
		"settings":     e.opts.Settings,
		"dataflow":     e.Snapshot(),
		"lastApply":    last,
		"applies":      n,
		"embeddedAddr": e.EmbeddedAddr(),
	}
}

// recordApply exports the outcome of an Apply: a counter by change kind and
// result, and the time of the last applied change.
func (e *Engine) recordApply(kind string, err error) {
	if e.opts.Metrics == nil {
		return
	}
	result := "applied"
	if err != nil {
		result = "refused"
	}
	e.opts.Metrics.CounterVec("engine_applies_total", "Configuration changes submitted to the engine, by kind (start, dataflow, pipeline, none, validate) and result.", "kind", "result").WithLabelValues(kind, result).Inc()
	if err == nil && kind != "none" {
		e.opts.Metrics.GaugeVec("engine_last_applied_timestamp_seconds", "Unix time of the last configuration change applied.").WithLabelValues().SetToCurrentTime()
	}
}
