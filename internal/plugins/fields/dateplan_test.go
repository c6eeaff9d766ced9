package fields

import (
	"math/rand"
	"strings"
	"testing"
	"time"
)

// planPatterns are patterns a datePlan must take.
var planPatterns = []string{"dd/MMM/yyyy:HH:mm:ss Z", "[dd/MMM/yyyy:HH:mm:ss Z]", "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd'T'HH:mm:ss.SSSXXX",
	"yyyyMMddHHmmss", "yyyy-MM-dd", "yyyy-MM-dd HH:mm:ss.SSS", "yyyy-MM-dd  HH:mm", "dd.MM.yyyy", "yyyy-MM-dd'T'HH:mm:ssXXX",
	"yyyy-MM-dd HH:mm:ss.S Z", "yyyy/MM/dd kk:mm"}

// oddPatterns have plans, but dates that a plan must leave to time.Parse
// (a '.' after the seconds that time.Parse reads as a fraction although
// the layout has none).
var oddPatterns = []string{"HH:mm:ss.yyyy-MM-dd", "MM/dd HH:mm:ss.yyyy"}

// planZones are time zones of the processor: with summer time on both
// sides of the equator's north, and none.
var planZones = []string{"CET", "America/New_York", "UTC", "Australia/Sydney"}

// TestDatePlanIsTimeParse: whenever a plan takes a date, it gives the
// epoch milliseconds time.ParseInLocation gives with the pattern's Go
// layout, on dates formatted from random instants (summer time changes
// included), on those dates with bytes changed, inserted or removed, and
// on the 10,000 dates of the real access log; and it takes the
// well-formed ones.
func TestDatePlanIsTimeParse(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	noise := []string{"0", "1", "9", " ", "-", ":", "/", ".", ",", "+", "Z", "T", "May", "may", "Jan", "3", "24", "60", "\xff"}
	for pi, pattern := range append(planPatterns, oddPatterns...) {
		odd := pi >= len(planPatterns)
		layout, err := JavaDateLayout(pattern)
		if err != nil {
			t.Fatal(err)
		}
		plan := newDatePlan(pattern)
		if plan == nil {
			t.Errorf("%q: no plan", pattern)
			continue
		}
		for _, zone := range planZones {
			loc, err := loadZone(zone)
			if err != nil {
				t.Fatal(err)
			}
			took, formatted := 0, 0
			for i := 0; i < 3000; i++ {
				// Instants from 1990 to 2040, a third of them within a
				// day of a summer-time change of 2015.
				sec := rng.Int63n(50*365*86400) + 631152000
				if i%3 == 0 {
					sec = []int64{1427590800, 1445734800, 1425798000, 1446357600}[i%4] + rng.Int63n(2*86400) - 86400
				}
				at := time.Unix(sec, rng.Int63n(1e9)).In(loc)
				if i%5 == 0 {
					at = at.In(time.FixedZone("", (rng.Intn(49)-24)*1800))
				}
				s := at.Format(layout)
				formatted++
				if comparePlan(t, plan, layout, loc, s) {
					took++
				}
				for m := 0; m < 3; m++ {
					comparePlan(t, plan, layout, loc, mutate(rng, s, noise))
				}
			}
			if !odd && took < formatted*9/10 {
				t.Errorf("%q in %s: the plan took %d of %d well-formed dates", pattern, zone, took, formatted)
			}
		}
	}
	utc, _ := loadZone("UTC")
	for _, s := range []string{"1900-02-29", "2000-02-29", "2100-02-29", "2016-02-29", "2015-02-29", "2015-04-31", "2015-00-10", "2015-13-10", "2015-01-00"} {
		comparePlan(t, newDatePlan("yyyy-MM-dd"), "2006-01-02", utc, s)
	}
	plan, layout := newDatePlan("dd/MMM/yyyy:HH:mm:ss Z"), "02/Jan/2006:15:04:05 -0700"
	cet, _ := loadZone("CET")
	for _, line := range accessLogLines(t) {
		l, r := strings.IndexByte(line, '['), strings.IndexByte(line, ']')
		if !comparePlan(t, plan, layout, cet, line[l+1:r]) {
			t.Errorf("the plan did not take the log's date %q", line[l+1:r])
		}
	}
	for _, pattern := range []string{"dd.MM.yy", "EEE, d MMM yyyy hh:mm:ss a", "MM-dd HH:mm:ss.SSSyyyy", "yyyy-MM-dd HH:mm:ss,SSS", "d/M/yyyy",
		"yyyy-MM-dd'at'HH", "HH:mm:ss", "yyyy-MM-dd HH:mm:ss z", "yyyy-MM-dd HH:mm:ss X", "yyyy-MM-dd HH:mm:ss Z Z", "yyyy-MMMM-dd"} {
		if newDatePlan(pattern) != nil {
			t.Errorf("%q has a plan: it holds what a plan must leave to time.Parse", pattern)
		}
	}
}

// FuzzDatePlanIsTimeParse fuzzes the date text for each pattern.
func FuzzDatePlanIsTimeParse(f *testing.F) {
	f.Add(0, "17/May/2015:10:05:03 +0000")
	f.Add(3, "2015-05-17T10:05:03.250+02:00")
	f.Add(2, "2015-03-29 02:30:00")
	f.Fuzz(func(t *testing.T, which int, s string) {
		pattern := planPatterns[uint(which)%uint(len(planPatterns))]
		layout, _ := JavaDateLayout(pattern)
		for _, zone := range planZones {
			loc, _ := loadZone(zone)
			comparePlan(t, newDatePlan(pattern), layout, loc, s)
		}
	})
}

// comparePlan fails t if plan takes s and gives another instant than
// time.ParseInLocation; it reports whether plan took s.
func comparePlan(t *testing.T, plan *datePlan, layout string, loc *time.Location, s string) bool {
	t.Helper()
	got, ok := plan.parse(s, loc)
	if !ok {
		return false
	}
	want, err := time.ParseInLocation(layout, s, loc)
	if err != nil {
		t.Errorf("layout %q in %s: the plan took %q, which time.Parse refuses: %v", layout, loc, s, err)
	} else if got != want.UnixMilli() {
		t.Errorf("layout %q in %s: %q is %d to the plan, %d to time.Parse", layout, loc, s, got, want.UnixMilli())
	}
	return true
}

// mutate changes, inserts or removes one piece of s.
func mutate(rng *rand.Rand, s string, noise []string) string {
	i := rng.Intn(len(s) + 1)
	n := noise[rng.Intn(len(noise))]
	switch rng.Intn(3) {
	case 0:
		if i < len(s) {
			return s[:i] + n + s[i+1:]
		}
	case 1:
		if i < len(s) {
			return s[:i] + s[i+1:]
		}
	}
	return s[:i] + n + s[i:]
}
