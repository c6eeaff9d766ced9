package text_test

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/config"
	"github.com/weir-streams/weir/internal/engine"
	"github.com/weir-streams/weir/internal/plugins/text"
	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/streamtest"
)

// sampleParser builds the SplitText processor of a sample job file, from
// the job's own configuration.
func sampleParser(t *testing.T, file string) (component.Processor, map[string]string) {
	t.Helper()
	t.Setenv("BROKER_LIST", "")
	checked, err := config.LoadChecked(filepath.Join(streamtest.Root(), "conf", file), config.DefaultMaxJobBytes, streamtest.Registry())
	if err != nil {
		t.Fatalf("load %s: %v", file, err)
	}
	job := checked.Job
	for _, s := range job.DataFlow.Streams {
		for _, p := range s.Pipeline.Processors {
			if p.Component == text.SplitTextName {
				return newSplitTextConf(t, p.Values()), p.Values()
			}
		}
	}
	t.Fatalf("%s has no SplitText", file)
	return nil, nil
}

func parseAll(t *testing.T, p component.Processor, lines []string) []*record.Record {
	t.Helper()
	out := make([]*record.Record, len(lines))
	for i := 0; i < len(lines); i += 1000 {
		b := component.Batch{}
		for j := i; j < min(i+1000, len(lines)); j++ {
			r := record.New(record.DeriveID("pipeline_raw", 0, int64(j), 0), "", 0)
			r.SetString(record.FieldValue, lines[j])
			b.Records = append(b.Records, r)
			out[j] = r
		}
		if err := p.Process(context.Background(), &b); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// expectedFromRegex turns a record of the regex job into the record the
// grok job must give, by the differences docs/grok.md documents: a capture
// that is "-" or empty sets no field (grok writes (?:-|%{...}) and, as
// Logstash, drops empty captures), http_version loses its "HTTP/" prefix,
// and http_status and bytes_out are integers (the library's :int and :long).
func expectedFromRegex(t *testing.T, r *record.Record) map[string]record.Value {
	want := map[string]record.Value{}
	for _, f := range r.Fields() {
		s, isString := f.Value.AsString()
		switch {
		case !isString || f.Name == record.FieldValue || f.Name == record.FieldType || f.Name == record.FieldID:
			want[f.Name] = f.Value
		case s == "-" || s == "":
		case f.Name == "http_version":
			want[f.Name] = record.StringValue(strings.TrimPrefix(s, "HTTP/"))
		case f.Name == "http_status" || f.Name == "bytes_out":
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				t.Fatalf("%s %q of the regex job is not a number", f.Name, s)
			}
			want[f.Name] = record.IntValue(n)
		default:
			want[f.Name] = f.Value
		}
	}
	return want
}

// TestGrokSampleJobGivesTheRegexJobsRecords parses the 10,000 real lines
// with the SplitText of conf/index-apache-logs-grok.yml (grok,
// %{COMBINEDAPACHELOG}) and of conf/index-apache-logs-enrich.yml (the
// eleven-group regex) and wants, line by line, the same records but for
// the documented differences, and the same lines in error.
func TestGrokSampleJobGivesTheRegexJobsRecords(t *testing.T) {
	lines := streamtest.AccessLogLines(t)
	grokP, grokConf := sampleParser(t, "index-apache-logs-grok.yml")
	if !strings.Contains(grokConf["value.regex"], "%{COMBINEDAPACHELOG}") {
		t.Fatalf("the grok sample job does not use %%{COMBINEDAPACHELOG}: %q", grokConf["value.regex"])
	}
	regexP, regexConf := sampleParser(t, "index-apache-logs-enrich.yml")
	if regexConf["value.regex"] != streamtest.ApacheEnrichRegex {
		t.Fatalf("the enrichment sample job no longer holds the spec's regex")
	}
	got, want := parseAll(t, grokP, lines), parseAll(t, regexP, lines)
	diffs, errorsSeen := 0, 0
	for i := range lines {
		g, w := got[i], want[i]
		if g.HasErrors() != w.HasErrors() {
			t.Errorf("line %d: grok errors %q, regex errors %q: %s", i+1, g.Errors(), w.Errors(), lines[i])
			diffs++
			continue
		}
		if w.HasErrors() {
			errorsSeen++
			continue
		}
		exp := expectedFromRegex(t, w)
		if g.Len() != len(exp) {
			t.Errorf("line %d: grok gives %v, want %v", i+1, g, exp)
			diffs++
			continue
		}
		for name, v := range exp {
			if gv, ok := g.Get(name); !ok || !gv.Equal(v) {
				t.Errorf("line %d: field %s = %v, want %v: %s", i+1, name, gv, v, lines[i])
				diffs++
			}
		}
		if diffs > 20 {
			t.Fatal("too many differences")
		}
	}
	t.Logf("%d lines compared, %d error records on both sides", len(lines), errorsSeen)
}

// TestGrokSampleJobEndToEnd runs conf/index-apache-logs-grok.yml through the
// engine on an in-process Kafka broker, feeds it the 10,000 real lines, and
// wants every line on pipeline_events as an apache_log record with a
// record_time, and nothing on pipeline_errors.
func TestGrokSampleJobEndToEnd(t *testing.T) {
	broker := streamtest.StartBroker(t)
	broker.CreateTopic(t, "pipeline_raw", 4)
	t.Setenv("BROKER_LIST", broker.Addr)
	checked, err := config.LoadChecked(filepath.Join(streamtest.Root(), "conf", "index-apache-logs-grok.yml"), config.DefaultMaxJobBytes, streamtest.Registry())
	if err != nil {
		t.Fatal(err)
	}
	job := checked.Job
	streamtest.StartEngine(t, engine.Settings{UIPort: -1}, job.DataFlow)
	lines := streamtest.AccessLogLines(t)
	broker.ProduceLines(t, "pipeline_raw", lines)
	broker.WaitCount(t, "pipeline_events", int64(len(lines)), 5*time.Minute)
	events := streamtest.Decode(t, broker.Consume(t, "pipeline_events", len(lines), time.Minute))
	ids := map[string]bool{}
	for _, r := range events {
		ids[r.ID] = true
		if _, ok := r.Get("http_user_agent"); !ok {
			if s, _ := r.GetString(record.FieldValue); !strings.HasSuffix(s, `"-"`) {
				t.Errorf("record without http_user_agent: %v", r)
			}
		}
		if v, ok := r.Get(record.FieldTime); !ok || v.Kind() != record.Int {
			t.Fatalf("record_time is not epoch milliseconds: %v", r)
		}
	}
	if len(ids) != len(lines) {
		t.Fatalf("pipeline_events holds %d distinct records, want %d", len(ids), len(lines))
	}
	if n := broker.Count(t, "pipeline_errors"); n != 0 {
		t.Fatalf("pipeline_errors holds %d records, want none", n)
	}
}
