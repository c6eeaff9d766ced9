package text

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// TimeFormat is one form of record_time that ParseTime reads.
type TimeFormat struct {
	// Name says where the form is written (a log format or a standard).
	Name string
	// Example is a real timestamp of the form.
	Example string
	// layouts are the Go layouts of the form, tried in order; a layout
	// without a zone reads the time in the configured one.
	layouts []string
}

// TimeFormats are the forms of record_time ParseTime reads, in the order it
// tries them: the reference of SplitText and its parsing errors list them.
var TimeFormats = []TimeFormat{
	{Name: "Apache/nginx access log (%{HTTPDATE})", Example: "06/Dec/2026:08:14:02 +0100",
		layouts: []string{"02/Jan/2006:15:04:05 -0700", "02/Jan/2006:15:04:05"}},
	{Name: "ISO 8601 and RFC 3339 (syslog RFC 5424), T or space, fraction optional, zone Z, +01:00, +0100 or none", Example: "2026-12-06T08:14:02.123+01:00",
		layouts: []string{
			"2006-01-02T15:04:05.999999999Z07:00", "2006-01-02T15:04:05.999999999Z0700", "2006-01-02T15:04:05.999999999",
			"2006-01-02 15:04:05.999999999Z07:00", "2006-01-02 15:04:05.999999999Z0700", "2006-01-02 15:04:05.999999999 -0700",
			"2006-01-02 15:04:05.999999999",
		}},
	{Name: "nginx error log", Example: "2026/12/06 08:14:02", layouts: []string{"2006/01/02 15:04:05"}},
	{Name: "Apache error log (ctime, fraction optional)", Example: "Sun Dec 06 08:14:02.123456 2026", layouts: []string{time.ANSIC}},
	{Name: "syslog RFC 3164 (without a year: the latest that is not in the future)", Example: "Dec  6 08:14:02",
		layouts: []string{"Jan _2 15:04:05", "Jan _2 2006 15:04:05"}},
	{Name: "RFC 1123 (HTTP dates)", Example: "Sun, 06 Dec 2026 08:14:02 +0000", layouts: []string{time.RFC1123Z, time.RFC1123}},
	{Name: "epoch seconds (up to 11 digits, fraction optional) or milliseconds (12 digits or more)", Example: "1796544842, 1796544842123"},
}

// expectedTimes is what a parsing error says was expected.
var expectedTimes = func() string {
	var b strings.Builder
	for i, f := range TimeFormats {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%s, e.g. %s", f.Name, f.Example)
	}
	return b.String()
}()

// DescribeTimeFormats lists the forms of record_time, one sentence, for
// the reference.
func DescribeTimeFormats() string { return expectedTimes }

// epochSecondsBelow separates epoch seconds from epoch milliseconds: an
// integer below it, 11 digits at most, is seconds (up to the year 5138); a
// larger one is milliseconds (from March 1973).
const epochSecondsBelow = 100_000_000_000

// ParseTime converts a timestamp of one of TimeFormats to epoch
// milliseconds. Apache's access-log form, the one of the sample job, is
// read on a fast path without time.Parse. A timestamp without an offset is
// read in loc.
func ParseTime(s string, loc *time.Location) (int64, error) {
	if ms, ok := parseApacheTime(s); ok {
		return ms, nil
	}
	if ms, ok := parseEpoch(s); ok {
		return ms, nil
	}
	for _, f := range TimeFormats {
		for _, l := range f.layouts {
			t, err := time.ParseInLocation(l, s, loc)
			if err != nil {
				continue
			}
			if t.Year() == 0 { // syslog RFC 3164 carries no year
				t = withLatestYear(t, time.Now().In(loc))
			}
			return t.UnixMilli(), nil
		}
	}
	return 0, fmt.Errorf("cannot parse record_time %q: expected %s", s, expectedTimes)
}

// parseEpoch reads an integer or decimal number of epoch seconds or
// milliseconds (see epochSecondsBelow).
func parseEpoch(s string) (int64, bool) {
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		if n > -epochSecondsBelow && n < epochSecondsBelow {
			return n * 1000, true
		}
		return n, true
	}
	i := strings.IndexByte(s, '.')
	if i <= 0 || i == len(s)-1 {
		return 0, false
	}
	for j := 0; j < len(s); j++ {
		if c := s[j]; j != i && (c < '0' || c > '9') && !(j == 0 && c == '-') {
			return 0, false
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, false
	}
	if f > -epochSecondsBelow && f < epochSecondsBelow {
		f *= 1000
	}
	if f >= 0 {
		return int64(f + 0.5), true
	}
	return int64(f - 0.5), true
}

// withLatestYear gives t, a time without a year, the year that makes it the
// latest time not more than a day after now (the day absorbs clocks and
// zones that disagree a little): a December line read in January belongs
// to the year before, as rsyslog and Logstash read them.
func withLatestYear(t, now time.Time) time.Time {
	y := t.AddDate(now.Year(), 0, 0)
	if y.After(now.Add(24 * time.Hour)) {
		y = t.AddDate(now.Year()-1, 0, 0)
	}
	return y
}
