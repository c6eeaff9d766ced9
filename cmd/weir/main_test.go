package main

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/weir-streams/weir/internal/streamtest"
)

// weirBin is the weir binary built once for the process tests.
var weirBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "weir-bin")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	weirBin = filepath.Join(dir, "weir")
	// An empty Weir home: plugins installed on the developer's machine must
	// not change what the tests see (docs/components.md above all).
	os.Setenv("WEIR_HOME", filepath.Join(dir, "home"))
	build := exec.Command("go", "build", "-o", weirBin, ".")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "build weir:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// parsingJob is the job file of the process tests: one stream that parses
// the lines of raw with SplitText (the combined-log regex) into events,
// failures to errors. The other tests' jobs are this one with services,
// processors after the parser or stream keys added.
type parsingJob struct {
	App     string
	MaxRate int    // engine.streaming.broker.maxRatePerPartition; 0 = none
	Brokers string // broker.metadata.broker.list; ${BROKER_LIST} if empty
	// StreamKeys are more keys of the stream's configuration, in order.
	StreamKeys []string
	// Services is the YAML of the engine's controllerServiceConfigurations
	// list, indented as its items are; empty for none.
	Services string
	// Processors is the YAML of processors after the parser, indented as
	// items of processorConfigurations.
	Processors string
}

// write writes the job into a temporary file named name and returns its
// path.
func (j parsingJob) write(t *testing.T, name string) string {
	t.Helper()
	brokers := j.Brokers
	if brokers == "" {
		brokers = "${BROKER_LIST}"
	}
	var b strings.Builder
	fmt.Fprintf(&b, `version: 1.1.2
engine:
  component: pkg.engine.engine.BrokerStreamProcessingEngine
  configuration:
    engine.app.name: %s
    engine.master: local[2]
    engine.streaming.batchDuration: 50
    engine.streaming.broker.maxRatePerPartition: %d
    engine.ui.port: -1
`, j.App, j.MaxRate)
	if j.Services != "" {
		b.WriteString("  controllerServiceConfigurations:\n" + j.Services)
	}
	fmt.Fprintf(&b, `streamConfigurations:
  - stream: parsing
    component: pkg.stream.engine.BrokerRecordStreamParallelProcessing
    configuration:
      broker.input.topics: raw
      broker.output.topics: events
      broker.error.topics: errors
      broker.metadata.broker.list: %s
`, brokers)
	for _, kv := range j.StreamKeys {
		b.WriteString("      " + kv + "\n")
	}
	fmt.Fprintf(&b, `    processorConfigurations:
      - processor: parser
        component: pkg.processor.SplitText
        configuration:
          record.type: apache_log
          value.regex: '%s'
          value.fields: %s
`, streamtest.ApacheRegex, streamtest.ApacheFields)
	b.WriteString(j.Processors)
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// jobFile writes the parsing job for app and returns its path.
func jobFile(t *testing.T, app string, maxRate int) string {
	t.Helper()
	return parsingJob{App: app, MaxRate: maxRate}.write(t, "job.yml")
}

type proc struct {
	cmd *exec.Cmd
	out *lockedBuffer
}

// lockedBuffer is the process's output, written by exec's copying
// goroutine while the test reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// output returns what the process wrote so far.
func (p *proc) output() string { return p.out.String() }

// startWeir starts `weir run`; the process is killed when the test ends.
func startWeir(t *testing.T, env []string, args ...string) *proc {
	t.Helper()
	cmd := exec.Command(weirBin, args...)
	cmd.Env = append(os.Environ(), env...)
	out := &lockedBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatalf("start weir: %v", err)
	}
	p := &proc{cmd: cmd, out: out}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("weir output:\n%s", out.String())
		}
	})
	return p
}

func (p *proc) kill9(t *testing.T) {
	t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatalf("kill -9: %v", err)
	}
	_ = p.cmd.Wait()
}

func repeatLog(t *testing.T, n int) []string {
	lines := streamtest.AccessLogLines(t)
	out := make([]string, n)
	for i := range out {
		out[i] = lines[i%len(lines)]
	}
	return out
}

// distinctIDs reads every message of events and returns the number of
// distinct record ids (the message key) and of messages.
func distinctIDs(t *testing.T, b *streamtest.Broker) (ids, msgs int) {
	t.Helper()
	n := b.Count(t, "events")
	seen := map[string]bool{}
	for _, m := range b.Consume(t, "events", int(n), 60*time.Second) {
		seen[string(m.Key)] = true
	}
	return len(seen), int(n)
}

func waitDistinct(t *testing.T, b *streamtest.Broker, want int, timeout time.Duration) int {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		b.WaitCount(t, "events", int64(want), time.Until(deadline))
		ids, msgs := distinctIDs(t, b)
		if ids >= want {
			return msgs
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d distinct records among %d messages, want %d", ids, msgs, want)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func TestKill9AndRestartLosesNothing(t *testing.T) {
	const n = 80000
	b := streamtest.StartBroker(t)
	b.CreateTopic(t, "raw", 4)
	b.ProduceLines(t, "raw", repeatLog(t, n))
	// 4 partitions at 5,000 records/s: the run takes about 4 s, long
	// enough to be killed in the middle.
	job := jobFile(t, "kill-test", 5000)
	env := []string{"BROKER_LIST=" + b.Addr}

	first := startWeir(t, env, "run", "--conf", job)
	b.WaitCount(t, "events", n/4, 60*time.Second)
	first.kill9(t)
	killedAt := b.Count(t, "events")
	if killedAt >= n {
		t.Fatalf("the run finished before the kill (%d records): the test proves nothing", killedAt)
	}

	startWeir(t, env, "run", "--conf", job)
	msgs := waitDistinct(t, b, n, 120*time.Second)
	t.Logf("killed after %d records; after restart %d messages for %d inputs (%d duplicates)", killedAt, msgs, n, msgs-n)
	if errs := b.Count(t, "errors"); errs != 0 {
		t.Errorf("%d error records", errs)
	}
}

func TestTwoProcessesSharePartitionsAndOneTakesOver(t *testing.T) {
	const n = 80000
	b := streamtest.StartBroker(t)
	b.CreateTopic(t, "raw", 4)
	job := jobFile(t, "shared-app", 5000)
	env := []string{"BROKER_LIST=" + b.Addr}
	a := startWeir(t, env, "run", "--conf", job)
	startWeir(t, env, "run", "--conf", job)

	// Both members must hold partitions before one dies.
	waitBothHoldPartitions(t, b, "shared-app")

	b.ProduceLines(t, "raw", repeatLog(t, n))
	b.WaitCount(t, "events", n/4, 60*time.Second)
	a.kill9(t)
	msgs := waitDistinct(t, b, n, 120*time.Second)
	t.Logf("%d messages for %d inputs after one of two processes was killed", msgs, n)
}

// freePort returns a port the system says is free now.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func TestKcatProducesAndConsumesOnTheEmbeddedBroker(t *testing.T) {
	kcat, err := exec.LookPath("kcat")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("kcat is not installed; .ci/run installs it: %v", err)
		}
		t.Skip("kcat is not installed (scripts/test installs it; CI fails here)")
	}
	port := freePort(t)
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	startWeir(t, []string{"BROKER_LIST=embedded", "WEIR_UI_PORT=-1"}, "run", "--conf", "../../conf/quickstart.yml",
		"--embedded-port", fmt.Sprint(port), "--data-dir", t.TempDir())

	lines := streamtest.AccessLogLines(t)[:50]
	input := strings.Join(append(lines, "this is not a log line"), "\n") + "\n"
	deadline := time.Now().Add(30 * time.Second)
	for {
		// The broker comes up with the job; retry until kcat reaches it.
		produce := exec.Command(kcat, "-b", addr, "-P", "-t", "pipeline_raw")
		produce.Stdin = strings.NewReader(input)
		out, err := produce.CombinedOutput()
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("kcat -P: %v: %s", err, out)
		}
		time.Sleep(300 * time.Millisecond)
	}
	consume := func(topic string, n int) []string {
		cmd := exec.Command(kcat, "-b", addr, "-C", "-t", topic, "-o", "beginning", "-c", fmt.Sprint(n), "-e")
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		cmd = exec.CommandContext(ctx, cmd.Path, cmd.Args[1:]...)
		var got []string
		for ctx.Err() == nil && len(got) < n {
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("kcat -C %s: %v", topic, err)
			}
			got = strings.Split(strings.TrimSpace(string(out)), "\n")
			if len(got) < n {
				time.Sleep(300 * time.Millisecond)
				cmd = exec.CommandContext(ctx, cmd.Path, cmd.Args[1:]...)
			}
		}
		return got
	}
	events := consume("pipeline_events", 50)
	if len(events) != 50 || !strings.Contains(events[0], `"type":"apache_log"`) {
		t.Fatalf("kcat read %d events, first %.200s", len(events), events[0])
	}
	errs := consume("pipeline_errors", 1)
	if !strings.Contains(errs[0], "regex_matching_error") || !strings.Contains(errs[0], "this is not a log line") {
		t.Fatalf("error record %s", errs[0])
	}
}

func TestValidateReportsEveryProblemWithLines(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.yml")
	err := os.WriteFile(bad, []byte(`engine:
  component: pkg.engine.engine.BrokerStreamProcessingEngine
  configuration:
    engine.master: local[two]
streamConfigurations:
  - stream: s
    component: pkg.stream.engine.BrokerRecordStreamParallelProcessing
    configuration:
      broker.input.topics: raw
      broker.error.topics: errors
      broker.metadata.broker.list: localhost:9092
    processorConfigurations:
      - processor: p
        component: pkg.processor.SplitText
        configuration:
          value.regx: (a)
          value.fields: a
`), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := run([]string{"validate", "--conf", bad}, nil, &stdout, &stderr)
	if code != 1 {
		t.Fatalf("exit code %d, want 1; stderr %s", code, stderr.String())
	}
	for _, want := range []string{
		`line 4: engine.configuration: property "engine.master": "local[two]" is not local, local[N] or local[*]`,
		`line 16: streamConfigurations[s].processorConfigurations[p].configuration: unknown property "value.regx" (did you mean "value.regex"?)`,
		`missing required property "value.regex"`,
	} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("validate output lacks %q:\n%s", want, stderr.String())
		}
	}
	code = run([]string{"validate", "--conf", "../../conf/index-apache-logs.yml"}, nil, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("the sample job is invalid: %s", stderr.String())
	}
}

// TestComponentsReferenceIsCurrent keeps docs/components.md true: it must be
// exactly what `weir components` prints. Regenerate it with
// `go run ./cmd/weir components > docs/components.md`.
func TestComponentsReferenceIsCurrent(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"components"}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("weir components: exit %d: %s", code, stderr.String())
	}
	doc, err := os.ReadFile("../../docs/components.md")
	if err != nil {
		t.Fatal(err)
	}
	if string(doc) != stdout.String() {
		t.Fatal("docs/components.md is out of date: run go run ./cmd/weir components > docs/components.md")
	}
	for _, id := range []string{"pkg.processor.SplitText", "pkg.processor.useragent.ParseUserAgent", "pkg.processor.enrichment.IpToFqdn",
		"pkg.processor.datastore.BulkPut", "pkg.service.cache.LRUKeyValueCacheService", "pkg.service.docdb.DocDBControllerService",
		"pkg.serializer.JsonSerializer", "pkg.engine.engine.BrokerStreamProcessingEngine", "pkg.stream.engine.BrokerRecordStreamParallelProcessing"} {
		if !strings.Contains(stdout.String(), "## "+id+" (") {
			t.Errorf("the spec's component %s is not registered", id)
		}
	}
}

func TestRunStopsAtTheJobTimeoutAndRefusesABadFile(t *testing.T) {
	b := streamtest.StartBroker(t)
	job := jobFile(t, "timeout-test", 0)
	data, err := os.ReadFile(job)
	if err != nil {
		t.Fatal(err)
	}
	timed := strings.Replace(string(data), "engine.ui.port: -1", "engine.ui.port: -1\n    engine.streaming.timeout: 1500", 1)
	if err := os.WriteFile(job, []byte(timed), 0o644); err != nil {
		t.Fatal(err)
	}
	p := startWeir(t, []string{"BROKER_LIST=" + b.Addr}, "run", "--conf", job)
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("weir run ended with %v after its timeout, want exit 0", err)
		}
	case <-time.After(60 * time.Second):
		_ = p.cmd.Process.Kill()
		<-done
		t.Fatal("weir run did not stop at engine.streaming.timeout")
	}
	if !strings.Contains(p.out.String(), "stopping job") {
		t.Errorf("no graceful stop in the log:\n%s", p.out.String())
	}

	bad := strings.Replace(string(data), "local[2]", "local[two]", 1)
	if err := os.WriteFile(job, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	t.Setenv("BROKER_LIST", b.Addr)
	if code := run([]string{"run", "--conf", job}, nil, &stdout, &stderr); code != 1 {
		t.Fatalf("weir run on a bad file exited %d, want 1", code)
	}
	if !strings.Contains(stderr.String(), `"local[two]" is not local, local[N] or local[*]`) {
		t.Errorf("weir run did not say what is wrong:\n%s", stderr.String())
	}
}

// TestKill9WithTheEmbeddedBrokerLosesNothing kills a weir process that
// hosts the embedded broker in the middle of a run, and restarts it on the
// same data directory: the broker's topics and committed offsets come back
// from disk, and every input has its record.
func TestKill9WithTheEmbeddedBrokerLosesNothing(t *testing.T) {
	const n = 60000
	port := freePort(t)
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	dataDir := t.TempDir()
	job := jobFile(t, "embedded-kill", 5000)
	args := []string{"run", "--conf", job, "--embedded-port", fmt.Sprint(port), "--data-dir", dataDir}
	env := []string{"BROKER_LIST=embedded"}

	first := startWeir(t, env, args...)
	cl, err := kgo.NewClient(kgo.SeedBrokers(addr), kgo.DefaultProduceTopic("raw"))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	for cl.Ping(ctx) != nil {
		time.Sleep(100 * time.Millisecond)
	}
	lines := repeatLog(t, n)
	rs := make([]*kgo.Record, n)
	for i, l := range lines {
		rs[i] = &kgo.Record{Key: []byte(fmt.Sprint(i)), Value: []byte(l)}
	}
	if err := cl.ProduceSync(ctx, rs...).FirstErr(); err != nil {
		t.Fatalf("produce: %v", err)
	}
	adm := kadm.NewClient(cl)
	count := func(topic string) int64 {
		offs, err := adm.ListEndOffsets(ctx, topic)
		if err != nil {
			return -1
		}
		var c int64
		offs.Each(func(o kadm.ListedOffset) { c += o.Offset })
		return c
	}
	for count("events") < n/4 {
		if ctx.Err() != nil {
			t.Fatal("no progress before the kill")
		}
		time.Sleep(50 * time.Millisecond)
	}
	first.kill9(t)
	cl.Close()

	startWeir(t, env, args...)
	cl2, err := kgo.NewClient(kgo.SeedBrokers(addr), kgo.ConsumeTopics("events"), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
	if err != nil {
		t.Fatal(err)
	}
	defer cl2.Close()
	seen := map[string]bool{}
	msgs := 0
	for len(seen) < n {
		f := cl2.PollFetches(ctx)
		if ctx.Err() != nil {
			t.Fatalf("after restart: %d distinct records of %d among %d messages", len(seen), n, msgs)
		}
		f.EachRecord(func(r *kgo.Record) {
			seen[string(r.Key)] = true
			msgs++
		})
	}
	t.Logf("%d messages for %d inputs after kill -9 of the process hosting the broker", msgs, n)
}

func TestGrokCommand(t *testing.T) {
	var stdout, stderr bytes.Buffer
	in := strings.NewReader("10.0.0.1 GET 200\n")
	if code := run([]string{"grok", "%{IP:client} %{WORD:method} %{INT:status:int}"}, in, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if got := stdout.String(); got != `{"client":"10.0.0.1","method":"GET","status":200}`+"\n" {
		t.Fatalf("stdout = %q", got)
	}
	stdout.Reset()
	if code := run([]string{"grok", "%{NOPE:x}"}, strings.NewReader(""), &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), `unknown pattern "NOPE"`) {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
}

// TestValidateLogIslandJob runs `weir validate` on LogIsland's own
// index-apache-logs-es.yml with the prefix changed and ES_HOSTS naming the
// transport port: valid, with the warning and the ignored keys said, and
// on a file with two processors named alike, which validate names.
func TestValidateLogIslandJob(t *testing.T) {
	data, err := os.ReadFile("../../testdata/logisland/conf/index-apache-logs-es.yml")
	if err != nil {
		t.Fatal(err)
	}
	s := strings.ReplaceAll(string(data), "com.hurence.logisland", "pkg")
	s = strings.ReplaceAll(s, "pkg.serializer.KryoSerializer", "pkg.serializer.JsonSerializer")
	path := filepath.Join(t.TempDir(), "es.yml")
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("ES_HOSTS", "sandbox:9300")
	t.Setenv("KAFKA_BROKERS", "127.0.0.1:9092")
	t.Setenv("ZK_QUORUM", "")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"validate", "--conf", path}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("exit code %d: %s", code, stderr.String())
	}
	for _, want := range []string{"valid (1 services, 1 streams)", "warning: engine.controllerServiceConfigurations[datastore_service].configuration: hosts \"http://sandbox:9300\"", "port 9300", "ignored: engine.configuration.spark.driver.cores, engine.configuration.spark.executor.memory"} {
		if !strings.Contains(stdout.String(), want) && !strings.Contains(stdout.String(), strings.Replace(want, "http://", "", 1)) {
			t.Errorf("validate output lacks %q:\n%s", want, stdout.String())
		}
	}
	stdout.Reset()
	if code := run([]string{"validate", "--conf", "../../internal/config/testdata/duplicate_processor.good.yml"}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("exit code %d: %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), `runs as processor "p#`) {
		t.Errorf("validate does not say which processor was renamed:\n%s", stdout.String())
	}
}
