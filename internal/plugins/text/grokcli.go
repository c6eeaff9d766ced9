package text

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/record"
)

// GrokUsage describes the arguments of RunGrok, for the command's help.
const GrokUsage = `weir grok PATTERN [KEY=VALUE ...]
  Parses each line of stdin with PATTERN (grok or regular expression, as
  SplitText's value.regex) and writes one JSON object per line: the fields,
  or record_errors when the line does not match. KEY=VALUE pairs set other
  SplitText keys, e.g. grok.field.mapping=spec or grok.patterns.dir=DIR.
  input.records=nul reads records separated by NUL bytes instead of lines,
  so that a multi-line message (a stack trace) is one record, as a Kafka
  message is in a job.`

// KeyInputRecords is weir grok's own key: how stdin is cut into records.
const KeyInputRecords = "input.records"

// RunGrok is the logic of weir grok: it builds the SplitText a job with
// value.regex PATTERN and the given keys would run, so that what a user
// tries is what the job will do, parses each line of r with it and writes
// one JSON object per line to w. A configuration error is returned before
// any line is read.
func RunGrok(args []string, r io.Reader, w io.Writer) error {
	if len(args) == 0 {
		return fmt.Errorf("missing PATTERN; usage: %s", GrokUsage)
	}
	values := map[string]string{KeyValueRegex: args[0]}
	sep := byte('\n')
	for _, kv := range args[1:] {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return fmt.Errorf("argument %q: want KEY=VALUE", kv)
		}
		if k == KeyInputRecords {
			switch v {
			case "lines":
			case "nul":
				sep = 0
			default:
				return fmt.Errorf("argument %q: want %s=lines or %s=nul", kv, KeyInputRecords, KeyInputRecords)
			}
			continue
		}
		values[k] = v
	}
	spec := SplitTextSpec()
	conf, probs := component.NewConfig(&spec, values)
	if err := probs.Err(); err != nil {
		return err
	}
	p, err := spec.NewProcessor(conf, component.Env{Name: "grok"})
	if err != nil {
		return err
	}
	br := bufio.NewReaderSize(r, 64*1024)
	bw := bufio.NewWriterSize(w, 64*1024)
	var buf []byte
	for n := int64(0); ; n++ {
		line, rerr := br.ReadString(sep)
		if rerr != nil && !errors.Is(rerr, io.EOF) {
			return fmt.Errorf("read lines: %w", rerr)
		}
		if line == "" && errors.Is(rerr, io.EOF) {
			break
		}
		if sep == 0 {
			// A record ends at NUL; its line ends are part of it. A
			// trailing line end (printf '...\n\0') is not.
			line = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(line, "\x00"), "\n"), "\r")
		} else {
			line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
		}
		rec := record.New(record.DeriveID("stdin", 0, n, 0), "", 0)
		rec.SetString(record.FieldValue, line)
		if err := p.Process(context.Background(), &component.Batch{Records: []*record.Record{rec}}); err != nil {
			return fmt.Errorf("line %d: %w", n+1, err)
		}
		buf = appendFields(buf[:0], rec)
		if _, err := bw.Write(buf); err != nil {
			return fmt.Errorf("write result: %w", err)
		}
		if errors.Is(rerr, io.EOF) {
			break
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write result: %w", err)
	}
	return nil
}

// appendFields writes the fields the expression set, and record_errors if
// any, without the technical fields the command itself set, as one JSON
// line.
func appendFields(buf []byte, r *record.Record) []byte {
	buf = append(buf, '{')
	first := true
	for _, f := range r.Fields() {
		switch f.Name {
		case record.FieldValue, record.FieldType, record.FieldID:
			continue
		}
		if !first {
			buf = append(buf, ',')
		}
		first = false
		buf = record.AppendJSON(buf, record.StringValue(f.Name))
		buf = append(buf, ':')
		buf = record.AppendJSON(buf, f.Value)
	}
	return append(buf, '}', '\n')
}
