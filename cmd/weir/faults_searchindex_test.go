package main

import (
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/streamtest"
	"github.com/weir-streams/weir/internal/testserver/toxi"
	"github.com/weir-streams/weir/internal/testserver/zinc"
)

// faultSearchInputs is the input of the search-index fault tests. The
// default stays within the 10,000 documents a ZincSearch query returns, so
// every id is checked, and is smaller still because ZincSearch's indexing,
// not the fault, takes most of each case's time; the long variant checks the document count, which
// equals the distinct ids because the record id is the _id and a
// re-indexed document replaces itself.
func faultSearchInputs() int {
	if longFaults() {
		return 100000
	}
	return 4000
}

// searchFaultJob is the parsing job with BulkAddSearchIndex into index
// through the search-index service at ${SEARCH_HOSTS}. request.timeout is
// 2 s so that a blackholed request is abandoned and retried soon (30 s by
// default); the backoff tops at 1 s.
func searchFaultJob(app, index string) parsingJob {
	return parsingJob{App: app, MaxRate: 500,
		Services: fmt.Sprintf(`    - controllerService: search_service
      component: pkg.service.searchindex.SearchIndexClientService
      configuration:
        hosts: ${SEARCH_HOSTS}
        username: %s
        password: %s
        batch.size: 500
        flush.interval: 100
        request.timeout: 2000
        throttling.delay: 100
        backoff.max.delay: 1000
`, zinc.User, zinc.Password),
		Processors: fmt.Sprintf(`      - processor: es_indexer
        component: pkg.processor.searchindex.BulkAddSearchIndex
        configuration:
          search.client.service: search_service
          default.index: %s
          timebased.index: no
`, index)}
}

// TestFaultSearchIndex runs the parsing job with BulkAddSearchIndex into
// ZincSearch behind Toxiproxy, applies one fault to the search-index link
// in the middle of the run and removes it: every input is committed, the
// index holds one document per input (the record id is the _id, so a
// retried bulk rewrites the same documents), the retries show in
// /metrics while a fault that stops the link lasts, and /readyz is ready
// again.
func TestFaultSearchIndex(t *testing.T) {
	faults := []struct {
		name string
		// blocks: no bulk request can succeed while the fault lasts, so the
		// writer retries.
		blocks bool
		apply  func(t *testing.T, p *toxi.Proxy) func()
	}{
		{"latency", false, func(t *testing.T, p *toxi.Proxy) func() { f := p.Latency(t, 1000, 250); return func() { f.Remove(t) } }},
		// 10 KB/s carries less than a bulk of 500 documents within
		// request.timeout: requests time out and are retried.
		{"bandwidth", true, func(t *testing.T, p *toxi.Proxy) func() { f := p.Bandwidth(t, 10); return func() { f.Remove(t) } }},
		{"reset_peer", true, func(t *testing.T, p *toxi.Proxy) func() { f := p.ResetPeer(t, 0); return func() { f.Remove(t) } }},
		{"blackhole", true, func(t *testing.T, p *toxi.Proxy) func() { f := p.Blackhole(t); return func() { f.Remove(t) } }},
		{"partition", true, func(t *testing.T, p *toxi.Proxy) func() { p.Disable(t); return func() { p.Enable(t) } }},
		{"slow_close", false, func(t *testing.T, p *toxi.Proxy) func() { f := p.SlowClose(t, 3000); return func() { f.Remove(t) } }},
	}
	srv := zinc.New(t)
	for _, fc := range faults {
		t.Run(fc.name, func(t *testing.T) { searchFault(t, srv, fc.name, fc.blocks, fc.apply) })
	}
}

func searchFault(t *testing.T, srv *zinc.Server, name string, blocks bool, apply func(t *testing.T, p *toxi.Proxy) func()) {
	n := faultSearchInputs()
	index := "fault_" + name
	proxy := toxi.New(t).Proxy(t, "search", strings.TrimPrefix(srv.URL(), "http://"))
	b := streamtest.StartBroker(t)
	b.CreateTopic(t, "raw", 4)
	b.ProduceLines(t, "raw", repeatLog(t, n))
	var want map[string]inputPosition
	if n <= 10000 {
		want = parsedInputIDs(t, b, "raw", n)
	}

	app := "fault-search-" + name
	_, base := startWithStatus(t, searchFaultJob(app, index), "BROKER_LIST="+b.Addr, "SEARCH_HOSTS=http://"+proxy.Addr()+"/es")

	// The checking queries go to ZincSearch directly, past the proxy.
	deadline := time.Now().Add(2 * time.Minute)
	for {
		c, err := srv.Count(index)
		if err == nil && c >= n/10 {
			if c >= n {
				t.Fatalf("the run finished (%d documents) before the fault: the test proves nothing", c)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("fewer than %d documents after 2 minutes (last count %d, error %v)", n/10, c, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	retriedBefore := metricSum(t, base, "weir_searchindex_documents_retried_total")
	heal := apply(t, proxy)
	time.Sleep(faultHold())
	if blocks {
		// What an operator sees while the link is down: the writer's
		// retries (and, past the stall bound, a 503 from /readyz).
		if got := metricSum(t, base, "weir_searchindex_documents_retried_total"); got <= retriedBefore {
			t.Errorf("weir_searchindex_documents_retried_total = %v during the fault, %v before: the retries do not show", got, retriedBefore)
		}
		expectNotReady(t, base)
	}
	heal()

	timeout := 5 * time.Minute
	if longFaults() {
		timeout = 10 * time.Minute
	}
	b.WaitGroupCommitted(t, app, "raw", int64(n), timeout)
	waitReady(t, base, 60*time.Second)
	// ZincSearch indexes from its write-ahead log in the background: wait
	// for the count to reach the inputs, then check it stays there.
	deadline = time.Now().Add(timeout)
	docs := 0
	for {
		c, err := srv.Count(index)
		if err == nil {
			docs = c
		}
		if docs >= n {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("index %s holds %d documents (%v), want %d", index, docs, err, n)
		}
		time.Sleep(200 * time.Millisecond)
	}
	if docs != n {
		t.Errorf("index %s holds %d documents for %d inputs", index, docs, n)
	}
	if want != nil {
		ids, err := srv.IDs(index)
		if err != nil {
			t.Fatal(err)
		}
		missing := 0
		for id := range want {
			if ids[id] != 1 {
				missing++
			}
		}
		if len(ids) != len(want) || missing != 0 {
			t.Errorf("index %s holds %d distinct ids for %d inputs, %d inputs not exactly once", index, len(ids), len(want), missing)
		}
	}
	if errs := b.Count(t, "errors"); errs != 0 {
		t.Errorf("%d error records", errs)
	}
	if c := metricSum(t, base, "weir_searchindex_queued_documents"); c != 0 {
		t.Errorf("weir_searchindex_queued_documents = %v after every input was committed", c)
	}
	t.Logf("%d documents for %d inputs; %v document sends retried", docs, n, metricSum(t, base, "weir_searchindex_documents_retried_total"))
}

// metricSum reads the Prometheus text of /metrics at base and returns the
// sum of the samples of metric over its labels; with labels given, only of
// the samples whose labels hold each of them (`kind="revoked"`).
func metricSum(t *testing.T, base, metric string, labels ...string) float64 {
	t.Helper()
	c := http.Client{Timeout: 10 * time.Second}
	resp, err := c.Get(base + "/metrics")
	if err != nil {
		t.Fatalf("read /metrics: %v", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("read /metrics: %v", err)
	}
	sum := 0.0
	for _, line := range strings.Split(string(body), "\n") {
		name, rest, ok := strings.Cut(line, " ")
		if !ok || strings.HasPrefix(line, "#") {
			continue
		}
		if i := strings.IndexByte(name, '{'); i >= 0 {
			// Labels may hold spaces: the value follows the closing brace.
			name = line[:i]
			j := strings.LastIndexByte(line, '}')
			rest = strings.TrimSpace(line[j+1:])
		}
		if name != metric {
			continue
		}
		skip := false
		for _, l := range labels {
			skip = skip || !strings.Contains(line[len(name):], l)
		}
		if skip {
			continue
		}
		v, err := strconv.ParseFloat(strings.Fields(rest)[0], 64)
		if err != nil {
			t.Fatalf("metric line %q: %v", line, err)
		}
		sum += v
	}
	return sum
}
