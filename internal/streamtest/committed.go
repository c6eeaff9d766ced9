package streamtest

import (
	"context"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// Committed is what a read_committed reader sees in a topic: the data
// messages of committed transactions (and non-transactional writes), by
// message key.
type Committed struct {
	Total int            // data messages
	ByKey map[string]int // messages per key (the record id)
}

// Duplicates returns the number of messages beyond the first of each key.
func (c Committed) Duplicates() int { return c.Total - len(c.ByKey) }

// ReadCommitted reads the whole of topic as a read_committed consumer and
// counts its messages by key. It reads up to the end offsets the topic has
// when it is called, so the caller first waits until nothing more is
// written (see WaitGroupCommitted); a transaction still open blocks the
// reader at the last stable offset, and the test fails after the timeout.
//
// The end of each partition is known exactly because the reader keeps the
// control records (transaction markers), which occupy offsets: a partition
// is read once the reader has passed its end offset. The reader keeps the
// default fetch sizes: kfake attaches the aborted-transactions list only
// when a fetch response stays under the request's byte limit, and a small
// limit makes aborted records look committed.
func (b *Broker) ReadCommitted(t testing.TB, topic string, timeout time.Duration) Committed {
	t.Helper()
	return b.ReadCommittedEach(t, topic, timeout, nil)
}

// ReadCommittedEach is ReadCommitted, calling each (when not nil) with
// every data message a read_committed reader sees.
func (b *Broker) ReadCommittedEach(t testing.TB, topic string, timeout time.Duration, each func(*kgo.Record)) Committed {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	ends, err := kadm.NewClient(b.client).ListEndOffsets(ctx, topic)
	if err != nil {
		t.Fatalf("list end offsets of %s: %v", topic, err)
	}
	want := map[int32]int64{}
	ends.Each(func(o kadm.ListedOffset) {
		if o.Err == nil && o.Offset > 0 {
			want[o.Partition] = o.Offset
		}
	})
	cl, err := kgo.NewClient(kgo.SeedBrokers(b.Addr), kgo.ConsumeTopics(topic),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
		kgo.FetchIsolationLevel(kgo.ReadCommitted()), kgo.KeepControlRecords())
	if err != nil {
		t.Fatalf("kafka client: %v", err)
	}
	defer cl.Close()
	c := Committed{ByKey: map[string]int{}}
	pos := map[int32]int64{}
	reached := func() bool {
		for p, end := range want {
			if pos[p] < end {
				return false
			}
		}
		return true
	}
	for !reached() {
		f := cl.PollFetches(ctx)
		if ctx.Err() != nil {
			t.Fatalf("read_committed reader of %s did not reach the end offsets %v within %v (at %v, %d messages): a transaction is still open",
				topic, want, timeout, pos, c.Total)
		}
		f.EachRecord(func(r *kgo.Record) {
			pos[r.Partition] = r.Offset + 1
			if r.Attrs.IsControl() {
				return
			}
			c.Total++
			c.ByKey[string(r.Key)]++
			if each != nil {
				each(r)
			}
		})
	}
	return c
}

// WaitGroupCommitted waits until the consumer group has committed offsets
// on topic that add up to n: every input record processed and its batch
// committed (for a transactional stream, its transaction committed).
func (b *Broker) WaitGroupCommitted(t testing.TB, group, topic string, n int64, timeout time.Duration) {
	t.Helper()
	adm := kadm.NewClient(b.client)
	deadline := time.Now().Add(timeout)
	var got int64
	for time.Now().Before(deadline) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		offs, err := adm.FetchOffsetsForTopics(ctx, group, topic)
		cancel()
		if err == nil {
			got = 0
			offs.Each(func(o kadm.OffsetResponse) {
				if o.Err == nil && o.At > 0 {
					got += o.At
				}
			})
			if got >= n {
				return
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("group %s committed %d offsets on %s within %v, want %d", group, got, topic, timeout, n)
}
