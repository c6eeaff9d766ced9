package fields_test

import (
	"testing"

	"github.com/weir-streams/weir/internal/plugins/fields"
	"github.com/weir-streams/weir/internal/record"
)

func TestRemoveFields(t *testing.T) {
	for _, tt := range []struct {
		name  string
		props map[string]string
		want  string
	}{
		{"remove", map[string]string{"fields.to.remove": "identd, user"}, `record_time=1 src_ip="1.2.3.4" record_value="line"`},
		{"keep", map[string]string{"fields.to.keep": "src_ip"}, `record_time=1 src_ip="1.2.3.4"`},
		{"remove missing", map[string]string{"fields.to.remove": "nope"}, `record_time=1 src_ip="1.2.3.4" identd="-" user="-" record_value="line"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, _ := build(t, fields.RemoveFieldsSpec(), tt.props)
			out := process(t, p, rec(record.FieldTime, 1, "src_ip", "1.2.3.4", "identd", "-", "user", "-", record.FieldValue, "line"))
			if got := userFields(out[0]); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
			if out[0].ID != "id" || !out[0].Has(record.FieldID) {
				t.Error("the id was lost")
			}
		})
	}
	buildErr(t, fields.RemoveFieldsSpec(), map[string]string{})
	buildErr(t, fields.RemoveFieldsSpec(), map[string]string{"fields.to.remove": "a", "fields.to.keep": "b"})
}
