// Package exprchoice benchmarks the two candidate expression libraries,
// github.com/expr-lang/expr and github.com/google/cel-go, on the records of
// the real access log, each used as its documentation shows: compiled once,
// then run per record with the record's fields handed over in the form the
// library reads (a map[string]any for both). It is a module of its own so
// that cel-go, which Weir does not use, stays out of Weir's go.mod. The
// result and Weir's own evaluator (internal/expr) are in BENCHMARKS.md.
package exprchoice

import (
	"bufio"
	"os"
	"regexp"
	"strconv"
	"testing"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/vm"
	"github.com/google/cel-go/cel"
)

var sources = map[string]string{
	"filter":  `http_query != "/health" && http_method in ["GET", "HEAD", "POST"]`,
	"route":   `http_status >= 500 ? "errors_5xx" : "logs"`,
	"predict": `http_query.startsWith("/presentations") || http_query.endsWith(".png")`,
}

// exprSources are the same expressions in expr-lang's own operator syntax.
var exprSources = map[string]string{
	"filter":  sources["filter"],
	"route":   sources["route"],
	"predict": `http_query startsWith "/presentations" || http_query endsWith ".png"`,
}

type rec struct {
	ip, method, query string
	status, bytes     int64
}

func records(b *testing.B) []rec {
	f, err := os.Open("../../testdata/access-logs/apache_combined_10k.log")
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	re := regexp.MustCompile(`^(\S+) \S+ \S+ \[[^\]]+\] "(\S+) (\S+)[^"]*" (\d+) (\S+)`)
	var out []rec
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		m := re.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		st, _ := strconv.ParseInt(m[4], 10, 64)
		by, _ := strconv.ParseInt(m[5], 10, 64)
		out = append(out, rec{m[1], m[2], m[3], st, by})
	}
	return out
}

// env builds what both libraries read: the record's fields as a map. Weir's
// records are typed field lists, so this conversion is part of every
// evaluation.
func env(r rec) map[string]any {
	return map[string]any{"src_ip": r.ip, "http_method": r.method, "http_query": r.query, "http_status": r.status, "bytes_out": r.bytes}
}

func BenchmarkExprLang(b *testing.B) {
	recs := records(b)
	for name, src := range exprSources {
		prog, err := expr.Compile(src)
		if err != nil {
			b.Fatal(err)
		}
		envs := make([]map[string]any, len(recs))
		for i, r := range recs {
			envs[i] = env(r)
		}
		b.Run(name+"/prebuilt", func(b *testing.B) {
			var machine vm.VM
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := machine.Run(prog, envs[i%len(envs)]); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name, func(b *testing.B) {
			var machine vm.VM
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := machine.Run(prog, env(recs[i%len(recs)])); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkCEL(b *testing.B) {
	recs := records(b)
	e, err := cel.NewEnv(
		cel.Variable("src_ip", cel.StringType), cel.Variable("http_method", cel.StringType),
		cel.Variable("http_query", cel.StringType), cel.Variable("http_status", cel.IntType),
		cel.Variable("bytes_out", cel.IntType))
	if err != nil {
		b.Fatal(err)
	}
	for name, src := range sources {
		ast, iss := e.Compile(src)
		if iss.Err() != nil {
			b.Fatal(iss.Err())
		}
		prg, err := e.Program(ast)
		if err != nil {
			b.Fatal(err)
		}
		envs := make([]map[string]any, len(recs))
		for i, r := range recs {
			envs[i] = env(r)
		}
		b.Run(name+"/prebuilt", func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, _, err := prg.Eval(envs[i%len(envs)]); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, _, err := prg.Eval(env(recs[i%len(recs)])); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
