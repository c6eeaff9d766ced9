package text_test

import (
	"context"
	"strings"
	"testing"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/plugins/text"
	"github.com/weir-streams/weir/internal/record"
)

func TestSplitText(t *testing.T) {
	tests := []struct {
		name    string
		conf    map[string]string
		key     string // message key; "" means none
		value   string
		want    map[string]record.Value // fields that must be present with these values
		absent  []string                // fields that must not be present
		wantErr string                  // expected record error, "" for none
	}{
		{
			name:  "groups map to fields by position",
			conf:  map[string]string{"value.regex": `(\w+)\s+(\d+)`, "value.fields": "word,number"},
			value: "hello 42 and more",
			want: map[string]record.Value{"word": record.StringValue("hello"), "number": record.StringValue("42"),
				record.FieldValue: record.StringValue("hello 42 and more"), record.FieldType: record.StringValue("t")},
		},
		{
			name:    "anchored at the start of the line",
			conf:    map[string]string{"value.regex": `(\d+)`, "value.fields": "n"},
			value:   "abc 123",
			wantErr: "regex_matching_error: line does not match value.regex",
		},
		{
			name:   "an unmatched optional group sets no field",
			conf:   map[string]string{"value.regex": `(\w+)(?:\s+(\d+))?`, "value.fields": "word,number"},
			value:  "alone",
			want:   map[string]record.Value{"word": record.StringValue("alone")},
			absent: []string{"number"},
		},
		{
			name:    "an empty line is an error",
			conf:    map[string]string{"value.regex": `(.*)`, "value.fields": "all"},
			value:   "",
			wantErr: "regex_matching_error: empty line",
		},
		{
			name:   "keep.raw.content false drops the raw line",
			conf:   map[string]string{"value.regex": `(\w+)`, "value.fields": "word", "keep.raw.content": "false"},
			value:  "hello",
			want:   map[string]record.Value{"word": record.StringValue("hello")},
			absent: []string{record.FieldValue},
		},
		{
			name:  "record_time with an offset becomes epoch milliseconds",
			conf:  map[string]string{"value.regex": `\[([^\]]+)\]`, "value.fields": "record_time"},
			value: "[17/May/2015:12:05:03 +0200]",
			want:  map[string]record.Value{"record_time": record.IntValue(1431857103000)},
		},
		{
			name:  "record_time without an offset is read in timezone.record.time",
			conf:  map[string]string{"value.regex": `\[([^\]]+)\]`, "value.fields": "record_time", "timezone.record.time": "Europe/Paris"},
			value: "[2015-05-17 12:05:03]",
			want:  map[string]record.Value{"record_time": record.IntValue(1431857103000)},
		},
		{
			name:    "a record_time that does not parse is an error",
			conf:    map[string]string{"value.regex": `(\S+)`, "value.fields": "record_time"},
			value:   "yesterday",
			wantErr: `date_parsing_error: cannot parse record_time "yesterday"`,
		},
		{
			name: "key.regex parses the message key",
			conf: map[string]string{"value.regex": `(\w+)`, "value.fields": "word",
				"key.regex": `(\w+)-(\d+)`, "key.fields": "host,pid"},
			key:   "web-1234",
			value: "hello",
			want:  map[string]record.Value{"host": record.StringValue("web"), "pid": record.StringValue("1234")},
		},
		{
			name: "a key that does not match sets no field and is no error",
			conf: map[string]string{"value.regex": `(\w+)`, "value.fields": "word",
				"key.regex": `(\d+)`, "key.fields": "pid"},
			key:    "no digits",
			value:  "hello",
			absent: []string{"pid"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			conf := map[string]string{"record.type": "t"}
			for k, v := range tt.conf {
				conf[k] = v
			}
			p := newSplitTextConf(t, conf)
			r := record.New("id-1", "", 0)
			if tt.key != "" {
				r.SetString(record.FieldKey, tt.key)
			}
			r.SetString(record.FieldValue, tt.value)
			b := component.Batch{Records: []*record.Record{r}}
			if err := p.Process(context.Background(), &b); err != nil {
				t.Fatal(err)
			}
			errs := strings.Join(r.Errors(), "; ")
			if tt.wantErr == "" && errs != "" {
				t.Fatalf("unexpected errors: %s", errs)
			}
			if tt.wantErr != "" && !strings.Contains(errs, tt.wantErr) {
				t.Fatalf("errors = %q, want %q", errs, tt.wantErr)
			}
			if tt.wantErr != "" {
				if v, _ := r.GetString(record.FieldValue); v != tt.value {
					t.Errorf("an error record lost its raw line: record_value = %q", v)
				}
			}
			for k, want := range tt.want {
				if got, ok := r.Get(k); !ok || !got.Equal(want) {
					t.Errorf("field %s = %v (%v), want %v (%v)", k, got.Text(), got.Kind(), want.Text(), want.Kind())
				}
			}
			for _, k := range tt.absent {
				if r.Has(k) {
					t.Errorf("field %s is set, want absent", k)
				}
			}
		})
	}
}

func TestSplitTextRefusesAMismatchOfGroupsAndFields(t *testing.T) {
	spec := text.SplitTextSpec()
	_, probs := component.NewConfig(&spec, map[string]string{"value.regex": `(a)(b)`, "value.fields": "only_one"})
	err := probs.Err()
	if err == nil || !strings.Contains(err.Error(), `has 2 capture groups but "value.fields" names 1 fields`) {
		t.Fatalf("err = %v", err)
	}
}

func newSplitTextConf(t *testing.T, values map[string]string) component.Processor {
	t.Helper()
	spec := text.SplitTextSpec()
	conf, probs := component.NewConfig(&spec, values)
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	p, err := spec.NewProcessor(conf, component.Env{Name: "parser"})
	if err != nil {
		t.Fatal(err)
	}
	return p
}
