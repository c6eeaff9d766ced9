package fields_test

import (
	"testing"

	"github.com/weir-streams/weir/internal/plugins/fields"
)

func TestNormalizeFields(t *testing.T) {
	for _, tt := range []struct {
		policy string
		in     []any
		want   string
	}{
		{"do_nothing", []any{"ip", "1.1.1.1"}, `src_ip="1.1.1.1"`},
		{"do_nothing", []any{"client_ip", "2.2.2.2"}, `src_ip="2.2.2.2"`},
		{"do_nothing", []any{"src_ip", "0", "ip", "1.1.1.1"}, `src_ip="0" ip="1.1.1.1"`},
		{"overwrite_existing", []any{"src_ip", "0", "ip", "1.1.1.1"}, `src_ip="1.1.1.1"`},
		{"keep_only_old_field", []any{"src_ip", "0", "ip", "1.1.1.1"}, `src_ip="0"`},
		{"keep_both_fields", []any{"src_ip", "0", "ip", "1.1.1.1"}, `src_ip="0" ip="1.1.1.1"`},
		{"do_nothing", []any{"other", "x"}, `other="x"`},
	} {
		p, _ := build(t, fields.NormalizeFieldsSpec(), map[string]string{"src_ip": "ip, client_ip", "conflict.resolution.policy": tt.policy})
		out := process(t, p, rec(tt.in...))
		if got := userFields(out[0]); got != tt.want {
			t.Errorf("%s %v: got %s, want %s", tt.policy, tt.in, got, tt.want)
		}
	}
}
