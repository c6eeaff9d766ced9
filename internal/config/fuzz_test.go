package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// FuzzParse feeds the job-file loader arbitrary YAML with ${...}
// references. It must never panic, and a job it accepts must hold no
// unexpanded reference of a set variable.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{"lists_top.good.yml", "lists_in_engine.good.yml", "unclosed_var.bad.yml", "many_problems.bad.yml"} {
		data, err := os.ReadFile(filepath.Join("testdata", seed))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(data))
	}
	f.Add("engine: {component: x, configuration: {a: '${SECRET}${file:}$${X}${A:-b}'}}")
	env := map[string]string{"SECRET": "fuzz-secret", "WEIR_TEST_APP": "app"}
	getenv := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	f.Fuzz(func(t *testing.T, doc string) {
		job, err := Parse([]byte(doc), time.Unix(0, 0), getenv)
		if err != nil {
			if strings.Contains(err.Error(), "fuzz-secret") {
				t.Fatalf("error shows a variable's value: %v", err)
			}
			return
		}
		if job.DataFlow == nil {
			t.Fatal("accepted job without a dataflow")
		}
	})
}

// FuzzExpand checks Expand on arbitrary text: no panic, and a text without
// "${" comes back unchanged.
func FuzzExpand(f *testing.F) {
	for _, s := range []string{"", "${A}", "$${A}", "${A:-x}", "${file:/nonexistent}", "${", "$${", "a}${B:-}"} {
		f.Add(s)
	}
	getenv := func(k string) (string, bool) { return "v", k == "A" }
	f.Fuzz(func(t *testing.T, s string) {
		got, err := Expand(s, getenv)
		if !strings.Contains(s, "${") && (err != nil || got != s) {
			t.Fatalf("Expand(%q) = %q, %v; want it unchanged", s, got, err)
		}
	})
}
