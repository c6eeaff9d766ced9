package record

import (
	"math"
	"strconv"
)

// Kind is the type of a field value.
type Kind uint8

// The kinds of field values. Kind zero is Null so that the zero Value is a null.
const (
	Null Kind = iota
	String
	Int
	Float
	Bool
	Bytes
	Array
	Map
)

var kindNames = [...]string{"null", "string", "int", "float", "bool", "bytes", "array", "map"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Value is a typed field value. It is a small tagged union rather than an
// interface so that strings and integers, the bulk of every record, are
// stored without a heap allocation of their own.
//
// Values are immutable once made: Array and Map values share their backing
// storage, so callers must not modify what AsArray or AsMap return.
type Value struct {
	kind Kind
	str  string
	num  uint64 // Int, Float (IEEE bits) and Bool
	ref  any    // []byte, []Value or map[string]Value
}

// StringValue returns a string value.
func StringValue(s string) Value { return Value{kind: String, str: s} }

// IntValue returns an integer value.
func IntValue(n int64) Value { return Value{kind: Int, num: uint64(n)} }

// FloatValue returns a floating-point value.
func FloatValue(f float64) Value { return Value{kind: Float, num: math.Float64bits(f)} }

// BoolValue returns a boolean value.
func BoolValue(b bool) Value {
	v := Value{kind: Bool}
	if b {
		v.num = 1
	}
	return v
}

// BytesValue returns a bytes value. The slice is kept, not copied.
func BytesValue(b []byte) Value { return Value{kind: Bytes, ref: b} }

// ArrayValue returns an array value. The slice is kept, not copied.
func ArrayValue(a []Value) Value { return Value{kind: Array, ref: a} }

// MapValue returns a map value. The map is kept, not copied.
func MapValue(m map[string]Value) Value { return Value{kind: Map, ref: m} }

// StringsValue returns an array of string values.
func StringsValue(ss []string) Value {
	a := make([]Value, len(ss))
	for i, s := range ss {
		a[i] = StringValue(s)
	}
	return ArrayValue(a)
}

// Kind returns the kind of the value.
func (v Value) Kind() Kind { return v.kind }

// IsNull reports whether the value is null.
func (v Value) IsNull() bool { return v.kind == Null }

// AsString returns the string and whether the value is a string.
func (v Value) AsString() (string, bool) { return v.str, v.kind == String }

// AsInt returns the integer and whether the value is an integer.
func (v Value) AsInt() (int64, bool) { return int64(v.num), v.kind == Int }

// AsFloat returns the number as a float64 and whether the value is a number
// (an integer converts).
func (v Value) AsFloat() (float64, bool) {
	switch v.kind {
	case Float:
		return math.Float64frombits(v.num), true
	case Int:
		return float64(int64(v.num)), true
	}
	return 0, false
}

// AsBool returns the boolean and whether the value is a boolean.
func (v Value) AsBool() (bool, bool) { return v.num == 1, v.kind == Bool }

// AsBytes returns the bytes and whether the value is a bytes value.
func (v Value) AsBytes() ([]byte, bool) {
	b, ok := v.ref.([]byte)
	return b, ok && v.kind == Bytes
}

// AsArray returns the elements and whether the value is an array.
func (v Value) AsArray() ([]Value, bool) {
	a, ok := v.ref.([]Value)
	return a, ok && v.kind == Array
}

// AsMap returns the entries and whether the value is a map.
func (v Value) AsMap() (map[string]Value, bool) {
	m, ok := v.ref.(map[string]Value)
	return m, ok && v.kind == Map
}

// Text renders a scalar value as text: strings as they are, numbers in
// decimal, booleans as true/false, bytes as their string, null as "".
// Arrays and maps are rendered as JSON.
func (v Value) Text() string {
	switch v.kind {
	case String:
		return v.str
	case Int:
		return strconv.FormatInt(int64(v.num), 10)
	case Float:
		return strconv.FormatFloat(math.Float64frombits(v.num), 'g', -1, 64)
	case Bool:
		return strconv.FormatBool(v.num == 1)
	case Bytes:
		b, _ := v.AsBytes()
		return string(b)
	case Array, Map:
		return string(AppendJSON(nil, v))
	}
	return ""
}

// Interface returns the value as a plain Go value: string, int64, float64,
// bool, []byte, []any, map[string]any or nil. Sinks that speak other type
// systems (a database driver, say) start from here.
func (v Value) Interface() any {
	switch v.kind {
	case String:
		return v.str
	case Int:
		return int64(v.num)
	case Float:
		return math.Float64frombits(v.num)
	case Bool:
		return v.num == 1
	case Bytes:
		b, _ := v.AsBytes()
		return b
	case Array:
		a, _ := v.AsArray()
		out := make([]any, len(a))
		for i, e := range a {
			out[i] = e.Interface()
		}
		return out
	case Map:
		m, _ := v.AsMap()
		out := make(map[string]any, len(m))
		for k, e := range m {
			out[k] = e.Interface()
		}
		return out
	}
	return nil
}

// Equal reports whether two values have the same kind and content.
func (v Value) Equal(o Value) bool {
	if v.kind != o.kind {
		return false
	}
	switch v.kind {
	case Null:
		return true
	case String:
		return v.str == o.str
	case Int, Float, Bool:
		return v.num == o.num
	case Bytes:
		a, _ := v.AsBytes()
		b, _ := o.AsBytes()
		return string(a) == string(b)
	case Array:
		a, _ := v.AsArray()
		b, _ := o.AsArray()
		if len(a) != len(b) {
			return false
		}
		for i := range a {
			if !a[i].Equal(b[i]) {
				return false
			}
		}
		return true
	case Map:
		a, _ := v.AsMap()
		b, _ := o.AsMap()
		if len(a) != len(b) {
			return false
		}
		for k, e := range a {
			f, ok := b[k]
			if !ok || !e.Equal(f) {
				return false
			}
		}
		return true
	}
	return false
}
