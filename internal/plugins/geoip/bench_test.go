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
	buf := make([]*record.Record, 500)
	// Cold: the 10,000 records cycled, out of the CPU caches; Hot: one
	// batch of 500 again and again, in cache, as a batch is in a chain
	// (BenchmarkProcessors in internal/plugins/fields says more).
	for _, set := range []struct {
		name string
		recs []*record.Record
	}{{"Cold", recs}, {"Hot", recs[:500]}} {
		b.Run(set.name, func(b *testing.B) {
			streamtest.BenchBatches(b, len(set.recs), len(buf), func(start, n int) {
				copy(buf, set.recs[start:start+n])
				if err := p.Process(ctx, &component.Batch{Records: buf[:n]}); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}
