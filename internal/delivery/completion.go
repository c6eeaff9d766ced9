// Package delivery holds what sinks outside Kafka share to keep the
// stream's promise: a batch's offsets are committed only once every record
// written elsewhere has a definite outcome.
package delivery

import (
	"context"
	"fmt"
	"sync"

	"github.com/weir-streams/weir/internal/record"
)

// Completion is the component.Completion of one put of records to a sink
// (MongoDB, a search index): done when every record has an outcome. The
// sink settles each record once, with Finish or Fail.
type Completion struct {
	recs []*record.Record
	// waitingFor completes "wait for ... N documents" in the error of a
	// Wait that ctx ended, e.g. "MongoDB to acknowledge".
	waitingFor string

	mu        sync.Mutex
	remaining int
	reasons   map[int]string // index of a refused record -> reason
	err       error
	done      chan struct{}
}

// NewCompletion returns the completion of a put of recs.
func NewCompletion(recs []*record.Record, waitingFor string) *Completion {
	c := &Completion{recs: recs, waitingFor: waitingFor, remaining: len(recs), done: make(chan struct{})}
	if c.remaining == 0 {
		close(c.done)
	}
	return c
}

// Finish settles record idx: written (or skipped) if reason is empty,
// refused for good otherwise.
func (c *Completion) Finish(idx int, reason string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if reason != "" {
		if c.reasons == nil {
			c.reasons = map[int]string{}
		}
		c.reasons[idx] = reason
	}
	c.settleLocked()
}

// Fail settles a record whose write could not be confirmed: the whole
// completion then reports err, and the batch is not committed.
func (c *Completion) Fail(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err == nil {
		c.err = err
	}
	c.settleLocked()
}

func (c *Completion) settleLocked() {
	c.remaining--
	if c.remaining == 0 {
		close(c.done)
	}
}

// Wait implements component.Completion. It copies the refused records and
// adds the sink's reason to each; it reads the records given to the put,
// which the stream allows once the chain is done with the batch.
func (c *Completion) Wait(ctx context.Context) ([]*record.Record, error) {
	select {
	case <-c.done:
	case <-ctx.Done():
		return nil, fmt.Errorf("wait for %s %d documents: %w", c.waitingFor, len(c.recs), ctx.Err())
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return nil, c.err
	}
	if len(c.reasons) == 0 {
		return nil, nil
	}
	failed := make([]*record.Record, 0, len(c.reasons))
	for i, r := range c.recs {
		if reason, ok := c.reasons[i]; ok {
			fr := r.Clone()
			fr.AddError(record.ErrDatastoreWrite, reason)
			failed = append(failed, fr)
		}
	}
	return failed, nil
}
