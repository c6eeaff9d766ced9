package civil

import (
	"testing"
	"time"
)

// TestAgainstTimeDate: every day of years 0 to 2400 and 9990 to 9999, and
// every month's length, as time.Date counts them.
func TestAgainstTimeDate(t *testing.T) {
	check := func(y int) {
		for m := 1; m <= 12; m++ {
			want := time.Date(y, time.Month(m)+1, 0, 0, 0, 0, 0, time.UTC).Day()
			if got := DaysIn(y, m); got != want {
				t.Fatalf("DaysIn(%d, %d) = %d, want %d", y, m, got, want)
			}
			for d := 1; d <= want; d++ {
				// Midnight UTC is a whole number of days from the epoch.
				want := time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC).Unix() / 86400
				if got := DaysFromEpoch(y, m, d); got != want {
					t.Fatalf("DaysFromEpoch(%d, %d, %d) = %d, want %d", y, m, d, got, want)
				}
			}
		}
	}
	for y := 0; y <= 2400; y++ {
		check(y)
	}
	for y := 9990; y <= 9999; y++ {
		check(y)
	}
}
