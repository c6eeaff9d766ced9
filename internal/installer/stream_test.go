package installer

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/dataflow"
	"github.com/weir-streams/weir/internal/engine"
	"github.com/weir-streams/weir/internal/metrics"
	"github.com/weir-streams/weir/internal/plugins/all"
	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/streamtest"
)

// installed installs the example plugin from a signed repository served
// over HTTP into a fresh home, and returns a registry holding the built-in
// components and the plugin's, as `weir run` builds it.
func installed(t *testing.T) (reg *component.Registry, bin string) {
	t.Helper()
	repo := newTestRepo(t)
	repo.publish(t, testCoords, examplePlugin, false)
	o := repo.options(t, repo.serve(t))
	e := mustInstall(t, o, testCoords)
	reg = all.NewRegistry()
	if err := RegisterInstalled(reg, o.Home, testLogger(t)); err != nil {
		t.Fatal(err)
	}
	return reg, filepath.Join(o.Home, filepath.FromSlash(e.Binary))
}

// startEngine builds an engine over reg (streamtest.NewEngine uses the
// built-in registry only) and applies df.
func startEngine(t *testing.T, reg *component.Registry, set engine.Settings, df *dataflow.DataFlow) *engine.Engine {
	t.Helper()
	set.AppName = "weir-plugin-test"
	if set.Workers == 0 {
		set.Workers = 2
	}
	set.BatchInterval = 20 * time.Millisecond
	e := engine.New(engine.Options{Settings: set, Registry: reg, Logger: testLogger(t), Metrics: metrics.New(prometheus.NewRegistry())})
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_ = e.Stop(ctx)
	})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := e.Apply(ctx, df); err != nil {
		t.Fatalf("apply dataflow: %v", err)
	}
	return e
}

// urlDataflow parses access-log lines and, with plugin, runs the example
// plugin on them.
func urlDataflow(brokers string, modified, pipelineModified time.Time, plugin bool) *dataflow.DataFlow {
	s := streamtest.Stream("parsing", brokers, "raw", "events", "errors")
	s.Pipeline = dataflow.Pipeline{LastModified: pipelineModified, Processors: []dataflow.Component{streamtest.ApacheParser(false)}}
	if plugin {
		s.Pipeline.Processors = append(s.Pipeline.Processors, streamtest.Processor("url", testComp, "query.prefix", "q_"))
	}
	return &dataflow.DataFlow{LastModified: modified, Streams: []dataflow.Stream{s}}
}

// TestPluginInStream runs the real access log through SplitText and the
// installed plugin on the embedded broker, and checks the plugin's fields
// against what the raw lines say.
func TestPluginInStream(t *testing.T) {
	reg, _ := installed(t)
	lines := streamtest.AccessLogLines(t)
	b := streamtest.StartBroker(t)
	b.CreateTopic(t, "raw", 4)
	b.ProduceLines(t, "raw", lines)
	t0 := time.Unix(1000, 0)
	startEngine(t, reg, engine.Settings{}, urlDataflow(b.Addr, t0, t0, true))

	waitTotal(t, b, int64(len(lines)))
	errs := b.Count(t, "errors")
	events := streamtest.Decode(t, b.Consume(t, "events", len(lines)-int(errs), 60*time.Second))

	// Independent expectations from the raw lines: requests whose path
	// ends in .png, and requests with a query string.
	wantPNG, wantQuery := 0, 0
	for _, l := range lines {
		_, req, ok := strings.Cut(l, "\"")
		if !ok {
			continue
		}
		f := strings.Fields(req)
		if len(f) < 2 {
			continue
		}
		path, query, hasQ := strings.Cut(f[1], "?")
		if strings.HasSuffix(strings.ToLower(path), ".png") {
			wantPNG++
		}
		if hasQ && query != "" {
			wantQuery++
		}
	}
	gotPNG, gotQuery := 0, 0
	for _, r := range events {
		q, _ := r.GetString("http_query")
		p, ok := r.GetString("url_path")
		rawPath, _, _ := strings.Cut(q, "?")
		want, err := url.PathUnescape(rawPath)
		if err != nil || !utf8.ValidString(want) {
			want = rawPath // on.invalid is raw: kept as it is
		}
		if !ok || (p != want && !strings.HasPrefix(strings.ToLower(q), "http")) {
			t.Fatalf("record %s: url_path %q for http_query %q, want %q", r.ID, p, q, want)
		}
		if ext, _ := r.GetString("url_extension"); ext == "png" {
			gotPNG++
		}
		for _, f := range r.Fields() {
			if strings.HasPrefix(f.Name, "q_") {
				gotQuery++
				break
			}
		}
	}
	// Lines SplitText refuses are in errors and count on neither side only
	// if they have no request; allow for them.
	if gotPNG == 0 || gotPNG > wantPNG || wantPNG-gotPNG > int(errs) {
		t.Errorf("png requests: %d in events, %d in the log (%d error records)", gotPNG, wantPNG, errs)
	}
	if gotQuery == 0 || gotQuery > wantQuery || wantQuery-gotQuery > int(errs) {
		t.Errorf("requests with parameters: %d in events, %d in the log", gotQuery, wantQuery)
	}
	// One known line, field by field: line 1 of the log.
	first := findByValue(t, events, lines[0])
	if p, _ := first.GetString("url_path"); p != "/presentations/logstash-monitorama-2013/images/kibana-search.png" {
		t.Errorf("line 1: url_path %q", p)
	}
	if e, _ := first.GetString("url_extension"); e != "png" {
		t.Errorf("line 1: url_extension %q", e)
	}
}

func findByValue(t *testing.T, recs []*record.Record, line string) *record.Record {
	t.Helper()
	for _, r := range recs {
		if v, _ := r.GetString(record.FieldValue); v == line {
			return r
		}
	}
	t.Fatalf("no record for line %q", line)
	return nil
}

// waitTotal waits until events and errors together hold n records.
func waitTotal(t *testing.T, b *streamtest.Broker, n int64) {
	t.Helper()
	deadline := time.Now().Add(120 * time.Second)
	for {
		got := b.Count(t, "events") + b.Count(t, "errors")
		if got >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d records in events and errors, want %d", got, n)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// waitExited waits until process pid has exited (gone or a zombie), so
// that its end of the plugin connection is closed.
func waitExited(pid int) error {
	deadline := time.Now().Add(30 * time.Second)
	for {
		st, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return nil
		}
		// The state follows the command name, which is in parentheses.
		if i := strings.LastIndexByte(string(st), ')'); i >= 0 && i+2 < len(st) && (st[i+2] == 'Z' || st[i+2] == 'X') {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("process %d still runs 30 s after SIGKILL", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// waitPIDs waits until exactly n processes run bin and returns them.
func waitPIDs(t *testing.T, bin string, n int) []int {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		pids := streamtest.PIDsRunning(t, bin)
		if len(pids) == n {
			return pids
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d processes run %s, want %d", len(pids), bin, n)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestPluginKilledMidRun kills the plugin process with SIGKILL while the
// stream is busy: the batch in flight becomes error records that say why,
// every input is accounted for in events or errors, the plugin is
// restarted and the stream goes on.
func TestPluginKilledMidRun(t *testing.T) {
	reg, bin := installed(t)
	lines := streamtest.AccessLogLines(t)
	b := streamtest.StartBroker(t)
	b.CreateTopic(t, "raw", 4)
	b.ProduceLines(t, "raw", lines)
	t0 := time.Unix(1000, 0)

	// The kill is made inside Process, once the processor holds a running
	// instance and before it sends the batch: a kill timed from outside
	// lands between batches most of the time (the plugin is quick), and
	// then the next batch merely restarts the plugin and nothing fails.
	var armed atomic.Bool
	killed := make(chan struct{})
	var killErr error
	var killedPID int
	hook := func() {
		if !armed.CompareAndSwap(true, false) {
			return
		}
		defer close(killed)
		if killErr = syscall.Kill(killedPID, syscall.SIGKILL); killErr == nil {
			killErr = waitExited(killedPID)
		}
	}
	batchInHand.Store(&hook)
	t.Cleanup(func() { batchInHand.Store(nil) })

	// 4 partitions at 250 records/s each: about 10 s for the log, so
	// the kill lands in the middle.
	startEngine(t, reg, engine.Settings{MaxRate: 250}, urlDataflow(b.Addr, t0, t0, true))

	killedPID = waitPIDs(t, bin, 1)[0]
	b.WaitCount(t, "events", 1000, 60*time.Second)
	armed.Store(true) // publishes killedPID to the hook
	select {
	case <-killed:
	case <-time.After(60 * time.Second):
		t.Fatal("no batch reached the plugin after the kill was armed")
	}
	if killErr != nil {
		t.Fatal(killErr)
	}
	atKill := b.Count(t, "events")

	waitTotal(t, b, int64(len(lines)))
	after := waitPIDs(t, bin, 1)
	if after[0] == killedPID {
		t.Fatalf("the plugin was not restarted: pid %d", after[0])
	}
	events := streamtest.Decode(t, b.Consume(t, "events", int(b.Count(t, "events")), 60*time.Second))
	errors := streamtest.Decode(t, b.Consume(t, "errors", int(b.Count(t, "errors")), 60*time.Second))
	ids := map[string]bool{}
	crashed := 0
	for _, r := range errors {
		ids[r.ID] = true
		if strings.Contains(strings.Join(r.Errors(), ";"), "stopped during the batch") {
			crashed++
		}
	}
	for _, r := range events {
		ids[r.ID] = true
	}
	if len(ids) != len(lines) {
		t.Fatalf("%d distinct records in events and errors, want %d: records were lost", len(ids), len(lines))
	}
	if crashed == 0 {
		t.Fatal("no error record says the plugin stopped during its batch")
	}
	if int64(len(events)) <= atKill {
		t.Fatalf("no event after the kill (%d at the kill, %d at the end): the stream did not go on", atKill, len(events))
	}
	t.Logf("%d events (%d at the kill), %d error records of which %d from the killed batch", len(events), atKill, len(errors), crashed)
}

// TestPluginPipelineSwap adds the plugin to a running pipeline and takes it
// out again: its process starts with the new chain and stops with it.
func TestPluginPipelineSwap(t *testing.T) {
	reg, bin := installed(t)
	lines := streamtest.AccessLogLines(t)[:3000]
	b := streamtest.StartBroker(t)
	b.CreateTopic(t, "raw", 4)
	t0 := time.Unix(1000, 0)
	e := startEngine(t, reg, engine.Settings{}, urlDataflow(b.Addr, t0, t0, false))
	ctx := context.Background()

	if n := len(streamtest.PIDsRunning(t, bin)); n != 0 {
		t.Fatalf("%d plugin processes before the plugin is in the pipeline", n)
	}
	if err := e.Apply(ctx, urlDataflow(b.Addr, t0, t0.Add(time.Second), true)); err != nil {
		t.Fatal(err)
	}
	waitPIDs(t, bin, 1)
	b.ProduceLines(t, "raw", lines[:1000])
	waitTotal(t, b, 1000)

	if err := e.Apply(ctx, urlDataflow(b.Addr, t0, t0.Add(2*time.Second), false)); err != nil {
		t.Fatal(err)
	}
	waitPIDs(t, bin, 0)
	b.ProduceLines(t, "raw", lines[1000:])
	waitTotal(t, b, int64(len(lines)))

	events := streamtest.Decode(t, b.Consume(t, "events", int(b.Count(t, "events")), 60*time.Second))
	withPath := 0
	for _, r := range events {
		if r.Has("url_path") {
			withPath++
		}
	}
	errs := int(b.Count(t, "errors"))
	if withPath == 0 || withPath > 1000 || withPath < 1000-errs {
		t.Fatalf("%d events have url_path, want those of the first 1000 lines (%d error records)", withPath, errs)
	}
}

// TestChangedBinaryRefused: a binary changed after install is refused at
// registration (validation fails at the processor) and at start.
func TestChangedBinaryRefused(t *testing.T) {
	repo := newTestRepo(t)
	repo.publish(t, testCoords, examplePlugin, false)
	o := repo.options(t, repo.fileURL())
	e := mustInstall(t, o, testCoords)
	bin := filepath.Join(o.Home, filepath.FromSlash(e.Binary))
	appendTo(t, bin, "\x00changed")

	reg := all.NewRegistry()
	err := RegisterInstalled(reg, o.Home, testLogger(t))
	wantErr(t, err, "changed since it was installed", "reinstall")
	spec, err := reg.LookupKind(testComp, component.KindProcessor)
	if err != nil {
		t.Fatal(err)
	}
	// Validation runs the spec's check, which refuses the changed binary.
	conf, probs := component.NewConfig(spec, nil)
	wantErr(t, probs.Err(), "changed since it was installed")
	_, err = spec.NewProcessor(conf, component.Env{Name: "url", Logger: testLogger(t)})
	wantErr(t, err, "changed since it was installed")

	// Changed after Weir checked the lock, just before the process starts:
	// go-plugin's own check refuses it.
	_, err = launch(bin, e.BinarySHA256, testLogger(t))
	wantErr(t, err, "changed since it was installed")
}
