package alerting_test

import (
	"context"
	"regexp"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/weir-streams/weir/internal/config"
	"github.com/weir-streams/weir/internal/plugins/all"
	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/serialize"
	"github.com/weir-streams/weir/internal/streamtest"
	redisserver "github.com/weir-streams/weir/internal/testserver/redis"
)

// TestThresholdAlertingJob runs LogIsland's threshold-alerting.yml as it
// ships (prefix changed, testdata/README.md) on an in-process Kafka broker
// and a real redis-server, fed the 10,000 real access-log lines.
//
// The job's formulas read the record of client 204.138.95.105, which the
// log does not hold; the test stores one whose record_value is 9000 bytes
// before the job starts, as an earlier run of the parsing stream would
// have. Then ComputeTags adds computed1 = 9000 * 10.2 = 91800 to each batch
// of the parsing stream, BulkPut writes every record into Redis under its
// id (the client address, by ModifyId), CheckThresholds opens threshold1
// (9000 > 2000), and CheckAlerts raises alert1 once computed1 > 80000 and
// threshold1 is older than 50 ms.
func TestThresholdAlertingJob(t *testing.T) {
	srv := redisserver.New(t)
	ctx := context.Background()
	rdb := goredis.NewClient(&goredis.Options{Addr: srv.Addr()})
	defer rdb.Close()
	seed := record.New("204.138.95.105", "apache_log", 0)
	seed.Set(record.FieldValue, record.FloatValue(9000))
	if err := rdb.Set(ctx, seed.ID, string(serialize.AppendRecordJSON(nil, seed)), 0).Err(); err != nil {
		t.Fatal(err)
	}

	b := streamtest.StartBroker(t)
	b.CreateTopic(t, "logisland_raw", 4)
	lines := streamtest.AccessLogLines(t)
	t.Setenv("KAFKA_BROKERS", b.Addr)
	t.Setenv("ZK_QUORUM", "")
	t.Setenv("REDIS_CONNECTION", srv.Addr())
	checked, err := config.LoadChecked("testdata/threshold-alerting.yml", config.DefaultMaxJobBytes, all.NewRegistry())
	if err != nil {
		t.Fatal(err)
	}
	set := checked.Engine
	set.UIPort = -1
	streamtest.StartEngine(t, set, checked.Job.DataFlow)
	b.ProduceLines(t, "logisland_raw", lines)

	// Every line the job's parser reads is an event, keyed by its client;
	// the others are error records.
	re := regexp.MustCompile(`^(?:` + streamtest.ApacheRegex + `)`)
	parsed := 0
	clients := map[string]bool{}
	for _, l := range lines {
		if m := re.FindStringSubmatch(l); m != nil {
			parsed++
			clients[m[1]] = true
		}
	}
	b.WaitCount(t, "logisland_errors", int64(len(lines)-parsed), 90*time.Second)
	var events, tags int
	waitFor(t, func() bool {
		events, tags = 0, 0
		for _, r := range streamtest.Decode(t, b.Consume(t, "logisland_events", int(b.Count(t, "logisland_events")), 30*time.Second)) {
			switch r.ID {
			case "computed1":
				tags++
				if v, _ := r.Get(record.FieldValue); v.Text() != "91800" || r.Type != "computed_tag" {
					t.Errorf("computed1: %v", r)
				}
			default:
				events++
			}
		}
		return events >= parsed
	})
	if events != parsed {
		t.Fatalf("%d events, want %d", events, parsed)
	}
	// A threshold opened by the first alerting batches; one more line,
	// produced once threshold1 is older than 50 ms, makes a batch of each
	// stream that raises the alert.
	waitFor(t, func() bool { return rdb.Exists(ctx, "threshold1").Val() == 1 })
	time.Sleep(100 * time.Millisecond) // threshold1's age must pass 50 ms: a condition of the job, not an assertion
	b.ProduceLines(t, "logisland_raw", lines[:1])
	var thresholds, alerts int
	deadline := time.Now().Add(90 * time.Second)
	for alerts == 0 && time.Now().Before(deadline) {
		thresholds, alerts = 0, 0
		for _, r := range streamtest.Decode(t, b.Consume(t, "logisland_alerts", int(b.Count(t, "logisland_alerts")), 30*time.Second)) {
			switch {
			case r.ID == "threshold1" && r.Type == "threshold_cross":
				thresholds++
			case r.ID == "alert1" && r.Type == "medium_alert":
				alerts++
				if v, _ := r.GetString(record.FieldValue); v != `cache("threshold1").duration > 50.0` {
					t.Errorf("alert1 record_value %q", v)
				}
			}
		}
		if alerts == 0 {
			time.Sleep(50 * time.Millisecond)
		}
	}
	if tags == 0 || thresholds == 0 || alerts == 0 {
		t.Fatalf("%d events, %d computed tags, %d threshold crossings, %d alerts: want at least one of each tag, crossing and alert", events, tags, thresholds, alerts)
	}
	// BulkPut stored every client's record, the tag and the threshold.
	for _, key := range []string{"204.138.95.105", "computed1", "threshold1", "alert1"} {
		if rdb.Exists(ctx, key).Val() != 1 {
			t.Errorf("Redis has no %s", key)
		}
	}
	for ip := range clients {
		if rdb.Exists(ctx, ip).Val() != 1 {
			t.Fatalf("Redis has no record of client %s", ip)
		}
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within 90 s")
		}
		time.Sleep(20 * time.Millisecond)
	}
}
