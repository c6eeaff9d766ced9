package config_test

import (
	"net/netip"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/config"
	"github.com/weir-streams/weir/internal/plugins/all"
	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/streamtest"
)

// TestLogIslandJobFromItsResourcesRuns runs conf/logisland-threshold-alerting.yml,
// LogIsland's own threshold-alerting job with only the package prefix
// changed (and the processors Weir lacks left out), on a Kafka broker of the
// test's own (kfake) over the 10,000 real log lines. The engine's settings
// come from its spark.* keys, the streams' from its kafka.* keys: every line
// the parser reads becomes one record keyed by its client address in
// logisland_events, and the second stream reads those back as JSON and
// writes each to logisland_alerts.
func TestLogIslandJobFromItsResourcesRuns(t *testing.T) {
	b := streamtest.StartBroker(t)
	b.CreateTopic(t, "logisland_raw", 4)
	lines := streamtest.AccessLogLines(t)
	b.ProduceLines(t, "logisland_raw", lines)
	t.Setenv("KAFKA_BROKERS", b.Addr)
	// The job's coordinator quorum: read and never dialed (Weir needs no
	// ZooKeeper), so empty, as weir test's job file sets it.
	t.Setenv("ZK_QUORUM", "")
	checked, err := config.LoadChecked(filepath.Join(streamtest.Root(), "conf", "logisland-threshold-alerting.yml"), config.DefaultMaxJobBytes, all.NewRegistry())
	if err != nil {
		t.Fatal(err)
	}
	set := checked.Engine
	if set.AppName != "ThresholdAlerting" || set.Workers != 1 || set.BatchInterval != 300*time.Millisecond || set.MaxRate != 3000 || set.UIPort != 4050 || set.MemoryLimit != 1<<30 {
		t.Errorf("settings from spark.* keys: %+v", set)
	}
	if !slices.Contains(checked.Job.Ignored, "engine.configuration.spark.executor.memory") || len(checked.Job.Ignored) != 10 {
		t.Errorf("ignored keys %q, want the 10 Spark-only keys of the file", checked.Job.Ignored)
	}

	re := regexp.MustCompile(`^(?:` + streamtest.ApacheRegex + `)`)
	parsed := 0
	for _, l := range lines {
		if re.MatchString(l) {
			parsed++
		}
	}
	if parsed < 9000 {
		t.Fatalf("only %d of %d lines match the parser's expression", parsed, len(lines))
	}
	set.UIPort = -1 // the status server is app's; the engine alone is run here
	streamtest.StartEngine(t, set, checked.Job.DataFlow)
	events := streamtest.Decode(t, b.Consume(t, "logisland_events", parsed, 90*time.Second))
	alerts := streamtest.Decode(t, b.Consume(t, "logisland_alerts", parsed, 90*time.Second))
	if len(events) != parsed || len(alerts) != parsed {
		t.Fatalf("%d events and %d alerts, want %d each", len(events), len(alerts), parsed)
	}
	ids := map[string]int{}
	for _, r := range events {
		if _, err := netip.ParseAddr(r.ID); err != nil {
			t.Fatalf("event id %q is not the client address", r.ID)
		}
		for _, gone := range []string{"src_ip", "bytes_out", "http_status", "http_query"} {
			if r.Has(gone) {
				t.Fatalf("%s was not removed: %v", gone, r)
			}
		}
		if r.Type != "apache_log" {
			t.Fatalf("record type %q, want apache_log", r.Type)
		}
		v, _ := r.Get(record.FieldValue)
		if k := v.Kind(); k != record.Float && k != record.Int && v.Text() != "-" {
			t.Fatalf("record_value %s %s is neither the size nor Apache's -", k, v)
		}
		ids[r.ID]++
	}
	for _, r := range alerts {
		ids[r.ID]--
	}
	for id, n := range ids {
		if n != 0 {
			t.Fatalf("client %s: %d more events than alerts", id, n)
		}
	}
	if n := b.Count(t, "logisland_errors"); n != int64(len(lines)-parsed) {
		t.Errorf("%d error records, want %d (the lines the parser refuses)", n, len(lines)-parsed)
	}
}
