package useragent_test

import (
	"strings"
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/dataflow"
	"github.com/weir-streams/weir/internal/engine"
	"github.com/weir-streams/weir/internal/plugins/useragent"
	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/streamtest"
)

// streamFields are the attributes the in-stream test asks for.
var streamFields = []string{
	"DeviceClass", "DeviceName", "DeviceBrand", "OperatingSystemName", "OperatingSystemVersion",
	"LayoutEngineName", "AgentClass", "AgentName", "AgentVersionMajor", "AgentNameVersionMajor",
}

// TestParseUserAgentInStream runs the spec's enrichment job on the embedded
// broker: SplitText with the 11-group regex, then ParseUserAgent, over the
// whole real access log. Every line becomes one record with the attributes,
// none an error record, and a few lines are checked against values worked
// out by hand from their user agents.
func TestParseUserAgentInStream(t *testing.T) {
	b := streamtest.StartBroker(t)
	b.CreateTopic(t, "pipeline_raw", 4)
	lines := streamtest.AccessLogLines(t)
	if len(lines) != 10000 {
		t.Fatalf("access log has %d lines, want 10000", len(lines))
	}
	b.ProduceLines(t, "pipeline_raw", lines)

	s := streamtest.Stream("enrich", b.Addr, "pipeline_raw", "pipeline_events", "pipeline_errors")
	s.Pipeline.Processors = []dataflow.Component{
		streamtest.ApacheParser(true),
		streamtest.Processor("user_agent", useragent.ParseUserAgentName,
			"useragent.field", "http_user_agent", "fields", strings.Join(streamFields, ",")),
	}
	df := &dataflow.DataFlow{LastModified: time.Unix(1, 0), Streams: []dataflow.Stream{s}}
	streamtest.StartEngine(t, engine.Settings{}, df)

	recs := streamtest.Decode(t, b.Consume(t, "pipeline_events", len(lines), 60*time.Second))
	if len(recs) != 10000 {
		t.Fatalf("%d records out, want 10000", len(recs))
	}
	byLine := make(map[string]*record.Record, len(recs))
	classes := map[string]int{}
	for _, r := range recs {
		line, _ := r.GetString(record.FieldValue)
		byLine[line] = r
		if _, ok := r.GetString("http_user_agent"); !ok {
			t.Fatalf("record without http_user_agent: %v", r)
		}
		for _, f := range streamFields {
			if v, _ := r.GetString(f); v == "" {
				t.Fatalf("record without %s: %v", f, r)
			}
		}
		dc, _ := r.GetString("DeviceClass")
		classes[dc]++
	}
	if n := b.Count(t, "pipeline_errors"); n != 0 {
		t.Errorf("%d error records, want 0", n)
	}
	t.Logf("device classes: %v", classes)
	// The log is mostly desktop browsers and robots: a sanity check on the
	// mix, with wide margins.
	if classes["Desktop"] < 5000 || classes["Robot"]+classes["Robot Mobile"] < 1000 || classes["Phone"] < 100 {
		t.Errorf("implausible device class mix: %v", classes)
	}

	// Expectations worked out by hand from the user agents of these lines.
	cases := []struct {
		line int // 1-based line number in the log
		want map[string]string
	}{
		{1, map[string]string{ // Chrome 32 on OS X 10.9.1
			"DeviceClass": "Desktop", "DeviceName": "Apple Macintosh", "DeviceBrand": "Apple",
			"OperatingSystemName": "Mac OS", "OperatingSystemVersion": "10.9.1", "LayoutEngineName": "Blink",
			"AgentClass": "Browser", "AgentName": "Chrome", "AgentVersionMajor": "32", "AgentNameVersionMajor": "Chrome 32"}},
		{42, map[string]string{ // the stock browser of an LG phone on Android 4.0.4
			"DeviceClass": "Phone", "DeviceBrand": "LG", "OperatingSystemName": "Android", "OperatingSystemVersion": "4.0.4",
			"LayoutEngineName": "AppleWebKit", "AgentClass": "Browser"}},
		{77, map[string]string{ // Sogou's crawler
			"DeviceClass": "Robot", "AgentClass": "Robot", "AgentVersionMajor": "4"}},
		{134, map[string]string{ // Chrome 26 (still WebKit) on a Samsung GT-S5282
			"DeviceClass": "Phone", "DeviceName": "Samsung GT-S5282", "DeviceBrand": "Samsung",
			"OperatingSystemName": "Android", "OperatingSystemVersion": "4.1.2", "LayoutEngineName": "AppleWebKit",
			"AgentName": "Chrome", "AgentVersionMajor": "26"}},
		{5000, map[string]string{ // Firefox 27 on Windows 7
			"DeviceClass": "Desktop", "OperatingSystemName": "Windows NT", "OperatingSystemVersion": "7",
			"LayoutEngineName": "Gecko", "AgentClass": "Browser", "AgentName": "Firefox", "AgentNameVersionMajor": "Firefox 27"}},
		{8899, map[string]string{ // Googlebot, on the truncated line without its closing quote
			"DeviceClass": "Robot", "AgentClass": "Robot", "AgentName": "Googlebot"}},
	}
	for _, c := range cases {
		r, ok := byLine[lines[c.line-1]]
		if !ok {
			t.Fatalf("no record for line %d", c.line)
		}
		ua, _ := r.GetString("http_user_agent")
		for k, want := range c.want {
			if got, _ := r.GetString(k); got != want {
				t.Errorf("line %d (%.60q): %s = %q, want %q", c.line, ua, k, got, want)
			}
		}
	}
}
