package pluginrpc

import (
	"strings"
	"testing"

	"github.com/weir-streams/weir/internal/record"
)

// TestCodecRoundTrip encodes records with every kind of value, errors and
// origins, and reads them back equal.
func TestCodecRoundTrip(t *testing.T) {
	a := record.New("id-1", "apache_log", 1431857103000)
	a.Origin = record.Origin{Topic: "raw", Partition: 3, Offset: 12345, Index: 2}
	a.SetString("s", "héllo \x00 world")
	a.SetString("empty", "")
	a.Set("i", record.IntValue(-42))
	a.Set("f", record.FloatValue(3.25))
	a.Set("b", record.BoolValue(true))
	a.Set("raw", record.BytesValue([]byte{0xff, 0, 1}))
	a.Set("null", record.Value{})
	a.Set("arr", record.ArrayValue([]record.Value{record.StringValue("x"), record.IntValue(1), record.ArrayValue(nil)}))
	a.Set("map", record.MapValue(map[string]record.Value{"k": record.StringValue("v"), "n": record.IntValue(7)}))
	b := record.New("id-2", "t", 0)
	b.Origin = record.Origin{Topic: "raw", Partition: 3, Offset: 12346}
	b.AddError(record.ErrRegexMatching, "line does not match")

	data := AppendBatch(nil, "raw", 3, []*record.Record{a, b})
	got, err := DecodeBatch(data)
	if err != nil {
		t.Fatal(err)
	}
	if got.Topic != "raw" || got.Partition != 3 || len(got.Records) != 2 {
		t.Fatalf("batch %+v", got)
	}
	for i, want := range []*record.Record{a, b} {
		r := got.Records[i]
		if r.ID != want.ID || r.Type != want.Type || r.CreationDate != want.CreationDate || r.Origin != want.Origin {
			t.Errorf("record %d header: %+v, want %+v", i, r, want)
		}
		if r.String() != want.String() {
			t.Errorf("record %d:\n got %s\nwant %s", i, r, want)
		}
		for _, f := range want.Fields() {
			v, ok := r.Get(f.Name)
			if !ok || !v.Equal(f.Value) {
				t.Errorf("record %d field %s: %v, want %v", i, f.Name, v, f.Value)
			}
		}
	}
	if !got.Records[1].HasErrors() || got.Records[1].Errors()[0] != "regex_matching_error: line does not match" {
		t.Errorf("errors not restored: %v", got.Records[1].Errors())
	}
}

// TestCodecRefusesBrokenInput: every truncation of a valid batch, a wrong
// version and trailing bytes are errors, never a panic or a wrong batch.
func TestCodecRefusesBrokenInput(t *testing.T) {
	r := record.New("id", "t", 1)
	r.Set("arr", record.ArrayValue([]record.Value{record.FloatValue(1), record.BoolValue(false)}))
	r.Set("map", record.MapValue(map[string]record.Value{"k": record.BytesValue([]byte("v"))}))
	data := AppendBatch(nil, "topic", 0, []*record.Record{r, r})
	for i := 0; i < len(data); i++ {
		if _, err := DecodeBatch(data[:i]); err == nil {
			t.Fatalf("truncated at %d of %d: no error", i, len(data))
		}
	}
	bad := append([]byte{99}, data[1:]...)
	if _, err := DecodeBatch(bad); err == nil || !strings.Contains(err.Error(), "version") {
		t.Fatalf("wrong version: %v", err)
	}
	if _, err := DecodeBatch(append(data, 0)); err == nil {
		t.Fatal("trailing byte accepted")
	}
}

func FuzzDecodeBatch(f *testing.F) {
	r := record.New("id", "t", 1)
	r.SetString("a", "b")
	f.Add(AppendBatch(nil, "topic", 1, []*record.Record{r}))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := DecodeBatch(data)
		if err != nil {
			return
		}
		// What decodes encodes back to the same bytes, map order aside.
		_ = AppendBatch(nil, b.Topic, b.Partition, b.Records)
	})
}
