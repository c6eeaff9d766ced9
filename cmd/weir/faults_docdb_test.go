package main

import (
	"context"
	"fmt"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/weir-streams/weir/internal/streamtest"
	"github.com/weir-streams/weir/internal/testserver/ferretdb"
	"github.com/weir-streams/weir/internal/testserver/toxi"
)

// faultDocDBRecords is the input of the MongoDB fault tests: FerretDB's
// SQLite backend upserts about 170 documents a second and runs in the test
// binary (replayRecords), so the run stays in the hundreds of lines.
func faultDocDBRecords() int {
	if longFaults() {
		return 2000
	}
	return replayRecords()
}

// TestFaultDocDB runs the parsing job with BulkPut to FerretDB behind
// Toxiproxy, applies one fault to the MongoDB link in the middle of the
// run and removes it: every parsed line ends as exactly one document (the
// record id is the _id, so a retried bulk rewrites the same documents),
// every input is committed and /readyz is ready again.
//
// docdb.write.timeout is 2 s: a blackhole drops the bulk in flight, and
// the writer abandons and retries an attempt after that timeout (60 s by
// default).
func TestFaultDocDB(t *testing.T) {
	faults := []struct {
		name   string
		blocks bool // the link carries nothing while the fault lasts
		apply  func(t *testing.T, p *toxi.Proxy) func()
	}{
		{"latency", false, func(t *testing.T, p *toxi.Proxy) func() { f := p.Latency(t, 1000, 250); return func() { f.Remove(t) } }},
		{"bandwidth", false, func(t *testing.T, p *toxi.Proxy) func() { f := p.Bandwidth(t, 10); return func() { f.Remove(t) } }},
		{"reset_peer", false, func(t *testing.T, p *toxi.Proxy) func() { f := p.ResetPeer(t, 100); return func() { f.Remove(t) } }},
		{"blackhole", true, func(t *testing.T, p *toxi.Proxy) func() { f := p.Blackhole(t); return func() { f.Remove(t) } }},
		{"partition", true, func(t *testing.T, p *toxi.Proxy) func() { p.Disable(t); return func() { p.Enable(t) } }},
		{"slow_close", false, func(t *testing.T, p *toxi.Proxy) func() { f := p.SlowClose(t, 3000); return func() { f.Remove(t) } }},
	}
	for _, fc := range faults {
		t.Run(fc.name, func(t *testing.T) { docdbFault(t, fc.blocks, fc.apply) })
	}
}

func docdbFault(t *testing.T, blocks bool, apply func(t *testing.T, p *toxi.Proxy) func()) {
	n := faultDocDBRecords()
	db := ferretdb.New(t)
	proxy := toxi.New(t).Proxy(t, "docdb", db.Addr())
	b := streamtest.StartBroker(t)
	b.CreateTopic(t, "raw", 4)
	lines := repeatLog(t, n)
	b.ProduceLines(t, "raw", lines)
	want := parsedInputIDs(t, b, "raw", n)

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	// The checking client talks to FerretDB directly, past the proxy.
	client, err := mongo.Connect(options.Client().ApplyURI(db.URI()))
	if err != nil {
		t.Fatalf("connect the checking client: %v", err)
	}
	t.Cleanup(func() { _ = client.Disconnect(context.Background()) })
	coll := client.Database("weir").Collection("apache_logs")

	const app = "fault-docdb"
	job := parsingJob{App: app, MaxRate: 100,
		Services: `    - controllerService: datastore_service
      component: pkg.service.docdb.DocDBControllerService
      configuration:
        docdb.uri: ${DOCDB_URI}
        docdb.db.name: weir
        docdb.collection.name: apache_logs
        flush.interval: 100
        batch.size: 50
        docdb.write.timeout: 2000
`,
		Processors: `      - processor: docdb_writer
        component: pkg.processor.datastore.BulkPut
        configuration:
          datastore.client.service: datastore_service
`}
	_, base := startWithStatus(t, job, "BROKER_LIST="+b.Addr, fmt.Sprintf("DOCDB_URI=mongodb://%s/", proxy.Addr()))

	deadline := time.Now().Add(2 * time.Minute)
	for {
		c, err := coll.CountDocuments(ctx, bson.D{})
		if err == nil && c >= int64(n/4) {
			if c >= int64(n) {
				t.Fatalf("the run finished (%d documents) before the fault: the test proves nothing", c)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("fewer than %d documents after 2 minutes (last count %d, error %v)", n/4, c, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	heal := apply(t, proxy)
	time.Sleep(faultHold())
	if blocks {
		// The batch waits for BulkPut's acknowledgement, so a link that
		// carries nothing stalls the stream.
		expectNotReady(t, base)
	}
	heal()

	b.WaitGroupCommitted(t, app, "raw", int64(n), 5*time.Minute)
	got := ferretdb.IDCounts(ctx, t, coll)
	total, missing := 0, 0
	for id, c := range got {
		total += c
		if _, ok := want[id]; !ok {
			t.Errorf("document %s is no parsed input's record", id)
		}
		if c != 1 {
			t.Errorf("document %s stored %d times", id, c)
		}
	}
	for id := range want {
		if got[id] == 0 {
			missing++
		}
	}
	if total != len(want) || missing != 0 {
		t.Errorf("the collection holds %d documents (%d distinct); want %d, one per parsed line (%d missing)", total, len(got), len(want), missing)
	}
	if errs := b.Count(t, "errors"); errs != 0 {
		t.Errorf("%d error records", errs)
	}
	waitReady(t, base, 60*time.Second)
	t.Logf("%d documents for %d parsed lines", total, len(want))
}
