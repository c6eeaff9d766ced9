package logisland_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/weir-streams/weir/internal/dataflow"
	"github.com/weir-streams/weir/internal/logisland"
)

// structuredFlow is a structured stream reading through the providers
// named in readers (comma-separated) and writing through "out", with the
// given providers' configurations and the stream's own keys.
func structuredFlow(readers string, providers map[string][]dataflow.Property, own ...dataflow.Property) *dataflow.DataFlow {
	d := &dataflow.DataFlow{}
	for _, name := range []string{"a", "b", "c", "out"} {
		if conf, ok := providers[name]; ok {
			d.Services = append(d.Services, dataflow.Component{Name: name, Component: logisland.KafkaProvider, Path: "services[" + name + "]", Config: conf})
		}
	}
	conf := append(props("read.stream.service.provider", readers, "write.stream.service.provider", "out"), own...)
	d.Streams = []dataflow.Stream{{Component: dataflow.Component{Name: "s", Component: logisland.StructuredStream, Path: "streams[s]", Config: conf}}}
	return d
}

// TestStructuredReaders: the readers of a structured stream make one
// subscription with what LogIsland reads from their union.
func TestStructuredReaders(t *testing.T) {
	out := props("kafka.output.topics", "events")
	for _, tc := range []struct {
		name      string
		readers   string
		providers map[string][]dataflow.Property
		own       []dataflow.Property
		want      []string // key=value of the stream's input keys
		problem   string
	}{
		{"one reader by pattern", "a", map[string][]dataflow.Property{
			"a": props("kafka.input.topics.pattern", "t.*", "kafka.input.topics.ignored", "t2"), "out": out},
			nil, []string{"kafka.input.topics.pattern=t.*", "kafka.input.topics.ignored=t2"}, ""},
		{"lists joined, each less its ignored", "a, b", map[string][]dataflow.Property{
			"a": props("kafka.input.topics", "t1,t2", "kafka.input.topics.ignored", "t2"), "b": props("kafka.input.topics", "t3,t1"), "out": out},
			nil, []string{"kafka.input.topics=t1,t3"}, ""},
		{"a pattern and a list: what only the pattern's reader ignores stays ignored", "a,b", map[string][]dataflow.Property{
			"a": props("kafka.input.topics.pattern", "t.*", "kafka.input.topics.ignored", "t2,t.x"), "b": props("kafka.input.topics", "t2"), "out": out},
			nil, []string{"kafka.input.topics.pattern=(?:t.*)|t2", "kafka.input.topics.ignored=t.x"}, ""},
		{"a topic one pattern ignores and another matches is read", "a,b", map[string][]dataflow.Property{
			"a": props("kafka.input.topics.pattern", "t.*", "kafka.input.topics.ignored", "t2"), "b": props("kafka.input.topics.pattern", "t[0-9]"), "out": out},
			nil, []string{"kafka.input.topics.pattern=(?:t.*)|(?:t[0-9])"}, ""},
		{"the stream's own topics give way to a provider's pattern", "a", map[string][]dataflow.Property{
			"a": props("kafka.input.topics.pattern", "t.*"), "out": out},
			props("read.topics", "x"), []string{"kafka.input.topics.pattern=t.*"}, ""},
		{"a reader with both", "a,b", map[string][]dataflow.Property{
			"a": props("kafka.input.topics.pattern", "t.*", "kafka.input.topics", "t1"), "b": props("kafka.input.topics", "t2"), "out": out},
			nil, nil, `provider "a" sets both kafka.input.topics and kafka.input.topics.pattern; LogIsland requires one`},
		{"a reader with neither", "a,b", map[string][]dataflow.Property{
			"a": props("kafka.topic.autoCreate", "true"), "b": props("kafka.input.topics", "t2"), "out": out},
			nil, nil, `provider "a" sets neither kafka.input.topics nor kafka.input.topics.pattern`},
		{"a pattern Go cannot read", "a,b", map[string][]dataflow.Property{
			"a": props("kafka.input.topics.pattern", "(?!t2)t.*"), "b": props("kafka.input.topics", "t2"), "out": out},
			nil, nil, `provider "a": kafka.input.topics.pattern "(?!t2)t.*" is not a regular expression Weir reads (RE2 syntax)`},
		{"readers with two serializers", "a,b", map[string][]dataflow.Property{
			"a": props("kafka.input.topics", "t1", "read.value.serializer", "pkg.serializer.JsonSerializer"),
			"b": props("kafka.input.topics", "t2", "read.value.serializer", "pkg.serializer.StringSerializer"), "out": out},
			nil, nil, `provider "b" gives read.value.serializer "pkg.serializer.StringSerializer" where provider "a" read.value.serializer gives "pkg.serializer.JsonSerializer"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := structuredFlow(tc.readers, tc.providers, tc.own...)
			res := logisland.RewriteStructured(d)
			var probs []string
			for _, p := range res.Problems {
				probs = append(probs, p.Msg)
			}
			if tc.problem != "" {
				if len(probs) != 1 || !strings.Contains(probs[0], tc.problem) {
					t.Errorf("problems %q, want %q", probs, tc.problem)
				}
				return
			}
			if len(probs) > 0 {
				t.Fatalf("problems %q", probs)
			}
			if len(res.Streams) != 1 || len(d.Services) != 0 {
				t.Fatalf("streams rewritten %v, services left %d", res.Streams, len(d.Services))
			}
			var got []string
			for _, p := range d.Streams[0].Config {
				if strings.HasPrefix(p.Key, "kafka.input.topics") && p.Key != "kafka.input.topics.serializer" {
					got = append(got, p.Key+"="+p.Value)
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("input keys %q, want %q", got, tc.want)
			}
		})
	}
}

// TestStructuredUnusedProvider: a Kafka provider no structured stream
// names is dropped and listed; one a stream names that Weir cannot take
// (beside an MQTT reader) is kept, to be refused with its reason.
func TestStructuredUnusedProvider(t *testing.T) {
	d := structuredFlow("a", map[string][]dataflow.Property{
		"a": props("kafka.input.topics", "t1"), "b": props("kafka.input.topics", "t2"), "out": props("kafka.output.topics", "events")})
	res := logisland.RewriteStructured(d)
	if !slices.Equal(res.Unused, []string{"services[b]"}) || len(d.Services) != 0 {
		t.Errorf("unused %q, services left %v", res.Unused, d.Services)
	}

	d = structuredFlow("a,c", map[string][]dataflow.Property{"a": props("kafka.input.topics", "t1"), "out": props("kafka.output.topics", "events")})
	d.Services = append(d.Services, dataflow.Component{Name: "c", Component: "pkg.stream.spark.structured.provider.MQTTStructuredStreamProviderService"})
	res = logisland.RewriteStructured(d)
	if len(res.Unused) != 0 || len(res.Streams) != 0 || len(d.Services) != 3 {
		t.Errorf("unused %q, streams %v, services %d: want the stream and its providers left", res.Unused, res.Streams, len(d.Services))
	}
}
