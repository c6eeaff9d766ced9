package installer

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/dataflow"
	"github.com/weir-streams/weir/internal/engine"
	"github.com/weir-streams/weir/internal/pluginrpc"
	"github.com/weir-streams/weir/internal/plugins/all"
	"github.com/weir-streams/weir/internal/streamtest"
)

// TestPluginHangTimesOut runs a plugin that never answers a batch holding
// its marker: with plugin.timeout.ms the call expires (2 s: a process
// starved of CPU on a loaded machine must not time out an ordinary batch), that batch becomes
// error records that say why, the hung process is killed and a new one
// started, and the records after it go through: nothing is lost and the
// partition does not stall.
func TestPluginHangTimesOut(t *testing.T) {
	repo := newTestRepo(t)
	c := Coordinates{Group: "com.example.hang", Artifact: testArtifact, Version: "1.0.0"}
	repo.publish(t, c, hangPlugin, false)
	o := repo.options(t, repo.fileURL())
	e := mustInstall(t, o, c)
	reg := all.NewRegistry()
	if err := RegisterInstalled(reg, o.Home, testLogger(t)); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(o.Home, filepath.FromSlash(e.Binary))

	lines := streamtest.AccessLogLines(t)[:400]
	const marker = "HANG-ME"
	b := streamtest.StartBroker(t)
	b.CreateTopic(t, "raw", 1)
	s := streamtest.Stream("hanging", b.Addr, "raw", "events", "errors")
	s.Pipeline = dataflow.Pipeline{Processors: []dataflow.Component{
		streamtest.Processor("hang", "com.example.test.HangOnMarker", "hang.marker", marker, pluginrpc.TimeoutKey, "2000"),
	}}
	t0 := time.Unix(1000, 0)
	startEngine(t, reg, engine.Settings{}, &dataflow.DataFlow{LastModified: t0, Streams: []dataflow.Stream{s}})
	first := waitPIDs(t, bin, 1)[0]

	// Before, the hanging record alone, after: produced in three steps so
	// that the hung batch holds the marker only.
	b.ProduceLines(t, "raw", lines[:200])
	b.WaitCount(t, "events", 200, 60*time.Second)
	hung := fmt.Sprintf("10.0.0.1 - - [17/May/2015:10:05:03 +0000] \"GET /%s HTTP/1.1\" 200 1 \"-\" \"-\"", marker)
	b.ProduceLines(t, "raw", []string{hung})
	b.WaitCount(t, "errors", 1, 60*time.Second)
	b.ProduceLines(t, "raw", lines[200:])
	waitTotal(t, b, int64(len(lines)+1))

	events := streamtest.Decode(t, b.Consume(t, "events", int(b.Count(t, "events")), 60*time.Second))
	errs := streamtest.Decode(t, b.Consume(t, "errors", int(b.Count(t, "errors")), 60*time.Second))
	if len(events) != len(lines) || len(errs) != 1 {
		t.Fatalf("%d events and %d error records, want %d and 1", len(events), len(errs), len(lines))
	}
	for _, r := range events {
		if v, _ := r.GetString("hang_checked"); v != "true" {
			t.Fatalf("event %s did not go through the plugin: %s", r.ID, r)
		}
	}
	if v, _ := errs[0].GetString("record_value"); v != hung {
		t.Fatalf("error record holds %q, want the hanging line", v)
	}
	if why := strings.Join(errs[0].Errors(), ";"); !strings.Contains(why, "did not answer within 2s") || !strings.Contains(why, pluginrpc.TimeoutKey) {
		t.Fatalf("error record says %q, want the timeout", why)
	}
	if err := waitExited(first); err != nil {
		t.Fatalf("the hung plugin was not killed: %v", err)
	}
	if now := waitPIDs(t, bin, 1)[0]; now == first {
		t.Fatalf("the plugin was not restarted: pid %d", now)
	}
}
