package status_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/weir-streams/weir/internal/status"
)

// reasonSource is a Source that says why it is not ready.
type reasonSource struct{ source }

func (reasonSource) NotReadyReason() string { return `stream "s": 84 records wait` }

// TestReadyzSaysWhy: a Source with NotReadyReason gets its reason in the
// 503 answer; one without gets the generic reason.
func TestReadyzSaysWhy(t *testing.T) {
	for _, c := range []struct {
		src  status.Source
		want string
	}{
		{reasonSource{}, `not ready: stream "s": 84 records wait`},
		{source{}, "not ready: no dataflow running"},
	} {
		srv, err := status.Start("127.0.0.1:0", prometheus.NewRegistry(), c.src)
		if err != nil {
			t.Fatal(err)
		}
		code, body := get(t, "http://"+srv.Addr()+"/readyz")
		if code != 503 || !strings.Contains(body, c.want) {
			t.Errorf("/readyz = %d %q, want 503 with %q", code, body, c.want)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		if err := srv.Shutdown(ctx); err != nil {
			t.Error(err)
		}
		cancel()
	}
}
