package status

import (
	"sync/atomic"
	"time"
)

// ProcessorStats accumulates one processor's time and counts, for the
// status page. The chain adds to it from several workers at once.
type ProcessorStats struct {
	Name    string
	nanos   atomic.Int64
	records atomic.Int64
	errors  atomic.Int64
	dropped atomic.Int64
	calls   atomic.Int64
}

// Add counts one call of the processor on n records that took d.
func (p *ProcessorStats) Add(d time.Duration, n int) {
	p.nanos.Add(int64(d))
	p.records.Add(int64(n))
	p.calls.Add(1)
}

// Failed counts one record the processor marked as failed.
func (p *ProcessorStats) Failed() { p.errors.Add(1) }

// Dropped counts n records the processor dropped on purpose (a filter).
func (p *ProcessorStats) Dropped(n int) { p.dropped.Add(int64(n)) }

// Read returns the totals so far.
func (p *ProcessorStats) Read() ProcessorTotals {
	return ProcessorTotals{Name: p.Name, Seconds: time.Duration(p.nanos.Load()).Seconds(),
		Records: p.records.Load(), Errors: p.errors.Load(), Dropped: p.dropped.Load(), Calls: p.calls.Load()}
}

// ProcessorTotals are a processor's totals since its chain generation was
// built.
type ProcessorTotals struct {
	Name    string  `json:"name"`
	Seconds float64 `json:"seconds"`
	Records int64   `json:"records"`
	Errors  int64   `json:"errors"`
	Dropped int64   `json:"dropped"`
	Calls   int64   `json:"calls"`
}
