// Command testsummary reads the JSON events of `go test -json` on standard
// input, prints what `go test` would print without -json (each package's
// result line, the output of failed tests, build errors), then the slowest
// tests and packages. scripts/test pipes the race-detector run through it
// to show where the suite's time goes. It exits 1 when a test or package
// failed; the caller's pipefail also keeps go test's own exit status.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// event is one line of `go test -json` (cmd/test2json), with the fields
// of build events (go build -json) that go test -json also writes.
type event struct {
	Action     string
	Package    string
	Test       string
	Elapsed    float64
	Output     string
	ImportPath string
}

// timing is how long a test or a package took.
type timing struct {
	name    string
	elapsed float64
}

// summary accumulates what the events say.
type summary struct {
	out      io.Writer
	pending  map[string]*strings.Builder // output of running tests, by package and test
	tests    []timing
	packages []timing
	failed   bool
}

func newSummary(out io.Writer) *summary {
	return &summary{out: out, pending: map[string]*strings.Builder{}}
}

func (s *summary) add(e event) {
	key := e.Package + " " + e.Test
	switch e.Action {
	case "build-output":
		fmt.Fprint(s.out, e.Output)
	case "build-fail":
		s.failed = true
	case "output":
		if e.Test == "" {
			// The test binary's own PASS before go test's "ok" line is
			// left out, as go test leaves it out without -json.
			if e.Output != "PASS\n" {
				fmt.Fprint(s.out, e.Output)
			}
			return
		}
		b := s.pending[key]
		if b == nil {
			b = new(strings.Builder)
			s.pending[key] = b
		}
		b.WriteString(e.Output)
	case "pass", "fail", "skip":
		if e.Action == "fail" {
			s.failed = true
			if b := s.pending[key]; b != nil && e.Test != "" {
				fmt.Fprint(s.out, b.String())
			}
		}
		delete(s.pending, key)
		switch {
		case e.Test == "":
			s.packages = append(s.packages, timing{e.Package, e.Elapsed})
		case !strings.Contains(e.Test, "/") && e.Action != "skip":
			s.tests = append(s.tests, timing{e.Package + " " + e.Test, e.Elapsed})
		}
	}
}

// report prints the n slowest tests and packages.
func (s *summary) report(n int) {
	for _, part := range []struct {
		title string
		ts    []timing
	}{{"slowest tests", s.tests}, {"slowest packages", s.packages}} {
		sort.SliceStable(part.ts, func(i, j int) bool { return part.ts[i].elapsed > part.ts[j].elapsed })
		fmt.Fprintf(s.out, "\n%s:\n", part.title)
		for _, t := range part.ts[:min(n, len(part.ts))] {
			fmt.Fprintf(s.out, "%8.1fs  %s\n", t.elapsed, t.name)
		}
	}
}

// run reads the events of in, writes the summary to out, and reports
// whether everything passed. A line that is not an event (go test's own
// messages) is printed as it is.
func run(in io.Reader, out io.Writer, n int) (bool, error) {
	s := newSummary(out)
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 64*1024), 16<<20)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil || e.Action == "" {
			fmt.Fprintln(out, sc.Text())
			continue
		}
		s.add(e)
	}
	if err := sc.Err(); err != nil {
		return false, fmt.Errorf("read go test events: %w", err)
	}
	s.report(n)
	return !s.failed, nil
}

func main() {
	ok, err := run(os.Stdin, os.Stdout, 15)
	if err != nil {
		fmt.Fprintln(os.Stderr, "testsummary:", err)
		os.Exit(2)
	}
	if !ok {
		os.Exit(1)
	}
}
