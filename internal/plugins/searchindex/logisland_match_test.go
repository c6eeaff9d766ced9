package searchindex_test

import (
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/weir-streams/weir/internal/streamtest"
	"github.com/weir-streams/weir/internal/testserver/zinc"
)

// TestLogIslandMatchQueriesIntoZinc runs LogIsland's own match-queries.yml
// as shipped (prefix changed) on an in-process broker and ZincSearch, fed
// the real access log: SplitText parses each line, MatchQuery (policy.onmiss
// forward, policy.onmatch all, types kept) tags the lines whose src_ip
// holds the words of its two rules, and BulkAddElasticsearch (the
// Elasticsearch 5.4.0 service, BulkAddSearchIndex) indexes every parsed
// line into logisland.<yesterday>. The rules' matches are counted here
// from the words of each line's first field, as Lucene's StopAnalyzer
// splits it; the log's clients are IP addresses, which hold no words, so
// no line is tagged, and every one is indexed once.
func TestLogIslandMatchQueriesIntoZinc(t *testing.T) {
	srv := zinc.New(t)
	broker := streamtest.StartBroker(t)
	broker.CreateTopic(t, "logisland_raw", 4)
	startShipped(t, "match-queries.yml", srv, broker)

	lines := streamtest.AccessLogLines(t)
	parsed := parsedLines(lines)
	wantTagged := map[string]int{}
	for _, l := range parsed {
		words := strings.FieldsFunc(strings.ToLower(strings.Fields(l)[0]), func(r rune) bool { return !unicode.IsLetter(r) })
		if slices.Contains(words, "alyssa") && slices.Contains(words, "prodigy") {
			wantTagged["blacklisted_host"]++
		}
		if slices.Contains(words, "montana") {
			wantTagged["montana_host"]++
		}
	}

	before := time.Now().UTC().AddDate(0, 0, -1).Format("2006.01.02")
	broker.ProduceLines(t, "logisland_raw", lines)
	broker.WaitCount(t, "logisland_events", int64(len(parsed)), 5*time.Minute)
	events := streamtest.Decode(t, broker.Consume(t, "logisland_events", len(parsed), time.Minute))
	if len(events) != len(parsed) {
		t.Fatalf("%d events, want the %d parsed lines", len(events), len(parsed))
	}
	tagged := map[string]int{}
	for _, r := range events {
		if r.Type != "apache_log" {
			t.Fatalf("record type %q, want apache_log kept", r.Type)
		}
		if f, ok := r.Get("alert_match_name"); ok {
			for _, name := range strings.Fields(strings.Trim(f.String(), "[]")) {
				tagged[strings.Trim(name, `",`)]++
			}
		}
	}
	for _, rule := range []string{"blacklisted_host", "montana_host"} {
		if tagged[rule] != wantTagged[rule] {
			t.Errorf("%d records tagged %s, want %d", tagged[rule], rule, wantTagged[rule])
		}
	}

	index := "logisland." + before
	ids, _ := yesterdayIndexIDs(t, srv, before, len(parsed))
	if len(ids) != len(parsed) {
		t.Fatalf("index %s holds %d ids, want %d", index, len(ids), len(parsed))
	}
	for _, r := range events {
		if ids[r.ID] != 1 {
			t.Fatalf("id %s appears %d times in %s, want once", r.ID, ids[r.ID], index)
		}
	}
}
