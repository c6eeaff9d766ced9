package searchindex_test

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/weir-streams/weir/internal/plugins/searchindex"
)

// TestPerItemOutcomes: in one bulk answer with errors:true, a 400 item
// becomes an error record with the index's reason, 429 and
// es_rejected_execution_exception items are retried (and only they: the
// accepted ones are not resent), and the Completion is done once all have
// an outcome.
func TestPerItemOutcomes(t *testing.T) {
	srv := newESServer(t, func(n int, acts []action) (int, map[string]string, []int) {
		if n == 0 {
			return 0, nil, []int{201, 400, 429, 201, 503, 200}
		}
		return 0, nil, nil
	})
	reg := prometheus.NewRegistry()
	svc := startService(t, reg, map[string]string{searchindex.KeyHosts: srv.URL})
	failed, err := wait(t, process(t, newIndexer(t, svc), records(6)))
	if err != nil {
		t.Fatalf("Wait: %v", err)
	}
	if len(failed) != 1 || failed[0].ID != "r-1" {
		t.Fatalf("failed records = %v, want r-1 alone", failed)
	}
	reason := errorsOf(failed[0])
	for _, want := range []string{"datastore_write_error", "status 400", "document_parsing_exception", "failed to parse field [bytes_out]", "apache_logs"} {
		if !strings.Contains(reason, want) {
			t.Errorf("error of the refused record %q does not say %q", reason, want)
		}
	}
	reqs := srv.requests()
	if len(reqs) != 2 {
		t.Fatalf("server got %d requests, want 2", len(reqs))
	}
	if got := reqs[1].ids(); !slices.Equal(got, []string{"r-2", "r-4"}) {
		t.Fatalf("retry sent %v, want only the throttled r-2 and r-4", got)
	}
	st := svc.Stats()
	if st.Indexed != 5 || st.Refused != 1 || st.Retries != 2 {
		t.Fatalf("stats = %+v, want 5 indexed, 1 refused, 2 retries", st)
	}
	for name, want := range map[string]float64{
		"weir_searchindex_documents_indexed_total": 5, "weir_searchindex_documents_refused_total": 1,
		"weir_searchindex_documents_retried_total": 2, "weir_searchindex_bulk_request_seconds": 2,
	} {
		if got := metricValue(t, reg, name); got != want {
			t.Errorf("metric %s = %v, want %v", name, got, want)
		}
	}
}

// TestWholeRequestRetried: a 503 for the whole request (with Retry-After)
// and then a 429 are retried with every document; the third answer
// settles them all, and nothing is refused.
func TestWholeRequestRetried(t *testing.T) {
	srv := newESServer(t, func(n int, acts []action) (int, map[string]string, []int) {
		switch n {
		case 0:
			return http.StatusServiceUnavailable, map[string]string{"Retry-After": "1"}, nil
		case 1:
			return http.StatusTooManyRequests, nil, nil
		}
		return 0, nil, nil
	})
	svc := startService(t, nil, map[string]string{searchindex.KeyHosts: srv.URL})
	start := time.Now()
	failed, err := wait(t, process(t, newIndexer(t, svc), records(10)))
	if err != nil || len(failed) != 0 {
		t.Fatalf("Wait = %d failed, %v; want all indexed", len(failed), err)
	}
	reqs := srv.requests()
	if len(reqs) != 3 {
		t.Fatalf("server got %d requests, want 3", len(reqs))
	}
	for i, r := range reqs {
		if len(r.Actions) != 10 {
			t.Fatalf("request %d carried %d documents, want all 10", i, len(r.Actions))
		}
	}
	// Retry-After: 1 holds the second request back at least a second
	// (a lower bound only: nothing here can make it shorter).
	if time.Since(start) < time.Second {
		t.Fatalf("the retry did not wait for Retry-After")
	}
	if st := svc.Stats(); st.Indexed != 10 || st.Retries != 20 {
		t.Fatalf("stats = %+v, want 10 indexed after 20 retries", st)
	}
}

// TestRetriesExhausted: documents still throttled after num.retry retries
// make Wait return an error (the stream then redelivers the batch), never
// an error record and never a hang.
func TestRetriesExhausted(t *testing.T) {
	srv := newESServer(t, func(n int, acts []action) (int, map[string]string, []int) {
		items := make([]int, len(acts))
		for i, a := range acts {
			items[i] = 201
			if a.ID == "r-1" {
				items[i] = 429
			}
		}
		return 0, nil, items
	})
	svc := startService(t, nil, map[string]string{searchindex.KeyHosts: srv.URL, searchindex.KeyNumRetry: "2"})
	failed, err := wait(t, process(t, newIndexer(t, svc), records(2)))
	if err == nil {
		t.Fatalf("Wait = %d failed, no error; want an error", len(failed))
	}
	if !strings.Contains(err.Error(), "after 2 retries") || !strings.Contains(err.Error(), "es_rejected_execution_exception") {
		t.Fatalf("Wait error = %v, want the retries and the cause", err)
	}
	if n := len(srv.requests()); n != 3 {
		t.Fatalf("server got %d requests, want 3 (one and two retries)", n)
	}
}

// TestNoAnswerTimesOut: a server that never answers ends each attempt at
// request.timeout; after the retries Wait reports the timeout instead of
// hanging.
func TestNoAnswerTimesOut(t *testing.T) {
	release := make(chan struct{})
	var calls atomic.Int32
	srv := newESServer(t, func(n int, acts []action) (int, map[string]string, []int) {
		calls.Add(1)
		<-release
		return 0, nil, nil
	})
	defer close(release) // before the server's Close, which waits for handlers
	svc := startService(t, nil, map[string]string{searchindex.KeyHosts: srv.URL, searchindex.KeyNumRetry: "1", searchindex.KeyRequestTimeout: "200"})
	_, err := wait(t, process(t, newIndexer(t, svc), records(3)))
	if err == nil || !strings.Contains(err.Error(), "request.timeout") {
		t.Fatalf("Wait error = %v, want a timeout", err)
	}
	if n := calls.Load(); n != 2 {
		t.Fatalf("server got %d requests, want 2 (one and one retry)", n)
	}
}

// TestFailover: the first host refuses connections; every document goes
// to the second, and later bulks start there.
func TestFailover(t *testing.T) {
	down := newESServer(t, nil)
	downURL := down.URL
	down.Close()
	srv := newESServer(t, nil)
	svc := startService(t, nil, map[string]string{searchindex.KeyHosts: downURL + "," + srv.URL})
	p := newIndexer(t, svc)
	for range 3 {
		if failed, err := wait(t, process(t, p, records(4))); err != nil || len(failed) != 0 {
			t.Fatalf("Wait = %d failed, %v", len(failed), err)
		}
	}
	if n := len(srv.requests()); n != 3 {
		t.Fatalf("second host got %d requests, want 3", n)
	}
	if st := svc.Stats(); st.Retries != 0 {
		t.Fatalf("failover counted %v retries, want none", st.Retries)
	}
}

// TestWholeRequest400Split: a request refused as a whole for its content
// (400 without items) is split until the bad document stands alone; only
// it is refused.
func TestWholeRequest400Split(t *testing.T) {
	srv := newESServer(t, func(n int, acts []action) (int, map[string]string, []int) {
		for _, a := range acts {
			if a.ID == "r-5" {
				return http.StatusBadRequest, nil, nil
			}
		}
		return 0, nil, nil
	})
	svc := startService(t, nil, map[string]string{searchindex.KeyHosts: srv.URL})
	failed, err := wait(t, process(t, newIndexer(t, svc), records(8)))
	if err != nil || len(failed) != 1 || failed[0].ID != "r-5" {
		t.Fatalf("Wait = %v, %v; want r-5 refused alone", failed, err)
	}
	if !strings.Contains(errorsOf(failed[0]), "HTTP 400") {
		t.Fatalf("reason %q does not give the status", errorsOf(failed[0]))
	}
	if st := svc.Stats(); st.Indexed != 7 || st.Refused != 1 {
		t.Fatalf("stats = %+v, want 7 indexed, 1 refused", st)
	}
}

// TestCloseWhileUnansweredReportsUnconfirmed: closing the service while
// the index does not answer fails the pending Completion with an error
// that says the service closed, and refuses new batches.
func TestCloseWhileUnansweredReportsUnconfirmed(t *testing.T) {
	release := make(chan struct{})
	srv := newESServer(t, func(n int, acts []action) (int, map[string]string, []int) {
		<-release
		return 0, nil, nil
	})
	defer close(release)
	svc := startService(t, nil, map[string]string{searchindex.KeyHosts: srv.URL})
	p := newIndexer(t, svc)
	c := process(t, p, records(2))
	for len(srv.requests()) == 0 {
		time.Sleep(10 * time.Millisecond)
	}
	ctx, cancel := contextWithTimeout(100 * time.Millisecond)
	defer cancel()
	if err := svc.Close(ctx); err != nil {
		t.Fatalf("close: %v", err)
	}
	_, err := wait(t, c)
	if err == nil || !strings.Contains(err.Error(), "closed") {
		t.Fatalf("Wait after close = %v, want an error that says the service closed", err)
	}
	if _, err := svc.Index(ctx, records(1), searchindex.Target{Index: "x"}); err == nil {
		t.Fatal("Index after close succeeded")
	}
}

// TestAuthAndGzip: basic credentials or the API key travel in the
// Authorization header, and gzip bodies are announced and decoded by the
// server.
func TestAuthAndGzip(t *testing.T) {
	srv := newESServer(t, nil)
	basic := startService(t, nil, map[string]string{searchindex.KeyHosts: srv.URL, searchindex.KeyUsername: "weir", searchindex.KeyPassword: "s3cret", searchindex.KeyGzip: "true"})
	if _, err := wait(t, process(t, newIndexer(t, basic), records(3))); err != nil {
		t.Fatal(err)
	}
	keyed := startService(t, nil, map[string]string{searchindex.KeyHosts: srv.URL, searchindex.KeyAPIKey: "aWQ6a2V5"})
	if _, err := wait(t, process(t, newIndexer(t, keyed), records(3))); err != nil {
		t.Fatal(err)
	}
	reqs := srv.requests()
	if len(reqs) != 2 {
		t.Fatalf("server got %d requests, want 2", len(reqs))
	}
	req, _ := http.NewRequest(http.MethodGet, "/", nil)
	req.Header = reqs[0].Header
	if u, p, ok := req.BasicAuth(); !ok || u != "weir" || p != "s3cret" {
		t.Fatalf("basic auth = %q %q %v", u, p, ok)
	}
	if reqs[0].Header.Get("Content-Encoding") != "gzip" || len(reqs[0].Actions) != 3 {
		t.Fatalf("gzip request: encoding %q, %d documents", reqs[0].Header.Get("Content-Encoding"), len(reqs[0].Actions))
	}
	if got := reqs[1].Header.Get("Authorization"); got != "ApiKey aWQ6a2V5" {
		t.Fatalf("API key header = %q", got)
	}
}

// TestShortAnswerRetriesTheRest: an answer with fewer items than
// documents and a top-level error (what ZincSearch sends when it stops at
// a failure) settles the documents it lists and retries only the others.
func TestShortAnswerRetriesTheRest(t *testing.T) {
	var calls atomic.Int32
	var mu sync.Mutex
	var second []action
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		acts, err := parseBulk(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		if calls.Add(1) == 1 {
			body := bulkAnswer(acts[:2], nil)
			_, _ = w.Write(append(body[:len(body)-1], `,"error":"disk full"}`...))
			return
		}
		mu.Lock()
		second = acts
		mu.Unlock()
		_, _ = w.Write(bulkAnswer(acts, nil))
	}))
	t.Cleanup(srv.Close)
	svc := startService(t, nil, map[string]string{searchindex.KeyHosts: srv.URL})
	if failed, err := wait(t, process(t, newIndexer(t, svc), records(5))); err != nil || len(failed) != 0 {
		t.Fatalf("Wait = %d failed, %v", len(failed), err)
	}
	mu.Lock()
	defer mu.Unlock()
	if calls.Load() != 2 || len(second) != 3 || second[0].ID != "r-2" {
		t.Fatalf("%d requests, retry carried %v; want the 3 documents without an item", calls.Load(), second)
	}
	if st := svc.Stats(); st.Indexed != 5 || st.Retries != 3 {
		t.Fatalf("stats = %+v, want 5 indexed after 3 retries", st)
	}
}
