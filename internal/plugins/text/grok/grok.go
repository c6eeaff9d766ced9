// Package grok expands grok expressions (%{PATTERN:field:type} and
// (?<field>...)) into one RE2 regular expression and the list of fields its
// capture groups fill. The standard pattern library comes from
// github.com/elastic/go-grok (its pattern sets, with ECS field names); users
// add their own definitions, as Logstash's patterns_dir and
// pattern_definitions do.
//
// The expansion is done once, when a processor is built; matching is the
// caller's business (SplitText runs the result on fastre, falling back to
// regexp). Only the groups that name a field capture: every other group of
// the library's definitions is made non-capturing, so the matcher saves as
// few positions as a hand-written expression would.
package grok

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"
)

// Type is the conversion asked for by the third part of %{PATTERN:field:type}.
type Type uint8

// Types of captured values.
const (
	String Type = iota
	Int         // int and long
	Float       // float and double
	Bool        // bool and boolean
)

// parseType maps the type names go-grok and Logstash accept to a Type.
func parseType(s string) (Type, error) {
	switch strings.ToLower(s) {
	case "", "string":
		return String, nil
	case "int", "long", "integer":
		return Int, nil
	case "float", "double":
		return Float, nil
	case "bool", "boolean":
		return Bool, nil
	}
	return String, fmt.Errorf("unknown type %q (int, long, float, double, bool or string)", s)
}

// String returns the type's name.
func (t Type) String() string {
	switch t {
	case Int:
		return "int"
	case Float:
		return "float"
	case Bool:
		return "bool"
	}
	return "string"
}

// Capture is one capture group of an expansion.
type Capture struct {
	Field string // the field it fills
	Type  Type
}

// Expansion is a grok expression expanded to one regular expression.
type Expansion struct {
	// Regex is the expanded expression in RE2 syntax, not anchored. Its
	// capture groups are exactly Captures, in order; they are named
	// (?P<gN>...) because field names such as source.address are not valid
	// group names.
	Regex    string
	Captures []Capture
}

// Fields returns the distinct field names of the captures, in order of
// first appearance.
func (e Expansion) Fields() []string {
	var out []string
	seen := map[string]bool{}
	for _, c := range e.Captures {
		if !seen[c.Field] {
			seen[c.Field] = true
			out = append(out, c.Field)
		}
	}
	return out
}

// IsGrok reports whether expr uses grok syntax or named groups, so that its
// named captures, not its groups by position, give the fields.
func IsGrok(expr string) bool {
	return strings.Contains(expr, "%{") || hasNamedGroup(expr)
}

func hasNamedGroup(expr string) bool {
	for i := 0; i < len(expr); i++ {
		switch {
		case expr[i] == '\\':
			i++
		case strings.HasPrefix(expr[i:], "(?P<"):
			return true
		case strings.HasPrefix(expr[i:], "(?<") && !strings.HasPrefix(expr[i:], "(?<=") && !strings.HasPrefix(expr[i:], "(?<!"):
			return true
		}
	}
	return false
}

// Options control an expansion.
type Options struct {
	// AllCaptures makes %{PATTERN} without a field name capture into a
	// field named PATTERN, at every level of nesting, as go-grok does when
	// namedCapturesOnly is false and Logstash does with
	// named_captures_only => false. By default only named references and
	// (?<field>...) groups capture.
	AllCaptures bool
	// Rename maps field names as written in the patterns (ECS names for
	// the library's) to the names the records get.
	Rename map[string]string
}

// maxDepth bounds the nesting of references, which also stops cycles such
// as A -> B -> A with a clear error.
const maxDepth = 64

// Expand expands expr with the library's and the user's definitions.
func (l *Library) Expand(expr string, opts Options) (Expansion, error) {
	x := &expander{lib: l, opts: opts}
	out, err := x.expand(expr, nil)
	if err != nil {
		return Expansion{}, err
	}
	// Parse once to check the result and to make every group that names
	// no field non-capturing: the library's definitions use plain groups
	// for structure (BASE10NUM, IPV6, ...), and each capture costs the
	// matcher two saves.
	re, err := syntax.Parse(out, syntax.Perl)
	if err != nil {
		return Expansion{}, fmt.Errorf("expanded expression: %w", err)
	}
	re = uncapture(re)
	src := re.String()
	// Compile the printed form to check it, and to read the group names in
	// the order regexp numbers them.
	cre, err := regexp.Compile(src)
	if err != nil {
		return Expansion{}, fmt.Errorf("expanded expression: %w", err)
	}
	caps := make([]Capture, 0, len(x.caps))
	for i, name := range cre.SubexpNames()[1:] {
		n, err := strconv.Atoi(strings.TrimPrefix(name, "g"))
		if err != nil || !strings.HasPrefix(name, "g") || n >= len(x.caps) {
			return Expansion{}, fmt.Errorf("expanded expression: unexpected group %d %q", i+1, name)
		}
		caps = append(caps, x.caps[n])
	}
	return Expansion{Regex: src, Captures: caps}, nil
}

// uncapture replaces every capture group without a name by its content.
func uncapture(re *syntax.Regexp) *syntax.Regexp {
	for re.Op == syntax.OpCapture && re.Name == "" {
		re = re.Sub[0]
	}
	for i, sub := range re.Sub {
		re.Sub[i] = uncapture(sub)
	}
	return re
}

type expander struct {
	lib  *Library
	opts Options
	caps []Capture // indexed by the N of group gN
}

// capture opens a capture group for field and returns its opening text.
func (x *expander) capture(field string, typ Type) string {
	if to, ok := x.opts.Rename[field]; ok {
		field = to
	}
	x.caps = append(x.caps, Capture{Field: field, Type: typ})
	return fmt.Sprintf("(?P<g%d>", len(x.caps)-1)
}

// expand copies s, replacing references by their expansions and named
// groups by numbered ones. stack holds the names being expanded.
func (x *expander) expand(s string, stack []string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\':
			end := min(i+2, len(s))
			b.WriteString(s[i:end])
			i = end
		case c == '[':
			end := classEnd(s, i)
			b.WriteString(s[i:end])
			i = end
		case c == '%' && strings.HasPrefix(s[i:], "%{"):
			end := strings.IndexByte(s[i:], '}')
			if end < 0 {
				return "", fmt.Errorf("unterminated reference %q", truncate(s[i:]))
			}
			ref := s[i+2 : i+end]
			text, err := x.reference(ref, stack)
			if err != nil {
				return "", err
			}
			b.WriteString(text)
			i += end + 1
		case c == '(' && (strings.HasPrefix(s[i:], "(?P<") || strings.HasPrefix(s[i:], "(?<") &&
			!strings.HasPrefix(s[i:], "(?<=") && !strings.HasPrefix(s[i:], "(?<!")):
			start := i + 3
			if s[i+2] == 'P' {
				start++
			}
			end := strings.IndexByte(s[start:], '>')
			if end <= 0 {
				return "", fmt.Errorf("malformed named group %q", truncate(s[i:]))
			}
			// go-grok's definitions write dots in group names as ___,
			// which regexp accepts, and report them as dots.
			b.WriteString(x.capture(strings.ReplaceAll(s[start:start+end], "___", "."), String))
			i = start + end + 1
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String(), nil
}

// refSyntax is the form of a reference: a pattern name, then an optional
// field name (dots, brackets and dashes allowed, as ECS and Logstash write
// them), then an optional type.
var refSyntax = regexp.MustCompile(`^(\w+)(?::([^:{}]+)(?::(\w+))?)?$`)

// reference expands the inside of %{...}.
func (x *expander) reference(ref string, stack []string) (string, error) {
	m := refSyntax.FindStringSubmatch(ref)
	if m == nil {
		return "", fmt.Errorf("malformed reference %%{%s}: want %%{PATTERN}, %%{PATTERN:field} or %%{PATTERN:field:type}", ref)
	}
	name, field := m[1], m[2]
	typ, err := parseType(m[3])
	if err != nil {
		return "", fmt.Errorf("%%{%s}: %w", ref, err)
	}
	def, ok := x.lib.Lookup(name)
	if !ok {
		return "", fmt.Errorf("unknown pattern %q in %%{%s}", name, ref)
	}
	for _, s := range stack {
		if s == name {
			return "", fmt.Errorf("pattern %q refers to itself (through %s)", name, strings.Join(append(stack, name), " -> "))
		}
	}
	if len(stack) >= maxDepth {
		return "", fmt.Errorf("references nested deeper than %d at %q", maxDepth, name)
	}
	var open string
	switch {
	case field != "":
		open = x.capture(field, typ)
	case x.opts.AllCaptures:
		open = x.capture(name, typ)
	default:
		open = "(?:"
	}
	inner, err := x.expand(def, append(stack, name))
	if err != nil {
		return "", err
	}
	return open + inner + ")", nil
}

// classEnd returns the index just after the character class that starts
// at s[i] == '['. A ']' right after '[' or '[^' is a literal, escapes are
// skipped, and POSIX classes such as [:alpha:] are stepped over whole. An
// unterminated class ends at len(s); the parser then reports it.
func classEnd(s string, i int) int {
	j := i + 1
	if j < len(s) && s[j] == '^' {
		j++
	}
	if j < len(s) && s[j] == ']' {
		j++
	}
	for j < len(s) {
		switch {
		case s[j] == '\\':
			j += 2
		case strings.HasPrefix(s[j:], "[:"):
			if k := strings.Index(s[j+2:], ":]"); k >= 0 {
				j += k + 4
			} else {
				j++
			}
		case s[j] == ']':
			return j + 1
		default:
			j++
		}
	}
	return len(s)
}

func truncate(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}
