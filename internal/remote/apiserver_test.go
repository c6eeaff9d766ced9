package remote_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/dataflow"
	"github.com/weir-streams/weir/internal/metrics"
	"github.com/weir-streams/weir/internal/remote"
	"github.com/weir-streams/weir/internal/streamtest"
)

// apiServer is a real HTTP server on 127.0.0.1 that implements the dataflow
// contract: GET answers the current body with Last-Updated (or
// Last-Modified) and ETag, 304 when the request echoes either validator,
// and POST records the snapshot. Tests change what it serves and how it
// fails.
type apiServer struct {
	t   testing.TB
	srv *httptest.Server

	mu           sync.Mutex
	body         []byte
	lastUpdated  string // sent as Last-Updated unless useLastMod
	useLastMod   bool
	etag         string
	handler      http.HandlerFunc // when set, answers GETs instead
	user, pass   string
	token        string
	gets         []http.Header
	posts        []push
	postArrived  chan struct{}
	unauthorized int
}

type push struct {
	header http.Header
	query  string
	df     map[string]any
}

func newAPIServer(t *testing.T) *apiServer { return newAPIServerTB(t) }

func newAPIServerTB(t testing.TB) *apiServer {
	s := &apiServer{t: t, postArrived: make(chan struct{}, 1000)}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.srv.Close)
	return s
}

func (s *apiServer) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	if !s.authorized(r) {
		s.unauthorized++
		s.mu.Unlock()
		w.Header().Set("WWW-Authenticate", `Basic realm="dataflows"`)
		http.Error(w, "unauthorized", http.StatusUnauthorized)
		return
	}
	if !strings.HasPrefix(r.URL.Path, "/dataflows/") {
		s.mu.Unlock()
		http.NotFound(w, r)
		return
	}
	if r.Method == http.MethodPost {
		raw, _ := io.ReadAll(r.Body)
		var df map[string]any
		if err := json.Unmarshal(raw, &df); err != nil {
			s.t.Errorf("pushed snapshot is not JSON: %v: %s", err, raw)
		}
		s.posts = append(s.posts, push{header: r.Header.Clone(), query: r.URL.RawQuery, df: df})
		s.mu.Unlock()
		s.postArrived <- struct{}{}
		w.WriteHeader(http.StatusOK)
		return
	}
	s.gets = append(s.gets, r.Header.Clone())
	h := s.handler
	body, lu, useLM, etag := s.body, s.lastUpdated, s.useLastMod, s.etag
	s.mu.Unlock()
	if h != nil {
		h(w, r)
		return
	}
	if body == nil {
		http.NotFound(w, r)
		return
	}
	if (lu != "" && r.Header.Get("If-Modified-Since") == lu) || (etag != "" && r.Header.Get("If-None-Match") == etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	if lu != "" {
		if useLM {
			w.Header().Set("Last-Modified", lu)
		} else {
			w.Header().Set("Last-Updated", lu)
		}
	}
	if etag != "" {
		w.Header().Set("ETag", etag)
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(body)
}

func (s *apiServer) authorized(r *http.Request) bool {
	switch {
	case s.token != "":
		return r.Header.Get("Authorization") == "Bearer "+s.token
	case s.user != "":
		u, p, ok := r.BasicAuth()
		return ok && u == s.user && p == s.pass
	}
	return true
}

// serveDataflow makes the server answer df with the validator lastUpdated.
func (s *apiServer) serveDataflow(df *dataflow.DataFlow, lastUpdated string) {
	b, err := json.Marshal(df)
	if err != nil {
		s.t.Fatal(err)
	}
	s.serveBody(b, lastUpdated, "")
}

func (s *apiServer) serveBody(b []byte, lastUpdated, etag string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.body, s.lastUpdated, s.etag, s.handler = b, lastUpdated, etag, nil
}

func (s *apiServer) setHandler(h http.HandlerFunc) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.handler = h
}

func (s *apiServer) lastGet() http.Header {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.gets) == 0 {
		return nil
	}
	return s.gets[len(s.gets)-1]
}

func (s *apiServer) pushes() []push {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]push(nil), s.posts...)
}

// waitPush waits for the next push and returns it.
func (s *apiServer) waitPush(t *testing.T, timeout time.Duration) push {
	t.Helper()
	select {
	case <-s.postArrived:
	case <-time.After(timeout):
		t.Fatalf("no snapshot pushed within %v", timeout)
	}
	p := s.pushes()
	return p[len(p)-1]
}

// logBuffer collects the client's log lines.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

func (l *logBuffer) count(sub string) int { return strings.Count(l.String(), sub) }

// settings returns client settings for the server, polling every 50 ms and
// pushing only after changes.
func settings(baseURL, name string) remote.Settings {
	return remote.Settings{BaseURL: baseURL, Dataflow: name, PollingRate: 50 * time.Millisecond,
		Connect: 2 * time.Second, Socket: 2 * time.Second}
}

// newClient builds a client of the engine; its log goes to logs and the
// test log.
func newClient(t *testing.T, set remote.Settings, e *streamtest.Engine, dir string, logs *logBuffer) *remote.Client {
	return newClientWith(t, set, e, dir, logs)
}

// newClientTB builds a client that logs warnings only, for benchmarks.
func newClientTB(t testing.TB, set remote.Settings, e *streamtest.Engine) *remote.Client {
	return newClientWith(t, set, e, "", nil)
}

func newClientWith(t testing.TB, set remote.Settings, e *streamtest.Engine, dir string, logs *logBuffer) *remote.Client {
	t.Helper()
	var w io.Writer = logs
	if logs == nil {
		w = io.Discard
	}
	c, err := remote.New(remote.Options{Settings: set, Engine: e, StateDir: dir, Metrics: metrics.New(e.Metrics),
		Logger: slog.New(slog.NewTextHandler(io.MultiWriter(w, testLog{t}), &slog.HandlerOptions{Level: slog.LevelInfo}))})
	if err != nil {
		t.Fatalf("new client: %v", err)
	}
	return c
}

type testLog struct{ t testing.TB }

func (l testLog) Write(p []byte) (int, error) {
	l.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// runClient runs the client until the test ends.
func runClient(t *testing.T, c *remote.Client) (stop func()) { return runClientTB(t, c) }

func runClientTB(t testing.TB, c *remote.Client) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		c.Run(ctx)
	}()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			<-done
		})
	}
	t.Cleanup(stop)
	return stop
}

// typed returns a dataflow of one stream "parsing" whose SplitText tags
// records with typ.
func typed(brokers string, modified, pipelineModified time.Time, typ string) *dataflow.DataFlow {
	s := streamtest.Stream("parsing", brokers, "raw", "events", "errors")
	s.Pipeline = dataflow.Pipeline{LastModified: pipelineModified, Processors: []dataflow.Component{
		streamtest.Processor("parser", "pkg.processor.SplitText", "record.type", typ,
			"value.regex", streamtest.ApacheRegex, "value.fields", streamtest.ApacheFields),
	}}
	return &dataflow.DataFlow{LastModified: modified, Streams: []dataflow.Stream{s}}
}

// metric returns the value of a weir_ counter or gauge with the labels, 0
// if absent.
func metric(t *testing.T, e *streamtest.Engine, name string, labels ...string) float64 {
	t.Helper()
	mfs, err := e.Metrics.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
	next:
		for _, m := range mf.GetMetric() {
			got := map[string]string{}
			for _, l := range m.GetLabel() {
				got[l.GetName()] = l.GetValue()
			}
			for i := 0; i+1 < len(labels); i += 2 {
				if got[labels[i]] != labels[i+1] {
					continue next
				}
			}
			if m.GetCounter() != nil {
				return m.GetCounter().GetValue()
			}
			return m.GetGauge().GetValue()
		}
	}
	return 0
}

func newRequestWithHeader(h http.Header) (*http.Request, error) {
	req, err := http.NewRequest(http.MethodGet, "http://127.0.0.1/", nil)
	if err != nil {
		return nil, err
	}
	req.Header = h
	return req, nil
}
