package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestValidateShowsNoSecret validates a job with secrets, read from a file
// and written inline, and problems next to them, with the verbose output:
// neither secret appears.
func TestValidateShowsNoSecret(t *testing.T) {
	dir := t.TempDir()
	const kafkaPW, mongoPW = "kafka-File-Secret-1", "mongo-Inline-Secret-2"
	pwFile := filepath.Join(dir, "kafka_password")
	if err := os.WriteFile(pwFile, []byte(kafkaPW+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	job := filepath.Join(dir, "job.yml")
	err := os.WriteFile(job, []byte(`
engine:
  component: pkg.engine.engine.BrokerStreamProcessingEngine
  configuration:
    engine.app.name: secrets
controllerServiceConfigurations:
  - controllerService: db
    component: pkg.service.docdb.DocDBControllerService
    configuration:
      docdb.uri: mongodb://weir:`+mongoPW+`@127.0.0.1:notaport/
      docdb.db.name: weir
      docdb.collection.name: events
streamConfigurations:
  - stream: s
    component: pkg.stream.engine.BrokerRecordStreamParallelProcessing
    configuration:
      broker.input.topics: raw
      broker.error.topics: errors
      broker.metadata.broker.list: localhost:9092
      broker.security.protocol: SASL_SSL
      broker.sasl.mechanism: SCRAM-SHA-999
      broker.sasl.username: weir
      broker.sasl.password: ${file:`+pwFile+`}
    processorConfigurations: []
`), 0o600)
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"validate", "--conf", job}, nil, &stdout, &stderr); code != 1 {
		t.Fatalf("exit code %d, want 1; stderr %s", code, stderr.String())
	}
	out := stdout.String() + stderr.String()
	for _, want := range []string{"docdb.uri", "broker.sasl.mechanism"} {
		if !strings.Contains(out, want) {
			t.Errorf("validate output lacks the problem of %s:\n%s", want, out)
		}
	}
	for _, secret := range []string{kafkaPW, mongoPW} {
		if strings.Contains(out, secret) {
			t.Errorf("validate output shows a secret:\n%s", out)
		}
	}
}
