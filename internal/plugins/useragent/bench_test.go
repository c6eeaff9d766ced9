package useragent_test

import (
	"context"
	"regexp"
	"strconv"
	"testing"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/plugins/useragent"
	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/streamtest"
)

// benchFields is the attribute list of the sample enrichment job.
var benchFields = []string{
	"DeviceClass", "DeviceName", "DeviceBrand", "OperatingSystemClass", "OperatingSystemName",
	"OperatingSystemNameVersion", "LayoutEngineName", "LayoutEngineNameVersionMajor", "AgentClass",
	"AgentName", "AgentNameVersion", "AgentNameVersionMajor", "HackerAttackVector",
}

// accessLogRecords returns one record per line of the real access log with
// its user agent in http_user_agent, as SplitText leaves them.
func accessLogRecords(b *testing.B) []*record.Record {
	b.Helper()
	re := regexp.MustCompile(`^(?:` + streamtest.ApacheEnrichRegex + `)`)
	lines := streamtest.AccessLogLines(b)
	recs := make([]*record.Record, 0, len(lines))
	for i, l := range lines {
		m := re.FindStringSubmatch(l)
		if m == nil {
			b.Fatalf("line %d does not match the enrichment regex", i+1)
		}
		r := record.New(strconv.Itoa(i), "apache_log", 0)
		r.SetString("http_user_agent", m[11])
		recs = append(recs, r)
	}
	return recs
}

// benchmarkProcess runs ParseUserAgent over the log's records in batches of
// 500, as a stream would, and reports records per second. Attributes set in
// one round are replaced in place in the next, so records do not grow.
func benchmarkProcess(b *testing.B, cacheSize int) {
	recs := accessLogRecords(b)
	p, err := useragent.New(useragent.Options{Field: "http_user_agent", Fields: benchFields, Keep: true, CacheSize: cacheSize}, component.Env{})
	if err != nil {
		b.Fatal(err)
	}
	const batch = 500
	ctx := context.Background()
	// One warm-up round fills the cache and the records' field slices.
	for i := 0; i < len(recs); i += batch {
		if err := p.Process(ctx, &component.Batch{Records: recs[i:min(i+batch, len(recs))]}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	done := 0
	for done < b.N {
		start := done % len(recs)
		n := min(batch, len(recs)-start, b.N-done)
		if err := p.Process(ctx, &component.Batch{Records: recs[start : start+n]}); err != nil {
			b.Fatal(err)
		}
		done += n
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "records/s")
}

// BenchmarkParseUserAgentUncached analyses every record's user agent (the
// 10,000 lines of the real log, 559 distinct user agents).
func BenchmarkParseUserAgentUncached(b *testing.B) { benchmarkProcess(b, 0) }

// BenchmarkParseUserAgentCached uses the default cache, which holds every
// distinct user agent of the log after the warm-up round.
func BenchmarkParseUserAgentCached(b *testing.B) { benchmarkProcess(b, useragent.DefaultCacheSize) }
