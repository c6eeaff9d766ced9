package main

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/weir-streams/weir/internal/streamtest"
)

// exampleServer runs examples/dataflow-server as a process on a free port
// and keeps its output lines.
type exampleServer struct {
	url   string
	mu    sync.Mutex
	lines []string
}

func startExampleServer(t *testing.T, dir, snapshots string) *exampleServer {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "dataflow-server")
	build := exec.Command("go", "build", "-o", bin, "../../examples/dataflow-server")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build the example server: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "-addr", "127.0.0.1:0", "-dir", dir, "-snapshots", snapshots)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("start the example server: %v", err)
	}
	s := &exampleServer{}
	urlCh := make(chan string, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			line := sc.Text()
			if i := strings.Index(line, "listening on "); i >= 0 {
				urlCh <- strings.Fields(line[i+len("listening on "):])[0]
			}
			s.mu.Lock()
			s.lines = append(s.lines, line)
			s.mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-done
		_ = cmd.Wait()
	})
	select {
	case s.url = <-urlCh:
	case <-time.After(30 * time.Second):
		t.Fatal("the example server did not say where it listens")
	}
	return s
}

// getTimes returns the times of the GET requests the server logged.
func (s *exampleServer) getTimes(t *testing.T) []time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []time.Time
	for _, l := range s.lines {
		f := strings.Fields(l)
		if len(f) >= 2 && f[1] == "GET" {
			ts, err := time.Parse(time.RFC3339Nano, f[0])
			if err != nil {
				t.Fatalf("server log line %q: %v", l, err)
			}
			out = append(out, ts)
		}
	}
	return out
}

// The example server and weir as processes: editing a pipeline file swaps
// the chain, and the new chain's records reach the output topic within two
// polls of the edit.
func TestExampleServerDrivesWeirLive(t *testing.T) {
	b := streamtest.StartBroker(t)
	b.CreateTopic(t, "raw", 2)
	dir := t.TempDir()
	app := "live-example"
	if err := os.MkdirAll(filepath.Join(dir, app, "pipelines"), 0o755); err != nil {
		t.Fatal(err)
	}
	// The shipped sample, pointed at the test's broker and topics.
	sample := func(name string) string {
		raw, err := os.ReadFile(filepath.Join("..", "..", "examples", "dataflow-server", "dataflows", "weir-live", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(raw)
	}
	df := strings.NewReplacer(`"embedded"`, `"`+b.Addr+`"`, "live_raw", "raw", "live_events", "events", "live_errors", "errors").Replace(sample("dataflow.json"))
	pipeline := sample("pipelines/parsing.json")
	write := func(name, content string, mtime time.Time) {
		t.Helper()
		p := filepath.Join(dir, app, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	start := time.Now().Add(-time.Minute)
	write("dataflow.json", df, start)
	write("pipelines/parsing.json", pipeline, start)
	snapshots := filepath.Join(t.TempDir(), "snapshots.jsonl")
	srv := startExampleServer(t, dir, snapshots)

	const pollingRate = 1000
	job := filepath.Join(t.TempDir(), "remote.yml")
	conf, err := os.ReadFile(filepath.Join("..", "..", "conf", "remote.yml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(job, conf, 0o644); err != nil {
		t.Fatal(err)
	}
	w := startWeir(t, []string{"WEIR_APP=" + app, "WEIR_API=" + srv.url, "WEIR_UI_PORT=-1", "WEIR_POLLING_RATE=1000"},
		"run", "--conf", job, "--remote-dir", t.TempDir())
	_ = w

	lines := streamtest.AccessLogLines(t)
	b.ProduceLines(t, "raw", lines[:50])
	for _, r := range streamtest.Decode(t, b.Consume(t, "events", 50, 60*time.Second)) {
		if r.Type != "apache_log" {
			t.Fatalf("record of type %q before the edit", r.Type)
		}
	}

	// Edit the pipeline: another record type.
	editedAt := time.Now()
	write("pipelines/parsing.json", strings.Replace(pipeline, `"value": "apache_log"`, `"value": "apache_log_v2"`, 1), editedAt)
	// Feed a line every 20 ms, from the moment of the edit, until a record
	// of the new chain comes out; the feed runs apart from the checks so
	// that a slow check does not delay the input.
	feeder, err := kgo.NewClient(kgo.SeedBrokers(b.Addr), kgo.DefaultProduceTopic("raw"))
	if err != nil {
		t.Fatal(err)
	}
	stopFeed := make(chan struct{})
	fed := make(chan struct{})
	go func() {
		defer close(fed)
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for i := 50; ; i++ {
			select {
			case <-stopFeed:
				return
			case <-tick.C:
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			_ = feeder.ProduceSync(ctx, &kgo.Record{Value: []byte(lines[i%len(lines)])}).FirstErr()
			cancel()
		}
	}()
	defer func() {
		close(stopFeed)
		<-fed
		feeder.Close()
	}()
	deadline := time.Now().Add(60 * time.Second)
	var first time.Time
	for first.IsZero() {
		if time.Now().After(deadline) {
			t.Fatal("no record of the edited pipeline within 60 s")
		}
		time.Sleep(200 * time.Millisecond)
		for _, m := range b.Consume(t, "events", int(b.Count(t, "events")), 30*time.Second) {
			if strings.Contains(string(m.Value), `"type":"apache_log_v2"`) && (first.IsZero() || m.Timestamp.Before(first)) {
				first = m.Timestamp
			}
		}
	}
	// Counted in polls, not seconds: the GETs the server answered between
	// the edit and the first record of the new chain.
	polls := 0
	for _, ts := range srv.getTimes(t) {
		if ts.After(editedAt) && ts.Before(first) {
			polls++
		}
	}
	if polls > 2 {
		t.Fatalf("the new chain took effect %d polls after the edit, want at most 2", polls)
	}
	t.Logf("first record of the new chain %v after the edit, %d poll(s) (polling rate %d ms)", first.Sub(editedAt), polls, pollingRate)

	// The snapshots file holds the pushed snapshots, the last with the new
	// pipeline's timestamp.
	deadline = time.Now().Add(30 * time.Second)
	for {
		raw, _ := os.ReadFile(snapshots)
		if strings.Contains(string(raw), editedAt.UTC().Format("2006-01-02T15:04:05")) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no snapshot with the edited pipeline in %s:\n%s", snapshots, raw)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
