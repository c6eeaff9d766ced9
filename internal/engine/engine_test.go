package engine_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/dataflow"
	"github.com/weir-streams/weir/internal/engine"
	"github.com/weir-streams/weir/internal/streamtest"
)

// typedDataflow parses lines with SplitText, tagging records with typ, so
// each output says which configuration processed it.
func typedDataflow(brokers string, modified time.Time, pipelineModified time.Time, typ string) *dataflow.DataFlow {
	s := streamtest.Stream("parsing", brokers, "raw", "events", "errors")
	s.Pipeline = typedPipeline(pipelineModified, typ)
	return &dataflow.DataFlow{LastModified: modified, Streams: []dataflow.Stream{s}}
}

func typedPipeline(modified time.Time, typ string) dataflow.Pipeline {
	return dataflow.Pipeline{LastModified: modified, Processors: []dataflow.Component{
		streamtest.Processor("parser", "pkg.processor.SplitText", "record.type", typ,
			"value.regex", streamtest.ApacheRegex, "value.fields", streamtest.ApacheFields),
	}}
}

func repeatLog(t *testing.T, n int) []string {
	lines := streamtest.AccessLogLines(t)
	out := make([]string, n)
	for i := range out {
		out[i] = lines[i%len(lines)]
	}
	return out
}

// outputs decodes every record of events and counts them by id and type.
func outputs(t *testing.T, b *streamtest.Broker, n int) (byID map[string]int, byType map[string]int, total int) {
	t.Helper()
	recs := streamtest.Decode(t, b.Consume(t, "events", n, 120*time.Second))
	byID, byType = map[string]int{}, map[string]int{}
	for _, r := range recs {
		byID[r.ID]++
		byType[r.Type]++
	}
	return byID, byType, len(recs)
}

func TestPipelineSwapUnderLoadProcessesEveryRecordOnceByOneGeneration(t *testing.T) {
	const n = 200000
	b := streamtest.StartBroker(t)
	b.CreateTopic(t, "raw", 4)
	b.ProduceLines(t, "raw", repeatLog(t, n))
	t0 := time.Unix(1000, 0)
	e := streamtest.StartEngine(t, engine.Settings{Workers: 2}, typedDataflow(b.Addr, t0, t0, "gen1"))

	// Swap while the stream is in the middle of the backlog.
	b.WaitCount(t, "events", n/4, 60*time.Second)
	ctx := context.Background()
	next := typedDataflow(b.Addr, t0, t0.Add(time.Second), "gen2")
	if err := e.Apply(ctx, next); err != nil {
		t.Fatalf("pipeline swap: %v", err)
	}
	if g := e.Generation("parsing"); g != 2 {
		t.Fatalf("generation after swap = %d, want 2", g)
	}
	if done := b.Count(t, "events"); done >= n {
		t.Fatalf("the backlog was finished before the swap (%d records): the test proves nothing; produce more", done)
	}
	// An older or equal pipeline timestamp changes nothing.
	if err := e.Apply(ctx, typedDataflow(b.Addr, t0, t0.Add(time.Second), "gen3")); err != nil {
		t.Fatalf("apply unchanged dataflow: %v", err)
	}
	if g := e.Generation("parsing"); g != 2 {
		t.Fatalf("generation after an unchanged apply = %d, want 2", g)
	}

	byID, byType, total := outputs(t, b, n)
	if total != n || len(byID) != n {
		t.Fatalf("%d records with %d distinct ids, want exactly %d of each (no loss, no duplicate)", total, len(byID), n)
	}
	if byType["gen1"] == 0 || byType["gen2"] == 0 || byType["gen1"]+byType["gen2"] != n {
		t.Fatalf("records by generation = %v, want both generations and nothing else", byType)
	}
	// Nothing more arrives later: no replay after a rebalance.
	time.Sleep(500 * time.Millisecond)
	if c := b.Count(t, "events"); c != n {
		t.Fatalf("events holds %d records, want %d", c, n)
	}
	t.Logf("records by generation: %v", byType)
}

func TestDataflowRestartAndRefusedChangesUnderLoad(t *testing.T) {
	const n = 60000
	b := streamtest.StartBroker(t)
	b.CreateTopic(t, "raw", 4)
	b.ProduceLines(t, "raw", repeatLog(t, n))
	t0 := time.Unix(1000, 0)
	e := streamtest.StartEngine(t, engine.Settings{Workers: 2, BatchInterval: 50 * time.Millisecond}, typedDataflow(b.Addr, t0, t0, "v1"))
	ctx := context.Background()
	b.WaitCount(t, "events", n/5, 60*time.Second)

	// A dataflow that fails validation changes nothing.
	bad := typedDataflow(b.Addr, t0.Add(time.Hour), t0.Add(time.Hour), "v9")
	bad.Streams[0].Pipeline.Processors[0].Component = "pkg.processor.SplitTxt"
	err := e.Apply(ctx, bad)
	if err == nil || !strings.Contains(err.Error(), `did you mean "pkg.processor.SplitText"`) {
		t.Fatalf("bad dataflow: err = %v, want an unknown-component error with a suggestion", err)
	}
	// A dataflow that validates but cannot start (a replication factor
	// the one-broker cluster cannot give) is rolled back.
	unstartable := typedDataflow(b.Addr, t0.Add(time.Hour), t0.Add(time.Hour), "v9")
	unstartable.Streams[0].Config = append(unstartable.Streams[0].Config,
		dataflow.Property{Key: "broker.output.topics", Value: "events,events_copy"},
		dataflow.Property{Key: "broker.topic.default.replicationFactor", Value: "3"})
	unstartable.Streams[0].Config = dedupeKeys(unstartable.Streams[0].Config)
	if err := e.Apply(ctx, unstartable); err == nil {
		t.Fatalf("a dataflow whose topics cannot be created started")
	}
	// The good stream still runs: the backlog keeps draining.
	before := b.Count(t, "events")
	b.WaitCount(t, "events", before+1000, 60*time.Second)

	// A newer dataflow restarts the stream with the new configuration.
	if err := e.Apply(ctx, typedDataflow(b.Addr, t0.Add(2*time.Hour), t0, "v2")); err != nil {
		t.Fatalf("dataflow restart: %v", err)
	}
	byID, byType, total := outputs(t, b, n)
	// A restart commits what was done before stopping, so duplicates are
	// allowed only in principle; loss is not.
	if len(byID) != n {
		t.Fatalf("%d distinct ids among %d records, want every one of the %d inputs", len(byID), total, n)
	}
	if byType["v1"] == 0 || byType["v2"] == 0 {
		t.Fatalf("records by configuration = %v, want both v1 and v2", byType)
	}
	for typ := range byType {
		if typ != "v1" && typ != "v2" {
			t.Fatalf("a refused configuration processed records: %v", byType)
		}
	}
	last, _ := e.LastApply()
	if last.Kind != "dataflow" || last.Err != "" {
		t.Fatalf("last apply = %+v", last)
	}
	t.Logf("records by configuration: %v, total %d", byType, total)
}

func TestBadPipelineIsRefusedAndTheChainKeepsRunning(t *testing.T) {
	b := streamtest.StartBroker(t)
	b.CreateTopic(t, "raw", 2)
	t0 := time.Unix(1000, 0)
	e := streamtest.StartEngine(t, engine.Settings{}, typedDataflow(b.Addr, t0, t0, "good"))
	bad := typedDataflow(b.Addr, t0, t0.Add(time.Minute), "bad")
	bad.Streams[0].Pipeline.Processors[0].Config = append(bad.Streams[0].Pipeline.Processors[0].Config,
		dataflow.Property{Key: "value.regx", Value: "x"})
	err := e.Apply(context.Background(), bad)
	if err == nil || !strings.Contains(err.Error(), `unknown property "value.regx" (did you mean "value.regex"?)`) {
		t.Fatalf("err = %v", err)
	}
	if !strings.Contains(err.Error(), "streams[parsing].pipeline.processors[parser].config") {
		t.Fatalf("error does not name the path: %v", err)
	}
	b.ProduceLines(t, "raw", repeatLog(t, 100))
	recs := streamtest.Decode(t, b.Consume(t, "events", 100, 30*time.Second))
	for _, r := range recs {
		if r.Type != "good" {
			t.Fatalf("record of type %q: the refused pipeline ran", r.Type)
		}
	}
	if g := e.Generation("parsing"); g != 1 {
		t.Fatalf("generation = %d, want 1", g)
	}
	if got := applies(t, e, "validate", "refused"); got != 1 {
		t.Fatalf("weir_engine_applies_total{kind=validate,result=refused} = %v, want 1", got)
	}
	if got := applies(t, e, "start", "applied"); got != 1 {
		t.Fatalf("weir_engine_applies_total{kind=start,result=applied} = %v, want 1", got)
	}
}

// applies reads weir_engine_applies_total for a kind and result (0 if none).
func applies(t *testing.T, e *streamtest.Engine, kind, result string) float64 {
	t.Helper()
	mfs, err := e.Metrics.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != "weir_engine_applies_total" {
			continue
		}
		for _, m := range mf.GetMetric() {
			labels := map[string]string{}
			for _, l := range m.GetLabel() {
				labels[l.GetName()] = l.GetValue()
			}
			if labels["kind"] == kind && labels["result"] == result {
				return m.GetCounter().GetValue()
			}
		}
	}
	return 0
}

func dedupeKeys(ps []dataflow.Property) []dataflow.Property {
	idx := map[string]int{}
	var out []dataflow.Property
	for _, p := range ps {
		if i, ok := idx[p.Key]; ok {
			out[i] = p
			continue
		}
		idx[p.Key] = len(out)
		out = append(out, p)
	}
	return out
}
