package remote_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/engine"
	"github.com/weir-streams/weir/internal/remote"
	"github.com/weir-streams/weir/internal/streamtest"
)

// A server that accepts connections and never answers, to GETs and POSTs
// alike: records keep flowing, and the client stops at once when asked.
func TestServerThatNeverAnswers(t *testing.T) {
	b := streamtest.StartBroker(t)
	b.CreateTopic(t, "raw", 2)
	t0 := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	e := streamtest.StartEngine(t, engine.Settings{AppName: "silent"}, typed(b.Addr, t0, t0, "v1"))
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(func() {
		close(release)
		srv.Close()
	})
	set := settings(srv.URL, "silent")
	// Timeouts far longer than the test: only the stop can end a request.
	set.Connect, set.Socket = time.Hour, time.Hour
	set.PushRate = 20 * time.Millisecond
	c := newClient(t, set, e, "", nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		c.Run(ctx)
	}()
	// Processing goes on while a poll and a push hang.
	f := newFeeder(t, b)
	f.feed(200, "v1")
	f.feed(200, "v1")
	if st := c.Status(); st.LastPoll != nil {
		t.Fatalf("a poll finished against a server that never answers: %+v", st.LastPoll)
	}
	cancel()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the client did not stop within 10 s of being asked, with a request hanging")
	}
	if e.Snapshot() == nil {
		t.Fatal("the dataflow stopped")
	}
}

// A start while the API is down runs the last dataflow applied, kept on
// disk, and says so.
func TestStartWithAPIDownUsesDataflowOnDisk(t *testing.T) {
	b := streamtest.StartBroker(t)
	b.CreateTopic(t, "raw", 2)
	dir := t.TempDir()
	t0 := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	api := newAPIServer(t)
	api.serveDataflow(withDocDB(typed(b.Addr, t0, t0.Add(time.Minute), "from-api"), "mongodb://weir:disk-s3cret@127.0.0.1:1/weir?serverSelectionTimeoutMS=200"), "rev 1")

	// First run: the API answers; the dataflow is applied and kept.
	e1 := streamtest.NewEngine(t, engine.Settings{AppName: "disk"})
	c1 := newClient(t, settings(api.srv.URL, "disk"), e1, dir, nil)
	c1.Poll(context.Background())
	if c1.Status().LastPoll.Result != remote.PollApplied {
		t.Fatalf("first run: %+v", c1.Status().LastPoll)
	}
	newFeeder(t, b).feed(10, "from-api")
	if err := e1.Stop(context.Background()); err != nil {
		t.Fatal(err)
	}
	files, _ := os.ReadDir(dir)
	if len(files) != 1 {
		t.Fatalf("state dir holds %v", files)
	}
	if st, _ := os.Stat(dir + "/" + files[0].Name()); st.Mode().Perm() != 0o600 {
		t.Fatalf("kept dataflow file mode %v, want 0600: it holds secrets", st.Mode().Perm())
	}

	// Second run: the API is down.
	api.srv.Close()
	e2 := streamtest.NewEngine(t, engine.Settings{AppName: "disk"})
	logs := &logBuffer{}
	c2 := newClient(t, settings(api.srv.URL, "disk"), e2, dir, logs)
	runClient(t, c2)
	deadline := time.Now().Add(30 * time.Second)
	for e2.Snapshot() == nil && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	snap := e2.Snapshot()
	if snap == nil || !snap.LastModified.Equal(t0) || !snap.Streams[0].Pipeline.LastModified.Equal(t0.Add(time.Minute)) {
		t.Fatalf("running after a start with the API down: %+v", snap)
	}
	if !strings.Contains(logs.String(), "starting the last dataflow applied, kept on disk") {
		t.Fatalf("no log line says the dataflow came from disk:\n%s", logs.String())
	}
	if !c2.Status().FromDisk {
		t.Fatal("status does not say the dataflow came from disk")
	}
	// The secret came back from disk: the service got the real URI (its
	// redacted form would not parse as a MongoDB URI and would be refused).
	f := newFeeder(t, b)
	f.want["from-api"] = 10
	f.sent = 10
	f.feed(10, "from-api")
}
