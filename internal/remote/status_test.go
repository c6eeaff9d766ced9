package remote_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/engine"
	"github.com/weir-streams/weir/internal/remote"
	"github.com/weir-streams/weir/internal/status"
	"github.com/weir-streams/weir/internal/streamtest"
)

// The status server shows the client's state under "remote" beside the
// engine's, and its metrics.
func TestStatusEndpointShowsRemote(t *testing.T) {
	api := newAPIServer(t)
	api.setHandler(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "down for maintenance", http.StatusServiceUnavailable)
	})
	e := streamtest.NewEngine(t, engine.Settings{AppName: "status"})
	set := settings(api.srv.URL, "status")
	set.Token = "secret-token"
	c := newClient(t, set, e, "", nil)
	c.Poll(context.Background())
	srv, err := status.Start("127.0.0.1:0", e.Metrics, remote.WithStatus(e, c))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	})
	get := func(path string) string {
		resp, err := http.Get("http://" + srv.Addr() + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	body := get("/api/status")
	var st struct {
		App    string `json:"app"`
		Remote struct {
			LastPoll struct {
				HTTPStatus int    `json:"httpStatus"`
				Result     string `json:"result"`
				Error      string `json:"error"`
			} `json:"lastPoll"`
			ConsecutiveFailures int `json:"consecutiveFailures"`
		} `json:"remote"`
	}
	if err := json.Unmarshal([]byte(body), &st); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	if st.App != "status" || st.Remote.LastPoll.HTTPStatus != 503 || st.Remote.LastPoll.Result != "error" ||
		!strings.Contains(st.Remote.LastPoll.Error, "down for maintenance") || st.Remote.ConsecutiveFailures != 1 {
		t.Fatalf("/api/status = %s", body)
	}
	if strings.Contains(body, "secret-token") {
		t.Fatalf("/api/status shows the token: %s", body)
	}
	if m := get("/metrics"); !strings.Contains(m, `weir_remote_polls_total{result="error"} 1`) || !strings.Contains(m, "weir_remote_consecutive_failures 1") {
		t.Fatalf("/metrics lacks the client's metrics:\n%s", m)
	}
}
