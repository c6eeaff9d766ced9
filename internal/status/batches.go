package status

import (
	"sort"
	"sync"
	"time"
)

// BatchesKept is how many batches a stream's ring keeps: 200, as Spark's
// streaming tab keeps.
const BatchesKept = 200

// PartitionLag is the lag of one topic-partition at the end of a batch.
type PartitionLag struct {
	Topic     string `json:"topic"`
	Partition int32  `json:"partition"`
	Lag       int64  `json:"lag"`
}

// Batch is what the status page knows of one micro-batch. The stream
// records one per poll that held records, once the batch is committed.
type Batch struct {
	// End is when the batch was committed.
	End time.Time `json:"end"`
	// In, Out and Errors count records consumed, written to the output
	// topics and written to the error topics; Filtered counts records the
	// processors dropped on purpose (a filter), which are neither.
	In       int64 `json:"in"`
	Out      int64 `json:"out"`
	Errors   int64 `json:"errors"`
	Filtered int64 `json:"filtered"`
	// SchedulingDelayMs is how late the batch started after its interval;
	// ProcessingMs is the time from poll to commit.
	SchedulingDelayMs float64 `json:"schedulingDelayMs"`
	ProcessingMs      float64 `json:"processingMs"`
	// Lag is the lag of each assigned partition, after the batch.
	Lag []PartitionLag `json:"lag"`
	// Partitions are the partitions the batch read, with the offsets it
	// processed and committed.
	Partitions []BatchPartition `json:"partitions"`
	// Generation is the running chain generation when the batch was
	// recorded (a swap during the batch shows the new one).
	Generation int64 `json:"generation"`
}

// BatchPartition is what a batch read of one partition: Records records,
// from FirstOffset; NextOffset, the offset after its last record, is the
// offset the batch committed.
type BatchPartition struct {
	Topic       string `json:"topic"`
	Partition   int32  `json:"partition"`
	Records     int    `json:"records"`
	FirstOffset int64  `json:"firstOffset"`
	NextOffset  int64  `json:"nextOffset"`
}

// TotalLag is the sum of the batch's partition lags.
func (b Batch) TotalLag() int64 {
	var n int64
	for _, p := range b.Lag {
		n += p.Lag
	}
	return n
}

// Ring keeps the last BatchesKept batches of one stream. It is safe for one
// writer (the stream's poll loop) and any number of readers (the status
// server).
type Ring struct {
	mu    sync.Mutex
	buf   [BatchesKept]Batch
	next  int // index the next batch goes to
	count int // batches held, at most BatchesKept
	total int64
}

// NewRing returns an empty ring.
func NewRing() *Ring { return &Ring{} }

// Add records a batch, dropping the oldest when the ring is full. The lag
// and partition slices are kept sorted by topic and partition, so readers
// can compare batches partition by partition.
func (r *Ring) Add(b Batch) {
	sort.Slice(b.Lag, func(i, j int) bool {
		if b.Lag[i].Topic != b.Lag[j].Topic {
			return b.Lag[i].Topic < b.Lag[j].Topic
		}
		return b.Lag[i].Partition < b.Lag[j].Partition
	})
	sort.Slice(b.Partitions, func(i, j int) bool {
		if b.Partitions[i].Topic != b.Partitions[j].Topic {
			return b.Partitions[i].Topic < b.Partitions[j].Topic
		}
		return b.Partitions[i].Partition < b.Partitions[j].Partition
	})
	r.mu.Lock()
	r.buf[r.next] = b
	r.next = (r.next + 1) % BatchesKept
	r.count = min(r.count+1, BatchesKept)
	r.total++
	r.mu.Unlock()
}

// Batches returns a copy of the batches held, oldest first, and the number
// of batches ever recorded.
func (r *Ring) Batches() ([]Batch, int64) {
	if r == nil {
		return nil, 0
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]Batch, 0, r.count)
	start := (r.next - r.count + BatchesKept) % BatchesKept
	for i := range r.count {
		out = append(out, r.buf[(start+i)%BatchesKept])
	}
	return out, r.total
}
