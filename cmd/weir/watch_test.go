package main

import (
	"context"
	"os"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/streamtest"
)

// TestRunWatchSwapsTheChainOnFileChange: with --watch, an edit of a
// processor in the job file swaps the stream's chain in the running
// process without leaving the consumer group (the group's member stays the
// same), and a broken file keeps the running chain and says why.
func TestRunWatchSwapsTheChainOnFileChange(t *testing.T) {
	b := streamtest.StartBroker(t)
	b.CreateTopic(t, "raw", 2)
	path := jobFile(t, "watch-app", 0)
	job, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p := startWeir(t, []string{"BROKER_LIST=" + b.Addr}, "run", "--conf", path, "--watch")
	lines := streamtest.AccessLogLines(t)
	b.ProduceLines(t, "raw", lines[:20])
	for _, r := range streamtest.Decode(t, b.Consume(t, "events", 20, 60*time.Second)) {
		if r.Type != "apache_log" {
			t.Fatalf("record of type %q before the edit", r.Type)
		}
	}
	members := groupMembers(t, b, "watch-app")

	// waitLog waits until the process has logged want n times.
	waitLog := func(want string, n int) {
		t.Helper()
		deadline := time.Now().Add(60 * time.Second)
		for strings.Count(p.output(), want) < n {
			if time.Now().After(deadline) {
				t.Fatalf("no %q logged within 60 s:\n%s", want, p.output())
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	write := func(content string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	write(strings.Replace(string(job), "record.type: apache_log", "record.type: apache_log_v2", 1))
	waitLog("change=pipeline", 1)
	b.ProduceLines(t, "raw", lines[20:40])
	checkTypes(t, streamtest.Decode(t, b.Consume(t, "events", 40, 60*time.Second)), lines[:20], lines[20:40], "apache_log_v2")
	if strings.Contains(p.output(), "change=dataflow") {
		t.Errorf("a pipeline edit restarted the dataflow:\n%s", p.output())
	}
	if after := groupMembers(t, b, "watch-app"); !slices.Equal(after, members) {
		t.Errorf("the group's members changed from %v to %v: the stream left the group", members, after)
	}

	// A broken file: refused, the running chain goes on.
	write(strings.Replace(string(job), "value.regex:", "value.regx:", 1))
	waitLog("job file refused; the running job goes on unchanged", 1)
	if !strings.Contains(p.output(), `did you mean \"value.regex\"?`) && !strings.Contains(p.output(), `did you mean "value.regex"?`) {
		t.Errorf("the refusal does not say why:\n%s", p.output())
	}
	b.ProduceLines(t, "raw", lines[40:50])
	checkTypes(t, streamtest.Decode(t, b.Consume(t, "events", 50, 60*time.Second)), lines[:40], lines[40:50], "apache_log_v2")
}

// groupMembers returns the member ids of a consumer group, sorted.
func groupMembers(t *testing.T, b *streamtest.Broker, group string) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	described, err := b.Admin().DescribeGroups(ctx, group)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, m := range described[group].Members {
		ids = append(ids, m.MemberID)
	}
	slices.Sort(ids)
	if len(ids) == 0 {
		t.Fatalf("group %s has no member", group)
	}
	return ids
}

// TestSIGHUPAppliesTheJobFileOnce: without --watch, an edit waits for
// SIGHUP, which applies it once.
func TestSIGHUPAppliesTheJobFileOnce(t *testing.T) {
	b := streamtest.StartBroker(t)
	b.CreateTopic(t, "raw", 2)
	path := jobFile(t, "hup-app", 0)
	job, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p := startWeir(t, []string{"BROKER_LIST=" + b.Addr}, "run", "--conf", path)
	lines := streamtest.AccessLogLines(t)
	b.ProduceLines(t, "raw", lines[:10])
	b.Consume(t, "events", 10, 60*time.Second)
	if err := os.WriteFile(path, []byte(strings.Replace(string(job), "record.type: apache_log", "record.type: apache_log_v2", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	// Without the signal the edit is not applied: the records fed after
	// it keep the running type.
	b.ProduceLines(t, "raw", lines[10:20])
	checkTypes(t, streamtest.Decode(t, b.Consume(t, "events", 20, 60*time.Second)), lines[:10], lines[10:20], "apache_log")
	if err := p.cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for !strings.Contains(p.output(), "change=pipeline") {
		if time.Now().After(deadline) {
			t.Fatalf("SIGHUP applied nothing within 60 s:\n%s", p.output())
		}
		time.Sleep(50 * time.Millisecond)
	}
	b.ProduceLines(t, "raw", lines[20:30])
	checkTypes(t, streamtest.Decode(t, b.Consume(t, "events", 30, 60*time.Second)), lines[:20], lines[20:30], "apache_log_v2")
}

// checkTypes checks that every record of a line of fresh (and not of
// earlier, records of two partitions come in no global order) has type
// want.
func checkTypes(t *testing.T, recs []*record.Record, earlier, fresh []string, want string) {
	t.Helper()
	seen := 0
	for _, r := range recs {
		v, _ := r.GetString(record.FieldValue)
		if !slices.Contains(fresh, v) || slices.Contains(earlier, v) {
			continue
		}
		seen++
		if r.Type != want {
			t.Fatalf("record of type %q, want %q: %s", r.Type, want, v)
		}
	}
	if seen == 0 {
		t.Fatal("no record of the lines fed last")
	}
}
