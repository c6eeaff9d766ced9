package searchindex_test

import (
	"strings"
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/plugins/searchindex"
	"github.com/weir-streams/weir/internal/record"
)

// TestDocumentShape: the source a record becomes: @timestamp from
// record_time, safe field names (dots, leading underscores, empty names,
// names that collide once made safe), values with their JSON types; the
// action carries the index and _id = record id.
func TestDocumentShape(t *testing.T) {
	srv := newESServer(t, nil)
	svc := startService(t, nil, map[string]string{searchindex.KeyHosts: srv.URL})
	r := record.New("rec-1", "apache_log", 1_600_000_000_000)
	r.Set("record_time", record.IntValue(1_700_000_000_123))
	r.SetString("a.b", "dotted")
	r.SetString("a_b", "plain")
	r.SetString("_id", "not the id")
	r.SetString("", "nameless")
	r.SetString("@timestamp", "replaced")
	r.Set("bytes", record.IntValue(42))
	r.Set("ratio", record.FloatValue(0.5))
	r.Set("ok", record.BoolValue(true))
	r.Set("tags", record.StringsValue([]string{"x", "y"}))
	if _, err := wait(t, process(t, newIndexer(t, svc), []*record.Record{r})); err != nil {
		t.Fatal(err)
	}
	a := srv.requests()[0].Actions[0]
	if a.Index != "apache_logs" || a.ID != "rec-1" {
		t.Fatalf("action = %s/%s, want apache_logs/rec-1", a.Index, a.ID)
	}
	want := map[string]any{
		"@timestamp": "2023-11-14T22:13:20.123Z", "record_id": "rec-1", "record_type": "apache_log",
		"record_time": float64(1_700_000_000_123), "a_b": "dotted", "a_b_2": "plain", "f_id": "not the id",
		"empty": "nameless", "bytes": float64(42), "ratio": 0.5, "ok": true,
	}
	for k, v := range want {
		if a.Source[k] != v {
			t.Errorf("source[%q] = %#v, want %#v", k, a.Source[k], v)
		}
	}
	if tags, _ := a.Source["tags"].([]any); len(tags) != 2 || tags[0] != "x" {
		t.Errorf("source tags = %#v", a.Source["tags"])
	}
	if len(a.Source) != len(want)+1 {
		t.Errorf("source has %d fields, want %d: %v", len(a.Source), len(want)+1, a.Source)
	}
}

// TestIndexNames: time-based suffixes, the index field, and a record whose
// index field is not a valid name (an error record, never sent).
func TestIndexNames(t *testing.T) {
	srv := newESServer(t, nil)
	svc := startService(t, nil, map[string]string{searchindex.KeyHosts: srv.URL})
	before := time.Now().UTC()
	for _, mode := range []string{"today", "yesterday"} {
		if _, err := wait(t, process(t, newIndexer(t, svc, searchindex.KeyTimeBased, mode), records(1))); err != nil {
			t.Fatal(err)
		}
	}
	after := time.Now().UTC()
	reqs := srv.requests()
	day := func(tm time.Time) string { return "apache_logs" + tm.Format(".2006.01.02") }
	if got := reqs[0].Actions[0].Index; got != day(before) && got != day(after) {
		t.Errorf("today's index = %s, want %s", got, day(before))
	}
	if got := reqs[1].Actions[0].Index; got != day(before.AddDate(0, 0, -1)) && got != day(after.AddDate(0, 0, -1)) {
		t.Errorf("yesterday's index = %s, want %s", got, day(before.AddDate(0, 0, -1)))
	}

	recs := records(3)
	recs[0].SetString("target", "web-logs")
	recs[1].SetString("target", "Bad Index")
	failed, err := wait(t, process(t, newIndexer(t, svc, searchindex.KeyIndexField, "target"), recs))
	if err != nil {
		t.Fatal(err)
	}
	if len(failed) != 1 || failed[0].ID != "r-1" || !strings.Contains(errorsOf(failed[0]), "upper-case") {
		t.Fatalf("failed = %v, want r-1 refused for its index name", failed)
	}
	last := srv.requests()[2]
	if len(last.Actions) != 2 || last.Actions[0].Index != "web-logs" || last.Actions[1].Index != "apache_logs" {
		t.Fatalf("indexed %+v, want r-0 into web-logs and r-2 into apache_logs", last.Actions)
	}
}

// TestBatchAndBulkSize: documents are cut into requests of at most
// batch.size documents and bulk.size bytes.
func TestBatchAndBulkSize(t *testing.T) {
	srv := newESServer(t, nil)
	svc := startService(t, nil, map[string]string{searchindex.KeyHosts: srv.URL, searchindex.KeyBatchSize: "7", searchindex.KeyFlush: "5000"})
	if _, err := wait(t, process(t, newIndexer(t, svc), records(21))); err != nil {
		t.Fatal(err)
	}
	for _, r := range srv.requests() {
		if len(r.Actions) != 7 {
			t.Fatalf("request of %d documents, want 7 (batch.size)", len(r.Actions))
		}
	}
	small := newESServer(t, nil)
	svc = startService(t, nil, map[string]string{searchindex.KeyHosts: small.URL, searchindex.KeyBulkSize: "1024"})
	if _, err := wait(t, process(t, newIndexer(t, svc), records(40))); err != nil {
		t.Fatal(err)
	}
	total := 0
	reqs := small.requests()
	for _, r := range reqs {
		if r.Size > 1024 {
			t.Fatalf("request of %d bytes (%d documents), over bulk.size 1024", r.Size, len(r.Actions))
		}
		total += len(r.Actions)
	}
	if total != 40 || len(reqs) < 40*150/1024 {
		t.Fatalf("%d documents sent in %d requests, want 40 in requests under 1,024 bytes", total, len(reqs))
	}
}
