package lucene_test

import (
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/weir-streams/weir/internal/dataflow"
	"github.com/weir-streams/weir/internal/engine"
	"github.com/weir-streams/weir/internal/plugins/lucene"
	"github.com/weir-streams/weir/internal/plugins/searchindex"
	"github.com/weir-streams/weir/internal/streamtest"
	"github.com/weir-streams/weir/internal/testserver/zinc"
)

// TestMatchQueryStreamIntoZinc runs MatchQuery with the rules and policies
// of LogIsland's match-queries.yml, plus one rule on the request path, in a
// stream over the 10,000 real log lines, and indexes every record into a
// real ZincSearch. LogIsland's two rules search host names in src_ip, which
// in this log holds addresses: StopAnalyzer finds no word in an address,
// so they match nothing, as in LogIsland. The path rule matches the lines
// whose path holds the word "presentations", counted here independently.
func TestMatchQueryStreamIntoZinc(t *testing.T) {
	srv := zinc.New(t)
	b := streamtest.StartBroker(t)
	b.CreateTopic(t, "raw", 4)
	lines := streamtest.AccessLogLines(t)

	re := regexp.MustCompile(`^(?:` + streamtest.ApacheRegex + `)`)
	parsed, presentations := 0, 0
	for _, l := range lines {
		m := re.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		parsed++
		for _, w := range strings.FieldsFunc(strings.ToLower(m[6]), func(r rune) bool { return !unicode.IsLetter(r) }) {
			if w == "presentations" {
				presentations++
				break
			}
		}
	}
	if presentations == 0 || presentations == parsed {
		t.Fatalf("%d of %d lines hold the word: the test would show nothing", presentations, parsed)
	}

	df := &dataflow.DataFlow{
		Services: []dataflow.Component{{Name: "search", Component: searchindex.ServiceName, Config: streamtest.Props(
			searchindex.KeyHosts, srv.ESURL(), searchindex.KeyUsername, zinc.User, searchindex.KeyPassword, zinc.Password)}},
		Streams: []dataflow.Stream{streamtest.Stream("parsing_stream", b.Addr, "raw", "events", "errors")},
	}
	df.Streams[0].Pipeline.Processors = []dataflow.Component{
		streamtest.ApacheParser(false),
		streamtest.Processor("query_matcher", lucene.MatchQueryName,
			"policy.onmiss", "forward", "policy.onmatch", "all", "record.type.updatePolicy", "keep",
			"blacklisted_host", "src_ip:(+alyssa +prodigy)", "montana_host", "src_ip:montana",
			"presentations", "http_query:presentations"),
		streamtest.Processor("es_publisher", searchindex.ProcessorName, searchindex.KeyService, "search", searchindex.KeyIndex, "matches"),
	}
	streamtest.StartEngine(t, engine.Settings{}, df)
	b.ProduceLines(t, "raw", lines)

	out := streamtest.Decode(t, b.Consume(t, "events", parsed, 90*time.Second))
	matched := 0
	for _, r := range out {
		v, ok := r.Get(lucene.FieldMatchName)
		if !ok {
			continue
		}
		if v.String() != `["presentations"]` || r.Type != "apache_log" {
			t.Fatalf("record tagged %s, type %s", v.String(), r.Type)
		}
		matched++
	}
	if len(out) != parsed || matched != presentations {
		t.Errorf("%d records, %d tagged; want %d and %d", len(out), matched, parsed, presentations)
	}
	deadline := time.Now().Add(90 * time.Second)
	for {
		n, err := srv.Count("matches")
		if err == nil && n == parsed {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("ZincSearch holds %d documents (%v), want %d", n, err, parsed)
		}
		time.Sleep(200 * time.Millisecond)
	}
}
