package delivery

import (
	"context"
	"math/rand/v2"
	"time"
)

// Backoff policies.
const (
	BackoffExponential = "exponential"
	BackoffConstant    = "constant"
	BackoffNone        = "none"
)

// Backoff computes the delay before a retry of a bulk.
type Backoff struct {
	Policy       string // BackoffExponential if empty
	Initial, Max time.Duration
}

// Delay returns the delay before retry n (0 for the first retry):
// exponential doubles Initial each retry up to Max and adds up to half of
// it again as jitter, so writers that failed together do not retry
// together; constant is Initial; none is zero.
func (b Backoff) Delay(n int) time.Duration {
	switch b.Policy {
	case BackoffNone:
		return 0
	case BackoffConstant:
		return b.Initial
	}
	d := b.Initial
	for i := 0; i < n && d < b.Max; i++ {
		d *= 2
	}
	d = min(d, b.Max)
	return d + rand.N(d/2+1)
}

// Attempt writes a bulk once and settles every item it can. It returns the
// items to retry, how long the sink asked to wait before the next attempt
// (0 if it did not say), and why they are retried.
type Attempt[T any] func(bulk []T) (pending []T, wait time.Duration, cause error)

// Retrying is told of each retry before its delay, for logs and metrics.
type Retrying[T any] func(pending []T, retry int, delay time.Duration, cause error)

// Retry calls attempt until it leaves nothing pending. Before retry n
// (from 0) it waits the longer of b.Delay(n) and what the sink asked for.
// It gives up after maxRetries retries (never if maxRetries < 0), or when
// abort ends, and returns what is still pending, the last cause, and
// whether abort ended it; the caller settles those items. It returns no
// items when every item was settled.
func Retry[T any](abort context.Context, bulk []T, attempt Attempt[T], b Backoff, maxRetries int, retrying Retrying[T]) (pending []T, cause error, aborted bool) {
	pending = bulk
	for retry := 0; ; retry++ {
		if abort.Err() != nil {
			return pending, cause, true
		}
		var wait time.Duration
		pending, wait, cause = attempt(pending)
		if len(pending) == 0 {
			return nil, nil, false
		}
		if maxRetries >= 0 && retry >= maxRetries {
			return pending, cause, false
		}
		delay := max(b.Delay(retry), wait)
		if retrying != nil {
			retrying(pending, retry, delay, cause)
		}
		t := time.NewTimer(delay)
		select {
		case <-t.C:
		case <-abort.Done():
			t.Stop()
			return pending, cause, true
		}
	}
}

// Split attempts the two halves of a bulk on their own and merges what is
// left to retry. Sinks use it when the server refused a whole bulk for its
// content without saying which item: halving until the culprit stands
// alone refuses only it. A bulk of one item must be settled by the caller
// instead.
func Split[T any](bulk []T, attempt Attempt[T]) (pending []T, wait time.Duration, cause error) {
	half := len(bulk) / 2
	for _, part := range [][]T{bulk[:half], bulk[half:]} {
		p, d, c := attempt(part)
		pending = append(pending, p...)
		if c != nil {
			cause = c
		}
		wait = max(wait, d)
	}
	return pending, wait, cause
}
