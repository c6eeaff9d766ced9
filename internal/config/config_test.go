// The tests of this file are in an external package because the registry of
// every component (plugins/all) imports the engine, which imports config.
package config_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/config"
	"github.com/weir-streams/weir/internal/dataflow"
	"github.com/weir-streams/weir/internal/plugins/all"
)

// unsetenv removes a variable for the length of the test. t.Setenv first
// records the value to restore, so a variable a developer happens to have
// set cannot make an "unset variable" fixture pass or fail by chance.
func unsetenv(t *testing.T, names ...string) {
	t.Helper()
	for _, n := range names {
		t.Setenv(n, "")
		if err := os.Unsetenv(n); err != nil {
			t.Fatal(err)
		}
	}
}

// load reads a job file and validates it against every built-in component
// in the same run, as `weir validate` does.
func load(t *testing.T, path string) (*config.Job, error) {
	t.Helper()
	checked, err := config.LoadChecked(path, config.DefaultMaxJobBytes, all.NewRegistry())
	if err != nil {
		return nil, err
	}
	return checked.Job, nil
}

// expectedErrors pins the message of every configuration error, one fixture
// each, in the manner of Prometheus' config tests. A fixture that reports
// problems must report exactly the listed ones, in this order, so that a new
// spurious problem or a lost line number fails the test.
var expectedErrors = []struct {
	file string
	want []string
}{
	{"empty.bad.yml", []string{`job file is empty`}},
	{"comments_only.bad.yml", []string{`job file is empty`}},
	{"not_yaml.bad.yml", []string{`line 5: YAML syntax error: found character that cannot start any token (the lines from here on were not read; the lines above were checked)`}},
	// yaml.v3 numbers the lines of its parser errors (as opposed to its
	// scanner errors) from 0, so the line it gives for an unclosed flow
	// list is one too low (go-yaml/yaml#205). The text is pinned
	// without the line, which a later yaml release may correct.
	{"unclosed_flow.bad.yml", []string{`YAML syntax error: did not find expected ',' or ']'`}},
	// A syntax error inside the job is one problem among the
	// others: the lines above it are checked in the same run.
	{"syntax_error_midway.bad.yml", []string{
		`line 8: engine.configuration.engine.ui.port: environment variable WEIR_TEST_UNSET_PORT is not set`,
		`line 16: streamConfigurations[s].configuration: property "broker.topic.default.partitions": "four" is not an integer`,
		`line 18: streamConfigurations[s].processorConfigurations[p].component: unknown processor component "pkg.processor.SplitTxt" (did you mean "pkg.processor.SplitText"?)`,
		// yaml.v3 numbers this error one line too low (see unclosed_flow).
		`YAML syntax error: found a tab character that violates indentation`,
	}},
	{"not_mapping.bad.yml", []string{`line 2: the job file must be a mapping with the keys engine and streamConfigurations, not a list`}},
	{"unknown_top_key.bad.yml", []string{`line 4: unknown key "streamConfiguration" (did you mean "streamConfigurations"?)`}},
	{"top_key_twice.bad.yml", []string{`line 3: key "documentation" is given twice`}},
	{"no_engine.bad.yml", []string{`line 2: missing key "engine"`}},
	{"lists_twice.bad.yml", []string{`line 4: engine.streamConfigurations: streamConfigurations is given both at the top level (line 11) and inside engine; keep one`}},
	{"no_stream.bad.yml", []string{`line 2: streamConfigurations: the job has no stream`}},
	{"empty_stream_list.bad.yml", []string{`line 4: streamConfigurations: the job has no stream`}},
	{"unknown_item_key.bad.yml", []string{`line 20: streamConfigurations[s]: unknown key "processorConfiguration" (did you mean "processorConfigurations"?)`}},
	{"missing_name.bad.yml", []string{`line 13: streamConfigurations[0]: missing key "stream"`}},
	{"missing_component.bad.yml", []string{`line 21: streamConfigurations[s].processorConfigurations[p]: missing key "component"`}},
	{"component_and_type.bad.yml", []string{`line 23: streamConfigurations[s].processorConfigurations[p]: give either "component" or its synonym "type", not both`}},

	{"unknown_engine.bad.yml", []string{`line 2: engine.component: unknown engine component "pkg.engine.engine.BrokerStreamProcesingEngine" (did you mean "pkg.engine.engine.BrokerStreamProcessingEngine"?)`}},
	{"unknown_stream.bad.yml", []string{`line 13: streamConfigurations[s].component: unknown stream component "pkg.stream.engine.BrokerRecordStreamParalelProcessing" (did you mean "pkg.stream.engine.BrokerRecordStreamParallelProcessing"?)`}},
	{"unknown_processor.bad.yml", []string{`line 21: streamConfigurations[s].processorConfigurations[p].component: unknown processor component "pkg.processor.SplitTxt" (did you mean "pkg.processor.SplitText"?)`}},
	{"unknown_service.bad.yml", []string{`line 8: controllerServiceConfigurations[dns_cache].component: unknown service component "pkg.service.cache.LRUKeyValueCacheServic" (did you mean "pkg.service.cache.LRUKeyValueCacheService"?)`}},
	{"wrong_kind.bad.yml", []string{`line 13: streamConfigurations[s].component: component "pkg.processor.SplitText" is a processor, not a stream`}},

	{"unknown_property.bad.yml", []string{
		`line 21: streamConfigurations[s].processorConfigurations[p].configuration: missing required property "value.regex"`,
		`line 24: streamConfigurations[s].processorConfigurations[p].configuration: unknown property "value.regx" (did you mean "value.regex"?)`,
	}},
	{"missing_required.bad.yml", []string{`line 21: streamConfigurations[s].processorConfigurations[p].configuration: missing required property "value.fields"`}},
	{"invalid_int.bad.yml", []string{`line 20: streamConfigurations[s].configuration: property "broker.topic.default.partitions": "four" is not an integer`}},
	{"invalid_bool.bad.yml", []string{`line 20: streamConfigurations[s].configuration: property "broker.topic.autoCreate": "yes" is not true or false`}},
	{"invalid_enum.bad.yml", []string{`line 20: streamConfigurations[s].configuration: property "broker.output.topics.serializer": "pkg.serializer.JSONSerializer" is not one of none, pkg.serializer.JsonSerializer, pkg.serializer.BytesArraySerializer, pkg.serializer.StringSerializer, pkg.serializer.ExtendedJsonSerializer, pkg.serializer.AvroSerializer (did you mean "pkg.serializer.JsonSerializer"?)`}},
	{"invalid_regex.bad.yml", []string{"line 24: streamConfigurations[s].processorConfigurations[p].configuration: property \"value.regex\": invalid regular expression: error parsing regexp: missing closing ): `(\\S+) (\\S+`"}},
	{"invalid_topic.bad.yml", []string{`line 16: streamConfigurations[s].configuration: property "broker.input.topics": topic name "raw logs" has the character ' '; Kafka allows letters, digits, '.', '_' and '-'`}},
	{"invalid_broker_list.bad.yml", []string{`line 19: streamConfigurations[s].configuration: property "broker.metadata.broker.list": "kafka2" is not host:port; use "embedded" for the in-process broker`}},
	{"invalid_master.bad.yml", []string{`line 6: engine.configuration: property "engine.master": "yarn" is not local, local[N] or local[*]`}},
	{"invalid_master_zero.bad.yml", []string{`line 6: engine.configuration: property "engine.master": local[0] has no worker`}},
	{"invalid_memory.bad.yml", []string{`line 7: engine.configuration: property "engine.driver.memory": "2 gigs" is not a size such as 512M or 2G`}},
	{"invalid_timezone.bad.yml", []string{`line 26: streamConfigurations[s].processorConfigurations[p].configuration: property "timezone.record.time": unknown time zone "Mars/Olympus_Mons"`}},
	{"out_of_range.bad.yml", []string{`line 7: engine.configuration: property "engine.ui.port": 70000 is out of range [-1, 65535]`}},
	{"out_of_range_batch.bad.yml", []string{`line 7: engine.configuration: property "engine.streaming.batchDuration": 0 is out of range [1, 3600000]`}},

	{"duplicate_service.bad.yml", []string{`line 12: controllerServiceConfigurations[dns_cache]: service name "dns_cache" is used twice`}},
	{"property_twice.bad.yml", []string{`line 25: streamConfigurations[s].processorConfigurations[p].configuration: property "value.regex" is given twice`}},
	{"alias_twice.bad.yml", []string{`line 33: streamConfigurations[s].processorConfigurations[dns].configuration: property "overwrite.fqdn.field" is also given as "override.fqdn.field"`}},
	// LogIsland's names (internal/logisland): a key under both names is
	// refused; problems name the key as written, with Weir's; a key
	// LogIsland has that Weir neither maps nor ignores is unknown.
	{"logisland_alias_and_key.bad.yml", []string{
		`line 6: engine.configuration: property "engine.app.name" is also given as "spark.app.name" (LogIsland's name of it, line 5); keep one`,
		`line 12: streamConfigurations[s].configuration: property "kafka.input.topics" (LogIsland's name of "broker.input.topics") is also given as "broker.input.topics" at line 11; keep one`,
	}},
	{"logisland_bad_values.bad.yml", []string{
		`line 7: engine.configuration: property "spark.master" (Weir's "engine.master"): "yarn" is not local, local[N] or local[*]`,
		`line 8: engine.configuration: property "spark.ui.port" (Weir's "engine.ui.port"): 70000 is out of range [-1, 65535]`,
		`line 15: streamConfigurations[s].configuration.kafka.metadata.broker.list: environment variable WEIR_TEST_UNSET_BROKERS is not set`,
		`line 16: streamConfigurations[s].configuration: property "kafka.topic.default.partitions" (Weir's "broker.topic.default.partitions"): "four" is not an integer`,
	}},
	{"logisland_unknown_keys.bad.yml", []string{
		`line 7: engine.configuration: unknown property "spark.executor.memroy" (did you mean LogIsland's "spark.executor.memory"?)`,
		`line 15: streamConfigurations[s].configuration: unknown property "kafka.sasl.kerberos.service.name"`,
	}},
	{"config_list.bad.yml", []string{`line 11: controllerServiceConfigurations[dns_cache].configuration: must be a mapping of key to value, not a list`}},
	{"nested_value.bad.yml", []string{`line 24: streamConfigurations[s].processorConfigurations[p].configuration.value.regex: must be a single value, not a mapping`}},

	{"unset_var.bad.yml", []string{`line 19: streamConfigurations[s].configuration.broker.metadata.broker.list: environment variable WEIR_TEST_UNSET_BROKERS is not set and ${WEIR_TEST_UNSET_BROKERS} has no default (write ${WEIR_TEST_UNSET_BROKERS:-value} to give one)`}},
	{"unclosed_var.bad.yml", []string{`line 19: streamConfigurations[s].configuration.broker.metadata.broker.list: unclosed variable reference "${BROKER_LIST:-localhost:9092"`}},
	{"invalid_var_name.bad.yml", []string{`line 19: streamConfigurations[s].configuration.broker.metadata.broker.list: invalid variable name "BROKER_LIST-localhost:9092" in ${BROKER_LIST-localhost:9092} (a default is written ${BROKER_LIST:-value})`}},

	{"splittext_groups_fields.bad.yml", []string{
		`line 13: streamConfigurations[s].processorConfigurations[p].configuration: property "value.regex" has 2 capture groups but "value.fields" names 1 fields`,
		`line 13: streamConfigurations[s].processorConfigurations[p].configuration: properties "key.regex" and "key.fields" must be given together`,
	}},

	{"missing_service.bad.yml", []string{`line 31: streamConfigurations[s].processorConfigurations[dns].configuration: property "cache.service" names service "dns_cach", which is not defined (did you mean "dns_cache"?)`}},
	{"wrong_service.bad.yml", []string{`line 37: streamConfigurations[s].processorConfigurations[dns].configuration: property "cache.service" names service "store", a pkg.service.docdb.DocDBControllerService, which does not provide "cache"`}},

	// Several problems of reading at once: the loader goes on after the
	// first, and reports them top to bottom.
	{"many_parse_problems.bad.yml", []string{
		`line 3: unknown key "versoin" (did you mean "version"?)`,
		`line 7: engine.configuration.engine.app.name: environment variable WEIR_TEST_UNSET_APP is not set and ${WEIR_TEST_UNSET_APP} has no default (write ${WEIR_TEST_UNSET_APP:-value} to give one)`,
		`line 11: streamConfigurations[s]: unknown key "configuraton" (did you mean "configuration"?)`,
		`line 14: streamConfigurations[s].processorConfigurations[0]: missing key "processor"`,
		`line 15: streamConfigurations[s].processorConfigurations[0].configuration: must be a mapping of key to value, not a list`,
	}},
	// An unset variable is one problem among the others, and the
	// rest of the file is still read and validated in the same run. The
	// unset variables are not also reported as bad values.
	{"unset_var_among_others.bad.yml", []string{
		`line 8: engine.configuration.engine.ui.port: environment variable WEIR_TEST_UNSET_PORT is not set`,
		`line 16: streamConfigurations[s].configuration.broker.metadata.broker.list: environment variable WEIR_TEST_UNSET_BROKERS is not set`,
		`line 17: streamConfigurations[s].configuration: property "broker.topic.default.partitions": "four" is not an integer`,
		`line 19: streamConfigurations[s].processorConfigurations[p].configuration: missing required property "value.regex"`,
		`line 21: streamConfigurations[s].processorConfigurations[p]: unknown key "documentaton" (did you mean "documentation"?)`,
		`line 24: streamConfigurations[s].processorConfigurations[q].component: unknown processor component "pkg.processor.SplitTxt" (did you mean "pkg.processor.SplitText"?)`,
	}},
	// Structural problems and values of the wrong type in one run.
	{"structure_and_values.bad.yml", []string{
		`line 3: unknown key "versoin" (did you mean "version"?)`,
		`line 8: engine.configuration: property "engine.streaming.batchDuration": "soon" is not an integer`,
		`line 12: controllerServiceConfigurations[dns_cache].configuration: must be a mapping of key to value, not a list`,
		`line 20: streamConfigurations[s].configuration: property "broker.topic.autoCreate": "maybe" is not true or false`,
	}},
	// YAML errors the parser recovers from: a second document, a syntax
	// error after the job's document. The job is checked all the same.
	{"second_document.bad.yml", []string{
		`line 7: engine.configuration: property "engine.master": "local[two]" is not local, local[N] or local[*]`,
		`line 14: a second YAML document starts here; a job file holds one document, and this one is not read`,
	}},
	{"syntax_in_second_document.bad.yml", []string{
		`line 14: streamConfigurations[s].configuration: property "broker.topic.default.partitions": -3 is out of range [1, 100000]`,
		`YAML syntax error after the job's document: did not find expected ',' or ']'`,
	}},
	{"no_engine_and_values.bad.yml", []string{
		`line 2: missing key "engine"`,
		`line 10: streamConfigurations[s].processorConfigurations[p].component: unknown processor component "pkg.processor.SplitTxt" (did you mean "pkg.processor.SplitText"?)`,
	}},
	// Several problems of validation at once, from the engine, a service, two
	// streams and their processors: all in one run, sorted by line.
	{"many_problems.bad.yml", []string{
		`line 6: engine.configuration: property "engine.master": "local[two]" is not local, local[N] or local[*]`,
		`line 7: engine.configuration: property "engine.ui.port": 70000 is out of range [-1, 65535]`,
		`line 9: controllerServiceConfigurations[dns_cache].component: unknown service component "pkg.service.cache.LRUKeyValueCacheServic" (did you mean "pkg.service.cache.LRUKeyValueCacheService"?)`,
		`line 17: streamConfigurations[s].configuration: property "broker.metadata.broker.list": "localhost" is not host:port; use "embedded" for the in-process broker`,
		`line 18: streamConfigurations[s].configuration: property "broker.topic.autoCreate": "maybe" is not true or false`,
		`line 20: streamConfigurations[s].processorConfigurations[p].configuration: missing required property "value.regex"`,
		`line 23: streamConfigurations[s].processorConfigurations[p].configuration: unknown property "value.regx" (did you mean "value.regex"?)`,
		`line 25: streamConfigurations[s].processorConfigurations[p].component: unknown processor component "pkg.processor.SplitTxt" (did you mean "pkg.processor.SplitText"?)`,
	}},
	{"engine_keys_disagree.bad.yml", []string{
		`line 7: engine.configuration: property "engine.ui.auth.username": engine.ui.auth.username and engine.ui.auth.password go together`,
		`line 8: engine.configuration: property "remote.api.baseUrl": the base URL must not hold credentials`,
		`line 9: engine.configuration: property "remote.api.auth.user": remote.api.auth.user and remote.api.auth.password go together`,
		`line 10: engine.configuration: property "remote.api.auth.token": give either a bearer token or a user and password, not both`,
		`line 11: engine.configuration: property "remote.api.tls.cert.file": remote.api.tls.cert.file and remote.api.tls.key.file go together`,
	}},
}

func TestBadConfigs(t *testing.T) {
	unsetenv(t, "WEIR_TEST_UNSET_BROKERS", "WEIR_TEST_UNSET_APP", "BROKER_LIST", "WEIR_TEST_UNSET_PORT")
	for _, ee := range expectedErrors {
		t.Run(ee.file, func(t *testing.T) {
			_, err := load(t, filepath.Join("testdata", ee.file))
			if err == nil {
				t.Fatalf("%s: no error, want %q", ee.file, ee.want)
			}
			text := err.Error()
			last := -1
			for _, want := range ee.want {
				i := strings.Index(text, want)
				if i < 0 {
					t.Errorf("error lacks %q; got:\n%s", want, text)
					continue
				}
				if i < last {
					t.Errorf("%q is reported out of line order:\n%s", want, text)
				}
				last = i
			}
			// A fixture reports exactly its listed problems: an extra one is
			// either a bug or a fixture that tests two things at once.
			if ps := config.AsProblems(err); ps != nil && len(ps) != len(ee.want) {
				t.Errorf("%d problems, want %d:\n%s", len(ps), len(ee.want), text)
			}
		})
	}
}

// TestEveryBadFixtureIsChecked keeps the table and testdata in step, so a
// fixture added without its expected message does not pass silently.
func TestEveryBadFixtureIsChecked(t *testing.T) {
	files, err := filepath.Glob("testdata/*.bad.yml")
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, ee := range expectedErrors {
		listed = append(listed, ee.file)
	}
	for _, f := range files {
		if !slices.Contains(listed, filepath.Base(f)) {
			t.Errorf("%s has no entry in expectedErrors", f)
		}
	}
	for _, name := range listed {
		if _, err := os.Stat(filepath.Join("testdata", name)); err != nil {
			t.Errorf("expectedErrors lists %s: %v", name, err)
		}
	}
}

func TestProblemsAreReturnedAsProblems(t *testing.T) {
	unsetenv(t, "WEIR_TEST_UNSET_APP")
	_, err := load(t, "testdata/many_problems.bad.yml")
	ps := config.AsProblems(err)
	if len(ps) != 8 {
		t.Fatalf("AsProblems gives %d problems, want 8: %v", len(ps), err)
	}
	if !strings.HasPrefix(err.Error(), "8 configuration problems:\n  line 6: ") {
		t.Errorf("error text starts %q", err.Error()[:40])
	}
	if ps[3].Line != 17 || ps[3].Path != "streamConfigurations[s].configuration" {
		t.Errorf("problem 3 is at %d %q, want line 17 of the stream's configuration", ps[3].Line, ps[3].Path)
	}
	_, err = load(t, "testdata/many_parse_problems.bad.yml")
	if ps := config.AsProblems(err); len(ps) != 5 {
		t.Errorf("AsProblems of a parse failure gives %d problems, want 5: %v", len(ps), err)
	}
	_, err = config.LoadChecked("testdata/no-such-file.yml", config.DefaultMaxJobBytes, all.NewRegistry())
	if err == nil || config.AsProblems(err) != nil {
		t.Errorf("a missing file gives %v, want an error that is not Problems", err)
	}
}

func prop(key, value string, line int) dataflow.Property {
	return dataflow.Property{Key: key, Value: value, Line: line}
}

func TestGoodConfigListsAtTopLevel(t *testing.T) {
	t.Setenv("WEIR_TEST_APP", "top-level-app")
	t.Setenv("WEIR_TEST_EMPTY", "")
	unsetenv(t, "WEIR_TEST_UNSET_BROKERS", "WEIR_TEST_UNSET_IN_COMMENT")
	path := "testdata/lists_top.good.yml"
	job, err := load(t, path)
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	mod := st.ModTime().UTC().Truncate(time.Millisecond)

	if job.Version != "1.1.2" {
		t.Errorf("version %q", job.Version)
	}
	// $${ is the escape of a literal ${.
	if job.Documentation != "Costs ${HOME} to read, literally." {
		t.Errorf("documentation %q", job.Documentation)
	}
	wantEngine := dataflow.Component{
		Name: "engine", Component: "pkg.engine.engine.BrokerStreamProcessingEngine", Path: "engine", Line: 6,
		Config: []dataflow.Property{
			prop("engine.app.name", "top-level-app", 9),
			prop("engine.master", "local[*]", 10), // the trailing comment is not part of the value
			prop("engine.driver.memory", "512M", 11),
			prop("engine.streaming.batchDuration", "250", 12),
			prop("engine.ui.port", "-1", 13),
		},
	}
	checkComponent(t, "engine", job.Engine, wantEngine)

	d := job.DataFlow
	if d.Name != "top-level-app" {
		t.Errorf("dataflow name %q, want the app name", d.Name)
	}
	if !d.LastModified.Equal(mod) {
		t.Errorf("dataflow lastModified %v, want the file's %v", d.LastModified, mod)
	}
	if len(d.Services) != 1 {
		t.Fatalf("%d services, want 1", len(d.Services))
	}
	checkComponent(t, "service", d.Services[0], dataflow.Component{
		Name: "dns_cache", Component: "pkg.service.cache.LRUKeyValueCacheService", // given as "type"
		Path: "controllerServiceConfigurations[dns_cache]", Line: 16,
		Config: []dataflow.Property{prop("cache.size", "5000", 19)},
	})
	if len(d.Streams) != 1 {
		t.Fatalf("%d streams, want 1", len(d.Streams))
	}
	s := d.Streams[0]
	checkComponent(t, "stream", s.Component, dataflow.Component{
		Name: "parsing", Component: "pkg.stream.engine.BrokerRecordStreamParallelProcessing",
		Documentation: "Raw lines in, apache_log records out.",
		Path:          "streamConfigurations[parsing]", Line: 22,
		Config: []dataflow.Property{
			prop("broker.input.topics", "raw_a, raw_b", 26),
			prop("broker.output.topics", "events", 27),
			prop("broker.error.topics", "errors", 28),
			prop("broker.metadata.broker.list", "localhost:9092,localhost:9093", 29), // the default of an unset variable
			prop("broker.topic.autoCreate", "false", 30),
			prop("broker.topic.default.partitions", "8", 31),
		},
	})
	if !s.Pipeline.LastModified.Equal(mod) {
		t.Errorf("pipeline lastModified %v, want the file's %v", s.Pipeline.LastModified, mod)
	}
	if len(s.Pipeline.Processors) != 2 {
		t.Fatalf("%d processors, want 2", len(s.Pipeline.Processors))
	}
	checkComponent(t, "parser", s.Pipeline.Processors[0], dataflow.Component{
		Name: "parser", Component: "pkg.processor.SplitText",
		Path: "streamConfigurations[parsing].processorConfigurations[parser]", Line: 33,
		Config: []dataflow.Property{
			prop("record.type", "apache_log", 36), // the default of a variable set but empty
			prop("value.regex", `(\S+)\s+\[([^\]]+)\]`, 37),
			prop("value.fields", "src_ip,record_time", 38),
			prop("timezone.record.time", "UTC", 39),
		},
	})
	checkComponent(t, "resolver", s.Pipeline.Processors[1], dataflow.Component{
		Name: "resolver", Component: "pkg.processor.enrichment.IpToFqdn",
		Path: "streamConfigurations[parsing].processorConfigurations[resolver]", Line: 40,
		Config: []dataflow.Property{
			prop("ip.address.field", "src_ip", 43),
			prop("fqdn.field", "src_host", 44),
			prop("overwrite.fqdn.field", "true", 45),
			prop("cache.service", "dns_cache", 46),
			prop("dns.servers", "127.0.0.1:53", 47),
		},
	})
}

func TestGoodConfigListsInsideEngine(t *testing.T) {
	unsetenv(t, "WEIR_TEST_UNSET_QUORUM")
	job, err := load(t, "testdata/lists_in_engine.good.yml")
	if err != nil {
		t.Fatal(err)
	}
	if job.Version != "" || job.Documentation != "" {
		t.Errorf("version %q and documentation %q, want both empty", job.Version, job.Documentation)
	}
	if len(job.Engine.Config) != 0 {
		t.Errorf("engine configuration %v, want none", job.Engine.Config)
	}
	// Without engine.app.name the dataflow has no name of its own; the
	// engine gives it the default.
	if job.DataFlow.Name != "" {
		t.Errorf("dataflow name %q, want empty", job.DataFlow.Name)
	}
	d := job.DataFlow
	if len(d.Services) != 1 {
		t.Fatalf("%d services, want 1", len(d.Services))
	}
	checkComponent(t, "service", d.Services[0], dataflow.Component{
		Name: "cache", Component: "pkg.service.cache.LRUKeyValueCacheService",
		Path: "engine.controllerServiceConfigurations[cache]", Line: 5,
	})
	if len(d.Streams) != 2 {
		t.Fatalf("%d streams, want 2", len(d.Streams))
	}
	checkComponent(t, "first", d.Streams[0].Component, dataflow.Component{
		Name: "first", Component: "pkg.stream.engine.BrokerRecordStreamParallelProcessing",
		Path: "engine.streamConfigurations[first]", Line: 9,
		Config: []dataflow.Property{
			prop("broker.input.topics", "in", 12),
			prop("broker.error.topics", "errors", 13),
			prop("broker.metadata.broker.list", "embedded", 14),
			prop("broker.coordinator.quorum", "", 15), // ":-" with an empty default
		},
	})
	for _, s := range d.Streams {
		if len(s.Pipeline.Processors) != 0 {
			t.Errorf("stream %s has %d processors, want none", s.Name, len(s.Pipeline.Processors))
		}
	}
	if got := d.Streams[1].Path; got != "engine.streamConfigurations[second]" {
		t.Errorf("second stream path %q", got)
	}
}

// checkComponent compares everything the loader fills, lines included, and
// says which field differs.
func checkComponent(t *testing.T, what string, got, want dataflow.Component) {
	t.Helper()
	if got.Name != want.Name || got.Component != want.Component || got.Documentation != want.Documentation ||
		got.Path != want.Path || got.Line != want.Line {
		t.Errorf("%s: got name %q component %q doc %q path %q line %d\nwant name %q component %q doc %q path %q line %d",
			what, got.Name, got.Component, got.Documentation, got.Path, got.Line,
			want.Name, want.Component, want.Documentation, want.Path, want.Line)
	}
	if !slices.Equal(got.Config, want.Config) {
		t.Errorf("%s: configuration\n got %+v\nwant %+v", what, got.Config, want.Config)
	}
}

func TestParseFromBytes(t *testing.T) {
	mod := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	env := map[string]string{"TOPIC": "from_env"}
	getenv := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	job, err := config.Parse([]byte(`
engine:
  component: pkg.engine.engine.BrokerStreamProcessingEngine
streamConfigurations:
  - stream: s
    component: pkg.stream.engine.BrokerRecordStreamParallelProcessing
    configuration:
      broker.input.topics: ${TOPIC}
      broker.error.topics: $${TOPIC}
      broker.metadata.broker.list: embedded
      broker.topic.default.partitions: 4
`), mod, getenv)
	if err != nil {
		t.Fatal(err)
	}
	s := job.DataFlow.Streams[0]
	if v, _ := s.Value("broker.input.topics"); v != "from_env" {
		t.Errorf("input topics %q, want the variable's value from the given getenv", v)
	}
	if v, _ := s.Value("broker.error.topics"); v != "${TOPIC}" {
		t.Errorf("error topics %q, want the escaped text", v)
	}
	// YAML numbers arrive as the text the user wrote.
	if v, _ := s.Value("broker.topic.default.partitions"); v != "4" {
		t.Errorf("partitions %q", v)
	}
	if !job.DataFlow.LastModified.Equal(mod) || !s.Pipeline.LastModified.Equal(mod) {
		t.Errorf("lastModified %v / %v, want %v", job.DataFlow.LastModified, s.Pipeline.LastModified, mod)
	}
	// The escaped "${TOPIC}" is not a valid topic name: validation sees the
	// text after expansion.
	_, err = config.Check(job, all.NewRegistry())
	if err == nil || !strings.Contains(err.Error(), `line 9: streamConfigurations[s].configuration: property "broker.error.topics": topic name "${TOPIC}" has the character '$'`) {
		t.Errorf("validate: %v", err)
	}
}

// TestRepoJobsValidate loads every job the repository ships, with only the
// variables their comments say a user must set.
func TestRepoJobsValidate(t *testing.T) {
	unsetenv(t, "BROKER_LIST", "COORDINATOR_QUORUM", "WEIR_UI_PORT")
	t.Setenv("DOCDB_URI", "mongodb://user:secret@localhost:27017/")
	t.Setenv("SEARCH_HOSTS", "http://localhost:9200")
	// LogIsland's job, as it ships (conf/logisland-threshold-alerting.yml).
	t.Setenv("KAFKA_BROKERS", "embedded")
	t.Setenv("ZK_QUORUM", "")
	files, err := filepath.Glob("../../conf/*.yml")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 2 {
		t.Fatalf("found %d job files in conf/, want the sample and the quickstart at least", len(files))
	}
	reg := all.NewRegistry()
	for _, f := range files {
		checked, err := config.LoadChecked(f, config.DefaultMaxJobBytes, reg)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		job := checked.Job
		// A job that follows the REST API (conf/remote.yml) holds only the
		// engine.
		_, remote := job.Engine.Value("remote.api.baseUrl")
		if (len(job.DataFlow.Streams) == 0 && !remote) || job.DataFlow.Name == "" {
			t.Errorf("%s: %d streams, dataflow name %q", f, len(job.DataFlow.Streams), job.DataFlow.Name)
		}
	}
}

// TestProblemsSortByLine checks the order of a report directly: stable among
// problems of one line, those without a line first.
func TestProblemsSortByLine(t *testing.T) {
	ps := component.Problems{
		{Line: 9, Msg: "a"}, {Line: 2, Msg: "b"}, {Line: 9, Msg: "c"}, {Msg: "d"}, {Line: 2, Msg: "e"},
	}
	ps.Sort()
	var got []string
	for _, p := range ps {
		got = append(got, p.Msg)
	}
	if want := []string{"d", "b", "e", "a", "c"}; !slices.Equal(got, want) {
		t.Errorf("sorted %v, want %v", got, want)
	}
}

// FuzzParseChecked runs the one-run validation on arbitrary YAML: the walk
// goes on after every problem and validation runs on the partial job, so
// no partial shape may panic, and an accepted job has a plan.
func FuzzParseChecked(f *testing.F) {
	for _, seed := range []string{"lists_top.good.yml", "many_problems.bad.yml", "many_parse_problems.bad.yml", "unset_var_among_others.bad.yml", "structure_and_values.bad.yml", "logisland_names.good.yml"} {
		data, err := os.ReadFile(filepath.Join("testdata", seed))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(data))
	}
	reg := all.NewRegistry()
	getenv := func(string) (string, bool) { return "", false }
	f.Fuzz(func(t *testing.T, doc string) {
		checked, err := config.ParseChecked([]byte(doc), time.Unix(0, 0), getenv, reg)
		if err == nil && (checked == nil || checked.Plan == nil) {
			t.Fatal("accepted job without a plan")
		}
	})
}

// TestSyntaxErrorAnywhereInAGoodJob cuts each sample job with a syntax
// error at every line in turn: the lines above are checked, and since they
// are good, the syntax error must be the only problem. A problem more is
// one that only follows from the cut, which the report must leave out.
func TestSyntaxErrorAnywhereInAGoodJob(t *testing.T) {
	reg := all.NewRegistry()
	env := map[string]string{"DOCDB_URI": "mongodb://127.0.0.1:27017/", "SEARCH_HOSTS": "http://127.0.0.1:9200", "KAFKA_BROKERS": "embedded", "ZK_QUORUM": ""}
	getenv := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	jobs, err := filepath.Glob("../../conf/*.yml")
	if err != nil || len(jobs) == 0 {
		t.Fatal(jobs, err)
	}
	recovered, cuts := 0, 0
	for _, job := range jobs {
		data, err := os.ReadFile(job)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitAfter(string(data), "\n")
		for i := range lines {
			cut := slices.Clone(lines)
			cut[i] = "\t- ]\n" + cut[i]
			_, err := config.ParseChecked([]byte(strings.Join(cut, "")), time.Unix(0, 0), getenv, reg)
			ps := config.AsProblems(err)
			cuts++
			if ps != nil {
				recovered++
			}
			if err == nil || (ps != nil && (len(ps) != 1 || !strings.Contains(ps[0].Msg, "YAML syntax error"))) {
				t.Errorf("%s cut at line %d: %v", job, i+1, err)
			}
		}
	}
	// The lines above a cut parse on their own in most places (not inside
	// a block scalar or a flow list): the check above is not vacuous.
	if recovered < cuts*3/4 {
		t.Errorf("only %d of %d cuts were read up to the error", recovered, cuts)
	}
	t.Logf("%d of %d cuts read up to the error", recovered, cuts)
}
