// Package status holds Weir's observability: the metrics registry shared by
// every component (metrics.go) and the status server with its HTTP handlers
// (/healthz, /readyz, /metrics, /api/status, pprof; server.go).
package status

import (
	"errors"
	"fmt"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
)

// ComponentLabels are the label names of per-component metrics.
var ComponentLabels = []string{"stream", "component"}

// Metrics creates metric vectors on one Prometheus registry, once each.
// Components are rebuilt on every pipeline swap and dataflow restart, and two
// instances of a component ask for the same vectors; creating them here,
// idempotently, keeps registration out of init and out of global state.
type Metrics struct {
	reg  prometheus.Registerer
	mu   sync.Mutex
	vecs map[string]prometheus.Collector
	// clash is the first name clash met: a metric asked for under a name
	// taken by another kind, or refused by the registry. Err reports it,
	// and app refuses to start with it.
	clash error
	// tap receives samples of the records the streams write; nil when
	// engine.ui.tap is off.
	tap *Tap
}

// SetTap makes the streams that use m offer samples to t (tap.go).
func (m *Metrics) SetTap(t *Tap) { m.tap = t }

// Tap returns the tap the streams offer samples to, nil when off.
func (m *Metrics) Tap() *Tap {
	if m == nil {
		return nil
	}
	return m.tap
}

// Err returns the first metric name clash, nil if none: a job whose metrics
// clash must not start with some of them silently missing from /metrics.
func (m *Metrics) Err() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.clash
}

func (m *Metrics) noteClash(err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.clash == nil {
		m.clash = err
	}
}

// NewMetrics returns a Metrics that registers on reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	return &Metrics{reg: reg, vecs: make(map[string]prometheus.Collector)}
}

func (m *Metrics) getOrRegister(name string, make func() prometheus.Collector) prometheus.Collector {
	m.mu.Lock()
	defer m.mu.Unlock()
	if c, ok := m.vecs[name]; ok {
		return c
	}
	c := make()
	if err := m.reg.Register(c); err != nil {
		var are prometheus.AlreadyRegisteredError
		if errors.As(err, &are) {
			c = are.ExistingCollector
		} else if m.clash == nil {
			// A descriptor clash: the vector works unregistered, and
			// Err reports the clash so the job refuses to start.
			m.clash = fmt.Errorf("metric weir_%s: %w", name, err)
		}
	}
	m.vecs[name] = c
	return c
}

// CounterVec returns the counter vector of that name, creating it once.
func (m *Metrics) CounterVec(name, help string, labels ...string) *prometheus.CounterVec {
	mk := func() prometheus.Collector {
		return prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: "weir", Name: name, Help: help}, labels)
	}
	if v, ok := m.getOrRegister(name, mk).(*prometheus.CounterVec); ok {
		return v
	}
	// The name is taken by a metric of another kind: a bug in our own
	// definitions. An unregistered vector keeps the caller working, and Err
	// reports the clash.
	m.noteClash(fmt.Errorf("metric weir_%s asked for as a counter is registered as another kind", name))
	return mk().(*prometheus.CounterVec)
}

// GaugeVec returns the gauge vector of that name, creating it once.
func (m *Metrics) GaugeVec(name, help string, labels ...string) *prometheus.GaugeVec {
	mk := func() prometheus.Collector {
		return prometheus.NewGaugeVec(prometheus.GaugeOpts{Namespace: "weir", Name: name, Help: help}, labels)
	}
	if v, ok := m.getOrRegister(name, mk).(*prometheus.GaugeVec); ok {
		return v
	}
	m.noteClash(fmt.Errorf("metric weir_%s asked for as a gauge is registered as another kind", name))
	return mk().(*prometheus.GaugeVec)
}

// HistogramVec returns the histogram vector of that name, creating it once.
func (m *Metrics) HistogramVec(name, help string, buckets []float64, labels ...string) *prometheus.HistogramVec {
	mk := func() prometheus.Collector {
		return prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: "weir", Name: name, Help: help, Buckets: buckets}, labels)
	}
	if v, ok := m.getOrRegister(name, mk).(*prometheus.HistogramVec); ok {
		return v
	}
	m.noteClash(fmt.Errorf("metric weir_%s asked for as a histogram is registered as another kind", name))
	return mk().(*prometheus.HistogramVec)
}
