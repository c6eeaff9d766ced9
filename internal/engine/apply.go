package engine

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/dataflow"
	"github.com/weir-streams/weir/internal/services"
	"github.com/weir-streams/weir/internal/stream"
)

// The kinds of change an Apply makes to what runs.
const (
	ChangeStart    = "start"    // nothing runs: the dataflow starts
	ChangeDataflow = "dataflow" // a later lastModified: services and streams restart
	ChangePipeline = "pipeline" // later pipelines of running streams: they are swapped
	ChangeNone     = "none"     // nothing is newer than what runs
)

// Change returns the kind of change an Apply of df would make now, by the
// spec's state table, and the modificationReason of what changes. The
// REST client asks it before submitting a dataflow and reports it.
func (e *Engine) Change(df *dataflow.DataFlow) (kind, reason string) {
	e.stateMu.Lock()
	defer e.stateMu.Unlock()
	return changeOf(e.snapshot, df)
}

// changeOf is the state table: ChangeStart when nothing runs (cur is nil),
// ChangeDataflow when df's lastModified is later than cur's,
// ChangePipeline when the pipeline of a running stream (matched by name)
// is later, ChangeNone otherwise.
func changeOf(cur, df *dataflow.DataFlow) (kind, reason string) {
	if cur == nil {
		return ChangeStart, df.ModificationReason
	}
	if df.LastModified.After(cur.LastModified) {
		return ChangeDataflow, df.ModificationReason
	}
	kind = ChangeNone
	var reasons []string
	for i := range df.Streams {
		ns := &df.Streams[i]
		if rs, ok := cur.Stream(ns.Name); ok && ns.Pipeline.LastModified.After(rs.Pipeline.LastModified) {
			kind = ChangePipeline
			if ns.Pipeline.ModificationReason != "" {
				reasons = append(reasons, ns.Name+": "+ns.Pipeline.ModificationReason)
			}
		}
	}
	return kind, strings.Join(reasons, "; ")
}

// apply starts, restarts or swaps, as Apply describes. It runs with applyMu
// held, on a plan that passed validation.
func (e *Engine) apply(ctx context.Context, plan *dataflow.Plan) (kind, detail string, err error) {
	df := plan.DataFlow
	var cur *dataflow.DataFlow
	if e.cur != nil {
		cur = e.cur.plan.DataFlow
	}
	switch kind, _ := changeOf(cur, df); kind {
	case ChangeStart:
		r, err := e.build(ctx, plan)
		if err != nil {
			return ChangeStart, "", err
		}
		if err := e.startStreams(ctx, r); err != nil {
			r.services.Close(ctx)
			return ChangeStart, "", err
		}
		e.cur = r
		return ChangeStart, fmt.Sprintf("%d services, %d streams", len(df.Services), len(df.Streams)), nil
	case ChangeDataflow:
		return ChangeDataflow, df.ModificationReason, e.restart(ctx, plan)
	}
	return e.swapPipelines(ctx, plan)
}

// build builds and starts the services of plan, then builds its streams
// without starting them: nothing is consumed or written yet, so build runs
// beside a running dataflow. On failure everything it built is closed.
func (e *Engine) build(ctx context.Context, plan *dataflow.Plan) (*running, error) {
	svcs, err := services.Start(ctx, plan.Services, services.Options{Logger: e.opts.Logger, Metrics: e.opts.Metrics})
	if err != nil {
		return nil, err
	}
	r := &running{plan: plan, services: svcs, streams: map[string]*stream.Stream{}}
	if err := e.buildStreams(ctx, r); err != nil {
		svcs.Close(ctx)
		return nil, err
	}
	return r, nil
}

// buildStreams builds the streams of r.plan. On failure the streams built
// are closed (stopped without having started).
func (e *Engine) buildStreams(ctx context.Context, r *running) error {
	deps := stream.ChainDeps{Registry: e.opts.Registry, Services: r.services, Logger: e.opts.Logger, Metrics: e.opts.Metrics, Tap: e.opts.Tap}
	for _, sp := range r.plan.Streams {
		p, err := e.streamParams(sp)
		var s *stream.Stream
		if err == nil {
			s, err = stream.New(ctx, p, deps)
		}
		if err != nil {
			e.stopStreams(ctx, r)
			return fmt.Errorf("build stream %q: %w", sp.Name(), err)
		}
		r.streams[sp.Name()] = s
	}
	return nil
}

// streamParams decodes a stream's configuration and resolves its broker
// list into seed addresses, starting the embedded broker if the list says
// "embedded". This is the one place a broker list is resolved: the stream
// receives addresses and never calls back.
func (e *Engine) streamParams(sp dataflow.StreamPlan) (stream.Params, error) {
	conf, err := stream.Decode(sp.Name(), sp.Config)
	if err != nil {
		return stream.Params{}, err
	}
	var seeds []string
	switch {
	case conf.BrokerList != stream.Embedded:
		seeds = component.SplitList(conf.BrokerList)
	case e.opts.Broker == nil:
		return stream.Params{}, fmt.Errorf("%s: the embedded broker is not available in this process", stream.KeyBrokerList)
	default:
		if seeds, err = e.opts.Broker.SeedsFor(conf.Partitions); err != nil {
			return stream.Params{}, fmt.Errorf("%s: %w", stream.KeyBrokerList, err)
		}
	}
	set := e.opts.Settings
	eng := stream.EngineParams{AppName: set.AppName, Workers: set.Workers, BatchInterval: set.BatchInterval, MaxRate: set.MaxRate}
	return stream.Params{Engine: eng, Config: conf, Seeds: seeds, Pipeline: sp.Pipeline}, nil
}

// startStreams starts the built streams of r, in dataflow order. On failure
// every stream of r is stopped and closed.
func (e *Engine) startStreams(ctx context.Context, r *running) error {
	for _, sp := range r.plan.Streams {
		if err := r.streams[sp.Name()].Start(ctx); err != nil {
			e.stopStreams(ctx, r)
			return fmt.Errorf("start stream %q: %w", sp.Name(), err)
		}
	}
	return nil
}

// stopStreams stops every stream of r at once (each commits what it
// finished) and forgets them.
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

// restart replaces the running dataflow with plan's, or leaves the old one
// running if the new one cannot be built or started.
func (e *Engine) restart(ctx context.Context, plan *dataflow.Plan) error {
	old := e.cur
	// Build the new services and streams beside the old ones first: a
	// service that cannot start (a wrong database URI) or a processor that
	// cannot be built is refused before anything stops.
	r, err := e.build(ctx, plan)
	if err != nil {
		return err
	}
	// The new streams consume in the same group: the old ones stop first.
	e.stopStreams(ctx, old)
	if err := e.startStreams(ctx, r); err != nil {
		r.services.Close(ctx)
		// Roll back: the old services are still open; build and start the
		// old streams again from the old plan.
		rerr := e.buildStreams(ctx, old)
		if rerr == nil {
			rerr = e.startStreams(ctx, old)
		}
		if rerr != nil {
			e.log.Error("could not restore the previous dataflow", "error", rerr)
			return errors.Join(err, fmt.Errorf("restore previous dataflow: %w", rerr))
		}
		return err
	}
	old.services.Close(ctx)
	e.cur = r
	return nil
}

// swapPipelines swaps the processor chain of every stream whose pipeline is
// newer. Streams swap independently: one refused pipeline does not undo the
// others. The running services stay, so each changed pipeline is checked
// against them (plan was validated against its own service list).
func (e *Engine) swapPipelines(ctx context.Context, plan *dataflow.Plan) (kind, detail string, err error) {
	services := map[string]*component.Spec{}
	for _, c := range e.cur.plan.Services {
		services[c.Name()] = c.Spec
	}
	var errs []error
	var swapped []string
	for i := range plan.DataFlow.Streams {
		ns := &plan.DataFlow.Streams[i]
		s, ok := e.cur.streams[ns.Name]
		if !ok || !ns.Pipeline.LastModified.After(s.PipelineModified()) {
			continue
		}
		pp, probs := dataflow.CheckPipeline(ns, e.opts.Registry, services)
		if len(probs) > 0 {
			errs = append(errs, fmt.Errorf("stream %q: invalid pipeline: %w", ns.Name, probs))
			continue
		}
		if err := s.Swap(ctx, pp); err != nil {
			errs = append(errs, fmt.Errorf("stream %q: swap pipeline: %w", ns.Name, err))
			continue
		}
		e.cur.setPipeline(ns, pp)
		swapped = append(swapped, ns.Name)
	}
	if len(swapped) == 0 && len(errs) == 0 {
		return ChangeNone, "", nil
	}
	sort.Strings(swapped)
	return ChangePipeline, fmt.Sprintf("swapped %v", swapped), errors.Join(errs...)
}

// setPipeline records a swapped pipeline in the running model and plan, so
// the snapshot shows it and a rollback rebuilds it.
func (r *running) setPipeline(ns *dataflow.Stream, pp dataflow.PipelinePlan) {
	cs, _ := r.plan.DataFlow.Stream(ns.Name)
	cs.Pipeline = ns.Pipeline
	for i := range r.plan.Streams {
		if r.plan.Streams[i].Name() == ns.Name {
			r.plan.Streams[i].Pipeline = pp
		}
	}
}
