package console

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/record"
)

// TestPrintRecordsWritesEachRecord: one JSON line per record, in
// JsonSerializer's form, and the records pass on unchanged.
func TestPrintRecordsWritesEachRecord(t *testing.T) {
	var out bytes.Buffer
	p := &PrintRecords{w: &lockedWriter{w: &out}}
	a := record.New("a", "apache_log", 1)
	a.Set("src_ip", record.StringValue("10.0.0.1"))
	b := record.New("b", "apache_log", 2)
	b.Set("http_status", record.IntValue(404))
	batch := &component.Batch{Records: []*record.Record{a, b}}
	if err := p.Process(context.Background(), batch); err != nil {
		t.Fatal(err)
	}
	if len(batch.Records) != 2 || batch.Records[0] != a {
		t.Fatal("records were not passed on")
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d lines: %q", len(lines), out.String())
	}
	var got struct {
		ID     string         `json:"id"`
		Fields map[string]any `json:"fields"`
	}
	if err := json.Unmarshal([]byte(lines[1]), &got); err != nil || got.ID != "b" || got.Fields["http_status"] != float64(404) {
		t.Errorf("second line %q (%v)", lines[1], err)
	}
}

type failing struct{}

func (failing) Write([]byte) (int, error) { return 0, errors.New("closed") }

// TestPrintRecordsWriteError: a standard output that cannot be written
// fails the batch (its records become error records, nothing is lost).
func TestPrintRecordsWriteError(t *testing.T) {
	p := &PrintRecords{w: &lockedWriter{w: failing{}}}
	err := p.Process(context.Background(), &component.Batch{Records: []*record.Record{record.New("a", "t", 0)}})
	if err == nil || !strings.Contains(err.Error(), "standard output") {
		t.Errorf("error %v", err)
	}
}
