// Package grok expands grok expressions (%{PATTERN:field:type} and
// (?<field>...)), written in Logstash's syntax, into one regular expression
// and the list of fields its capture groups fill. The standard pattern
// library comes from github.com/elastic/go-grok (its pattern sets, with ECS
// field names) with Weir's fixes, field tables that give its definitions
// Logstash's names in each ecs_compatibility mode (fields.go, legacy.go),
// and Weir's own Nagios and Bacula families; users add their own
// definitions, as Logstash's patterns_dir and pattern_definitions do.
//
// The expansion is done once, when a processor is built; matching is the
// caller's business (SplitText runs an expansion RE2 can parse on fastre,
// falling back to regexp, and one that needs lookaround, atomic groups or
// back references on regexp2). Only the groups that name a field capture:
// every other group of the library's definitions is made non-capturing,
// so the matcher saves as few positions as a hand-written expression would.
package grok

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"

	"github.com/dlclark/regexp2/v2"
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
	// Regex is the expanded expression, not anchored. Its capture groups
	// are exactly Captures, in order; they are named (?<gN>...), N the
	// index in Captures, because field names such as source.address are
	// not valid group names. Without Backtrack it is in RE2 syntax (every
	// other group is made non-capturing); with Backtrack it is in the
	// syntax of github.com/dlclark/regexp2 and must be compiled with
	// regexp2.ExplicitCapture, so that only the named groups capture.
	Regex    string
	Captures []Capture
	// Backtrack is set when the expression needs what RE2 does not have:
	// lookahead or lookbehind, atomic groups, possessive quantifiers or
	// back references, as Logstash's own pattern files use (IPV4's
	// (?<![0-9]), for one).
	Backtrack bool
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
//
// The result runs on RE2 (and so on fastre) whenever RE2 can parse it;
// otherwise it is checked with regexp2, the backtracking engine, and marked
// Backtrack. An expression neither accepts is refused with the pattern
// whose definition is at fault and the column of the reference in expr.
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
	re, rerr := syntax.Parse(out, rubyFlags)
	if rerr != nil {
		if _, err := regexp2.Compile(out, BacktrackOptions); err != nil {
			return Expansion{}, x.blame(expr, err)
		}
		return Expansion{Regex: out, Captures: x.caps, Backtrack: true}, nil
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
	if len(caps) != len(x.caps) {
		// A capture inside a part RE2 drops (x{0}) would leave a hole in
		// the gN numbering the backtracking path relies on; say so rather
		// than guess.
		return Expansion{}, fmt.Errorf("expanded expression: %d of %d named captures remain", len(caps), len(x.caps))
	}
	return Expansion{Regex: src, Captures: caps}, nil
}

// rubyFlags parse an expansion as Logstash's grok runs it: Ruby's
// MULTILINE option (. matches a line end) and Ruby's ^ and $, which match
// at every line. The printed result carries the flags, so whoever compiles
// it gets the same meaning.
const rubyFlags = syntax.Perl&^syntax.OneLine | syntax.DotNL

// BacktrackOptions are the regexp2 options of an expansion marked
// Backtrack: only the named groups capture, as in Oniguruma when an
// expression has named groups; . matches a line end and ^ $ match at
// every line, as rubyFlags; and RE2 makes \d, \s, \w and \b ASCII, as
// Ruby's are, accepts possessive quantifiers and reads an unknown escape
// such as \_ as the character, as Oniguruma does.
const BacktrackOptions = regexp2.ExplicitCapture | regexp2.Singleline | regexp2.Multiline | regexp2.RE2

// blame finds, for an expression that no engine accepts, the pattern whose
// own definition is at fault: the first reference of expr (at any depth)
// whose expansion is refused while every reference inside it is accepted.
func (x *expander) blame(expr string, whole error) error {
	for _, r := range x.refs {
		y := &expander{lib: x.lib, opts: x.opts}
		text, err := y.expand("%{"+r.name+"}", nil)
		if err != nil {
			continue
		}
		if _, err := syntax.Parse(text, rubyFlags); err == nil {
			continue
		}
		if _, err := regexp2.Compile(text, BacktrackOptions); err == nil {
			continue
		}
		def, _ := x.lib.Lookup(r.name)
		inner := false
		for _, s := range x.refs {
			if s.parent == r.name && s.name != r.name {
				if t, err := (&expander{lib: x.lib, opts: x.opts}).expand("%{"+s.name+"}", nil); err == nil {
					if _, err := regexp2.Compile(t, BacktrackOptions); err != nil {
						inner = true
						break
					}
				}
			}
		}
		if inner {
			continue
		}
		where := ""
		if r.col > 0 {
			where = fmt.Sprintf(" (referenced at column %d of the expression)", r.col)
		}
		return fmt.Errorf("pattern %q%s does not compile: %w; its definition: %s", r.name, where, whole, truncate(def))
	}
	return fmt.Errorf("expression does not compile: %w", whole)
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
	refs []refSite // every reference expanded, in order, for blame
}

// refSite is one reference met during an expansion.
type refSite struct {
	name, parent string
	col          int // 1-based column in the top-level expression, 0 deeper
}

// capture opens a capture group for field and returns its opening text.
func (x *expander) capture(field string, typ Type) string {
	if to, ok := x.opts.Rename[field]; ok {
		field = to
	}
	x.caps = append(x.caps, Capture{Field: FieldName(field), Type: typ})
	return fmt.Sprintf("(?<g%d>", len(x.caps)-1)
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
			class, end := translateClass(s, i)
			b.WriteString(class)
			i = end
		case c == '?' && i+1 < len(s) && (s[i+1] == '*' || s[i+1] == '+') && i > 0 && s[i-1] != '(' && s[i-1] != '?' && s[i-1] != '*' && s[i-1] != '+':
			// Oniguruma reads X?* as (?:X?)*, which matches what X*
			// matches, in the same order; RE2 and .NET refuse a
			// repetition of a repetition. (X?+, possessive, is
			// (?>X?).) Logstash's SHOREWALL writes .?* .
			if s[i+1] == '*' {
				b.WriteByte('*')
				i += 2
				continue
			}
			b.WriteByte(c)
			i++
		case len(stack) > 0 && strings.HasPrefix(s[i:], "(?m)"):
			// In a definition (Oniguruma syntax), (?m) lets . match a
			// line end: RE2's and .NET's (?s).
			b.WriteString("(?s)")
			i += 4
		case c == '%' && strings.HasPrefix(s[i:], "%{"):
			end := strings.IndexByte(s[i:], '}')
			if end < 0 {
				return "", fmt.Errorf("unterminated reference %q", truncate(s[i:]))
			}
			ref := s[i+2 : i+end]
			col := 0
			if len(stack) == 0 {
				col = i + 1
			}
			text, err := x.reference(ref, stack, col)
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
//
// Field names are Logstash's: letters, digits, _, @, ., - and the
// brackets of [nested][names]. As in Logstash, other text after these is
// ignored: logstash-patterns-core's own tests write
// %{NAGIOSLOGLINE - HOST ALERT}, and its HTTPD24_ERRORLOG
// %{POSINT:[apache][error][proxy][error][code]?}.
var refSyntax = regexp.MustCompile(`^(\w+)(?::([@\[\]\w.-]+)(?::(\w+))?)?(?:[^\w:}][^}]*)?$`)

// reference expands the inside of %{...}.
func (x *expander) reference(ref string, stack []string, col int) (string, error) {
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
		if x.lib.legacy {
			return "", fmt.Errorf("unknown pattern %q in %%{%s} (with ecs_compatibility disabled the built-in library lacks a few of Logstash's legacy log formats: "+
				"load Logstash's patterns/legacy with grok.patterns.dir)", name, ref)
		}
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
	parent := ""
	if len(stack) > 0 {
		parent = stack[len(stack)-1]
	}
	x.refs = append(x.refs, refSite{name: name, parent: parent, col: col})
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

// posixClasses are the POSIX bracket classes as Logstash's Oniguruma reads
// them on UTF-8 text, Unicode-aware: [[:alnum:]] matches Č and 中, as
// logstash-patterns-core's UNIXPATH test expects. Neither RE2 (ASCII only)
// nor regexp2 (no POSIX classes) reads them so, hence the rewrite.
var posixClasses = map[string]string{
	"alnum":  `\p{L}\p{M}\p{Nd}`,
	"alpha":  `\p{L}\p{M}`,
	"digit":  `\p{Nd}`,
	"lower":  `\p{Ll}`,
	"upper":  `\p{Lu}`,
	"space":  `\s`,
	"blank":  ` \t`,
	"xdigit": `0-9A-Fa-f`,
	"punct":  `\p{P}`,
	"cntrl":  `\p{Cc}`,
	"word":   `\w`,
}

// translateClass copies the character class that starts at s[i] == '['
// and returns it with the index just after it. It reads the class as
// Oniguruma does: a ']' right after '[' or '[^' is a literal, escapes are
// kept, a POSIX class such as [:alnum:] becomes the Unicode classes of
// posixClasses, and a nested set [...] inside a class (Oniguruma's union,
// which RE2 reads as a literal '[' and an early end) is flattened into its
// parent. An unterminated class ends at len(s); the parser then reports it.
func translateClass(s string, i int) (string, int) {
	var b strings.Builder
	b.WriteByte('[')
	j := i + 1
	if j < len(s) && s[j] == '^' {
		b.WriteByte('^')
		j++
	}
	if j < len(s) && s[j] == ']' {
		b.WriteString(`\]`)
		j++
	}
	for j < len(s) {
		switch {
		case s[j] == '\\':
			end := min(j+2, len(s))
			b.WriteString(s[j:end])
			j = end
		case strings.HasPrefix(s[j:], "[:"):
			k := strings.Index(s[j+2:], ":]")
			if k < 0 {
				b.WriteString(`\[`)
				j++
				continue
			}
			name := s[j+2 : j+2+k]
			if tr, ok := posixClasses[name]; ok {
				b.WriteString(tr)
			} else {
				b.WriteString(s[j : j+k+4])
			}
			j += k + 4
		case s[j] == '[' && j+1 < len(s) && s[j+1] != '^':
			inner, end := translateClass(s, j)
			b.WriteString(strings.TrimSuffix(inner[1:], "]"))
			j = end
		case s[j] == ']':
			b.WriteByte(']')
			return b.String(), j + 1
		default:
			b.WriteByte(s[j])
			j++
		}
	}
	return b.String(), len(s)
}

// FieldName turns a field reference as Logstash writes it, [source][ip],
// into Weir's dotted name, source.ip; other names are kept.
func FieldName(name string) string {
	if !strings.HasPrefix(name, "[") || !strings.HasSuffix(name, "]") {
		return name
	}
	parts := strings.Split(name[1:len(name)-1], "][")
	for _, p := range parts {
		if p == "" || strings.ContainsAny(p, "[]") {
			return name
		}
	}
	return strings.Join(parts, ".")
}

func truncate(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}
