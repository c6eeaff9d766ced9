package stream_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/weir-streams/weir/internal/dataflow"
	"github.com/weir-streams/weir/internal/engine"
	"github.com/weir-streams/weir/internal/status"
	"github.com/weir-streams/weir/internal/streamtest"
)

// gauges returns the values of a per-partition gauge, by partition label.
func gauges(t *testing.T, reg *prometheus.Registry, name string) map[string]float64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		for _, m := range mf.GetMetric() {
			out[label(m, "partition")] = m.GetGauge().GetValue()
		}
	}
	return out
}

func label(m *dto.Metric, name string) string {
	for _, l := range m.GetLabel() {
		if l.GetName() == name {
			return l.GetValue()
		}
	}
	return ""
}

func histogramSum(t *testing.T, reg *prometheus.Registry, name string) (sum float64, count uint64) {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() == name {
			for _, m := range mf.GetMetric() {
				sum += m.GetHistogram().GetSampleSum()
				count += m.GetHistogram().GetSampleCount()
			}
		}
	}
	return sum, count
}

// waitFor polls cond every 100 ms until it holds or the (generous) bound
// passes; it asserts a state, not a time.
func waitFor(t *testing.T, bound time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(bound)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not seen within %s", what, bound)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestLagOnEveryPartitionFallsToZero: 4 partitions with records waiting on
// all of them (the rate limit keeps them waiting); every partition's lag
// gauge is non-zero at once, then every one falls to 0. /api/status is
// checked against docs/status.schema.json meanwhile.
func TestLagOnEveryPartitionFallsToZero(t *testing.T) {
	b := streamtest.StartBroker(t)
	b.CreateTopic(t, "pipeline_raw", 4)
	b.ProduceLines(t, "pipeline_raw", streamtest.AccessLogLines(t)[:4000])
	e := streamtest.StartEngine(t, engine.Settings{MaxRate: 400, BatchInterval: 100 * time.Millisecond}, parsingDataflow(b.Addr, false))

	var seen map[string]float64
	waitFor(t, 60*time.Second, "lag > 0 on all 4 partitions at once", func() bool {
		seen = gauges(t, e.Metrics, "weir_stream_consumer_lag")
		if len(seen) != 4 {
			return false
		}
		for _, v := range seen {
			if v <= 0 {
				return false
			}
		}
		return true
	})
	t.Logf("lag while behind: %v", seen)
	checkStatusSchema(t, e.Engine, 4)

	waitFor(t, 120*time.Second, "lag 0 on all 4 partitions", func() bool {
		seen = gauges(t, e.Metrics, "weir_stream_consumer_lag")
		if len(seen) != 4 {
			return false
		}
		for _, v := range seen {
			if v != 0 {
				return false
			}
		}
		return true
	})
	committed := gauges(t, e.Metrics, "weir_stream_committed_offset")
	var total float64
	for _, v := range committed {
		total += v
	}
	if total != 4000 {
		t.Errorf("committed offsets %v sum to %v, want 4000", committed, total)
	}
	if got := b.Count(t, "pipeline_events"); got != 4000 {
		t.Errorf("%d events, want 4000", got)
	}
}

// checkStatusSchema serves e's status and validates /api/status against
// docs/status.schema.json; it wants the stream to list parts partitions,
// and returns the document.
func checkStatusSchema(t *testing.T, e *engine.Engine, parts int) status.API {
	t.Helper()
	srv, err := status.Start("127.0.0.1:0", prometheus.NewRegistry(), e)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	})
	resp, err := http.Get("http://" + srv.Addr() + "/api/status")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(string(body)))
	if err != nil {
		t.Fatalf("/api/status is not JSON: %v\n%s", err, body)
	}
	c := jsonschema.NewCompiler()
	schema, err := c.Compile(filepath.Join(streamtest.Root(), "docs", "status.schema.json"))
	if err != nil {
		t.Fatalf("compile schema: %v", err)
	}
	if err := schema.Validate(doc); err != nil {
		t.Fatalf("/api/status does not follow docs/status.schema.json: %v\n%s", err, body)
	}
	var api status.API
	if err := json.Unmarshal(body, &api); err != nil {
		t.Fatal(err)
	}
	if len(api.Streams) != 1 || api.Streams[0].State != "running" || len(api.Streams[0].Partitions) != parts {
		t.Fatalf("streams in /api/status: %+v", api.Streams)
	}
	if api.Settings.TimeoutMs != -1 || api.Settings.BatchDurationMs <= 0 {
		t.Errorf("settings %+v: want timeoutMs -1 and the batch duration in ms", api.Settings)
	}
	return api
}

// TestIdleTimeIsNotSchedulingDelay: a stream left idle for 10 s, then sent
// one line, adds no idle time to the scheduling delay.
func TestIdleTimeIsNotSchedulingDelay(t *testing.T) {
	b := streamtest.StartBroker(t)
	b.CreateTopic(t, "pipeline_raw", 1)
	lines := streamtest.AccessLogLines(t)
	e := streamtest.StartEngine(t, engine.Settings{BatchInterval: 200 * time.Millisecond}, parsingDataflow(b.Addr, false))
	b.ProduceLines(t, "pipeline_raw", lines[:1])
	b.WaitCount(t, "pipeline_events", 1, 60*time.Second)
	time.Sleep(10 * time.Second)
	b.ProduceLines(t, "pipeline_raw", lines[1:2])
	b.WaitCount(t, "pipeline_events", 2, 60*time.Second)
	waitFor(t, 30*time.Second, "two batches observed", func() bool {
		_, n := histogramSum(t, e.Metrics, "weir_stream_scheduling_delay_seconds")
		return n >= 2
	})
	// The old measure added the 10 s pause; 2 s leaves room for a loaded
	// machine and still fails on idle time.
	if sum, n := histogramSum(t, e.Metrics, "weir_stream_scheduling_delay_seconds"); sum >= 2 {
		t.Errorf("scheduling delay sum %.3f s over %d batches after a 10 s pause, want idle time not counted", sum, n)
	}
}

// TestIDsDifferAcrossTopicIncarnations: ids come from the Kafka topic id.
// Reading the same topic again (another consumer group) gives the same
// ids; the topic deleted and created again with the same lines gives
// other ids.
func TestIDsDifferAcrossTopicIncarnations(t *testing.T) {
	b := streamtest.StartBroker(t)
	lines := streamtest.AccessLogLines(t)[:50]
	b.CreateTopic(t, "raw", 1)
	b.ProduceLines(t, "raw", lines)

	run := func(app, out string) []string {
		t.Helper()
		s := streamtest.Stream("parsing", b.Addr, "raw", out, out+"_errors")
		s.Pipeline.Processors = []dataflow.Component{streamtest.ApacheParser(false)}
		e := streamtest.StartEngine(t, engine.Settings{AppName: app}, &dataflow.DataFlow{LastModified: time.Unix(1, 0), Streams: []dataflow.Stream{s}})
		recs := streamtest.Decode(t, b.Consume(t, out, len(lines), 60*time.Second))
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := e.Stop(ctx); err != nil {
			t.Fatal(err)
		}
		ids := make([]string, 0, len(recs))
		for _, r := range recs {
			ids = append(ids, r.ID)
		}
		sort.Strings(ids)
		return ids
	}
	first := run("first", "out1")
	replay := run("replay", "out2")
	if fmt.Sprint(first) != fmt.Sprint(replay) {
		t.Fatalf("a replay of the same topic gave other ids")
	}

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	adm := b.Admin()
	if _, err := adm.DeleteTopics(ctx, "raw"); err != nil {
		t.Fatal(err)
	}
	if _, err := adm.CreateTopic(ctx, 1, 1, nil, "raw"); err != nil {
		t.Fatal(err)
	}
	// A client that never saw the old incarnation writes the lines (the
	// broker helper's client still holds the old topic id).
	fresh, err := kgo.NewClient(kgo.SeedBrokers(b.Addr))
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	for _, l := range lines {
		if err := fresh.ProduceSync(ctx, &kgo.Record{Topic: "raw", Value: []byte(l)}).FirstErr(); err != nil {
			t.Fatal(err)
		}
	}
	again := run("again", "out3")
	old := map[string]bool{}
	for _, id := range first {
		old[id] = true
	}
	for _, id := range again {
		if old[id] {
			t.Fatalf("id %s of the new topic incarnation equals an id of the old one", id)
		}
	}
	if len(again) != len(lines) {
		t.Fatalf("%d records from the new topic, want %d", len(again), len(lines))
	}
}

// TestStatusTotalsAfterTheRealLog: after the 10,000 real access-log lines
// went through, /api/status says so: 10,000 records in and out, none to
// the error topics, and the parser's own counters, the same as /metrics.
func TestStatusTotalsAfterTheRealLog(t *testing.T) {
	b := streamtest.StartBroker(t)
	b.CreateTopic(t, "pipeline_raw", 4)
	lines := streamtest.AccessLogLines(t)
	b.ProduceLines(t, "pipeline_raw", lines)
	e := streamtest.StartEngine(t, engine.Settings{}, parsingDataflow(b.Addr, false))
	b.WaitGroupCommitted(t, "weir-test", "pipeline_raw", int64(len(lines)), 120*time.Second)
	api := checkStatusSchema(t, e.Engine, 4)
	st := api.Streams[0]
	n := int64(len(lines))
	if want := (status.StreamTotals{RecordsIn: n, RecordsOut: n}); st.Totals != want {
		t.Errorf("/api/status totals %+v, want %+v", st.Totals, want)
	}
	if len(st.Processors) != 1 {
		t.Fatalf("/api/status processors %+v, want the parser", st.Processors)
	}
	p := st.Processors[0]
	if p.Name != "apache_parser" || p.RecordsIn != n || p.RecordsOut != n || p.RecordsErrors != 0 || p.RecordsDropped != 0 || p.Batches == 0 || p.BatchSeconds <= 0 {
		t.Errorf("/api/status parser counters %+v, want %d records in and out over some batches", p, n)
	}
	if got := counterValue(t, e, "weir_processor_records_in_total", "apache_parser"); got != float64(p.RecordsIn) {
		t.Errorf("/metrics says %v records into the parser, /api/status %d", got, p.RecordsIn)
	}
}
