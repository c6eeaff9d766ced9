package stream_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/dataflow"
	"github.com/weir-streams/weir/internal/engine"
	"github.com/weir-streams/weir/internal/status"
	"github.com/weir-streams/weir/internal/stream"
	"github.com/weir-streams/weir/internal/streamtest"
)

// patternStream is a stream reading the topics whose names match pattern,
// less ignored, writing to out and errs.
func patternStream(name, brokers, pattern, ignored, out, errs string) dataflow.Stream {
	cfg := []dataflow.Property{
		{Key: stream.KeyBrokerList, Value: brokers},
		{Key: stream.KeyInputPattern, Value: pattern},
		{Key: stream.KeyOutputTopics, Value: out},
		{Key: stream.KeyErrorTopics, Value: errs},
	}
	if ignored != "" {
		cfg = append(cfg, dataflow.Property{Key: stream.KeyInputIgnored, Value: ignored})
	}
	return dataflow.Stream{Component: dataflow.Component{Name: name, Component: stream.Name, Config: cfg}}
}

// TestInputPattern: a stream subscribed by pattern processes the records of
// the two topics whose whole names match it, and none of a topic it
// ignores, of one whose name only contains a match (Kafka matches whole
// names; Go's regexp, unanchored, would take it) and of one that does not
// match at all. The other topics are filled first, so a subscription that
// took them would have their records in its first fetches.
func TestInputPattern(t *testing.T) {
	b := streamtest.StartBroker(t)
	lines := streamtest.AccessLogLines(t)
	others := []string{"logs_skip", "app_logs_a", "metrics"}
	for i, topic := range others {
		b.CreateTopic(t, topic, 2)
		b.ProduceLines(t, topic, lines[i*100:(i+1)*100])
	}
	b.CreateTopic(t, "logs_a", 2)
	b.CreateTopic(t, "logs_b", 1)
	b.ProduceLines(t, "logs_a", lines[300:450])
	b.ProduceLines(t, "logs_b", lines[450:500])

	s := patternStream("s", b.Addr, "logs_.*", "logs_skip", "events", "errors")
	s.Pipeline = dataflow.Pipeline{Processors: []dataflow.Component{streamtest.ApacheParser(false)}}
	e := streamtest.StartEngine(t, engine.Settings{AppName: "weir-test", UIPort: -1}, &dataflow.DataFlow{Streams: []dataflow.Stream{s}})
	b.WaitGroupCommitted(t, "weir-test", "logs_a", 150, 2*time.Minute)
	b.WaitGroupCommitted(t, "weir-test", "logs_b", 50, 2*time.Minute)

	if n := b.Count(t, "events") + b.Count(t, "errors"); n != 200 {
		t.Errorf("%d records written, want the 200 of logs_a and logs_b", n)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	offs, err := b.Admin().FetchOffsetsForTopics(ctx, "weir-test", others...)
	if err != nil {
		t.Fatal(err)
	}
	offs.Each(func(o kadm.OffsetResponse) {
		if o.Err == nil && o.At > 0 {
			t.Errorf("the group committed offset %d on %s[%d], which the pattern does not take", o.At, o.Topic, o.Partition)
		}
	})
	st := e.Status().(status.API).Streams[0]
	if st.InputPattern != "logs_.*" || len(st.InputTopics) != 0 {
		t.Errorf("status input %q topics %v, want the pattern and no list", st.InputPattern, st.InputTopics)
	}
	var topics []string
	for _, p := range st.Partitions {
		if !slices.Contains(topics, p.Topic) {
			topics = append(topics, p.Topic)
		}
	}
	slices.Sort(topics)
	if !slices.Equal(topics, []string{"logs_a", "logs_b"}) {
		t.Errorf("partitions of %v in the status, want logs_a and logs_b", topics)
	}
}

// TestInputTopicsOrPattern: a stream takes exactly one of a topic list and
// a pattern, with a message saying so; a pattern that matches the stream's
// own output or error topic, a pattern Go cannot compile, and an ignored
// list that leaves no topic are refused; ignored topics leave the list.
func TestInputTopicsOrPattern(t *testing.T) {
	reg := streamtest.Registry()
	check := func(kv ...string) string {
		df := &dataflow.DataFlow{Streams: []dataflow.Stream{{Component: dataflow.Component{Name: "s", Component: stream.Name,
			Config: streamtest.Props(append([]string{stream.KeyBrokerList, "127.0.0.1:9092", stream.KeyErrorTopics, "errors"}, kv...)...)}}}}
		_, probs := dataflow.Check(df, reg)
		if probs == nil {
			return ""
		}
		return probs.Error()
	}
	for _, c := range []struct {
		name string
		kv   []string
		want string // a part of the problem, "" for valid
	}{
		{"list", []string{stream.KeyInputTopics, "raw"}, ""},
		{"pattern", []string{stream.KeyInputPattern, "raw_.*", stream.KeyOutputTopics, "events"}, ""},
		{"both", []string{stream.KeyInputTopics, "raw", stream.KeyInputPattern, "raw_.*"}, "broker.input.topics and broker.input.topics.pattern are both set"},
		{"neither", nil, "neither broker.input.topics nor broker.input.topics.pattern is set"},
		{"bad pattern", []string{stream.KeyInputPattern, "raw_("}, `property "broker.input.topics.pattern": invalid regular expression`},
		{"empty pattern", []string{stream.KeyInputPattern, " "}, `property "broker.input.topics.pattern": must not be empty`},
		{"pattern takes the output", []string{stream.KeyInputPattern, "raw.*", stream.KeyOutputTopics, "raw_events"},
			`broker.input.topics.pattern "raw.*" matches broker.output.topics topic "raw_events": the stream would consume what it writes`},
		{"pattern takes the errors", []string{stream.KeyInputPattern, "err.*"}, `matches broker.error.topics topic "errors"`},
		{"the output ignored", []string{stream.KeyInputPattern, "raw.*", stream.KeyOutputTopics, "raw_events", stream.KeyInputIgnored, "raw_events"}, ""},
		{"whole names only", []string{stream.KeyInputPattern, "raw", stream.KeyOutputTopics, "raw_events"}, ""},
		{"every topic ignored", []string{stream.KeyInputTopics, "a,b", stream.KeyInputIgnored, "b,a"}, "broker.input.topics.ignored ignores every topic of broker.input.topics"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := check(c.kv...)
			if c.want == "" && got != "" || !strings.Contains(got, c.want) {
				t.Errorf("problems %q, want %q", got, c.want)
			}
		})
	}

	spec, _ := reg.LookupKind(stream.Name, component.KindStream)
	conf, probs := component.NewConfig(spec, map[string]string{stream.KeyBrokerList: "127.0.0.1:9092", stream.KeyErrorTopics: "errors",
		stream.KeyInputTopics: "a,b,c", stream.KeyInputIgnored: "b"})
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	sc, err := stream.Decode("s", conf)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(sc.Inputs, []string{"a", "c"}) || sc.InputPattern != "" {
		t.Errorf("inputs %v pattern %q, want a and c", sc.Inputs, sc.InputPattern)
	}
}
