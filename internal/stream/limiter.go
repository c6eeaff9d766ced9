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
type limiter struct {
	mu   sync.Mutex
	next map[tp]time.Time
}

func (l *limiter) wait(ctx context.Context, key tp, n int, rate int64) error {
	l.mu.Lock()
	now := time.Now()
	at := l.next[key]
	if at.Before(now) {
		at = now
	}
	l.next[key] = at.Add(time.Duration(float64(n) / float64(rate) * float64(time.Second)))
	l.mu.Unlock()
	if d := time.Until(at); d > 0 {
		select {
		case <-time.After(d):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}
