package fields_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"testing"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/plugins/fields"
	"github.com/weir-streams/weir/internal/record"
)

func TestDebugStream(t *testing.T) {
	for _, tt := range []struct {
		name  string
		props map[string]string
		lines int
		has   string
		not   string
	}{
		{"every record", nil, 10, `\"n\":9`, ""},
		{"sampled", map[string]string{"debug.sample": "4"}, 3, `\"n\":8`, `\"n\":1,`},
		{"filter", map[string]string{"debug.filter": "n:^[13]$"}, 2, `\"n\":3`, `\"n\":2`},
		{"selection", map[string]string{"debug.selection": " n "}, 10, `record="{\"n\":0}"`, "record_id"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			p := newDebugStream(t, tt.props, &buf)
			var recs []*record.Record
			for i := 0; i < 10; i++ {
				recs = append(recs, rec("n", i))
			}
			b := &component.Batch{Records: recs}
			if err := p.Process(context.Background(), b); err != nil || len(b.Records) != 10 {
				t.Fatalf("process: %v, %d records", err, len(b.Records))
			}
			out := buf.String()
			if n := strings.Count(out, "msg=record"); n != tt.lines {
				t.Errorf("%d lines logged, want %d:\n%s", n, tt.lines, out)
			}
			if !strings.Contains(out, tt.has) || (tt.not != "" && strings.Contains(out, tt.not)) {
				t.Errorf("log lacks %s or holds %s:\n%s", tt.has, tt.not, out)
			}
		})
	}
}

// TestDebugStreamSamplesAcrossBatches: one record in N is logged counting
// across batches of any size (the first, the N+1st, ...), with and
// without a filter (which counts only the records it lets through).
func TestDebugStreamSamplesAcrossBatches(t *testing.T) {
	for _, tt := range []struct {
		props map[string]string
		want  string
	}{
		{map[string]string{"debug.sample": "4"}, "0 4 8 12 16"},
		{map[string]string{"debug.sample": "1"}, "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16"},
		{map[string]string{"debug.sample": "20"}, "0"},
		{map[string]string{"debug.sample": "3", "debug.filter": "n:[02468]$"}, "0 6 12"},
	} {
		var buf bytes.Buffer
		p := newDebugStream(t, tt.props, &buf)
		n := 0
		for _, size := range []int{3, 5, 0, 2, 7} {
			var recs []*record.Record
			for i := 0; i < size; i++ {
				r := rec("n", n)
				r.ID = strconv.Itoa(n)
				recs = append(recs, r)
				n++
			}
			if err := p.Process(context.Background(), &component.Batch{Records: recs}); err != nil {
				t.Fatal(err)
			}
		}
		var got []string
		for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
			if _, rest, ok := strings.Cut(line, " id="); ok {
				got = append(got, strings.Fields(rest)[0])
			}
		}
		if strings.Join(got, " ") != tt.want {
			t.Errorf("%v: logged %v, want %s", tt.props, got, tt.want)
		}
	}
}

// newDebugStream builds a DebugStream with props that logs as text to out.
func newDebugStream(t *testing.T, props map[string]string, out io.Writer) component.Processor {
	t.Helper()
	spec := fields.DebugStreamSpec()
	conf, probs := component.NewConfig(&spec, props)
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	p, err := spec.NewProcessor(conf, component.Env{Logger: slog.New(slog.NewTextHandler(out, nil))})
	if err != nil {
		t.Fatal(err)
	}
	return p
}
