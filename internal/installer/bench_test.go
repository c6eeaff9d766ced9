package installer

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/weir-streams/weir/examples/plugins/urlrequest"
	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/pluginrpc"
	"github.com/weir-streams/weir/internal/plugins/text"
	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/streamtest"
	"github.com/weir-streams/weir/sdk"
)

// benchSizes are batch sizes a partition batch takes in a stream: a few
// records when it keeps up, up to the stream's maximum poll (4096).
var benchSizes = []int{100, 1000, 4096}

// parsedLines returns n access-log lines parsed by SplitText, as the
// plugin receives them in the sample pipeline.
func parsedLines(b *testing.B, n int) []*record.Record {
	b.Helper()
	spec := text.SplitTextSpec()
	conf, probs := component.NewConfig(&spec, map[string]string{"record.type": "apache_log",
		"value.regex": streamtest.ApacheEnrichRegex, "value.fields": streamtest.ApacheEnrichFields})
	if len(probs) > 0 {
		b.Fatal(probs)
	}
	st, err := spec.NewProcessor(conf, component.Env{Name: "parser"})
	if err != nil {
		b.Fatal(err)
	}
	lines := streamtest.AccessLogLines(b)
	recs := make([]*record.Record, n)
	for i := range recs {
		r := record.New(fmt.Sprintf("id-%d", i), "", 0)
		r.Origin = record.Origin{Topic: "raw", Offset: int64(i)}
		r.SetString(record.FieldValue, lines[i%len(lines)])
		recs[i] = r
	}
	batch := &component.Batch{Records: recs, Topic: "raw"}
	if err := st.Process(context.Background(), batch); err != nil {
		b.Fatal(err)
	}
	return batch.Records
}

// fresh fills work with copies of recs, outside the timer: the processor
// changes records in place, and a record it already parsed would take it
// down other paths (a parameter seen twice becomes a list).
func fresh(b *testing.B, work, recs []*record.Record) {
	b.StopTimer()
	for i, r := range recs {
		work[i] = r.Clone()
	}
	b.StartTimer()
}

func perRecord(b *testing.B, n int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/record")
}

// BenchmarkParseUrlRequest compares the example processor built in (called
// in-process) with the same processor as a plugin (one call per batch to
// the plugin process over its batch socket: records encoded, sent,
// decoded, processed, their changes encoded, sent back and applied).
func BenchmarkParseUrlRequest(b *testing.B) {
	data, err := os.ReadFile(examplePlugin)
	if err != nil {
		b.Fatal(err)
	}
	sum := SumHex(data)
	for _, n := range benchSizes {
		recs := parsedLines(b, n)
		b.Run(fmt.Sprintf("builtin/batch=%d", n), func(b *testing.B) {
			p, err := sdk.Local(urlrequest.Spec(), nil, sdk.Env{})
			if err != nil {
				b.Fatal(err)
			}
			batch := &sdk.Batch{Topic: "raw"}
			work := make([]*record.Record, n)
			cpu0 := selfCPU(b)
			for b.Loop() {
				fresh(b, work, recs)
				batch.Records = work
				if err := p.Process(context.Background(), batch); err != nil {
					b.Fatal(err)
				}
			}
			perRecord(b, n)
			b.ReportMetric(float64(selfCPU(b)-cpu0)/float64(b.N*n), "cpu-ns/record")
		})
		b.Run(fmt.Sprintf("plugin/batch=%d", n), func(b *testing.B) {
			req := pluginrpc.ConfigureRequest{Component: urlrequest.Name, Name: "url", Stream: "bench"}
			p, err := newProcessor(context.Background(), examplePlugin, sum, req, 0, testLogger(b))
			if err != nil {
				b.Fatal(err)
			}
			defer p.Close(context.Background())
			batch := &component.Batch{Topic: "raw"}
			work := make([]*record.Record, n)
			pid := p.cur.run.client.ReattachConfig().Pid
			cpu0, plug0 := selfCPU(b), procCPU(b, pid)
			for b.Loop() {
				fresh(b, work, recs)
				batch.Records = work
				if err := p.Process(context.Background(), batch); err != nil {
					b.Fatal(err)
				}
			}
			perRecord(b, n)
			// Host and plugin process together: on a shared machine the
			// wall time per record is mostly waiting for a core, twice per
			// call; CPU time is what a call costs.
			plug := procCPU(b, pid) - plug0
			b.ReportMetric(float64(selfCPU(b)-cpu0+plug)/float64(b.N*n), "cpu-ns/record")
			b.ReportMetric(float64(plug)/float64(b.N*n), "plugin-cpu-ns/record")
		})
	}
}

// BenchmarkCodec is the host's share of the plugin's cost: encode a batch
// of 1,000 records and apply the plugin's reply to them (the fields
// ParseUrlRequest adds, made once by the processor in-process).
func BenchmarkCodec(b *testing.B) {
	recs := parsedLines(b, 1000)
	p, err := sdk.Local(urlrequest.Spec(), nil, sdk.Env{})
	if err != nil {
		b.Fatal(err)
	}
	in, err := pluginrpc.DecodeBatch(pluginrpc.AppendBatch(nil, "raw", 0, recs))
	if err != nil {
		b.Fatal(err)
	}
	sb := &sdk.Batch{Topic: "raw", Records: in.Records}
	if err := p.Process(context.Background(), sb); err != nil {
		b.Fatal(err)
	}
	reply := pluginrpc.AppendDelta(nil, in, sb.Records)
	var buf []byte
	cpu0 := selfCPU(b)
	for b.Loop() {
		buf = pluginrpc.AppendBatch(buf[:0], "raw", 0, recs)
		// Applying the same changes again sets the same fields: the
		// records stay as they are after the first iteration.
		if _, err := pluginrpc.ApplyDelta(reply, "raw", recs); err != nil {
			b.Fatal(err)
		}
	}
	perRecord(b, 1000)
	b.ReportMetric(float64(selfCPU(b)-cpu0)/float64(b.N*1000), "cpu-ns/record")
	b.ReportMetric(float64(len(buf))/1000, "bytes/record")
	b.ReportMetric(float64(len(reply))/1000, "reply-bytes/record")
}

// selfCPU returns the CPU time of this process in nanoseconds. It includes
// the copies fresh makes outside the timer, in both variants alike.
func selfCPU(b *testing.B) int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// procCPU returns the CPU time of process pid in nanoseconds, from
// /proc/PID/stat (utime and stime, in clock ticks of 10 ms).
func procCPU(b *testing.B, pid int) int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		b.Fatal(err)
	}
	// The command name, field 2, may hold spaces: count from its ')'.
	f := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+2:]))
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return (ut + st) * int64(10*time.Millisecond)
}
