package fields_test

import (
	"context"
	"testing"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/plugins/fields"
	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/streamtest"
)

// BenchmarkProcessors runs each processor of the kit over the records of
// the real access log, in batches of 500 as a stream would, and reports
// the time and allocations per record. Processors that change what they
// read (ConvertFieldsType turns strings into integers, FilterRecords drops
// records) get their input restored before each batch; the restoring Set
// calls are timed with them and cost a few nanoseconds a record.
func BenchmarkProcessors(b *testing.B) {
	recs := streamtest.AccessLogRecords(b)
	for _, r := range recs {
		r.Remove(record.FieldValue)
	}
	status := make([]record.Value, len(recs))
	bytesOut := make([]record.Value, len(recs))
	for i, r := range recs {
		status[i], _ = r.Get("http_status")
		bytesOut[i], _ = r.Get("bytes_out")
	}
	restore := func(i int, r *record.Record) {
		r.Set("http_status", status[i])
		r.Set("bytes_out", bytesOut[i])
	}
	const hashKey = "0123456789abcdef-bench"
	for _, bc := range []struct {
		name    string
		spec    component.Spec
		props   map[string]string
		restore bool
	}{
		{"ConvertFieldsType", fields.ConvertFieldsTypeSpec(), map[string]string{"http_status": "int", "bytes_out": "long"}, true},
		{"FilterRecords", fields.FilterRecordsSpec(), map[string]string{"not_health": `http_query != "/health" && http_method in ["GET", "HEAD", "POST"]`}, false},
		{"AddFields", fields.AddFieldsSpec(), map[string]string{"site": "www", "conflict.resolution.policy": "overwrite_existing"}, false},
		{"AddFieldsExpression", fields.AddFieldsSpec(), map[string]string{"is_asset": `${http_query endsWith ".png" || http_query endsWith ".css"}`, "conflict.resolution.policy": "overwrite_existing"}, false},
		{"NormalizeFields", fields.NormalizeFieldsSpec(), map[string]string{"client_ip": "ip_address"}, false},
		{"RemoveFields", fields.RemoveFieldsSpec(), map[string]string{"fields.to.remove": "identd,not_there"}, false},
		{"MaskFieldsTruncate", fields.MaskFieldsSpec(), map[string]string{"truncate.ip.fields": "src_ip"}, false},
		{"MaskFieldsHash", fields.MaskFieldsSpec(), map[string]string{"hash.fields": "user", "hash.key": hashKey}, false},
		{"SplitField", fields.SplitFieldSpec(), map[string]string{"http_query": "query_parts:/", "conflict.resolution.policy": "overwrite_existing"}, false},
		{"ModifyIdHash", fields.ModifyIdSpec(), map[string]string{"id.generation.strategy": "hashFields", "fields.to.hash": "src_ip,record_time,http_query"}, false},
	} {
		b.Run(bc.name, func(b *testing.B) {
			p, _ := build(b, bc.spec, bc.props)
			ctx := context.Background()
			const batch = 500
			buf := make([]*record.Record, batch)
			run := func(start int) int {
				n := min(batch, len(recs)-start)
				copy(buf, recs[start:start+n])
				if bc.restore {
					for i := 0; i < n; i++ {
						restore(start+i, buf[i])
					}
				}
				bt := &component.Batch{Records: buf[:n]}
				if err := p.Process(ctx, bt); err != nil {
					b.Fatal(err)
				}
				return n
			}
			for i := 0; i < len(recs); i += batch { // warm up: fields settle
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
		})
	}
}
