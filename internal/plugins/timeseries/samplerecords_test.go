package timeseries_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/plugins/timeseries"
	"github.com/weir-streams/weir/internal/record"
)

func build(props map[string]string) (component.Processor, error) {
	spec := timeseries.SampleRecordsSpec()
	conf, probs := component.NewConfig(&spec, props)
	if len(probs) > 0 {
		return nil, probs
	}
	return spec.NewProcessor(conf, component.Env{})
}

// series returns records at times 0, 1000, ... with the given values.
func series(values ...any) []*record.Record {
	var out []*record.Record
	for i, v := range values {
		r := record.New(fmt.Sprintf("r%d", i), "sensor", 0)
		r.Set(record.FieldTime, record.IntValue(int64(i)*1000))
		r.SetString("tag", "t1")
		switch x := v.(type) {
		case int:
			r.Set(record.FieldValue, record.IntValue(int64(x)))
		case float64:
			r.Set(record.FieldValue, record.FloatValue(x))
		case string:
			r.SetString(record.FieldValue, x)
		}
		out = append(out, r)
	}
	return out
}

func render(recs []*record.Record) string {
	var parts []string
	for _, r := range recs {
		if r.HasErrors() {
			parts = append(parts, r.ID+":error")
			continue
		}
		t, _ := r.Get(record.FieldTime)
		v, _ := r.Get(record.FieldValue)
		s, _ := r.Get(timeseries.FieldSampled)
		if r.Has("tag") || s.String() != "true" {
			parts = append(parts, r.ID+":not-a-sample")
			continue
		}
		parts = append(parts, t.String()+"="+v.String())
	}
	return strings.Join(parts, " ")
}

func TestSampleRecords(t *testing.T) {
	for _, tt := range []struct {
		name  string
		props map[string]string
		in    []*record.Record
		want  string
	}{
		// LogIsland's outlier-detection.yml keys.
		{"average", map[string]string{"record.value.field": "record_value", "record.time.field": "record_time", "sampling.algorithm": "average", "sampling.parameter": "3"},
			series(1.0, 2.0, 6.0, 10.0, 20.0), "0=3 3000=15"},
		{"average of integers rounds", map[string]string{"sampling.algorithm": "average", "sampling.parameter": "2"},
			series(1, 2, 5), "0=2 2000=5"},
		{"first item", map[string]string{"sampling.algorithm": "first_item", "sampling.parameter": "2"},
			series(1.5, 2.5, 3.5), "0=1.5 2000=3.5"},
		{"bucket larger than the batch", map[string]string{"sampling.algorithm": "average", "sampling.parameter": "10"},
			series(1.5, 2.5), "0=1.5 1000=2.5"},
		{"none", map[string]string{"sampling.algorithm": "none", "sampling.parameter": "0"},
			series(1.5, 2.5), "0=1.5 1000=2.5"},
		{"lttb keeps the peak", map[string]string{"sampling.algorithm": "lttb", "sampling.parameter": "3"},
			series(0.0, 1.0, 9.0, 1.0, 0.0), "0=0 2000=9 4000=0"},
		{"lttb with fewer points than asked", map[string]string{"sampling.algorithm": "lttb", "sampling.parameter": "5"},
			series(0.0, 1.0), "0=0 1000=1"},
		// Bad input: error records with the reason, after the samples.
		{"bad values", map[string]string{"sampling.algorithm": "average", "sampling.parameter": "2"},
			series(1.0, "high", 3.0, nil), "0=2 r1:error r3:error"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, err := build(tt.props)
			if err != nil {
				t.Fatal(err)
			}
			b := &component.Batch{Records: tt.in}
			if err := p.Process(context.Background(), b); err != nil {
				t.Fatal(err)
			}
			if got := render(b.Records); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
	for _, props := range []map[string]string{
		{"sampling.algorithm": "lttb", "sampling.parameter": "2"},
		{"sampling.algorithm": "min_max", "sampling.parameter": "2"},
		{"sampling.algorithm": "average"},
	} {
		if _, err := build(props); err == nil {
			t.Errorf("%v: accepted", props)
		}
	}
}
