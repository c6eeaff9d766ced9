package fields_test

import (
	"context"
	"testing"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/plugins/fields"
	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/streamtest"
)

// kitBenchRecords returns the real log's records as BenchmarkProcessors
// takes them (parsed, without record_value) and the Restore step that sets
// back, in record i, the five fields a kit processor may change
// (http_status, bytes_out, src_ip, user, http_query).
func kitBenchRecords(b *testing.B) ([]*record.Record, func(i int, r *record.Record)) {
	recs := streamtest.AccessLogRecords(b)
	for _, r := range recs {
		r.Remove(record.FieldValue)
	}
	inputs := []string{"http_status", "bytes_out", "src_ip", "user", "http_query"}
	saved := make([][]record.Value, len(recs))
	for i, r := range recs {
		for _, f := range inputs {
			v, _ := r.Get(f)
			saved[i] = append(saved[i], v)
		}
	}
	restore := func(i int, r *record.Record) {
		for j, f := range inputs {
			r.Set(f, saved[i][j])
		}
	}
	return recs, restore
}

// nothing is a processor that does nothing: the Restore line of
// BenchmarkProcessors times the benchmark's own work.
type nothing struct{}

func (nothing) Process(context.Context, *component.Batch) error { return nil }

// BenchmarkProcessors runs each processor of the kit over the records of
// the real access log, in batches of 500 as a stream would, and reports
// the time and allocations per record, in two settings:
//
//   - Cold: the 10,000 records, separate heap objects as in a stream's
//     batches, cycled through. A processor finds them out of the CPU
//     caches, so every figure holds the memory traffic of reaching the
//     record's fields and text.
//   - Hot: the first 500 records, one batch, again and again: the records
//     are in the CPU caches, as a batch is in a chain when the parser has
//     just filled it. This is the processor's own work.
//
// Some processors change what they read (ConvertFieldsType turns strings
// into integers, MaskFields replaces values), so before each batch every
// case, and the Restore line alone, sets back the five fields any case
// changes (timed): a processor's own cost is its line minus Restore's.
func BenchmarkProcessors(b *testing.B) {
	recs, restore := kitBenchRecords(b)
	const hashKey = "0123456789abcdef-bench"
	for _, bc := range []struct {
		name  string
		spec  component.Spec
		props map[string]string
	}{
		{"Restore", component.Spec{}, nil},
		{"ConvertFieldsType", fields.ConvertFieldsTypeSpec(), map[string]string{"http_status": "int", "bytes_out": "long"}},
		{"FilterRecords", fields.FilterRecordsSpec(), map[string]string{"not_health": `http_query != "/health" && http_method in ["GET", "HEAD", "POST"]`}},
		{"AddFields", fields.AddFieldsSpec(), map[string]string{"site": "www", "conflict.resolution.policy": "overwrite_existing"}},
		{"AddFieldsExpression", fields.AddFieldsSpec(), map[string]string{"is_asset": `${http_query endsWith ".png" || http_query endsWith ".css"}`, "conflict.resolution.policy": "overwrite_existing"}},
		{"NormalizeFields", fields.NormalizeFieldsSpec(), map[string]string{"client_ip": "ip_address"}},
		{"RemoveFields", fields.RemoveFieldsSpec(), map[string]string{"fields.to.remove": "identd,not_there"}},
		{"MaskFieldsTruncate", fields.MaskFieldsSpec(), map[string]string{"truncate.ip.fields": "src_ip"}},
		// MaskFields reuses the previous record's mask of the same value:
		// user is "-" on every line of the log, src_ip repeats the previous
		// record's on 57 % of them, http_query on 2 % (nearly every value
		// is hashed).
		{"MaskFieldsHash", fields.MaskFieldsSpec(), map[string]string{"hash.fields": "user", "hash.key": hashKey}},
		{"MaskFieldsHashAddress", fields.MaskFieldsSpec(), map[string]string{"hash.fields": "src_ip", "hash.key": hashKey}},
		{"MaskFieldsHashQuery", fields.MaskFieldsSpec(), map[string]string{"hash.fields": "http_query", "hash.key": hashKey}},
		// The same without the token cache (hash.cache.size 0): every value
		// not equal to the previous record's is hashed. With the cache, the
		// lines above find nearly every value in it once the benchmark has
		// gone through the set once (1,753 addresses, 1,498 paths);
		// BenchmarkMaskFieldsFirstPass measures it on one pass of the log.
		{"MaskFieldsHashAddressNoCache", fields.MaskFieldsSpec(), map[string]string{"hash.fields": "src_ip", "hash.key": hashKey, "hash.cache.size": "0"}},
		{"MaskFieldsHashQueryNoCache", fields.MaskFieldsSpec(), map[string]string{"hash.fields": "http_query", "hash.key": hashKey, "hash.cache.size": "0"}},
		{"SplitField", fields.SplitFieldSpec(), map[string]string{"http_query": "query_parts:/", "conflict.resolution.policy": "overwrite_existing"}},
		{"SplitFieldRegexp", fields.SplitFieldSpec(), map[string]string{"http_query": `query_parts:[/?]`, "conflict.resolution.policy": "overwrite_existing"}},
		// Named when fastre found it; since the byte tables take the shape
		// A*B C* (splitclass.go) this is a byte scan too. Kept so the
		// figures of earlier rounds stay comparable.
		{"SplitFieldRegexpFastre", fields.SplitFieldSpec(), map[string]string{"http_query": `query_parts:\s*[/?]\s*`, "conflict.resolution.policy": "overwrite_existing"}},
		// Not made of ASCII classes (a slash, plain or percent-encoded):
		// found by fastre, one search per separator.
		{"SplitFieldFastrePath", fields.SplitFieldSpec(), map[string]string{"http_query": `query_parts:/|%2[Ff]`, "conflict.resolution.policy": "overwrite_existing"}},
		{"ModifyIdHash", fields.ModifyIdSpec(), map[string]string{"id.generation.strategy": "hashFields", "fields.to.hash": "src_ip,record_time,http_query"}},
		// ModifyId's default strategy, a random (version 4) UUID a record.
		{"ModifyIdRandomUuid", fields.ModifyIdSpec(), map[string]string{}},
	} {
		benchColdHot(b, bc.name, recs, restore, func(b *testing.B) component.Processor {
			if bc.props == nil {
				return nothing{}
			}
			p, _ := build(b, bc.spec, bc.props)
			return p
		}, nil)
	}
}

// benchColdHot runs a processor made by newP over recs in batches of 500,
// setting each record's inputs back first (restore), in the two settings
// the file comment describes: Cold, all of recs cycled through, and Hot,
// their first 500 again and again. check, if not nil, looks at recs after
// each setting's run.
func benchColdHot(b *testing.B, name string, recs []*record.Record, restore func(i int, r *record.Record),
	newP func(*testing.B) component.Processor, check func(*testing.B, []*record.Record)) {
	for _, set := range []struct {
		name string
		recs []*record.Record
	}{{"Cold", recs}, {"Hot", recs[:500]}} {
		b.Run(name+"/"+set.name, func(b *testing.B) {
			p := newP(b)
			ctx := context.Background()
			buf := make([]*record.Record, 500)
			streamtest.BenchBatches(b, len(set.recs), len(buf), func(start, n int) {
				copy(buf, set.recs[start:start+n])
				for i := 0; i < n; i++ {
					restore(start+i, buf[i])
				}
				if err := p.Process(ctx, &component.Batch{Records: buf[:n]}); err != nil {
					b.Fatal(err)
				}
			})
			if check != nil {
				check(b, set.recs)
			}
		})
	}
}
