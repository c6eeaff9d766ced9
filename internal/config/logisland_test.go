package config_test

import (
	"encoding/json"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/config"
	"github.com/weir-streams/weir/internal/logisland"
	"github.com/weir-streams/weir/internal/plugins/all"
)

// TestLogIslandRoleTypeIgnored checks that LogIsland's role words in
// "type" beside "component" are accepted (its job files have them), while
// an identifier in both is still refused.
func TestLogIslandRoleTypeIgnored(t *testing.T) {
	job := func(typ string) string {
		return `
engine:
  component: pkg.engine.engine.BrokerStreamProcessingEngine
  type: engine
  streamConfigurations:
    - stream: s
      component: pkg.stream.engine.BrokerRecordStreamParallelProcessing
      type: stream
      configuration:
        broker.input.topics: a
      processorConfigurations:
        - processor: p
          component: pkg.processor.SplitText
          type: ` + typ + `
`
	}
	env := func(string) (string, bool) { return "", false }
	j, err := config.Parse([]byte(job("parser")), time.Unix(1, 0), env)
	if err != nil {
		t.Fatalf("role word refused: %v", err)
	}
	if got := j.DataFlow.Streams[0].Pipeline.Processors[0].Component; got != "pkg.processor.SplitText" {
		t.Errorf("component = %q", got)
	}
	if _, err := config.Parse([]byte(job("pkg.processor.SplitText")), time.Unix(1, 0), env); err == nil || !strings.Contains(err.Error(), "not both") {
		t.Errorf("an identifier in both keys: %v", err)
	}
}

// TestLogIslandNames loads a job written with LogIsland's names of the
// engine, the stream and their keys: everything after the loader sees
// Weir's names only (the snapshot, `weir components`, dry runs show them),
// each renamed key remembers how it was written, and the Spark-only keys are
// dropped and listed once.
func TestLogIslandNames(t *testing.T) {
	checked, err := config.LoadChecked("testdata/logisland_names.good.yml", config.DefaultMaxJobBytes, all.NewRegistry())
	if err != nil {
		t.Fatal(err)
	}
	job := checked.Job
	if job.Engine.Component != logisland.Engine {
		t.Errorf("engine component %q", job.Engine.Component)
	}
	wantEngine := map[string]string{
		"engine.app.name": "fixture", "engine.master": "local[2]", "engine.driver.memory": "1G",
		"engine.streaming.batchDuration": "300", "engine.streaming.broker.maxRatePerPartition": "3000",
		"engine.streaming.timeout": "-1", "engine.ui.port": "-1",
	}
	if got := job.Engine.Values(); !maps.Equal(got, wantEngine) {
		t.Errorf("engine configuration %v, want %v", got, wantEngine)
	}
	if p := job.Engine.Config[1]; p.Key != "engine.master" || p.Written != "spark.master" || p.Line != 9 {
		t.Errorf("engine.master is %+v, want written as spark.master at line 9", p)
	}
	// The typed settings come from the LogIsland keys.
	set := checked.Engine
	if set.AppName != "fixture" || set.Workers != 2 || set.BatchInterval != 300*time.Millisecond || set.MaxRate != 3000 || set.UIPort != -1 || set.MemoryLimit != 1<<30 {
		t.Errorf("settings %+v", set)
	}
	if job.DataFlow.Name != "fixture" {
		t.Errorf("dataflow name %q, want the spark.app.name", job.DataFlow.Name)
	}
	wantIgnored := []string{
		"engine.configuration.spark.driver.cores", "engine.configuration.spark.executor.memory",
		"engine.configuration.spark.yarn.queue", "engine.configuration.spark.custom.config.spark.ui.enabled",
		"engine.streamConfigurations[s].configuration.kafka.linger.ms",
	}
	if !slices.Equal(job.Ignored, wantIgnored) {
		t.Errorf("ignored %q, want %q", job.Ignored, wantIgnored)
	}
	s := job.DataFlow.Streams[0]
	if s.Component.Component != logisland.Stream {
		t.Errorf("stream component %q", s.Component.Component)
	}
	wantStream := map[string]string{
		"broker.input.topics": "raw", "broker.output.topics": "events", "broker.error.topics": "errors",
		"broker.input.topics.serializer": "none", "broker.output.topics.serializer": "pkg.serializer.JsonSerializer",
		"broker.error.topics.serializer": "pkg.serializer.JsonSerializer", "broker.metadata.broker.list": "embedded",
		"broker.coordinator.quorum": "", "broker.topic.autoCreate": "true",
		"broker.topic.default.partitions": "4", "broker.topic.default.replicationFactor": "1",
		"broker.security.protocol": "PLAINTEXT",
	}
	if got := s.Values(); !maps.Equal(got, wantStream) {
		t.Errorf("stream configuration %v, want %v", got, wantStream)
	}
	if c := job.DataFlow.Streams[1].Component; c.Component != logisland.Stream || c.Config[0].Written != "" {
		t.Errorf("second stream %+v", c)
	}
	// What is pushed to the REST API and shown in status is the dataflow as
	// JSON: Weir's names only.
	b, err := json.Marshal(job.DataFlow)
	if err != nil {
		t.Fatal(err)
	}
	for _, old := range []string{"kafka.", "spark.", "KafkaRecordStream"} {
		if strings.Contains(string(b), old) {
			t.Errorf("the dataflow's JSON holds %q: %s", old, b)
		}
	}
}

// TestLogIslandAliasesAreDeclaredKeys checks each mapping of
// internal/logisland against the registered specs: every LogIsland key maps
// to a key Weir's component declares, and no ignored or LogIsland key is one
// Weir declares itself (it would then be shadowed).
func TestLogIslandAliasesAreDeclaredKeys(t *testing.T) {
	reg := all.NewRegistry()
	exact, _ := logisland.IgnoredKeys()
	for comp, aliases := range logisland.Aliases() {
		spec, ok := reg.Lookup(comp)
		if !ok {
			t.Fatalf("%s is not registered", comp)
		}
		for alias, key := range aliases {
			if p, ok := spec.Property(key); !ok || p.Key != key {
				t.Errorf("%s: %s maps to %s, which it does not declare", comp, alias, key)
			}
			if _, ok := spec.Property(alias); ok {
				t.Errorf("%s: LogIsland's %s is also a key of Weir's", comp, alias)
			}
		}
		for _, k := range exact[comp] {
			if _, ok := spec.Property(k); ok {
				t.Errorf("%s: ignored %s is a key of Weir's", comp, k)
			}
		}
	}
	if logisland.ComponentName("pkg.stream.spark.KafkaRecordStreamParallelProcessing") != logisland.Stream ||
		logisland.ComponentName("pkg.engine.spark.RemoteApiStreamProcessingEngine") != logisland.Engine ||
		logisland.ComponentName("pkg.processor.SplitText") != "pkg.processor.SplitText" {
		t.Error("component names are not mapped as documented")
	}
	for _, id := range []string{logisland.Engine, logisland.Stream} {
		if _, ok := reg.Lookup(id); !ok {
			t.Errorf("%s is not registered", id)
		}
	}
}

// TestLogIslandAliasesDocumented keeps the table of docs/operations.md true:
// a row for every key alias, each naming Weir's key.
func TestLogIslandAliasesDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../docs/operations.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, aliases := range logisland.Aliases() {
		for alias, key := range aliases {
			row := "| `" + alias + "` | `" + key + "`"
			if !strings.Contains(string(doc), row) {
				t.Errorf("docs/operations.md lacks the row %q", row)
			}
		}
	}
	for _, id := range []string{"pkg.engine.spark.KafkaStreamProcessingEngine", "pkg.engine.spark.RemoteApiStreamProcessingEngine", "pkg.stream.spark.KafkaRecordStreamParallelProcessing"} {
		if row := "| `" + id + "` | `" + logisland.ComponentName(id) + "`"; !strings.Contains(string(doc), row) {
			t.Errorf("docs/operations.md lacks the row %q", row)
		}
	}
}
