package serialize_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hamba/avro/v2"
	"gopkg.in/yaml.v3"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/serialize"
	"github.com/weir-streams/weir/internal/streamtest"
)

// templateSchema is avro.output.schema of LogIsland's
// configuration-template.yml, as shipped.
func templateSchema(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(streamtest.Root(), "testdata", "logisland", "conf", "configuration-template.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Engine struct {
			Streams []struct {
				Configuration map[string]string `yaml:"configuration"`
			} `yaml:"streamConfigurations"`
		} `yaml:"engine"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	for _, s := range doc.Engine.Streams {
		if v := s.Configuration["avro.output.schema"]; v != "" {
			return v
		}
	}
	t.Fatal("no avro.output.schema in configuration-template.yml")
	return ""
}

func newAvro(t *testing.T, schema string) *serialize.Avro {
	t.Helper()
	spec := serialize.AvroSpec()
	if err := serialize.AvroSchema.Validate(schema); err != nil {
		t.Fatal(err)
	}
	conf := mustConf(t, spec, map[string]string{serialize.KeySchema: schema})
	s, err := spec.NewSerializer(conf)
	if err != nil {
		t.Fatal(err)
	}
	return s.(*serialize.Avro)
}

// TestAvroLogIslandTemplateSchema writes the records LogIsland's template
// job parses from the real access log with its own Avro schema, checks the
// bytes against hamba/avro's generic decoding of the same schema (the
// library, not Weir's conversion), and reads them back.
func TestAvroLogIslandTemplateSchema(t *testing.T) {
	schema := templateSchema(t)
	a := newAvro(t, schema)
	parsed, err := avro.Parse(schema)
	if err != nil {
		t.Fatal(err)
	}
	recs := streamtest.AccessLogRecords(t)
	n := 0
	for _, r := range recs[:500] {
		// bytes_out is a long in the schema; the log writes "-" for none,
		// which LogIsland's Avro writer refuses as well.
		if v, ok := r.GetString("bytes_out"); ok && v == "-" {
			if _, err := a.Serialize(nil, r); err == nil {
				t.Fatalf("bytes_out %q was written as a long", v)
			}
			continue
		}
		for _, f := range r.Fields() {
			if f.Name != record.FieldID && f.Name != record.FieldType && f.Name != record.FieldTime && !strings.Contains(schema, `"`+f.Name+`"`) {
				r.Remove(f.Name)
			}
		}
		b, err := a.Serialize(nil, r)
		if err != nil {
			t.Fatalf("serialize %v: %v", r, err)
		}
		var generic map[string]any
		if err := avro.Unmarshal(parsed, b, &generic); err != nil {
			t.Fatalf("hamba/avro cannot read the bytes back: %v", err)
		}
		ip, _ := r.GetString("src_ip")
		if got := generic["src_ip"]; got != ip && !strings.Contains(strings.ReplaceAll(toString(got), " ", ""), ip) {
			t.Fatalf("src_ip %v, want %s", got, ip)
		}
		back := record.New("other", "other", 0)
		if err := a.Deserialize(back, nil, b); err != nil {
			t.Fatal(err)
		}
		if back.ID != r.ID || back.Type != r.Type {
			t.Fatalf("id/type %s/%s, want %s/%s", back.ID, back.Type, r.ID, r.Type)
		}
		for _, k := range []string{"src_ip", "http_query", "http_status", "bytes_out", record.FieldTime} {
			want, _ := r.Get(k)
			got, _ := back.Get(k)
			if got.Text() != want.Text() {
				t.Fatalf("%s: %s after a round trip, want %s", k, got, want)
			}
		}
		n++
	}
	if n < 400 {
		t.Fatalf("only %d records written", n)
	}
	r := record.New("x", "apache_log", 0)
	r.Set("not_in_schema", record.StringValue("v"))
	if _, err := a.Serialize(nil, r); err == nil || !strings.Contains(err.Error(), "not_in_schema") {
		t.Errorf("a field outside the schema: %v", err)
	}
	if err := a.Deserialize(record.New("x", "t", 0), nil, []byte{0x08, 0x41}); err == nil {
		t.Error("a union branch the schema lacks was read as an Avro record")
	}
	if err := serialize.AvroSchema.Validate(`{"type":"string"}`); err == nil {
		t.Error("a schema that is no record was accepted")
	}
}

func toString(x any) string {
	if m, ok := x.(map[string]any); ok {
		for _, v := range m {
			return toString(v)
		}
	}
	if s, ok := x.(string); ok {
		return s
	}
	return ""
}

// TestLogIslandSerializers checks BytesArraySerializer, StringSerializer
// and ExtendedJsonSerializer as LogIsland's sources define them.
func TestLogIslandSerializers(t *testing.T) {
	raw := []byte("caf\xc3\xa9 \xff")
	r := record.New("id1", "t", 0)
	if err := (serialize.Bytes{}).Deserialize(r, nil, raw); err != nil {
		t.Fatal(err)
	}
	v, _ := r.Get(record.FieldValue)
	if v.Kind() != record.Bytes {
		t.Fatalf("record_value is %s, want bytes", v.Kind())
	}
	out, _ := (serialize.Bytes{}).Serialize(nil, r)
	if !bytes.Equal(out, raw) {
		t.Fatalf("bytes %q, want %q", out, raw)
	}
	if out, _ := (serialize.Bytes{}).Serialize(nil, record.New("x", "t", 0)); len(out) != 0 {
		t.Errorf("a record without record_value gave %q, want an empty message", out)
	}

	r = record.New("id1", "t", 0)
	if err := (serialize.String{}).Deserialize(r, nil, []byte("a line")); err != nil {
		t.Fatal(err)
	}
	if s, _ := r.GetString(record.FieldValue); s != "a line" {
		t.Fatalf("record_value %q", s)
	}

	r = record.New("abc", "apache_log", 0)
	r.Set(record.FieldTime, record.IntValue(1430000000000))
	r.Set("http_status", record.IntValue(404))
	b, _ := (serialize.ExtendedJSON{}).Serialize(nil, r)
	want := `{"record_id":"abc","record_type":"apache_log","record_time":1430000000000,"http_status":404,"id":"abc","creationDate":1430000000000,"type":"apache_log"}`
	if string(b) != want {
		t.Fatalf("ExtendedJson wrote\n%s\nwant\n%s", b, want)
	}
	back := record.New("derived", "derived", 0)
	if err := (serialize.ExtendedJSON{}).Deserialize(back, nil, b); err != nil {
		t.Fatal(err)
	}
	if back.ID != "abc" || back.Type != "apache_log" || back.CreationDate != 1430000000000 || back.Has("id") {
		t.Fatalf("read back %v (creation %d)", back, back.CreationDate)
	}
	if n, _ := back.Get("http_status"); n.Text() != "404" {
		t.Fatalf("http_status %s", n)
	}
	if err := (serialize.ExtendedJSON{}).Deserialize(back, nil, []byte("not json")); err == nil {
		t.Error("text was read as a JSON object")
	}
}

func mustConf(t *testing.T, spec component.Spec, props map[string]string) component.Config {
	t.Helper()
	conf, probs := component.NewConfig(&spec, props)
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	return conf
}
