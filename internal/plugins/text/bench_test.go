package text_test

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/plugins/text"
	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/serialize"
	"github.com/weir-streams/weir/internal/streamtest"
)

func newSplitText(tb testing.TB, regex, fields string, extra ...string) component.Processor {
	tb.Helper()
	spec := text.SplitTextSpec()
	values := map[string]string{"record.type": "apache_log", "value.regex": regex}
	if fields != "" {
		values["value.fields"] = fields
	}
	for i := 0; i+1 < len(extra); i += 2 {
		values[extra[i]] = extra[i+1]
	}
	conf, probs := component.NewConfig(&spec, values)
	if len(probs) > 0 {
		tb.Fatal(probs)
	}
	p, err := spec.NewProcessor(conf, component.Env{Name: "parser"})
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// benchLines runs SplitText (and optionally JSON serialization) over the
// real access log in batches of 1,000, as a stream would, and reports
// lines per second.
func benchLines(b *testing.B, regex, fields string, serializeToo bool, extra ...string) {
	lines := streamtest.AccessLogLines(b)
	p := newSplitText(b, regex, fields, extra...)
	ctx := context.Background()
	var buf []byte
	b.ReportAllocs()
	b.ResetTimer()
	n := 0
	for i := 0; i < b.N; {
		batch := component.Batch{Records: make([]*record.Record, 0, 1000)}
		for j := 0; j < 1000 && i < b.N; j, i = j+1, i+1 {
			r := record.New(record.DeriveID("pipeline_raw", 0, int64(i), 0), "", 0)
			r.SetString(record.FieldValue, lines[i%len(lines)])
			batch.Records = append(batch.Records, r)
		}
		if err := p.Process(ctx, &batch); err != nil {
			b.Fatal(err)
		}
		if serializeToo {
			for _, r := range batch.Records {
				buf, _ = serialize.JSON{}.Serialize(buf[:0], r)
			}
		}
		n += len(batch.Records)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "lines/s")
}

func BenchmarkSplitTextApache(b *testing.B) {
	benchLines(b, streamtest.ApacheRegex, streamtest.ApacheFields, false)
}

func BenchmarkSplitTextApacheEnrich(b *testing.B) {
	benchLines(b, streamtest.ApacheEnrichRegex, streamtest.ApacheEnrichFields, false)
}

func BenchmarkSplitTextAndJSON(b *testing.B) {
	benchLines(b, streamtest.ApacheRegex, streamtest.ApacheFields, true)
}

// BenchmarkSplitTextGrokCombined is BenchmarkSplitTextApacheEnrich written
// as a Logstash user writes it: the same eleven fields from
// %{COMBINEDAPACHELOG} of go-grok's library, renamed by the spec mapping.
func BenchmarkSplitTextGrokCombined(b *testing.B) {
	benchLines(b, "%{COMBINEDAPACHELOG}", "", false, "grok.field.mapping", "spec")
}

// grokMirror is the hand-written regex of BenchmarkSplitTextApacheEnrich
// written in grok: the same expression once expanded, so it measures what
// the grok syntax itself costs (nothing, at run time).
const grokMirror = `%{NOTSPACE:src_ip}\s+%{NOTSPACE:identd}\s+%{NOTSPACE:user}\s+\[(?<record_time>[\w:/]+\s[+\-]\d{4})\]\s+"%{NOTSPACE:http_method}\s+%{NOTSPACE:http_query}\s*(?<http_version>\S*)"\s+%{NOTSPACE:http_status}\s+%{NOTSPACE:bytes_out}\s+"(?<http_referer>[^"]*)"\s+"(?<http_user_agent>[^"]*)"?`

func BenchmarkSplitTextGrokMirror(b *testing.B) {
	benchLines(b, grokMirror, "", false)
}

// BenchmarkSplitTextAndJSONStream is SplitTextAndJSON with records made as
// the stream makes them: from a record.BatchPool batch reused from one
// batch to the next, the id derived from a topic id, the raw line copied
// into record_value. Besides lines per wall second it reports lines per
// CPU-second of the whole process (getrusage: garbage collection
// included), which a loaded machine disturbs less.
func BenchmarkSplitTextAndJSONStream(b *testing.B) {
	benchStream(b, streamtest.ApacheRegex, streamtest.ApacheFields)
}

// BenchmarkSplitTextEnrichAndJSONStream is SplitTextAndJSONStream with the
// 11-group regex of the side-by-side job (bench/peer/weir_apache_kafka.yml):
// the per-record work of Weir's own code on that job, without Kafka.
func BenchmarkSplitTextEnrichAndJSONStream(b *testing.B) {
	benchStream(b, streamtest.ApacheEnrichRegex, streamtest.ApacheEnrichFields)
}

func benchStream(b *testing.B, regex, fields string) {
	lines := streamtest.AccessLogLines(b)
	raw := make([][]byte, len(lines))
	for i, l := range lines {
		raw[i] = []byte(l)
	}
	p := newSplitText(b, regex, fields)
	ctx := context.Background()
	pool := record.BatchPool{MaxRecords: 1000}
	topicID := [16]byte{1, 2, 3}
	buf := make([]byte, 0, 64<<10)
	b.ReportAllocs()
	cpu0 := cpuTime(b)
	b.ResetTimer()
	n := 0
	for i := 0; i < b.N; {
		size := min(1000, b.N-i)
		recs := pool.Get(size, 12)
		batch := component.Batch{Records: make([]*record.Record, 0, size)}
		for j := range recs {
			r := &recs[j]
			r.Origin = record.Origin{Topic: "pipeline_raw", TopicID: topicID, Offset: int64(i)}
			r.Init(r.Origin.ID(), "", 0)
			r.Set(record.FieldValue, serialize.RawValue(raw[i%len(raw)]))
			batch.Records = append(batch.Records, r)
			i++
		}
		if err := p.Process(ctx, &batch); err != nil {
			b.Fatal(err)
		}
		for _, r := range batch.Records {
			buf = append(buf[:0], r.ID...)
			buf, _ = serialize.JSON{}.Serialize(buf, r)
		}
		pool.Put(recs, 12)
		n += size
	}
	b.StopTimer()
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "lines/s")
	if cpu := cpuTime(b) - cpu0; cpu > 0 {
		b.ReportMetric(float64(n)/cpu.Seconds(), "lines/cpu-s")
	}
}

// cpuTime is the user and system CPU time of this process so far.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
