package stream

import (
	"context"
	"sync"
	"time"
)

// tp names a topic partition.
type tp struct {
	topic     string
	partition int32
}

// limiter enforces maxRatePerPartition: each partition may take n records
// only once the records before them have used up their share of time.
//
// Each partition keeps its own schedule (the time its next records may
// start), so a worker that holds several partitions and serves them in turn
// does not divide the rate between them: while it waits for one partition's
// time, the others' times pass too, and it finds them due when it reaches
// them. TestLimiterWorkerServingManyPartitions shows this on a virtual clock.
// Time not used (a partition with nothing to read) is not saved up: the rate
// is a ceiling, not a quota.
type limiter struct {
	mu   sync.Mutex
	next map[tp]time.Time
	// now and sleep are time.Now and a context-aware sleep; tests replace
	// them with a virtual clock, because real waits on a shared machine
	// cannot be asserted.
	now   func() time.Time
	sleep func(ctx context.Context, d time.Duration) error
}

func (l *limiter) wait(ctx context.Context, key tp, n int, rate int64) error {
	clock, sleep := l.now, l.sleep
	if clock == nil {
		clock = time.Now
	}
	if sleep == nil {
		sleep = sleepContext
	}
	l.mu.Lock()
	now := clock()
	at := l.next[key]
	if at.Before(now) {
		at = now
	}
	l.next[key] = at.Add(time.Duration(float64(n) / float64(rate) * float64(time.Second)))
	l.mu.Unlock()
	if d := at.Sub(now); d > 0 {
		return sleep(ctx, d)
	}
	return nil
}

// sleepContext waits for d or until ctx ends, whichever comes first.
func sleepContext(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
