// Package lucene matches records against queries written in the syntax of
// Lucene's classic query parser, as LogIsland's MatchQuery and MatchIP do
// with Luwak, without an index: each query is parsed once into a tree that
// is evaluated on the record's fields. docs/processors.md ("Query
// matching") lists the subset of the syntax that is understood; a query
// outside it is refused when the job is validated.
//
// Field values are analyzed as LogIsland indexes them: string fields by
// Lucene's StopAnalyzer (lower-cased runs of letters, English stop words
// removed), numbers as numbers, anything else as one keyword. Query terms
// are analyzed as Lucene's StandardAnalyzer does (lower-cased words of
// letters and digits), and a term that analyzes into several words matches
// any of them, as the classic parser's default OR operator makes it.
package lucene

import (
	"fmt"
	"math"
	"path"
	"strconv"
	"strings"
	"unicode"

	"github.com/weir-streams/weir/internal/record"
)

// DefaultField is the field of a term written without one (the field
// LogIsland's parser is built with).
const DefaultField = "field"

// Query is a parsed query. It is immutable and safe for concurrent use.
type Query struct {
	src  string
	root node
}

// String returns the query as written.
func (q *Query) String() string { return q.src }

// Doc is a record as queries see it: the analyzed values of its fields,
// built once per record and shared by every query of a processor.
type Doc struct {
	r       *record.Record
	numeric map[string]bool
	tokens  map[string][]string
}

// NewDoc prepares r for matching; numeric names the fields whose number
// values are matched as numbers (LogIsland's numeric.fields).
func NewDoc(r *record.Record, numeric map[string]bool) *Doc {
	return &Doc{r: r, numeric: numeric}
}

// terms returns the analyzed words of a field, computed once.
func (d *Doc) terms(field string) []string {
	if t, ok := d.tokens[field]; ok {
		return t
	}
	if d.tokens == nil {
		d.tokens = map[string][]string{}
	}
	var out []string
	if v, ok := d.r.Get(field); ok && !v.IsNull() {
		switch v.Kind() {
		case record.String:
			s, _ := v.AsString()
			out = stopAnalyze(s)
		case record.Int, record.Float:
			// Indexed as numbers: no word matches them.
		default:
			out = []string{v.Text()}
		}
	}
	d.tokens[field] = out
	return out
}

// number returns a field's value as a number, when the field is one of
// the numeric fields and holds a number.
func (d *Doc) number(field string) (float64, bool) {
	if !d.numeric[field] {
		return 0, false
	}
	v, ok := d.r.Get(field)
	if !ok {
		return 0, false
	}
	return v.AsFloat()
}

// Match reports whether the record matches the query.
func (q *Query) Match(d *Doc) bool { return q.root.match(d) }

type node interface{ match(d *Doc) bool }

type occur int

const (
	should occur = iota
	must
	mustNot
)

type clause struct {
	occ occur
	n   node
}

// boolNode is Lucene's BooleanQuery: every must clause matches, no mustNot
// clause matches, and at least one should clause matches when there is no
// must clause. A query of mustNot clauses alone matches nothing.
type boolNode struct{ clauses []clause }

func (b boolNode) match(d *Doc) bool {
	hasMust, anyShould, hasShould := false, false, false
	for _, c := range b.clauses {
		switch c.occ {
		case must:
			hasMust = true
			if !c.n.match(d) {
				return false
			}
		case mustNot:
			if c.n.match(d) {
				return false
			}
		case should:
			hasShould = true
			if !anyShould && c.n.match(d) {
				anyShould = true
			}
		}
	}
	if hasMust {
		return true
	}
	return hasShould && anyShould
}

type matchAll struct{}

func (matchAll) match(*Doc) bool { return true }

type matchNone struct{}

func (matchNone) match(*Doc) bool { return false }

// termNode matches a field that has the word.
type termNode struct{ field, term string }

func (t termNode) match(d *Doc) bool {
	if n, ok := d.number(t.field); ok {
		f, err := strconv.ParseFloat(t.term, 64)
		return err == nil && f == n
	}
	for _, w := range d.terms(t.field) {
		if w == t.term {
			return true
		}
	}
	return false
}

// phraseNode matches a field whose words hold the phrase's words in a row.
type phraseNode struct {
	field string
	words []string
}

func (p phraseNode) match(d *Doc) bool {
	ws := d.terms(p.field)
outer:
	for i := 0; i+len(p.words) <= len(ws); i++ {
		for j, w := range p.words {
			if ws[i+j] != w {
				continue outer
			}
		}
		return true
	}
	return false
}

// wildcardNode matches a field that has a word matching the pattern (* and ?).
type wildcardNode struct{ field, pattern string }

func (w wildcardNode) match(d *Doc) bool {
	if w.pattern == "*" {
		if _, ok := d.r.Get(w.field); ok {
			return true
		}
	}
	for _, t := range d.terms(w.field) {
		if ok, _ := path.Match(w.pattern, t); ok {
			return true
		}
	}
	return false
}

// rangeNode is a range: numeric on numeric fields, by word order on others.
type rangeNode struct {
	field          string
	lo, hi         string // "" is open
	loIncl, hiIncl bool
	loNum, hiNum   float64
}

func (r rangeNode) match(d *Doc) bool {
	if n, ok := d.number(r.field); ok {
		return r.inNum(n)
	}
	if d.numeric[r.field] {
		return false // a numeric field without a number
	}
	for _, t := range d.terms(r.field) {
		if r.inText(t) {
			return true
		}
	}
	return false
}

func (r rangeNode) inNum(n float64) bool {
	if math.IsNaN(r.loNum) || math.IsNaN(r.hiNum) {
		return false
	}
	if r.lo != "" && (n < r.loNum || n == r.loNum && !r.loIncl) {
		return false
	}
	if r.hi != "" && (n > r.hiNum || n == r.hiNum && !r.hiIncl) {
		return false
	}
	return true
}

func (r rangeNode) inText(t string) bool {
	if r.lo != "" && (t < r.lo || t == r.lo && !r.loIncl) {
		return false
	}
	if r.hi != "" && (t > r.hi || t == r.hi && !r.hiIncl) {
		return false
	}
	return true
}

// Parse parses a query in the classic query parser's syntax.
func Parse(src string) (*Query, error) {
	p := &parser{src: []rune(src)}
	n, err := p.query("", 0)
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.pos < len(p.src) {
		return nil, p.errorf("unexpected %q", string(p.src[p.pos]))
	}
	return &Query{src: src, root: n}, nil
}

type parser struct {
	src []rune
	pos int
}

func (p *parser) errorf(format string, args ...any) error {
	return fmt.Errorf("query, column %d: %s", p.pos+1, fmt.Sprintf(format, args...))
}

func (p *parser) skipSpace() {
	for p.pos < len(p.src) && unicode.IsSpace(p.src[p.pos]) {
		p.pos++
	}
}

func (p *parser) peek() rune {
	if p.pos < len(p.src) {
		return p.src[p.pos]
	}
	return 0
}

// word returns the bare word at the position without consuming it, for
// the AND, OR, NOT and TO keywords.
func (p *parser) keyword(k string) bool {
	r := []rune(k)
	if p.pos+len(r) > len(p.src) || string(p.src[p.pos:p.pos+len(r)]) != k {
		return false
	}
	end := p.pos + len(r)
	return end == len(p.src) || unicode.IsSpace(p.src[end]) || p.src[end] == '(' || p.src[end] == ')'
}

const (
	conjNone = iota
	conjAnd
	conjOr
)

const (
	modNone = iota
	modReq
	modNot
)

// query parses clauses until the end or a closing parenthesis, combining
// them as QueryParserBase.addClause does with the OR default operator.
func (p *parser) query(field string, depth int) (node, error) {
	if depth > 32 {
		return nil, p.errorf("parentheses nested too deep")
	}
	var clauses []clause
	first := true
	for {
		p.skipSpace()
		if p.pos >= len(p.src) || p.peek() == ')' {
			break
		}
		conj := conjNone
		if !first {
			switch {
			case p.keyword("AND"):
				conj, p.pos = conjAnd, p.pos+3
			case p.keyword("OR"):
				conj, p.pos = conjOr, p.pos+2
			case strings.HasPrefix(string(p.src[p.pos:]), "&&"):
				conj, p.pos = conjAnd, p.pos+2
			case strings.HasPrefix(string(p.src[p.pos:]), "||"):
				conj, p.pos = conjOr, p.pos+2
			}
			p.skipSpace()
		}
		mods := modNone
		switch {
		case p.peek() == '+':
			mods, p.pos = modReq, p.pos+1
		case p.peek() == '-' || p.peek() == '!':
			mods, p.pos = modNot, p.pos+1
		case p.keyword("NOT"):
			mods, p.pos = modNot, p.pos+3
		}
		p.skipSpace()
		n, err := p.clause(field, depth)
		if err != nil {
			return nil, err
		}
		if len(clauses) > 0 && conj == conjAnd {
			if last := &clauses[len(clauses)-1]; last.occ != mustNot {
				last.occ = must
			}
		}
		first = false
		if n == nil {
			continue // a term with no word (a stop word, punctuation)
		}
		required := mods == modReq
		prohibited := mods == modNot
		if conj == conjAnd && !prohibited {
			required = true
		}
		occ := should
		switch {
		case prohibited:
			occ = mustNot
		case required:
			occ = must
		}
		clauses = append(clauses, clause{occ, n})
	}
	switch {
	case len(clauses) == 0:
		return matchNone{}, nil
	case len(clauses) == 1 && clauses[0].occ != mustNot:
		return clauses[0].n, nil
	}
	return boolNode{clauses}, nil
}

// clause parses [field:] (term | "phrase" | range | (query)) [^boost].
func (p *parser) clause(field string, depth int) (node, error) {
	if p.pos >= len(p.src) {
		return nil, p.errorf("a term is missing at the end")
	}
	// field:
	start := p.pos
	if c := p.peek(); c != '(' && c != '"' && c != '[' && c != '{' {
		name, err := p.rawTerm()
		if err != nil {
			return nil, err
		}
		if p.peek() == ':' && name != "" {
			p.pos++
			p.skipSpace()
			if name == "*" && p.peek() == '*' {
				p.pos++
				if _, err := p.rawTerm(); err != nil {
					return nil, err
				}
				p.boost()
				return matchAll{}, nil
			}
			field = unescape(name)
		} else {
			p.pos = start
		}
	}
	if field == "" {
		field = DefaultField
	}
	var n node
	var err error
	switch c := p.peek(); c {
	case '(':
		p.pos++
		n, err = p.query(field, depth+1)
		if err != nil {
			return nil, err
		}
		p.skipSpace()
		if p.peek() != ')' {
			return nil, p.errorf("missing )")
		}
		p.pos++
	case '"':
		n, err = p.phrase(field)
	case '[', '{':
		n, err = p.rangeQuery(field)
	case ')', 0:
		return nil, p.errorf("a term is missing")
	default:
		n, err = p.term(field)
	}
	if err != nil {
		return nil, err
	}
	p.boost()
	return n, nil
}

// boost skips ^N: scores do not matter to matching.
func (p *parser) boost() {
	if p.peek() != '^' {
		return
	}
	p.pos++
	for p.pos < len(p.src) && (unicode.IsDigit(p.src[p.pos]) || p.src[p.pos] == '.') {
		p.pos++
	}
}

// special runes end a bare term unless escaped.
func special(r rune) bool {
	return unicode.IsSpace(r) || strings.ContainsRune(`()[]{}":^~\`, r) || r == '+' || r == '!'
}

// rawTerm reads a bare term, keeping escapes, up to a special rune or ':'.
func (p *parser) rawTerm() (string, error) {
	var b strings.Builder
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		if c == '\\' {
			if p.pos+1 >= len(p.src) {
				return "", p.errorf("escape at the end of the query")
			}
			b.WriteRune(c)
			b.WriteRune(p.src[p.pos+1])
			p.pos += 2
			continue
		}
		if c == ':' || special(c) && !(c == '+' || c == '!') || (c == '+' || c == '!') && b.Len() == 0 {
			break
		}
		b.WriteRune(c)
		p.pos++
	}
	return b.String(), nil
}

func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	esc := false
	for _, r := range s {
		if !esc && r == '\\' {
			esc = true
			continue
		}
		esc = false
		b.WriteRune(r)
	}
	return b.String()
}

// hasWildcard reports an unescaped * or ? in a raw term.
func hasWildcard(raw string) bool {
	esc := false
	for _, r := range raw {
		switch {
		case esc:
			esc = false
		case r == '\\':
			esc = true
		case r == '*' || r == '?':
			return true
		}
	}
	return false
}

func (p *parser) term(field string) (node, error) {
	raw, err := p.rawTerm()
	if err != nil {
		return nil, err
	}
	if raw == "" {
		return nil, p.errorf("unexpected %q", string(p.peek()))
	}
	if p.peek() == '~' {
		return nil, p.errorf("fuzzy and proximity searches (~) are not supported")
	}
	if strings.HasPrefix(raw, "/") {
		return nil, p.errorf("regular expression searches (/.../) are not supported")
	}
	if hasWildcard(raw) {
		// Expanded terms are lower-cased and not analyzed, as the
		// classic parser does by default.
		pat := strings.ToLower(raw)
		if _, err := path.Match(pat, ""); err != nil {
			return nil, p.errorf("invalid wildcard %q", raw)
		}
		return wildcardNode{field, pat}, nil
	}
	text := unescape(raw)
	words := standardAnalyze(text)
	switch len(words) {
	case 0:
		if _, err := strconv.ParseFloat(text, 64); err == nil {
			return termNode{field, text}, nil
		}
		return nil, nil
	case 1:
		return termNode{field, words[0]}, nil
	}
	cs := make([]clause, len(words))
	for i, w := range words {
		cs[i] = clause{should, termNode{field, w}}
	}
	return boolNode{cs}, nil
}

func (p *parser) phrase(field string) (node, error) {
	p.pos++ // "
	var b strings.Builder
	for {
		if p.pos >= len(p.src) {
			return nil, p.errorf("missing closing quote")
		}
		c := p.src[p.pos]
		p.pos++
		if c == '\\' && p.pos < len(p.src) {
			b.WriteRune(p.src[p.pos])
			p.pos++
			continue
		}
		if c == '"' {
			break
		}
		b.WriteRune(c)
	}
	if p.peek() == '~' {
		return nil, p.errorf("proximity searches (~) are not supported")
	}
	words := standardAnalyze(b.String())
	switch len(words) {
	case 0:
		return nil, nil
	case 1:
		return termNode{field, words[0]}, nil
	}
	return phraseNode{field, words}, nil
}

func (p *parser) rangeQuery(field string) (node, error) {
	open := p.src[p.pos]
	p.pos++
	p.skipSpace()
	lo, err := p.rangeBound()
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if !p.keyword("TO") {
		return nil, p.errorf("range without TO")
	}
	p.pos += 2
	p.skipSpace()
	hi, err := p.rangeBound()
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	cl := p.peek()
	if cl != ']' && cl != '}' {
		return nil, p.errorf("range without ] or }")
	}
	p.pos++
	r := rangeNode{field: field, loIncl: open == '[', hiIncl: cl == ']'}
	if lo != "*" {
		r.lo = strings.ToLower(lo)
	}
	if hi != "*" {
		r.hi = strings.ToLower(hi)
	}
	r.loNum, r.hiNum = math.Inf(-1), math.Inf(1)
	if r.lo != "" {
		if r.loNum, err = strconv.ParseFloat(r.lo, 64); err != nil {
			r.loNum = math.NaN()
		}
	}
	if r.hi != "" {
		if r.hiNum, err = strconv.ParseFloat(r.hi, 64); err != nil {
			r.hiNum = math.NaN()
		}
	}
	return r, nil
}

func (p *parser) rangeBound() (string, error) {
	if p.peek() == '"' {
		p.pos++
		var b strings.Builder
		for p.pos < len(p.src) && p.src[p.pos] != '"' {
			b.WriteRune(p.src[p.pos])
			p.pos++
		}
		if p.pos >= len(p.src) {
			return "", p.errorf("missing closing quote")
		}
		p.pos++
		return b.String(), nil
	}
	var b strings.Builder
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		if unicode.IsSpace(c) || c == ']' || c == '}' {
			break
		}
		b.WriteRune(c)
		p.pos++
	}
	if b.Len() == 0 {
		return "", p.errorf("range bound missing")
	}
	return unescape(b.String()), nil
}
