package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestJobTopics(t *testing.T) {
	for _, tc := range []struct {
		file      string
		out, errs []string
	}{
		{"../../conf/quickstart.yml", []string{"pipeline_events"}, []string{"pipeline_errors"}},
		{"../../conf/index-apache-logs-grok.yml", []string{"pipeline_events"}, []string{"pipeline_errors"}},
	} {
		got, err := jobTopics(tc.file, inputTopic)
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		if !slices.Equal(got.out, tc.out) || !slices.Equal(got.errs, tc.errs) {
			t.Errorf("%s: output %q, errors %q; want %q, %q", tc.file, got.out, got.errs, tc.out, tc.errs)
		}
	}
}

func TestJobTopicsOfTheStreamReadingTheInput(t *testing.T) {
	job := `version: 1.1.2
engine:
  component: pkg.engine.engine.BrokerStreamProcessingEngine
  configuration:
    engine.app.name: two
streamConfigurations:
  - stream: parse
    component: pkg.stream.engine.BrokerRecordStreamParallelProcessing
    configuration:
      broker.input.topics: other_raw, pipeline_raw
      broker.output.topics: parsed_a,parsed_b
      broker.error.topics: none
      broker.metadata.broker.list: ${BROKER_LIST}
    processorConfigurations: []
  - stream: index
    component: pkg.stream.engine.BrokerRecordStreamParallelProcessing
    configuration:
      broker.input.topics: parsed_a
      broker.output.topics: indexed
      broker.error.topics: index_errors
      broker.metadata.broker.list: ${BROKER_LIST}
    processorConfigurations: []
`
	path := filepath.Join(t.TempDir(), "job.yml")
	if err := os.WriteFile(path, []byte(job), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := jobTopics(path, inputTopic)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.out, []string{"parsed_a", "parsed_b"}) || len(got.errs) != 0 {
		t.Errorf("output %q, errors %q; want [parsed_a parsed_b], none", got.out, got.errs)
	}
	if _, err := jobTopics(path, "absent_raw"); err == nil {
		t.Error("a job with no stream reading the input topic was accepted")
	}
}

func TestFinished(t *testing.T) {
	one := countedTopics{out: []string{"events"}, errs: []string{"errors"}}
	two := countedTopics{out: []string{"a", "b"}, errs: []string{"e1", "e2"}}
	for _, tc := range []struct {
		name   string
		topics countedTopics
		counts map[string]int64
		want   int64
	}{
		{"outputs and errors add up", one, map[string]int64{"events": 9930, "errors": 70}, 10000},
		{"an error topic not created yet holds nothing", one, map[string]int64{"events": 10000}, 10000},
		{"nothing written yet", one, map[string]int64{}, 0},
		{"each output topic holds every record: the least filled counts", two, map[string]int64{"a": 900, "b": 950, "e1": 40, "e2": 30}, 930},
		{"no error topic", countedTopics{out: []string{"events"}}, map[string]int64{"events": 5, "errors": 7}, 5},
	} {
		if got := tc.topics.finished(tc.counts); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
}
