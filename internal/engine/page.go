package engine

import (
	"encoding/json"

	"github.com/weir-streams/weir/internal/status"
)

// Page describes the engine for the status page (status.PageSource). It
// reads the streams the last apply left running, under stateMu only, so a
// long apply never holds the page up.
func (e *Engine) Page() status.Page {
	last, n := e.LastApply()
	e.stateMu.Lock()
	streams := make([]status.StreamPage, 0, len(e.statusStreams))
	for _, s := range e.statusStreams { // sorted by name
		name := s.Name()
		batches, total, stoppedBy := s.Batches()
		streams = append(streams, status.StreamPage{
			Name: name, PipelineModified: s.PipelineModified(), Generation: s.Generation(),
			Processors: s.ProcessorStats(), Batches: batches, TotalBatches: total, StoppedBy: stoppedBy,
		})
	}
	df := e.snapshot
	e.stateMu.Unlock()
	p := status.Page{
		App: e.opts.Settings.AppName, Build: e.opts.Build, BatchInterval: e.opts.Settings.BatchInterval, Streams: streams,
		LastApply: status.Change{Time: last.Time, Kind: last.Kind, Err: last.Err, Detail: last.Detail},
		Applies:   n,
	}
	if df != nil {
		p.DataflowModified = df.LastModified
		if b, err := json.MarshalIndent(df, "", "  "); err == nil {
			p.Config = string(b)
		}
	}
	return p
}
