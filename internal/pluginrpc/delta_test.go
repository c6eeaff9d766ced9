package pluginrpc

import (
	"fmt"
	"testing"

	"github.com/weir-streams/weir/internal/record"
)

// hostRecords returns n records as the host holds them before a call.
func hostRecords(n int) []*record.Record {
	recs := make([]*record.Record, n)
	for i := range recs {
		r := record.New(fmt.Sprintf("id-%d", i), "apache_log", int64(1000+i))
		r.Origin = record.Origin{Topic: "raw", Partition: 2, Offset: int64(40 + i)}
		r.SetString("src_ip", fmt.Sprintf("10.0.0.%d", i))
		r.SetString("http_query", fmt.Sprintf("/x?a=%d", i))
		r.Set("bytes_out", record.IntValue(int64(100*i)))
		recs[i] = r
	}
	return recs
}

// TestDeltaRoundTrip: whatever a processor does to a decoded batch in the
// plugin (change, add and remove fields, change headers, add errors, drop,
// reorder, duplicate and add records), the host's records after ApplyDelta
// are the plugin's records, field for field and in order.
func TestDeltaRoundTrip(t *testing.T) {
	cases := map[string]func(recs []*record.Record) []*record.Record{
		"unchanged": func(recs []*record.Record) []*record.Record { return recs },
		"fields": func(recs []*record.Record) []*record.Record {
			for i, r := range recs {
				r.SetString("q_a", fmt.Sprint(i))
				r.Set("bytes_out", record.IntValue(int64(i)))
				r.SetString("src_ip", "10.0.0.0"[:len("10.0.0.")]+fmt.Sprint(i)) // equal, built anew
				r.Remove("http_query")
				r.Set("arr", record.ArrayValue([]record.Value{record.StringValue("x"), record.MapValue(map[string]record.Value{"k": record.IntValue(1)})}))
			}
			return recs
		},
		"headers and errors": func(recs []*record.Record) []*record.Record {
			recs[0].SetType("url")
			recs[0].SetID("new-id")
			recs[0].CreationDate = 7
			recs[1].AddError(record.ErrRuntime, "bad query")
			return recs
		},
		"drop, reorder, duplicate, add": func(recs []*record.Record) []*record.Record {
			n := record.New("made", "split", 5)
			n.Origin = record.Origin{Topic: "raw", Partition: 2, Offset: 41, Index: 1}
			n.SetString("part", "b")
			recs[2].SetString("seen", "twice")
			return []*record.Record{recs[2], n, recs[0], recs[2]}
		},
		"many fields": func(recs []*record.Record) []*record.Record {
			for k := 0; k < 300; k++ { // more than a one-byte count
				recs[0].Set(fmt.Sprintf("f%d", k), record.IntValue(int64(k)))
			}
			return recs
		},
		"all dropped": func([]*record.Record) []*record.Record { return nil },
	}
	// One scratch for every case, as a plugin connection reuses it from
	// batch to batch, with batches of different sizes.
	var scratch Scratch
	size := 4
	for name, process := range cases {
		t.Run(name, func(t *testing.T) {
			size = 7 - size // 3, 4, 3, ...
			host := hostRecords(size)
			req := AppendBatch(nil, "raw", 2, host)
			in, err := scratch.Decode(req)
			if err != nil {
				t.Fatal(err)
			}
			want := process(append([]*record.Record(nil), in.Records...))
			reply := AppendDelta(nil, in, want)
			got, err := ApplyDelta(reply, "raw", host)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(want) {
				t.Fatalf("%d records, want %d", len(got), len(want))
			}
			for i := range want {
				w, g := want[i], got[i]
				if g.String() != w.String() || g.ID != w.ID || g.Type != w.Type || g.CreationDate != w.CreationDate || g.Origin != w.Origin {
					t.Errorf("record %d:\n got %s %+v\nwant %s %+v", i, g, g.Origin, w, w.Origin)
				}
				if fmt.Sprint(g.Errors()) != fmt.Sprint(w.Errors()) {
					t.Errorf("record %d errors %v, want %v", i, g.Errors(), w.Errors())
				}
			}
			if name == "unchanged" && len(reply) != 2+size*4 { // version, count; per record tag, flags, two zero counts
				t.Errorf("unchanged batch: reply of %d bytes, want only tags and empty changes", len(reply))
			}
		})
	}
}

// TestApplyDeltaRefusesBrokenInput: every truncation of a reply, and a
// reply naming an input that does not exist, is an error.
func TestApplyDeltaRefusesBrokenInput(t *testing.T) {
	host := hostRecords(2)
	in, err := DecodeBatch(AppendBatch(nil, "raw", 0, host))
	if err != nil {
		t.Fatal(err)
	}
	in.Records[0].SetString("new", "v")
	extra := record.New("x", "t", 1)
	reply := AppendDelta(nil, in, []*record.Record{in.Records[0], extra})
	for i := 0; i < len(reply); i++ {
		if _, err := ApplyDelta(reply[:i], "raw", hostRecords(2)); err == nil {
			t.Fatalf("truncated at %d of %d: no error", i, len(reply))
		}
	}
	if _, err := ApplyDelta(reply, "raw", hostRecords(0)); err == nil {
		t.Fatal("reply naming a record the host did not send: no error")
	}
}

func FuzzApplyDelta(f *testing.F) {
	host := hostRecords(2)
	in, _ := DecodeBatch(AppendBatch(nil, "raw", 0, host))
	in.Records[1].SetString("new", "v")
	f.Add(AppendDelta(nil, in, []*record.Record{in.Records[1], record.New("x", "t", 1)}))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = ApplyDelta(data, "raw", hostRecords(2))
	})
}
