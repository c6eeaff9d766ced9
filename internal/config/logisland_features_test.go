package config_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/config"
	"github.com/weir-streams/weir/internal/dataflow"
	"github.com/weir-streams/weir/internal/metrics"
	"github.com/weir-streams/weir/internal/plugins/all"
	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/stream"
	"github.com/weir-streams/weir/internal/streamtest"
)

func shipped(name string) string {
	return filepath.Join(streamtest.Root(), "testdata", "logisland", name)
}

// checkShipped validates a shipped job file as TestLogIslandShippedJobsValidate
// does, with env over logIslandEnv.
func checkShipped(t *testing.T, name string, env map[string]string) *config.Checked {
	t.Helper()
	getenv := func(k string) (string, bool) {
		if v, ok := env[k]; ok {
			return v, true
		}
		v, ok := logIslandEnv[k]
		return v, ok
	}
	checked, err := config.ParseChecked(asWeir(t, shipped(name)), config.StartTime(), getenv, all.NewRegistry())
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return checked
}

// parseShipped reads a shipped job file without validating it against the
// registry: for files that use a component Weir refuses elsewhere.
func parseShipped(t *testing.T, name string) *config.Job {
	t.Helper()
	getenv := func(k string) (string, bool) { v, ok := logIslandEnv[k]; return v, ok }
	job, err := config.Parse(asWeir(t, shipped(name)), config.StartTime(), getenv)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return job
}

func streamConf(t *testing.T, c *config.Checked, name string) stream.Config {
	t.Helper()
	for _, s := range c.Plan.Streams {
		if s.Configured.Component.Name == name {
			sc, err := stream.Decode(name, s.Configured.Config)
			if err != nil {
				t.Fatal(err)
			}
			return sc
		}
	}
	t.Fatalf("no stream %q", name)
	return stream.Config{}
}

// TestLogIslandNoneTopic: enrich-apache-logs.yml's indexing stream has
// kafka.output.topics: none, LogIsland's "no output": no topic of that
// name, and its error topic is kept.
func TestLogIslandNoneTopic(t *testing.T) {
	c := checkShipped(t, "conf/enrich-apache-logs.yml", nil)
	sc := streamConf(t, c, "indexing_stream")
	if len(sc.Outputs) != 0 || !slices.Equal(sc.Errors, []string{"logisland_errors"}) {
		t.Errorf("outputs %q errors %q, want none and logisland_errors", sc.Outputs, sc.Errors)
	}
	if sc := streamConf(t, c, "parsing_stream"); !slices.Equal(sc.Outputs, []string{"logisland_events"}) {
		t.Errorf("parsing stream outputs %q", sc.Outputs)
	}
}

// TestLogIslandExpressionsLeftAsText: the ${...} of LogIsland's expression
// language reach the component as written (index-jms-messages.yml's Java
// and webanalytics' MVEL and field names), while ${KAFKA_BROKERS} is the
// variable's value.
func TestLogIslandExpressionsLeftAsText(t *testing.T) {
	job := parseShipped(t, "conf/index-jms-messages.yml")
	found := false
	for _, s := range job.DataFlow.Streams {
		for _, p := range s.Pipeline.Processors {
			if v, ok := p.Value("message_text"); ok {
				found = v == "${new String(bytes_payload)}"
			}
		}
	}
	if !found {
		t.Error("message_text is not ${new String(bytes_payload)} as written")
	}
	job = parseShipped(t, "tests/webanal-spark-2.4-kafka0.10-streaming-pipeline/final-webanal-conf.yaml")
	want := map[string]string{
		"decodedLocation": "${location}",
		"codeProduct_rev": "${if(codeProduct == null || codeProduct.length == 0) return 'undefined'; return codeProduct;}",
	}
	for _, s := range job.DataFlow.Streams {
		for _, p := range s.Pipeline.Processors {
			for k, w := range want {
				if v, ok := p.Value(k); ok && v == w {
					delete(want, k)
				}
			}
		}
	}
	if len(want) > 0 {
		t.Errorf("not kept as written: %v", want)
	}
}

// TestLogIslandDuplicateNames: store-to-redis.yml has two processors
// named debug in one stream, my-conf-test-backup.yaml three streams named
// kafka_to_console: the later ones run under their position, and the job
// says so.
func TestLogIslandDuplicateNames(t *testing.T) {
	job := parseShipped(t, "conf/store-to-redis.yml")
	var names []string
	for _, s := range job.DataFlow.Streams {
		if s.Name == "alerting_stream" {
			for _, p := range s.Pipeline.Processors {
				names = append(names, p.Name)
			}
		}
	}
	if !slices.Equal(names, []string{"compute_thresholds", "debug", "compute_alerts1", "debug#4"}) {
		t.Errorf("alerting_stream's processors %q, want the second debug as debug#4", names)
	}
	if len(job.Renamed) != 1 || !strings.Contains(job.Renamed[0], "(line 212) runs as processor \"debug#4\"") {
		t.Errorf("renamed %q", job.Renamed)
	}
	job = parseShipped(t, "tests/webanal-spark-2.4-kafka0.10-streaming-pipeline/my-conf-test-backup.yaml")
	names = nil
	for _, s := range job.DataFlow.Streams {
		names = append(names, s.Name)
	}
	if !slices.Equal(names, []string{"kafka_to_console", "kafka_to_console#2", "kafka_to_console#3"}) {
		t.Errorf("streams %q", names)
	}
	if _, probs := dataflow.Check(job.DataFlow, all.NewRegistry()); len(probs) > 0 && strings.Contains(probs.Error(), "used twice") {
		t.Errorf("validation still refuses the names: %v", probs)
	}
}

// TestLogIslandBulkPutAndSearchService: index-apache-logs-es.yml's BulkPut
// keys and its Elasticsearch 6.6.2 service run as the search-index
// service, hosts in URLs; a transport port is warned about.
func TestLogIslandBulkPutAndSearchService(t *testing.T) {
	c := checkShipped(t, "conf/index-apache-logs-es.yml", map[string]string{"ES_HOSTS": "es1:9300,es2:9200"})
	svc := c.Plan.Services[0]
	if svc.Spec.Name != "pkg.service.searchindex.SearchIndexClientService" || svc.Config.Values()["hosts"] != "http://es1:9300,http://es2:9200" {
		t.Errorf("service %s hosts %q", svc.Spec.Name, svc.Config.Values()["hosts"])
	}
	if len(c.Job.Warnings) != 1 || !strings.Contains(c.Job.Warnings[0], "port 9300") {
		t.Errorf("warnings %q, want one on port 9300", c.Job.Warnings)
	}
	bp := c.Plan.Streams[0].Pipeline.Processors[1]
	if bp.Spec.Name != "pkg.processor.datastore.BulkPut" || bp.Config.Values()["default.collection"] != "logisland" ||
		bp.Config.Values()["timebased.collection"] != "yesterday" || bp.Config.Values()["collection.field"] != "search_index" {
		t.Errorf("BulkPut %s: %v", bp.Spec.Name, bp.Config)
	}
}

// TestLogIslandMongoAndPlainJava: MongoDBControllerService's mongo.* keys
// are the document-database service's; PlainJavaEngine's stream reads
// read.topics through bootstrap.servers and writes no error topic.
func TestLogIslandMongoAndPlainJava(t *testing.T) {
	c := checkShipped(t, "conf/index-apache-logs-mongo.yml", nil)
	svc := c.Plan.Services[0]
	if svc.Spec.Name != "pkg.service.docdb.DocDBControllerService" || svc.Config.Values()["docdb.db.name"] != "logisland" || svc.Config.Values()["docdb.collection.name"] != "apache" {
		t.Errorf("service %s: %v", svc.Spec.Name, svc.Config)
	}
	c = checkShipped(t, "conf/index-apache-logs-plainjava.yml", nil)
	sc := streamConf(t, c, "parsing_stream")
	if !slices.Equal(sc.Inputs, []string{"logisland_raw"}) || !slices.Equal(sc.Outputs, []string{"logisland_events"}) || len(sc.Errors) != 0 || sc.BrokerList != "127.0.0.1:9092" {
		t.Errorf("stream %+v", sc)
	}
}

// TestLogIslandStructuredStreams: conf-to-multisink.yaml's structured
// stream, with one Kafka provider reading and writing by a topic field,
// is Weir's stream with RouteRecords last; my-conf-test.yaml's console
// writer is PrintRecords and no output topic.
func TestLogIslandStructuredStreams(t *testing.T) {
	c := checkShipped(t, "tests/kafka-to-multikafka-topics-spark-2.4-kafka0.10-streaming-pipeline/conf-to-multisink.yaml", nil)
	if len(c.Plan.Services) != 0 {
		t.Errorf("the provider is still a service: %v", c.Plan.Services[0].Component.Name)
	}
	sc := streamConf(t, c, "dynamicOutputTopic")
	if !slices.Equal(sc.Inputs, []string{"my_topics_1", "my_topics_2"}) || sc.InSer != "pkg.serializer.ExtendedJsonSerializer" || sc.OutSer != "pkg.serializer.ExtendedJsonSerializer" || len(sc.Errors) != 0 {
		t.Errorf("stream %+v", sc)
	}
	procs := c.Plan.Streams[0].Pipeline.Processors
	if last := procs[len(procs)-1]; last.Spec.Name != "pkg.processor.RouteRecords" || last.Config.Values()["output.topic.field"] != "topic" {
		t.Errorf("last processor %s %v, want RouteRecords on topic", last.Spec.Name, last.Config)
	}
	if !slices.Contains(c.Job.Ignored, "engine.controllerServiceConfigurations[all_topics].configuration.kafka.startingOffsets") {
		t.Errorf("ignored %q", c.Job.Ignored)
	}

	c = checkShipped(t, "tests/webanal-spark-2.4-streaming-pipeline/my-conf-test.yaml", nil)
	sc = streamConf(t, c, "kafka_to_console")
	if len(sc.Outputs) != 0 || !slices.Equal(sc.Inputs, []string{"test-simple"}) {
		t.Errorf("stream %+v", sc)
	}
	procs = c.Plan.Streams[0].Pipeline.Processors
	if last := procs[len(procs)-1]; last.Spec.Name != "pkg.processor.console.PrintRecords" {
		t.Errorf("last processor %s, want PrintRecords", last.Spec.Name)
	}
}

// TestLogIslandTopicPattern: the two "rewind" jobs of
// kafka-to-multikafka-topics subscribe by kafka.input.topics.pattern. In
// one, the provider reads my_topics.* and writes by the topic field, and
// the other provider, named by no stream, is dropped with a warning. In the
// other, the stream reads from both providers: the first's pattern
// ignoring my_topics_2, the second's my_topics_2, which makes one pattern
// that ignores nothing.
func TestLogIslandTopicPattern(t *testing.T) {
	const dir = "tests/kafka-to-multikafka-topics-spark-2.4-kafka0.10-streaming-pipeline/"
	c := checkShipped(t, dir+"conf-to-multisink-rewind-only-one-topic.yaml", nil)
	sc := streamConf(t, c, "sessionalization")
	if sc.InputPattern != "my_topics.*" || len(sc.Inputs) != 0 || len(sc.IgnoredInputs) != 0 || sc.InSer != "pkg.serializer.ExtendedJsonSerializer" {
		t.Errorf("stream %+v, want the pattern my_topics.*", sc)
	}
	if len(c.Plan.Services) != 0 {
		t.Errorf("services %v, want none", c.Plan.Services[0].Component.Name)
	}
	if !slices.ContainsFunc(c.Job.Warnings, func(w string) bool {
		return strings.HasPrefix(w, "engine.controllerServiceConfigurations[rewind_topics]: no structured stream reads or writes")
	}) {
		t.Errorf("warnings %q, want one on the unused provider rewind_topics", c.Job.Warnings)
	}
	procs := c.Plan.Streams[0].Pipeline.Processors
	if last := procs[len(procs)-1]; last.Spec.Name != "pkg.processor.RouteRecords" {
		t.Errorf("last processor %s, want RouteRecords", last.Spec.Name)
	}

	c = checkShipped(t, dir+"conf-to-multisink-rewind-only-one-topic-version-rewind.yaml", nil)
	sc = streamConf(t, c, "sessionalization")
	if sc.InputPattern != "(?:my_topics.*)|my_topics_2" || len(sc.Inputs) != 0 || len(sc.IgnoredInputs) != 0 {
		t.Errorf("stream %+v, want one pattern of both providers and nothing ignored", sc)
	}
	if len(c.Plan.Services) != 0 || len(c.Job.Warnings) != 1 {
		t.Errorf("%d services, warnings %q, want none and the brokers' one", len(c.Plan.Services), c.Job.Warnings)
	}
}

// TestLogIslandModifyIdUSASCII builds timeseries-parsing.yml's ModifyId
// (hash.charset US-ASCII) and checks its ids against Java's encoding.
func TestLogIslandModifyIdUSASCII(t *testing.T) {
	job := parseShipped(t, "conf/timeseries-parsing.yml")
	var c *dataflow.Component
	for _, s := range job.DataFlow.Streams {
		for i, p := range s.Pipeline.Processors {
			if p.Component == "pkg.processor.ModifyId" {
				c = &s.Pipeline.Processors[i]
			}
		}
	}
	if c == nil {
		t.Fatal("no ModifyId in timeseries-parsing.yml")
	}
	reg := all.NewRegistry()
	spec, _ := reg.Lookup(c.Component)
	conf, probs := component.NewConfig(spec, c.Values())
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	p, err := spec.NewProcessor(conf, component.Env{Name: c.Name, Stream: "s", Metrics: metrics.New(prometheus.NewRegistry())})
	if err != nil {
		t.Fatal(err)
	}
	r := record.New("x", "t", 0)
	r.Set(record.FieldValue, record.StringValue("température 25°C"))
	b := &component.Batch{Records: []*record.Record{r}}
	if err := p.Process(context.Background(), b); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte("temp?rature 25?C"))
	if b.Records[0].ID != hex.EncodeToString(sum[:]) {
		t.Errorf("id %s, want the SHA-256 of Java's US-ASCII bytes", b.Records[0].ID)
	}
}
