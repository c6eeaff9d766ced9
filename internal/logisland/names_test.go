package logisland_test

import (
	"slices"
	"testing"

	"github.com/weir-streams/weir/internal/dataflow"
	"github.com/weir-streams/weir/internal/logisland"
)

func props(kv ...string) []dataflow.Property {
	var out []dataflow.Property
	for i := 0; i+1 < len(kv); i += 2 {
		out = append(out, dataflow.Property{Key: kv[i], Value: kv[i+1], Line: i/2 + 1})
	}
	return out
}

func TestCanonicalize(t *testing.T) {
	for _, tc := range []struct {
		name      string
		component string
		in        []dataflow.Property
		wantComp  string
		wantKeys  []string // key, or key<-written
		ignored   []string
		clashes   []string
	}{
		{"engine renamed", "pkg.engine.spark.KafkaStreamProcessingEngine",
			props("spark.app.name", "a", "engine.master", "local", "spark.executor.memory", "2G", "spark.custom.config.x", "1"),
			logisland.Engine, []string{"engine.app.name<-spark.app.name", "engine.master"}, []string{"spark.executor.memory", "spark.custom.config.x"}, nil},
		{"a bare custom prefix is not ignored", logisland.Engine, props("spark.custom.config.", "1"),
			logisland.Engine, []string{"spark.custom.config."}, nil, nil},
		{"alias after its key", "pkg.stream.spark.KafkaRecordStreamParallelProcessing",
			props("broker.input.topics", "a", "kafka.input.topics", "b"),
			logisland.Stream, []string{"broker.input.topics"}, nil,
			[]string{`property "kafka.input.topics" (LogIsland's name of "broker.input.topics") is also given as "broker.input.topics" at line 1; keep one`}},
		{"key after its alias", logisland.Stream,
			props("kafka.input.topics", "a", "broker.input.topics", "b"),
			logisland.Stream, []string{"broker.input.topics<-kafka.input.topics"}, nil,
			[]string{`property "broker.input.topics" is also given as "kafka.input.topics" (LogIsland's name of it, line 1); keep one`}},
		{"a key twice under Weir's name is left to validation", logisland.Stream,
			props("broker.input.topics", "a", "broker.input.topics", "b"),
			logisland.Stream, []string{"broker.input.topics", "broker.input.topics"}, nil, nil},
		{"engine keys in a stream are not the stream's", logisland.Stream, props("spark.app.name", "a", "kafka.unknown", "b"),
			logisland.Stream, []string{"spark.app.name", "kafka.unknown"}, nil, nil},
		{"processors are left alone", "pkg.processor.SplitText", props("kafka.input.topics", "a", "spark.executor.memory", "b"),
			"pkg.processor.SplitText", []string{"kafka.input.topics", "spark.executor.memory"}, nil, nil},
		{"another LogIsland stream has no alias", "pkg.stream.spark.KafkaRecordStreamDebugger", props("kafka.input.topics", "a"),
			"pkg.stream.spark.KafkaRecordStreamDebugger", []string{"kafka.input.topics"}, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := dataflow.Component{Component: tc.component, Config: tc.in}
			res := logisland.Canonicalize(&c)
			if c.Component != tc.wantComp {
				t.Errorf("component %q, want %q", c.Component, tc.wantComp)
			}
			var keys, ignored, clashes []string
			for _, p := range c.Config {
				k := p.Key
				if p.Written != "" {
					k += "<-" + p.Written
				}
				keys = append(keys, k)
			}
			for _, p := range res.Ignored {
				ignored = append(ignored, p.Key)
			}
			for _, cl := range res.Clashes {
				clashes = append(clashes, cl.Message())
			}
			if !slices.Equal(keys, tc.wantKeys) || !slices.Equal(ignored, tc.ignored) || !slices.Equal(clashes, tc.clashes) {
				t.Errorf("keys %q ignored %q clashes %q\nwant %q %q %q", keys, ignored, clashes, tc.wantKeys, tc.ignored, tc.clashes)
			}
		})
	}
}

func TestSuggest(t *testing.T) {
	for _, tc := range [][3]string{
		{logisland.Engine, "spark.executor.memroy", "spark.executor.memory"},
		{logisland.Engine, "spark.app.nam", "spark.app.name"},
		{logisland.Stream, "kafka.input.topic", "kafka.input.topics"},
		{logisland.Stream, "kafka.sasl.kerberos.service.name", ""}, // no counterpart, nothing close
		{logisland.Engine, "spark.app.name", ""},                   // not misspelt
		{logisland.Engine, "engine.mastr", ""},                     // Weir's: Weir's own suggestion
		{logisland.Stream, "spark.app.nam", ""},                    // an engine key in a stream
		{"pkg.processor.SplitText", "kafka.input.topic", ""},       // not the engine or the stream
	} {
		if got := logisland.Suggest(tc[0], tc[1]); got != tc[2] {
			t.Errorf("Suggest(%s, %q) = %q, want %q", tc[0], tc[1], got, tc[2])
		}
	}
}
