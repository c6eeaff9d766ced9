package expr

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/weir-streams/weir/internal/record"
)

// node is one compiled operation. eval must not allocate on success for
// comparisons, logic and predicates: values are record.Value, which holds
// strings and numbers without a heap allocation.
type node interface {
	eval(r *record.Record) (record.Value, error)
}

var (
	valTrue  = record.BoolValue(true)
	valFalse = record.BoolValue(false)
)

func boolVal(b bool) record.Value {
	if b {
		return valTrue
	}
	return valFalse
}

type constNode struct{ v record.Value }

func (n constNode) eval(*record.Record) (record.Value, error) { return n.v, nil }

type fieldNode struct{ name string }

func (n fieldNode) eval(r *record.Record) (record.Value, error) {
	v, _ := r.Get(n.name)
	return v, nil
}

type hasNode struct{ name string }

func (n hasNode) eval(r *record.Record) (record.Value, error) { return boolVal(r.Has(n.name)), nil }

// truth reads a value as a condition: a boolean, or null as false.
func truth(v record.Value, what string) (bool, error) {
	switch v.Kind() {
	case record.Bool:
		b, _ := v.AsBool()
		return b, nil
	case record.Null:
		return false, nil
	}
	return false, fmt.Errorf("%s needs a boolean, got %s %s", what, v.Kind(), v)
}

type notNode struct{ x node }

func (n notNode) eval(r *record.Record) (record.Value, error) {
	v, err := n.x.eval(r)
	if err != nil {
		return v, err
	}
	b, err := truth(v, "not")
	return boolVal(!b), err
}

type andNode struct{ l, r node }

func (n andNode) eval(r *record.Record) (record.Value, error) {
	v, err := n.l.eval(r)
	if err != nil {
		return v, err
	}
	b, err := truth(v, "and")
	if err != nil || !b {
		return valFalse, err
	}
	if v, err = n.r.eval(r); err != nil {
		return v, err
	}
	b, err = truth(v, "and")
	return boolVal(b), err
}

type orNode struct{ l, r node }

func (n orNode) eval(r *record.Record) (record.Value, error) {
	v, err := n.l.eval(r)
	if err != nil {
		return v, err
	}
	b, err := truth(v, "or")
	if err != nil || b {
		return boolVal(b), err
	}
	if v, err = n.r.eval(r); err != nil {
		return v, err
	}
	b, err = truth(v, "or")
	return boolVal(b), err
}

type coalesceNode struct{ l, r node }

func (n coalesceNode) eval(r *record.Record) (record.Value, error) {
	v, err := n.l.eval(r)
	if err != nil || !v.IsNull() {
		return v, err
	}
	return n.r.eval(r)
}

type condNode struct{ c, a, b node }

func (n condNode) eval(r *record.Record) (record.Value, error) {
	v, err := n.c.eval(r)
	if err != nil {
		return v, err
	}
	b, err := truth(v, "the condition of ?:")
	if err != nil {
		return v, err
	}
	if b {
		return n.a.eval(r)
	}
	return n.b.eval(r)
}

// equal compares two values: numbers by value whatever their kind (200 ==
// 200.0), everything else by kind and content. A string never equals a
// number: convert the field first (ConvertFieldsType) or compare with a
// string.
func equal(a, b record.Value) bool {
	if isNumber(a) && isNumber(b) {
		if a.Kind() == record.Int && b.Kind() == record.Int {
			x, _ := a.AsInt()
			y, _ := b.AsInt()
			return x == y
		}
		x, _ := a.AsFloat()
		y, _ := b.AsFloat()
		return x == y
	}
	return a.Equal(b)
}

func isNumber(v record.Value) bool { return v.Kind() == record.Int || v.Kind() == record.Float }

type eqNode struct {
	l, r node
	neg  bool
}

func (n eqNode) eval(r *record.Record) (record.Value, error) {
	a, err := n.l.eval(r)
	if err != nil {
		return a, err
	}
	b, err := n.r.eval(r)
	if err != nil {
		return b, err
	}
	return boolVal(equal(a, b) != n.neg), nil
}

type cmpNode struct {
	op   string
	l, r node
}

func (n cmpNode) eval(r *record.Record) (record.Value, error) {
	a, err := n.l.eval(r)
	if err != nil {
		return a, err
	}
	b, err := n.r.eval(r)
	if err != nil {
		return b, err
	}
	var c int
	switch {
	case a.IsNull() || b.IsNull():
		// A missing field satisfies no ordering, as SQL's NULL.
		return valFalse, nil
	case a.Kind() == record.Int && b.Kind() == record.Int:
		x, _ := a.AsInt()
		y, _ := b.AsInt()
		c = cmp3(x, y)
	case isNumber(a) && isNumber(b):
		x, _ := a.AsFloat()
		y, _ := b.AsFloat()
		if math.IsNaN(x) || math.IsNaN(y) {
			return valFalse, nil
		}
		c = cmp3(x, y)
	case a.Kind() == record.String && b.Kind() == record.String:
		x, _ := a.AsString()
		y, _ := b.AsString()
		c = strings.Compare(x, y)
	default:
		return record.Value{}, fmt.Errorf("cannot compare %s %s with %s %s using %s", a.Kind(), a, b.Kind(), b, n.op)
	}
	switch n.op {
	case "<":
		return boolVal(c < 0), nil
	case "<=":
		return boolVal(c <= 0), nil
	case ">":
		return boolVal(c > 0), nil
	}
	return boolVal(c >= 0), nil
}

func cmp3[T int64 | float64](x, y T) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

type arithNode struct {
	op   byte
	l, r node
}

func (n arithNode) eval(r *record.Record) (record.Value, error) {
	a, err := n.l.eval(r)
	if err != nil {
		return a, err
	}
	b, err := n.r.eval(r)
	if err != nil {
		return b, err
	}
	if n.op == '+' && (a.Kind() == record.String || b.Kind() == record.String) {
		// Concatenation renders the other side as text, as LogIsland's
		// "bonjour" + 14 does.
		return record.StringValue(a.Text() + b.Text()), nil
	}
	if !isNumber(a) || !isNumber(b) {
		return record.Value{}, fmt.Errorf("operator %c needs numbers, got %s %s and %s %s", n.op, a.Kind(), a, b.Kind(), b)
	}
	if a.Kind() == record.Int && b.Kind() == record.Int {
		x, _ := a.AsInt()
		y, _ := b.AsInt()
		switch n.op {
		case '+':
			return record.IntValue(x + y), nil
		case '-':
			return record.IntValue(x - y), nil
		case '*':
			return record.IntValue(x * y), nil
		case '%':
			if y == 0 {
				return record.Value{}, fmt.Errorf("modulo by zero")
			}
			return record.IntValue(x % y), nil
		}
		// Division of integers gives a float, as in expr-lang.
	}
	x, _ := a.AsFloat()
	y, _ := b.AsFloat()
	switch n.op {
	case '+':
		return record.FloatValue(x + y), nil
	case '-':
		return record.FloatValue(x - y), nil
	case '*':
		return record.FloatValue(x * y), nil
	case '/':
		return record.FloatValue(x / y), nil
	}
	return record.FloatValue(math.Mod(x, y)), nil
}

type negNode struct{ x node }

func (n negNode) eval(r *record.Record) (record.Value, error) {
	v, err := n.x.eval(r)
	if err != nil {
		return v, err
	}
	switch v.Kind() {
	case record.Int:
		i, _ := v.AsInt()
		return record.IntValue(-i), nil
	case record.Float:
		f, _ := v.AsFloat()
		return record.FloatValue(-f), nil
	}
	return record.Value{}, fmt.Errorf("cannot negate %s %s", v.Kind(), v)
}

type inNode struct {
	x    node
	vals []record.Value
	not  bool
}

func (n inNode) eval(r *record.Record) (record.Value, error) {
	v, err := n.x.eval(r)
	if err != nil {
		return v, err
	}
	for _, c := range n.vals {
		if equal(v, c) {
			return boolVal(!n.not), nil
		}
	}
	return boolVal(n.not), nil
}

type matchNode struct {
	x   node
	re  *regexp.Regexp
	not bool
}

func (n matchNode) eval(r *record.Record) (record.Value, error) {
	v, err := n.x.eval(r)
	if err != nil {
		return v, err
	}
	s, ok := v.AsString()
	if !ok {
		if v.IsNull() {
			return valFalse, nil
		}
		return record.Value{}, fmt.Errorf("matches needs a string, got %s %s", v.Kind(), v)
	}
	return boolVal(n.re.MatchString(s) != n.not), nil
}

type strPredNode struct {
	op   string
	l, r node
}

func (n strPredNode) eval(r *record.Record) (record.Value, error) {
	a, err := n.l.eval(r)
	if err != nil {
		return a, err
	}
	b, err := n.r.eval(r)
	if err != nil {
		return b, err
	}
	if a.IsNull() || b.IsNull() {
		return valFalse, nil
	}
	x, ok1 := a.AsString()
	y, ok2 := b.AsString()
	if !ok1 || !ok2 {
		return record.Value{}, fmt.Errorf("%s needs strings, got %s %s and %s %s", n.op, a.Kind(), a, b.Kind(), b)
	}
	switch n.op {
	case "startsWith":
		return boolVal(strings.HasPrefix(x, y)), nil
	case "endsWith":
		return boolVal(strings.HasSuffix(x, y)), nil
	}
	return boolVal(strings.Contains(x, y)), nil
}

type callNode struct {
	name string
	fn   func(record.Value) (record.Value, error)
	x    node
}

func (n callNode) eval(r *record.Record) (record.Value, error) {
	v, err := n.x.eval(r)
	if err != nil {
		return v, err
	}
	out, err := n.fn(v)
	if err != nil {
		return out, fmt.Errorf("%s: %w", n.name, err)
	}
	return out, nil
}

func fnLen(v record.Value) (record.Value, error) {
	switch v.Kind() {
	case record.String:
		s, _ := v.AsString()
		return record.IntValue(int64(len([]rune(s)))), nil
	case record.Array:
		a, _ := v.AsArray()
		return record.IntValue(int64(len(a))), nil
	case record.Map:
		m, _ := v.AsMap()
		return record.IntValue(int64(len(m))), nil
	case record.Bytes:
		b, _ := v.AsBytes()
		return record.IntValue(int64(len(b))), nil
	case record.Null:
		return record.IntValue(0), nil
	}
	return record.Value{}, fmt.Errorf("no length for %s %s", v.Kind(), v)
}

func stringArg(v record.Value) (string, bool, error) {
	if v.IsNull() {
		return "", false, nil
	}
	s, ok := v.AsString()
	if !ok {
		return "", false, fmt.Errorf("needs a string, got %s %s", v.Kind(), v)
	}
	return s, true, nil
}

func fnLower(v record.Value) (record.Value, error) {
	s, ok, err := stringArg(v)
	if !ok {
		return record.Value{}, err
	}
	return record.StringValue(strings.ToLower(s)), nil
}

func fnUpper(v record.Value) (record.Value, error) {
	s, ok, err := stringArg(v)
	if !ok {
		return record.Value{}, err
	}
	return record.StringValue(strings.ToUpper(s)), nil
}

func fnTrim(v record.Value) (record.Value, error) {
	s, ok, err := stringArg(v)
	if !ok {
		return record.Value{}, err
	}
	return record.StringValue(strings.TrimSpace(s)), nil
}

func fnString(v record.Value) (record.Value, error) {
	if v.Kind() == record.String || v.IsNull() {
		return v, nil
	}
	return record.StringValue(v.Text()), nil
}

func fnInt(v record.Value) (record.Value, error) {
	switch v.Kind() {
	case record.Int, record.Null:
		return v, nil
	case record.Float:
		f, _ := v.AsFloat()
		return record.IntValue(int64(f)), nil
	case record.String:
		s, _ := v.AsString()
		n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
		if err != nil {
			return record.Value{}, fmt.Errorf("%q is not an integer", s)
		}
		return record.IntValue(n), nil
	}
	return record.Value{}, fmt.Errorf("cannot convert %s %s to an integer", v.Kind(), v)
}

func fnFloat(v record.Value) (record.Value, error) {
	switch v.Kind() {
	case record.Float, record.Null:
		return v, nil
	case record.Int:
		f, _ := v.AsFloat()
		return record.FloatValue(f), nil
	case record.String:
		s, _ := v.AsString()
		f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil {
			return record.Value{}, fmt.Errorf("%q is not a number", s)
		}
		return record.FloatValue(f), nil
	}
	return record.Value{}, fmt.Errorf("cannot convert %s %s to a number", v.Kind(), v)
}

func fnAbs(v record.Value) (record.Value, error) {
	switch v.Kind() {
	case record.Int:
		i, _ := v.AsInt()
		if i < 0 {
			i = -i
		}
		return record.IntValue(i), nil
	case record.Float:
		f, _ := v.AsFloat()
		return record.FloatValue(math.Abs(f)), nil
	}
	return record.Value{}, fmt.Errorf("needs a number, got %s %s", v.Kind(), v)
}
