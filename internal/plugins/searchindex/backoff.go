package searchindex

import (
	"math/rand/v2"
	"time"
)

// backoff computes the delay before a retry. It is small and local; docdb
// has its own fixed schedule, and a shared one would belong in a delivery
// package with the completion.
type backoff struct {
	policy       string
	initial, max time.Duration
}

// delay returns the delay before retry n (0 for the first retry):
// exponential doubles initial each retry up to max and adds up to half of
// it again as jitter, so writers that failed together do not retry
// together; constant is initial; none is zero.
func (b backoff) delay(n int) time.Duration {
	switch b.policy {
	case BackoffNone:
		return 0
	case BackoffConstant:
		return b.initial
	}
	d := b.initial
	for i := 0; i < n && d < b.max; i++ {
		d *= 2
	}
	d = min(d, b.max)
	return d + rand.N(d/2+1)
}
