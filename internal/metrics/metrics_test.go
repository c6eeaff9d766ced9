package metrics_test

import (
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/weir-streams/weir/internal/metrics"
)

func TestVectorsAreCreatedOnce(t *testing.T) {
	reg := prometheus.NewRegistry()
	m := metrics.New(reg)
	// Asking twice gives the same vector: components rebuilt on a swap
	// share their metrics instead of failing to register.
	a := m.CounterVec("things_total", "Things.", "stream")
	if b := m.CounterVec("things_total", "Things.", "stream"); a != b {
		t.Fatal("CounterVec returned a new vector for the same name")
	}
	a.WithLabelValues("s").Add(3)
	if err := m.Err(); err != nil {
		t.Fatalf("no clash yet, Err = %v", err)
	}
	// A second Registry on the same Prometheus registry finds the vector
	// registered there.
	if b := metrics.New(reg).CounterVec("things_total", "Things.", "stream"); b != a {
		t.Error("a second Registry did not find the registered vector")
	}
	// A clash of kinds is survived, not a panic, and reported: app
	// refuses to start with it.
	_ = m.GaugeVec("things_total", "Things.", "stream")
	if err := m.Err(); err == nil || !strings.Contains(err.Error(), "weir_things_total") {
		t.Errorf("clash not reported: %v", err)
	}
}
