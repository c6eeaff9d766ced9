package sdk_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/weir-streams/weir/examples/plugins/urlrequest"
	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/pluginrpc"
	"github.com/weir-streams/weir/internal/plugins/text"
	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/streamtest"
	"github.com/weir-streams/weir/sdk"
)

// BenchmarkRoundTrip is a plugin call without the transport: the host
// encodes the batch, the plugin decodes it, runs the processor and encodes
// what it changed, the host applies that to its records. The difference from
// installer's BenchmarkParseUrlRequest/plugin is the batch socket and the
// two processes' scheduling.
func BenchmarkRoundTrip(b *testing.B) {
	spec := text.SplitTextSpec()
	conf, _ := component.NewConfig(&spec, map[string]string{"value.regex": streamtest.ApacheEnrichRegex, "value.fields": streamtest.ApacheEnrichFields})
	st, err := spec.NewProcessor(conf, component.Env{})
	if err != nil {
		b.Fatal(err)
	}
	lines := streamtest.AccessLogLines(b)
	for _, n := range []int{100, 1000, 4096} {
		recs := make([]*record.Record, n)
		for i := range recs {
			recs[i] = record.New(fmt.Sprint(i), "", 0)
			recs[i].SetString(record.FieldValue, lines[i])
		}
		batch := &component.Batch{Records: recs}
		if err := st.Process(context.Background(), batch); err != nil {
			b.Fatal(err)
		}
		p, err := sdk.Local(urlrequest.Spec(), nil, sdk.Env{})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("batch=%d", n), func(b *testing.B) {
			var buf, reply []byte
			var scratch pluginrpc.Scratch
			host := make([]*record.Record, n)
			for b.Loop() {
				// The host's records change with each reply: fresh copies,
				// outside the timer.
				b.StopTimer()
				for i, r := range batch.Records {
					host[i] = r.Clone()
				}
				b.StartTimer()
				buf = pluginrpc.AppendBatch(buf[:0], "raw", 0, host)
				in, err := scratch.Decode(buf)
				if err != nil {
					b.Fatal(err)
				}
				sb := &sdk.Batch{Records: in.Records}
				if err := p.Process(context.Background(), sb); err != nil {
					b.Fatal(err)
				}
				reply = pluginrpc.AppendDelta(reply[:0], in, sb.Records)
				if _, err := pluginrpc.ApplyDelta(reply, "raw", host); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/record")
		})
	}
}
