package main

import (
	"strings"
	"testing"
)

// events is what go test -json writes for one package with a passing, a
// failing and a skipped test, a subtest, and a package of its own that
// does not build.
const events = `{"Action":"start","Package":"ex/a"}
{"Action":"run","Package":"ex/a","Test":"TestQuick"}
{"Action":"output","Package":"ex/a","Test":"TestQuick","Output":"=== RUN   TestQuick\n"}
{"Action":"output","Package":"ex/a","Test":"TestQuick","Output":"quick says nothing worth showing\n"}
{"Action":"pass","Package":"ex/a","Test":"TestQuick","Elapsed":0.5}
{"Action":"run","Package":"ex/a","Test":"TestSlow"}
{"Action":"output","Package":"ex/a","Test":"TestSlow","Output":"    slow_test.go:9: want 3, got 4\n"}
{"Action":"run","Package":"ex/a","Test":"TestSlow/sub"}
{"Action":"pass","Package":"ex/a","Test":"TestSlow/sub","Elapsed":7}
{"Action":"fail","Package":"ex/a","Test":"TestSlow","Elapsed":9.25}
{"Action":"skip","Package":"ex/a","Test":"TestSkipped","Elapsed":0}
{"Action":"output","Package":"ex/a","Output":"FAIL\tex/a\t9.8s\n"}
{"Action":"fail","Package":"ex/a","Elapsed":9.8}
{"ImportPath":"ex/b","Action":"build-output","Output":"b.go:3:1: syntax error\n"}
{"ImportPath":"ex/b","Action":"build-fail"}
not an event
`

func TestSummary(t *testing.T) {
	var out strings.Builder
	ok, err := run(strings.NewReader(events), &out, 15)
	if err != nil {
		t.Fatal(err)
	}
	if ok {
		t.Error("a failed test and a failed build reported as passing")
	}
	got := out.String()
	for _, want := range []string{
		"slow_test.go:9: want 3, got 4", // a failed test's output
		"FAIL\tex/a\t9.8s",              // the package's result line
		"b.go:3:1: syntax error",        // a build error
		"not an event",                  // go test's own messages
		"slowest tests:\n     9.2s  ex/a TestSlow\n     0.5s  ex/a TestQuick\n",
		"slowest packages:\n     9.8s  ex/a\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("summary lacks %q:\n%s", want, got)
		}
	}
	for _, unwanted := range []string{"quick says nothing", "TestSlow/sub", "TestSkipped"} {
		if strings.Contains(got, unwanted) {
			t.Errorf("summary shows %q:\n%s", unwanted, got)
		}
	}
}

func TestAllPassing(t *testing.T) {
	var out strings.Builder
	ok, err := run(strings.NewReader(`{"Action":"pass","Package":"ex/a","Test":"TestA","Elapsed":1}
{"Action":"output","Package":"ex/a","Output":"ok  \tex/a\t1.0s\n"}
{"Action":"pass","Package":"ex/a","Elapsed":1}
`), &out, 15)
	if err != nil || !ok {
		t.Fatalf("ok %v, err %v:\n%s", ok, err, out.String())
	}
}
