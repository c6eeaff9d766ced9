package remote_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/dataflow"
	"github.com/weir-streams/weir/internal/engine"
	"github.com/weir-streams/weir/internal/remote"
	"github.com/weir-streams/weir/internal/streamtest"
)

// Every kind of failure changes nothing, is visible in the status and the
// metrics, and is logged once however many polls repeat it.
func TestFailuresChangeNothing(t *testing.T) {
	b := streamtest.StartBroker(t)
	b.CreateTopic(t, "raw", 2)
	e := streamtest.NewEngine(t, engine.Settings{AppName: "failures"})
	api := newAPIServer(t)
	set := settings(api.srv.URL, "failures")
	set.Socket = 300 * time.Millisecond
	logs := &logBuffer{}
	c := newClient(t, set, e, t.TempDir(), logs)
	ctx := context.Background()
	f := newFeeder(t, b)
	t0 := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	good := typed(b.Addr, t0, t0, "good")
	api.serveDataflow(good, "rev 1")
	c.Poll(ctx)
	f.feed(10, "good")

	later := typed(b.Addr, t0.Add(time.Hour), t0.Add(time.Hour), "later")
	unknown := typed(b.Addr, t0.Add(time.Hour), t0.Add(time.Hour), "bad")
	unknown.Streams[0].Pipeline.Processors[0].Component = "pkg.processor.SplitTxt"
	cases := []struct {
		name    string
		serve   func()
		result  string
		errPart string // in the status: lastPoll.error, or lastApply.reason for refusals
	}{
		{"500", func() {
			api.setHandler(func(w http.ResponseWriter, _ *http.Request) { http.Error(w, "database down", 500) })
		}, remote.PollError, `unexpected status 500 Internal Server Error: "database down\n"`},
		{"timeout", func() {
			api.setHandler(func(w http.ResponseWriter, r *http.Request) {
				select {
				case <-r.Context().Done():
				case <-time.After(10 * time.Second):
				}
			})
		}, remote.PollError, "timeout awaiting response headers"},
		{"stalled body", func() {
			api.setHandler(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Length", "1000")
				w.WriteHeader(200)
				_, _ = w.Write([]byte(`{"lastModified":`))
				w.(http.Flusher).Flush()
				select {
				case <-r.Context().Done():
				case <-time.After(10 * time.Second):
				}
			})
		}, remote.PollError, "no data from the server within remote.api.timeouts.socket"},
		{"garbage", func() { api.serveBody([]byte("<html>maintenance</html>"), "", "") }, remote.PollRefused, "body is not a DataFlow JSON object"},
		{"not a DataFlow", func() {
			api.serveBody([]byte(`{"lastModified":"2026-11-25T12:00:00Z","streams":[{"name":"s","componnt":"x"}]}`), "rev n", "")
		}, remote.PollRefused, `unknown field "componnt"`},
		{"unknown component", func() { api.serveDataflow(unknown, "rev u") }, remote.PollRefused, `did you mean "pkg.processor.SplitText"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.serve()
			before := logs.String()
			failuresBefore := c.Status().ConsecutiveFailures
			for range 3 {
				c.Poll(ctx)
			}
			st := c.Status()
			switch tc.result {
			case remote.PollError:
				if st.LastPoll.Result != remote.PollError || !strings.Contains(st.LastPoll.Error, tc.errPart) {
					t.Fatalf("last poll = %+v, want an error with %q", st.LastPoll, tc.errPart)
				}
				if st.ConsecutiveFailures != failuresBefore+3 {
					t.Fatalf("consecutive failures = %d, want %d", st.ConsecutiveFailures, failuresBefore+3)
				}
				// Logged once for three polls.
				if n := strings.Count(logs.String()[len(before):], "polling the dataflow API failed"); n != 1 {
					t.Fatalf("the error was logged %d times over three polls, want once:\n%s", n, logs.String()[len(before):])
				}
			case remote.PollRefused:
				// The first poll refuses it; the two after do not submit
				// it again: the server answers 304 to the validator of
				// what was received, or, without validators, the body is
				// known as already received.
				want := remote.PollNotModified
				if api.lastGet().Get("If-Modified-Since") == "" {
					want = remote.PollUnchanged
				}
				if st.LastPoll.Result != want {
					t.Fatalf("last poll = %+v, want %s", st.LastPoll, want)
				}
				if st.LastApply.Result != "refused" || !strings.Contains(st.LastApply.Reason, tc.errPart) {
					t.Fatalf("last apply = %+v, want refused with %q", st.LastApply, tc.errPart)
				}
			}
			if snap := e.Snapshot(); !snap.LastModified.Equal(t0) || e.Generation("parsing") != 1 {
				t.Fatalf("running dataflow changed: %v, generation %d", snap.LastModified, e.Generation("parsing"))
			}
			f.feed(10, "good")
		})
	}
	if got := metric(t, e, "weir_remote_polls_total", "result", "error"); got != 9 {
		t.Errorf("weir_remote_polls_total{result=error} = %v, want 9", got)
	}
	if got := metric(t, e, "weir_remote_applies_total", "kind", "validate", "result", "refused"); got != 2 {
		t.Errorf("weir_remote_applies_total{kind=validate,result=refused} = %v, want 2", got)
	}
	if got := metric(t, e, "weir_remote_applies_total", "kind", "dataflow", "result", "refused"); got != 1 {
		t.Errorf("weir_remote_applies_total{kind=dataflow,result=refused} = %v, want 1 (the same body polled thrice)", got)
	}

	// The server comes back with a good newer dataflow: it is applied.
	api.serveDataflow(later, "rev 2")
	c.Poll(ctx)
	if st := c.Status(); st.LastPoll.Result != remote.PollApplied || st.ConsecutiveFailures != 0 {
		t.Fatalf("after recovery: %+v", st.LastPoll)
	}
	if !strings.Contains(logs.String(), "dataflow API answers again") {
		t.Fatal("the recovery was not logged")
	}
	f.feed(10, "later")
}

// A server that is not there: connection refused, then backoff.
func TestConnectionRefusedBacksOff(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	e := streamtest.NewEngine(t, engine.Settings{AppName: "gone"})
	set := settings(url, "gone")
	set.PollingRate = time.Second
	logs := &logBuffer{}
	c := newClient(t, set, e, "", logs)
	var delays []time.Duration
	for range 5 {
		delays = append(delays, c.Poll(context.Background()))
	}
	if st := c.Status(); st.LastPoll.Result != remote.PollError || !strings.Contains(st.LastPoll.Error, "connection refused") {
		t.Fatalf("last poll = %+v", st.LastPoll)
	}
	// Exponential: the fifth wait is 16 periods, +-25%.
	if delays[0] > 1250*time.Millisecond || delays[4] < 12*time.Second {
		t.Fatalf("delays after failures = %v, want growing from one period to about 16", delays)
	}
	if n := logs.count("polling the dataflow API failed"); n != 1 {
		t.Fatalf("logged %d times, want once", n)
	}
}

// 429 and 503 with Retry-After: the next poll waits at least as long.
func TestRetryAfter(t *testing.T) {
	api := newAPIServer(t)
	e := streamtest.NewEngine(t, engine.Settings{AppName: "busy"})
	c := newClient(t, settings(api.srv.URL, "busy"), e, "", nil)
	api.setHandler(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Retry-After", "7")
		w.WriteHeader(http.StatusServiceUnavailable)
	})
	if d := c.Poll(context.Background()); d < 7*time.Second || d > 8*time.Second {
		t.Fatalf("wait after 503 Retry-After: 7 = %v, want 7 s to 7.7 s", d)
	}
	at := time.Now().Add(90 * time.Second).UTC().Format(http.TimeFormat)
	api.setHandler(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Retry-After", at)
		w.WriteHeader(http.StatusTooManyRequests)
	})
	if d := c.Poll(context.Background()); d < 85*time.Second || d > 100*time.Second {
		t.Fatalf("wait after 429 Retry-After: %s = %v, want about 90 s", at, d)
	}
	// Without Retry-After, the backoff of the third failure: 4 periods.
	api.setHandler(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusServiceUnavailable) })
	if d := c.Poll(context.Background()); d > 4*50*time.Millisecond*5/4 {
		t.Fatalf("wait after a 503 without Retry-After = %v, want the backoff", d)
	}
}

// Property.type values: the accepted ones pass, others are refused with
// the path.
func TestDecodePropertyTypes(t *testing.T) {
	body := func(typ, value string) []byte {
		return []byte(`{"lastModified":"2026-11-25T10:00:00Z","streams":[{"name":"s","component":"c","config":[{"key":"k","type":"` + typ + `","value":"` + value + `"}]}]}`)
	}
	for _, ok := range [][2]string{{"", "x"}, {"string", "x"}, {"int", "42"}, {"long", "9000000000"}, {"float", "1.5"}, {"double", "-2e3"}, {"boolean", "true"}, {"BOOLEAN", "False"}} {
		df, err := remote.Decode(body(ok[0], ok[1]))
		if err != nil {
			t.Errorf("type %q value %q: %v", ok[0], ok[1], err)
			continue
		}
		if p := df.Streams[0].Config[0]; p.Type != ok[0] || p.Value != ok[1] {
			t.Errorf("decoded %+v", p)
		}
	}
	for _, bad := range [][3]string{
		{"int", "9000000000", "streams[s].config[k].type: value is not an int"},
		{"boolean", "yes", "value is not a boolean"},
		{"date", "2026", `type "date" is not one of string, int, long, float, double, boolean`},
	} {
		_, err := remote.Decode(body(bad[0], bad[1]))
		if err == nil || !strings.Contains(err.Error(), bad[2]) {
			t.Errorf("type %q value %q: err = %v, want %q", bad[0], bad[1], err, bad[2])
		}
	}
	for body, want := range map[string]string{
		`{"streams":[]}`:               "lastModified: missing required field",
		`{"lastModified":"yesterday"}`: `"yesterday" is not an RFC 3339 date-time`,
		`{"lastModified":"2026-11-25T10:00:00Z","streams":[{"component":"c"}]}`:                                    "streams[0].name: missing required field",
		`{"lastModified":"2026-11-25T10:00:00Z","streams":[{"name":"s","component":"c","pipeline":{}}]}`:           "streams[s].pipeline.lastModified: missing required field",
		`{"lastModified":"2026-11-25T10:00:00Z","services":[{"name":"s","component":"c","config":[{"key":"k"}]}]}`: "services[s].config[k].value: missing required field",
		`{"lastModified":"2026-11-25T10:00:00Z"} {}`:                                                               "data after the object",
	} {
		if _, err := remote.Decode([]byte(body)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want %q", body, err, want)
		}
	}
	// A stream without a pipeline runs an empty chain versioned with the
	// dataflow.
	df, err := remote.Decode([]byte(`{"lastModified":"2026-11-25T10:00:00Z","streams":[{"name":"s","component":"c"}]}`))
	if err != nil || !df.Streams[0].Pipeline.LastModified.Equal(df.LastModified) {
		t.Fatalf("stream without pipeline: %+v, %v", df, err)
	}
	_ = dataflow.DataFlow{}
}
