package status_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/weir-streams/weir/internal/metrics"
	"github.com/weir-streams/weir/internal/status"
)

type source struct{ ready bool }

func (s source) Status() any { return map[string]any{"app": "t"} }
func (s source) Ready() bool { return s.ready }

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestServerEndpoints(t *testing.T) {
	reg := prometheus.NewRegistry()
	metrics.New(reg).CounterVec("things_total", "Things.", "stream").WithLabelValues("s").Add(3)

	srv, err := status.Start("127.0.0.1:0", reg, source{ready: false})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := srv.Shutdown(ctx); err != nil {
			t.Error(err)
		}
	}()
	base := "http://" + srv.Addr()
	if code, _ := get(t, base+"/healthz"); code != 200 {
		t.Errorf("/healthz = %d", code)
	}
	if code, _ := get(t, base+"/readyz"); code != 503 {
		t.Errorf("/readyz before start = %d, want 503", code)
	}
	if code, body := get(t, base+"/metrics"); code != 200 || !strings.Contains(body, `weir_things_total{stream="s"} 3`) {
		t.Errorf("/metrics = %d:\n%s", code, body)
	}
	if code, body := get(t, base+"/api/status"); code != 200 || !strings.Contains(body, `"app": "t"`) {
		t.Errorf("/api/status = %d: %s", code, body)
	}
}
