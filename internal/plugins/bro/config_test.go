package bro

import (
	"strings"
	"testing"

	"github.com/weir-streams/weir/internal/component/configtest"
)

// TestParseBroEventConfig decodes ParseBroEvent's configurations from
// testdata.
func TestParseBroEventConfig(t *testing.T) {
	for _, tt := range []struct {
		id      string
		want    ParseBroEventConfig
		wantErr string
	}{
		{id: "bro_default", want: ParseBroEventConfig{Debug: false}},
		{id: "bro_debug", want: ParseBroEventConfig{Debug: true}},
		{id: "bro_debug_not_bool", wantErr: `property "debug"`},
	} {
		got, err := configtest.Decode[ParseBroEventConfig](ParseBroEventSpec(), "testdata/config.yaml", tt.id)
		switch {
		case tt.wantErr == "" && (err != nil || *got != tt.want):
			t.Errorf("%s: %+v, %v; want %+v", tt.id, got, err, tt.want)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("%s: error %v, want one containing %q", tt.id, err, tt.wantErr)
		}
	}
}
