package fields

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/record"
)

// ConvertFieldsTypeName is the component identifier.
const ConvertFieldsTypeName = "pkg.processor.ConvertFieldsType"

// ErrConversion is the error type of a record whose conversion failed when
// conversion.failure is error.
const ErrConversion = "conversion_error"

var convertTypes = []string{"string", "int", "long", "float", "double", "boolean"}

// ConvertFieldsTypeSpec declares ConvertFieldsType.
func ConvertFieldsTypeSpec() component.Spec {
	return component.ProcessorSpec(component.Spec{
		Name: ConvertFieldsTypeName,
		Summary: "Converts fields to another type. Each dynamic key is a field name, its value the type: int, long " +
			"(both 64-bit integers), float, double (both 64-bit floats), boolean or string (case does not matter). " +
			"A value that does not convert is kept as it was and counted in convert_fields_type_total{outcome=\"failed\"}, " +
			"as LogIsland does, or makes the record an error record when conversion.failure is error. A missing field is left alone.",
		DynamicProperties: true,
		DynamicKeys:       "a field to convert, its value the type",
		DynamicExamples:   map[string]string{"src_ip": "string", "record_time": "long"},
		Properties: []component.Property{
			{Key: "conversion.failure", Description: "What a value that does not convert does: keep (the value stays as it was) or error (the record becomes an error record, conversion_error).",
				Default: "keep", Validator: component.Enum("keep", "error")},
		},
	}, newConvertFieldsType)
}

// ConvertFieldsTypeConfig is ConvertFieldsType's configuration.
type ConvertFieldsTypeConfig struct {
	Failure string            `key:"conversion.failure"`
	Types   map[string]string `key:",dynamic"`
	convs   []conversion
}

// Validate reads the type each field converts to.
func (c *ConvertFieldsTypeConfig) Validate() error {
	return parseDynamic(&c.convs, c.Types, func(k, v string) (conversion, error) {
		t, err := parseConvertType(v)
		return conversion{field: k, to: t}, err
	})
}

type convertType uint8

const (
	toString convertType = iota
	toInt
	toFloat
	toBool
)

func parseConvertType(s string) (convertType, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "string":
		return toString, nil
	case "int", "long", "integer":
		return toInt, nil
	case "float", "double":
		return toFloat, nil
	case "boolean", "bool":
		return toBool, nil
	}
	return 0, fmt.Errorf("%q is not a type (one of %s)", s, strings.Join(convertTypes, ", "))
}

type conversion struct {
	field string
	to    convertType
}

// ConvertFieldsType is the processor.
type ConvertFieldsType struct {
	convs     []conversion
	failError bool
	converted prometheus.Counter
	failed    prometheus.Counter
}

func newConvertFieldsType(c *ConvertFieldsTypeConfig, env component.Env) (component.Processor, error) {
	return &ConvertFieldsType{
		convs:     c.convs,
		failError: c.Failure == "error",
		converted: counter(env, "convert_fields_type_total", "Field values ConvertFieldsType saw, by outcome.", "converted"),
		failed:    counter(env, "convert_fields_type_total", "Field values ConvertFieldsType saw, by outcome.", "failed"),
	}, nil
}

// Process converts the fields of every record in place.
func (p *ConvertFieldsType) Process(_ context.Context, b *component.Batch) error {
	var ok, bad int
	for _, r := range b.Records {
		for _, c := range p.convs {
			v, has := r.Get(c.field)
			if !has || v.IsNull() {
				continue
			}
			out, good := convert(v, c.to)
			if !good {
				bad++
				if p.failError {
					r.AddError(ErrConversion, fmt.Sprintf("field %s: cannot convert %s %s to %s", c.field, v.Kind(), v, convertTypes[typeIndex(c.to)]))
					break
				}
				continue
			}
			ok++
			r.Set(c.field, out)
		}
	}
	count(p.converted, ok)
	count(p.failed, bad)
	return nil
}

func typeIndex(t convertType) int {
	switch t {
	case toInt:
		return 1
	case toFloat:
		return 3
	case toBool:
		return 5
	}
	return 0
}

// convert converts v to the type. Strings are trimmed first. A float
// converts to an integer only when it is whole, so nothing is silently
// lost; a string like "1.0" converts to an integer the same way.
// convertKinds is the kind of value each type converts to: a value of
// that kind already is converted.
var convertKinds = [...]record.Kind{toString: record.String, toInt: record.Int, toFloat: record.Float, toBool: record.Bool}

func convert(v record.Value, to convertType) (record.Value, bool) {
	if v.Kind() == convertKinds[to] {
		return v, true
	}
	switch to {
	case toString:
		if v.Kind() == record.Array || v.Kind() == record.Map {
			return v, false
		}
		return record.StringValue(v.Text()), true
	case toInt:
		switch v.Kind() {
		case record.Float:
			f, _ := v.AsFloat()
			return floatToInt(f)
		case record.Bool:
			b, _ := v.AsBool()
			if b {
				return record.IntValue(1), true
			}
			return record.IntValue(0), true
		case record.String:
			s, _ := v.AsString()
			// Most values are plain integers: read them directly, and
			// send only the rest through strconv, whose failures
			// allocate an error (Apache's "-" for no body is common).
			if n, ok := atoi(s); ok {
				return record.IntValue(n), true
			}
			if !strings.ContainsAny(s, "0123456789") {
				return v, false // no number of any form has no digit
			}
			s = strings.TrimSpace(s)
			if n, err := strconv.ParseInt(s, 10, 64); err == nil {
				return record.IntValue(n), true
			}
			if f, err := strconv.ParseFloat(s, 64); err == nil {
				return floatToInt(f)
			}
		}
	case toFloat:
		switch v.Kind() {
		case record.Int:
			f, _ := v.AsFloat()
			return record.FloatValue(f), true
		case record.String:
			s, _ := v.AsString()
			if f, err := strconv.ParseFloat(strings.TrimSpace(s), 64); err == nil {
				return record.FloatValue(f), true
			}
		}
	case toBool:
		switch v.Kind() {
		case record.Int:
			n, _ := v.AsInt()
			if n == 0 || n == 1 {
				return record.BoolValue(n == 1), true
			}
		case record.String:
			s, _ := v.AsString()
			switch strings.ToLower(strings.TrimSpace(s)) {
			case "true":
				return record.BoolValue(true), true
			case "false":
				return record.BoolValue(false), true
			}
		}
	}
	return v, false
}

// atoi reads a plain decimal integer, an optional sign and 1 to 18
// digits (which cannot overflow), as strconv.ParseInt would; ok is false
// for anything else, which strconv then decides.
func atoi(s string) (n int64, ok bool) {
	i := 0
	if len(s) > 0 && (s[0] == '-' || s[0] == '+') {
		i = 1
	}
	if i == len(s) || len(s)-i > 18 {
		return 0, false
	}
	for _, c := range []byte(s[i:]) {
		d := c - '0'
		if d > 9 {
			return 0, false
		}
		n = n*10 + int64(d)
	}
	if s[0] == '-' {
		n = -n
	}
	return n, true
}

func floatToInt(f float64) (record.Value, bool) {
	if f != math.Trunc(f) || f < math.MinInt64 || f >= math.MaxInt64 {
		return record.Value{}, false
	}
	return record.IntValue(int64(f)), true
}
