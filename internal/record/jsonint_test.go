package record_test

import (
	"math"
	"math/rand"
	"strconv"
	"testing"

	"github.com/weir-streams/weir/internal/record"
)

func checkAppendInt(t *testing.T, n int64) {
	t.Helper()
	if got, want := string(record.AppendInt([]byte("x"), n)), "x"+strconv.FormatInt(n, 10); got != want {
		t.Fatalf("AppendInt(%d) = %s, want %s", n, got, want)
	}
}

// TestAppendInt checks AppendInt against strconv: every power of ten and
// its neighbours, both signs, the extremes, and random numbers of every
// length.
func TestAppendInt(t *testing.T) {
	for _, n := range []int64{0, 1, 9, 10, 99, 100, math.MaxInt64, math.MinInt64, 1432000000000, 1431857112000} {
		checkAppendInt(t, n)
		checkAppendInt(t, -n)
	}
	p := int64(1)
	for i := 0; i <= 18; i++ {
		for d := int64(-2); d <= 2; d++ {
			checkAppendInt(t, p+d)
			checkAppendInt(t, -(p + d))
		}
		p *= 10
	}
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 200000; i++ {
		n := rng.Int63() >> uint(rng.Intn(63))
		checkAppendInt(t, n)
		checkAppendInt(t, -n)
	}
}

func FuzzAppendInt(f *testing.F) {
	f.Add(int64(1432000000000))
	f.Add(int64(99999999))
	f.Fuzz(func(t *testing.T, n int64) { checkAppendInt(t, n) })
}
