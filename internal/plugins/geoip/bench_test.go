package geoip_test

import (
	"context"
	"testing"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/streamtest"
)

// BenchmarkIpToGeoWarm runs IpToGeo over the real access log's addresses
// with a warm cache (the log has about 1,700 distinct addresses; the cache
// holds them all), in batches of 500, as the sample job does.
func BenchmarkIpToGeoWarm(b *testing.B) {
	recs := streamtest.AccessLogRecords(b)
	for _, r := range recs {
		r.Remove(record.FieldValue)
	}
	_, p, _, _ := setupB(b)
	ctx := context.Background()
	const batch = 500
	buf := make([]*record.Record, batch)
	run := func(start int) int {
		n := min(batch, len(recs)-start)
		copy(buf, recs[start:start+n])
		if err := p.Process(ctx, &component.Batch{Records: buf[:n]}); err != nil {
			b.Fatal(err)
		}
		return n
	}
	for i := 0; i < len(recs); i += batch {
		run(i)
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	done, start := 0, 0
	for done < b.N {
		done += run(start)
		if start += batch; start >= len(recs) {
			start = 0
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(done), "ns/record")
	b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(done), "cpu-ns/record")
}
