package stream_test

import (
	"context"
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/dataflow"
	"github.com/weir-streams/weir/internal/engine"
	"github.com/weir-streams/weir/internal/streamtest"
)

// TestNoneTopics: output and error topics named none, as LogIsland's job
// files write "no output", are no topics: the stream processes and commits
// every line, and creates and writes no topic called none.
func TestNoneTopics(t *testing.T) {
	b := streamtest.StartBroker(t)
	b.CreateTopic(t, "raw", 2)
	s := streamtest.Stream("s", b.Addr, "raw", "none", "none")
	s.Pipeline = dataflow.Pipeline{Processors: []dataflow.Component{streamtest.ApacheParser(false)}}
	streamtest.StartEngine(t, engine.Settings{AppName: "weir-test", UIPort: -1}, &dataflow.DataFlow{Streams: []dataflow.Stream{s}})
	lines := streamtest.AccessLogLines(t)[:300]
	b.ProduceLines(t, "raw", lines)
	b.WaitGroupCommitted(t, "weir-test", "raw", int64(len(lines)), 2*time.Minute)
	topics, err := b.Admin().ListTopics(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if topics.Has("none") {
		t.Errorf("a topic named none exists: %v", topics.Names())
	}
}
