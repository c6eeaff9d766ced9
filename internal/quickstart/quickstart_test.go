package quickstart_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/app"
	"github.com/weir-streams/weir/internal/broker"
	"github.com/weir-streams/weir/internal/quickstart"
	"github.com/weir-streams/weir/internal/streamtest"
)

// run runs the quickstart on an embedded broker keeping its data in dir
// until it has printed its closing words, then stops it, and returns what
// it printed.
func run(t *testing.T, dir string, show int) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := new(streamtest.SyncBuffer)
	done := make(chan error, 1)
	go func() {
		done <- quickstart.Run(ctx, show, out, app.Options{Logger: streamtest.Logger(t), Registry: streamtest.Registry(),
			Embedded: broker.Options{DataDir: dir}})
	}()
	deadline := time.After(2 * time.Minute)
	for !strings.Contains(out.String(), "Ctrl-C stops.") {
		select {
		case err := <-done:
			t.Fatalf("the quickstart ended early: %v\n%s", err, out.String())
		case <-deadline:
			t.Fatalf("the quickstart did not finish showing its records:\n%s", out.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("stopped quickstart: %v", err)
	}
	return out.String()
}

// TestQuickstartFeedsOnceAndShowsRecords runs the bundled sample job as
// `weir quickstart` does: it feeds the bundled access log, shows the first
// parsed records and says how to reach the broker; run again on the same
// data directory, it does not feed the log a second time.
func TestQuickstartFeedsOnceAndShowsRecords(t *testing.T) {
	t.Setenv("WEIR_UI_PORT", "-1")
	t.Setenv("BROKER_LIST", "")
	log, err := os.Open(filepath.Join(streamtest.Root(), "testdata", "access-logs", "apache_combined_10k.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	lines := 0
	for sc := bufio.NewScanner(log); sc.Scan(); {
		lines++
	}
	dir := t.TempDir()

	out := run(t, dir, 3)
	m := regexp.MustCompile(`Fed (\d+) real access-log lines into pipeline_raw`).FindStringSubmatch(out)
	if m == nil || m[1] != strconv.Itoa(lines) {
		t.Fatalf("want %d lines fed:\n%s", lines, out)
	}
	_, records, ok := strings.Cut(out, "First records on pipeline_events:\n")
	if !ok {
		t.Fatalf("no records shown:\n%s", out)
	}
	records, _, _ = strings.Cut(records, "\n\n")
	shown := strings.Split(records, "\n")
	if len(shown) != 3 {
		t.Fatalf("%d records shown, want 3:\n%s", len(shown), out)
	}
	for _, r := range shown {
		var rec struct{ Fields map[string]any }
		if err := json.Unmarshal([]byte(r), &rec); err != nil || rec.Fields["src_ip"] == nil || rec.Fields["http_status"] == nil {
			t.Fatalf("shown record %q is not a parsed access-log line (%v)", r, err)
		}
	}
	if !strings.Contains(out, "kcat -b 127.0.0.1:") {
		t.Fatalf("no word on how to reach the broker:\n%s", out)
	}

	again := run(t, dir, 1)
	if !strings.Contains(again, "pipeline_raw already holds "+strconv.Itoa(lines)+" lines") || strings.Contains(again, "Fed ") {
		t.Fatalf("second run on the same data directory:\n%s", again)
	}
}
