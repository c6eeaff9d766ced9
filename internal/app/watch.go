package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/weir-streams/weir/internal/config"
	"github.com/weir-streams/weir/internal/dataflow"
)

// WatchInterval is how often `weir run --watch` looks at the job file.
const WatchInterval = time.Second

// jobApplier is what the job-file watcher needs of the engine: the Apply
// the REST API client uses too.
type jobApplier interface {
	Apply(ctx context.Context, df *dataflow.DataFlow) error
}

// jobWatcher re-reads the job file and applies what changed through the
// engine's Apply, as the REST API client does: a stream whose processors
// changed has its chain swapped (its pipeline's LastModified moves on), a
// change of services or stream settings restarts the dataflow (the
// dataflow's LastModified moves on). A file that does not load or validate
// changes nothing: the running job goes on and the reason is logged.
// Engine keys are read at start only; a change of them is logged.
type jobWatcher struct {
	path     string
	maxBytes int64
	o        Options
	eng      jobApplier
	log      *slog.Logger
	// applied is the dataflow last applied from the file, engine its
	// engine component; stamp is the file's size and time when read.
	applied *dataflow.DataFlow
	engine  []byte
	stamp   fileStamp
}

type fileStamp struct {
	size int64
	mod  time.Time
}

func statStamp(path string) (fileStamp, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return fileStamp{}, err
	}
	return fileStamp{size: fi.Size(), mod: fi.ModTime()}, nil
}

func newJobWatcher(path string, o Options, checked *config.Checked, eng jobApplier) *jobWatcher {
	w := &jobWatcher{path: path, maxBytes: o.MaxJobBytes, o: o, eng: eng, log: o.Logger.With("job_file", path),
		applied: checked.Job.DataFlow.Clone(), engine: mustJSON(checked.Job.Engine)}
	w.stamp, _ = statStamp(path)
	return w
}

// run watches until ctx ends: every WatchInterval when poll is true, and
// on each SIGHUP.
func (w *jobWatcher) run(ctx context.Context, poll bool) {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	var tick <-chan time.Time
	if poll {
		t := time.NewTicker(WatchInterval)
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case <-ctx.Done():
			return
		case <-hup:
			w.log.Info("SIGHUP: reading the job file again")
			w.reload(ctx)
		case <-tick:
			st, err := statStamp(w.path)
			if err != nil || st == w.stamp {
				continue
			}
			w.reload(ctx)
		}
	}
}

// reload reads the file and applies what changed. It returns the kind of
// change applied ("pipeline", "dataflow", "none"), for tests.
func (w *jobWatcher) reload(ctx context.Context) string {
	w.stamp, _ = statStamp(w.path)
	maxBytes := w.maxBytes
	if maxBytes <= 0 {
		maxBytes = config.DefaultMaxJobBytes
	}
	checked, err := config.LoadChecked(w.path, maxBytes, w.o.Registry)
	if err != nil {
		w.log.Warn("job file refused; the running job goes on unchanged", "error", err)
		return "refused"
	}
	if !bytes.Equal(mustJSON(checked.Job.Engine), w.engine) {
		w.log.Warn("engine keys changed in the job file; they take effect at the next start")
	}
	df, kind := nextDataFlow(w.applied, checked.Job.DataFlow, time.Now())
	if kind == "none" {
		w.log.Info("job file read again: its dataflow is unchanged")
		return kind
	}
	if err := w.eng.Apply(ctx, df); err != nil {
		if errors.Is(err, context.Canceled) {
			return "canceled"
		}
		w.log.Warn("job file change refused; the running job goes on unchanged", "error", err)
		return "refused"
	}
	w.applied = df
	return kind
}

// nextDataFlow returns the dataflow to apply for next, read from the file,
// given the one running, with the timestamps that make the engine do what
// changed: a later dataflow LastModified when services or stream settings
// differ (a restart), else a later pipeline LastModified for each stream
// whose processors differ (a swap), and "none" when nothing differs.
func nextDataFlow(running, next *dataflow.DataFlow, now time.Time) (*dataflow.DataFlow, string) {
	df := next.Clone()
	df.Name = running.Name
	at := now
	if !at.After(running.LastModified) {
		at = running.LastModified.Add(time.Millisecond)
	}
	if !sameShape(running, df) {
		df.LastModified = at
		df.ModificationReason = "job file changed"
		for i := range df.Streams {
			df.Streams[i].Pipeline.LastModified = at
		}
		return df, "dataflow"
	}
	df.LastModified = running.LastModified
	df.ModificationReason = running.ModificationReason
	kind := "none"
	for i := range df.Streams {
		s := &df.Streams[i]
		old, _ := running.Stream(s.Name)
		if bytes.Equal(mustJSON(old.Pipeline.Processors), mustJSON(s.Pipeline.Processors)) {
			s.Pipeline = old.Pipeline
			continue
		}
		pat := now
		if !pat.After(old.Pipeline.LastModified) {
			pat = old.Pipeline.LastModified.Add(time.Millisecond)
		}
		s.Pipeline.LastModified = pat
		s.Pipeline.ModificationReason = "job file changed"
		kind = "pipeline"
	}
	return df, kind
}

// sameShape reports whether a and b have the same services and streams,
// stream settings included, whatever their pipelines.
func sameShape(a, b *dataflow.DataFlow) bool {
	if !bytes.Equal(mustJSON(a.Services), mustJSON(b.Services)) || len(a.Streams) != len(b.Streams) {
		return false
	}
	for i := range a.Streams {
		if !bytes.Equal(mustJSON(a.Streams[i].Component), mustJSON(b.Streams[i].Component)) {
			return false
		}
	}
	return true
}

// mustJSON is the JSON form of v, what the comparisons of job-file
// versions compare: the keys and values, not the lines they sit on.
func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		// The dataflow model is plain data: this cannot happen.
		return []byte(fmt.Sprint(v))
	}
	return b
}
