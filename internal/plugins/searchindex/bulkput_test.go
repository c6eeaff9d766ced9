package searchindex_test

import (
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/plugins/docdb"
	"github.com/weir-streams/weir/internal/plugins/searchindex"
	"github.com/weir-streams/weir/internal/record"
)

// TestBulkPutLogIslandKeys runs BulkPut with the keys of LogIsland's
// index-apache-logs-es.yml (default.collection, default.type,
// timebased.collection yesterday, collection.field, type.field) on the
// search-index service: each document goes to the record's collection
// field when it has one, else to default.collection, with yesterday's
// day; no type is sent.
func TestBulkPutLogIslandKeys(t *testing.T) {
	srv := newESServer(t, func(int, []action) (int, map[string]string, []int) { return 0, nil, nil })
	svc := startService(t, nil, map[string]string{searchindex.KeyHosts: srv.URL})
	spec := docdb.BulkPutSpec()
	conf, probs := component.NewConfig(&spec, map[string]string{
		docdb.KeyService: "search_service", "default.collection": "logisland", "default.type": "event",
		"timebased.collection": "yesterday", "collection.field": "search_index", "type.field": "record_type",
	})
	if err := probs.Err(); err != nil {
		t.Fatal(err)
	}
	p, err := spec.NewProcessor(conf, testEnv(t, "es_publisher", prometheus.NewRegistry(), services{"search_service": svc}))
	if err != nil {
		t.Fatal(err)
	}
	recs := records(3)
	recs[1].Set("search_index", record.StringValue("other"))
	yesterday := func() string { return time.Now().UTC().AddDate(0, 0, -1).Format("2006.01.02") }
	before := yesterday()
	if failed, err := wait(t, process(t, p, recs)); err != nil || len(failed) != 0 {
		t.Fatalf("failed %v, %v", failed, err)
	}
	after := yesterday()
	got := map[string]string{}
	for _, r := range srv.requests() {
		for _, a := range r.Actions {
			got[a.ID] = a.Index
		}
	}
	// Midnight may pass while the batch is written: yesterday is read
	// before and after.
	want := map[string]string{"r-0": "logisland.", "r-1": "other.", "r-2": "logisland."}
	for id, prefix := range want {
		if got[id] != prefix+before && got[id] != prefix+after {
			t.Errorf("%s went to %q, want %s%s", id, got[id], prefix, before)
		}
	}
}
