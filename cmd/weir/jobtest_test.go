package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func weir(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestWeirTestCommand(t *testing.T) {
	t.Setenv("WEIR_HOME", t.TempDir()) // no installed plugin changes the registry
	report := filepath.Join(t.TempDir(), "report.xml")
	code, out, errOut := weir(t, "", "test", "../../internal/jobtest/testdata/pass.test.yml", "--junit", report)
	if code != 0 || !strings.Contains(out, "PASS: 5 tests, 5 passed, 0 failed, 0 errors") {
		t.Fatalf("passing suite: exit %d\n%s\n%s", code, out, errOut)
	}
	xml, err := os.ReadFile(report)
	if err != nil || !strings.Contains(string(xml), `<testsuites name="weir test" tests="5" failures="0" errors="0"`) {
		t.Fatalf("JUnit report: %v\n%s", err, xml)
	}
	code, out, _ = weir(t, "", "test", "../../internal/jobtest/testdata/fail.test.yml")
	if code != 1 || !strings.Contains(out, "FAIL: 5 tests, 0 passed, 4 failed, 1 errors") {
		t.Fatalf("failing suite: exit %d\n%s", code, out)
	}
	code, out, _ = weir(t, "", "test", "--help")
	if code != 0 || !strings.Contains(out, "Usage: weir test") || !strings.Contains(out, "JUnit XML") {
		t.Fatalf("weir test --help: exit %d\n%s", code, out)
	}
	for _, args := range [][]string{
		{"run", "--conf", "x.yml", "--input", "in.log"},
		{"run", "--conf", "x.yml", "--stream", "s"},
		{"validate", "--conf", "x.yml", "--junit", "r.xml"},
		{"quickstart", "--dry-run"},
	} {
		if code, _, errOut := weir(t, "", args...); code != 2 || !strings.Contains(errOut, "is used") {
			t.Errorf("weir %q: exit %d, %q; want a usage error", args, code, errOut)
		}
	}
	code, _, errOut = weir(t, "", "test", "no-such-dir")
	if code != 2 || !strings.Contains(errOut, "no-such-dir") {
		t.Fatalf("missing path: exit %d, %s", code, errOut)
	}
}

func TestRunDryRun(t *testing.T) {
	t.Setenv("WEIR_HOME", t.TempDir())
	data, err := os.ReadFile("../../testdata/access-logs/apache_combined_10k.log")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")[:20]
	input := filepath.Join(t.TempDir(), "in.log")
	if err := os.WriteFile(input, []byte(strings.Join(lines, "")+"not a log line\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, in := range []struct{ flag, stdin string }{{input, ""}, {"-", strings.Join(lines, "") + "not a log line\n"}} {
		code, out, errOut := weir(t, in.stdin, "run", "--dry-run", "--conf", "../../conf/index-apache-logs.yml", "--input", in.flag, "--log-level", "warn")
		if code != 0 {
			t.Fatalf("--input %s: exit %d: %s", in.flag, code, errOut)
		}
		outs := strings.Split(strings.TrimSpace(out), "\n")
		if len(outs) != 20 {
			t.Fatalf("--input %s: %d output records, want 20", in.flag, len(outs))
		}
		for _, l := range outs {
			var rec struct {
				Fields map[string]any `json:"fields"`
			}
			if err := json.Unmarshal([]byte(l), &rec); err != nil || rec.Fields["src_ip"] == nil {
				t.Fatalf("not a parsed record: %v: %s", err, l)
			}
		}
		errs := strings.Split(strings.TrimSpace(errOut), "\n")
		if len(errs) != 1 || !strings.Contains(errs[0], `"record_value":"not a log line"`) || !strings.Contains(errs[0], "regex_matching_error") {
			t.Fatalf("--input %s: stderr %q, want the one error record", in.flag, errOut)
		}
	}
}

// TestDryRunKeepsLogsOffTheRecords: without a log flag, stderr of a dry run
// holds the error records only, each a JSON object, even where the run
// would log (the end-of-run summary at info level).
func TestDryRunKeepsLogsOffTheRecords(t *testing.T) {
	t.Setenv("WEIR_HOME", t.TempDir())
	in := "not a log line\n" + `83.149.9.216 - - [17/May/2015:10:05:03 +0000] "GET / HTTP/1.1" 200 12 "-" "curl/7.0"` + "\nnor this one\n"
	code, out, errOut := weir(t, in, "run", "--dry-run", "--conf", "../../conf/index-apache-logs.yml")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if n := strings.Count(out, "\n"); n != 1 {
		t.Errorf("%d output records, want 1: %s", n, out)
	}
	errs := strings.Split(strings.TrimSpace(errOut), "\n")
	if len(errs) != 2 {
		t.Fatalf("stderr has %d lines, want the 2 error records:\n%s", len(errs), errOut)
	}
	for _, l := range errs {
		var rec struct {
			Fields map[string]any `json:"fields"`
		}
		if err := json.Unmarshal([]byte(l), &rec); err != nil || rec.Fields["record_errors"] == nil {
			t.Errorf("a stderr line is not an error record: %v: %s", err, l)
		}
	}
}

// TestDebugStreamLogsThroughTheCommandsLogger: DebugStream's lines go
// through the logger the command builds (--log-format, --log-level, stderr),
// one line per record: in JSON the record is an object with the fields
// of debug.selection, in text one record.NAME=value pair per field; only
// the records debug.filter lets through.
func TestDebugStreamLogsThroughTheCommandsLogger(t *testing.T) {
	t.Setenv("WEIR_HOME", t.TempDir())
	dir := t.TempDir()
	job, err := os.ReadFile("../../conf/index-apache-logs.yml")
	if err != nil {
		t.Fatal(err)
	}
	job = append(job, `
        - processor: debug
          component: pkg.processor.DebugStream
          configuration:
            debug.filter: 'http_query:\.png$'
            debug.selection: src_ip,http_query,record_type
`...)
	conf := filepath.Join(dir, "job.yml")
	data, err := os.ReadFile("../../testdata/access-logs/apache_combined_10k.log")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")[:20]
	pngs := 0
	for _, l := range lines {
		if strings.Contains(l, `.png HTTP/`) {
			pngs++
		}
	}
	if pngs == 0 || pngs == len(lines) {
		t.Fatalf("%d PNG requests among %d lines: the filter would show nothing", pngs, len(lines))
	}
	input := filepath.Join(dir, "in.log")
	if err := os.WriteFile(conf, job, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(input, []byte(strings.Join(lines, "")), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"json", "text"} {
		code, out, errOut := weir(t, "", "run", "--dry-run", "--conf", conf, "--input", input, "--log-format", format)
		if code != 0 || strings.Count(out, "\n") != len(lines) {
			t.Fatalf("%s: exit %d, %d output lines: %s", format, code, strings.Count(out, "\n"), errOut)
		}
		logged := 0
		for _, l := range strings.SplitAfter(strings.TrimSpace(errOut)+"\n", "\n") {
			if l == "" {
				continue
			}
			if format == "json" {
				var line struct {
					Msg, Stream, Processor string
					Record                 map[string]any
				}
				if err := json.Unmarshal([]byte(l), &line); err != nil {
					t.Fatalf("not a JSON log line: %v: %s", err, l)
				}
				if line.Msg != "record" {
					continue
				}
				if line.Stream != "parsing_stream" || line.Processor != "debug" || len(line.Record) != 3 ||
					!strings.HasSuffix(fmt.Sprint(line.Record["http_query"]), ".png") || line.Record["src_ip"] == nil ||
					line.Record["record_type"] != "apache_log" {
					t.Fatalf("logged record: %s", l)
				}
			} else {
				if !strings.Contains(l, " msg=record ") {
					continue
				}
				if !strings.Contains(l, " stream=parsing_stream processor=debug ") || !strings.Contains(l, ".png record.record_type=apache_log\n") ||
					!strings.Contains(l, " record.src_ip=") || strings.Contains(l, "record.http_method") {
					t.Fatalf("logged record: %s", l)
				}
			}
			logged++
		}
		if logged != pngs {
			t.Errorf("%s: %d records logged, want the %d PNG requests:\n%s", format, logged, pngs, errOut)
		}
	}
}

// TestValidateReportsEverythingInOneRun: the unset variable is one problem
// among the others, all reported by `weir validate` at once.
func TestValidateReportsEverythingInOneRun(t *testing.T) {
	t.Setenv("WEIR_HOME", t.TempDir())
	t.Setenv("WEIR_TEST_UNSET_PORT", "")
	os.Unsetenv("WEIR_TEST_UNSET_PORT")
	t.Setenv("WEIR_TEST_UNSET_BROKERS", "")
	os.Unsetenv("WEIR_TEST_UNSET_BROKERS")
	code, _, errOut := weir(t, "", "validate", "--conf", "../../internal/config/testdata/unset_var_among_others.bad.yml")
	if code != 1 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{
		"6 configuration problems:",
		"line 8: engine.configuration.engine.ui.port: environment variable WEIR_TEST_UNSET_PORT is not set",
		"line 16: streamConfigurations[s].configuration.broker.metadata.broker.list: environment variable WEIR_TEST_UNSET_BROKERS is not set",
		`line 17: streamConfigurations[s].configuration: property "broker.topic.default.partitions": "four" is not an integer`,
		`line 19: streamConfigurations[s].processorConfigurations[p].configuration: missing required property "value.regex"`,
		`line 21: streamConfigurations[s].processorConfigurations[p]: unknown key "documentaton"`,
		`line 24: streamConfigurations[s].processorConfigurations[q].component: unknown processor component "pkg.processor.SplitTxt"`,
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("weir validate lacks %q:\n%s", want, errOut)
		}
	}
}
