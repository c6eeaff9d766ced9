package docdb_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/weir-streams/weir/internal/config"
	"github.com/weir-streams/weir/internal/engine"
	"github.com/weir-streams/weir/internal/streamtest"
	"github.com/weir-streams/weir/internal/testserver/ferretdb"
)

// TestLogIslandMongoJobEndToEnd runs LogIsland's own
// index-apache-logs-mongo.yml (testdata/logisland, prefix changed, its
// KryoSerializer output replaced by JsonSerializer) on an in-process Kafka
// broker and FerretDB, fed the 10,000 real lines: its
// MongoDBControllerService (mongo.* keys) is the document-database
// service, and every line its SplitText parses is one document of
// logisland.apache and one record of logisland_events; the others are
// error records.
func TestLogIslandMongoJobEndToEnd(t *testing.T) {
	srv := ferretdb.New(t)
	broker := streamtest.StartBroker(t)
	broker.CreateTopic(t, "logisland_raw", 4)

	data, err := os.ReadFile(filepath.Join(streamtest.Root(), "testdata", "logisland", "conf", "index-apache-logs-mongo.yml"))
	if err != nil {
		t.Fatal(err)
	}
	s := strings.ReplaceAll(string(data), "com.hurence.logisland", "pkg")
	s = strings.ReplaceAll(s, "pkg.serializer.KryoSerializer", "pkg.serializer.JsonSerializer")
	job, err := config.Parse([]byte(s), time.Now(), env(map[string]string{"MONGO_URI": srv.URI(), "KAFKA_BROKERS": broker.Addr, "ZK_QUORUM": ""}))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	if _, err := config.Check(job, streamtest.Registry()); err != nil {
		t.Fatalf("validate: %v", err)
	}
	streamtest.StartEngine(t, engine.Settings{UIPort: -1}, job.DataFlow)

	lines := readLog(t)
	re := regexp.MustCompile(`^(\S+)\s+(\S+)\s+(\S+)\s+\[([\w:\/]+\s[+\-]\d{4})\]\s+"(\S+)\s+(\S+)\s*(\S*)"\s+(\S+)\s+(\S+)`)
	parsed := 0
	for _, l := range lines {
		if re.MatchString(l) {
			parsed++
		}
	}
	if parsed < 9000 {
		t.Fatalf("only %d of %d lines match the job's expression", parsed, len(lines))
	}
	broker.ProduceLines(t, "logisland_raw", lines)
	broker.WaitCount(t, "logisland_events", int64(parsed), 5*time.Minute)
	broker.WaitCount(t, "logisland_errors", int64(len(lines)-parsed), time.Minute)

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	coll := openCollectionIn(t, srv.URI(), "logisland", "apache")
	waitFor(ctx, t, "every parsed line as a document", func() bool {
		n, err := coll.CountDocuments(ctx, bson.D{})
		return err == nil && n >= int64(parsed)
	})
	if n, err := coll.CountDocuments(ctx, bson.D{}); err != nil || n != int64(parsed) {
		t.Fatalf("%d documents (%v), want %d", n, err, parsed)
	}
	var doc bson.M
	if err := coll.FindOne(ctx, bson.D{{Key: "src_ip", Value: "83.149.9.216"}}).Decode(&doc); err != nil {
		t.Fatalf("no document of 83.149.9.216: %v", err)
	}
	if doc["record_type"] != "apache_log" || doc["http_method"] == nil {
		t.Errorf("document %v", doc)
	}
}
