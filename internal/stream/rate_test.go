package stream_test

import (
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/engine"
	"github.com/weir-streams/weir/internal/streamtest"
)

// TestMaxRatePerPartitionHoldsBackABacklog checks the rate limit by
// progress, not by timing: with 2 partitions at 500 records/s, a backlog of
// 20,000 records cannot be done within the first second, whatever the
// machine's speed, while without a limit it is (see the end-to-end tests).
func TestMaxRatePerPartitionHoldsBackABacklog(t *testing.T) {
	b := streamtest.StartBroker(t)
	b.CreateTopic(t, "pipeline_raw", 2)
	lines := streamtest.AccessLogLines(t)
	b.ProduceLines(t, "pipeline_raw", append(lines, lines...))
	start := time.Now()
	streamtest.StartEngine(t, engine.Settings{MaxRate: 500, Workers: 2, BatchInterval: 100 * time.Millisecond},
		parsingDataflow(b.Addr, false))
	b.WaitCount(t, "pipeline_events", 1, 30*time.Second)
	time.Sleep(time.Until(start.Add(time.Second)))
	// In one second 2 partitions at 500/s allow 1,000 records, plus one
	// batch's share each of head start; allow ample slack but far below
	// 20,000.
	if got := b.Count(t, "pipeline_events"); got > 3000 {
		t.Fatalf("%d records written within about a second at 2 x 500 records/s", got)
	}
}
