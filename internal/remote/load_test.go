package remote_test

import (
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/weir-streams/weir/internal/engine"
	"github.com/weir-streams/weir/internal/streamtest"
)

// groupWatch records, from the broker's side, every group join and the
// generation carried by every offset commit: a rebalance shows as a join
// after the first ones and as a second generation in the commits.
type groupWatch struct {
	mu          sync.Mutex
	joins       int
	generations map[int32]int
}

func watchGroup(c *kfake.Cluster) *groupWatch {
	w := &groupWatch{generations: map[int32]int{}}
	c.ControlKey(int16(kmsg.JoinGroup), func(kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		w.mu.Lock()
		w.joins++
		w.mu.Unlock()
		return nil, nil, false
	})
	c.ControlKey(int16(kmsg.OffsetCommit), func(req kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		w.mu.Lock()
		w.generations[req.(*kmsg.OffsetCommitRequest).Generation]++
		w.mu.Unlock()
		return nil, nil, false
	})
	return w
}

func (w *groupWatch) state() (int, map[int32]int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	g := map[int32]int{}
	for k, v := range w.generations {
		g[k] = v
	}
	return w.joins, g
}

func repeatLog(t testing.TB, n int) []string {
	lines := streamtest.AccessLogLines(t)
	out := make([]string, n)
	for i := range out {
		out[i] = lines[i%len(lines)]
	}
	return out
}

// gapStats returns the longest gap between consecutive output records (by
// broker timestamp) within window of at, and records per second before,
// during (that window) and after.
func gapStats(recs []*kgo.Record, at time.Time, window time.Duration) (maxGap time.Duration, before, during, after float64) {
	ts := make([]time.Time, len(recs))
	for i, r := range recs {
		ts[i] = r.Timestamp
	}
	sort.Slice(ts, func(i, j int) bool { return ts[i].Before(ts[j]) })
	lo, hi := at.Add(-window), at.Add(window)
	var nb, nd, na int
	for i, x := range ts {
		switch {
		case x.Before(lo):
			nb++
		case x.After(hi):
			na++
		default:
			nd++
			if i > 0 && ts[i].Sub(ts[i-1]) > maxGap {
				maxGap = ts[i].Sub(ts[i-1])
			}
		}
	}
	rate := func(n int, d time.Duration) float64 {
		if d <= 0 {
			return 0
		}
		return float64(n) / d.Seconds()
	}
	return maxGap, rate(nb, lo.Sub(ts[0])), rate(nd, hi.Sub(lo)), rate(na, ts[len(ts)-1].Sub(hi))
}

// baselineGap returns the longest gap between consecutive output records
// before until, leaving out the first second (the stream's start).
func baselineGap(recs []*kgo.Record, until time.Time) time.Duration {
	ts := make([]time.Time, len(recs))
	for i, r := range recs {
		ts[i] = r.Timestamp
	}
	sort.Slice(ts, func(i, j int) bool { return ts[i].Before(ts[j]) })
	from := ts[0].Add(time.Second)
	var gap time.Duration
	for i := 1; i < len(ts) && ts[i].Before(until); i++ {
		if ts[i-1].After(from) && ts[i].Sub(ts[i-1]) > gap {
			gap = ts[i].Sub(ts[i-1])
		}
	}
	return gap
}

// A pipeline swap through the API in the middle of a 200,000-record run:
// every record comes out exactly once, processed by exactly one chain
// generation, and the consumer group never rebalances.
func TestPipelineSwapThroughAPIUnderLoad(t *testing.T) {
	const n = 200000
	b := streamtest.StartBroker(t)
	b.CreateTopic(t, "raw", 4)
	b.ProduceLines(t, "raw", repeatLog(t, n))
	watch := watchGroup(b.Cluster)
	t0 := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	api := newAPIServer(t)
	api.serveDataflow(typed(b.Addr, t0, t0, "gen1"), "rev 1")
	e := streamtest.NewEngine(t, engine.Settings{AppName: "swap", Workers: 2})
	c := newClient(t, settings(api.srv.URL, "swap"), e, "", nil)
	runClient(t, c)

	b.WaitCount(t, "events", n/4, 300*time.Second)
	joinsBefore, _ := watch.state()
	api.serveDataflow(typed(b.Addr, t0, t0.Add(time.Second), "gen2"), "rev 2")
	deadline := time.Now().Add(30 * time.Second)
	for e.Generation("parsing") != 2 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	swapAt := time.Now()
	if g := e.Generation("parsing"); g != 2 {
		t.Fatalf("generation = %d after the API served a newer pipeline", g)
	}
	if done := b.Count(t, "events"); done >= n {
		t.Fatalf("the backlog was finished before the swap (%d records): the test proves nothing", done)
	}

	msgs := b.Consume(t, "events", n, 600*time.Second)
	byID, byType := map[string]int{}, map[string]int{}
	for _, r := range streamtest.Decode(t, msgs) {
		byID[r.ID]++
		byType[r.Type]++
	}
	if len(msgs) != n || len(byID) != n {
		t.Fatalf("%d records with %d distinct ids, want exactly %d of each", len(msgs), len(byID), n)
	}
	if byType["gen1"] == 0 || byType["gen2"] == 0 || byType["gen1"]+byType["gen2"] != n {
		t.Fatalf("records by generation = %v, want both and nothing else", byType)
	}
	time.Sleep(300 * time.Millisecond)
	if got := b.Count(t, "events"); got != n {
		t.Fatalf("events holds %d records after the run, want %d (a replay)", got, n)
	}
	joins, gens := watch.state()
	if joins != joinsBefore || len(gens) != 1 {
		t.Fatalf("consumer group rebalanced: %d joins before the swap, %d after; commits by generation %v", joinsBefore, joins, gens)
	}
	gap, before, during, after := gapStats(msgs, swapAt, time.Second)
	t.Logf("records by generation %v; commits by group generation %v; longest output gap within 1 s of the swap %v; records/s before %.0f, around %.0f, after %.0f",
		byType, gens, gap, before, during, after)
}

// A dataflow restart through the API under load: nothing is lost, and the
// records are processed by the old configuration, then the new one.
func TestDataflowRestartThroughAPIUnderLoad(t *testing.T) {
	const n = 60000
	b := streamtest.StartBroker(t)
	b.CreateTopic(t, "raw", 4)
	b.ProduceLines(t, "raw", repeatLog(t, n))
	t0 := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	api := newAPIServer(t)
	api.serveDataflow(typed(b.Addr, t0, t0, "v1"), "rev 1")
	e := streamtest.NewEngine(t, engine.Settings{AppName: "restart", Workers: 2, BatchInterval: 50 * time.Millisecond, MaxRate: 4000})
	c := newClient(t, settings(api.srv.URL, "restart"), e, t.TempDir(), nil)
	runClient(t, c)
	b.WaitCount(t, "events", n/5, 300*time.Second)
	api.serveDataflow(typed(b.Addr, t0.Add(time.Hour), t0, "v2"), "rev 2")
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if st := c.Status(); st.LastApply != nil && st.LastApply.Kind == "dataflow" {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if st := c.Status(); st.LastApply == nil || st.LastApply.Kind != "dataflow" || st.LastApply.Result != "applied" {
		t.Fatalf("last apply = %+v", st.LastApply)
	}
	if done := b.Count(t, "events"); done >= n {
		t.Fatalf("the backlog was finished before the restart (%d records): the test proves nothing", done)
	}
	msgs := b.Consume(t, "events", n, 600*time.Second)
	byID, byType := map[string]int{}, map[string]int{}
	for _, r := range streamtest.Decode(t, msgs) {
		byID[r.ID]++
		byType[r.Type]++
	}
	if len(byID) != n {
		t.Fatalf("%d distinct ids among %d records, want all %d inputs", len(byID), len(msgs), n)
	}
	if byType["v1"] == 0 || byType["v2"] == 0 || len(byType) != 2 {
		t.Fatalf("records by configuration = %v", byType)
	}
	t.Logf("records by configuration %v, %d records for %d inputs", byType, len(msgs), n)
	_ = fmt.Sprint
}
