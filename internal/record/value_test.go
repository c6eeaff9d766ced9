package record_test

import (
	"math"
	"reflect"
	"testing"
	"unsafe"

	"github.com/weir-streams/weir/internal/record"
)

func TestValueKinds(t *testing.T) {
	arr := []record.Value{record.IntValue(1), record.StringValue("b")}
	m := map[string]record.Value{"k": record.BoolValue(true)}
	tests := []struct {
		v         record.Value
		kind      record.Kind
		text      string
		iface     any
		asFloat   float64
		isNumeric bool
	}{
		{record.Value{}, record.Null, "", nil, 0, false},
		{record.StringValue("héllo"), record.String, "héllo", "héllo", 0, false},
		{record.IntValue(-42), record.Int, "-42", int64(-42), -42, true},
		{record.IntValue(math.MaxInt64), record.Int, "9223372036854775807", int64(math.MaxInt64), math.MaxInt64, true},
		{record.FloatValue(2.5), record.Float, "2.5", 2.5, 2.5, true},
		{record.FloatValue(1e21), record.Float, "1e+21", 1e21, 1e21, true},
		{record.BoolValue(true), record.Bool, "true", true, 0, false},
		{record.BoolValue(false), record.Bool, "false", false, 0, false},
		{record.BytesValue([]byte("raw")), record.Bytes, "raw", []byte("raw"), 0, false},
		{record.ArrayValue(arr), record.Array, `[1,"b"]`, []any{int64(1), "b"}, 0, false},
		{record.MapValue(m), record.Map, `{"k":true}`, map[string]any{"k": true}, 0, false},
		{record.StringsValue([]string{"x", "y"}), record.Array, `["x","y"]`, []any{"x", "y"}, 0, false},
	}
	for _, tt := range tests {
		v := tt.v
		if v.Kind() != tt.kind {
			t.Errorf("%v: kind %v, want %v", tt.iface, v.Kind(), tt.kind)
		}
		if v.IsNull() != (tt.kind == record.Null) {
			t.Errorf("%v: IsNull %v", tt.iface, v.IsNull())
		}
		if got := v.Text(); got != tt.text {
			t.Errorf("%v: Text %q, want %q", tt.iface, got, tt.text)
		}
		if got := v.Interface(); !reflect.DeepEqual(got, tt.iface) {
			t.Errorf("%v: Interface %#v, want %#v", tt.iface, got, tt.iface)
		}
		f, ok := v.AsFloat()
		if ok != tt.isNumeric || f != tt.asFloat {
			t.Errorf("%v: AsFloat %v %v, want %v %v", tt.iface, f, ok, tt.asFloat, tt.isNumeric)
		}
		// Each accessor answers true for its own kind only.
		if _, ok := v.AsString(); ok != (tt.kind == record.String) {
			t.Errorf("%v: AsString ok %v", tt.iface, ok)
		}
		if _, ok := v.AsInt(); ok != (tt.kind == record.Int) {
			t.Errorf("%v: AsInt ok %v", tt.iface, ok)
		}
		if _, ok := v.AsBool(); ok != (tt.kind == record.Bool) {
			t.Errorf("%v: AsBool ok %v", tt.iface, ok)
		}
		if _, ok := v.AsBytes(); ok != (tt.kind == record.Bytes) {
			t.Errorf("%v: AsBytes ok %v", tt.iface, ok)
		}
		if _, ok := v.AsArray(); ok != (tt.kind == record.Array) {
			t.Errorf("%v: AsArray ok %v", tt.iface, ok)
		}
		if _, ok := v.AsMap(); ok != (tt.kind == record.Map) {
			t.Errorf("%v: AsMap ok %v", tt.iface, ok)
		}
		if !v.Equal(v) {
			t.Errorf("%v is not equal to itself", tt.iface)
		}
	}
	if n, _ := record.IntValue(7).AsInt(); n != 7 {
		t.Errorf("AsInt = %d", n)
	}
	if b, _ := record.BoolValue(true).AsBool(); !b {
		t.Error("AsBool of true is false")
	}
}

func TestKindString(t *testing.T) {
	want := []string{"null", "string", "int", "float", "bool", "bytes", "array", "map"}
	for k, name := range want {
		if got := record.Kind(k).String(); got != name {
			t.Errorf("Kind(%d) = %q, want %q", k, got, name)
		}
	}
	if got := record.Kind(99).String(); got != "kind(99)" {
		t.Errorf("Kind(99) = %q", got)
	}
}

func TestValueEqual(t *testing.T) {
	s := record.StringValue
	i := record.IntValue
	arr := func(vs ...record.Value) record.Value { return record.ArrayValue(vs) }
	mp := func(kv ...any) record.Value {
		m := map[string]record.Value{}
		for j := 0; j < len(kv); j += 2 {
			m[kv[j].(string)] = kv[j+1].(record.Value)
		}
		return record.MapValue(m)
	}
	tests := []struct {
		name string
		a, b record.Value
		want bool
	}{
		{"nulls", record.Value{}, record.Value{}, true},
		{"same strings", s("a"), s("a"), true},
		{"different strings", s("a"), s("b"), false},
		{"int and string of it", i(1), s("1"), false},
		{"int and float of one value", i(1), record.FloatValue(1), false},
		{"null and empty string", record.Value{}, s(""), false},
		{"bool and int 1", record.BoolValue(true), i(1), false},
		{"bytes and string", record.BytesValue([]byte("a")), s("a"), false},
		{"bytes by content", record.BytesValue([]byte("ab")), record.BytesValue([]byte("ab")), true},
		{"nil and empty bytes", record.BytesValue(nil), record.BytesValue([]byte{}), true},
		{"arrays", arr(i(1), s("x")), arr(i(1), s("x")), true},
		{"arrays in another order", arr(i(1), s("x")), arr(s("x"), i(1)), false},
		{"array and its prefix", arr(i(1), i(2)), arr(i(1)), false},
		{"nested arrays", arr(arr(i(1))), arr(arr(i(2))), false},
		{"maps", mp("a", i(1), "b", s("x")), mp("b", s("x"), "a", i(1)), true},
		{"maps with other values", mp("a", i(1)), mp("a", i(2)), false},
		{"maps with other keys", mp("a", i(1)), mp("b", i(1)), false},
		{"map and its subset", mp("a", i(1), "b", i(2)), mp("a", i(1)), false},
		{"empty array and empty map", arr(), mp(), false},
	}
	for _, tt := range tests {
		if got := tt.a.Equal(tt.b); got != tt.want {
			t.Errorf("%s: Equal = %v, want %v", tt.name, got, tt.want)
		}
		if got := tt.b.Equal(tt.a); got != tt.want {
			t.Errorf("%s: Equal the other way = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestValueSize pins the size of Value: every field of every record holds
// one, so a larger layout costs zeroing, copying and scanning in every batch.
func TestValueSize(t *testing.T) {
	if n := unsafe.Sizeof(record.Value{}); n != 24 {
		t.Errorf("Value is %d bytes, want 24", n)
	}
}

// TestValueAccessorsOfOtherKinds checks that an accessor of another kind
// returns the zero value, whatever the pointer and number words hold.
func TestValueAccessorsOfOtherKinds(t *testing.T) {
	s := record.StringValue("x") // length 1 in the number word
	if n, ok := s.AsInt(); n != 0 || ok {
		t.Errorf("AsInt of a string = %d, %v", n, ok)
	}
	if b, ok := s.AsBool(); b || ok {
		t.Errorf("AsBool of a string = %v, %v", b, ok)
	}
	if b, ok := s.AsBytes(); b != nil || ok {
		t.Errorf("AsBytes of a string = %v, %v", b, ok)
	}
	if str, ok := record.IntValue(5).AsString(); str != "" || ok {
		t.Errorf("AsString of an int = %q, %v", str, ok)
	}
	if b, ok := record.BytesValue([]byte{}).AsBytes(); b == nil || len(b) != 0 || !ok {
		t.Errorf("AsBytes of empty bytes = %#v, %v", b, ok)
	}
	if b, ok := record.BytesValue(nil).AsBytes(); b != nil || !ok {
		t.Errorf("AsBytes of nil bytes = %#v, %v", b, ok)
	}
	if m, ok := record.MapValue(nil).AsMap(); m != nil || !ok {
		t.Errorf("AsMap of a nil map = %v, %v", m, ok)
	}
}
