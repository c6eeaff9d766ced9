package expr

import (
	"regexp"

	"github.com/expr-lang/expr/ast"

	"github.com/weir-streams/weir/internal/record"
)

// compiler turns expr-lang's syntax tree into evaluation nodes, refusing at
// compile time what Weir does not evaluate, with the column of the culprit.
type compiler struct {
	src    string
	fields []string
	seen   map[string]bool
}

func (c *compiler) field(name string) node {
	if !c.seen[name] {
		c.seen[name] = true
		c.fields = append(c.fields, name)
	}
	return &fieldNode{name: name}
}

func (c *compiler) compile(n ast.Node) (node, error) {
	switch t := n.(type) {
	case *ast.NilNode:
		return constNode{}, nil
	case *ast.IdentifierNode:
		return c.field(t.Value), nil
	case *ast.IntegerNode:
		return constNode{record.IntValue(int64(t.Value))}, nil
	case *ast.FloatNode:
		return constNode{record.FloatValue(t.Value)}, nil
	case *ast.BoolNode:
		return constNode{record.BoolValue(t.Value)}, nil
	case *ast.StringNode:
		return constNode{record.StringValue(t.Value)}, nil
	case *ast.ConstantNode:
		return nil, c.errAt(n, "constant of type %T is not supported", t.Value)
	case *ast.UnaryNode:
		x, err := c.compile(t.Node)
		if err != nil {
			return nil, err
		}
		switch t.Operator {
		case "!", "not":
			return boolNode{notTest{asTester(x, "not")}}, nil
		case "-":
			return negNode{x}, nil
		case "+":
			return x, nil
		}
		return nil, c.errAt(n, "unary operator %q is not supported", t.Operator)
	case *ast.BinaryNode:
		return c.binary(t)
	case *ast.ConditionalNode:
		cond, err := c.compile(t.Cond)
		if err != nil {
			return nil, err
		}
		a, err := c.compile(t.Exp1)
		if err != nil {
			return nil, err
		}
		b, err := c.compile(t.Exp2)
		if err != nil {
			return nil, err
		}
		return condNode{asTester(cond, "the condition of ?:"), a, b}, nil
	case *ast.MemberNode:
		// fields["a name with spaces"] reads any field by name.
		if id, ok := t.Node.(*ast.IdentifierNode); ok && id.Value == "fields" && !t.Method {
			if s, ok := t.Property.(*ast.StringNode); ok {
				return c.field(s.Value), nil
			}
		}
		return nil, c.errAt(n, "member access is not supported: fields are plain names (use fields[\"name\"] for a name that is not an identifier)")
	case *ast.CallNode:
		return c.call(t)
	case *ast.BuiltinNode:
		return c.builtin(n, t.Name, t.Arguments)
	case *ast.ArrayNode:
		return nil, c.errAt(n, "an array is only supported as the right side of in")
	case *ast.ChainNode:
		return c.compile(t.Node)
	}
	return nil, c.errAt(n, "%s is not supported", describe(n))
}

func describe(n ast.Node) string {
	switch n.(type) {
	case *ast.MapNode:
		return "a map literal"
	case *ast.SliceNode:
		return "slicing"
	case *ast.PredicateNode, *ast.PointerNode:
		return "a predicate"
	case *ast.VariableDeclaratorNode:
		return "let"
	case *ast.SequenceNode:
		return "a sequence of expressions"
	}
	return "this expression"
}

func (c *compiler) binary(t *ast.BinaryNode) (node, error) {
	l, err := c.compile(t.Left)
	if err != nil {
		return nil, err
	}
	switch t.Operator {
	case "in", "not in":
		arr, ok := t.Right.(*ast.ArrayNode)
		if !ok {
			return nil, c.errAt(t.Right, "the right side of in must be a list of constants, like [\"GET\", \"HEAD\"]")
		}
		set := inTest{x: l, not: t.Operator == "not in"}
		for _, e := range arr.Nodes {
			v, err := c.compile(e)
			if err != nil {
				return nil, err
			}
			k, ok := v.(constNode)
			if !ok {
				return nil, c.errAt(e, "the list of in must hold constants")
			}
			set.vals = append(set.vals, k.v)
		}
		set.strs = make([]string, 0, len(set.vals))
		for _, v := range set.vals {
			s, ok := v.AsString()
			if !ok {
				set.strs = nil
				break
			}
			set.strs = append(set.strs, s)
		}
		return boolNode{set}, nil
	case "matches", "not matches":
		s, ok := t.Right.(*ast.StringNode)
		if !ok {
			return nil, c.errAt(t.Right, "the right side of matches must be a constant string (a regular expression)")
		}
		re, err := regexp.Compile(s.Value)
		if err != nil {
			return nil, c.errAt(t.Right, "invalid regular expression: %v", err)
		}
		return boolNode{matchTest{x: l, re: re, not: t.Operator == "not matches"}}, nil
	}
	r, err := c.compile(t.Right)
	if err != nil {
		return nil, err
	}
	switch t.Operator {
	case "and", "&&":
		return boolNode{logicTest{l: asTester(l, "and"), r: asTester(r, "and")}}, nil
	case "or", "||":
		return boolNode{logicTest{l: asTester(l, "or"), r: asTester(r, "or"), or: true}}, nil
	case "??":
		return coalesceNode{l, r}, nil
	case "==", "!=":
		return boolNode{equality(l, r, t.Operator == "!=")}, nil
	case "<", "<=", ">", ">=":
		return boolNode{cmpTest{op: cmpOps[t.Operator], l: l, r: r}}, nil
	case "+", "-", "*", "/", "%":
		return arithNode{op: t.Operator[0], l: l, r: r}, nil
	case "contains", "startsWith", "endsWith":
		return boolNode{strPredicate(strPreds[t.Operator], l, r)}, nil
	case "not contains", "not startsWith", "not endsWith":
		return boolNode{notTest{strPredicate(strPreds[t.Operator[4:]], l, r)}}, nil
	}
	return nil, c.errAt(t, "operator %q is not supported", t.Operator)
}

// equality compiles l == r (or != when neg), with a comparison of strings
// only when one side is a constant string.
func equality(l, r node, neg bool) tester {
	if c, ok := r.(constNode); ok {
		if s, ok := c.v.AsString(); ok {
			return eqStringTest{x: l, s: s, neg: neg}
		}
	}
	if c, ok := l.(constNode); ok {
		if s, ok := c.v.AsString(); ok {
			return eqStringTest{x: r, s: s, neg: neg}
		}
	}
	return eqTest{l: l, r: r, neg: neg}
}

// strPredicate compiles a string predicate, with the constant right side
// read once here when it is one.
func strPredicate(op strPred, l, r node) tester {
	if c, ok := r.(constNode); ok {
		if s, ok := c.v.AsString(); ok {
			return strPredConstTest{op: op, x: l, s: s}
		}
	}
	return strPredTest{op: op, l: l, r: r}
}

// call handles f(x) for the functions expr-lang does not know as builtins,
// and x.startsWith(y)-style method calls, which LogIsland users write.
func (c *compiler) call(t *ast.CallNode) (node, error) {
	switch callee := t.Callee.(type) {
	case *ast.IdentifierNode:
		return c.builtin(t, callee.Value, t.Arguments)
	case *ast.MemberNode:
		name, ok := callee.Property.(*ast.StringNode)
		if ok && len(t.Arguments) == 1 {
			switch name.Value {
			case "startsWith", "endsWith", "contains":
				l, err := c.compile(callee.Node)
				if err != nil {
					return nil, err
				}
				r, err := c.compile(t.Arguments[0])
				if err != nil {
					return nil, err
				}
				return boolNode{strPredicate(strPreds[name.Value], l, r)}, nil
			}
		}
	}
	return nil, c.errAt(t, "this call is not supported (see docs/expressions.md for the functions)")
}

// builtin compiles a function call by name.
func (c *compiler) builtin(at ast.Node, name string, args []ast.Node) (node, error) {
	want := 1
	var fn func(record.Value) (record.Value, error)
	switch name {
	case "has":
		if len(args) == 1 {
			if s, ok := args[0].(*ast.StringNode); ok {
				return boolNode{hasTest{name: s.Value}}, nil
			}
		}
		return nil, c.errAt(at, "has takes one constant string: has(\"field_name\")")
	case "len":
		fn = fnLen
	case "lower":
		fn = fnLower
	case "upper":
		fn = fnUpper
	case "trim":
		fn = fnTrim
	case "string":
		fn = fnString
	case "int":
		fn = fnInt
	case "float":
		fn = fnFloat
	case "abs":
		fn = fnAbs
	default:
		return nil, c.errAt(at, "unknown function %q (see docs/expressions.md for the functions)", name)
	}
	if len(args) != want {
		return nil, c.errAt(at, "%s takes %d argument, got %d", name, want, len(args))
	}
	x, err := c.compile(args[0])
	if err != nil {
		return nil, err
	}
	return callNode{name: name, fn: fn, x: x}, nil
}
