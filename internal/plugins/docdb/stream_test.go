package docdb_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/weir-streams/weir/internal/config"
	"github.com/weir-streams/weir/internal/engine"
	"github.com/weir-streams/weir/internal/streamtest"
	"github.com/weir-streams/weir/internal/testserver/ferretdb"
)

// TestSampleJobEndToEnd runs conf/index-apache-logs-docdb.yml through the
// engine on an in-process Kafka broker and FerretDB, feeds it the 10,000
// real lines, and checks that pipeline_events and the collection each hold
// every record once, with nothing on pipeline_errors.
//
// FerretDB limit worked around: the job's bulk mode is switched to insert
// (SQLite upserts scan the collection for each _id, so 10,000 would take
// minutes) and its flush interval to 100 ms to keep the test short.
func TestSampleJobEndToEnd(t *testing.T) {
	srv := ferretdb.New(t)
	broker := streamtest.StartBroker(t)
	broker.CreateTopic(t, "pipeline_raw", 4)

	data := string(sampleJob(t))
	data = strings.Replace(data, "docdb.bulk.mode: upsert", "docdb.bulk.mode: insert", 1)
	data = strings.Replace(data, "flush.interval: 2000", "flush.interval: 100", 1)
	job, err := config.Parse([]byte(data), time.Now(), env(map[string]string{"DOCDB_URI": srv.URI(), "BROKER_LIST": broker.Addr}))
	if err != nil {
		t.Fatalf("parse the sample job: %v", err)
	}
	if _, err := config.Check(job, streamtest.Registry()); err != nil {
		t.Fatalf("validate the sample job: %v", err)
	}
	streamtest.StartEngine(t, engine.Settings{UIPort: -1}, job.DataFlow)

	lines := readLog(t)
	broker.ProduceLines(t, "pipeline_raw", lines)
	broker.WaitCount(t, "pipeline_events", int64(len(lines)), 5*time.Minute)

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	coll := openCollectionIn(t, srv.URI(), "weir", "apache_logs")
	waitFor(ctx, t, "every document", func() bool {
		n, err := coll.CountDocuments(ctx, bson.D{})
		return err == nil && n >= int64(len(lines))
	})

	events := streamtest.Decode(t, broker.Consume(t, "pipeline_events", len(lines), time.Minute))
	want := map[string]bool{}
	for _, r := range events {
		want[r.ID] = true
	}
	if len(want) != len(lines) {
		t.Fatalf("pipeline_events holds %d distinct records, want %d", len(want), len(lines))
	}
	got := ferretdb.IDCounts(ctx, t, coll)
	if len(got) != len(want) {
		t.Fatalf("collection holds %d distinct ids, want %d", len(got), len(want))
	}
	for id, n := range got {
		if !want[id] || n != 1 {
			t.Fatalf("document %s: %d copies, in pipeline_events: %v", id, n, want[id])
		}
	}
	if n := broker.Count(t, "pipeline_errors"); n != 0 {
		t.Fatalf("pipeline_errors holds %d records, want none", n)
	}
}
