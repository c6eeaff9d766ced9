package fields_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/weir-streams/weir/internal/plugins/fields"
	"github.com/weir-streams/weir/internal/record"
)

func TestMaskFields(t *testing.T) {
	const key = "0123456789abcdef-secret"
	mac := func(s string) string {
		m := hmac.New(sha256.New, []byte(key))
		m.Write([]byte(s))
		return hex.EncodeToString(m.Sum(nil))
	}
	for _, tt := range []struct {
		name  string
		props map[string]string
		in    []any
		want  string
	}{
		{"ipv4 /24", map[string]string{"truncate.ip.fields": "src_ip"}, []any{"src_ip", "83.149.9.216"}, `src_ip="83.149.9.0"`},
		{"ipv6 /48", map[string]string{"truncate.ip.fields": "src_ip"}, []any{"src_ip", "2001:db8:abcd:12:1::5"}, `src_ip="2001:db8:abcd::"`},
		{"mapped ipv4", map[string]string{"truncate.ip.fields": "src_ip"}, []any{"src_ip", "::ffff:83.149.9.216"}, `src_ip="83.149.9.0"`},
		{"other prefix", map[string]string{"truncate.ip.fields": "src_ip", "ipv4.prefix.length": "16"}, []any{"src_ip", "83.149.9.216"}, `src_ip="83.149.0.0"`},
		{"hash", map[string]string{"hash.fields": "user,age", "hash.key": key}, []any{"user", "frank", "age", 42},
			`user="` + mac("frank") + `" age="` + mac("42") + `"`},
		{"not an address without key is removed", map[string]string{"truncate.ip.fields": "src_ip"}, []any{"src_ip", "host.example"}, ``},
		{"not an address with key is hashed", map[string]string{"truncate.ip.fields": "src_ip", "hash.key": key}, []any{"src_ip", "host.example"}, `src_ip="` + mac("host.example") + `"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, _ := build(t, fields.MaskFieldsSpec(), tt.props)
			out := process(t, p, rec(tt.in...))
			if got := userFields(out[0]); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
	if msg := buildErr(t, fields.MaskFieldsSpec(), map[string]string{"hash.fields": "a"}); !strings.Contains(msg, "hash.key") {
		t.Errorf("error = %s", msg)
	}
	if msg := buildErr(t, fields.MaskFieldsSpec(), map[string]string{"hash.fields": "a", "hash.key": "short"}); strings.Contains(msg, "short") {
		t.Errorf("the error shows the key: %s", msg)
	}
}

// TestMaskFieldsRepeatedValues masks batches whose consecutive records
// repeat and change values (the processor reuses the previous record's
// mask), twice (the keyed hasher is reused): every record gets the mask
// of its own value.
func TestMaskFieldsRepeatedValues(t *testing.T) {
	const key = "0123456789abcdef-secret"
	mac := func(s string) string {
		m := hmac.New(sha256.New, []byte(key))
		m.Write([]byte(s))
		return hex.EncodeToString(m.Sum(nil))
	}
	p, _ := build(t, fields.MaskFieldsSpec(), map[string]string{"truncate.ip.fields": "src_ip", "hash.fields": "user", "hash.key": key})
	type in struct {
		ip   string
		user any
	}
	ins := []in{{"83.149.9.216", "frank"}, {"83.149.9.216", "frank"}, {"10.1.2.3", "frank"}, {"83.149.9.1", 5},
		{"host.example", "5"}, {"host.example", "anna"}, {"83.149.9.216", "anna"}, {"2001:db8:abcd:12::1", "frank"}}
	want := []string{
		`src_ip="83.149.9.0" user="` + mac("frank") + `"`, `src_ip="83.149.9.0" user="` + mac("frank") + `"`,
		`src_ip="10.1.2.0" user="` + mac("frank") + `"`, `src_ip="83.149.9.0" user="` + mac("5") + `"`,
		`src_ip="` + mac("host.example") + `" user="` + mac("5") + `"`, `src_ip="` + mac("host.example") + `" user="` + mac("anna") + `"`,
		`src_ip="83.149.9.0" user="` + mac("anna") + `"`, `src_ip="2001:db8:abcd::" user="` + mac("frank") + `"`,
	}
	for pass := 0; pass < 2; pass++ {
		var recs []*record.Record
		for _, x := range ins {
			recs = append(recs, rec("src_ip", x.ip, "user", x.user))
		}
		for i, r := range process(t, p, recs...) {
			if got := userFields(r); got != want[i] {
				t.Errorf("pass %d, record %d: got %s, want %s", pass, i, got, want[i])
			}
		}
	}
}
