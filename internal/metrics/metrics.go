// Package metrics creates the Prometheus metric vectors of Weir's
// components on one registry, once each. It knows nothing of the status
// server, which serves the registry on /metrics.
package metrics

import (
	"errors"
	"fmt"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
)

// ComponentLabels are the label names of per-component metrics.
var ComponentLabels = []string{"stream", "component"}

// Registry creates metric vectors on one Prometheus registry, once each.
// Components are rebuilt on every pipeline swap and dataflow restart, and two
// instances of a component ask for the same vectors; creating them here,
// idempotently, keeps registration out of init and out of global state.
type Registry struct {
	reg  prometheus.Registerer
	mu   sync.Mutex
	vecs map[string]prometheus.Collector
	// clash is the first name clash met: a metric asked for under a name
	// taken by another kind, or refused by the registry. Err reports it,
	// and app refuses to start with it.
	clash error
}

// Err returns the first metric name clash, nil if none: a job whose metrics
// clash must not start with some of them silently missing from /metrics.
func (m *Registry) Err() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.clash
}

func (m *Registry) noteClash(err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.clash == nil {
		m.clash = err
	}
}

// New returns a Registry that registers on reg.
func New(reg prometheus.Registerer) *Registry {
	return &Registry{reg: reg, vecs: make(map[string]prometheus.Collector)}
}

func (m *Registry) getOrRegister(name string, make func() prometheus.Collector) prometheus.Collector {
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
func (m *Registry) CounterVec(name, help string, labels ...string) *prometheus.CounterVec {
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
func (m *Registry) GaugeVec(name, help string, labels ...string) *prometheus.GaugeVec {
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
func (m *Registry) HistogramVec(name, help string, buckets []float64, labels ...string) *prometheus.HistogramVec {
	mk := func() prometheus.Collector {
		return prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: "weir", Name: name, Help: help, Buckets: buckets}, labels)
	}
	if v, ok := m.getOrRegister(name, mk).(*prometheus.HistogramVec); ok {
		return v
	}
	m.noteClash(fmt.Errorf("metric weir_%s asked for as a histogram is registered as another kind", name))
	return mk().(*prometheus.HistogramVec)
}
