package expr

import (
	"cmp"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/weir-streams/weir/internal/record"
)

// node is one compiled operation. eval must not allocate on success for
// comparisons, logic and predicates: values are record.Value, which holds
// strings and numbers without a heap allocation.
type node interface {
	eval(r *record.Record) (record.Value, error)
}

// tester is a node that gives a boolean (comparisons, logic, predicates):
// test answers without building a record.Value, so that conditions, the
// common case, take the shortest path. Boolean nodes are compiled as a
// boolNode around their tester.
type tester interface {
	test(r *record.Record) (bool, error)
}

// boolNode is a boolean node: the node form of a tester.
type boolNode struct{ t tester }

func (n boolNode) eval(r *record.Record) (record.Value, error) {
	b, err := n.t.test(r)
	return boolVal(b), err
}

// asTester returns what reads x as a condition: its own tester when x is
// boolean, or one that applies truth to its value, naming what needs the
// boolean in its error.
func asTester(x node, what string) tester {
	if b, ok := x.(boolNode); ok {
		return b.t
	}
	return truthTest{x, what}
}

type truthTest struct {
	x    node
	what string
}

func (n truthTest) test(r *record.Record) (bool, error) {
	v, err := n.x.eval(r)
	if err != nil {
		return false, err
	}
	return truth(v, n.what)
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

// fieldNode reads a field. Records of one stream have their fields in the
// same order (the parser sets them so), so the node remembers where it
// last found its field and looks there first: one name comparison instead
// of a scan. The hint is atomic because a Program is shared by the
// partitions of a stream; a wrong hint only costs the scan.
type fieldNode struct {
	name string
	hint atomic.Int32
}

func (n *fieldNode) eval(r *record.Record) (record.Value, error) {
	v, _ := n.get(r)
	return v, nil
}

// get returns the field's value and whether the record has it.
func (n *fieldNode) get(r *record.Record) (record.Value, bool) {
	fs := r.Fields()
	if i := int(n.hint.Load()); i < len(fs) && fs[i].Name == n.name {
		return fs[i].Value, true
	}
	return n.find(r)
}

func (n *fieldNode) find(r *record.Record) (record.Value, bool) {
	if !r.Has(n.name) { // the record's name bits prove most absences without a scan
		return record.Value{}, false
	}
	fs := r.Fields()
	for i := range fs {
		if fs[i].Name == n.name {
			n.hint.Store(int32(i))
			return fs[i].Value, true
		}
	}
	return record.Value{}, false
}

type hasTest struct{ name string }

func (n hasTest) test(r *record.Record) (bool, error) { return r.Has(n.name), nil }

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

type notTest struct{ x tester }

func (n notTest) test(r *record.Record) (bool, error) {
	b, err := n.x.test(r)
	return !b, err
}

// logicTest is and (or false) and or (or true): the left side decides
// when it equals or; otherwise the right side does.
type logicTest struct {
	l, r tester
	or   bool
}

func (n logicTest) test(r *record.Record) (bool, error) {
	b, err := n.l.test(r)
	if err != nil || b == n.or {
		return b, err
	}
	return n.r.test(r)
}

type coalesceNode struct{ l, r node }

func (n coalesceNode) eval(r *record.Record) (record.Value, error) {
	v, err := n.l.eval(r)
	if err != nil || !v.IsNull() {
		return v, err
	}
	return n.r.eval(r)
}

type condNode struct {
	c    tester
	a, b node
}

func (n condNode) eval(r *record.Record) (record.Value, error) {
	b, err := n.c.test(r)
	if err != nil {
		return record.Value{}, err
	}
	if b {
		return n.a.eval(r)
	}
	return n.b.eval(r)
}

// operands evaluates the two sides of a binary operator, left first.
func operands(r *record.Record, l, rt node) (record.Value, record.Value, error) {
	a, err := l.eval(r)
	if err != nil {
		return a, record.Value{}, err
	}
	b, err := rt.eval(r)
	return a, b, err
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

type eqTest struct {
	l, r node
	neg  bool
}

func (n eqTest) test(r *record.Record) (bool, error) {
	a, b, err := operands(r, n.l, n.r)
	if err != nil {
		return false, err
	}
	return equal(a, b) != n.neg, nil
}

// eqStringTest is x == "constant" (or !=), the most common comparison: a
// string equals only a string, so no other kind needs a look.
type eqStringTest struct {
	x   node
	s   string
	neg bool
}

func (n eqStringTest) test(r *record.Record) (bool, error) {
	v, err := n.x.eval(r)
	if err != nil {
		return false, err
	}
	s, ok := v.AsString()
	return (ok && s == n.s) != n.neg, nil
}

// Comparison operators of cmpTest.
type cmpOp uint8

const (
	opLT cmpOp = iota
	opLE
	opGT
	opGE
)

var cmpOps = map[string]cmpOp{"<": opLT, "<=": opLE, ">": opGT, ">=": opGE}

func (o cmpOp) String() string { return [...]string{"<", "<=", ">", ">="}[o] }

type cmpTest struct {
	op   cmpOp
	l, r node
}

func (n cmpTest) test(r *record.Record) (bool, error) {
	a, b, err := operands(r, n.l, n.r)
	if err != nil {
		return false, err
	}
	var c int
	switch {
	case a.IsNull() || b.IsNull():
		// A missing field satisfies no ordering, as SQL's NULL.
		return false, nil
	case a.Kind() == record.Int && b.Kind() == record.Int:
		x, _ := a.AsInt()
		y, _ := b.AsInt()
		c = cmp.Compare(x, y)
	case isNumber(a) && isNumber(b):
		x, _ := a.AsFloat()
		y, _ := b.AsFloat()
		if math.IsNaN(x) || math.IsNaN(y) {
			return false, nil
		}
		c = cmp.Compare(x, y)
	case a.Kind() == record.String && b.Kind() == record.String:
		x, _ := a.AsString()
		y, _ := b.AsString()
		c = strings.Compare(x, y)
	default:
		return false, fmt.Errorf("cannot compare %s %s with %s %s using %s", a.Kind(), a, b.Kind(), b, n.op)
	}
	switch n.op {
	case opLT:
		return c < 0, nil
	case opLE:
		return c <= 0, nil
	case opGT:
		return c > 0, nil
	}
	return c >= 0, nil
}

type arithNode struct {
	op   byte
	l, r node
}

func (n arithNode) eval(r *record.Record) (record.Value, error) {
	a, b, err := operands(r, n.l, n.r)
	if err != nil {
		return record.Value{}, err
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

// inTest is x in [constants]. When every constant is a string (the usual
// list of methods or paths), strs holds them and a value is compared as a
// string only: a value of another kind equals none of them.
type inTest struct {
	x    node
	vals []record.Value
	strs []string // vals as strings, when all are; nil otherwise
	not  bool
}

func (n inTest) test(r *record.Record) (bool, error) {
	v, err := n.x.eval(r)
	if err != nil {
		return false, err
	}
	if n.strs != nil {
		if s, ok := v.AsString(); ok {
			for _, c := range n.strs {
				if s == c {
					return !n.not, nil
				}
			}
		}
		return n.not, nil
	}
	for _, c := range n.vals {
		if equal(v, c) {
			return !n.not, nil
		}
	}
	return n.not, nil
}

type matchTest struct {
	x   node
	re  *regexp.Regexp
	not bool
}

func (n matchTest) test(r *record.Record) (bool, error) {
	v, err := n.x.eval(r)
	if err != nil {
		return false, err
	}
	s, ok := v.AsString()
	if !ok {
		if v.IsNull() {
			return false, nil
		}
		return false, fmt.Errorf("matches needs a string, got %s %s", v.Kind(), v)
	}
	return n.re.MatchString(s) != n.not, nil
}

// The string predicates of strPredTest.
type strPred uint8

const (
	predStartsWith strPred = iota
	predEndsWith
	predContains
)

var strPreds = map[string]strPred{"startsWith": predStartsWith, "endsWith": predEndsWith, "contains": predContains}

func (p strPred) String() string { return [...]string{"startsWith", "endsWith", "contains"}[p] }

func (p strPred) holds(x, y string) bool {
	switch p {
	case predStartsWith:
		return strings.HasPrefix(x, y)
	case predEndsWith:
		return strings.HasSuffix(x, y)
	}
	return strings.Contains(x, y)
}

type strPredTest struct {
	op   strPred
	l, r node
}

func (n strPredTest) test(r *record.Record) (bool, error) {
	a, b, err := operands(r, n.l, n.r)
	if err != nil {
		return false, err
	}
	if a.IsNull() || b.IsNull() {
		return false, nil
	}
	x, ok1 := a.AsString()
	y, ok2 := b.AsString()
	if !ok1 || !ok2 {
		return false, fmt.Errorf("%s needs strings, got %s %s and %s %s", n.op, a.Kind(), a, b.Kind(), b)
	}
	return n.op.holds(x, y), nil
}

// strPredConstTest is a string predicate with a constant string on the
// right (x startsWith "/api"), the usual form.
type strPredConstTest struct {
	op strPred
	x  node
	s  string
}

func (n strPredConstTest) test(r *record.Record) (bool, error) {
	v, err := n.x.eval(r)
	if err != nil {
		return false, err
	}
	x, ok := v.AsString()
	if !ok {
		if v.IsNull() {
			return false, nil
		}
		return false, fmt.Errorf("%s needs strings, got %s %s and %s %s", n.op, v.Kind(), v, record.String, record.StringValue(n.s))
	}
	return n.op.holds(x, n.s), nil
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
