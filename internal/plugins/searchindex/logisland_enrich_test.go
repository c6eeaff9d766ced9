package searchindex_test

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/plugins/dns/dnstest"
	"github.com/weir-streams/weir/internal/plugins/useragent/uaparse"
	"github.com/weir-streams/weir/internal/streamtest"
	"github.com/weir-streams/weir/internal/testserver/zinc"
)

// enrichApacheRegex is the apache_parser's value.regex of
// enrich-apache-logs.yml (the one with referer and user agent), anchored at
// the start as SplitText anchors a plain regular expression.
var enrichApacheRegex = regexp.MustCompile(`^(\S+)\s+(\S+)\s+(\S+)\s+\[([\w:\/]+\s[+\-]\d{4})\]\s+"(\S+)\s+(\S+)\s*(\S*)"\s+(\S+)\s+(\S+)\s+"(\S+)"\s+"([^\"]+)"`)

// enrichUAFields are attributes of the user_agent_analyzer's fields list
// that the test compares with the analyzer's own answer for each record.
var enrichUAFields = []string{"DeviceClass", "DeviceName", "OperatingSystemName", "OperatingSystemNameVersion", "LayoutEngineName", "AgentClass", "AgentName", "AgentNameVersion", "WebviewAppName"}

// TestLogIslandEnrichJobIntoZinc runs LogIsland's own enrich-apache-logs.yml
// (testdata/logisland) on an in-process broker and ZincSearch, fed 3,000
// lines of the real access log, through both of its streams: parsing_stream
// (SplitText with the referer and user-agent regex, ParseUserAgent, IpToFqdn
// writing over src_ip with its LRUKeyValueCacheService) into
// logisland_events, and indexing_stream (BulkAddElasticsearch through the
// Elasticsearch_2_4_0_ClientService, timebased.index yesterday) into
// logisland.<yesterday>. ES_HOSTS names the gateway of
// logisland_zinc_test.go.
//
// The file is changed as for the other LogIsland files (prefix, and
// KryoSerializer replaced by JsonSerializer) and in one more place: its
// IpToFqdn gets dns.servers, the address of a real DNS server of the test's
// on 127.0.0.1 (dnstest), since a test reaches no other host and the
// system's resolver would answer from the machine's network. Of the
// addresses of the parsed lines, a third have a PTR name that resolves back
// to them, so src_ip becomes that name; a third have a PTR name whose
// address is another (unverified), and a third have no PTR record: IpToFqdn
// writes only a verified name, so for those src_ip keeps the address,
// override.fqdn.field true notwithstanding. The LRU cache (16384 entries,
// more than the addresses) makes each address asked once.
func TestLogIslandEnrichJobIntoZinc(t *testing.T) {
	lines := streamtest.AccessLogLines(t)[:3000]
	var parsed []string
	for _, l := range lines {
		if enrichApacheRegex.MatchString(l) {
			parsed = append(parsed, l)
		}
	}
	if len(parsed) < len(lines)/2 {
		t.Fatalf("only %d of %d lines match the shipped regex", len(parsed), len(lines))
	}
	seen := map[string]bool{}
	var distinct []string
	for _, l := range parsed {
		ip := enrichApacheRegex.FindStringSubmatch(l)[1]
		if !seen[ip] {
			seen[ip] = true
			distinct = append(distinct, ip)
		}
	}
	sort.Strings(distinct)

	dnsSrv := dnstest.Start(t)
	want := map[string]string{} // address -> src_ip it must end as
	kinds := [3]int{}
	for i, ip := range distinct {
		name := "h-" + strings.NewReplacer(".", "-", ":", "-").Replace(ip) + ".clients.weir.test"
		switch i % 3 {
		case 0:
			dnsSrv.AddHost(name, ip)
			want[ip] = name
		case 1:
			dnsSrv.AddPTR(ip, name)
			dnsSrv.AddForward(name, fmt.Sprintf("203.0.113.%d", i%250+1))
			want[ip] = ip
		default:
			want[ip] = ip
		}
		kinds[i%3]++
	}
	wantSrcIP := map[string]int{}
	for _, l := range parsed {
		wantSrcIP[want[enrichApacheRegex.FindStringSubmatch(l)[1]]]++
	}

	srv := zinc.New(t)
	broker := streamtest.StartBroker(t)
	broker.CreateTopic(t, "logisland_raw", 4)
	startShippedEdited(t, "enrich-apache-logs.yml", srv, broker, func(s string) string {
		const key = "            cache.service: lru_cache_service\n"
		if n := strings.Count(s, key); n != 1 {
			t.Fatalf("the IpToFqdn cache.service line appears %d times, want once", n)
		}
		return strings.Replace(s, key, key+"            dns.servers: "+dnsSrv.Addr+"\n", 1)
	})

	before := time.Now().UTC().AddDate(0, 0, -1).Format("2006.01.02")
	broker.ProduceLines(t, "logisland_raw", lines)
	broker.WaitCount(t, "logisland_events", int64(len(parsed)), 5*time.Minute)
	events := streamtest.Decode(t, broker.Consume(t, "logisland_events", len(parsed), time.Minute))
	if len(events) != len(parsed) {
		t.Fatalf("%d events, want the %d parsed lines", len(events), len(parsed))
	}

	// Each record's src_ip is what the DNS server answers for its address.
	gotSrcIP := map[string]int{}
	ua := uaparse.New(uaparse.Options{})
	for _, r := range events {
		src, _ := r.GetString("src_ip")
		gotSrcIP[src]++
		agent, ok := r.GetString("http_user_agent")
		if !ok {
			t.Fatalf("record %s has no http_user_agent", r.ID)
		}
		res := ua.Analyze(agent)
		for _, f := range enrichUAFields {
			if v, _ := r.GetString(f); v != res.Get(f) {
				t.Fatalf("record %s: %s %q, want %q for %q", r.ID, f, v, res.Get(f), agent)
			}
		}
	}
	if len(gotSrcIP) != len(wantSrcIP) {
		t.Errorf("%d distinct src_ip values, want %d", len(gotSrcIP), len(wantSrcIP))
	}
	for v, n := range wantSrcIP {
		if gotSrcIP[v] != n {
			t.Errorf("%d records with src_ip %q, want %d", gotSrcIP[v], v, n)
		}
	}
	for _, ip := range distinct {
		if n := dnsSrv.Queries("PTR", ip); n != 1 {
			t.Errorf("address %s asked %d times, want once (the LRU cache)", ip, n)
		}
	}

	index := "logisland." + before
	ids, where := yesterdayIndexIDs(t, srv, before, len(parsed))
	if len(ids) != len(parsed) {
		t.Fatalf("index %s holds %d ids, want %d", index, len(ids), len(parsed))
	}
	for _, r := range events {
		if ids[r.ID] != 1 {
			t.Fatalf("id %s appears %d times in %s, want once", r.ID, ids[r.ID], index)
		}
	}
	// A document of each kind of address carries the enriched fields.
	checked := map[bool]bool{}
	for _, r := range events {
		src, _ := r.GetString("src_ip")
		verified := strings.HasSuffix(src, ".clients.weir.test")
		if checked[verified] {
			continue
		}
		checked[verified] = true
		doc, found, err := srv.Get(where[r.ID], r.ID)
		if err != nil || !found {
			t.Fatalf("document %s: %v %v", r.ID, found, err)
		}
		agent, _ := r.GetString("AgentName")
		if doc["src_ip"] != src || doc["AgentName"] != agent || doc["record_type"] != "apache_log" {
			t.Errorf("document %v, record %v", doc, r)
		}
	}
	if !checked[true] || !checked[false] {
		t.Errorf("records with a verified name: %v, without: %v; want both", checked[true], checked[false])
	}
	t.Logf("%d lines, %d parsed, %d addresses (%d verified, %d unverified, %d without PTR)", len(lines), len(parsed), len(distinct), kinds[0], kinds[1], kinds[2])
}
