package sdk

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/weir-streams/weir/internal/pluginrpc"
	"github.com/weir-streams/weir/internal/record"
)

// seenProcessor records the field names of every record it is given and
// sets "out" to the upper-cased configured input field.
type seenProcessor struct {
	in   string
	mu   sync.Mutex
	seen [][]string
}

func (p *seenProcessor) Process(_ context.Context, b *Batch) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, r := range b.Records {
		var names []string
		for _, f := range r.Fields() {
			names = append(names, f.Name)
		}
		p.seen = append(p.seen, names)
		if s, ok := r.GetString(p.in); ok {
			r.SetString("out", strings.ToUpper(s))
		}
		// Removing a field it was not sent changes nothing on the host.
		r.Remove("secret")
	}
	return nil
}

// TestReadsSendsOnlyDeclaredFields runs a batch through the plugin side of
// the service, as the host does (Configure, then the batch encoded for the
// instance's declared fields, decoded, processed and its changes applied):
// a processor that declares Reads receives only those fields (and the
// record headers with their mirror fields record_id and record_type), and the host's records keep every other field unchanged
// and in place; one that declares nothing receives every field.
func TestReadsSendsOnlyDeclaredFields(t *testing.T) {
	var procs []*seenProcessor
	spec := func(name string, reads func(Config) []string) ProcessorSpec {
		return ProcessorSpec{
			Name:       name,
			Properties: []Property{{Key: "in", Default: "target"}},
			Reads:      reads,
			New: func(conf Config, _ Env) (Processor, error) {
				p := &seenProcessor{in: conf.String("in")}
				procs = append(procs, p)
				return p, nil
			},
		}
	}
	svc, err := newService([]ProcessorSpec{
		spec("test.Declared", func(conf Config) []string { return []string{conf.String("in")} }),
		spec("test.All", nil),
	})
	if err != nil {
		t.Fatal(err)
	}
	hostRecords := func() []*record.Record {
		var recs []*record.Record
		for _, target := range []string{"/a", "/b"} {
			r := record.New("id"+target, "apache_log", 1700000000000)
			r.Origin = record.Origin{Topic: "raw", Partition: 2, Offset: 7}
			r.SetString("before", "kept")
			r.SetString("url", target)
			r.SetString("secret", "not for the plugin")
			r.Set("n", record.IntValue(42))
			recs = append(recs, r)
		}
		return recs
	}
	run := func(component string, values map[string]string) (pluginrpc.ConfigureReply, []*record.Record) {
		t.Helper()
		reply, err := svc.Configure(pluginrpc.ConfigureRequest{Component: component, Name: "p", Stream: "s", Values: values})
		if err != nil {
			t.Fatal(err)
		}
		host := hostRecords()
		var req []byte
		if reply.AllFields {
			req = pluginrpc.AppendBatch(nil, "raw", 2, host)
		} else {
			req = pluginrpc.AppendBatchFields(nil, "raw", 2, host, reply.Reads)
		}
		var scratch pluginrpc.Scratch
		out, err := svc.Process(reply.Instance, req, &scratch, nil)
		if err != nil {
			t.Fatal(err)
		}
		recs, err := pluginrpc.ApplyDelta(out, "raw", host)
		if err != nil {
			t.Fatal(err)
		}
		return reply, recs
	}

	reply, recs := run("test.Declared", map[string]string{"in": "url"})
	if reply.AllFields || !slices.Equal(reply.Reads, []string{"url"}) {
		t.Fatalf("configure reply %+v, want reads [url]", reply)
	}
	for _, seen := range procs[0].seen {
		if !slices.Equal(seen, []string{record.FieldID, record.FieldType, "url"}) {
			t.Errorf("processor declaring reads [url] received fields %v", seen)
		}
	}
	if len(procs[0].seen) != 2 {
		t.Fatalf("processor saw %d records, want 2", len(procs[0].seen))
	}
	for i, r := range recs {
		var names []string
		for _, f := range r.Fields() {
			names = append(names, f.Name)
		}
		if want := []string{record.FieldID, record.FieldType, "before", "url", "secret", "n", "out"}; !slices.Equal(names, want) {
			t.Errorf("record %d fields %v, want %v", i, names, want)
		}
		if s, _ := r.GetString("before"); s != "kept" {
			t.Errorf("record %d before = %q", i, s)
		}
		if s, _ := r.GetString("secret"); s != "not for the plugin" {
			t.Errorf("record %d secret = %q", i, s)
		}
		if n, _ := r.Get("n"); n.Kind() != record.Int {
			t.Errorf("record %d n = %v", i, n)
		} else if v, _ := n.AsInt(); v != 42 {
			t.Errorf("record %d n = %d", i, v)
		}
		if s, _ := r.GetString("out"); s != strings.ToUpper([]string{"/a", "/b"}[i]) {
			t.Errorf("record %d out = %q", i, s)
		}
		if r.ID != "id"+[]string{"/a", "/b"}[i] || r.Type != "apache_log" || r.CreationDate != 1700000000000 {
			t.Errorf("record %d header %q %q %d changed", i, r.ID, r.Type, r.CreationDate)
		}
	}

	// The default: every field is sent, and a removal then applies.
	reply, recs = run("test.All", map[string]string{"in": "url"})
	if !reply.AllFields {
		t.Fatalf("configure reply %+v, want all fields", reply)
	}
	for _, seen := range procs[1].seen {
		if !slices.Equal(seen, []string{record.FieldID, record.FieldType, "before", "url", "secret", "n"}) {
			t.Errorf("processor without Reads received fields %v, want all", seen)
		}
	}
	for i, r := range recs {
		if _, ok := r.Get("secret"); ok {
			t.Errorf("record %d: the removal of secret by a processor that reads it was not applied", i)
		}
	}
}
