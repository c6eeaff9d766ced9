package fields_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/plugins/fields"
	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/streamtest"
)

func TestDebugStream(t *testing.T) {
	for _, tt := range []struct {
		name  string
		props map[string]string
		lines int
		has   string
		not   string
	}{
		{"every record", nil, 10, "record.n=9\n", ""},
		{"sampled", map[string]string{"debug.sample": "4"}, 3, "record.n=8\n", "record.n=1\n"},
		{"filter", map[string]string{"debug.filter": "n:^[13]$"}, 2, "record.n=3\n", "record.n=2\n"},
		{"selection", map[string]string{"debug.selection": " n "}, 10, "record.n=0\n", "record_id"},
		{"selection of no field", map[string]string{"debug.selection": "not_there"}, 10, "record={}\n", "record.n"},
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
				r.Origin.Offset = int64(n)
				recs = append(recs, r)
				n++
			}
			if err := p.Process(context.Background(), &component.Batch{Records: recs}); err != nil {
				t.Fatal(err)
			}
		}
		var got []string
		for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
			if _, rest, ok := strings.Cut(line, " offset="); ok {
				got = append(got, strings.Fields(rest)[0])
			}
		}
		if strings.Join(got, " ") != tt.want {
			t.Errorf("%v: logged %v, want %s", tt.props, got, tt.want)
		}
	}
}

// TestDebugStreamJSONLogLine reads back the lines DebugStream writes
// through slog's JSON handler, with the stream and processor attributes the
// stream's logger carries: one line per record of the real access log, whose
// "record" is a JSON object equal, byte for byte, to the record's own JSON
// form (record.AppendFieldsJSON: same fields, order, types and escapes),
// and partition and offset from the input message.
func TestDebugStreamJSONLogLine(t *testing.T) {
	recs := streamtest.AccessLogRecords(t)
	for i, r := range recs {
		r.Origin.Offset = int64(1000 + i)
	}
	// Values of every kind, on the first record: nested maps, an array, a
	// float, a boolean, bytes and a null, as processors of the kit make
	// them (SetJsonAsFields, SplitField, IpToGeo).
	recs[0].Set("geo", record.MapValue(map[string]record.Value{"city": record.StringValue("Paris"),
		"location": record.MapValue(map[string]record.Value{"lat": record.FloatValue(48.8534), "lon": record.FloatValue(2.3488)})}))
	recs[0].Set("query_parts", record.ArrayValue([]record.Value{record.StringValue(""), record.StringValue("a b")}))
	recs[0].Set("is_asset", record.BoolValue(false))
	recs[0].Set("raw", record.BytesValue([]byte{0, 1, 0xff}))
	recs[0].Set("nothing", record.Value{})
	recs[0].Set("empty", record.MapValue(nil))
	recs[0].Set("not_a_number", record.FloatValue(math.NaN()))
	var buf bytes.Buffer
	p := newDebugStreamLogger(t, nil, slog.New(slog.NewJSONHandler(&buf, nil)).With("stream", "s", "processor", "debug"))
	if err := p.Process(context.Background(), &component.Batch{Partition: 3, Records: recs}); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(&buf)
	sc.Buffer(nil, 1<<20)
	n := 0
	for ; sc.Scan(); n++ {
		if n >= len(recs) {
			t.Fatalf("more lines than the %d records: %s", len(recs), sc.Text())
		}
		var line struct {
			Level, Msg, Stream, Processor string
			Partition, Offset             int64
			Record                        json.RawMessage
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatalf("line %d is not JSON: %v\n%s", n, err, sc.Text())
		}
		want := record.AppendFieldsJSON(nil, recs[n].Fields())
		if line.Level != "INFO" || line.Msg != "record" || line.Stream != "s" || line.Processor != "debug" ||
			line.Partition != 3 || line.Offset != int64(1000+n) || !bytes.Equal(line.Record, want) {
			t.Fatalf("line %d:\n%s\nwant the record\n%s", n, sc.Text(), want)
		}
	}
	if n != len(recs) {
		t.Fatalf("%d lines for %d records", n, len(recs))
	}
}

// TestDebugStreamTextLogLine: through slog's text handler (the engine's
// default), a logged record is one line with one key=value pair per field,
// prefixed record., quoted only where a value needs it.
func TestDebugStreamTextLogLine(t *testing.T) {
	r := streamtest.AccessLogRecords(t)[0]
	r.Origin.Offset = 7
	r.Set("bytes_out", record.IntValue(7))
	r.Set("geo", record.MapValue(map[string]record.Value{"city": record.StringValue("Paris"), "lat": record.FloatValue(48.8534)}))
	r.Set("query_parts", record.ArrayValue([]record.Value{record.StringValue("a")}))
	var buf bytes.Buffer
	p := newDebugStream(t, nil, &buf)
	process(t, p, r)
	out := buf.String()
	if strings.Count(out, "\n") != 1 {
		t.Fatalf("want one line:\n%s", out)
	}
	ip, _ := r.GetString("src_ip")
	ua, _ := r.GetString("http_user_agent")
	raw, _ := r.GetString(record.FieldValue)
	for _, want := range []string{
		" level=INFO msg=record partition=0 offset=7 record.record_id=0 record.record_type=apache_log ",
		" record.record_value=" + strconv.Quote(raw) + " ",
		" record.src_ip=" + ip + " record.identd=- record.user=- record.record_time=",
		" record.http_method=GET ",
		" record.http_user_agent=" + strconv.Quote(ua) + " ",
		" record.bytes_out=7 ",
		" record.geo.city=Paris record.geo.lat=48.8534 record.query_parts=\"[\\\"a\\\"]\"\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("line lacks %q:\n%s", want, out)
		}
	}
}

// newDebugStream builds a DebugStream with props that logs as text to out.
func newDebugStream(t *testing.T, props map[string]string, out io.Writer) component.Processor {
	t.Helper()
	return newDebugStreamLogger(t, props, slog.New(slog.NewTextHandler(out, nil)))
}

// newDebugStreamLogger builds a DebugStream with props that logs to log.
func newDebugStreamLogger(t *testing.T, props map[string]string, log *slog.Logger) component.Processor {
	t.Helper()
	spec := fields.DebugStreamSpec()
	conf, probs := component.NewConfig(&spec, props)
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	p, err := spec.NewProcessor(conf, component.Env{Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	return p
}
