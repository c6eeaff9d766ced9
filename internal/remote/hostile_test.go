package remote_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/dataflow"
	"github.com/weir-streams/weir/internal/engine"
	"github.com/weir-streams/weir/internal/remote"
	"github.com/weir-streams/weir/internal/status"
	"github.com/weir-streams/weir/internal/streamtest"
)

// capture is a TCP listener on a free 127.0.0.1 port that keeps every byte
// sent to it: the broker of an attacker who wants Weir's files.
type capture struct {
	ln    net.Listener
	conns atomic.Int64
	mu    sync.Mutex
	got   []byte
	wg    sync.WaitGroup
}

func newCapture(t *testing.T) *capture {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c := &capture{ln: ln}
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			c.conns.Add(1)
			c.wg.Add(1)
			go func() {
				defer c.wg.Done()
				defer conn.Close()
				_ = conn.SetDeadline(time.Now().Add(5 * time.Second))
				b, _ := io.ReadAll(conn)
				c.mu.Lock()
				c.got = append(c.got, b...)
				c.mu.Unlock()
			}()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		c.wg.Wait()
	})
	return c
}

func (c *capture) bytes() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]byte(nil), c.got...)
}

// secretFile writes a file holding a random marker and returns its path
// and the marker.
func secretFile(t *testing.T, dir string) (string, string) {
	t.Helper()
	b := make([]byte, 12)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	marker := "MARKER-" + hex.EncodeToString(b)
	path := filepath.Join(dir, "shadow")
	if err := os.WriteFile(path, []byte(marker+":x:19000:0:99999:7:::\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return path, marker
}

// startStatus serves the engine's and the client's status on a free port,
// as a job does, and returns a function that gets a path of it.
func startStatus(t *testing.T, e *streamtest.Engine, c *remote.Client) func(path string) string {
	t.Helper()
	srv, err := status.StartWith("127.0.0.1:0", e.Metrics, remote.WithStatus(e, c), status.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Shutdown(context.Background()) })
	return func(path string) string {
		t.Helper()
		resp, err := http.Get("http://" + srv.Addr() + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
}

// TestRemoteDataflowCannotExfiltrate is the attack of a REST API that
// sends a dataflow whose stream reads a local file as its SASL OAUTHBEARER
// token and talks to the attacker's broker. With no allowed directory in
// the job, it is refused before anything starts: the broker sees no
// connection, the running dataflow is untouched, and the marker in the
// file appears nowhere: not in /api/status, /metrics, the log or the
// snapshot pushed back to the API.
func TestRemoteDataflowCannotExfiltrate(t *testing.T) {
	b := streamtest.StartBroker(t)
	b.CreateTopic(t, "raw", 2)
	e := streamtest.NewEngine(t, engine.Settings{AppName: "exfil"})
	api := newAPIServer(t)
	logs := &logBuffer{}
	c := newClient(t, settings(api.srv.URL, "exfil"), e, t.TempDir(), logs)
	get := startStatus(t, e, c)
	ctx := context.Background()
	t0 := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	api.serveDataflow(typed(b.Addr, t0, t0, "good"), "rev 1")
	c.Poll(ctx)
	if e.Generation("parsing") != 1 {
		t.Fatal("the first dataflow did not start")
	}

	secret, marker := secretFile(t, t.TempDir())
	thief := newCapture(t)
	for _, tc := range []struct {
		name, key string
		props     []dataflow.Property
	}{
		{"oauthbearer token file", "broker.sasl.oauthbearer.token.location", []dataflow.Property{
			{Key: "broker.security.protocol", Value: "SASL_PLAINTEXT"},
			{Key: "broker.sasl.mechanism", Value: "OAUTHBEARER"},
			{Key: "broker.sasl.oauthbearer.token.location", Value: secret},
		}},
		{"CA file through a dot-dot", "broker.ssl.ca.location", []dataflow.Property{
			{Key: "broker.security.protocol", Value: "SSL"},
			{Key: "broker.ssl.ca.location", Value: "/tmp/../" + secret},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			evil := typed(thief.ln.Addr().String(), t0.Add(time.Hour), t0.Add(time.Hour), "evil")
			for i, p := range evil.Streams[0].Config {
				if p.Key == "broker.metadata.broker.list" {
					evil.Streams[0].Config[i].Value = thief.ln.Addr().String()
				}
			}
			evil.Streams[0].Config = append(evil.Streams[0].Config, tc.props...)
			api.serveDataflow(evil, "rev "+tc.name)
			c.Poll(ctx)
			st := c.Status()
			if st.LastApply == nil || st.LastApply.Result != "refused" || !strings.Contains(st.LastApply.Reason, tc.key) ||
				!strings.Contains(st.LastApply.Reason, remote.KeyAllowedPaths) {
				t.Fatalf("last apply = %+v, want refused naming %s", st.LastApply, tc.key)
			}
			if strings.Contains(st.LastApply.Reason, secret) || strings.Contains(st.LastApply.Reason, filepath.Base(secret)) {
				t.Fatalf("the refusal names the value: %s", st.LastApply.Reason)
			}
			if snap := e.Snapshot(); !snap.LastModified.Equal(t0) || e.Generation("parsing") != 1 {
				t.Fatalf("the running dataflow changed: %v, generation %d", snap.LastModified, e.Generation("parsing"))
			}
		})
	}
	runClient(t, c) // its pusher sends the snapshot of the last refusal
	p := waitPushWith(t, api, func(p push) bool {
		r, _ := p.df["modificationReason"].(string)
		return strings.Contains(r, "broker.ssl.ca.location")
	})
	pushed, err := json.Marshal(p.df)
	if err != nil {
		t.Fatal(err)
	}
	if n := thief.conns.Load(); n != 0 {
		t.Errorf("the attacker's broker got %d connections", n)
	}
	for where, text := range map[string]string{
		"/api/status": get("/api/status"), "/metrics": get("/metrics"), "the log": logs.String(),
		"the pushed snapshot": string(pushed), "the attacker's broker": string(thief.bytes()),
	} {
		if strings.Contains(text, marker) {
			t.Errorf("the marker is in %s", where)
		}
	}
	if !strings.Contains(get("/api/status"), "broker.sasl.oauthbearer.token.location") && !strings.Contains(get("/api/status"), "broker.ssl.ca.location") {
		t.Errorf("/api/status does not show the refusal")
	}
}

// TestRemotePatternsDirIsNotQuoted: a dataflow naming a secret file as its
// grok patterns directory is refused without reading it; and when the job
// allows the file's directory, the file is read, does not parse as
// patterns, and the error names the file and the line, never its content.
func TestRemotePatternsDirIsNotQuoted(t *testing.T) {
	b := streamtest.StartBroker(t)
	b.CreateTopic(t, "raw", 2)
	dir := t.TempDir()
	secret, marker := secretFile(t, dir)
	t0 := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	for _, allowed := range []bool{false, true} {
		name := "refused"
		if allowed {
			name = "allowed and unreadable as patterns"
		}
		t.Run(name, func(t *testing.T) {
			e := streamtest.NewEngine(t, engine.Settings{AppName: "patterns"})
			api := newAPIServer(t)
			set := settings(api.srv.URL, "patterns")
			if allowed {
				set.Policy.AllowedPaths = []string{dir}
			}
			logs := &logBuffer{}
			c := newClient(t, set, e, t.TempDir(), logs)
			get := startStatus(t, e, c)
			df := typed(b.Addr, t0, t0, "x")
			df.Streams[0].Pipeline.Processors[0].Config = append(df.Streams[0].Pipeline.Processors[0].Config,
				dataflow.Property{Key: "grok.patterns.dir", Value: secret})
			api.serveDataflow(df, "rev 1")
			c.Poll(context.Background())
			st := c.Status()
			want := "grok.patterns.dir"
			if allowed {
				want = secret + " line 1: not a grok definition"
			}
			if st.LastApply == nil || st.LastApply.Result != "refused" || !strings.Contains(st.LastApply.Reason, want) {
				t.Fatalf("last apply = %+v, want refused with %q", st.LastApply, want)
			}
			if e.Snapshot() != nil {
				t.Fatal("the dataflow runs")
			}
			runClient(t, c) // its pusher sends the snapshot of the refusal
			p := waitPushWith(t, api, func(p push) bool { return true })
			pushed, _ := json.Marshal(p.df)
			for where, text := range map[string]string{"/api/status": get("/api/status"), "the log": logs.String(), "the pushed snapshot": string(pushed)} {
				if strings.Contains(text, marker) {
					t.Errorf("the file's content is in %s", where)
				}
			}
		})
	}
}

// TestRemoteDevZeroPath: /dev/zero as a geo database is refused; when the
// job allows /dev, the service refuses it at once as not a regular file,
// with no more memory than a refusal takes.
func TestRemoteDevZeroPath(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no /dev/zero")
	}
	t0 := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	b := streamtest.StartBroker(t)
	for _, allowed := range []bool{false, true} {
		e := streamtest.NewEngine(t, engine.Settings{AppName: "devzero"})
		api := newAPIServer(t)
		set := settings(api.srv.URL, "devzero")
		want := "maxmind.database.path"
		if allowed {
			set.Policy.AllowedPaths = []string{"/dev"}
			want = "/dev/zero: not a regular file (a character device)"
		}
		c := newClient(t, set, e, t.TempDir(), &logBuffer{})
		df := typed(b.Addr, t0, t0, "x")
		df.Services = []dataflow.Component{{Name: "geo", Component: "pkg.service.iptogeo.maxmind.MaxmindIpToGeoService",
			Config: []dataflow.Property{{Key: "maxmind.database.path", Value: "/dev/zero"}}}}
		api.serveDataflow(df, "rev 1")
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		c.Poll(context.Background())
		runtime.ReadMemStats(&after)
		st := c.Status()
		if st.LastApply == nil || st.LastApply.Result != "refused" || !strings.Contains(st.LastApply.Reason, want) {
			t.Fatalf("allowed %v: last apply = %+v, want refused with %q", allowed, st.LastApply, want)
		}
		// Reading /dev/zero grew the process by a gigabyte in seconds; a
		// refusal allocates a few megabytes at most (the engine and the
		// broker allocate meanwhile too).
		if grown := after.TotalAlloc - before.TotalAlloc; grown > 256<<20 {
			t.Fatalf("allowed %v: the poll allocated %d MiB", allowed, grown>>20)
		}
	}
}

// TestRemoteEmbeddedBroker: "embedded" as a broker list is refused unless
// the job allows it.
func TestRemoteEmbeddedBroker(t *testing.T) {
	e := streamtest.NewEngine(t, engine.Settings{AppName: "embedded"})
	api := newAPIServer(t)
	c := newClient(t, settings(api.srv.URL, "embedded"), e, t.TempDir(), &logBuffer{})
	t0 := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	api.serveDataflow(typed("embedded", t0, t0, "x"), "rev 1")
	c.Poll(context.Background())
	st := c.Status()
	if st.LastApply == nil || st.LastApply.Result != "refused" || !strings.Contains(st.LastApply.Reason, remote.KeyAllowedEmbedded) {
		t.Fatalf("last apply = %+v, want refused naming %s", st.LastApply, remote.KeyAllowedEmbedded)
	}
	if e.EmbeddedAddr() != "" {
		t.Fatalf("the embedded broker started at %s", e.EmbeddedAddr())
	}
}

// TestTricklingBodyTimesOut is the attack of an API that sends its headers
// and then one byte at a time, each just within the socket timeout: the
// poll ends at its overall deadline, shows as a failed poll in the status,
// /api/status and the metrics, and polling goes on.
func TestTricklingBodyTimesOut(t *testing.T) {
	b := streamtest.StartBroker(t)
	b.CreateTopic(t, "raw", 2)
	e := streamtest.NewEngine(t, engine.Settings{AppName: "trickle"})
	api := newAPIServer(t)
	set := settings(api.srv.URL, "trickle")
	set.Connect, set.Socket = 200*time.Millisecond, 300*time.Millisecond
	logs := &logBuffer{}
	c := newClient(t, set, e, t.TempDir(), logs)
	get := startStatus(t, e, c)
	var trickles atomic.Int64
	api.setHandler(func(w http.ResponseWriter, r *http.Request) {
		trickles.Add(1)
		w.Header().Set("Content-Length", "100000")
		w.WriteHeader(http.StatusOK)
		for range 1000 {
			if _, err := w.Write([]byte(" ")); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-time.After(50 * time.Millisecond):
			}
		}
	})
	ctx := context.Background()
	c.Poll(ctx)
	st := c.Status()
	if st.LastPoll == nil || st.LastPoll.Result != remote.PollError || !strings.Contains(st.LastPoll.Error, "longer than its deadline") || st.ConsecutiveFailures != 1 {
		t.Fatalf("last poll = %+v, failures %d; want an error for the deadline", st.LastPoll, st.ConsecutiveFailures)
	}
	if got := metric(t, e, "weir_remote_polls_total", "result", "error"); got != 1 {
		t.Fatalf("weir_remote_polls_total{result=error} = %v, want 1", got)
	}
	if s := get("/api/status"); !strings.Contains(s, "longer than its deadline") {
		t.Fatalf("/api/status does not show the timed-out poll:\n%s", s)
	}

	// Polling goes on: the scheduled polls keep failing while the API
	// trickles, and a good answer is applied.
	stop := runClient(t, c)
	deadline := time.Now().Add(30 * time.Second)
	for trickles.Load() < 3 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := trickles.Load(); n < 3 {
		t.Fatalf("%d polls reached the API; polling stopped", n)
	}
	t0 := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	api.serveDataflow(typed(b.Addr, t0, t0, "good"), "rev 1")
	for e.Snapshot() == nil && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	stop()
	if e.Snapshot() == nil {
		t.Fatal("the good dataflow was never applied after the trickling ones")
	}
}
