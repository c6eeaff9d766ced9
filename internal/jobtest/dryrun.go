package jobtest

import (
	"bufio"
	"context"
	"fmt"
	"io"

	"github.com/weir-streams/weir/internal/config"
	"github.com/weir-streams/weir/internal/serialize"
)

// DryRunOptions configure DryRun.
type DryRunOptions struct {
	Options
	// Stream names the stream to run; empty means the job's only stream.
	Stream string
	// BatchSize is the number of lines run as one batch (1000 when 0).
	BatchSize int
}

// DryRunCounts are the records a dry run read and wrote.
type DryRunCounts struct {
	In, Out, Errors int
}

// DryRun reads messages from in, one per line, runs them through the
// stream's chain with no broker, and writes each output record as one line
// of JSON to out and each error record to errOut. Each line is a message
// value for the stream's input serializer: a raw line for "none", a JSON
// record for the JSON serializer. Datastore services are replaced by
// stand-ins that accept every record, so a dry run writes nothing
// anywhere.
func DryRun(ctx context.Context, checked *config.Checked, in io.Reader, out, errOut io.Writer, opts DryRunOptions) (DryRunCounts, error) {
	var n DryRunCounts
	opts.DryRun = true
	h, err := New(ctx, checked, opts.Stream, "", "", opts.Options)
	if err != nil {
		return n, err
	}
	defer h.Close(ctx)
	size := opts.BatchSize
	if size <= 0 {
		size = 1000
	}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	bw, be := bufio.NewWriter(out), bufio.NewWriter(errOut)
	batch := make([]Message, 0, size)
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		res, err := h.Run(ctx, batch)
		if err != nil {
			return err
		}
		n.In += len(batch)
		batch = batch[:0]
		var line []byte
		for _, o := range res.Outputs {
			line = serialize.AppendRecordJSON(line[:0], o.Record)
			line = append(line, '\n')
			w := bw
			if o.Dest == DestError {
				w = be
				n.Errors++
			} else {
				n.Out++
			}
			if _, err := w.Write(line); err != nil {
				return fmt.Errorf("write record: %w", err)
			}
		}
		if err := bw.Flush(); err != nil {
			return fmt.Errorf("write records: %w", err)
		}
		if err := be.Flush(); err != nil {
			return fmt.Errorf("write error records: %w", err)
		}
		return nil
	}
	for sc.Scan() {
		batch = append(batch, Message{Value: append([]byte(nil), sc.Bytes()...)})
		if len(batch) == size {
			if err := flush(); err != nil {
				return n, err
			}
		}
	}
	if err := sc.Err(); err != nil {
		return n, fmt.Errorf("read input: %w", err)
	}
	return n, flush()
}
