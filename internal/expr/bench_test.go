package expr_test

import (
	"testing"

	"github.com/weir-streams/weir/internal/expr"
	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/streamtest"
)

// BenchExpressions are the expressions benchmarked here and, with the same
// sources, against expr-lang's VM and cel-go in bench/exprchoice: the
// filter, the routing condition and a string predicate of the sample job.
var benchExpressions = map[string]string{
	"filter":  `http_query != "/health" && http_method in ["GET", "HEAD", "POST"]`,
	"route":   `http_status >= 500 ? "errors_5xx" : "logs"`,
	"predict": `http_query startsWith "/presentations" || http_query endsWith ".png"`,
}

// accessRecords returns the real access-log records with http_status and
// bytes_out as integers, as after ConvertFieldsType.
func accessRecords(b *testing.B) []*record.Record {
	recs := streamtest.AccessLogRecords(b)
	for _, r := range recs {
		for _, f := range []string{"http_status", "bytes_out"} {
			v := expr.MustCompile(`int(` + f + `)`)
			if n, err := v.Eval(r); err == nil {
				r.Set(f, n)
			} else {
				r.Set(f, record.IntValue(0))
			}
		}
	}
	return recs
}

func BenchmarkEval(b *testing.B) {
	recs := accessRecords(b)
	for name, src := range benchExpressions {
		p := expr.MustCompile(src)
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := p.Eval(recs[i%len(recs)]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkEvalOneRecord evaluates on one record held in cache: the cost
// of the evaluator alone, without the memory traffic of 10,000 records.
func BenchmarkEvalOneRecord(b *testing.B) {
	recs := accessRecords(b)
	for name, src := range benchExpressions {
		p := expr.MustCompile(src)
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := p.Eval(recs[0]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
