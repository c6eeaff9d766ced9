// Package logisland holds LogIsland 1.x's names of the engine, the stream
// and their keys, and maps them to Weir's (the spec's), so that a LogIsland
// job file runs after only its package prefix is changed
// (com.hurence.logisland -> pkg). The job loader (internal/config) and the
// REST dataflow decoder (internal/remote) both call Canonicalize, so the two
// sources of configuration accept the same names and everything after them
// (validation, the engine, `weir components`, the pushed snapshot, dry runs)
// sees only Weir's.
//
// The names come from LogIsland's own sources (Hurence/logisland,
// logisland-engine-spark_2_common: KafkaStreamProcessingEngine.scala and
// AbstractKafkaRecordStream.scala; the Elasticsearch, MongoDB and vanilla
// engine modules) and from the job files of its
// logisland-resources/src/main/resources/conf. Most processor keys need no
// mapping: Weir's processors already use LogIsland's. Besides the renames,
// values.go converts values LogIsland's components mean otherwise,
// structured.go turns structured streams into Weir's stream, and
// unsupported.go lists the components Weir refuses, with why.
//
// This package imports only dataflow and component, because internal/remote (imported by
// the engine's settings) uses it: the canonical keys are written out here,
// and a test of internal/config checks each against the registered specs.
package logisland

import (
	"fmt"
	"sort"
	"strings"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/dataflow"
)

// Weir's identifiers of the engine and the stream (settings.Name and
// stream.Name; see the package comment for why they are not imported).
const (
	Engine = "pkg.engine.engine.BrokerStreamProcessingEngine"
	Stream = "pkg.stream.engine.BrokerRecordStreamParallelProcessing"
)

// Weir's identifiers of the search-index service and processor and of the
// document-database service (searchindex.ServiceName,
// searchindex.ProcessorName, docdb.ServiceName).
const (
	SearchIndexService   = "pkg.service.searchindex.SearchIndexClientService"
	SearchIndexProcessor = "pkg.processor.searchindex.BulkAddSearchIndex"
	DocDBService         = "pkg.service.docdb.DocDBControllerService"
)

// LogIsland's Elasticsearch client services, one per client library
// version. Weir speaks Elasticsearch's HTTP API, which every version
// serves, so all four are the search-index service.
var elasticsearchServices = []string{
	"pkg.service.elasticsearch.Elasticsearch_2_4_0_ClientService",
	"pkg.service.elasticsearch.Elasticsearch_5_4_0_ClientService",
	"pkg.service.elasticsearch.Elasticsearch_6_6_2_ClientService",
	"pkg.service.elasticsearch.Elasticsearch_7_x_ClientService",
}

// components maps LogIsland's engine and stream identifiers, prefix
// changed, to Weir's. RemoteApiStreamProcessingEngine is the same engine
// with the REST API keys (remote.api.*), which Weir's engine has. The other
// LogIsland streams (KafkaRecordStreamDebugger, HDFSBurner, SQLAggregator,
// the structured streams, which structured.go turns into Weir's stream)
// behave differently and have no alias.
//
// PlainJavaEngine and its KafkaStreamsPipelineStream run the same
// Kafka-to-Kafka processor chain without Spark: they are Weir's engine and
// stream too. BulkAddElasticsearch is BulkAddSearchIndex, the Elasticsearch
// client services the search-index service, MongoDBControllerService the
// document-database service (MongoDB's wire protocol).
var components = map[string]string{
	"pkg.engine.spark.KafkaStreamProcessingEngine":                Engine,
	"pkg.engine.spark.RemoteApiStreamProcessingEngine":            Engine,
	"pkg.stream.spark.KafkaRecordStreamParallelProcessing":        Stream,
	"pkg.engine.vanilla.PlainJavaEngine":                          Engine,
	"pkg.engine.vanilla.stream.kafka.KafkaStreamsPipelineStream":  Stream,
	"pkg.processor.elasticsearch.BulkAddElasticsearch":            SearchIndexProcessor,
	"pkg.service.mongodb.MongoDBControllerService":                DocDBService,
	"pkg.service.elasticsearch.Elasticsearch_2_4_0_ClientService": SearchIndexService,
	"pkg.service.elasticsearch.Elasticsearch_5_4_0_ClientService": SearchIndexService,
	"pkg.service.elasticsearch.Elasticsearch_6_6_2_ClientService": SearchIndexService,
	"pkg.service.elasticsearch.Elasticsearch_7_x_ClientService":   SearchIndexService,
	// LogIsland's files spell the URL decoder's package both ways; the
	// class is webAnalytics.URLDecoder (fields.URLDecoderName).
	"pkg.processor.webanalytics.URLDecoder": "pkg.processor.webAnalytics.URLDecoder",
}

// keys maps, per Weir component, LogIsland's key to Weir's.
var keys = map[string]map[string]string{
	Engine: {
		"spark.app.name":                            "engine.app.name",
		"spark.master":                              "engine.master",
		"spark.driver.memory":                       "engine.driver.memory",
		"spark.streaming.batchDuration":             "engine.streaming.batchDuration",
		"spark.streaming.kafka.maxRatePerPartition": "engine.streaming.broker.maxRatePerPartition",
		"spark.streaming.timeout":                   "engine.streaming.timeout",
		"spark.ui.port":                             "engine.ui.port",
	},
	Stream: {
		"kafka.input.topics":                    "broker.input.topics",
		"kafka.input.topics.pattern":            "broker.input.topics.pattern",
		"kafka.input.topics.ignored":            "broker.input.topics.ignored",
		"kafka.output.topics":                   "broker.output.topics",
		"kafka.error.topics":                    "broker.error.topics",
		"kafka.input.topics.serializer":         "broker.input.topics.serializer",
		"kafka.output.topics.serializer":        "broker.output.topics.serializer",
		"kafka.error.topics.serializer":         "broker.error.topics.serializer",
		"kafka.metadata.broker.list":            "broker.metadata.broker.list",
		"kafka.zookeeper.quorum":                "broker.coordinator.quorum",
		"kafka.topic.autoCreate":                "broker.topic.autoCreate",
		"kafka.topic.default.partitions":        "broker.topic.default.partitions",
		"kafka.topic.default.replicationFactor": "broker.topic.default.replicationFactor",
		"kafka.security.protocol":               "broker.security.protocol",
		// KafkaStreamsPipelineStream's (PlainJavaEngine's stream).
		"read.topics":             "broker.input.topics",
		"write.topics":            "broker.output.topics",
		"read.topics.serializer":  "broker.input.topics.serializer",
		"write.topics.serializer": "broker.output.topics.serializer",
		"bootstrap.servers":       "broker.metadata.broker.list",
	},
	SearchIndexProcessor: {
		"elasticsearch.client.service": "search.client.service",
		"es.index.field":               "index.field",
	},
	DocDBService: {
		"mongo.uri":             "docdb.uri",
		"mongo.db.name":         "docdb.db.name",
		"mongo.collection.name": "docdb.collection.name",
		"mongo.write.concern":   "docdb.write.concern",
		"mongo.bulk.mode":       "docdb.bulk.mode",
	},
	// The search-index service's keys are LogIsland's own (hosts,
	// batch.size, num.retry...); values.go converts the ones whose values
	// differ.
	SearchIndexService: {},
}

// ignored are LogIsland's keys that tune what Weir does not have (Spark's
// executors, YARN, Mesos, Spark's own serializer and receivers, the Kafka
// producer's batching, which Weir sizes itself, and acks, which Weir always
// takes from every in-sync replica). A LogIsland job file sets many of them,
// so refusing them would stop every such file from running; they are
// accepted, dropped, and named in one log line at info level. Only these
// exact keys are: a misspelt one is still refused as unknown, with a
// suggestion.
var ignored = map[string]map[string]bool{
	Engine: set(
		"jvm.heap.min", "jvm.heap.max", // PlainJavaEngine's: the JVM's heap
		"spark.driver.cores", "spark.executor.memory", "spark.executor.cores", "spark.executor.instances",
		"spark.serializer", "spark.streaming.blockInterval", "spark.streaming.backpressure.enabled",
		"spark.streaming.unpersist", "spark.streaming.kafka.maxRetries", "spark.streaming.ui.retainedBatches",
		"spark.streaming.receiver.writeAheadLog.enable", "spark.task.maxFailures",
		"spark.yarn.queue", "spark.yarn.deploy-mode", "spark.yarn.maxAppAttempts",
		"spark.yarn.am.attemptFailuresValidityInterval", "spark.yarn.max.executor.failures",
		"spark.yarn.executor.failuresValidityInterval", "spark.deploy-mode",
		"spark.memory.fraction", "spark.memory.storageFraction", "spark.scheduler.mode",
		"spark.properties.file.path", "spark.monitoring.driver.port", "spark.conf.properties.policy",
		"java.library.path", "spark.cores.max", "spark.total.executor.cores", "spark.supervise",
	),
	// application.id is Kafka Streams' consumer group: Weir's is
	// engine.app.name.
	Stream: set("kafka.batch.size", "kafka.linger.ms", "kafka.acks", "application.id"),
	// The transport client's cluster discovery and sniffing, Shield's
	// jar, the SSL context service (https:// in hosts says TLS) and the
	// keys only MultiGet's and geolocation's callers read.
	SearchIndexService: set("cluster.name", "ping.timeout", "sampler.interval", "charset", "shield.location",
		"enable.ssl", "ssl.context.service", "geolocation.output.field.name", "multiqueryget.maxqueries"),
	// Document types: Elasticsearch 7 and later and OpenSearch have none.
	SearchIndexProcessor: set("default.type", "es.type.field"),
}

// ignoredPrefixes are families of ignored keys: LogIsland passes
// spark.custom.config.X to Spark as X.
var ignoredPrefixes = map[string][]string{
	Engine: {"spark.custom.config."},
}

func set(keys ...string) map[string]bool {
	m := make(map[string]bool, len(keys))
	for _, k := range keys {
		m[k] = true
	}
	return m
}

// ComponentName returns Weir's identifier for id: id itself unless it is
// LogIsland's name of the engine or the stream.
func ComponentName(id string) string {
	if c, ok := components[id]; ok {
		return c
	}
	return id
}

// Key returns Weir's name of a key of component (Weir's identifier) and
// whether key is LogIsland's name of it.
func Key(component, key string) (string, bool) {
	c, ok := keys[component][key]
	return c, ok
}

// Ignored reports whether key is a LogIsland key of component that has no
// Weir equivalent and is dropped.
func Ignored(component, key string) bool {
	if ignored[component][key] {
		return true
	}
	for _, p := range ignoredPrefixes[component] {
		if strings.HasPrefix(key, p) && len(key) > len(p) {
			return true
		}
	}
	return false
}

// Aliases returns, per Weir component, LogIsland's key -> Weir's key: for
// documentation and tests.
func Aliases() map[string]map[string]string { return keys }

// IgnoredKeys returns, per Weir component, the sorted keys that are
// accepted and dropped, and the prefixes of key families that are.
func IgnoredKeys() (exact, prefixes map[string][]string) {
	exact = map[string][]string{}
	for c, m := range ignored {
		for k := range m {
			exact[c] = append(exact[c], k)
		}
		sort.Strings(exact[c])
	}
	return exact, ignoredPrefixes
}

// Clash is a key given both under LogIsland's name and Weir's (or under
// two names that mean one key): the job is refused, as for a key given
// twice. Given is the property that was dropped, Other the one kept.
type Clash struct {
	Canonical    string
	Given, Other dataflow.Property
}

// Message says what is wrong, naming both keys as the source wrote them,
// and the line of the one kept when it has one.
func (c Clash) Message() string {
	given, other := written(c.Given), written(c.Other)
	line := ""
	if c.Other.Line > 0 {
		line = fmt.Sprintf(", line %d", c.Other.Line)
	}
	switch {
	case c.Given.Written == "":
		return fmt.Sprintf("property %q is also given as %q (LogIsland's name of it%s); keep one", given, other, line)
	case c.Other.Written == "":
		return fmt.Sprintf("property %q (LogIsland's name of %q) is also given as %q%s; keep one", given, c.Canonical, other, strings.Replace(line, ",", " at", 1))
	}
	return fmt.Sprintf("property %q is also given as %q (both LogIsland's names of %q%s); keep one", given, other, c.Canonical, line)
}

func written(p dataflow.Property) string {
	if p.Written != "" {
		return p.Written
	}
	return p.Key
}

// Result is what Canonicalize changed beyond renaming.
type Result struct {
	// Ignored are the properties dropped because Weir has no equivalent.
	Ignored []dataflow.Property
	// Clashes are the keys given twice under different names.
	Clashes []Clash
	// Misspelt are the keys that are neither Weir's nor LogIsland's but
	// look like a misspelling of a LogIsland key (Suggest). They are left
	// in the configuration; the caller refuses the component with
	// Misspelling.Message, which names the key meant, where validation
	// would only call the key unknown.
	Misspelt []Misspelling
	// Warnings are what the caller logs once at start: values converted
	// from LogIsland's meaning that may not do what the file meant (the
	// transport port 9300 of Elasticsearch's Java client, which Weir's
	// HTTP client cannot speak).
	Warnings []string
}

// Misspelling is a key that looks like a misspelt LogIsland key.
type Misspelling struct {
	Given    dataflow.Property
	Probably string
}

// Message says what is wrong and which LogIsland key was probably meant.
func (m Misspelling) Message() string {
	return fmt.Sprintf("unknown property %q (did you mean LogIsland's %q?)", m.Given.Key, m.Probably)
}

// Canonicalize rewrites c in place to Weir's names: LogIsland's engine or
// stream identifier becomes Weir's, and then each LogIsland key of that
// component is renamed (its Written field keeps the name the source used),
// or dropped when Weir has no equivalent. A key given under two of its names
// is kept once, under the first, and reported as a clash; a key that looks
// like a misspelt LogIsland key is reported too. Any other key is left for
// validation, which refuses unknown keys. Components other than the
// engine and the stream are left alone.
func Canonicalize(c *dataflow.Component) Result {
	given := c.Component
	c.Component = ComponentName(c.Component)
	if keys[c.Component] == nil {
		return Result{}
	}
	var res Result
	convertValues(given, c, &res)
	at := map[string]int{} // canonical key -> index in out, for the keys renamed or meeting a renamed one
	out := c.Config[:0:0]
	for _, p := range c.Config {
		if Ignored(c.Component, p.Key) {
			res.Ignored = append(res.Ignored, p)
			continue
		}
		canon, alias := Key(c.Component, p.Key)
		if alias {
			p.Written, p.Key = p.Key, canon
		} else if sug := Suggest(c.Component, p.Key); sug != "" {
			res.Misspelt = append(res.Misspelt, Misspelling{Given: p, Probably: sug})
		}
		if i, seen := at[p.Key]; seen && (alias || out[i].Written != "") {
			res.Clashes = append(res.Clashes, Clash{Canonical: p.Key, Given: p, Other: out[i]})
			continue
		}
		at[p.Key] = len(out)
		out = append(out, p)
	}
	if given == mongoService {
		if _, ok := at["docdb.bulk.mode"]; !ok {
			// LogIsland's MongoDB service inserts unless told to upsert;
			// Weir's service upserts by default.
			out = append(out, dataflow.Property{Key: "docdb.bulk.mode", Value: "insert", Line: c.Line, Written: "mongo.bulk.mode"})
		}
	}
	if given == pipelineStream {
		if _, ok := at["broker.error.topics"]; !ok {
			// LogIsland's Kafka Streams pipeline writes no error topic.
			c.Config = append(out, dataflow.Property{Key: "broker.error.topics", Value: "none", Line: c.Line})
			return res
		}
	}
	c.Config = out
	return res
}

// pipelineStream is PlainJavaEngine's stream; mongoService LogIsland's
// MongoDB service.
const (
	pipelineStream = "pkg.engine.vanilla.stream.kafka.KafkaStreamsPipelineStream"
	mongoService   = "pkg.service.mongodb.MongoDBControllerService"
)

// Suggest returns the LogIsland key of id (Weir's identifier of a
// component), mapped or ignored, that key is most likely a misspelling of
// (at most two edits away), or "" when none is or key does not look like
// LogIsland's. Weir's own suggestions come from its keys, which a misspelt
// LogIsland key is far from.
func Suggest(id, key string) string {
	// Weir's own keys never start so: a key of Weir's is never taken for
	// a misspelt one of LogIsland's.
	if !strings.HasPrefix(key, "spark.") && !strings.HasPrefix(key, "kafka.") && !strings.HasPrefix(key, "java.") {
		return ""
	}
	best, bestD := "", 3
	try := func(k string) {
		if d := component.EditDistance(key, k); d < bestD {
			best, bestD = k, d
		}
	}
	for k := range keys[id] {
		try(k)
	}
	for k := range ignored[id] {
		try(k)
	}
	if best == key {
		return ""
	}
	return best
}
