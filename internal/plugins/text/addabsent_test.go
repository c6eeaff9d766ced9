package text_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/serialize"
	"github.com/weir-streams/weir/internal/streamtest"
)

// TestSetFieldsFreshAndNot checks that a record with room for every field
// of the pattern (fields appended by AddAbsent) and one without that room
// (fields set by SetNamed) come out as the same JSON on every line of the
// real access log, with the 9- and 11-group patterns and a pattern that
// names one field twice (which must never be appended directly: the
// second capture overrides the first).
func TestSetFieldsFreshAndNot(t *testing.T) {
	lines := streamtest.AccessLogLines(t)
	for _, c := range []struct{ regex, fields string }{
		{streamtest.ApacheRegex, streamtest.ApacheFields},
		{streamtest.ApacheEnrichRegex, streamtest.ApacheEnrichFields},
		{streamtest.ApacheRegex, "src_ip,identd,src_ip,record_time,http_method,http_query,http_version,http_status,bytes_out"},
	} {
		p := newSplitText(t, c.regex, c.fields)
		run := func(perRecord int) [][]byte {
			var pool record.BatchPool
			recs := pool.Get(len(lines), perRecord)
			batch := component.Batch{}
			for i := range recs {
				r := &recs[i]
				r.Init(record.DeriveID("pipeline_raw", 0, int64(i), 0), "", 1432000000000)
				r.SetString(record.FieldValue, lines[i])
				batch.Records = append(batch.Records, r)
			}
			if err := p.Process(context.Background(), &batch); err != nil {
				t.Fatal(err)
			}
			out := make([][]byte, len(batch.Records))
			for i, r := range batch.Records {
				out[i] = serialize.AppendRecordJSON(nil, r)
			}
			return out
		}
		fresh, tight := run(16), run(3)
		for i := range fresh {
			if !bytes.Equal(fresh[i], tight[i]) {
				t.Fatalf("%s line %d: with room %s, without %s", c.fields, i, fresh[i], tight[i])
			}
		}
	}
}
