package console

import (
	"strings"
	"testing"

	"github.com/weir-streams/weir/internal/component/configtest"
)

// TestPrintRecordsConfig decodes PrintRecords' configurations from
// testdata: LogIsland's keys are accepted (and decode to nothing), others
// are refused.
func TestPrintRecordsConfig(t *testing.T) {
	for _, tt := range []struct{ id, wantErr string }{
		{id: "console_default"},
		{id: "console_logisland"},
		{id: "console_typo", wantErr: `unknown property "row" (did you mean "rows"?)`},
	} {
		got, err := configtest.Decode[PrintRecordsConfig](Spec(), "testdata/config.yaml", tt.id)
		switch {
		case tt.wantErr == "" && (err != nil || *got != PrintRecordsConfig{}):
			t.Errorf("%s: %+v, %v", tt.id, got, err)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("%s: error %v, want one containing %q", tt.id, err, tt.wantErr)
		}
	}
}
