package record

import (
	"math"
	"strconv"
	"unsafe"
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
// It is 24 bytes: one pointer word, one number word and the kind. Records
// are created by the thousand per batch and every field holds a Value, so
// its size is what the stream zeroes, copies and has the garbage collector
// scan for every field (a layout with a string, a number and an interface
// took 48 bytes and made field storage the largest allocation of a batch).
// The pointer word is the data of a string, of the bytes of a Bytes value or
// of the elements of an Array, or the boxed map of a Map; the number word is
// the length of those, or the integer, the IEEE bits of a float, or 1 for
// true. The garbage collector follows ptr as it follows any pointer, so the
// data it points to stays alive as long as the Value does.
//
// Values are immutable once made: Array and Map values share their backing
// storage, so callers must not modify what AsArray or AsMap return.
type Value struct {
	ptr  unsafe.Pointer
	num  uint64
	kind Kind
}

// StringValue returns a string value.
func StringValue(s string) Value {
	return Value{kind: String, ptr: unsafe.Pointer(unsafe.StringData(s)), num: uint64(len(s))}
}

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

// BytesValue returns a bytes value. The slice is kept, not copied (AsBytes
// returns it with its capacity cut to its length).
func BytesValue(b []byte) Value {
	return Value{kind: Bytes, ptr: unsafe.Pointer(unsafe.SliceData(b)), num: uint64(len(b))}
}

// ArrayValue returns an array value. The slice is kept, not copied (AsArray
// returns it with its capacity cut to its length).
func ArrayValue(a []Value) Value {
	return Value{kind: Array, ptr: unsafe.Pointer(unsafe.SliceData(a)), num: uint64(len(a))}
}

// MapValue returns a map value. The map is kept, not copied. It is boxed so
// that the Value holds an ordinary pointer; maps are rare in records, so the
// small allocation is not worth avoiding.
func MapValue(m map[string]Value) Value {
	box := new(map[string]Value)
	*box = m
	return Value{kind: Map, ptr: unsafe.Pointer(box)}
}

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
func (v Value) AsString() (string, bool) {
	if v.kind != String {
		return "", false
	}
	return v.string(), true
}

// string returns the string of a String value; v.kind must be String.
func (v Value) string() string { return unsafe.String((*byte)(v.ptr), int(v.num)) }

// AsInt returns the integer and whether the value is an integer.
func (v Value) AsInt() (int64, bool) {
	if v.kind != Int {
		return 0, false
	}
	return int64(v.num), true
}

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
func (v Value) AsBool() (bool, bool) {
	if v.kind != Bool {
		return false, false
	}
	return v.num == 1, true
}

// AsBytes returns the bytes and whether the value is a bytes value.
func (v Value) AsBytes() ([]byte, bool) {
	if v.kind != Bytes {
		return nil, false
	}
	return unsafe.Slice((*byte)(v.ptr), int(v.num)), true
}

// AsArray returns the elements and whether the value is an array.
func (v Value) AsArray() ([]Value, bool) {
	if v.kind != Array {
		return nil, false
	}
	return unsafe.Slice((*Value)(v.ptr), int(v.num)), true
}

// AsMap returns the entries and whether the value is a map.
func (v Value) AsMap() (map[string]Value, bool) {
	if v.kind != Map || v.ptr == nil {
		return nil, false
	}
	return *(*map[string]Value)(v.ptr), true
}

// String renders the value as JSON, for logs and test failures. (Printing
// the struct itself would show the address of a string, not the string.)
func (v Value) String() string { return string(AppendJSON(nil, v)) }

// Text renders a scalar value as text: strings as they are, numbers in
// decimal, booleans as true/false, bytes as their string, null as "".
// Arrays and maps are rendered as JSON.
func (v Value) Text() string {
	switch v.kind {
	case String:
		return v.string()
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
		return v.string()
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
		return v.string() == o.string()
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
