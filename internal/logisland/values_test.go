package logisland_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/weir-streams/weir/internal/dataflow"
	"github.com/weir-streams/weir/internal/logisland"
)

// TestElasticsearchServiceValues: LogIsland's host:port list, seconds and
// backoff names become Weir's; the transport port is warned about.
func TestElasticsearchServiceValues(t *testing.T) {
	c := dataflow.Component{Component: "pkg.service.elasticsearch.Elasticsearch_5_4_0_ClientService",
		Config: props("hosts", "es1:9300, https://es2:9200", "flush.interval", "5", "backoff.policy", "defaultBackoff", "cluster.name", "x")}
	res := logisland.Canonicalize(&c)
	if c.Component != logisland.SearchIndexService {
		t.Fatalf("component %s", c.Component)
	}
	got := map[string]string{}
	for _, p := range c.Config {
		got[p.Key] = p.Value
	}
	if got["hosts"] != "http://es1:9300,https://es2:9200" || got["flush.interval"] != "5000" || got["backoff.policy"] != "exponential" || got["cluster.name"] != "" {
		t.Errorf("values %v", got)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "9300") || len(res.Ignored) != 1 {
		t.Errorf("warnings %q ignored %v", res.Warnings, res.Ignored)
	}
	// Weir's own service keeps its values as written: 5 is milliseconds.
	c = dataflow.Component{Component: logisland.SearchIndexService, Config: props("hosts", "http://es:9200", "flush.interval", "5")}
	logisland.Canonicalize(&c)
	if c.Config[1].Value != "5" {
		t.Errorf("Weir's flush.interval became %s", c.Config[1].Value)
	}
}

// TestRewriteStructured: a Kafka reader and writer become one stream's
// keys; two providers naming different brokers are refused; a stream whose
// reader is no Kafka provider is left alone.
func TestRewriteStructured(t *testing.T) {
	df := &dataflow.DataFlow{
		Services: []dataflow.Component{
			{Name: "in", Component: logisland.KafkaProvider, Config: props("kafka.input.topics", "a", "kafka.metadata.broker.list", "k1:9092", "kafka.output.topics", "ignored_by_reader")},
			{Name: "out", Component: logisland.KafkaProvider, Config: props("kafka.output.topics", "b", "kafka.metadata.broker.list", "k2:9092", "kafka.input.topics", "ignored_by_writer")},
			{Name: "mqtt", Component: "pkg.stream.spark.structured.provider.MQTTStructuredStreamProviderService"},
			{Name: "cache", Component: "pkg.service.cache.LRUKeyValueCacheService"},
		},
		Streams: []dataflow.Stream{
			{Component: dataflow.Component{Name: "s", Component: logisland.StructuredStream, Config: props("read.stream.service.provider", "in", "write.stream.service.provider", "out", "group.by.fields", "x")}},
			{Component: dataflow.Component{Name: "m", Component: logisland.StructuredStream, Config: props("read.stream.service.provider", "mqtt", "write.stream.service.provider", "out")}},
		},
	}
	res := logisland.RewriteStructured(df)
	if !slices.Equal(res.Streams, []int{0}) || len(res.Problems) != 1 || !strings.Contains(res.Problems[0].Msg, "k2:9092") {
		t.Fatalf("streams %v problems %+v", res.Streams, res.Problems)
	}
	got := map[string]string{}
	for _, p := range df.Streams[0].Config {
		got[p.Key] = p.Value
	}
	if got["kafka.input.topics"] != "a" || got["kafka.output.topics"] != "b" || got["kafka.error.topics"] != "none" || got["kafka.metadata.broker.list"] != "k1:9092" {
		t.Errorf("keys %v", got)
	}
	if df.Streams[1].Component.Component != logisland.StructuredStream {
		t.Error("the MQTT stream was rewritten")
	}
	var names []string
	for _, s := range df.Services {
		names = append(names, s.Name)
	}
	if !slices.Equal(names, []string{"mqtt", "cache"}) {
		t.Errorf("services left %q", names)
	}
	if !slices.Contains(res.Ignored, ".configuration.group.by.fields") {
		t.Errorf("ignored %q", res.Ignored)
	}
}
