package streamtest

import (
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/plugins/text"
	"github.com/weir-streams/weir/internal/record"
)

// AccessLogRecords returns one record per line of the bundled real access
// log, as SplitText with ApacheEnrichRegex leaves them: every field a
// string except record_time (epoch milliseconds). Lines the regex does not
// match are skipped. Table tests and benchmarks of processors that run after
// the parser start from these.
func AccessLogRecords(t testing.TB) []*record.Record {
	t.Helper()
	re := regexp.MustCompile(`^(?:` + ApacheEnrichRegex + `)`)
	names := []string{"src_ip", "identd", "user", "record_time", "http_method", "http_query", "http_version",
		"http_status", "bytes_out", "http_referer", "http_user_agent"}
	lines := AccessLogLines(t)
	recs := make([]*record.Record, 0, len(lines))
	for i, l := range lines {
		m := re.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		r := record.New(strconv.Itoa(i), "apache_log", 0)
		r.SetString(record.FieldValue, l)
		for j, n := range names {
			if n == record.FieldTime {
				ms, err := text.ParseTime(m[j+1], time.UTC)
				if err != nil {
					t.Fatalf("line %d: %v", i+1, err)
				}
				r.Set(n, record.IntValue(ms))
				continue
			}
			r.SetString(n, m[j+1])
		}
		recs = append(recs, r)
	}
	return recs
}
