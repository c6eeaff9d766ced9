package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestCLIBehavesAsAUnixTool: usage without arguments, help commands and
// --help on stdout with exit 0, unused arguments refused, and no message
// that starts with a bare colon.
func TestCLIBehavesAsAUnixTool(t *testing.T) {
	cases := []struct {
		args   []string
		code   int
		stdout string // substring wanted on stdout ("" = stdout empty)
		stderr string // substring wanted on stderr ("" = stderr empty)
	}{
		{args: nil, code: 2, stderr: "Usage:"},
		{args: []string{"help"}, code: 0, stdout: "Usage:"},
		{args: []string{"--help"}, code: 0, stdout: "weir help [COMMAND]"},
		{args: []string{"-h"}, code: 0, stdout: "Usage:"},
		{args: []string{"help", "validate"}, code: 0, stdout: "Usage: weir validate FILE..."},
		{args: []string{"validate", "--help"}, code: 0, stdout: "Usage: weir validate FILE..."},
		{args: []string{"help", "run"}, code: 0, stdout: "--remote-dir DIR"},
		{args: []string{"help", "run"}, code: 0, stdout: "--max-job-bytes N"},
		{args: []string{"help"}, code: 0, stdout: "weir -l                             list installed plugins and the LogIsland artifacts built in"},
		{args: []string{"help", "nope"}, code: 2, stderr: `unknown command "nope"`},
		{args: []string{"validate", "../../conf/quickstart.yml", "../../conf/index-apache-logs.yml"}, code: 0, stdout: "../../conf/index-apache-logs.yml: valid"},
		{args: []string{"validate", "../../conf/quickstart.yml", "--max-job-bytes", "10", "../../conf/index-apache-logs.yml"}, code: 1, stderr: "../../conf/index-apache-logs.yml: "},
		{args: []string{"components", "splittext"}, code: 0, stdout: "## pkg.processor.SplitText (processor)"},
		{args: []string{"components", "pkg.processor.FilterRecords"}, code: 0, stdout: "Free-form keys: any other key is a condition"},
		{args: []string{"components", "SplitTxt"}, code: 1, stderr: `weir components: no component "SplitTxt"; did you mean "SplitText"?`},
		{args: []string{"components", "a", "b"}, code: 2, stderr: "weir components: one component at a time"},
		{args: []string{"useragent", "fields"}, code: 2, stderr: `weir useragent: argument "fields": want KEY=VALUE`},
		{args: []string{"useragent", "field=AgentName"}, code: 2, stderr: `key "field" is not used here: give fields or cache.size (did you mean "fields"?)`},
		{args: []string{"useragent", "fields=AgentNam"}, code: 2, stderr: `did you mean "AgentName"?`},
		{args: []string{"version", "extra"}, code: 2, stderr: `weir version: unexpected argument "extra"`},
		{args: []string{"components", "--conf", "a.yml"}, code: 2, stderr: "weir components: --conf is not used"},
		{args: []string{"validate"}, code: 2, stderr: "weir validate: no job file: give FILE... or --conf FILE"},
		{args: []string{"run"}, code: 1, stderr: "weir run: no job file"},
		{args: []string{"nope"}, code: 2, stderr: `weir: unknown command "nope"`},
	}
	for _, c := range cases {
		var stdout, stderr bytes.Buffer
		code := run(c.args, strings.NewReader(""), &stdout, &stderr)
		if code != c.code {
			t.Errorf("weir %q: exit %d, want %d (stderr %q)", c.args, code, c.code, stderr.String())
		}
		check := func(name, got, want string) {
			if want == "" && got != "" {
				t.Errorf("weir %q: %s %q, want nothing", c.args, name, got)
			}
			if !strings.Contains(got, want) {
				t.Errorf("weir %q: %s %q, want it to contain %q", c.args, name, got, want)
			}
			for _, line := range strings.Split(got, "\n") {
				if strings.HasPrefix(line, ":") {
					t.Errorf("weir %q: %s line starts with a colon: %q", c.args, name, line)
				}
			}
		}
		check("stdout", stdout.String(), c.stdout)
		check("stderr", stderr.String(), c.stderr)
	}
}

// TestUserAgentFields: weir useragent takes ParseUserAgent's fields, as
// weir grok takes SplitText's keys, and writes those attributes in order.
func TestUserAgentFields(t *testing.T) {
	var stdout, stderr bytes.Buffer
	in := "Mozilla/5.0 (X11; Linux x86_64; rv:109.0) Gecko/20100101 Firefox/115.0\ncurl/8.5.0\n"
	if code := run([]string{"useragent", "fields=AgentName,DeviceClass"}, strings.NewReader(in), &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d lines, want 2: %s", len(lines), stdout.String())
	}
	for _, l := range lines {
		var m map[string]string
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("not JSON: %v: %s", err, l)
		}
		if len(m) != 2 || m["AgentName"] == "" || m["DeviceClass"] == "" || !strings.HasPrefix(l, `{"AgentName":`) {
			t.Errorf("line %s, want AgentName then DeviceClass only", l)
		}
	}
	if !strings.Contains(lines[0], `"AgentName":"Firefox"`) {
		t.Errorf("Firefox not recognised: %s", lines[0])
	}
}
