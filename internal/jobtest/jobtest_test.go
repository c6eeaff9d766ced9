package jobtest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/config"
	"github.com/weir-streams/weir/internal/jobtest"
	"github.com/weir-streams/weir/internal/plugins/all"
	"github.com/weir-streams/weir/internal/plugins/dns/dnstest"
)

func run(t *testing.T, paths ...string) jobtest.Summary {
	t.Helper()
	// DOCDB_URI is set by the test files' env; unset here so that a value
	// of the developer's cannot change what the files test.
	getenv := func(string) (string, bool) { return "", false }
	return jobtest.Run(context.Background(), paths, jobtest.RunOptions{Registry: all.NewRegistry(), Getenv: getenv})
}

func text(t *testing.T, s jobtest.Summary) string {
	t.Helper()
	var b bytes.Buffer
	if err := jobtest.WriteText(&b, s); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestPassingSuite(t *testing.T) {
	s := run(t, "testdata/pass.test.yml")
	out := text(t, s)
	if !s.OK() {
		t.Fatalf("the passing suite fails:\n%s", out)
	}
	if total, _, _ := s.Counts(); total != 5 {
		t.Fatalf("%d tests, want 5:\n%s", total, out)
	}
	t.Log("\n" + out)
}

func TestFailingSuite(t *testing.T) {
	s := run(t, "testdata/fail.test.yml")
	out := text(t, s)
	t.Log("\n" + out)
	total, failed, errored := s.Counts()
	if total != 5 || failed != 4 || errored != 1 || s.OK() {
		t.Fatalf("%d tests, %d failed, %d errors; want 5, 4, 1", total, failed, errored)
	}
	// Each difference at its line, with what was wanted and what was got.
	for _, want := range []string{
		`fail.test.yml:21: record 1 of events: field "http_status": want "200" (string), got 200 (int)`,
		`fail.test.yml:22: record 1 of events: field "src_fqdn": want "other.example.net" (string), got "host-83-149-9-216.example.net" (string)`,
		`fail.test.yml:23: record 1 of events: field "http_method": want a value matching "^POST$", got "GET" (string)`,
		`fail.test.yml:24: record 1 of events: field "src_country": want it present, it is absent`,
		`fail.test.yml:25: record 1 of events: field "user": want it absent, it is "-" (string)`,
		`fail.test.yml:26: record 1 of events: field "bytes_out": want type float, got 203023 (int)`,
		// The record is printed once, after its last difference.
		`        record: {"id":`,
		`fail.test.yml:32: count of error: want 0 records, got 1 (written: 0 output, 1 error; 0 dropped; errors: ["regex_matching_error: line does not match value.regex"])`,
		`fail.test.yml:32: count of output: want 1 records, got 0`,
		`fail.test.yml:33: stored in store: want 1 records, got 0`,
		`fail.test.yml:40: record 1 of events: none; 0 records were written there`,
		`ERROR a stream the job does not have (testdata/fail.test.yml:43)`,
		`the job has no stream "parsin" (it has [parsing json_in]); did you mean "parsing"?`,
		`fail.test.yml:53: count of evnets: the stream writes no topic "evnets"; it writes the topics ["errors" "events"]`,
		`did you mean "events"?`,
		`FAIL: 5 tests, 0 passed, 4 failed, 1 errors`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if n := strings.Count(out, "record: {"); n != 1 {
		t.Errorf("the record is printed %d times, want once", n)
	}
}

func TestBadTestFileIsReportedWithLines(t *testing.T) {
	_, err := jobtest.LoadFile("testdata/bad.test.yml")
	if err == nil {
		t.Fatal("a bad test file is accepted")
	}
	got := err.Error()
	t.Log("\n" + got)
	want := []string{
		`testdata/bad.test.yml:4: services.dns_cache.reverse_dns must be a mapping`,
		`testdata/bad.test.yml:8: test: unknown key "inputs" (known: name, stream, processors, input, expect)`,
		`testdata/bad.test.yml:6: test "misspelt keys and bad values": missing key "input"`,
		`testdata/bad.test.yml:10: expect.count.output: "many" is not a count`,
		`testdata/bad.test.yml:14: field a: unknown key "looks_like" (known: equals, matches, exists, absent, type)`,
		`testdata/bad.test.yml:15: field b: matches: error parsing regexp: missing closing ): ` + "`(unclosed`",
		`testdata/bad.test.yml:16: field c: type "integer" is not one of null, string, int, float, bool, bytes, array, map`,
		`testdata/bad.test.yml:17: field d: absent takes true`,
		`testdata/bad.test.yml:18: test name "misspelt keys and bad values" is used twice (first on line 6)`,
		`testdata/bad.test.yml:20: an input message has exactly one of value, json and fields`,
		`testdata/bad.test.yml:21: expect holds no expectation (give count, stored or records)`,
	}
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("error lacks %q", w)
		}
	}
	if n := strings.Count(got, "\n") + 1; n != len(want) {
		t.Errorf("%d problems, want %d", n, len(want))
	}
	// weir test reports such a file as an error of the run, not a pass.
	s := run(t, "testdata/bad.test.yml")
	if s.OK() || len(s.Cases) != 1 || s.Cases[0].Err == nil {
		t.Errorf("a bad test file gives %+v, want one error", s.Cases)
	}
}

// TestCannedDNSNeverAsksDNS runs the passing suite with the job's IpToFqdn
// pointed at a real DNS server on 127.0.0.1 that knows other names: the
// canned answers are what the records get, and the server receives no
// query. A dry run of the same job, without canned answers, asks that
// server and gets its names, so the stand-in is what kept the test off the
// network.
func TestCannedDNSNeverAsksDNS(t *testing.T) {
	srv := dnstest.Start(t)
	srv.AddPTR("83.149.9.216", "real-name.example.org.")
	srv.AddForward("real-name.example.org.", "83.149.9.216")
	getenv := func(k string) (string, bool) {
		if k == "DNS_SERVERS" {
			return srv.Addr, true
		}
		return "", false
	}
	s := jobtest.Run(context.Background(), []string{"testdata/pass.test.yml"}, jobtest.RunOptions{Registry: all.NewRegistry(), Getenv: getenv})
	if !s.OK() {
		t.Fatalf("the passing suite fails with a DNS server at hand:\n%s", text(t, s))
	}
	if n := srv.Total(); n != 0 {
		t.Fatalf("the DNS server got %d queries during weir test, want 0", n)
	}

	checked := loadJob(t, "testdata/job.yml", map[string]string{"DNS_SERVERS": srv.Addr, "DOCDB_URI": "mongodb://127.0.0.1:1/"})
	var out, errOut bytes.Buffer
	line := `83.149.9.216 - - [17/May/2015:10:05:03 +0000] "GET / HTTP/1.1" 200 12 "-" "curl/7.0"` + "\n"
	n, err := jobtest.DryRun(context.Background(), checked, strings.NewReader(line), &out, &errOut,
		jobtest.DryRunOptions{Options: jobtest.Options{Registry: all.NewRegistry()}, Stream: "parsing"})
	if err != nil {
		t.Fatal(err)
	}
	if n.Out != 1 || !strings.Contains(out.String(), `"src_fqdn":"real-name.example.org"`) {
		t.Fatalf("dry run wrote %+v:\n%s\n%s", n, out.String(), errOut.String())
	}
	if srv.Total() == 0 {
		t.Fatal("the dry run asked no DNS server")
	}
}

func TestCannedAnswersThatCannotStandIn(t *testing.T) {
	s := run(t, "testdata/canned_errors.test.yml")
	if len(s.Cases) != 1 || s.Cases[0].Err == nil {
		t.Fatalf("want one error, got %+v", s.Cases)
	}
	got := s.Cases[0].Err.Error()
	for _, want := range []string{
		`services.dns_cach (line 7): the job has no service "dns_cach" (it has [dns_cache store]); did you mean "dns_cache"?`,
		`services.store (line 9): reverse_dns answers stand in for a cache service, and "store" is a pkg.service.docdb.DocDBControllerService`,
		`processor "ip_to_fqdn" resolves addresses with DNS: declare reverse_dns answers for its cache service under services.dns_cache`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("error lacks %q:\n%s", want, got)
		}
	}
}

func TestNoCannedAnswers(t *testing.T) {
	s := run(t, "testdata/no_canned.test.yml")
	if len(s.Cases) != 3 {
		t.Fatalf("%d results, want 3", len(s.Cases))
	}
	if err := s.Cases[0].Err; err == nil || !strings.Contains(err.Error(), `processor "ip_to_fqdn" resolves addresses with DNS`) {
		t.Errorf("IpToFqdn without canned answers: %v", err)
	}
	if err := s.Cases[1].Err; err == nil || !strings.Contains(err.Error(), `service "store" (pkg.service.docdb.DocDBControllerService) writes over the network: declare datastore answers for it under services.store`) {
		t.Errorf("BulkPut without canned answers: %v", err)
	}
	if !s.Cases[2].Passed() {
		t.Errorf("a range without network: %+v", s.Cases[2])
	}
}

// loadJob validates a job file with the given environment.
func loadJob(t *testing.T, path string, env map[string]string) *config.Checked {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	checked, err := config.ParseChecked(data, time.Now(), func(k string) (string, bool) { v, ok := env[k]; return v, ok }, all.NewRegistry())
	if err != nil {
		t.Fatal(err)
	}
	return checked
}

// TestJUnitReport reads the JUnit XML of a mixed run back: one suite per
// file, the counts, a failure with the differences and an error.
func TestJUnitReport(t *testing.T) {
	s := run(t, "testdata/pass.test.yml", "testdata/fail.test.yml", "testdata/bad.test.yml")
	var b bytes.Buffer
	if err := jobtest.WriteJUnit(&b, s); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Errors   int `xml:"errors,attr"`
		Suites   []struct {
			Name     string `xml:"name,attr"`
			Tests    int    `xml:"tests,attr"`
			Failures int    `xml:"failures,attr"`
			Errors   int    `xml:"errors,attr"`
			Cases    []struct {
				Name    string `xml:"name,attr"`
				Failure *struct {
					Message string `xml:"message,attr"`
					Text    string `xml:",chardata"`
				} `xml:"failure"`
				Error *struct {
					Message string `xml:"message,attr"`
				} `xml:"error"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("the report is not XML: %v\n%s", err, b.String())
	}
	if doc.Tests != 11 || doc.Failures != 4 || doc.Errors != 2 || len(doc.Suites) != 3 {
		t.Fatalf("tests=%d failures=%d errors=%d suites=%d, want 11, 4, 2, 3:\n%s", doc.Tests, doc.Failures, doc.Errors, len(doc.Suites), b.String())
	}
	fail := doc.Suites[1]
	if fail.Name != "testdata/fail.test.yml" || fail.Tests != 5 || fail.Failures != 4 || fail.Errors != 1 {
		t.Errorf("suite %+v", fail)
	}
	c := fail.Cases[0]
	if c.Name != "every field expectation fails" || c.Failure == nil ||
		!strings.Contains(c.Failure.Text, `field "http_status": want "200" (string), got 200 (int)`) || !strings.Contains(c.Failure.Text, `record: {"id":`) {
		t.Errorf("first case of the failing suite: %+v", c)
	}
	if bad := doc.Suites[2]; bad.Errors != 1 || bad.Cases[0].Error == nil || !strings.Contains(bad.Cases[0].Error.Message, "bad.test.yml:4:") {
		t.Errorf("bad file: %+v", bad)
	}
}

// TestDryRunRealLog runs the first 500 lines of the real access log
// through the parsing stream's chain in a dry run: every line comes out,
// as an output record (JSON on out) or an error record (JSON on errOut).
func TestDryRunRealLog(t *testing.T) {
	data, err := os.ReadFile("../../testdata/access-logs/apache_combined_10k.log")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")[:500]
	// One line that does not parse, to see an error record.
	lines = append(lines, "garbage\n")
	checked := loadJob(t, "testdata/job.yml", map[string]string{"DOCDB_URI": "mongodb://127.0.0.1:1/", "DNS_SERVERS": "127.0.0.1:9"})
	var out, errOut bytes.Buffer
	n, err := jobtest.DryRun(context.Background(), checked, strings.NewReader(strings.Join(lines, "")), &out, &errOut,
		jobtest.DryRunOptions{Options: jobtest.Options{Registry: all.NewRegistry()}, Stream: "parsing", BatchSize: 64})
	if err != nil {
		t.Fatal(err)
	}
	outLines := strings.Split(strings.TrimSpace(out.String()), "\n")
	errLines := strings.Split(strings.TrimSpace(errOut.String()), "\n")
	if n.In != 501 || n.Out != len(outLines) || n.Errors != len(errLines) || n.Out+n.Errors != 501 {
		t.Fatalf("dry run: %+v, %d lines out, %d lines on errors; want 501 in, each out once", n, len(outLines), len(errLines))
	}
	for _, l := range append(outLines, errLines...) {
		var rec struct {
			ID     string         `json:"id"`
			Fields map[string]any `json:"fields"`
		}
		if err := json.Unmarshal([]byte(l), &rec); err != nil || rec.ID == "" {
			t.Fatalf("not a JSON record: %v: %s", err, l)
		}
	}
	if !strings.Contains(errOut.String(), `"record_value":"garbage"`) {
		t.Errorf("the unparsable line is not on the error output:\n%s", errOut.String())
	}
}

// TestRepoJobs runs the test files of the sample jobs, and checks that
// every sample job with a stream has one (remote.yml takes its streams from
// the REST API: there is no chain to test in the file).
func TestRepoJobs(t *testing.T) {
	jobs, err := filepath.Glob("../../conf/*.yml")
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range jobs {
		base := strings.TrimSuffix(filepath.Base(j), ".yml")
		if base == "remote" {
			continue
		}
		if _, err := os.Stat(filepath.Join("../../conf/tests", base+".test.yml")); err != nil {
			t.Errorf("sample job %s has no test file: %v", j, err)
		}
	}
	paths, err := jobtest.FindFiles([]string{"../../conf/tests"})
	if err != nil {
		t.Fatal(err)
	}
	getenv := func(string) (string, bool) { return "", false }
	s := jobtest.Run(context.Background(), paths, jobtest.RunOptions{Registry: all.NewRegistry(), Getenv: getenv})
	if !s.OK() || len(paths) != len(jobs)-1 {
		t.Fatalf("%d test files for %d jobs:\n%s", len(paths), len(jobs), text(t, s))
	}
}

func TestJobThatDoesNotValidate(t *testing.T) {
	s := run(t, "testdata/bad_job.test.yml")
	if len(s.Cases) != 1 || s.Cases[0].Err == nil {
		t.Fatalf("want one error, got %+v", s.Cases)
	}
	if got := s.Cases[0].Err.Error(); !strings.Contains(got, "job testdata/job.yml: line 15: controllerServiceConfigurations[store].configuration.docdb.uri: environment variable DOCDB_URI is not set") {
		t.Errorf("error: %s", got)
	}
}
