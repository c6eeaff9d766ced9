package config_test

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/config"
	"github.com/weir-streams/weir/internal/logisland"
	"github.com/weir-streams/weir/internal/plugins/all"
	"github.com/weir-streams/weir/internal/streamtest"
)

// pendingComponents are LogIsland components the shipped job files use that
// Weir is to offer and does not yet register. A file refused only for them
// counts towards the files that must validate. Once a component is
// registered, its line here is deleted: the test then requires the files
// that use it to validate (or to be refused for another reason below).
var pendingComponents = map[string]bool{}

// documentedRefusals are the refusals, other than a component, that the
// shipped files meet and Weir's documentation explains: each problem must
// be an unsupported component, a pending one, or one of these.
var documentedRefusals = []struct {
	re  *regexp.Regexp
	doc string
}{
	// LogIsland's MVEL and Java expressions: docs/expressions.md, "What
	// is not supported".
	{regexp.MustCompile(`: column \d+: unexpected token `), "docs/expressions.md"},
	// The GeoIP database on HDFS or Databricks' file system.
	{regexp.MustCompile(`"maxmind.database.uri": "(hdfs|dbfs):`), "docs/operations.md"},
	// BulkAddElasticsearch without default.index, which LogIsland
	// requires too.
	{regexp.MustCompile(`\[es_publisher\]\.configuration: missing required property "default.index"$`), "docs/operations.md"},
	// Spark on YARN: docs/operations.md, engine.master is local[N].
	{regexp.MustCompile(`property "spark.master" \(Weir's "engine.master"\): "yarn-cluster" is not local`), "docs/operations.md"},
	// A structured stream whose provider names no broker: LogIsland
	// falls back on its demo host sandbox:9092 (docs/operations.md).
	{regexp.MustCompile(`configuration: missing required property "broker.metadata.broker.list"$`), "docs/operations.md"},
}

// shippedJobs returns LogIsland's job files kept in testdata/logisland.
func shippedJobs(t *testing.T) []string {
	t.Helper()
	root := filepath.Join(streamtest.Root(), "testdata", "logisland")
	a, _ := filepath.Glob(filepath.Join(root, "conf", "*.yml"))
	b, _ := filepath.Glob(filepath.Join(root, "tests", "*", "*.y*ml"))
	files := append(a, b...)
	sort.Strings(files)
	if len(files) != 40 {
		t.Fatalf("%d job files in %s, want the 40 kept", len(files), root)
	}
	return files
}

// logIslandEnv is the environment LogIsland's own job files read: the
// variables its loader replaces (DefaultConfigValues), and MONGO_URI and
// ES_CLUSTER, which files name.
var logIslandEnv = map[string]string{
	"KAFKA_BROKERS": "127.0.0.1:9092", "ZK_QUORUM": "", "ES_HOSTS": "127.0.0.1:9200", "ES_CLUSTER_NAME": "es", "ES_CLUSTER": "es",
	"REDIS_CONNECTION": "127.0.0.1:6379", "SOLR_CONNECTION": "http://127.0.0.1:8983/solr",
	"MQTT_BROKER_URL": "tcp://127.0.0.1:1883", "MONGO_URI": "mongodb://127.0.0.1:27017",
}

// asWeir reads a shipped job file as a LogIsland user would give it to
// Weir: the package prefix changed, and KryoSerializer (refused) replaced
// by JsonSerializer.
func asWeir(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := strings.ReplaceAll(string(data), "com.hurence.logisland", "pkg")
	return []byte(strings.ReplaceAll(s, "pkg.serializer.KryoSerializer", "pkg.serializer.JsonSerializer"))
}

var componentProblem = regexp.MustCompile(`\.component: (?:unknown \w+ component|\w+ component) "([^"]+)"`)

// TestLogIslandShippedJobsValidate runs Weir's validation, as `weir
// validate` does, on each of LogIsland 1.4.1's own job files with the
// prefix changed: at least 15 validate (counting those refused only for a
// pending component), and every other file is refused only for components
// Weir refuses with their reason (or pending ones) and the documented
// refusals above, and for at least one such component.
func TestLogIslandShippedJobsValidate(t *testing.T) {
	getenv := func(k string) (string, bool) { v, ok := logIslandEnv[k]; return v, ok }
	unsupported := map[string]bool{}
	for _, u := range logisland.Unsupported() {
		unsupported[u[0]] = true
	}
	valid, pendingOnly := 0, 0
	for _, f := range shippedJobs(t) {
		name, _ := filepath.Rel(filepath.Join(streamtest.Root(), "testdata", "logisland"), f)
		_, err := config.ParseChecked(asWeir(t, f), config.StartTime(), getenv, all.NewRegistry())
		if err == nil {
			valid++
			t.Logf("valid: %s", name)
			continue
		}
		probs := config.AsProblems(err)
		if probs == nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		refusedFor, pending := 0, 0
		for _, p := range probs {
			if m := componentProblem.FindStringSubmatch(p.String()); m != nil {
				switch {
				case pendingComponents[m[1]]:
					pending++
					continue
				case unsupported[m[1]] && strings.Contains(p.Msg, logisland.DocPointer) && strings.Contains(p.Msg, m[1]):
					refusedFor++
					continue
				}
			}
			documented := false
			for _, d := range documentedRefusals {
				documented = documented || d.re.MatchString(p.String())
			}
			if !documented {
				t.Errorf("%s: refused for something neither unsupported nor documented:\n  %s", name, p.String())
			}
		}
		switch {
		case refusedFor == 0 && pending == 0:
			// Every problem matched a documented refusal above (LogIsland's
			// MVEL statements...): refused for a feature
			// Weir does not offer, not for a component.
			t.Logf("refused for documented features only: %s (%d problems)", name, len(probs))
		case refusedFor == 0 && len(probs) == pending:
			pendingOnly++
			t.Logf("refused only for pending components: %s", name)
		default:
			t.Logf("refused: %s (%d problems)", name, len(probs))
		}
	}
	t.Logf("%d files valid, %d more refused only for pending components", valid, pendingOnly)
	// 16 of the 40: the other 24 each use a component or a feature Weir
	// does not offer (listed in docs/operations.md): Solr, Chronix, HBase,
	// HDFS, Kafka Connect (OPC UA through it), MQTT, Azure Event Hubs,
	// structured-stream providers other than Kafka's and the console's,
	// Excel, Python, packets, NetFlow, Spark SQL, outliers, web sessions,
	// LogIsland's MVEL expressions.
	const want = 16
	if valid+pendingOnly < want {
		t.Errorf("%d files valid and %d refused only for pending components, want at least %d in all", valid, pendingOnly, want)
	}
	if len(pendingComponents) == 0 && valid < want {
		t.Errorf("%d files valid, want at least %d", valid, want)
	}
}

// TestLogIslandRefusalsDocumented keeps docs/operations.md's table of
// LogIsland's components true: every component Weir refuses has its row
// with its reason, and every refusal names the component and the section.
func TestLogIslandRefusalsDocumented(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(streamtest.Root(), "docs", "operations.md"))
	if err != nil {
		t.Fatal(err)
	}
	reg := all.NewRegistry()
	for _, u := range logisland.Unsupported() {
		id, why := u[0], u[1]
		if _, err := reg.LookupKind(id, component.KindProcessor); err == nil {
			continue // offered after all
		}
		if !strings.Contains(string(doc), "`"+id+"`") {
			t.Errorf("docs/operations.md does not list %s", id)
		}
		if id != logisland.StructuredStream && id != logisland.KafkaProvider && id != logisland.ConsoleProvider && !strings.Contains(string(doc), "| `"+id+"` | refused: "+why+" |") {
			t.Errorf("docs/operations.md does not give %s's reason %q", id, why)
		}
		_, err := reg.LookupKind(id, component.KindService)
		if err == nil || !strings.Contains(err.Error(), id) || !strings.Contains(err.Error(), logisland.DocPointer) || !strings.Contains(err.Error(), why) {
			t.Errorf("the refusal of %s: %v", id, err)
		}
	}
}
