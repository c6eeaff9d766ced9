package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"

	"github.com/weir-streams/weir/internal/streamtest"
	"github.com/weir-streams/weir/internal/testserver/ferretdb"
)

// TestSIGTERMWithMongoDBDownStopsPromptly: the sample docdb job runs with
// its MongoDB stopped, so BulkPut holds the batch. SIGTERM ends the process
// within a generous liveness bound (the documented bound is the batch
// interval plus 5 s), the log says the batch was abandoned uncommitted, and
// the group has no committed offset.
func TestSIGTERMWithMongoDBDownStopsPromptly(t *testing.T) {
	srv := ferretdb.New(t)
	srv.Stop()
	b := streamtest.StartBroker(t)
	b.CreateTopic(t, "pipeline_raw", 4)
	b.ProduceLines(t, "pipeline_raw", streamtest.AccessLogLines(t)[:100])

	data, err := os.ReadFile(filepath.Join("..", "..", "conf", "index-apache-logs-docdb.yml"))
	if err != nil {
		t.Fatal(err)
	}
	job := strings.Replace(string(data), "engine.ui.port: 4050", "engine.ui.port: -1", 1)
	path := filepath.Join(t.TempDir(), "job.yml")
	if err := os.WriteFile(path, []byte(job), 0o644); err != nil {
		t.Fatal(err)
	}
	p := startWeir(t, []string{"DOCDB_URI=" + srv.URI(), "BROKER_LIST=" + b.Addr}, "run", "--conf", path)
	deadline := time.Now().Add(90 * time.Second)
	for !strings.Contains(p.output(), "MongoDB write failed") {
		if time.Now().After(deadline) {
			t.Fatalf("no write attempt against the stopped MongoDB:\n%s", p.output())
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	signalled := time.Now()
	exited := make(chan error, 1)
	go func() { exited <- p.cmd.Wait() }()
	select {
	case <-exited:
	case <-time.After(60 * time.Second): // liveness bound, not a timing
		_ = p.cmd.Process.Kill()
		<-exited
		t.Fatalf("weir still runs 60 s after SIGTERM:\n%s", p.output())
	}
	t.Logf("weir exited %s after SIGTERM", time.Since(signalled).Round(100*time.Millisecond))
	if out := p.output(); !strings.Contains(out, "not committed") {
		t.Errorf("the log does not say the batch in flight was not committed:\n%s", out)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	offs, err := b.Admin().FetchOffsets(ctx, "IndexApacheLogsDocDB")
	if err != nil {
		t.Fatal(err)
	}
	offs.Each(func(o kadm.OffsetResponse) {
		if o.At > 0 {
			t.Errorf("%s/%d committed at %d with MongoDB down", o.Topic, o.Partition, o.At)
		}
	})
}
