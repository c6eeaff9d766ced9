package fields_test

import (
	"testing"

	"github.com/weir-streams/weir/internal/plugins/fields"
	"github.com/weir-streams/weir/internal/record"
)

// root is a record as JsonSerializer reads a Kafka Connect or MQTT message
// with nested records: two maps and plain fields.
func flatRoot() *record.Record {
	r := rec(record.FieldTime, 7, "record_name", "plant",
		"m1", record.MapValue(map[string]record.Value{"record_name": record.StringValue("temp"), "value": record.FloatValue(21.5)}),
		"site", "lyon",
		"m2", record.MapValue(map[string]record.Value{record.FieldID: record.StringValue("own-id"), record.FieldType: record.StringValue("gauge"), "value": record.IntValue(3)}))
	r.SetID("root")
	return r
}

func TestFlatMap(t *testing.T) {
	for _, tt := range []struct {
		name  string
		props map[string]string
		want  []string // id type fields, per output record
	}{
		{"defaults keep the root and copy its fields", map[string]string{}, []string{
			"root t",
			`root/m1 t record_name="plant" value=21.5 record_time=7 site="lyon"`,
			`own-id gauge value=3 record_time=7 record_name="plant" site="lyon"`,
		}},
		{"as LogIsland's jobs: leaves only", map[string]string{"keep.root.record": "false", "copy.root.record.fields": "true"}, []string{
			`root/m1 t record_name="plant" value=21.5 record_time=7 site="lyon"`,
			`own-id gauge value=3 record_time=7 record_name="plant" site="lyon"`,
		}},
		{"no copy, leaf type", map[string]string{"keep.root.record": "false", "copy.root.record.fields": "false", "leaf.record.type": "metric"}, []string{
			`root/m1 metric record_name="temp" value=21.5`,
			`own-id metric value=3`,
		}},
		{"concat", map[string]string{"keep.root.record": "false", "leaf.record.type": "record_metric", "concat.fields": "record_name"}, []string{
			`root/m1 record_metric record_name="plant/temp" value=21.5 record_time=7 site="lyon"`,
			`own-id record_metric value=3 record_time=7 record_name="plant" site="lyon"`,
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, _ := build(t, fields.FlatMapSpec(), tt.props)
			out := process(t, p, flatRoot())
			if len(out) != len(tt.want) {
				t.Fatalf("got %d records, want %d: %v", len(out), len(tt.want), out)
			}
			for i, r := range out {
				got := r.ID + " " + r.Type
				if f := userFields(r); f != "" && i < len(tt.want) && !(tt.props["keep.root.record"] != "false" && i == 0) {
					got += " " + f
				}
				if got != tt.want[i] {
					t.Errorf("record %d:\n got  %s\n want %s", i, got, tt.want[i])
				}
				if id, _ := r.GetString(record.FieldID); id != r.ID {
					t.Errorf("record %d: record_id %q, id %q", i, id, r.ID)
				}
			}
		})
	}
}

// A root without nested records (bad input for FlatMap) is kept when the
// root is kept, and yields nothing otherwise: no error, as LogIsland.
func TestFlatMapWithoutNestedRecords(t *testing.T) {
	for keep, want := range map[string]int{"true": 1, "false": 0} {
		p, _ := build(t, fields.FlatMapSpec(), map[string]string{"keep.root.record": keep})
		out := process(t, p, rec("a", "b", "arr", []string{"x"}))
		if len(out) != want {
			t.Errorf("keep.root.record=%s: got %d records, want %d", keep, len(out), want)
		}
	}
}
