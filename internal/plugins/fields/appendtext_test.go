package fields

import (
	"strconv"
	"testing"

	"github.com/weir-streams/weir/internal/record"
)

// TestAppendTextIsText: ids and hashes are built with appendText, which
// must render every kind as Value.Text does (ids written before it must
// not change).
func TestAppendTextIsText(t *testing.T) {
	for _, v := range []record.Value{
		record.StringValue("83.149.9.216"), record.StringValue(""), record.IntValue(-1400000000000), record.IntValue(0),
		record.FloatValue(0.1), record.FloatValue(1e21), record.FloatValue(-3), record.BoolValue(true), record.BoolValue(false),
		record.BytesValue([]byte("raw")), record.StringsValue([]string{"a", "b\""}),
		record.MapValue(map[string]record.Value{"k": record.IntValue(1)}), {},
	} {
		if got := string(appendText([]byte("x"), v)); got != "x"+v.Text() {
			t.Errorf("appendText(%s %s) = %q, want %q", v.Kind(), v, got, "x"+v.Text())
		}
	}
}

// TestAtoiIsParseInt: the fast integer reader of ConvertFieldsType reads
// plain integers as strconv.ParseInt does, and leaves the rest (ok false)
// to strconv.
func TestAtoiIsParseInt(t *testing.T) {
	for _, tt := range []struct {
		s  string
		ok bool
	}{
		{"0", true}, {"200", true}, {"-1", true}, {"+7", true}, {"007", true}, {"-0", true},
		{"999999999999999999", true}, {"-999999999999999999", true},
		{"9223372036854775807", false}, {"-9223372036854775808", false}, {"9223372036854775808", false}, // 19 digits: strconv's
		{"", false}, {"-", false}, {"+", false}, {"1.0", false}, {" 1", false}, {"1 ", false}, {"1_000", false},
		{"0x10", false}, {"12a", false}, {"٣", false}, {"--1", false},
	} {
		n, ok := atoi(tt.s)
		if ok != tt.ok {
			t.Errorf("atoi(%q) ok = %v, want %v", tt.s, ok, tt.ok)
			continue
		}
		if want, err := strconv.ParseInt(tt.s, 10, 64); ok && (err != nil || n != want) {
			t.Errorf("atoi(%q) = %d, ParseInt gives %d, %v", tt.s, n, want, err)
		}
	}
}
