package alerting

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/plugins/redis"
	"github.com/weir-streams/weir/internal/record"
	redisserver "github.com/weir-streams/weir/internal/testserver/redis"
)

type services map[string]component.Service

func (s services) Service(name string) (component.Service, bool) { v, ok := s[name]; return v, ok }

// newStore starts a real redis-server and the Redis service on it.
func newStore(t *testing.T) *redis.Service {
	t.Helper()
	srv := redisserver.New(t)
	spec := redis.ServiceSpec()
	conf, probs := component.NewConfig(&spec, map[string]string{"connection.string": srv.Addr()})
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	svc, err := spec.NewService(context.Background(), conf, component.Env{Name: "datastore_service"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = svc.Close(context.Background()) })
	if err := svc.(component.Starter).Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	return svc.(*redis.Service)
}

func build(t *testing.T, spec component.Spec, st Store, props map[string]string, now func() time.Time) component.Processor {
	t.Helper()
	all := map[string]string{KeyDatastore: "datastore_service"}
	for k, v := range props {
		all[k] = v
	}
	conf, probs := component.NewConfig(&spec, all)
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	p, err := spec.NewProcessor(conf, component.Env{Name: "p", Services: services{"datastore_service": st}})
	if err != nil {
		t.Fatal(err)
	}
	switch x := p.(type) {
	case *ComputeTags:
		x.now = now
	case *CheckThresholds:
		x.now = now
	case *CheckAlerts:
		x.now = now
	}
	return p
}

func put(t *testing.T, st Store, id string, kv ...any) {
	t.Helper()
	r := record.New(id, "apache_log", 0)
	for i := 0; i+1 < len(kv); i += 2 {
		switch v := kv[i+1].(type) {
		case float64:
			r.Set(kv[i].(string), record.FloatValue(v))
		case int64:
			r.Set(kv[i].(string), record.IntValue(v))
		case string:
			r.SetString(kv[i].(string), v)
		}
	}
	if err := st.PutRecord(context.Background(), r); err != nil {
		t.Fatal(err)
	}
}

func runBatch(t *testing.T, p component.Processor, in ...*record.Record) []*record.Record {
	t.Helper()
	b := &component.Batch{Records: in}
	if err := p.Process(context.Background(), b); err != nil {
		t.Fatal(err)
	}
	return b.Records
}

func TestCompileFormula(t *testing.T) {
	for text, refs := range map[string]int{
		`return cache("204.138.95.105").value * 10.2;`:                           1,
		`cache("vib1").value > 10.0;`:                                            1,
		`cache("vib2").value >= 0 && cache("vib2").value < cache("vib1").value;`: 2,
		`cache('threshold1').duration > 50.0`:                                    1,
		`cache("t").count > 5 && cache("t").value > 1`:                           2,
		`0==0`: 0,
	} {
		f, err := compileFormula("k", text)
		if err != nil {
			t.Errorf("%s: %v", text, err)
			continue
		}
		if len(f.refs) != refs {
			t.Errorf("%s: %d references, want %d", text, len(f.refs), refs)
		}
	}
	for _, bad := range []string{`cache("cvib1") > 2`, `cache("x").avg > 1`, `var x = 1; x > 0`, `cache("x").value >`} {
		if _, err := compileFormula("k", bad); err == nil {
			t.Errorf("%s: accepted", bad)
		}
	}
}

// TestAlertingChain runs the three processors as LogIsland's
// threshold-alerting.yml chains them, on a real Redis, with a clock the
// test moves.
func TestAlertingChain(t *testing.T) {
	st := newStore(t)
	now := time.UnixMilli(1_700_000_000_000)
	clock := func() time.Time { return now }
	put(t, st, "204.138.95.105", "record_value", 8000.0, "record_time", int64(1_699_999_999_000))

	// ComputeTags: computed1 = 8000 * 10.2; a formula over a missing
	// record adds nothing; the input record goes on.
	tags := build(t, ComputeTagsSpec(), st, map[string]string{"output.record.type": "computed_tag", "max.cpu.time": "500",
		"max.memory": "64800000", "max.prepared.statements": "5", "allow.no.brace": "false",
		"computed1": `return cache("204.138.95.105").value * 10.2;`, "missing": `return cache("nobody").value * 2;`}, clock)
	out := runBatch(t, tags, record.New("in", "apache_log", 0))
	if len(out) != 2 || out[0].ID != "in" || out[1].ID != "computed1" || out[1].Type != "computed_tag" {
		t.Fatalf("ComputeTags: %v", out)
	}
	if v, _ := out[1].Get(record.FieldValue); math.Abs(mustFloat(t, v)-81600) > 1e-6 {
		t.Errorf("computed1 = %v", v)
	}
	// BulkPut stores the computed tag, as the job's next processor does.
	if err := st.PutRecord(context.Background(), out[1]); err != nil {
		t.Fatal(err)
	}

	thr := build(t, CheckThresholdsSpec(), st, map[string]string{"output.record.type": "threshold_cross", "record.ttl": "30000",
		"threshold1": `cache("204.138.95.105").value > 2000.0`, "never": `cache("204.138.95.105").value < 0`}, clock)
	out = runBatch(t, thr)
	if len(out) != 1 || out[0].ID != "threshold1" || out[0].Type != "threshold_cross" || count(out[0]) != 1 {
		t.Fatalf("first crossing: %v", out)
	}
	if got, ok, _ := st.GetRecord(context.Background(), "threshold1"); !ok || count(got) != 1 {
		t.Fatalf("threshold1 in Redis: %v", got)
	}
	now = now.Add(100 * time.Millisecond) // within min.update.time.ms: no update
	if out = runBatch(t, thr); len(out) != 0 {
		t.Errorf("update within 200 ms: %v", out)
	}
	now = now.Add(time.Second)
	if out = runBatch(t, thr); len(out) != 1 || count(out[0]) != 2 {
		t.Fatalf("second crossing: %v", out)
	}
	if tm, _ := out[0].Get(record.FieldTime); tm.Text() != "1700000000000" {
		t.Errorf("the first crossing's time is kept: %v", tm)
	}

	alerts := build(t, CheckAlertsSpec(), st, map[string]string{"output.record.type": "medium_alert", "alert.criticity": "1",
		"profile.activation.condition": `cache("computed1").value > 80000.0`, "alert1": `cache("threshold1").duration > 50.0`,
		"alert2": `cache("threshold1").count > 5`}, clock)
	out = runBatch(t, alerts)
	if len(out) != 1 || out[0].ID != "alert1" || out[0].Type != "medium_alert" {
		t.Fatalf("alerts: %v", out)
	}
	if v, _ := out[0].GetString(record.FieldValue); v != `cache("threshold1").duration > 50.0` {
		t.Errorf("alert record_value %q", v)
	}
	// The profile does not hold: no alert.
	quiet := build(t, CheckAlertsSpec(), st, map[string]string{"profile.activation.condition": `cache("computed1").value > 1e9`,
		"alert1": `cache("threshold1").duration > 50.0`}, clock)
	if out = runBatch(t, quiet); len(out) != 0 {
		t.Errorf("inactive profile: %v", out)
	}

	// record.ttl past: the threshold record is removed and starts again.
	now = now.Add(31 * time.Second)
	if out = runBatch(t, thr); len(out) != 1 || count(out[0]) != 1 {
		t.Fatalf("after the ttl: %v", out)
	}

	// Bad input: a stored record_value that is not a number reads as NaN
	// (no tag); a formula that cannot be evaluated adds an error record
	// with the reason, and the input records go on.
	put(t, st, "text", "record_value", "high")
	bad := build(t, ComputeTagsSpec(), st, map[string]string{"nan": `cache("text").value * 2`, "str": `cache("text").value + "x"`}, clock)
	out = runBatch(t, bad, record.New("in", "apache_log", 0))
	if len(out) != 2 || out[0].ID != "in" || out[1].ID != "str" || !strings.Contains(strings.Join(out[1].Errors(), ""), ErrFormula) {
		t.Errorf("bad input: %v", out)
	}
}

func count(r *record.Record) int64 {
	v, _ := r.Get(FieldCount)
	n, _ := v.AsInt()
	return n
}

func mustFloat(t *testing.T, v record.Value) float64 {
	t.Helper()
	f, ok := v.AsFloat()
	if !ok {
		t.Fatalf("%v is not a number", v)
	}
	return f
}
