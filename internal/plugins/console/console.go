// Package console holds PrintRecords, which writes records to standard
// output: what LogIsland's ConsoleStructuredStreamProviderService does as
// the sink of a structured stream (internal/logisland turns that service
// into this processor at the end of the stream's chain).
package console

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/serialize"
)

// Name is the processor's identifier.
const Name = "pkg.processor.console.PrintRecords"

// Spec declares PrintRecords.
func Spec() component.Spec {
	return component.ProcessorSpec(component.Spec{
		Name: Name,
		Summary: "Writes every record to standard output, one JSON object per line (JsonSerializer's form), and passes it on unchanged. " +
			"LogIsland's ConsoleStructuredStreamProviderService as a write provider becomes this processor at the end of the chain.",
		Properties: []component.Property{
			{Key: "rows", Description: "LogIsland's rows shown per Spark trigger; accepted and ignored: every record is written."},
			{Key: "truncate", Description: "LogIsland's truncation of long values in Spark's table; accepted and ignored: values are written whole."},
		},
	}, newPrintRecords)
}

// PrintRecordsConfig is PrintRecords' configuration: LogIsland's console
// keys, which shape Spark's table and mean nothing for one JSON line a
// record, are accepted and left unused.
type PrintRecordsConfig struct {
	_ struct{} `key:"rows,ignored"`
	_ struct{} `key:"truncate,ignored"`
}

func newPrintRecords(*PrintRecordsConfig, component.Env) (component.Processor, error) {
	return &PrintRecords{w: stdout}, nil
}

// stdout is shared by every PrintRecords of the process, so that lines of
// two streams never interleave.
var stdout = &lockedWriter{w: os.Stdout}

type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

// PrintRecords is the processor. It is safe for concurrent use.
type PrintRecords struct {
	w *lockedWriter
}

// Process writes the batch's records, one line each, in one write.
func (p *PrintRecords) Process(_ context.Context, b *component.Batch) error {
	if len(b.Records) == 0 {
		return nil
	}
	p.w.mu.Lock()
	defer p.w.mu.Unlock()
	bw := bufio.NewWriter(p.w.w)
	var line []byte
	for _, r := range b.Records {
		line = serialize.AppendRecordJSON(line[:0], r)
		line = append(line, '\n')
		if _, err := bw.Write(line); err != nil {
			return fmt.Errorf("write records to standard output: %w", err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write records to standard output: %w", err)
	}
	return nil
}
