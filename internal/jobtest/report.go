package jobtest

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"time"
)

// WriteText writes the results for people: one line per test, the
// differences and the record under a failed one, and a last line with the
// counts.
func WriteText(w io.Writer, s Summary) error {
	file := ""
	for _, c := range s.Cases {
		if c.File != file {
			file = c.File
			if _, err := fmt.Fprintf(w, "=== %s\n", file); err != nil {
				return err
			}
		}
		switch {
		case c.Name == "":
			fmt.Fprintf(w, "ERROR %s\n%s\n", c.File, indent(c.Err.Error(), "      "))
		case c.Err != nil:
			fmt.Fprintf(w, "ERROR %s (%s:%d)\n%s\n", c.Name, c.File, c.Line, indent(c.Err.Error(), "      "))
		case len(c.Failures) > 0:
			fmt.Fprintf(w, "FAIL  %s (%s:%d)\n", c.Name, c.File, c.Line)
			for _, f := range c.Failures {
				fmt.Fprintf(w, "      %s:%d: %s\n", c.File, f.Line, f.Msg)
				if f.Record != "" {
					fmt.Fprintf(w, "        record: %s\n", f.Record)
				}
			}
		default:
			fmt.Fprintf(w, "ok    %s\n", c.Name)
		}
	}
	total, failed, errored := s.Counts()
	verdict := "PASS"
	if !s.OK() {
		verdict = "FAIL"
	}
	_, err := fmt.Fprintf(w, "%s: %d tests, %d passed, %d failed, %d errors\n", verdict, total, total-failed-errored, failed, errored)
	return err
}

func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}

// JUnit XML, the report format that CI systems read (GitLab's
// artifacts:reports:junit, Jenkins' junit step, GitHub Actions through
// test-reporter actions, Azure Pipelines' PublishTestResults): one
// <testsuite> per test file, one <testcase> per test, a <failure> for a
// failed expectation and an <error> for a test that could not run.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	File      string        `xml:"file,attr,omitempty"`
	Line      int           `xml:"line,attr,omitempty"`
	Time      string        `xml:"time,attr"`
	Failure   *junitProblem `xml:"failure,omitempty"`
	Error     *junitProblem `xml:"error,omitempty"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

func seconds(d time.Duration) string { return fmt.Sprintf("%.3f", d.Seconds()) }

// WriteJUnit writes the results as JUnit XML.
func WriteJUnit(w io.Writer, s Summary) error {
	root := junitSuites{Name: "weir test"}
	var total time.Duration
	index := map[string]int{}
	for _, c := range s.Cases {
		i, ok := index[c.File]
		if !ok {
			i = len(root.Suites)
			index[c.File] = i
			root.Suites = append(root.Suites, junitSuite{Name: c.File})
		}
		suite := &root.Suites[i]
		name := c.Name
		if name == "" {
			name = "load " + c.File
		}
		jc := junitCase{Name: name, Classname: c.File, File: c.File, Line: c.Line, Time: seconds(c.Elapsed)}
		switch {
		case c.Err != nil:
			jc.Error = &junitProblem{Message: firstLine(c.Err.Error()), Type: "error", Text: c.Err.Error()}
			suite.Errors++
		case len(c.Failures) > 0:
			var b strings.Builder
			for _, f := range c.Failures {
				fmt.Fprintf(&b, "%s:%d: %s\n", c.File, f.Line, f.Msg)
				if f.Record != "" {
					fmt.Fprintf(&b, "  record: %s\n", f.Record)
				}
			}
			jc.Failure = &junitProblem{Message: c.Failures[0].Msg, Type: "expectation", Text: b.String()}
			suite.Failures++
		}
		suite.Tests++
		suite.Cases = append(suite.Cases, jc)
		total += c.Elapsed
	}
	for i := range root.Suites {
		var d time.Duration
		for _, c := range s.Cases {
			if c.File == root.Suites[i].Name {
				d += c.Elapsed
			}
		}
		root.Suites[i].Time = seconds(d)
		root.Tests += root.Suites[i].Tests
		root.Failures += root.Suites[i].Failures
		root.Errors += root.Suites[i].Errors
	}
	root.Time = seconds(total)
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(root); err != nil {
		return fmt.Errorf("write JUnit report: %w", err)
	}
	_, err := io.WriteString(w, "\n")
	return err
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
