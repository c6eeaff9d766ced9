package searchindex_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/metrics"
	"github.com/weir-streams/weir/internal/plugins/searchindex"
	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/streamtest"
)

// action is one document of a bulk request as the test server read it.
type action struct {
	Index, ID string
	Source    map[string]any
}

// bulkRequest is one request the test server received.
type bulkRequest struct {
	Actions []action
	Header  http.Header
	Size    int // bytes of the (decompressed) body
}

// esServer is an HTTP server that speaks Elasticsearch's `_bulk` protocol
// as documented (https://www.elastic.co/guide/en/elasticsearch/reference/current/docs-bulk.html):
// per-item results keyed by action with status and error {type, reason},
// "errors": true when any item failed, whole-request errors with an HTTP
// status. It stands in for a real server only to show failures: ZincSearch,
// the real server of the other tests, answers 200 for every item and
// cannot refuse one document or throttle.
type esServer struct {
	*httptest.Server
	// answer decides the reply to request n (from 0): an HTTP status for
	// the whole request (0 for 200), headers, and the status of each item
	// (201 by default).
	answer func(n int, acts []action) (status int, hdr map[string]string, items []int)

	mu   sync.Mutex
	reqs []bulkRequest
}

func newESServer(t testing.TB, answer func(n int, acts []action) (int, map[string]string, []int)) *esServer {
	t.Helper()
	s := &esServer{answer: answer}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

func (s *esServer) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/_bulk" || r.Method != http.MethodPost {
		http.Error(w, `{"error":"no handler","status":404}`, http.StatusNotFound)
		return
	}
	var body io.Reader = r.Body
	if r.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		body = zr
	}
	raw, err := io.ReadAll(body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	acts, err := parseBulk(bytes.NewReader(raw))
	if err != nil {
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintf(w, `{"error":{"type":"illegal_argument_exception","reason":%q},"status":400}`, err.Error())
		return
	}
	s.mu.Lock()
	n := len(s.reqs)
	s.reqs = append(s.reqs, bulkRequest{Actions: acts, Header: r.Header.Clone(), Size: len(raw)})
	s.mu.Unlock()
	status, hdr, items := 0, map[string]string(nil), []int(nil)
	if s.answer != nil {
		status, hdr, items = s.answer(n, acts)
	}
	for k, v := range hdr {
		w.Header().Set(k, v)
	}
	w.Header().Set("Content-Type", "application/json")
	if status != 0 && status != http.StatusOK {
		w.WriteHeader(status)
		fmt.Fprintf(w, `{"error":{"root_cause":[{"type":"cluster_block_exception","reason":"blocked"}],"type":"cluster_block_exception","reason":"blocked"},"status":%d}`, status)
		return
	}
	_, _ = w.Write(bulkAnswer(acts, items))
}

// bulkAnswer renders a `_bulk` response in Elasticsearch's documented
// shape for the given item statuses.
func bulkAnswer(acts []action, items []int) []byte {
	var b bytes.Buffer
	errs := false
	for i := range acts {
		if i < len(items) && items[i] >= 300 {
			errs = true
		}
	}
	fmt.Fprintf(&b, `{"took":3,"errors":%t,"items":[`, errs)
	for i, a := range acts {
		st := 201
		if i < len(items) {
			st = items[i]
		}
		if i > 0 {
			b.WriteByte(',')
		}
		switch {
		case st < 300:
			fmt.Fprintf(&b, `{"index":{"_index":%q,"_id":%q,"_version":1,"result":"created","_shards":{"total":2,"successful":1,"failed":0},"_seq_no":%d,"_primary_term":1,"status":%d}}`, a.Index, a.ID, i, st)
		case st == 400:
			fmt.Fprintf(&b, `{"index":{"_index":%q,"_id":%q,"status":400,"error":{"type":"document_parsing_exception","reason":"[1:42] failed to parse field [bytes_out] of type [long] in document with id '%s'. Preview of field's value: '-'","caused_by":{"type":"illegal_argument_exception","reason":"For input string: \"-\""}}}}`, a.Index, a.ID, a.ID)
		case st == 429:
			fmt.Fprintf(&b, `{"index":{"_index":%q,"_id":%q,"status":429,"error":{"type":"es_rejected_execution_exception","reason":"rejected execution of coordinating operation [coordinating_and_primary_bytes=0, replica_bytes=0, all_bytes=0, coordinating_operation_bytes=1024, max_coordinating_and_primary_bytes=0]"}}}`, a.Index, a.ID)
		default:
			fmt.Fprintf(&b, `{"index":{"_index":%q,"_id":%q,"status":%d,"error":{"type":"unavailable_shards_exception","reason":"[%s][0] primary shard is not active Timeout: [1m]"}}}`, a.Index, a.ID, st, a.Index)
		}
	}
	b.WriteString("]}")
	return b.Bytes()
}

// parseBulk reads NDJSON action and source lines.
func parseBulk(r io.Reader) ([]action, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 16<<20)
	var acts []action
	for sc.Scan() {
		var meta map[string]struct {
			Index string `json:"_index"`
			ID    string `json:"_id"`
		}
		if err := json.Unmarshal(sc.Bytes(), &meta); err != nil {
			return nil, fmt.Errorf("action line: %w", err)
		}
		m, ok := meta["index"]
		if !ok || len(meta) != 1 {
			return nil, fmt.Errorf("action line %s is not an index action", sc.Text())
		}
		if !sc.Scan() {
			return nil, fmt.Errorf("action without a source line")
		}
		var src map[string]any
		if err := json.Unmarshal(sc.Bytes(), &src); err != nil {
			return nil, fmt.Errorf("source line: %w", err)
		}
		acts = append(acts, action{Index: m.Index, ID: m.ID, Source: src})
	}
	return acts, sc.Err()
}

// requests returns what the server received so far.
func (s *esServer) requests() []bulkRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]bulkRequest(nil), s.reqs...)
}

// ids lists the document ids of a request.
func (r bulkRequest) ids() []string {
	out := make([]string, len(r.Actions))
	for i, a := range r.Actions {
		out[i] = a.ID
	}
	return out
}

// services is a component.ServiceLookup over a fixed set.
type services map[string]component.Service

func (s services) Service(name string) (component.Service, bool) {
	svc, ok := s[name]
	return svc, ok
}

// testEnv is the environment of one test's component, with its metrics
// in reg.
func testEnv(t testing.TB, name string, reg *prometheus.Registry, svcs services) component.Env {
	t.Helper()
	return component.Env{
		Name:     name,
		Logger:   streamtest.Logger(t),
		Metrics:  metrics.New(reg),
		Services: svcs,
	}
}

// startService builds a SearchIndexClientService through its spec, as
// the engine does, and closes it when the test ends. Fast retries keep
// tests short.
func startService(t testing.TB, reg *prometheus.Registry, kv map[string]string) *searchindex.Service {
	t.Helper()
	spec := searchindex.ServiceSpec()
	raw := map[string]string{
		searchindex.KeyFlush:           "20",
		searchindex.KeyThrottlingDelay: "5",
		searchindex.KeyBackoffMax:      "50",
	}
	for k, v := range kv {
		raw[k] = v
	}
	conf, probs := component.NewConfig(&spec, raw)
	if err := probs.Err(); err != nil {
		t.Fatalf("service configuration: %v", err)
	}
	if reg == nil {
		reg = prometheus.NewRegistry()
	}
	svc, err := spec.NewService(context.Background(), conf, testEnv(t, "search_service", reg, nil))
	if err != nil {
		t.Fatalf("start service: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := svc.Close(ctx); err != nil {
			t.Errorf("close service: %v", err)
		}
	})
	return svc.(*searchindex.Service)
}

// newIndexer builds a BulkAddSearchIndex on svc through its spec.
func newIndexer(t testing.TB, svc component.Service, kv ...string) component.Processor {
	t.Helper()
	spec := searchindex.ProcessorSpec()
	raw := map[string]string{searchindex.KeyService: "search_service", searchindex.KeyIndex: "apache_logs"}
	for i := 0; i+1 < len(kv); i += 2 {
		raw[kv[i]] = kv[i+1]
	}
	conf, probs := component.NewConfig(&spec, raw)
	if err := probs.Err(); err != nil {
		t.Fatalf("processor configuration: %v", err)
	}
	p, err := spec.NewProcessor(conf, testEnv(t, "es_indexer", prometheus.NewRegistry(), services{"search_service": svc}))
	if err != nil {
		t.Fatalf("build processor: %v", err)
	}
	return p
}

// records returns n apache_log-like records with ids r-0 .. r-(n-1).
func records(n int) []*record.Record {
	out := make([]*record.Record, n)
	for i := range out {
		r := record.New(fmt.Sprintf("r-%d", i), "apache_log", 1_700_000_000_000)
		r.SetString("src_ip", fmt.Sprintf("10.0.0.%d", i%250))
		r.Set("record_time", record.IntValue(1_700_000_000_000+int64(i)*1000))
		r.SetString("http_status", "200")
		out[i] = r
	}
	return out
}

// process runs p on recs and returns the batch's Completion.
func process(t testing.TB, p component.Processor, recs []*record.Record) component.Completion {
	t.Helper()
	b := &component.Batch{Records: recs}
	if err := p.Process(context.Background(), b); err != nil {
		t.Fatalf("process: %v", err)
	}
	if len(b.Completions()) != 1 {
		t.Fatalf("the processor registered %d completions, want 1", len(b.Completions()))
	}
	return b.Completions()[0]
}

// wait waits for c with a deadline that only a hang reaches.
func wait(t testing.TB, c component.Completion) ([]*record.Record, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	failed, err := c.Wait(ctx)
	if ctx.Err() != nil {
		t.Fatalf("Wait hung: %v", err)
	}
	return failed, err
}

// metricValue reads a counter of the service from reg.
func metricValue(t testing.TB, reg *prometheus.Registry, name string) float64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		var sum float64
		for _, m := range mf.GetMetric() {
			switch {
			case m.Counter != nil:
				sum += m.Counter.GetValue()
			case m.Histogram != nil:
				sum += float64(m.Histogram.GetSampleCount())
			case m.Gauge != nil:
				sum += m.Gauge.GetValue()
			}
		}
		return sum
	}
	return 0
}

// errorsOf joins a record's error strings.
func errorsOf(r *record.Record) string { return strings.Join(r.Errors(), "; ") }

func contextWithTimeout(d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), d)
}
