package text

import (
	"fmt"
	"testing"
	"time"
)

// TestParseApacheTimeMatchesTimeParse checks the arithmetic of
// parseApacheTime (month switch, days in month, days from the civil date)
// against time.Parse for every day of several whole years, leap years and
// century years included, and dates that do not exist.
func TestParseApacheTimeMatchesTimeParse(t *testing.T) {
	const layout = "02/Jan/2006:15:04:05 -0700"
	months := []string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}
	checked := 0
	for _, year := range []int{0, 1, 4, 99, 100, 400, 1600, 1899, 1900, 1969, 1970, 1999, 2000, 2015, 2024, 2100, 2400, 9999} {
		for m, mon := range months {
			for day := 1; day <= 31; day++ {
				for _, hms := range []string{"00:00:00", "10:05:03", "23:59:59", "23:59:60"} {
					for _, zone := range []string{"+0000", "-0700", "+0530", "+2359", "-2359"} {
						s := fmt.Sprintf("%02d/%s/%04d:%s %s", day, mon, year, hms, zone)
						got, ok := parseApacheTime(s)
						valid := day <= time.Date(year, time.Month(m+2), 0, 0, 0, 0, 0, time.UTC).Day()
						if ok != valid {
							t.Fatalf("parseApacheTime(%q) ok = %v, want %v", s, ok, valid)
						}
						if !ok {
							continue
						}
						checked++
						want, err := time.Parse(layout, s)
						if err != nil {
							// time.Parse refuses second 60; time.Date carries it into
							// the next minute, as the old code and this one do.
							s59 := fmt.Sprintf("%02d/%s/%04d:%s %s", day, mon, year, hms[:6]+"59", zone)
							want, err = time.Parse(layout, s59)
							if err != nil {
								t.Fatalf("time.Parse(%q): %v", s59, err)
							}
							want = want.Add(time.Second)
						}
						if got != want.UnixMilli() {
							t.Fatalf("parseApacheTime(%q) = %d, want %d", s, got, want.UnixMilli())
						}
					}
				}
			}
		}
	}
	if checked < 17*365*20 {
		t.Fatalf("only %d dates checked", checked)
	}
	for _, bad := range []string{"17/Mai/2015:10:05:03 +0000", "17/may/2015:10:05:03 +0000", "00/May/2015:10:05:03 +0000", "17/May/2015:24:05:03 +0000", "17/May/2015:10:05:03 *0000"} {
		if _, ok := parseApacheTime(bad); ok {
			t.Errorf("parseApacheTime(%q) accepted", bad)
		}
	}
}
