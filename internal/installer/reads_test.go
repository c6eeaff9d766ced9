package installer

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/weir-streams/weir/examples/plugins/urlrequest"
	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/pluginrpc"
	"github.com/weir-streams/weir/internal/record"
)

// TestPluginReadsDeclaredFields runs the example plugin as a process: it
// declares that it reads only its url.field, so Weir sends it that field
// (and the technical ones) of each record, and the record's other fields,
// one of them a megabyte, pass through the plugin unchanged without being
// sent to it.
func TestPluginReadsDeclaredFields(t *testing.T) {
	data, err := os.ReadFile(examplePlugin)
	if err != nil {
		t.Fatal(err)
	}
	req := pluginrpc.ConfigureRequest{Component: urlrequest.Name, Name: "url", Stream: "reads",
		Values: map[string]string{"url.field": "target"}}
	p, err := newProcessor(context.Background(), examplePlugin, SumHex(data), req, 0, testLogger(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close(context.Background()) })
	if p.cur.all || !slices.Equal(p.cur.reads, []string{"target"}) {
		t.Fatalf("instance reads all=%v %v, want [target]", p.cur.all, p.cur.reads)
	}
	big := strings.Repeat("x", 1<<20)
	var recs []*record.Record
	for _, target := range []string{"/a/b.html?q=1", "/c"} {
		r := record.New("id"+target, "apache_log", 1700000000000)
		r.Origin = record.Origin{Topic: "raw", Offset: 3}
		r.SetString("before", "kept")
		r.SetString("target", target)
		r.SetString("big", big)
		r.Set("bytes_out", record.IntValue(512))
		r.SetString("query_q", "stale")
		recs = append(recs, r)
	}
	b := &component.Batch{Topic: "raw", Records: recs}
	if err := p.Process(context.Background(), b); err != nil {
		t.Fatal(err)
	}
	// The undeclared megabyte fields were not encoded for the plugin.
	if n := p.lastSize.Load(); n >= 1<<20 {
		t.Errorf("the batch sent to the plugin was %d bytes: undeclared fields were sent", n)
	}
	if len(b.Records) != 2 {
		t.Fatalf("%d records out, want 2", len(b.Records))
	}
	want := [][]string{
		{record.FieldID, record.FieldType, "before", "target", "big", "bytes_out", "query_q", "url_path", "url_extension"},
		{record.FieldID, record.FieldType, "before", "target", "big", "bytes_out", "query_q", "url_path"},
	}
	for i, r := range b.Records {
		var names []string
		for _, f := range r.Fields() {
			names = append(names, f.Name)
		}
		if !slices.Equal(names, want[i]) {
			t.Errorf("record %d fields %v, want %v", i, names, want[i])
		}
		if s, _ := r.GetString("before"); s != "kept" {
			t.Errorf("record %d before = %q", i, s)
		}
		if s, _ := r.GetString("big"); s != big {
			t.Errorf("record %d big changed (%d bytes)", i, len(s))
		}
		if v, _ := r.Get("bytes_out"); v.Text() != "512" || v.Kind() != record.Int {
			t.Errorf("record %d bytes_out = %v", i, v)
		}
		if r.HasErrors() {
			t.Errorf("record %d errors %v", i, r.Errors())
		}
	}
	// A parameter field the record had is replaced by the parsed one; a
	// record whose target has no such parameter keeps its own.
	if s, _ := b.Records[0].GetString("query_q"); s != "1" {
		t.Errorf("record 0 query_q = %q, want 1", s)
	}
	if s, _ := b.Records[1].GetString("query_q"); s != "stale" {
		t.Errorf("record 1 query_q = %q, want stale (untouched)", s)
	}
	if s, _ := b.Records[0].GetString("url_path"); s != "/a/b.html" {
		t.Errorf("record 0 url_path = %q", s)
	}
}
