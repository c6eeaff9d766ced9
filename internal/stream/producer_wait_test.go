package stream

import (
	"context"
	"errors"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kfake"

	"github.com/weir-streams/weir/internal/record"
)

// TestWaitOutlastsACancelledFlush holds the broker's answer to a poll's
// produce request, cancels the poll's context, and checks that wait does
// not return before every message's callback has run. Flush returns at
// once when its context ends, while the messages already sent are still
// the client's: the poll's slabs and message blocks go back to the pool
// right after wait, so a callback still to come would read a message that
// the next poll has reused.
func TestWaitOutlastsACancelledFlush(t *testing.T) {
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(1, "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	release := make(chan struct{})
	var releaseOnce atomic.Bool
	unblock := func() {
		if releaseOnce.CompareAndSwap(false, true) {
			close(release)
		}
	}
	defer unblock() // runs before c.Close: the broker's loop must not stay blocked
	var held atomic.Bool
	c.ControlKey(int16(kmsg.Produce), func(kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		held.Store(true)
		<-release
		return nil, nil, false
	})

	cl, err := kgo.NewClient(kgo.SeedBrokers(c.ListenAddrs()...), kgo.ProducerLinger(0))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p := &producer{cl: cl, ctx: ctx, slabs: &blockPool[byte]{}, sents: &blockPool[sent]{}, limit: 1 << 20,
		log: slog.New(slog.DiscardHandler)}
	p.ack = p.acked
	const n = 300
	out := chunkOut{stamp: chunkStamp(), hint: n}
	r := record.New("id", "t", 0)
	for range n {
		p.produce(&out, r, "out", []byte("k"), []byte("value"), false)
	}
	p.release(&out)
	if got := p.produced.Load(); got != n {
		t.Fatalf("produced = %d, want %d", got, n)
	}

	deadline := time.Now().Add(10 * time.Second)
	for !held.Load() {
		if time.Now().After(deadline) {
			t.Fatal("the produce request never reached the broker")
		}
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	done := make(chan error, 1)
	go func() { done <- p.wait() }()
	select {
	case err := <-done:
		t.Fatalf("wait returned (%v) with %d of %d callbacks run, while the broker still held the request", err, p.acks.n.Load(), n)
	case <-time.After(300 * time.Millisecond):
	}
	unblock()
	select {
	case err := <-done:
		// Messages not yet sent when ctx ended fail with its error;
		// the ones in the held request are written.
		if err != nil && !errors.Is(err, context.Canceled) {
			t.Errorf("wait: %v, want nil or the context's error", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("wait did not return after the broker answered")
	}
	if got := p.acks.n.Load(); got != n {
		t.Errorf("wait returned after %d callbacks, want %d", got, n)
	}
	ends, err := kadm.NewClient(cl).ListEndOffsets(context.Background(), "out")
	if err != nil {
		t.Fatal(err)
	}
	if end, _ := ends.Lookup("out", 0); end.Offset < 1 || end.Offset > n {
		t.Errorf("topic holds %d messages, want the held request's (1 to %d)", end.Offset, n)
	}
}
