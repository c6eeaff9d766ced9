package docdb_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/plugins/docdb"
	"github.com/weir-streams/weir/internal/testserver/ferretdb"
)

// BenchmarkBulkPut measures documents per second from parsed records to
// acknowledged documents in FerretDB (SQLite backend, in-process), through
// BulkPut and the service's writer, four partitions at once. Each iteration
// writes into a new collection; parsing (SplitText) is included.
//
// FerretDB limit: its SQLite upserts scan the collection for each _id, so
// the upsert figure depends on the collection size and is measured on
// 2,000 documents; inserts use the unique _id index and are measured on the
// whole 10,000-line log.
func BenchmarkBulkPut(b *testing.B) {
	lines := readLog(b)
	for _, bc := range []struct {
		mode  string
		lines int
	}{{docdb.ModeInsert, 10000}, {docdb.ModeUpsert, 2000}} {
		b.Run(fmt.Sprintf("%s-%d", bc.mode, bc.lines), func(b *testing.B) {
			srv := ferretdb.New(b)
			ctx := context.Background()
			parser := newSplitText(b)
			var i int
			var elapsed time.Duration
			for b.Loop() {
				b.StopTimer()
				svc := startService(b, srv.URI(), fmt.Sprintf("bench_%s_%d", bc.mode, i), map[string]string{
					docdb.KeyBulkMode: bc.mode, docdb.KeyBatchSize: "1000", docdb.KeyFlush: "100",
				})
				i++
				chain := []component.Processor{parser, newBulkPut(b, svc)}
				b.StartTimer()
				start := time.Now()
				_, refused := runPartitions(ctx, b, chain, lines[:bc.lines], 4, 500)
				elapsed += time.Since(start)
				if len(refused) != 0 {
					b.Fatalf("%d refused", len(refused))
				}
			}
			b.ReportMetric(float64(bc.lines*i)/elapsed.Seconds(), "docs/s")
		})
	}
}
