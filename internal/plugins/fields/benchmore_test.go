package fields_test

import (
	"context"
	"io"
	"log/slog"
	"strconv"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/metrics"
	"github.com/weir-streams/weir/internal/plugins/fields"
	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/streamtest"
)

// BenchmarkProcessorsMore measures the kit processors that
// BenchmarkProcessors leaves out, in its two settings (Cold: the 10,000
// records cycled; Hot: one batch of 500 again and again), on the records
// of the real access log with three more fields that a realistic job has
// at that point, each made from the record's own values:
//
//   - date_raw: the date as the log writes it, "17/May/2015:10:05:03
//     +0000" (a SplitText regex that keeps the date as text, as LogIsland's
//     Apache samples do, before ConvertSimpleDateFormatFields turns it into
//     epoch milliseconds with LogIsland's documented pattern
//     dd/MMM/yyyy:HH:mm:ss Z);
//   - properties: key=value pairs separated by spaces, as an application
//     log or a syslog structured part carries them:
//     "method=GET status=200 bytes=203023 version=HTTP/1.1" (56-70 bytes);
//   - payload: a small JSON object, as a service logging JSON sends it:
//     {"method":"GET","status":200,"bytes":203023,"path":"/presentations/..."}
//     (the request's own path: 60-200 bytes).
//
// ParseProperties and SetJsonAsFields remove the field they parse (their
// default), so every case sets the three fields back before each batch,
// timed: the Restore line is that alone, and a processor's own cost is its
// line minus Restore's. Each case runs on its own copy of the records, so
// that the fields one case adds do not lengthen the records of the next.
func BenchmarkProcessorsMore(b *testing.B) {
	base := streamtest.AccessLogRecords(b)
	inputs := []string{"date_raw", "properties", "payload"}
	saved := make([][]record.Value, len(base))
	for i, r := range base {
		r.Remove(record.FieldValue)
		ms, _ := r.Get(record.FieldTime)
		n, _ := ms.AsInt()
		get := func(f string) string { s, _ := r.GetString(f); return s }
		date := time.UnixMilli(n).UTC().Format("02/Jan/2006:15:04:05 -0700")
		props := "method=" + get("http_method") + " status=" + get("http_status") + " bytes=" + get("bytes_out") +
			" version=" + get("http_version")
		bytesOut := get("bytes_out")
		if _, err := strconv.Atoi(bytesOut); err != nil {
			bytesOut = "0" // Apache's "-" for no body
		}
		payload := `{"method":"` + get("http_method") + `","status":` + get("http_status") + `,"bytes":` + bytesOut +
			`,"path":` + strconv.Quote(get("http_query")) + `}`
		saved[i] = []record.Value{record.StringValue(date), record.StringValue(props), record.StringValue(payload)}
	}
	restore := func(i int, r *record.Record) {
		for j, f := range inputs {
			r.Set(f, saved[i][j])
		}
	}
	for i, r := range base {
		restore(i, r)
	}
	discard := slog.New(slog.NewTextHandler(io.Discard, nil))
	for _, bc := range []struct {
		name  string
		spec  component.Spec
		props map[string]string
		log   *slog.Logger
	}{
		{"Restore", component.Spec{}, nil, nil},
		{"ConvertSimpleDateFormatFields", fields.ConvertSimpleDateFormatFieldsSpec(),
			map[string]string{"input.date.format": "dd/MMM/yyyy:HH:mm:ss Z", "event_time": "${date_raw}", "conflict.resolution.policy": "overwrite_existing"}, nil},
		{"ParseProperties", fields.ParsePropertiesSpec(), map[string]string{"properties.field": "properties"}, nil},
		{"SetJsonAsFields", fields.SetJsonAsFieldsSpec(), map[string]string{"json.field": "payload"}, nil},
		{"EvaluateJsonPath", fields.EvaluateJsonPathSpec(), map[string]string{"json.input.field.name": "payload", "req_path": "$.path"}, nil},
		{"EvaluateJsonPathTwo", fields.EvaluateJsonPathSpec(), map[string]string{"json.input.field.name": "payload", "req_path": "$.path", "req_status": "$.status"}, nil},
		// RouteRecords as the sample job configures it, and by a field.
		{"RouteRecordsExpression", fields.RouteRecordsSpec(), map[string]string{"output.topic.expression": `http_status startsWith "5" ? "pipeline_events_5xx" : "pipeline_events"`}, nil},
		{"RouteRecordsField", fields.RouteRecordsSpec(), map[string]string{"output.topic.field": "http_method", "output.topic.default": "other"}, nil},
		// DebugStream logging through a text handler into io.Discard:
		// every record, one in 100, and with the stream's logger at warn
		// level (the processor then does nothing).
		{"DebugStreamEvery", fields.DebugStreamSpec(), map[string]string{"debug.sample": "1"}, discard},
		{"DebugStreamSample100", fields.DebugStreamSpec(), map[string]string{"debug.sample": "100"}, discard},
		{"DebugStreamSample100000", fields.DebugStreamSpec(), map[string]string{"debug.sample": "100000"}, discard},
		{"DebugStreamLevelWarn", fields.DebugStreamSpec(), map[string]string{"debug.sample": "1"},
			slog.New(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelWarn}))},
		// Every record through the JSON handler (--log-format json), and
		// the floor of a logged record: the record rendered as JSON by
		// record.AppendFieldsJSON into a reused buffer, nothing else.
		{"DebugStreamEveryJSON", fields.DebugStreamSpec(), map[string]string{"debug.sample": "1"},
			slog.New(slog.NewJSONHandler(io.Discard, nil))},
		{"DebugStreamFloor", component.Spec{}, map[string]string{}, nil},
	} {
		recs := make([]*record.Record, len(base))
		for i, r := range base {
			recs[i] = r.Clone()
		}
		benchColdHot(b, bc.name, recs, restore, func(b *testing.B) component.Processor {
			if bc.props == nil {
				return nothing{}
			}
			if bc.spec.Name == "" {
				return &appendJSONFloor{}
			}
			return buildLogged(b, bc.spec, bc.props, bc.log)
		}, func(b *testing.B, recs []*record.Record) {
			for _, r := range recs {
				if r.HasErrors() {
					b.Fatalf("%s: record %s has errors: %v", bc.name, r.ID, r.Errors())
				}
			}
		})
	}
}

// appendJSONFloor renders each record of a batch as JSON into one reused
// buffer: what any logged form of the whole record costs at the least.
type appendJSONFloor struct{ buf []byte }

func (p *appendJSONFloor) Process(_ context.Context, b *component.Batch) error {
	for _, r := range b.Records {
		p.buf = record.AppendFieldsJSON(p.buf[:0], r.Fields())
	}
	return nil
}

// buildLogged is build with a logger (nil: none, as build does).
func buildLogged(b *testing.B, spec component.Spec, props map[string]string, log *slog.Logger) component.Processor {
	b.Helper()
	if log == nil {
		p, _ := build(b, spec, props)
		return p
	}
	conf, probs := component.NewConfig(&spec, props)
	if len(probs) > 0 {
		b.Fatal(probs)
	}
	p, err := spec.NewProcessor(conf, component.Env{Name: "p", Stream: "s", Logger: log, Metrics: metrics.New(prometheus.NewRegistry())})
	if err != nil {
		b.Fatal(err)
	}
	return p
}
