package docdb_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/weir-streams/weir/internal/config"
	"github.com/weir-streams/weir/internal/engine"
	"github.com/weir-streams/weir/internal/status"
	"github.com/weir-streams/weir/internal/streamtest"
	"github.com/weir-streams/weir/internal/testserver/ferretdb"
)

// lagByPartition reads weir_stream_consumer_lag by partition label.
func lagByPartition(t *testing.T, reg *prometheus.Registry) map[string]float64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for _, mf := range mfs {
		if mf.GetName() != "weir_stream_consumer_lag" {
			continue
		}
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "partition" {
					out[l.GetValue()] = m.GetGauge().GetValue()
				}
			}
		}
	}
	return out
}

// TestDownMongoDBLagGrowsAndNotReady: the sample job with its MongoDB down
// blocks on BulkPut. Lag shows on every partition and grows as more lines
// arrive; once no batch has completed within the stall bound, /readyz
// answers 503 with the reason, and /api/status marks the stream stalled.
func TestDownMongoDBLagGrowsAndNotReady(t *testing.T) {
	srv := ferretdb.New(t)
	srv.Stop()
	broker := streamtest.StartBroker(t)
	broker.CreateTopic(t, "pipeline_raw", 4)
	job, err := config.Parse(sampleJob(t), time.Now(), env(map[string]string{"DOCDB_URI": srv.URI(), "BROKER_LIST": broker.Addr}))
	if err != nil {
		t.Fatal(err)
	}
	e := streamtest.StartEngine(t, engine.Settings{UIPort: -1}, job.DataFlow)
	lines := readLog(t)
	broker.ProduceLines(t, "pipeline_raw", lines[:400])

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var before map[string]float64
	waitFor(ctx, t, "lag on all 4 partitions", func() bool {
		before = lagByPartition(t, e.Metrics)
		if len(before) != 4 {
			return false
		}
		for _, v := range before {
			if v <= 0 {
				return false
			}
		}
		return true
	})
	broker.ProduceLines(t, "pipeline_raw", lines[400:800])
	waitFor(ctx, t, "lag growing on every partition", func() bool {
		now := lagByPartition(t, e.Metrics)
		for p, v := range before {
			if now[p] <= v {
				return false
			}
		}
		return true
	})

	ssrv, err := status.Start("127.0.0.1:0", prometheus.NewRegistry(), e.Engine)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		sctx, scancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer scancel()
		_ = ssrv.Shutdown(sctx)
	})
	var body string
	waitFor(ctx, t, "/readyz not ready with the reason", func() bool {
		resp, err := http.Get("http://" + ssrv.Addr() + "/readyz")
		if err != nil {
			return false
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		body = string(b)
		return resp.StatusCode == http.StatusServiceUnavailable && strings.Contains(body, "no batch completed")
	})
	t.Logf("/readyz: %s", strings.TrimSpace(body))
	resp, err := http.Get("http://" + ssrv.Addr() + "/api/status")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), `"stalled": true`) || !strings.Contains(string(b), `"notReadyReason": "stream`) {
		t.Errorf("/api/status does not show the stall:\n%s", b)
	}
	if n := broker.Count(t, "pipeline_events"); n != 0 {
		// Outputs may be written before the sink acknowledges; what must
		// not happen is a commit. Committed offsets are checked below.
		t.Logf("%d events written before the sink acknowledged (at-least-once)", n)
	}
	for _, st := range e.Status().(status.API).Streams {
		for _, p := range st.Partitions {
			if p.CommittedOffset > 0 {
				t.Errorf("partition %d committed %d with MongoDB down", p.Partition, p.CommittedOffset)
			}
		}
	}
}
