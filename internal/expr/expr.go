// Package expr is Weir's one expression language, used by every key that
// takes an expression (FilterRecords, AddFields, routing).
//
// The syntax is that of github.com/expr-lang/expr, whose parser reads the
// source: identifiers name record fields, with literals, comparison,
// boolean, arithmetic and string operators, `in` lists, `matches` regular
// expressions, `??` defaults, the ternary operator and a few functions
// (docs/expressions.md lists them). Evaluation is Weir's own: the parsed tree
// is compiled once, when the processor chain is built, into a tree of nodes
// that read the record's typed values (record.Value) directly. Comparisons,
// boolean logic, arithmetic, `in`, `matches` and the string predicates
// therefore allocate nothing; only expressions that build new strings
// (concatenation, lower, upper) allocate. expr-lang's own virtual machine
// needs the record as a map[string]any, and boxing every value into it cost
// allocations on every record (BENCHMARKS.md, "Expressions").
//
// A Program is immutable once compiled and safe for concurrent use.
package expr

import (
	"errors"
	"fmt"
	"strings"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/parser"

	"github.com/weir-streams/weir/internal/record"
)

// Error is a compile error: what is wrong and where. Column counts runes
// from 1 on the expression's line.
type Error struct {
	Line, Column int
	Msg          string
}

func (e *Error) Error() string {
	if e.Line > 1 {
		return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Msg)
	}
	return fmt.Sprintf("column %d: %s", e.Column, e.Msg)
}

// Program is a compiled expression.
type Program struct {
	src    string
	root   node
	cond   tester // root read as a condition (EvalBool)
	fields []string
}

// Source returns the expression as written.
func (p *Program) Source() string { return p.src }

// Fields returns the names of the record fields the expression reads, in
// order of first use.
func (p *Program) Fields() []string { return p.fields }

// Compile parses and compiles an expression. The error, when not nil, is an
// *Error that gives the column.
func Compile(src string) (*Program, error) {
	if strings.TrimSpace(src) == "" {
		return nil, &Error{Line: 1, Column: 1, Msg: "empty expression"}
	}
	tree, err := parser.Parse(src)
	if err != nil {
		var fe *file.Error
		if errors.As(err, &fe) {
			return nil, &Error{Line: max(fe.Line, 1), Column: fe.Column + 1, Msg: fe.Message}
		}
		return nil, &Error{Line: 1, Column: 1, Msg: err.Error()}
	}
	c := compiler{src: src, seen: map[string]bool{}}
	root, err := c.compile(tree.Node)
	if err != nil {
		return nil, err
	}
	return &Program{src: src, root: root, cond: asTester(root, "a condition"), fields: c.fields}, nil
}

// MustCompile compiles an expression known to be valid (tests, constants);
// it panics otherwise.
func MustCompile(src string) *Program {
	p, err := Compile(src)
	if err != nil {
		panic(fmt.Sprintf("expr: %q: %v", src, err))
	}
	return p
}

// Eval evaluates the expression on a record. A field the record lacks reads
// as null. The error says what went wrong (an operator applied to values of
// the wrong kinds, say); it allocates, but only on that path.
func (p *Program) Eval(r *record.Record) (record.Value, error) { return p.root.eval(r) }

// EvalBool evaluates the expression as a condition: it must give a boolean,
// or null, which counts as false (a record without the field does not
// match).
func (p *Program) EvalBool(r *record.Record) (bool, error) { return p.cond.test(r) }

// Template is a property value that is either a constant or an expression
// written as ${...}, the form LogIsland users write (AddFields, routing).
type Template struct {
	Const string
	Prog  *Program // nil for a constant
}

// ParseTemplate reads a property value: "${expression}" compiles the
// expression (columns in errors count from the start of the whole value),
// anything else is a constant.
func ParseTemplate(s string) (Template, error) {
	body, ok := Unwrap(s)
	if !ok {
		return Template{Const: s}, nil
	}
	p, err := Compile(body)
	if err != nil {
		var e *Error
		if errors.As(err, &e) && e.Line == 1 {
			e.Column += strings.Index(s, "${") + 2
		}
		return Template{}, err
	}
	return Template{Prog: p}, nil
}

// Unwrap returns the body of "${body}" (spaces around allowed) and true, or
// s and false when s is not of that form.
func Unwrap(s string) (string, bool) {
	t := strings.TrimSpace(s)
	if strings.HasPrefix(t, "${") && strings.HasSuffix(t, "}") {
		return t[2 : len(t)-1], true
	}
	return s, false
}

// Eval returns the constant, or the expression's value on r.
func (t Template) Eval(r *record.Record) (record.Value, error) {
	if t.Prog == nil {
		return record.StringValue(t.Const), nil
	}
	return t.Prog.Eval(r)
}

// errAt builds a compile error at a node.
func (c *compiler) errAt(n ast.Node, format string, args ...any) error {
	line, col := 1, 1
	from := n.Location().From
	runes := 0
	for _, ch := range c.src {
		if runes == from {
			break
		}
		if ch == '\n' {
			line++
			col = 1
		} else {
			col++
		}
		runes++
	}
	return &Error{Line: line, Column: col, Msg: fmt.Sprintf(format, args...)}
}

// Constant returns the value of an expression that reads no field and
// calls nothing (a literal such as "logs"), and whether it is one.
func (p *Program) Constant() (record.Value, bool) {
	c, ok := p.root.(constNode)
	return c.v, ok
}
