package searchindex_test

import (
	"strings"
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/dataflow"
	"github.com/weir-streams/weir/internal/engine"
	"github.com/weir-streams/weir/internal/streamtest"
)

// TestRefusedDocumentsReachErrorTopic runs real log lines through a stream
// whose index refuses (400) every document of one client address: those
// records reach pipeline_errors with the index's reason, the processor and
// the source, and every other record is indexed.
func TestRefusedDocumentsReachErrorTopic(t *testing.T) {
	lines := streamtest.AccessLogLines(t)[:400]
	badIP := strings.Fields(lines[0])[0]
	bad := 0
	for _, l := range lines {
		if strings.Fields(l)[0] == badIP {
			bad++
		}
	}
	srv := newESServer(t, func(n int, acts []action) (int, map[string]string, []int) {
		items := make([]int, len(acts))
		for i, a := range acts {
			items[i] = 201
			if a.Source["src_ip"] == badIP {
				items[i] = 400
			}
		}
		return 0, nil, items
	})
	broker := streamtest.StartBroker(t)
	broker.CreateTopic(t, "pipeline_raw", 4)
	df := &dataflow.DataFlow{
		Services: []dataflow.Component{{Name: "search_service", Component: "pkg.service.searchindex.SearchIndexClientService",
			Config: streamtest.Props("hosts", srv.URL, "flush.interval", "50")}},
		Streams: []dataflow.Stream{streamtest.Stream("indexing_stream", broker.Addr, "pipeline_raw", "pipeline_events", "pipeline_errors")},
	}
	df.Streams[0].Pipeline.Processors = []dataflow.Component{
		streamtest.ApacheParser(false),
		streamtest.Processor("es_indexer", "pkg.processor.searchindex.BulkAddSearchIndex",
			"search.client.service", "search_service", "default.index", "apache_logs"),
	}
	streamtest.StartEngine(t, engine.Settings{UIPort: -1}, df)
	broker.ProduceLines(t, "pipeline_raw", lines)

	broker.WaitCount(t, "pipeline_errors", int64(bad), 2*time.Minute)
	broker.WaitCount(t, "pipeline_events", int64(len(lines)), 2*time.Minute)
	errs := streamtest.Decode(t, broker.Consume(t, "pipeline_errors", bad, time.Minute))
	for _, r := range errs {
		ip, _ := r.GetString("src_ip")
		proc, _ := r.GetString("record_error_processor")
		topic, _ := r.GetString("record_source_topic")
		if ip != badIP || proc != "es_indexer" || topic != "pipeline_raw" {
			t.Fatalf("error record %s: src_ip %s, processor %q, source topic %q", r.ID, ip, proc, topic)
		}
		if e := errorsOf(r); !strings.Contains(e, "status 400") || !strings.Contains(e, "failed to parse field") {
			t.Fatalf("error record %s: errors %q lack the index's reason", r.ID, e)
		}
	}
	indexed := map[string]bool{}
	for _, req := range srv.requests() {
		for _, a := range req.Actions {
			if a.Source["src_ip"] != badIP {
				indexed[a.ID] = true
			}
		}
	}
	if len(indexed) != len(lines)-bad {
		t.Fatalf("%d distinct documents accepted, want %d", len(indexed), len(lines)-bad)
	}
	if n := broker.Count(t, "pipeline_errors"); n != int64(bad) {
		t.Fatalf("pipeline_errors holds %d records, want %d", n, bad)
	}
}
