package searchindex_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"syscall"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/plugins/searchindex"
	"github.com/weir-streams/weir/internal/plugins/text"
	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/streamtest"
)

// BenchmarkBulkAddSearchIndex measures documents per second, and per
// CPU-second of the whole process, from parsed records (the 10,000 real
// log lines) to documents accepted by a `_bulk` server on 127.0.0.1,
// through BulkAddSearchIndex and the service's writer, in batches of 500.
// The server answers every item 201 without decoding the documents (it
// counts the lines and writes a canned answer), so the CPU measured is
// almost all the client's: document encoding, gzip when on, HTTP, and
// answer parsing.
func BenchmarkBulkAddSearchIndex(b *testing.B) {
	recs := parsedLog(b)
	srv := httptest.NewServer(http.HandlerFunc(cannedBulk))
	b.Cleanup(srv.Close)
	for _, gz := range []string{"false", "true"} {
		b.Run("gzip="+gz, func(b *testing.B) {
			svc := startService(b, prometheus.NewRegistry(), map[string]string{
				searchindex.KeyHosts: srv.URL, searchindex.KeyGzip: gz, searchindex.KeyFlush: "50",
				searchindex.KeyBatchSize: "1000", searchindex.KeyConcurrent: "2",
			})
			p := newIndexer(b, svc)
			ctx := context.Background()
			var docs int
			var elapsed, cpu time.Duration
			for b.Loop() {
				start, cpu0 := time.Now(), cpuTime()
				var cs []component.Completion
				for i := 0; i < len(recs); i += 500 {
					batch := &component.Batch{Records: recs[i:min(i+500, len(recs))]}
					if err := p.Process(ctx, batch); err != nil {
						b.Fatal(err)
					}
					cs = append(cs, batch.Completions()...)
				}
				for _, c := range cs {
					if failed, err := c.Wait(ctx); err != nil || len(failed) != 0 {
						b.Fatalf("Wait = %d failed, %v", len(failed), err)
					}
				}
				elapsed += time.Since(start)
				cpu += cpuTime() - cpu0
				docs += len(recs)
			}
			b.ReportMetric(float64(docs)/elapsed.Seconds(), "docs/s")
			b.ReportMetric(float64(docs)/cpu.Seconds(), "docs/cpu-s")
		})
	}
}

// cannedBulk answers a `_bulk` request with one 201 item per action line.
func cannedBulk(w http.ResponseWriter, r *http.Request) {
	var body io.Reader = r.Body
	if r.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		body = zr
	}
	raw, _ := io.ReadAll(body)
	n := bytes.Count(raw, []byte("\n")) / 2
	out := make([]byte, 0, 64+n*160)
	out = append(out, `{"took":3,"errors":false,"items":[`...)
	for i := range n {
		if i > 0 {
			out = append(out, ',')
		}
		out = fmt.Appendf(out, `{"index":{"_index":"apache_logs","_id":"%d","_version":1,"result":"created","_shards":{"total":2,"successful":1,"failed":0},"_seq_no":%d,"_primary_term":1,"status":201}}`, i, i)
	}
	out = append(out, "]}"...)
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(out)
}

// parsedLog parses the real access log with the sample SplitText.
func parsedLog(b *testing.B) []*record.Record {
	b.Helper()
	spec := text.SplitTextSpec()
	conf, probs := component.NewConfig(&spec, map[string]string{
		"record.type": "apache_log", "value.regex": streamtest.ApacheRegex, "value.fields": streamtest.ApacheFields,
	})
	if err := probs.Err(); err != nil {
		b.Fatal(err)
	}
	parser, err := spec.NewProcessor(conf, component.Env{Name: "apache_parser"})
	if err != nil {
		b.Fatal(err)
	}
	lines := streamtest.AccessLogLines(b)
	recs := make([]*record.Record, len(lines))
	for i, l := range lines {
		r := record.New(record.DeriveID("pipeline_raw", 0, int64(i), 0), "", time.Now().UnixMilli())
		r.SetString(record.FieldValue, l)
		recs[i] = r
	}
	batch := &component.Batch{Records: recs}
	if err := parser.Process(context.Background(), batch); err != nil {
		b.Fatal(err)
	}
	return batch.Records
}

// cpuTime is the process's user and system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
