package stream

import (
	"sync/atomic"
	"time"

	"github.com/weir-streams/weir/internal/status"
)

// batchTally counts the records of the batch in flight; processChunk adds
// to it from several workers, recordBatch reads and resets it once the
// batch is committed.
type batchTally struct {
	in, out, errs, filtered atomic.Int64
}

// failure is the last consumer failure, for the status page's verdict.
type failure struct {
	at     time.Time
	reason string
}

// recordBatch is the stream's one hook into the status page: called by
// consume once per committed batch, it adds the batch to the stream's ring
// (status.Ring), with the lag of every assigned partition as the offset
// watcher last saw it (progress.go), so partitions absent from the batch
// count too.
func (s *Stream) recordBatch(start time.Time, delay time.Duration, read []polledPartition) {
	parts := s.state().Partitions
	lag := make([]status.PartitionLag, 0, len(parts))
	for _, p := range parts {
		lag = append(lag, status.PartitionLag{Topic: p.Topic, Partition: p.Partition, Lag: p.Lag})
	}
	bp := make([]status.BatchPartition, 0, len(read))
	for _, p := range read {
		bp = append(bp, status.BatchPartition{Topic: p.Topic, Partition: p.Partition, Records: len(p.Records),
			FirstOffset: p.Records[0].Offset, NextOffset: p.Records[len(p.Records)-1].Offset + 1})
	}
	s.batches.Add(status.Batch{
		End:               time.Now(),
		In:                s.tally.in.Swap(0),
		Out:               s.tally.out.Swap(0),
		Errors:            s.tally.errs.Swap(0),
		Filtered:          s.tally.filtered.Swap(0),
		SchedulingDelayMs: float64(delay.Microseconds()) / 1000,
		ProcessingMs:      float64(time.Since(start).Microseconds()) / 1000,
		Lag:               lag,
		Partitions:        bp,
		Generation:        s.Generation(),
	})
}

// noteFailure remembers why the consumer stopped, until it restarts.
func (s *Stream) noteFailure(err error) {
	s.failure.Store(&failure{at: time.Now(), reason: err.Error()})
	s.prog.unjoin()
}

// Batches returns the stream's recent batches, oldest first, the number of
// batches ever recorded, and the last consumer failure if the stream has
// committed no batch since it ("" otherwise).
func (s *Stream) Batches() (batches []status.Batch, total int64, stoppedBy string) {
	batches, total = s.batches.Batches()
	if f := s.failure.Load(); f != nil && (len(batches) == 0 || batches[len(batches)-1].End.Before(f.at)) {
		stoppedBy = f.reason
	}
	return batches, total, stoppedBy
}

// ProcessorStats returns the running chain's processor totals, in order.
func (s *Stream) ProcessorStats() []status.ProcessorTotals {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.chain.Stats()
}
