package text_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/weir-streams/weir/internal/plugins/text"
)

func TestRunGrok(t *testing.T) {
	in := combinedLine + "\nnot a log line\r\n" + combinedLine // the last line has no newline
	var out bytes.Buffer
	if err := text.RunGrok([]string{"%{COMBINEDAPACHELOG}", "grok.field.mapping=spec", "grok.match.field=pattern"}, strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("got %d lines, want 3:\n%s", len(lines), out.String())
	}
	want := `{"src_ip":"83.149.9.216","record_time":1431857103000,"http_method":"GET",` +
		`"http_query":"/presentations/logstash-monitorama-2013/images/kibana-search.png","http_version":"1.1",` +
		`"http_status":200,"bytes_out":203023,"http_referer":"http://semicomplete.com/presentations/logstash-monitorama-2013/",` +
		`"http_user_agent":"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_9_1) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/32.0.1700.77 Safari/537.36",` +
		`"pattern":"%{COMBINEDAPACHELOG}"}`
	if lines[0] != want || lines[2] != want {
		t.Errorf("line 1 = %s\nline 3 = %s\nwant     %s", lines[0], lines[2], want)
	}
	if lines[1] != `{"record_errors":["regex_matching_error: line does not match value.regex"]}` {
		t.Errorf("line 2 = %s", lines[1])
	}
}

// TestRunGrokMultiLine: with input.records=nul a multi-line message is one
// record, and the grok expression sees its line ends.
func TestRunGrokMultiLine(t *testing.T) {
	in := "SEVERE: boom\n\tat a.b(C.java:1)\n\x00INFO: fine\n\x00"
	var out bytes.Buffer
	if err := text.RunGrok([]string{"%{WORD:level}: %{GREEDYDATA:msg}", "input.records=nul"}, strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	want := `{"level":"SEVERE","msg":"boom\n\tat a.b(C.java:1)"}` + "\n" + `{"level":"INFO","msg":"fine"}` + "\n"
	if out.String() != want {
		t.Errorf("got\n%swant\n%s", out.String(), want)
	}
}

func TestRunGrokRefusesABadConfiguration(t *testing.T) {
	for args, want := range map[string]string{
		"":                       "missing PATTERN",
		"%{NOPE:x}":              `unknown pattern "NOPE"`,
		"%{INT:x} no-equals":     `argument "no-equals": want KEY=VALUE`,
		"%{INT:x} grok.nope=1":   `unknown property "grok.nope"`,
		"%{INT:x} value.fields=": "",
	} {
		var out bytes.Buffer
		err := text.RunGrok(strings.Fields(args), strings.NewReader("1\n"), &out)
		if want == "" {
			if err != nil {
				t.Errorf("%q: %v", args, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", args, err, want)
		}
		if out.Len() != 0 {
			t.Errorf("%q: wrote %q before refusing", args, out.String())
		}
	}
}
