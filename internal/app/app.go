// Package app runs a validated job: memory limit, metrics, status server,
// the embedded broker, the first apply, and a graceful stop on signal or
// on engine.streaming.timeout. cmd/weir only parses flags and calls it.
package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"runtime/debug"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/weir-streams/weir/internal/broker"
	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/config"
	"github.com/weir-streams/weir/internal/engine"
	"github.com/weir-streams/weir/internal/metrics"
	"github.com/weir-streams/weir/internal/remote"
	"github.com/weir-streams/weir/internal/status"
)

// Options tune a run.
type Options struct {
	Logger   *slog.Logger
	Registry *component.Registry
	// Embedded configures the embedded broker, which app owns: it starts
	// when a stream first names it and closes after the engine has stopped.
	Embedded broker.Options
	// OnStarted, if set, runs once the job has started, beside it, until it
	// returns or the job stops. Its error stops the job.
	OnStarted func(ctx context.Context, e *engine.Engine) error
	// StopTimeout bounds the graceful stop; 0 means the batch interval
	// plus 5 seconds (docs/operations.md). When it passes, the batches in
	// flight are abandoned uncommitted (they are processed again).
	StopTimeout time.Duration
	// Version and Commit are the binary's version and source revision
	// for the status page, /api/status and weir_build_info; "" reads them
	// from the build information (status.ReadBuild).
	Version, Commit string
	// RemoteDir is where the last dataflow applied from the REST API is
	// kept, for a start while the API is down; empty keeps nothing.
	RemoteDir string
	// JobPath is the job file the job was read from; set, SIGHUP reads it
	// again and applies what changed (watch.go), and Watch does so each
	// time the file changes. MaxJobBytes bounds the file read again (0:
	// config.DefaultMaxJobBytes). A job that follows the REST API does
	// neither: the API owns its dataflow.
	JobPath     string
	Watch       bool
	MaxJobBytes int64
}

// Run validates the job, then runs it as RunChecked does.
func Run(ctx context.Context, job *config.Job, o Options) error {
	checked, err := config.Check(job, o.Registry)
	if err != nil {
		return err
	}
	return RunChecked(ctx, checked, o)
}

// RunChecked runs a validated job until ctx ends or the job's timeout
// passes, and stops it gracefully: the engine (streams, then services),
// then the embedded broker.
func RunChecked(ctx context.Context, checked *config.Checked, o Options) error {
	job, set := checked.Job, checked.Engine
	if len(job.Ignored) > 0 {
		o.Logger.Info("LogIsland keys with no Weir equivalent are ignored", "keys", job.Ignored)
	}
	for _, w := range job.Warnings {
		o.Logger.Warn("LogIsland value taken as Weir reads it", "warning", w)
	}
	if len(job.Renamed) > 0 {
		o.Logger.Info("streams or processors named as an earlier one run under their name and position", "renamed", job.Renamed)
	}
	if set.MemoryLimit > 0 {
		debug.SetMemoryLimit(set.MemoryLimit)
	}
	promReg := prometheus.NewRegistry()
	promReg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	build := status.ReadBuild(o.Version, o.Commit)
	if err := status.RegisterBuildInfo(promReg, build); err != nil {
		return fmt.Errorf("metrics: %w", err)
	}
	embedded := broker.New(o.Embedded, o.Logger)
	met := metrics.New(promReg)
	var tap *status.Tap
	if set.UI.Tap && set.UIPort >= 0 {
		tap = status.NewTap()
	}
	e := engine.New(engine.Options{Settings: set, Registry: o.Registry, Logger: o.Logger, Metrics: met, Tap: tap, Broker: embedded, Build: build})
	// The REST API client, when remote.api.baseUrl is set.
	rset := set.Remote
	var rc *remote.Client
	var err error
	var src status.Source = e
	if rset.Enabled() {
		if rc, err = remote.New(remote.Options{Settings: rset, Engine: e, Logger: o.Logger, Metrics: met, StateDir: o.RemoteDir}); err != nil {
			return err
		}
		src = remote.WithStatus(e, rc)
	}

	stopTimeout := o.StopTimeout
	if stopTimeout == 0 {
		stopTimeout = StopBound(set.BatchInterval)
	}
	stop := func() {
		sctx, cancel := context.WithTimeout(context.Background(), stopTimeout)
		defer cancel()
		// The engine honours sctx for the batch in flight, but closing a
		// Kafka client also waits for requests already on the wire, which
		// a broker that accepts and never answers (a blackhole) holds for
		// their own timeouts, and more under load. A stop that is still
		// waiting CloseGrace after the deadline is abandoned: the process
		// ends, and what was not committed is processed again, as after
		// a kill. The stopping goroutine then ends with the process.
		stopped := make(chan struct{})
		go func() {
			defer close(stopped)
			if err := e.Stop(sctx); err != nil {
				o.Logger.Warn("stopping engine", "error", err)
			}
			if err := embedded.Close(sctx); err != nil {
				o.Logger.Warn("closing the embedded broker", "error", err)
			}
		}()
		hard := time.NewTimer(stopTimeout + CloseGrace)
		defer hard.Stop()
		select {
		case <-stopped:
		case <-hard.C:
			o.Logger.Error("the stop did not finish in time: exiting without it; batches that were not committed are processed again",
				"bound", stopTimeout+CloseGrace)
		}
	}

	if set.UIPort >= 0 {
		srv, err := status.StartWith(net.JoinHostPort(set.UI.BindAddress, strconv.Itoa(set.UIPort)), promReg, src, status.Options{
			Profiling: set.UI.Profiling, Tap: tap, Username: set.UI.Username, Password: set.UI.Password,
			CertFile: set.UI.CertFile, KeyFile: set.UI.KeyFile,
		})
		if err != nil {
			return err
		}
		o.Logger.Info("status server listening", "address", srv.Addr())
		defer func() {
			sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			_ = srv.Shutdown(sctx)
		}()
	}

	if set.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, set.Timeout)
		defer cancel()
	}
	// A job file that holds only the engine waits for the REST API's
	// dataflow; one that holds a dataflow runs it until the API sends a
	// newer one.
	if rc == nil || len(job.DataFlow.Streams) > 0 || len(job.DataFlow.Services) > 0 {
		if err := e.ApplyPlan(ctx, checked.Plan); err != nil {
			stop()
			return fmt.Errorf("start job: %w", err)
		}
		o.Logger.Info("job started", "app", set.AppName, "streams", len(job.DataFlow.Streams), "services", len(job.DataFlow.Services))
	} else {
		o.Logger.Info("job started without a dataflow; waiting for the dataflow REST API", "app", set.AppName)
	}
	// Every component has asked for its metrics by now: a name clash
	// would leave some out of /metrics silently.
	if err := met.Err(); err != nil {
		stop()
		return fmt.Errorf("start job: %w", err)
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var wg sync.WaitGroup
	if rc != nil {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rc.Run(ctx)
		}()
	}
	if o.JobPath != "" && rc == nil {
		w := newJobWatcher(o.JobPath, o, checked, e)
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.run(ctx, o.Watch)
		}()
		if o.Watch {
			o.Logger.Info("watching the job file", "path", o.JobPath)
		}
	} else if o.Watch {
		o.Logger.Warn("--watch is not used: the dataflow comes from the REST API", "path", o.JobPath)
	}
	if o.OnStarted != nil {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := o.OnStarted(ctx, e); err != nil && ctx.Err() == nil {
				cancel(err)
			}
		}()
	}
	<-ctx.Done()
	o.Logger.Info("stopping job", "reason", context.Cause(ctx))
	wg.Wait()
	stop()
	if err := context.Cause(ctx); err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return nil
}

// StopBound is how long a graceful stop may take by default: the batch
// interval plus 5 seconds, whatever a sink does. The batch in flight then
// is abandoned, not committed.
func StopBound(batchInterval time.Duration) time.Duration {
	return batchInterval + 5*time.Second
}

// CloseGrace is how long past its bound a stop may still wait for the
// Kafka clients to close (the leave request, bounded at 2 s, and requests
// in flight) before the process ends without it: whatever the network
// does, a stop ends within StopBound plus CloseGrace.
const CloseGrace = 10 * time.Second
