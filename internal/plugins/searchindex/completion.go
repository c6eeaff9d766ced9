package searchindex

import (
	"context"
	"fmt"
	"sync"

	"github.com/weir-streams/weir/internal/record"
)

// completion is the Completion of one put: done when every document has an
// outcome. It follows docdb's completion; the two could share one type in
// a delivery package once a third writer needs it.
type completion struct {
	recs []*record.Record

	mu        sync.Mutex
	remaining int
	reasons   map[int]string // index of a refused record -> reason
	err       error
	done      chan struct{}
}

func newCompletion(recs []*record.Record) *completion {
	c := &completion{recs: recs, remaining: len(recs), done: make(chan struct{})}
	if c.remaining == 0 {
		close(c.done)
	}
	return c
}

// finish settles record idx: indexed if reason is empty, refused for good
// otherwise.
func (c *completion) finish(idx int, reason string) {
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

// fail settles a record whose indexing could not be confirmed: the whole
// completion then reports err.
func (c *completion) fail(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err == nil {
		c.err = err
	}
	c.settleLocked()
}

func (c *completion) settleLocked() {
	c.remaining--
	if c.remaining == 0 {
		close(c.done)
	}
}

// Wait implements component.Completion. It copies the refused records and
// adds the index's reason to each; it reads the records given to put,
// which the stream allows once the chain is done with the batch.
func (c *completion) Wait(ctx context.Context) ([]*record.Record, error) {
	select {
	case <-c.done:
	case <-ctx.Done():
		return nil, fmt.Errorf("wait for the search index to accept %d documents: %w", len(c.recs), ctx.Err())
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
