// Package engine is pkg.engine.engine.BrokerStreamProcessingEngine: it owns
// the controller services and the streams of a job, and Apply is the one way
// they start or change, whether the change comes from the job file at
// start-up, from the REST API, or from a test.
//
// Files, one job each: engine.go (the Engine, Apply's entry and the state
// readers), apply.go (start, restart with rollback, pipeline swap),
// services.go (the running services), redact.go (the snapshot without
// secrets). The engine's keys and typed settings are in engine/settings;
// the embedded broker is internal/broker, owned by app.
package engine

import (
	"context"
	"fmt"
	"log/slog"
	"sort"
	"sync"
	"time"

	"github.com/weir-streams/weir/internal/broker"
	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/dataflow"
	"github.com/weir-streams/weir/internal/engine/settings"
	"github.com/weir-streams/weir/internal/services"
	"github.com/weir-streams/weir/internal/status"
	"github.com/weir-streams/weir/internal/stream"
)

// Name is the engine's component identifier.
const Name = settings.Name

// Spec declares the engine's keys (see engine/settings).
func Spec() component.Spec { return settings.Spec() }

// Settings are the engine keys, typed: the one struct the engine, its
// streams and app read.
type Settings = settings.Engine

// EmbeddedOptions configure the embedded broker; kept under this name for
// callers of app.Options.
type EmbeddedOptions = broker.Options

// Options build an Engine.
type Options struct {
	Settings Settings
	Registry *component.Registry
	Logger   *slog.Logger
	Metrics  component.Metrics
	// Tap receives samples of the records the streams write (weir tap);
	// nil when engine.ui.tap is off.
	Tap *status.Tap
	// Broker is the embedded broker that a stream's broker list "embedded"
	// resolves to; nil refuses such streams. Its owner (app) closes it
	// after Stop.
	Broker *broker.Embedded
	// Build describes the binary, for /api/status.
	Build status.Build
}

// Engine runs one job. Apply and Stop are serialized by one lock, so changes
// apply one at a time, in the order they arrive.
type Engine struct {
	opts Options
	log  *slog.Logger

	applyMu sync.Mutex // serializes Apply and Stop
	cur     *running

	stateMu  sync.Mutex // guards the fields below for readers (status)
	snapshot *dataflow.DataFlow
	// statusStreams are the running streams, sorted by name, for status
	// readers that must not wait for an apply.
	statusStreams []*stream.Stream
	lastApply     ApplyResult
	applies       int64
}

// ApplyResult describes the last change applied or refused.
type ApplyResult struct {
	Time time.Time
	// Kind is "start", "dataflow" (a restart), "pipeline" (chains swapped),
	// "none" (nothing newer), or "validate" (refused by validation, nothing
	// changed).
	Kind   string
	Err    string
	Detail string
}

// running is the dataflow the engine runs: its validated plan, its services
// and its streams.
type running struct {
	plan     *dataflow.Plan
	services *services.Set
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
//     close. If anything fails, the old dataflow runs again and the error is
//     returned;
//   - otherwise, each stream whose pipeline LastModified is later than the
//     running one has its processor chain swapped without stopping;
//   - a dataflow that fails validation changes nothing.
//
// A bad dataflow never stops a good one. Apply validates df once; ApplyPlan
// takes a dataflow already validated.
func (e *Engine) Apply(ctx context.Context, df *dataflow.DataFlow) error {
	df = df.Clone()
	plan, probs := dataflow.Check(df, e.opts.Registry)
	if len(probs) > 0 {
		e.applyMu.Lock()
		defer e.applyMu.Unlock()
		var running *dataflow.DataFlow
		if e.cur != nil {
			running = e.cur.plan.DataFlow
		}
		err := redactError(fmt.Errorf("invalid dataflow: %w", probs), secretsOf(e.opts.Registry, df, running))
		e.finish("validate", "", err)
		return err
	}
	return e.ApplyPlan(ctx, plan)
}

// ApplyPlan is Apply for a dataflow that dataflow.Check validated. The
// engine takes the plan and its dataflow over: the caller must not change
// them afterwards.
func (e *Engine) ApplyPlan(ctx context.Context, plan *dataflow.Plan) error {
	e.applyMu.Lock()
	defer e.applyMu.Unlock()
	if plan.DataFlow.Name == "" {
		plan.DataFlow.Name = e.opts.Settings.AppName
	}
	secrets := secretsOf(e.opts.Registry, plan.DataFlow)
	if e.cur != nil {
		secrets = secretsOf(e.opts.Registry, plan.DataFlow, e.cur.plan.DataFlow)
	}
	kind, detail, err := e.apply(ctx, plan)
	return e.finish(kind, detail, redactError(err, secrets))
}

// finish records the outcome of an apply, for status and metrics, and logs
// a change applied. It is called with applyMu held.
func (e *Engine) finish(kind, detail string, err error) error {
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
	e.statusStreams = e.cur.sortedStreams()
	e.stateMu.Unlock()
	if err != nil {
		// The caller logs or reports a refusal (the REST client logs it
		// and pushes it back; start-up returns it to main): logged here
		// too, it would appear twice.
		return err
	}
	if kind != ChangeNone {
		e.log.Info("configuration change applied", "change", kind, "detail", detail)
	}
	return nil
}

// Stop stops every stream, then every service. It may be called twice and
// before any Apply. The embedded broker is its owner's to close.
func (e *Engine) Stop(ctx context.Context) error {
	e.applyMu.Lock()
	defer e.applyMu.Unlock()
	if e.cur != nil {
		e.stopStreams(ctx, e.cur)
		e.cur.services.Close(ctx)
		e.cur = nil
	}
	e.stateMu.Lock()
	e.statusStreams = nil
	e.stateMu.Unlock()
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

// EmbeddedAddr returns the address of the embedded broker, "" if it is not
// running.
func (e *Engine) EmbeddedAddr() string { return e.opts.Broker.Addr() }

// Ready reports whether a dataflow runs, every stream has joined its
// consumer group (so reached its brokers), and none is stalled or failed
// (stream.StallBound): what /readyz answers.
func (e *Engine) Ready() bool {
	ok, _ := e.readiness()
	return ok
}

// NotReadyReason says why Ready is false; "" when it is true.
func (e *Engine) NotReadyReason() string {
	_, why := e.readiness()
	return why
}

func (e *Engine) readiness() (bool, string) {
	if e.Snapshot() == nil {
		return false, "no dataflow running"
	}
	for _, s := range e.streams() {
		if ready, why := s.Readiness(); !ready {
			return false, why
		}
	}
	return true, ""
}

// streams returns the running streams, sorted by name. Taking applyMu
// would make /api/status wait for a whole apply; finish publishes the
// running set under stateMu instead.
func (e *Engine) streams() []*stream.Stream {
	e.stateMu.Lock()
	defer e.stateMu.Unlock()
	return append([]*stream.Stream(nil), e.statusStreams...)
}

// Status describes the engine for /api/status: the document of
// docs/status.schema.json.
func (e *Engine) Status() any {
	last, n := e.LastApply()
	set := e.opts.Settings
	timeout := set.Timeout.Milliseconds()
	if timeout == 0 {
		timeout = -1
	}
	api := status.API{
		SchemaVersion: status.SchemaVersion,
		App:           set.AppName,
		Build:         e.opts.Build,
		Settings: status.Settings{BatchDurationMs: set.BatchInterval.Milliseconds(), Workers: set.Workers,
			MaxRatePerPartition: set.MaxRate, TimeoutMs: timeout, DriverMemoryBytes: set.MemoryLimit, UIPort: set.UIPort},
		LastApply:      status.Apply{Kind: last.Kind, Error: last.Err, Detail: last.Detail},
		Applies:        n,
		EmbeddedBroker: e.EmbeddedAddr(),
		Streams:        []status.Stream{},
	}
	api.Ready, api.NotReadyReason = e.readiness()
	if !last.Time.IsZero() {
		t := last.Time.UTC()
		api.LastApply.Time = &t
	}
	if df := e.Snapshot(); df != nil {
		api.Dataflow = df
	}
	for _, s := range e.streams() {
		api.Streams = append(api.Streams, s.Status())
	}
	return api
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
	if err == nil && kind != ChangeNone {
		e.opts.Metrics.GaugeVec("engine_last_applied_timestamp_seconds", "Unix time of the last configuration change applied.").WithLabelValues().SetToCurrentTime()
	}
}

// sortedStreams returns r's streams sorted by name; none for a nil r.
func (r *running) sortedStreams() []*stream.Stream {
	if r == nil {
		return nil
	}
	names := make([]string, 0, len(r.streams))
	for n := range r.streams {
		names = append(names, n)
	}
	sort.Strings(names)
	out := make([]*stream.Stream, 0, len(names))
	for _, n := range names {
		out = append(out, r.streams[n])
	}
	return out
}
