package fields_test

import (
	"strings"
	"testing"

	"github.com/weir-streams/weir/internal/plugins/fields"
	"github.com/weir-streams/weir/internal/record"
)

// logislandRecords are the three records of LogIsland's
// FilterRecords-Detail.rst.
func logislandRecords() []*record.Record {
	return []*record.Record{
		rec("name", "bonjour", "mother", "bonjour", "age", 29, "joker", false),
		rec("name", "bonjour", "mother", "bonjour", "age", 14, "joker", false),
		rec("name", "bonjour", "mother", "bonjour", "age", 14, "joker", true),
	}
}

func TestFilterRecords(t *testing.T) {
	// The example of FilterRecords-Detail.rst, its MVEL rewritten
	// (docs/expressions.md): Record1 and Record3 are kept.
	logisland := map[string]string{
		"logic":               "OR",
		"age_older_than_18":   "${age > 18}",
		"name_starting_by_GR": `${name.startsWith("GR")}`,
		"complex_condition":   `${name contains "jo" && age > 25 && mother == "jocelyne" || joker == true}`,
	}
	for _, tt := range []struct {
		name  string
		props map[string]string
		kept  []int
	}{
		{"logisland OR", logisland, []int{0, 2}},
		{"AND", map[string]string{"logic": "AND", "a": "age < 20", "b": "joker"}, []int{2}},
		{"field.value", map[string]string{"field.name": "age", "field.value": "14"}, []int{1, 2}},
		{"field.value AND condition", map[string]string{"field.name": "age", "field.value": "14", "logic": "AND", "c": "!joker"}, []int{1}},
		{"default field.name is record_type", map[string]string{"field.value": "t"}, []int{0, 1, 2}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, reg := build(t, fields.FilterRecordsSpec(), tt.props)
			in := logislandRecords()
			out := process(t, p, append([]*record.Record(nil), in...)...)
			if len(out) != len(tt.kept) {
				t.Fatalf("kept %d records, want %d", len(out), len(tt.kept))
			}
			for i, k := range tt.kept {
				if out[i] != in[k] {
					t.Errorf("record %d is not input %d", i, k)
				}
			}
			if got := metric(t, reg, "filter_records_total", "dropped"); got != float64(3-len(tt.kept)) {
				t.Errorf("dropped metric = %v", got)
			}
			if got := metric(t, reg, "filter_records_total", "kept"); got != float64(len(tt.kept)) {
				t.Errorf("kept metric = %v", got)
			}
		})
	}
}

func TestFilterRecordsEvaluationErrors(t *testing.T) {
	for _, keep := range []string{"true", "false"} {
		p, reg := build(t, fields.FilterRecordsSpec(), map[string]string{"c": "name > 3", "keep.errors": keep})
		out := process(t, p, logislandRecords()...)
		if keep == "true" {
			if len(out) != 3 || !out[0].HasErrors() || !strings.Contains(out[0].Errors()[0], "condition c") {
				t.Errorf("keep.errors=true: %d records, errors %v", len(out), out[0].Errors())
			}
		} else if len(out) != 0 {
			t.Errorf("keep.errors=false kept %d records", len(out))
		}
		if got := metric(t, reg, "filter_records_total", "failed"); got != 3 {
			t.Errorf("failed metric = %v", got)
		}
	}
}

func TestFilterRecordsValidation(t *testing.T) {
	msg := buildErr(t, fields.FilterRecordsSpec(), map[string]string{"bad": "${http_status === 5}"})
	if !strings.Contains(msg, `property "bad"`) || !strings.Contains(msg, "column 15") {
		t.Errorf("error = %s", msg)
	}
	buildErr(t, fields.FilterRecordsSpec(), map[string]string{})
}
