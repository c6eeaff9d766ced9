package fields_test

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"

	"github.com/weir-streams/weir/internal/dataflow"
	"github.com/weir-streams/weir/internal/engine"
	"github.com/weir-streams/weir/internal/plugins/fields"
	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/streamtest"
)

// expected counts what the test expects of the real log, worked out with a
// regular expression independent of the processors under test.
type expected struct {
	lines, parsed, robots, s5xx, s4xx, rest int
	methods                                 map[string]int
}

func countLog(t *testing.T, lines []string) expected {
	re := regexp.MustCompile(`^(?:` + streamtest.ApacheEnrichRegex + `)`)
	e := expected{lines: len(lines), methods: map[string]int{}}
	for _, l := range lines {
		m := re.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		e.parsed++
		if m[6] == "/robots.txt" {
			e.robots++
			continue
		}
		e.methods[m[5]]++
		switch m[8][0] {
		case '5':
			e.s5xx++
		case '4':
			e.s4xx++
		default:
			e.rest++
		}
	}
	return e
}

// committed returns the sum of the group's committed offsets on topic.
func committed(t *testing.T, b *streamtest.Broker, group, topic string) int64 {
	offs, err := b.Admin().FetchOffsets(context.Background(), group)
	if err != nil {
		t.Fatal(err)
	}
	var sum int64
	offs.Each(func(o kadm.OffsetResponse) {
		if o.Topic == topic {
			sum += o.At
		}
	})
	return sum
}

// TestKitInStream runs the real access log through SplitText,
// ConvertFieldsType, FilterRecords (robots.txt requests dropped) and
// RouteRecords (5xx and 4xx to their own topics, created at start), and
// checks every count, the typed fields, and that the offsets of dropped
// records are committed.
func TestKitInStream(t *testing.T) {
	b := streamtest.StartBroker(t)
	b.CreateTopic(t, "pipeline_raw", 4)
	lines := streamtest.AccessLogLines(t)
	want := countLog(t, lines)
	b.ProduceLines(t, "pipeline_raw", lines)

	s := streamtest.Stream("kit", b.Addr, "pipeline_raw", "logs", "pipeline_errors")
	s.Pipeline.Processors = []dataflow.Component{
		streamtest.ApacheParser(true),
		streamtest.Processor("convert", fields.ConvertFieldsTypeName, "http_status", "int", "bytes_out", "long"),
		streamtest.Processor("no_robots", fields.FilterRecordsName, "not_robots", `http_query != "/robots.txt"`),
		streamtest.Processor("route", fields.RouteRecordsName,
			"output.topic.expression", `${http_status >= 500 ? "logs_5xx" : http_status >= 400 ? "logs_4xx" : ""}`,
			"output.topics.known", "logs_5xx,logs_4xx"),
	}
	df := &dataflow.DataFlow{LastModified: time.Unix(1, 0), Streams: []dataflow.Stream{s}}
	streamtest.StartEngine(t, engine.Settings{}, df)

	logs := streamtest.Decode(t, b.Consume(t, "logs", want.rest, 60*time.Second))
	b5 := streamtest.Decode(t, b.Consume(t, "logs_5xx", want.s5xx, 60*time.Second))
	b4 := streamtest.Decode(t, b.Consume(t, "logs_4xx", want.s4xx, 60*time.Second))
	if len(logs) != want.rest || len(b5) != want.s5xx || len(b4) != want.s4xx {
		t.Fatalf("logs %d, 5xx %d, 4xx %d; want %d, %d, %d", len(logs), len(b5), len(b4), want.rest, want.s5xx, want.s4xx)
	}
	if want.s5xx == 0 || want.s4xx == 0 || want.robots == 0 {
		t.Fatalf("the log no longer has 5xx, 4xx or robots.txt lines: %+v", want)
	}
	for _, r := range b5 {
		if n, ok := r.Get("http_status"); !ok || n.Kind() != record.Int {
			t.Fatalf("http_status is not an integer: %v", r)
		}
		if n, _ := r.Get("http_status"); n.String()[0] != '5' {
			t.Errorf("a %s record on logs_5xx", n)
		}
		if r.Has(record.FieldOutputTopic) {
			t.Errorf("the routing field was written: %v", r)
		}
	}
	errs := b.Count(t, "pipeline_errors")
	if int(errs) != want.lines-want.parsed {
		t.Errorf("%d error records, want %d (lines the regex does not match)", errs, want.lines-want.parsed)
	}
	// Every input offset commits, those of the dropped robots.txt
	// requests included.
	deadline := time.Now().Add(30 * time.Second)
	for committed(t, b, "weir-test", "pipeline_raw") != int64(want.lines) {
		if time.Now().After(deadline) {
			t.Fatalf("committed %d offsets, want %d", committed(t, b, "weir-test", "pipeline_raw"), want.lines)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestRouteToMissingTopicWithoutAutoCreate routes by http_method with
// broker.topic.autoCreate false: only the GET topic exists, so HEAD, POST
// and OPTIONS records become error records naming their topic, and the
// stream goes on.
func TestRouteToMissingTopicWithoutAutoCreate(t *testing.T) {
	b := streamtest.StartBroker(t)
	for _, tp := range []string{"pipeline_raw", "logs", "pipeline_errors", "GET"} {
		b.CreateTopic(t, tp, 2)
	}
	lines := streamtest.AccessLogLines(t)
	want := countLog(t, lines)
	b.ProduceLines(t, "pipeline_raw", lines)
	s := streamtest.Stream("route", b.Addr, "pipeline_raw", "logs", "pipeline_errors",
		dataflow.Property{Key: "broker.topic.autoCreate", Value: "false"})
	s.Pipeline.Processors = []dataflow.Component{
		streamtest.ApacheParser(true),
		streamtest.Processor("route", fields.RouteRecordsName, "output.topic.field", "http_method"),
	}
	df := &dataflow.DataFlow{LastModified: time.Unix(1, 0), Streams: []dataflow.Stream{s}}
	streamtest.StartEngine(t, engine.Settings{}, df)

	gets := want.methods["GET"] + countRobots(lines, "GET")
	got := b.Consume(t, "GET", gets, 60*time.Second)
	if len(got) != gets {
		t.Fatalf("%d records on GET, want %d", len(got), gets)
	}
	others := want.parsed - gets
	unparsed := want.lines - want.parsed
	errs := streamtest.Decode(t, b.Consume(t, "pipeline_errors", others+unparsed, 60*time.Second))
	routing := map[string]int{}
	for _, r := range errs {
		for _, e := range r.Errors() {
			if strings.HasPrefix(e, "routing_error") {
				m, _ := r.GetString("http_method")
				if !strings.Contains(e, `"`+m+`"`) {
					t.Errorf("error %q does not name topic %q", e, m)
				}
				routing[m]++
			}
		}
	}
	for _, m := range []string{"HEAD", "POST", "OPTIONS"} {
		if routing[m] != want.methods[m]+countRobots(lines, m) {
			t.Errorf("%d routing errors for %s, want %d", routing[m], m, want.methods[m])
		}
	}
	if n := b.Count(t, "logs"); n != 0 {
		t.Errorf("%d records on the stream's output topic, want 0 (all routed)", n)
	}
}

// countRobots counts the robots.txt requests of a method, which countLog
// leaves out of its per-method counts.
func countRobots(lines []string, method string) int {
	n := 0
	for _, l := range lines {
		if strings.Contains(l, `"`+method+` /robots.txt `) {
			n++
		}
	}
	return n
}

// TestRoutedTopicsKnownInAdvance: the topics RouteRecords knows before any
// record (output.topic.default and output.topics.known) are created when the
// stream starts, with no record routed yet; with broker.topic.autoCreate
// false, one that does not exist refuses the start and is named.
func TestRoutedTopicsKnownInAdvance(t *testing.T) {
	b := streamtest.StartBroker(t)
	for _, tp := range []string{"pipeline_raw", "logs", "pipeline_errors"} {
		b.CreateTopic(t, tp, 1)
	}
	route := streamtest.Processor("route", fields.RouteRecordsName, "output.topic.field", "http_method",
		"output.topic.default", "by_default", "output.topics.known", "ahead_1,ahead_2")
	s := streamtest.Stream("route", b.Addr, "pipeline_raw", "logs", "pipeline_errors")
	s.Pipeline.Processors = []dataflow.Component{streamtest.ApacheParser(true), route}
	streamtest.StartEngine(t, engine.Settings{}, &dataflow.DataFlow{LastModified: time.Unix(1, 0), Streams: []dataflow.Stream{s}})
	md, err := b.Admin().ListTopics(context.Background(), "by_default", "ahead_1", "ahead_2")
	if err != nil {
		t.Fatal(err)
	}
	for _, tp := range []string{"by_default", "ahead_1", "ahead_2"} {
		if d, ok := md[tp]; !ok || d.Err != nil {
			t.Errorf("topic %s was not created at start: %v", tp, md)
		}
	}

	s = streamtest.Stream("route_off", b.Addr, "pipeline_raw", "logs", "pipeline_errors",
		dataflow.Property{Key: "broker.topic.autoCreate", Value: "false"})
	s.Pipeline.Processors = []dataflow.Component{streamtest.ApacheParser(true),
		streamtest.Processor("route", fields.RouteRecordsName, "output.topic.field", "http_method", "output.topics.known", "ahead_1,not_created")}
	e := streamtest.NewEngine(t, engine.Settings{})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err = e.Apply(ctx, &dataflow.DataFlow{LastModified: time.Unix(1, 0), Streams: []dataflow.Stream{s}})
	if err == nil || !strings.Contains(err.Error(), `topic "not_created" does not exist`) {
		t.Fatalf("start with a known topic missing and autoCreate false: %v", err)
	}
}
