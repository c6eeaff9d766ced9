package remote_test

import (
	"context"
	"encoding/json"
	"maps"
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/engine"
	"github.com/weir-streams/weir/internal/remote"
	"github.com/weir-streams/weir/internal/streamtest"
)

// feeder produces batches of real access-log lines and checks which
// configuration processed them, by the record type each one tags.
type feeder struct {
	t     *testing.T
	b     *streamtest.Broker
	lines []string
	sent  int
	want  map[string]int
}

func newFeeder(t *testing.T, b *streamtest.Broker) *feeder {
	return &feeder{t: t, b: b, lines: streamtest.AccessLogLines(t), want: map[string]int{}}
}

// feed sends n lines and checks that they come out typed typ, and that
// every earlier record kept its type (nothing replayed, nothing lost).
func (f *feeder) feed(n int, typ string) {
	f.t.Helper()
	f.b.ProduceLines(f.t, "raw", f.lines[f.sent:f.sent+n])
	f.sent += n
	f.want[typ] += n
	total := 0
	for _, v := range f.want {
		total += v
	}
	got := map[string]int{}
	for _, r := range streamtest.Decode(f.t, f.b.Consume(f.t, "events", total, 60*time.Second)) {
		got[r.Type]++
	}
	if !maps.Equal(got, f.want) {
		f.t.Fatalf("records by type = %v, want %v", got, f.want)
	}
}

func TestStateTable(t *testing.T) {
	b := streamtest.StartBroker(t)
	b.CreateTopic(t, "raw", 2)
	e := streamtest.NewEngine(t, engine.Settings{AppName: "rows"})
	api := newAPIServer(t)
	c := newClient(t, settings(api.srv.URL, "rows"), e, t.TempDir(), nil)
	ctx := context.Background()
	f := newFeeder(t, b)
	t0 := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)

	poll := func(wantResult string) {
		t.Helper()
		c.Poll(ctx)
		if got := c.Status().LastPoll.Result; got != wantResult {
			t.Fatalf("poll result = %q (%+v), want %q", got, c.Status().LastPoll, wantResult)
		}
	}
	running := func(wantModified time.Time, wantGen int64) {
		t.Helper()
		snap := e.Snapshot()
		if snap == nil || !snap.LastModified.Equal(wantModified) {
			t.Fatalf("running dataflow = %+v, want lastModified %v", snap, wantModified)
		}
		if g := e.Generation("parsing"); g != wantGen {
			t.Fatalf("chain generation = %d, want %d", g, wantGen)
		}
	}

	// any / 404: nothing changes (here: nothing runs yet).
	poll(remote.PollNotFound)
	if e.Snapshot() != nil {
		t.Fatal("a 404 started a dataflow")
	}

	// no dataflow running / 200: configured and started. The server's
	// validator is not an HTTP date: it must come back verbatim.
	lu1 := "2026-11-25T10:00:00.000+00:00 (rev 1)"
	api.serveDataflow(typed(b.Addr, t0, t0, "v1"), lu1)
	poll(remote.PollApplied)
	running(t0, 1)
	if k := c.Status().LastApply.Kind; k != "start" {
		t.Fatalf("apply kind = %q, want start", k)
	}
	f.feed(20, "v1")

	// any / 304: nothing changes; If-Modified-Since is the exact string.
	poll(remote.PollNotModified)
	if got := api.lastGet().Get("If-Modified-Since"); got != lu1 {
		t.Fatalf("If-Modified-Since = %q, want the server's own %q", got, lu1)
	}

	// dataflow running / 200 not fresher (same and older lastModified,
	// other content): nothing changes.
	api.serveDataflow(typed(b.Addr, t0, t0, "same-time"), "rev 2")
	poll(remote.PollUnchanged)
	api.serveDataflow(typed(b.Addr, t0.Add(-time.Hour), t0.Add(-time.Hour), "older"), "rev 3")
	poll(remote.PollUnchanged)
	running(t0, 1)
	f.feed(20, "v1")

	// stream running / pipeline fresher: the chain is swapped, the stream
	// keeps running (the generation goes up; a restart would reset it).
	api.serveDataflow(typed(b.Addr, t0, t0.Add(time.Minute), "v2"), "rev 4")
	poll(remote.PollApplied)
	running(t0, 2)
	if k := c.Status().LastApply.Kind; k != "pipeline" {
		t.Fatalf("apply kind = %q, want pipeline", k)
	}
	f.feed(20, "v2")

	// stream running / pipeline not fresher: the chain is unchanged.
	api.serveDataflow(typed(b.Addr, t0, t0.Add(time.Minute), "v3"), "rev 5")
	poll(remote.PollUnchanged)
	running(t0, 2)
	f.feed(20, "v2")

	// dataflow running / 200 fresher: stopped and started anew (a new
	// stream: generation 1 again).
	api.serveDataflow(typed(b.Addr, t0.Add(time.Hour), t0, "v4"), "rev 6")
	poll(remote.PollApplied)
	running(t0.Add(time.Hour), 1)
	if k := c.Status().LastApply.Kind; k != "dataflow" {
		t.Fatalf("apply kind = %q, want dataflow", k)
	}
	f.feed(20, "v4")

	// ETag: If-None-Match echoes it; the server answers 304.
	api.serveBody(mustJSON(t, typed(b.Addr, t0.Add(time.Hour), t0, "v4")), "", `"abc-7"`)
	poll(remote.PollUnchanged)
	poll(remote.PollNotModified)
	if got := api.lastGet().Get("If-None-Match"); got != `"abc-7"` {
		t.Fatalf("If-None-Match = %q", got)
	}

	// Last-Modified is echoed as well as Last-Updated.
	api.mu.Lock()
	api.useLastMod, api.lastUpdated, api.etag = true, "Wed, 25 Nov 2026 11:00:00 GMT", ""
	api.mu.Unlock()
	poll(remote.PollUnchanged)
	poll(remote.PollNotModified)
	if got := api.lastGet().Get("If-Modified-Since"); got != "Wed, 25 Nov 2026 11:00:00 GMT" {
		t.Fatalf("If-Modified-Since = %q", got)
	}

	// dataflow running / 404: nothing changes.
	api.serveBody(nil, "", "")
	poll(remote.PollNotFound)
	running(t0.Add(time.Hour), 1)
	f.feed(20, "v4")

	for result, want := range map[string]float64{"applied": 3, "unchanged": 5, "not_modified": 3, "not_found": 2} {
		if got := metric(t, e, "weir_remote_polls_total", "result", result); got != want {
			t.Errorf("weir_remote_polls_total{result=%q} = %v, want %v", result, got, want)
		}
	}
	for kind, want := range map[string]float64{"start": 1, "pipeline": 1, "dataflow": 1} {
		if got := metric(t, e, "weir_remote_applies_total", "kind", kind, "result", "applied"); got != want {
			t.Errorf("weir_remote_applies_total{kind=%q,result=applied} = %v, want %v", kind, got, want)
		}
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
