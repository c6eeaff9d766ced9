package remote_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/engine"
	"github.com/weir-streams/weir/internal/remote"
	"github.com/weir-streams/weir/internal/streamtest"
	"github.com/weir-streams/weir/internal/testserver/toxi"
)

// TestFaultDataflowAPI puts Toxiproxy between the client and the dataflow
// API and changes the served pipeline while one fault lasts. While the API
// cannot answer, the polls fail, the status says so and the running
// dataflow keeps processing records unchanged; once the fault is removed,
// the change is applied and records come out of the new pipeline, with
// nothing lost or replayed (feed checks every earlier record's type too).
func TestFaultDataflowAPI(t *testing.T) {
	faults := []struct {
		name string
		// fails: no poll can succeed while the fault lasts.
		fails bool
		apply func(t *testing.T, p *toxi.Proxy) func()
	}{
		{"latency", false, func(t *testing.T, p *toxi.Proxy) func() { f := p.Latency(t, 1000, 250); return func() { f.Remove(t) } }},
		{"bandwidth", false, func(t *testing.T, p *toxi.Proxy) func() { f := p.Bandwidth(t, 10); return func() { f.Remove(t) } }},
		{"reset_peer", true, func(t *testing.T, p *toxi.Proxy) func() { f := p.ResetPeer(t, 0); return func() { f.Remove(t) } }},
		{"blackhole", true, func(t *testing.T, p *toxi.Proxy) func() { f := p.Blackhole(t); return func() { f.Remove(t) } }},
		{"partition", true, func(t *testing.T, p *toxi.Proxy) func() { p.Disable(t); return func() { p.Enable(t) } }},
		{"slow_close", false, func(t *testing.T, p *toxi.Proxy) func() { f := p.SlowClose(t, 3000); return func() { f.Remove(t) } }},
	}
	for _, fc := range faults {
		t.Run(fc.name, func(t *testing.T) {
			b := streamtest.StartBroker(t)
			b.CreateTopic(t, "raw", 2)
			api := newAPIServer(t)
			proxy := toxi.New(t).Proxy(t, "api", strings.TrimPrefix(api.srv.URL, "http://"))
			t0 := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
			api.serveDataflow(typed(b.Addr, t0, t0, "v1"), "rev 1")
			e := streamtest.NewEngine(t, engine.Settings{AppName: "fault-api-" + fc.name})
			set := settings("http://"+proxy.Addr(), "fault-api-"+fc.name)
			// A poll's deadline is 1 + 2 x 1 s: a blackholed poll ends
			// within it.
			set.Connect, set.Socket = time.Second, time.Second
			c := newClient(t, set, e, "", nil)
			runClient(t, c)
			waitFor(t, "the first dataflow to run", func() bool { return e.Snapshot() != nil })
			f := newFeeder(t, b)
			f.feed(100, "v1")

			heal := fc.apply(t, proxy)
			t1 := t0.Add(time.Minute)
			api.serveDataflow(typed(b.Addr, t0, t1, "v2"), "rev 2")
			if fc.fails {
				waitFor(t, "a failed poll", func() bool {
					st := c.Status()
					return st.LastPoll != nil && st.LastPoll.Result == remote.PollError && st.ConsecutiveFailures > 0
				})
				// The running dataflow goes on unchanged.
				f.feed(100, "v1")
				if st := c.Status(); st.LastPoll.Result != remote.PollError {
					t.Errorf("a poll succeeded through the fault: %+v", st.LastPoll)
				}
			}
			time.Sleep(faultHold())
			heal()
			waitFor(t, "the changed pipeline to run", func() bool { return e.Generation("parsing") == 2 })
			f.feed(100, "v2")
			if st := c.Status(); st.ConsecutiveFailures != 0 {
				t.Errorf("%d consecutive failures after the heal", st.ConsecutiveFailures)
			}
		})
	}
}

// faultHold is how long a fault lasts: 3 s, or the 60 s of the long
// variants under WEIR_LONG_FAULTS=1.
func faultHold() time.Duration {
	if os.Getenv("WEIR_LONG_FAULTS") == "1" {
		return 60 * time.Second
	}
	return 3 * time.Second
}

// waitFor polls cond every 20 ms for up to 60 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
