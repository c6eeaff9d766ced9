package searchindex_test

import (
	"net"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/config"
	"github.com/weir-streams/weir/internal/engine"
	"github.com/weir-streams/weir/internal/streamtest"
	"github.com/weir-streams/weir/internal/testserver/zinc"
)

// gateway serves srv's Elasticsearch API on a 127.0.0.1 address with
// ZincSearch's credentials and /es prefix added, as a gateway in front of a
// cluster would: LogIsland's files give a bare host:port and no
// credentials, which ZincSearch requires.
func gateway(t *testing.T, srv *zinc.Server) string {
	t.Helper()
	target, err := url.Parse(srv.ESURL())
	if err != nil {
		t.Fatal(err)
	}
	proxy := &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
		r.SetURL(target)
		r.Out.SetBasicAuth(zinc.User, zinc.Password)
	}}
	gw := httptest.NewServer(proxy)
	t.Cleanup(gw.Close)
	return gw.Listener.Addr().(*net.TCPAddr).String()
}

// startShipped runs LogIsland's conf/name (testdata/logisland) as a user
// would give it to Weir: prefix changed, KryoSerializer replaced by
// JsonSerializer, ES_HOSTS the gateway to srv and KAFKA_BROKERS broker.
func startShipped(t *testing.T, name string, srv *zinc.Server, broker *streamtest.Broker) {
	t.Helper()
	startShippedEdited(t, name, srv, broker, nil)
}

// startShippedEdited is startShipped with edit, when not nil, applied to
// the file's text after the prefix change, for the one key a test must add
// to reach a server of its own.
func startShippedEdited(t *testing.T, name string, srv *zinc.Server, broker *streamtest.Broker, edit func(string) string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(streamtest.Root(), "testdata", "logisland", "conf", name))
	if err != nil {
		t.Fatal(err)
	}
	s := strings.ReplaceAll(string(data), "com.hurence.logisland", "pkg")
	s = strings.ReplaceAll(s, "pkg.serializer.KryoSerializer", "pkg.serializer.JsonSerializer")
	if edit != nil {
		s = edit(s)
	}
	vars := map[string]string{"ES_HOSTS": gateway(t, srv), "ES_CLUSTER_NAME": "es", "KAFKA_BROKERS": broker.Addr, "ZK_QUORUM": ""}
	job, err := config.Parse([]byte(s), time.Now(), func(k string) (string, bool) { v, ok := vars[k]; return v, ok })
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	if _, err := config.Check(job, streamtest.Registry()); err != nil {
		t.Fatalf("validate: %v", err)
	}
	streamtest.StartEngine(t, engine.Settings{UIPort: -1}, job.DataFlow)
}

// shippedApacheRegex is the apache_parser's value.regex of LogIsland's
// files, with which the tests count the lines the job parses.
var shippedApacheRegex = regexp.MustCompile(`^(\S+)\s+(\S+)\s+(\S+)\s+\[([\w:\/]+\s[+\-]\d{4})\]\s+"(\S+)\s+(\S+)\s*(\S*)"\s+(\S+)\s+(\S+)`)

// parsedLines returns the lines the job's SplitText parses.
func parsedLines(lines []string) []string {
	var out []string
	for _, l := range lines {
		if shippedApacheRegex.MatchString(l) {
			out = append(out, l)
		}
	}
	return out
}

// TestLogIslandESJobIntoZinc runs LogIsland's own index-apache-logs-es.yml
// (testdata/logisland, prefix changed, its KryoSerializer output replaced
// by JsonSerializer) on an in-process broker and ZincSearch, fed 2,000 real
// lines: its Elasticsearch_6_6_2_ClientService (hosts: ${ES_HOSTS} as
// host:port) is the search-index service and its BulkPut, with LogIsland's
// default.collection and timebased.collection yesterday, indexes every
// parsed line into logisland.<yesterday>. The file gives no credentials,
// which ZincSearch requires: ES_HOSTS names a reverse proxy of the test's
// that adds them and ZincSearch's /es prefix, as a gateway in front of a
// cluster would.
func TestLogIslandESJobIntoZinc(t *testing.T) {
	srv := zinc.New(t)
	broker := streamtest.StartBroker(t)
	broker.CreateTopic(t, "logisland_raw", 4)
	startShipped(t, "index-apache-logs-es.yml", srv, broker)

	lines := streamtest.AccessLogLines(t)[:2000]
	parsed := len(parsedLines(lines))
	before := time.Now().UTC().AddDate(0, 0, -1).Format("2006.01.02")
	broker.ProduceLines(t, "logisland_raw", lines)
	broker.WaitCount(t, "logisland_events", int64(parsed), 5*time.Minute)
	events := streamtest.Decode(t, broker.Consume(t, "logisland_events", parsed, time.Minute))
	index := "logisland." + before
	ids, where := yesterdayIndexIDs(t, srv, before, parsed)
	if len(ids) != parsed {
		t.Fatalf("index %s holds %d ids, want %d", index, len(ids), parsed)
	}
	for _, r := range events {
		if ids[r.ID] != 1 {
			t.Fatalf("id %s appears %d times in %s, want once", r.ID, ids[r.ID], index)
		}
	}
	doc, found, err := srv.Get(where[events[0].ID], events[0].ID)
	if err != nil || !found {
		t.Fatalf("document %s: %v %v", events[0].ID, found, err)
	}
	if ip, _ := events[0].GetString("src_ip"); doc["src_ip"] != ip || doc["record_type"] != "apache_log" {
		t.Errorf("document %v, record %v", doc, events[0])
	}
}
