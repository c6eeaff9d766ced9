package stream_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/dataflow"
	"github.com/weir-streams/weir/internal/engine"
	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/streamtest"
)

// parsingDataflow is the spec's sample job as a dataflow.
// With enrich, the parser also takes the referer and the user agent.
func parsingDataflow(brokers string, enrich bool) *dataflow.DataFlow {
	s := streamtest.Stream("parsing", brokers, "pipeline_raw", "pipeline_events", "pipeline_errors")
	s.Pipeline.Processors = []dataflow.Component{streamtest.ApacheParser(enrich)}
	return &dataflow.DataFlow{LastModified: time.Unix(1, 0), Streams: []dataflow.Stream{s}}
}

func TestRealAccessLogEndToEnd(t *testing.T) {
	b := streamtest.StartBroker(t)
	b.CreateTopic(t, "pipeline_raw", 4)
	lines := streamtest.AccessLogLines(t)
	if len(lines) != 10000 {
		t.Fatalf("access log has %d lines, want 10000", len(lines))
	}
	b.ProduceLines(t, "pipeline_raw", lines)
	streamtest.StartEngine(t, engine.Settings{}, parsingDataflow(b.Addr, false))

	recs := streamtest.Decode(t, b.Consume(t, "pipeline_events", 10000, 60*time.Second))
	byLine := map[string]*record.Record{}
	ids := map[string]bool{}
	for _, r := range recs {
		v, _ := r.GetString(record.FieldValue)
		byLine[v] = r
		if ids[r.ID] {
			t.Fatalf("duplicate id %s", r.ID)
		}
		ids[r.ID] = true
		if id, _ := r.GetString(record.FieldID); id != r.ID {
			t.Fatalf("record_id %q != id %q", id, r.ID)
		}
		if r.Type != "apache_log" {
			t.Fatalf("type %q", r.Type)
		}
		if v, ok := r.Get(record.FieldTime); !ok || v.Kind() != record.Int {
			t.Fatalf("record_time is %v, want an integer: %v", v.Kind(), r)
		}
	}
	if n := b.Count(t, "pipeline_errors"); n != 0 {
		t.Errorf("%d error records for the real log, want 0", n)
	}
	// Expectations computed by hand from the lines.
	cases := []struct {
		line   string
		fields map[string]string
		time   int64
	}{
		{
			line: lines[0],
			fields: map[string]string{"src_ip": "83.149.9.216", "identd": "-", "user": "-", "http_method": "GET",
				"http_query": "/presentations/logstash-monitorama-2013/images/kibana-search.png", "http_version": "HTTP/1.1",
				"http_status": "200", "bytes_out": "203023"},
			time: 1431857103000, // 17/May/2015:10:05:03 +0000
		},
		{
			line:   lines[76], // a response without a body: bytes "-"
			fields: map[string]string{"src_ip": "218.30.103.62", "http_query": "/robots.txt", "http_status": "200", "bytes_out": "-"},
			time:   1431860711000, // 17/May/2015:11:05:11 +0000
		},
		{
			line:   lines[4999],
			fields: map[string]string{"src_ip": "95.82.59.254", "http_query": "/favicon.ico", "bytes_out": "3638"},
			time:   1432004714000, // 19/May/2015:03:05:14 +0000
		},
	}
	for _, c := range cases {
		r, ok := byLine[c.line]
		if !ok {
			t.Fatalf("no record for line %q", c.line)
		}
		for k, want := range c.fields {
			if got, _ := r.GetString(k); got != want {
				t.Errorf("line %.40q: field %s = %q, want %q", c.line, k, got, want)
			}
		}
		if got, _ := r.Get(record.FieldTime); !got.Equal(record.IntValue(c.time)) {
			t.Errorf("line %.40q: record_time = %v, want %d", c.line, got.Text(), c.time)
		}
	}
}

func TestEnrichmentRegexParsesTheWholeLog(t *testing.T) {
	b := streamtest.StartBroker(t)
	b.CreateTopic(t, "pipeline_raw", 2)
	lines := streamtest.AccessLogLines(t)
	b.ProduceLines(t, "pipeline_raw", lines)
	streamtest.StartEngine(t, engine.Settings{}, parsingDataflow(b.Addr, true))
	recs := streamtest.Decode(t, b.Consume(t, "pipeline_events", len(lines), 60*time.Second))
	uas := map[string]bool{}
	for _, r := range recs {
		ua, ok := r.GetString("http_user_agent")
		if !ok {
			t.Fatalf("no user agent: %v", r)
		}
		uas[ua] = true
	}
	if len(uas) != 559 {
		t.Errorf("%d distinct user agents, want 559 (the log's README)", len(uas))
	}
	if n := b.Count(t, "pipeline_errors"); n != 0 {
		t.Errorf("%d error records, want 0", n)
	}
}

func TestBadLinesBecomeErrorRecords(t *testing.T) {
	b := streamtest.StartBroker(t)
	b.CreateTopic(t, "pipeline_raw", 1)
	bad := []string{"", "garbage that is no log line", "83.149.9.216 - - [32/Foo/2015:10:05:03 +0000] \"GET / HTTP/1.1\" 200 1"}
	good := streamtest.AccessLogLines(t)[:3]
	b.ProduceLines(t, "pipeline_raw", append(append([]string{}, good...), bad...))
	streamtest.StartEngine(t, engine.Settings{}, parsingDataflow(b.Addr, false))

	errs := streamtest.Decode(t, b.Consume(t, "pipeline_errors", len(bad), 30*time.Second))
	want := map[string]string{
		"":                            "regex_matching_error: empty line",
		"garbage that is no log line": "regex_matching_error: line does not match value.regex",
		bad[2]:                        "date_parsing_error: cannot parse record_time",
	}
	for _, r := range errs {
		raw, _ := r.GetString(record.FieldValue)
		reason, ok := want[raw]
		if !ok {
			t.Fatalf("unexpected error record %v", r)
		}
		v, _ := r.Get(record.FieldErrors)
		if !strings.Contains(v.Text(), reason) {
			t.Errorf("errors of %q = %s, want %q", raw, v.Text(), reason)
		}
		if p, _ := r.GetString(record.FieldErrorProcessor); p != "apache_parser" {
			t.Errorf("processor = %q", p)
		}
		if tp, _ := r.GetString(record.FieldSourceTopic); tp != "pipeline_raw" {
			t.Errorf("source topic = %q", tp)
		}
		if _, ok := r.Get(record.FieldSourceOffset); !ok {
			t.Errorf("no source offset: %v", r)
		}
		delete(want, raw)
	}
	b.Consume(t, "pipeline_events", len(good), 10*time.Second)
}

func TestUndecodableJSONInputBecomesAnErrorRecord(t *testing.T) {
	b := streamtest.StartBroker(t)
	b.CreateTopic(t, "json_in", 1)
	b.Produce(t, "json_in", [][]byte{[]byte(`{"a":1}`), []byte(`{not json`), {0xff, 0xfe, 0x00}})
	s := streamtest.Stream("json", b.Addr, "json_in", "json_out", "json_errors",
		streamtest.Props("broker.input.topics.serializer", "pkg.serializer.JsonSerializer")...)
	streamtest.StartEngine(t, engine.Settings{}, &dataflow.DataFlow{LastModified: time.Unix(1, 0), Streams: []dataflow.Stream{s}})

	out := streamtest.Decode(t, b.Consume(t, "json_out", 1, 30*time.Second))
	if v, _ := out[0].Get("a"); !v.Equal(record.IntValue(1)) {
		t.Errorf("field a = %v", out[0])
	}
	errs := streamtest.Decode(t, b.Consume(t, "json_errors", 2, 30*time.Second))
	for _, r := range errs {
		v, _ := r.Get(record.FieldErrors)
		if !strings.Contains(v.Text(), "deserialization_error") {
			t.Errorf("error record without deserialization_error: %v", r)
		}
		if _, ok := r.Get(record.FieldValue); !ok {
			t.Errorf("error record lost the raw input: %v", r)
		}
	}
	raw := fmt.Sprint(errs[0].Get(record.FieldValue)) + fmt.Sprint(errs[1].Get(record.FieldValue))
	if !strings.Contains(raw, "{not json") {
		t.Errorf("raw inputs %s do not include the bad JSON", raw)
	}
}

// TestEveryOutputCompressionIsReadBack writes through each codec of
// broker.output.compression (lz4 through Weir's own frame writer) and reads
// the records back with a Kafka client.
func TestEveryOutputCompressionIsReadBack(t *testing.T) {
	b := streamtest.StartBroker(t)
	b.CreateTopic(t, "pipeline_raw", 1)
	lines := streamtest.AccessLogLines(t)[:200]
	b.ProduceLines(t, "pipeline_raw", lines)
	var streams []dataflow.Stream
	codecs := []string{"none", "gzip", "snappy", "lz4", "zstd"}
	for _, c := range codecs {
		s := streamtest.Stream("s_"+c, b.Addr, "pipeline_raw", "out_"+c, "errors_"+c,
			streamtest.Props("broker.output.compression", c)...)
		s.Pipeline.Processors = []dataflow.Component{streamtest.ApacheParser(false)}
		streams = append(streams, s)
	}
	// Each stream needs its own consumer group to read every line, so each
	// runs in its own engine.
	for i, s := range streams {
		streamtest.StartEngine(t, engine.Settings{AppName: "codec-" + codecs[i]},
			&dataflow.DataFlow{LastModified: time.Unix(1, 0), Streams: []dataflow.Stream{s}})
	}
	for _, c := range codecs {
		recs := streamtest.Decode(t, b.Consume(t, "out_"+c, len(lines), 30*time.Second))
		if v, _ := recs[0].GetString("src_ip"); v == "" {
			t.Errorf("%s: record without src_ip: %v", c, recs[0])
		}
	}
}

// TestOutputTimestampIsTheProduceTime: output and error records carry as
// their Kafka timestamp (CreateTime) the time the stream wrote them, in
// whole milliseconds, not the input's timestamp: the stream stamps each
// chunk's records once (chunkStamp) instead of letting the client read the
// clock for every record.
func TestOutputTimestampIsTheProduceTime(t *testing.T) {
	b := streamtest.StartBroker(t)
	b.CreateTopic(t, "pipeline_raw", 2)
	lines := append(streamtest.AccessLogLines(t)[:3000], "garbage that is no log line")
	b.ProduceLines(t, "pipeline_raw", lines)
	time.Sleep(5 * time.Millisecond) // the inputs' timestamps are then before start
	start := time.Now().Truncate(time.Millisecond)
	streamtest.StartEngine(t, engine.Settings{}, parsingDataflow(b.Addr, false))
	out := b.Consume(t, "pipeline_events", len(lines)-1, 60*time.Second)
	errs := b.Consume(t, "pipeline_errors", 1, 30*time.Second)
	end := time.Now()
	stamps := map[int64]int{}
	for _, m := range append(out, errs...) {
		if m.Timestamp.Before(start) || m.Timestamp.After(end) {
			t.Fatalf("record at %s/%d has timestamp %s, outside the run %s - %s", m.Topic, m.Offset, m.Timestamp, start, end)
		}
		if m.Timestamp.UnixNano()%int64(time.Millisecond) != 0 {
			t.Fatalf("timestamp %s is not in whole milliseconds", m.Timestamp)
		}
		stamps[m.Timestamp.UnixMilli()]++
	}
	t.Logf("%d records, %d distinct timestamps", len(out)+len(errs), len(stamps))
}
