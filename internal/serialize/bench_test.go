package serialize_test

import (
	"context"
	"testing"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/plugins/text"
	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/serialize"
	"github.com/weir-streams/weir/internal/streamtest"
)

// parsedLog returns the real access log parsed into apache_log records.
func parsedLog(b *testing.B) []*record.Record {
	lines := streamtest.AccessLogLines(b)
	spec := text.SplitTextSpec()
	conf, _ := component.NewConfig(&spec, map[string]string{"record.type": "apache_log",
		"value.regex": streamtest.ApacheEnrichRegex, "value.fields": streamtest.ApacheEnrichFields})
	p, err := spec.NewProcessor(conf, component.Env{Name: "parser"})
	if err != nil {
		b.Fatal(err)
	}
	batch := component.Batch{}
	for i, l := range lines {
		r := record.New(record.DeriveID("pipeline_raw", 0, int64(i), 0), "", 1432000000000)
		r.SetString(record.FieldValue, l)
		batch.Records = append(batch.Records, r)
	}
	if err := p.Process(context.Background(), &batch); err != nil {
		b.Fatal(err)
	}
	return batch.Records
}

func BenchmarkJSONSerialize(b *testing.B) {
	recs := parsedLog(b)
	var buf []byte
	bytes := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		buf, _ = serialize.JSON{}.Serialize(buf[:0], recs[i%len(recs)])
		bytes += len(buf)
	}
	b.SetBytes(int64(bytes / max(b.N, 1)))
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "records/s")
}

func BenchmarkJSONDeserialize(b *testing.B) {
	recs := parsedLog(b)
	msgs := make([][]byte, len(recs))
	for i, r := range recs {
		msgs[i], _ = serialize.JSON{}.Serialize(nil, r)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r := record.New("", "", 0)
		if err := (serialize.JSON{}).Deserialize(r, nil, msgs[i%len(msgs)]); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "records/s")
}

func BenchmarkDeriveID(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		_ = record.DeriveID("pipeline_raw", 3, int64(i), 0)
	}
}
