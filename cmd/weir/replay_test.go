package main

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/streamtest"
	"github.com/weir-streams/weir/internal/testserver/ferretdb"
)

// replayRecords is the input of the sink replay test. FerretDB's SQLite
// backend scans the collection for every upserted _id (about 170 upserts/s
// on 2,000 documents, BENCHMARKS.md), so the cost grows with the square of
// the count; and FerretDB runs inside the test binary, race-instrumented
// under -race, where 1,000 lines took 115 s against 25 s without. The race
// run takes 400 lines.
func replayRecords() int {
	if raceEnabled {
		return 400
	}
	return 1000
}

// docdbJobFile writes a job that parses the lines of raw with SplitText and
// writes every parsed record with BulkPut (upsert, the default mode) to the
// collection weir.apache_logs of ${DOCDB_URI}. Bulks are kept at 50
// documents: a FerretDB v1.24 update command that matches about 100
// existing documents hangs (internal/testserver/ferretdb), and the replay
// rewrites existing documents.
func docdbJobFile(t *testing.T, app string, maxRate int) string {
	t.Helper()
	return parsingJob{App: app, MaxRate: maxRate,
		Services: `    - controllerService: datastore_service
      component: pkg.service.docdb.DocDBControllerService
      configuration:
        docdb.uri: ${DOCDB_URI}
        docdb.db.name: weir
        docdb.collection.name: apache_logs
        flush.interval: 100
        batch.size: 50
        docdb.bulk.mode: upsert
`,
		Processors: `      - processor: docdb_writer
        component: pkg.processor.datastore.BulkPut
        configuration:
          datastore.client.service: datastore_service
`}.write(t, "docdb.yml")
}

// inputPosition is where an input line landed.
type inputPosition struct {
	partition int32
	offset    int64
}

// parsedInputIDs reads topic back and returns, by record id, the position
// of every input line the parser can match: the documents the job must
// write. The ids are derived here from the broker's topic id, partition
// and offset (record.DeriveTopicID), not taken from the job's outputs.
func parsedInputIDs(t *testing.T, b *streamtest.Broker, topic string, n int) map[string]inputPosition {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	details, err := b.Admin().ListTopics(ctx, topic)
	if err != nil {
		t.Fatalf("list topic %s: %v", topic, err)
	}
	topicID := [16]byte(details[topic].ID)
	ids := map[string]inputPosition{}
	for _, m := range b.Consume(t, topic, n, 60*time.Second) {
		if strings.HasPrefix(string(m.Value), "not a log line") {
			continue
		}
		ids[record.DeriveTopicID(topicID, m.Topic, m.Partition, m.Offset, 0)] = inputPosition{m.Partition, m.Offset}
	}
	return ids
}

// groupCommitted returns the committed offset of group on each partition
// of topic (0 where nothing is committed).
func groupCommitted(t *testing.T, b *streamtest.Broker, group, topic string) map[int32]int64 {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	offs, err := b.Admin().FetchOffsetsForTopics(ctx, group, topic)
	if err != nil {
		t.Fatalf("fetch the offsets of group %s: %v", group, err)
	}
	out := map[int32]int64{}
	offs.Each(func(o kadm.OffsetResponse) {
		if o.Err == nil && o.At > 0 {
			out[o.Partition] = o.At
		}
	})
	return out
}

// TestDocDBReplayAfterKill9WritesEachDocumentOnce kills a weir process
// that writes parsed access-log lines to FerretDB with BulkPut, after some
// documents are written and before every input is committed, and starts a
// new process on the same group. The new process replays from the
// committed offsets, so it rewrites the documents whose offsets the dead
// one had not committed; because a document's _id is the record id, derived
// from topic, partition and offset, the replay upserts the same documents:
// the collection ends with exactly one document per parsed line.
func TestDocDBReplayAfterKill9WritesEachDocumentOnce(t *testing.T) {
	n := replayRecords()
	db := ferretdb.New(t)
	b := streamtest.StartBroker(t)
	b.CreateTopic(t, "raw", 4)
	// Every 100th line is one the parser cannot match: an error record,
	// never a document.
	lines := repeatLog(t, n)
	bad := 0
	for i := 99; i < n; i += 100 {
		lines[i] = fmt.Sprintf("not a log line %d", i)
		bad++
	}
	b.ProduceLines(t, "raw", lines)
	want := parsedInputIDs(t, b, "raw", n)
	if len(want) != n-bad {
		t.Fatalf("%d distinct ids for %d parsable inputs", len(want), n-bad)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	client, err := mongo.Connect(options.Client().ApplyURI(db.URI()))
	if err != nil {
		t.Fatalf("connect the checking client: %v", err)
	}
	t.Cleanup(func() { _ = client.Disconnect(context.Background()) })
	coll := client.Database("weir").Collection("apache_logs")

	// 4 partitions at 100 records/s: the run takes n/400 s at least, and
	// longer as the upserts slow down with the collection.
	const app = "replay-docdb"
	job := docdbJobFile(t, app, 100)
	env := []string{"BROKER_LIST=" + b.Addr, "DOCDB_URI=" + db.URI()}
	// A batch is committed as soon as its documents are acknowledged, so a
	// kill lands between a batch's writes and its commit only some of the
	// time: a process is started and killed again, on the same group, until
	// one kill leaves written documents past the committed offsets (each
	// such kill is itself a replay the final check covers).
	var (
		committed     map[int32]int64
		committedSum  int64
		written       map[string]int
		uncommitted   int
		before        int64
		killsRequired = 6
	)
	for attempt := 1; uncommitted == 0; attempt++ {
		if attempt > killsRequired {
			t.Fatalf("no kill of %d left a document written past the committed offsets (%d documents, offsets %v): no replay to show", killsRequired, len(written), committed)
		}
		proc := startWeir(t, env, "run", "--conf", job)
		target := before + int64(n/16)
		deadline := time.Now().Add(2 * time.Minute)
		for {
			c, err := coll.CountDocuments(ctx, bson.D{})
			if err == nil && c >= target {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("fewer than %d documents after 2 minutes (last count %d, error %v)", target, c, err)
			}
			time.Sleep(20 * time.Millisecond)
		}
		proc.kill9(t)

		// The dead process can commit nothing more: the documents whose
		// input offset is at or past its partition's committed offset were
		// written and not committed, and the next process must process
		// them again.
		committed = groupCommitted(t, b, app, "raw")
		committedSum = 0
		for _, o := range committed {
			committedSum += o
		}
		if committedSum >= int64(n) {
			t.Fatalf("every input was committed before the kill: the test proves nothing")
		}
		written = ferretdb.IDCounts(ctx, t, coll)
		before = int64(len(written))
		uncommitted = 0
		for id := range written {
			pos, ok := want[id]
			if !ok {
				t.Fatalf("document %s is no parsed input's record", id)
			}
			if pos.offset >= committed[pos.partition] {
				uncommitted++
			}
		}
		t.Logf("kill %d: %d documents written, %d inputs committed, %d documents past the committed offsets", attempt, len(written), committedSum, uncommitted)
	}

	startWeir(t, env, "run", "--conf", job)
	b.WaitGroupCommitted(t, app, "raw", int64(n), 3*time.Minute)

	got := ferretdb.IDCounts(ctx, t, coll)
	total := 0
	for id, c := range got {
		total += c
		if _, ok := want[id]; !ok {
			t.Errorf("document %s is no parsed input's record", id)
		}
		if c != 1 {
			t.Errorf("document %s stored %d times", id, c)
		}
	}
	missing := 0
	for id := range want {
		if got[id] == 0 {
			missing++
		}
	}
	if total != n-bad || missing != 0 {
		t.Errorf("the collection holds %d documents (%d distinct); want %d, one per parsed line (%d missing)", total, len(got), n-bad, missing)
	}
	t.Logf("killed with %d documents written and %d inputs committed (offsets %v): %d written documents were past the committed offsets and replayed; the collection ends with %d documents for %d parsed lines",
		len(written), committedSum, committed, uncommitted, total, n-bad)
}
