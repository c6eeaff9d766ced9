package searchindex_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/config"
	"github.com/weir-streams/weir/internal/dataflow"
	"github.com/weir-streams/weir/internal/engine"
	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/streamtest"
	"github.com/weir-streams/weir/internal/testserver/zinc"
)

// sampleJob parses conf/index-apache-logs-searchindex.yml as it is, with
// the hosts of srv and the broker's address.
func sampleJob(t *testing.T, srv *zinc.Server, broker string) *dataflow.DataFlow {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(streamtest.Root(), "conf", "index-apache-logs-searchindex.yml"))
	if err != nil {
		t.Fatalf("read the sample job: %v", err)
	}
	vars := map[string]string{"SEARCH_HOSTS": srv.ESURL(), "SEARCH_USER": zinc.User, "SEARCH_PASSWORD": zinc.Password, "BROKER_LIST": broker}
	job, err := config.Parse(data, time.Now(), func(k string) (string, bool) { v, ok := vars[k]; return v, ok })
	if err != nil {
		t.Fatalf("parse the sample job: %v", err)
	}
	if _, err := config.Check(job, streamtest.Registry()); err != nil {
		t.Fatalf("validate the sample job: %v", err)
	}
	return job.DataFlow
}

// waitIDs polls ZincSearch until the index holds want distinct ids (it
// indexes from its write-ahead log in the background) and returns the
// count of each id.
func waitIDs(t *testing.T, srv *zinc.Server, index string, want int) map[string]int {
	t.Helper()
	deadline := time.Now().Add(5 * time.Minute)
	for {
		ids, err := srv.IDs(index)
		if err == nil && len(ids) >= want {
			// Every document once: as many documents as distinct ids.
			n, err := srv.Count(index)
			if err != nil || n != len(ids) {
				t.Fatalf("index %s holds %d documents for %d distinct ids (%v)", index, n, len(ids), err)
			}
			return ids
		}
		if time.Now().After(deadline) {
			t.Fatalf("index %s holds %d ids (%v), want %d", index, len(ids), err, want)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// yesterdayIndexIDs waits until LogIsland's time-based index of yesterday
// (logisland.YYYY.MM.DD, timebased.index: yesterday), named by the date
// before when the lines were fed, holds want distinct ids. If the UTC day
// turned while they were indexed, the documents are split between that index
// and the next day's: the ids of both are counted together, each document
// once, so the test holds at midnight too. It returns the count of each id
// and the index that holds it.
func yesterdayIndexIDs(t *testing.T, srv *zinc.Server, before string, want int) (map[string]int, map[string]string) {
	t.Helper()
	first := "logisland." + before
	after := "logisland." + time.Now().UTC().AddDate(0, 0, -1).Format("2006.01.02")
	where := map[string]string{}
	if after == first {
		ids := waitIDs(t, srv, first, want)
		for id := range ids {
			where[id] = first
		}
		return ids, where
	}
	deadline := time.Now().Add(5 * time.Minute)
	for {
		ids := map[string]int{}
		for _, index := range []string{first, after} {
			got, err := srv.IDs(index)
			if err != nil {
				continue // not created (yet): no document went there
			}
			for id, n := range got {
				ids[id] += n
				where[id] = index
			}
		}
		if len(ids) >= want {
			docs := 0
			for _, index := range []string{first, after} {
				if n, err := srv.Count(index); err == nil {
					docs += n
				}
			}
			if docs != len(ids) {
				t.Fatalf("indexes %s and %s hold %d documents for %d distinct ids", first, after, docs, len(ids))
			}
			return ids, where
		}
		if time.Now().After(deadline) {
			t.Fatalf("indexes %s and %s hold %d ids, want %d", first, after, len(ids), want)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// waitFirstIDs waits until the index holds some documents, while indexing
// goes on (so without waitIDs' documents-per-id check, which a count taken
// after the ids would fail).
func waitFirstIDs(t *testing.T, srv *zinc.Server, index string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Minute)
	for {
		if ids, err := srv.IDs(index); err == nil && len(ids) > 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("index %s holds no document", index)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// checkDocuments fetches every record of events by _id and compares its
// fields.
func checkDocuments(t *testing.T, srv *zinc.Server, events []*record.Record) {
	t.Helper()
	for _, r := range events {
		doc, found, err := srv.Get("apache_logs", r.ID)
		if err != nil || !found {
			t.Fatalf("document %s: found %v, %v", r.ID, found, err)
		}
		for _, f := range []string{"src_ip", "http_method", "http_query", "http_status", "bytes_out", "record_id", "record_type"} {
			v, _ := r.GetString(f)
			if doc[f] != v {
				t.Fatalf("document %s: %s = %v, record has %q", r.ID, f, doc[f], v)
			}
		}
		rt, _ := r.Get("record_time")
		ms, _ := rt.AsInt()
		if doc["record_time"] != float64(ms) {
			t.Fatalf("document %s: record_time = %v, record has %d", r.ID, doc["record_time"], ms)
		}
		ts, err := time.Parse(time.RFC3339Nano, fmt.Sprint(doc["@timestamp"]))
		if err != nil || ts.UnixMilli() != ms {
			t.Fatalf("document %s: @timestamp = %v (%v), want record_time %d", r.ID, doc["@timestamp"], err, ms)
		}
	}
}

// TestSampleJobIntoZinc runs the sample job through the engine on an
// in-process broker and ZincSearch, feeds it the 10,000 real lines, and
// finds every record by _id with its fields, each id once, with nothing on
// pipeline_errors.
func TestSampleJobIntoZinc(t *testing.T) {
	srv := zinc.New(t)
	broker := streamtest.StartBroker(t)
	broker.CreateTopic(t, "pipeline_raw", 4)
	streamtest.StartEngine(t, engine.Settings{UIPort: -1}, sampleJob(t, srv, broker.Addr))

	lines := streamtest.AccessLogLines(t)
	broker.ProduceLines(t, "pipeline_raw", lines)
	broker.WaitCount(t, "pipeline_events", int64(len(lines)), 5*time.Minute)
	events := streamtest.Decode(t, broker.Consume(t, "pipeline_events", len(lines), time.Minute))

	ids := waitIDs(t, srv, "apache_logs", len(lines))
	if len(ids) != len(lines) {
		t.Fatalf("index holds %d ids, want %d", len(ids), len(lines))
	}
	for _, r := range events {
		if ids[r.ID] != 1 {
			t.Fatalf("id %s appears %d times in the index, want once", r.ID, ids[r.ID])
		}
	}
	checkDocuments(t, srv, events)
	if n := broker.Count(t, "pipeline_errors"); n != 0 {
		t.Fatalf("pipeline_errors holds %d records, want none", n)
	}
}

// TestZincKilledMidRun kills ZincSearch while the real log is being
// indexed and starts it again: batches wait (or are redelivered) instead of
// being lost, and once it is back every line is in the index exactly once.
func TestZincKilledMidRun(t *testing.T) {
	srv := zinc.New(t)
	broker := streamtest.StartBroker(t)
	broker.CreateTopic(t, "pipeline_raw", 4)
	e := streamtest.StartEngine(t, engine.Settings{UIPort: -1}, sampleJob(t, srv, broker.Addr))

	lines := streamtest.AccessLogLines(t)
	half := len(lines) / 2
	broker.ProduceLines(t, "pipeline_raw", lines[:half])
	waitFirstIDs(t, srv, "apache_logs")
	srv.Kill()
	t.Log("ZincSearch killed")
	broker.ProduceLines(t, "pipeline_raw", lines[half:])

	// Once the writer has met the outage and retried, the index is started
	// again with the same data.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	for retried(t, e) == 0 {
		select {
		case <-ctx.Done():
			t.Fatal("no retry while ZincSearch was down")
		case <-time.After(50 * time.Millisecond):
		}
	}
	if err := srv.Restart(); err != nil {
		t.Fatalf("restart ZincSearch: %v", err)
	}
	t.Log("ZincSearch restarted")

	broker.WaitCount(t, "pipeline_events", int64(len(lines)), 5*time.Minute)
	ids := waitIDs(t, srv, "apache_logs", len(lines))
	if len(ids) != len(lines) {
		t.Fatalf("index holds %d ids, want %d", len(ids), len(lines))
	}
	for id, n := range ids {
		if n != 1 {
			t.Fatalf("id %s appears %d times, want once", id, n)
		}
	}
	// Every record that reached pipeline_events (some twice, if a batch was
	// redelivered) is in the index.
	events := streamtest.Decode(t, broker.Consume(t, "pipeline_events", int(broker.Count(t, "pipeline_events")), time.Minute))
	for _, r := range events {
		if ids[r.ID] != 1 {
			t.Fatalf("record %s of pipeline_events is in the index %d times", r.ID, ids[r.ID])
		}
	}
	if n := broker.Count(t, "pipeline_errors"); n != 0 {
		t.Fatalf("pipeline_errors holds %d records, want none", n)
	}
}

// retried reads the service's retry counter from the engine's metrics.
func retried(t *testing.T, e *streamtest.Engine) float64 {
	t.Helper()
	mfs, err := e.Metrics.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() == "weir_searchindex_documents_retried_total" {
			sum := 0.0
			for _, m := range mf.GetMetric() {
				sum += m.GetCounter().GetValue()
			}
			return sum
		}
	}
	return 0
}
