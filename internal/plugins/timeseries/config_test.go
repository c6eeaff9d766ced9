package timeseries

import (
	"strings"
	"testing"

	"github.com/weir-streams/weir/internal/component/configtest"
	"github.com/weir-streams/weir/internal/record"
)

// TestSampleRecordsConfig decodes SampleRecords' configurations from
// testdata.
func TestSampleRecordsConfig(t *testing.T) {
	for _, tt := range []struct {
		id      string
		want    SampleRecordsConfig
		wantErr string
	}{
		{id: "sample_defaults", want: SampleRecordsConfig{ValueField: record.FieldValue, TimeField: record.FieldTime, Algorithm: algoAverage, Parameter: 10}},
		{id: "sample_full", want: SampleRecordsConfig{ValueField: "temperature", TimeField: "measured_at", Algorithm: algoLTTB, Parameter: 3}},
		{id: "sample_lttb_too_few", wantErr: `property "sampling.parameter": lttb keeps at least 3 points, 2 asks for fewer`},
		{id: "sample_min_max", wantErr: `property "sampling.algorithm"`},
		{id: "sample_no_parameter", wantErr: `missing required property "sampling.parameter"`},
	} {
		got, err := configtest.Decode[SampleRecordsConfig](SampleRecordsSpec(), "testdata/config.yaml", tt.id)
		switch {
		case tt.wantErr == "" && (err != nil || *got != tt.want):
			t.Errorf("%s: %+v, %v; want %+v", tt.id, got, err, tt.want)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("%s: error %v, want one containing %q", tt.id, err, tt.wantErr)
		}
	}
}
