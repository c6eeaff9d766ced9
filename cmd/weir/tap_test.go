package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/streamtest"
)

// TestTapPrintsRecordsOfARunningJob: weir tap prints samples of the output
// and error records a running job writes, with a field named like a secret
// redacted; a job without engine.ui.tap serves none.
func TestTapPrintsRecordsOfARunningJob(t *testing.T) {
	b := streamtest.StartBroker(t)
	b.CreateTopic(t, "raw", 2)
	port := freePort(t)
	path := parsingJob{App: "tap-app", Processors: `      - processor: token
        component: pkg.processor.AddFields
        configuration:
          session_token: abc123
`}.write(t, "job.yml")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	job := strings.Replace(string(data), "engine.ui.port: -1", fmt.Sprintf("engine.ui.port: %d\n    engine.ui.tap: true", port), 1)
	if err := os.WriteFile(path, []byte(job), 0o644); err != nil {
		t.Fatal(err)
	}
	p := startWeir(t, []string{"BROKER_LIST=" + b.Addr}, "run", "--conf", path)
	url := fmt.Sprintf("--url=http://127.0.0.1:%d", port)
	tap := func(args ...string) (string, string, error) {
		cmd := exec.Command(weirBin, append([]string{"tap", url}, args...)...)
		var out, errOut strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		return out.String(), errOut.String(), err
	}
	lines := streamtest.AccessLogLines(t)
	deadline := time.Now().Add(90 * time.Second)
	var outRecs, errRecs string
	for i := 0; outRecs == "" || errRecs == ""; i++ {
		if time.Now().After(deadline) {
			t.Fatalf("no samples within 90 s (output %q, errors %q):\n%s", outRecs, errRecs, p.output())
		}
		b.ProduceLines(t, "raw", []string{lines[i%len(lines)], "not a log line"})
		time.Sleep(50 * time.Millisecond)
		if o, _, err := tap("--stream", "parsing", "--n", "3"); err == nil {
			outRecs = strings.TrimSpace(o)
		}
		if o, _, err := tap("--errors"); err == nil {
			errRecs = strings.TrimSpace(o)
		}
	}
	for _, l := range strings.Split(outRecs, "\n") {
		var rec struct {
			Type   string
			Fields map[string]any
		}
		if err := json.Unmarshal([]byte(l), &rec); err != nil {
			t.Fatalf("not a record: %v: %s", err, l)
		}
		if rec.Type != "apache_log" || rec.Fields["src_ip"] == nil {
			t.Errorf("not an output record of the job: %s", l)
		}
		if rec.Fields["session_token"] != "******" {
			t.Errorf("session_token not redacted: %s", l)
		}
	}
	if n := strings.Count(outRecs, "\n") + 1; n > 3 {
		t.Errorf("%d records for --n 3", n)
	}
	if !strings.Contains(errRecs, "regex_matching_error") || strings.Contains(errRecs, "abc123") {
		t.Errorf("error samples: %s", errRecs)
	}
	if _, errOut, err := tap("--stream", "nope"); err != nil || !strings.Contains(errOut, "no sample yet") {
		t.Errorf("tap of an unknown stream: %v, %q", err, errOut)
	}
}

// TestTapIsOffByDefault: without engine.ui.tap the status server has no
// /api/tap, and weir tap says how to turn it on.
func TestTapIsOffByDefault(t *testing.T) {
	b := streamtest.StartBroker(t)
	port := freePort(t)
	path := jobFile(t, "tap-off", 0)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(data), "engine.ui.port: -1", fmt.Sprintf("engine.ui.port: %d", port), 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	p := startWeir(t, []string{"BROKER_LIST=" + b.Addr}, "run", "--conf", path)
	deadline := time.Now().Add(60 * time.Second)
	for {
		out, err := exec.Command(weirBin, "tap", fmt.Sprintf("--url=http://127.0.0.1:%d", port)).CombinedOutput()
		if strings.Contains(string(out), "set engine.ui.tap: true") {
			if err == nil {
				t.Error("exit 0 without a tap")
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("weir tap: %v: %s\n%s", err, out, p.output())
		}
		time.Sleep(100 * time.Millisecond)
	}
}
