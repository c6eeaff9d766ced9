// Package status holds Weir's observability: the metrics registry shared by
// every component (metrics.go) and the status server with its HTTP handlers
// (/healthz, /readyz, /metrics, /api/status, pprof; server.go).
package status

import (
	"errors"
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
		}
		// Any other error is a descriptor clash between two of our own
		// definitions; the vector still works unregistered, and the clash
		// shows up in tests that scrape /metrics.
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
	// definitions. An unregistered vector keeps the caller working.
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
	return mk().(*prometheus.HistogramVec)
}
