package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/localfile"
)

func TestExpandFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	nl := write("nl", "pa$$word\n")
	crlf := write("crlf", "pa$$word\r\n")
	two := write("two", "pa$$word\n\n")
	big := write("big", strings.Repeat("x", int(localfile.Secret)+1))
	link := filepath.Join(dir, "link")
	if err := os.Symlink(nl, link); err != nil {
		t.Fatal(err)
	}
	noenv := func(string) (string, bool) { return "", false }
	for _, c := range []struct{ in, want, errWant string }{
		{in: "${file:" + nl + "}", want: "pa$$word"},
		{in: "${file:" + crlf + "}", want: "pa$$word"},
		{in: "${file:" + two + "}", want: "pa$$word\n"},
		{in: "${file:" + link + "}", want: "pa$$word"},
		{in: "mongodb://u:${file:" + nl + "}@db:27017/", want: "mongodb://u:pa$$word@db:27017/"},
		{in: "$${file:" + nl + "}", want: "${file:" + nl + "}"},
		{in: "${file:" + filepath.Join(dir, "missing") + "}", errWant: "no such file"},
		{in: "${file:" + dir + "}", errWant: "not a regular file"},
		{in: "${file:" + big + "}", errWant: "larger than 64 KiB"},
		{in: "${file:}", errWant: "names no file"},
	} {
		got, err := Expand(c.in, noenv)
		if c.errWant != "" {
			if err == nil || !strings.Contains(err.Error(), c.errWant) {
				t.Errorf("Expand(%q) = %q, %v; want an error with %q", c.in, got, err, c.errWant)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("Expand(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}

// TestJobSecretFromFile reads a stream's SASL password from a file through
// the job loader.
func TestJobSecretFromFile(t *testing.T) {
	pw := filepath.Join(t.TempDir(), "kafka_password")
	if err := os.WriteFile(pw, []byte("from-the-file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	job := `
engine:
  component: pkg.engine.engine.BrokerStreamProcessingEngine
  configuration:
    engine.app.name: secret_job
streamConfigurations:
  - stream: s
    component: pkg.stream.engine.BrokerRecordStreamParallelProcessing
    configuration:
      broker.input.topics: in
      broker.error.topics: err
      broker.metadata.broker.list: 127.0.0.1:9092
      broker.security.protocol: SASL_SSL
      broker.sasl.username: weir
      broker.sasl.password: ${file:` + pw + `}
    processorConfigurations: []
`
	j, err := Parse([]byte(job), time.Now(), func(string) (string, bool) { return "", false })
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := j.DataFlow.Streams[0].Component.Value("broker.sasl.password"); got != "from-the-file" {
		t.Errorf("broker.sasl.password = %q, want the file's content without its newline", got)
	}
}
