package expr_test

import (
	"strings"
	"testing"

	"github.com/weir-streams/weir/internal/expr"
	"github.com/weir-streams/weir/internal/record"
)

// TestFieldHintFollowsTheRecord evaluates one program on records whose
// fields are in different orders, and on one without the field: the
// remembered position of a field must never give another field's value.
func TestFieldHintFollowsTheRecord(t *testing.T) {
	a := record.New("a", "t", 0)
	a.SetString("method", "GET")
	a.SetString("query", "/a")
	b := record.New("b", "t", 0)
	b.SetString("query", "/b")
	b.SetString("extra", "x")
	b.SetString("method", "POST")
	c := record.New("c", "t", 0)
	c.SetString("query", "/c")
	p := expr.MustCompile(`method + " " + query`)
	for _, tt := range []struct {
		r    *record.Record
		want string
	}{{a, "GET /a"}, {b, "POST /b"}, {a, "GET /a"}, {c, " /c"}, {b, "POST /b"}, {b, "POST /b"}, {c, " /c"}} {
		v, err := p.Eval(tt.r)
		if err != nil || v.Text() != tt.want {
			t.Errorf("on %s: %s, %v; want %q", tt.r.ID, v, err, tt.want)
		}
	}
}

// TestComparisonsWithConstants covers the forms compiled to their own
// nodes (a constant string on one side of ==, a list of strings, a
// constant string predicate) on values of every kind, against what the
// general rules say.
func TestComparisonsWithConstants(t *testing.T) {
	r := record.New("id", "t", 0)
	r.SetString("s", "GET")
	r.Set("n", record.IntValue(200))
	r.Set("f", record.FloatValue(200))
	r.Set("b", record.BoolValue(true))
	r.Set("raw", record.BytesValue([]byte("GET")))
	r.SetString("num_text", "200")
	for _, tt := range []struct {
		src  string
		want bool
	}{
		{`s == "GET"`, true},
		{`"GET" == s`, true},
		{`s != "GET"`, false},
		{`s == "GE"`, false},
		{`n == "200"`, false}, // a number never equals a string
		{`n != "200"`, true},
		{`raw == "GET"`, false}, // bytes are not a string
		{`missing == "GET"`, false},
		{`missing != "GET"`, true},
		{`n == 200.0`, true},
		{`f == n`, true},
		{`num_text == 200`, false},
		{`s in ["HEAD", "GET"]`, true},
		{`s not in ["HEAD", "GET"]`, false},
		{`s in ["HEAD", "POST"]`, false},
		{`n in ["200", "GET"]`, false},
		{`n in [200, "GET"]`, true}, // mixed list: numbers by value
		{`f in [200, "GET"]`, true},
		{`missing in ["GET"]`, false},
		{`missing not in ["GET"]`, true},
		{`s startsWith "G"`, true},
		{`s endsWith "T"`, true},
		{`s contains "E"`, true},
		{`s not contains "E"`, false},
		{`missing startsWith "G"`, false},
		{`s startsWith s`, true},
		{`"GET" startsWith s`, true},
		{`b && s == "GET"`, true},
		{`!b || s == "x"`, false},
		{`n >= 200 && n <= 200 && !(n < 200) && !(n > 200)`, true},
	} {
		p, err := expr.Compile(tt.src)
		if err != nil {
			t.Errorf("Compile(%q): %v", tt.src, err)
			continue
		}
		got, err := p.EvalBool(r)
		if err != nil || got != tt.want {
			t.Errorf("EvalBool(%q) = %v, %v; want %v", tt.src, got, err, tt.want)
		}
		v, err := p.Eval(r)
		if b, ok := v.AsBool(); err != nil || !ok || b != tt.want {
			t.Errorf("Eval(%q) = %s, %v; want %v", tt.src, v, err, tt.want)
		}
	}
	for _, src := range []string{`n startsWith "2"`, `b && s`, `s || b`, `n contains "x" || true`} {
		if v, err := expr.MustCompile(src).Eval(r); err == nil {
			t.Errorf("Eval(%q) = %s, want an error", src, v)
		}
	}
}

// TestEvalAllocatesNothing holds the promise of the package comment:
// conditions, comparisons and field reads allocate nothing.
func TestEvalAllocatesNothing(t *testing.T) {
	r := record.New("id", "apache_log", 0)
	r.SetString("src_ip", "83.149.9.216")
	r.SetString("http_method", "GET")
	r.SetString("http_query", "/presentations/logstash-monitorama-2013/images/kibana-search.png")
	r.Set("http_status", record.IntValue(503))
	r.SetString("http_user_agent", "Mozilla/5.0")
	for _, tt := range []struct {
		src  string
		cond bool // a condition, also evaluated with EvalBool
	}{
		{`http_query != "/health" && http_method in ["GET", "HEAD", "POST"]`, true},
		{`http_status >= 500 ? "errors_5xx" : "logs"`, false},
		{`http_query startsWith "/presentations" || http_query endsWith ".png"`, true},
		{`!(http_method == "HEAD" && http_query == "/" || http_query in ["/health", "/healthz"] || http_user_agent startsWith "check_http")`, true},
		{`http_query matches "\\.png$" and has("src_ip") and missing ?? true`, true},
		{`http_status + 1 > 500.5 || -http_status < 0`, true},
	} {
		p := expr.MustCompile(tt.src)
		if raceEnabled && strings.Contains(tt.src, "matches") {
			// matches runs Go's regexp, which keeps its matching machines
			// in a sync.Pool; under the race detector a Put drops the
			// machine one time in four on purpose, so the next match
			// allocates a new one. scripts/test runs this test without
			// -race as well, where the case must not allocate.
			continue
		}
		if n := testing.AllocsPerRun(100, func() {
			if _, err := p.Eval(r); err != nil {
				t.Fatal(err)
			}
		}); n != 0 {
			t.Errorf("Eval(%s): %v allocations, want 0", tt.src, n)
		}
		if !tt.cond {
			continue
		}
		if n := testing.AllocsPerRun(100, func() {
			if _, err := p.EvalBool(r); err != nil {
				t.Fatal(err)
			}
		}); n != 0 {
			t.Errorf("EvalBool(%s): %v allocations, want 0", tt.src, n)
		}
	}
}
