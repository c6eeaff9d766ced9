package fields_test

import (
	"context"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/plugins/fields"
	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/streamtest"
)

// BenchmarkMaskFieldsFirstPass measures MaskFields' HMAC with its token
// cache as a stream would see the real access log: the 10,000 records in
// their order, in batches of 500, with a new processor (an empty cache) at
// the start of every pass, so that a value is found in the cache only if it
// came earlier in the same pass. The field is set back before each batch,
// timed, as in BenchmarkProcessors: Restore is that alone. It reports the
// share of lookups the cache answered (hit-%).
func BenchmarkMaskFieldsFirstPass(b *testing.B) {
	recs := streamtest.AccessLogRecords(b)
	const hashKey = "0123456789abcdef-bench"
	for _, f := range []string{"src_ip", "http_query"} {
		saved := make([]record.Value, len(recs))
		for i, r := range recs {
			saved[i], _ = r.Get(f)
		}
		for _, size := range []string{"restore", "0", "4096"} {
			b.Run(f+"/cache="+size, func(b *testing.B) {
				props := map[string]string{"hash.fields": f, "hash.key": hashKey, "hash.cache.size": size}
				var p component.Processor
				var reg *prometheus.Registry
				var hits, lookups float64
				count := func() {
					if reg != nil {
						h, m := metric(b, reg, "mask_fields_cache_total", "hit"), metric(b, reg, "mask_fields_cache_total", "miss")
						hits, lookups = hits+h, lookups+h+m
					}
				}
				ctx := context.Background()
				buf := make([]*record.Record, 500)
				streamtest.BenchBatches(b, len(recs), len(buf), func(start, n int) {
					if size != "restore" && start == 0 {
						count()
						p, reg = build(b, fields.MaskFieldsSpec(), props)
					}
					copy(buf, recs[start:start+n])
					for i := 0; i < n; i++ {
						buf[i].Set(f, saved[start+i])
					}
					if p == nil {
						return
					}
					if err := p.Process(ctx, &component.Batch{Records: buf[:n]}); err != nil {
						b.Fatal(err)
					}
				})
				count()
				if lookups > 0 {
					b.ReportMetric(100*hits/lookups, "hit-%")
				}
			})
		}
	}
}
