package docdb_test

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/plugins/docdb"
	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/testserver/ferretdb"
)

// tWriter sends log lines to the test log.
type tWriter struct{ t testing.TB }

func (w tWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

func testLogger(t testing.TB) *slog.Logger {
	return slog.New(slog.NewTextHandler(tWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

// TestRealLogThroughSplitTextAndBulkPut runs the 10,000 real lines through
// SplitText and BulkPut over four concurrent partitions and checks that the
// collection then holds one document per line, with the record id as _id
// and the fields' types kept.
func TestRealLogThroughSplitTextAndBulkPut(t *testing.T) {
	srv := ferretdb.New(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	// FerretDB limit worked around: its SQLite backend finds a document by
	// _id with a scan of the whole collection, so upserts (the default
	// mode) slow down as the collection grows: 1000 upserts into an empty
	// collection take about 5 s where inserts take 0.1 s, and 10,000 would
	// take many minutes. This test of the whole log therefore uses insert
	// mode; upserts are tested on smaller collections.
	svc := startService(t, srv.URI(), "real_log", map[string]string{
		docdb.KeyBatchSize: "1000", docdb.KeyFlush: "200", docdb.KeyBulkMode: docdb.ModeInsert,
	})
	chain := []component.Processor{newSplitText(t), newBulkPut(t, svc)}

	lines := readLog(t)
	if len(lines) != 10000 {
		t.Fatalf("the real log has %d lines, want 10000", len(lines))
	}
	parseFailed, refused := runPartitions(ctx, t, chain, lines, 4, 500)
	if len(parseFailed) != 0 {
		t.Fatalf("%d lines failed to parse, first: %v", len(parseFailed), parseFailed[0])
	}
	if len(refused) != 0 {
		t.Fatalf("%d documents refused, first: %v", len(refused), refused[0])
	}

	coll := openCollection(t, srv.URI(), "real_log")
	counts := ferretdb.IDCounts(ctx, t, coll)
	want := expectedIDs(len(lines), 4)
	if len(counts) != len(want) {
		t.Fatalf("collection holds %d distinct ids, want %d", len(counts), len(want))
	}
	for id, n := range counts {
		if !want[id] || n != 1 {
			t.Fatalf("id %s: %d documents, expected id: %v", id, n, want[id])
		}
	}

	// The first line of partition 0, checked field by field with types.
	id := record.DeriveID(inputTopic, 0, 0, 0)
	var doc bson.D
	if err := coll.FindOne(ctx, bson.D{{Key: "_id", Value: id}}).Decode(&doc); err != nil {
		t.Fatalf("find the first line's document: %v", err)
	}
	m := map[string]any{}
	for _, e := range doc {
		m[e.Key] = e.Value
	}
	if m["record_id"] != id || m["record_type"] != "apache_log" || m["record_value"] != lines[0] {
		t.Fatalf("technical fields of %s: %v", id, doc)
	}
	if _, ok := m["record_time"].(int64); !ok {
		t.Fatalf("record_time is %T (%v), want an int64", m["record_time"], m["record_time"])
	}
	for _, f := range strings.Split(apacheFields, ",") {
		if f == "record_time" || (f == "http_version" && m[f] == nil) {
			continue
		}
		if _, ok := m[f].(string); !ok {
			t.Fatalf("field %s is %T (%v), want a string", f, m[f], m[f])
		}
	}
	if doc[0].Key != "_id" {
		t.Fatalf("first key is %q, want _id", doc[0].Key)
	}
}
