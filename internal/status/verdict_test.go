package status_test

import (
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/status"
)

func batchAt(sec int, lags ...int64) status.Batch {
	b := status.Batch{End: time.Unix(int64(sec), 0), In: 10}
	for i, l := range lags {
		b.Lag = append(b.Lag, status.PartitionLag{Topic: "t", Partition: int32(i), Lag: l})
	}
	return b
}

func TestJudge(t *testing.T) {
	for _, c := range []struct {
		name      string
		batches   []status.Batch
		stoppedBy string
		want      string
	}{
		{"no batch", nil, "", "keeping up: no records yet"},
		{"stopped", []status.Batch{batchAt(1, 0)}, "commit offsets: broker gone", "stopped: commit offsets: broker gone"},
		{"zero lag", []status.Batch{batchAt(1, 5), batchAt(2, 0)}, "", "keeping up"},
		{"steady lag", []status.Batch{batchAt(1, 7), batchAt(2, 7)}, "", "keeping up: 7 records behind, not growing"},
		{"growing within a minute", []status.Batch{batchAt(0, 10), batchAt(30, 50)}, "", "falling behind: lag grew 40 records in the last 30s"},
		// Only the last minute counts: the batch at 0 s is outside it.
		{"growing over the last minute", []status.Batch{batchAt(0, 1000), batchAt(10, 100), batchAt(70, 300)}, "", "falling behind: lag grew 200 records in the last minute"},
		// A partition not read by the last batch keeps its last known lag.
		{"per partition", []status.Batch{batchAt(1, 10, 10), {End: time.Unix(2, 0), Lag: []status.PartitionLag{{Topic: "t", Partition: 1, Lag: 30}}}}, "", "falling behind: lag grew 20 records in the last 1s"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := status.Judge(c.batches, c.stoppedBy).Text; got != c.want {
				t.Errorf("Judge = %q, want %q", got, c.want)
			}
		})
	}
}

func TestRingKeepsTheLastBatches(t *testing.T) {
	r := status.NewRing()
	for i := range status.BatchesKept + 50 {
		r.Add(status.Batch{In: int64(i), Lag: []status.PartitionLag{{Topic: "b", Partition: 1}, {Topic: "a", Partition: 2}, {Topic: "a", Partition: 1}}})
	}
	got, total := r.Batches()
	if len(got) != status.BatchesKept || total != status.BatchesKept+50 {
		t.Fatalf("%d batches kept of %d, want %d of %d", len(got), total, status.BatchesKept, status.BatchesKept+50)
	}
	if got[0].In != 50 || got[len(got)-1].In != status.BatchesKept+49 {
		t.Errorf("kept batches %d..%d, want 50..%d, oldest first", got[0].In, got[len(got)-1].In, status.BatchesKept+49)
	}
	if l := got[0].Lag; l[0].Topic != "a" || l[0].Partition != 1 || l[1].Partition != 2 || l[2].Topic != "b" {
		t.Errorf("lag not sorted by topic and partition: %+v", l)
	}
	lag := status.CurrentLag([]status.Batch{batchAt(0, 1, 5), batchAt(10, 0, 9)})
	if len(lag) != 2 || lag[0].Lagging || !lag[1].Lagging || lag[1].Lag != 9 || len(lag[1].Trend) != 2 {
		t.Errorf("CurrentLag = %+v, want partition 1 lagging at 9", lag)
	}
}
