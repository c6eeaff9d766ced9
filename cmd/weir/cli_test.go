package main

import (
	"bytes"
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
		{args: []string{"help", "validate"}, code: 0, stdout: "Usage: weir validate --conf FILE"},
		{args: []string{"validate", "--help"}, code: 0, stdout: "Usage: weir validate --conf FILE"},
		{args: []string{"help", "nope"}, code: 2, stderr: `unknown command "nope"`},
		{args: []string{"validate", "--conf", "a.yml", "b.yml"}, code: 2, stderr: `weir validate: unexpected argument "b.yml"`},
		{args: []string{"version", "extra"}, code: 2, stderr: `weir version: unexpected argument "extra"`},
		{args: []string{"components", "--conf", "a.yml"}, code: 2, stderr: "weir components: --conf is not used"},
		{args: []string{"validate"}, code: 1, stderr: "weir validate: no job file: give --conf FILE"},
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
