package grok_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	gogrok "github.com/elastic/go-grok"
	"github.com/elastic/go-grok/patterns"

	"github.com/weir-streams/weir/internal/fastre"
	"github.com/weir-streams/weir/internal/plugins/text/grok"
	"github.com/weir-streams/weir/internal/streamtest"
)

// outsideFastre lists the library patterns whose expansion fastre refuses,
// so that SplitText runs them on regexp; docs/grok.md names them. The test
// fails when the list is no longer true, in either direction.
var outsideFastre = []string{}

// lookahead are the library patterns that need the backtracking engine
// (regexp2): SYSLOGPAMSESSION looks ahead, as Logstash's, so that message
// holds the text the rest of the expression parses.
var lookahead = []string{"SYSLOGPAMSESSION"}

// TestEveryLibraryPatternExpands expands every pattern of go-grok, alone
// and with every sub-pattern capturing, checks that regexp compiles the
// result and that fastre compiles it anchored, except for the patterns of
// outsideFastre.
func TestEveryLibraryPatternExpands(t *testing.T) {
	lib := grok.NewLibrary()
	names := lib.Names()
	if len(names) < 240 {
		t.Fatalf("library has %d patterns, want the 245 of go-grok v0.3.1", len(names))
	}
	var refused []string
	for _, name := range names {
		for _, all := range []bool{false, true} {
			exp, err := lib.Expand("%{"+name+":f}", grok.Options{AllCaptures: all})
			if err != nil {
				t.Errorf("%s (all captures %v): %v", name, all, err)
				continue
			}
			re, err := regexp.Compile(exp.Regex)
			if slices.Contains(lookahead, name) {
				if err == nil {
					t.Errorf("%s: regexp accepts the expansion; remove it from lookahead", name)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s: regexp refuses the expansion: %v", name, err)
				continue
			}
			if re.NumSubexp() != len(exp.Captures) {
				t.Errorf("%s: %d groups for %d captures", name, re.NumSubexp(), len(exp.Captures))
			}
			if exp.Captures[0].Field != "f" {
				t.Errorf("%s: first capture is %q, want f", name, exp.Captures[0].Field)
			}
			if _, err := fastre.Compile(`^(?:` + exp.Regex + `)`); err != nil && !all {
				refused = append(refused, name)
				t.Logf("%s: fastre: %v", name, err)
			}
		}
	}
	if !slices.Equal(refused, outsideFastre) {
		t.Errorf("patterns outside fastre = %q, want %q (update outsideFastre and docs/grok.md)", refused, outsideFastre)
	}
}

// libraryCase is one test line of go-grok's own pattern tests.
type libraryCase struct {
	file, name, pattern, text string
	expected                  map[string]string
	set                       string // the patterns.X the test loads
	namedOnly                 bool   // the second argument of its Compile
}

// libraryCases reads go-grok's patterns_test files from the module cache,
// where `go mod download` put them with the module, and extracts their
// test tables with go/parser.
func libraryCases(t *testing.T) []libraryCase {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/elastic/go-grok").Output()
	if err != nil {
		t.Fatalf("locate go-grok in the module cache: %v", err)
	}
	dir := filepath.Join(strings.TrimSpace(string(out)), "patterns_test")
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no go-grok pattern tests in %s (%v)", dir, err)
	}
	var cases []libraryCase
	for _, f := range files {
		fset := token.NewFileSet()
		af, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		set, namedOnly := "", false
		var lits []*ast.CompositeLit
		ast.Inspect(af, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				sel, ok := n.Fun.(*ast.SelectorExpr)
				if !ok {
					break
				}
				switch sel.Sel.Name {
				case "NewWithPatterns":
					if a, ok := n.Args[0].(*ast.SelectorExpr); ok {
						set = a.Sel.Name
					}
				case "Compile":
					if id, ok := n.Args[1].(*ast.Ident); ok {
						namedOnly = id.Name == "true"
					}
				}
			case *ast.CompositeLit:
				if n.Type == nil && len(n.Elts) == 4 {
					lits = append(lits, n)
				}
			}
			return true
		})
		for _, lit := range lits {
			c := libraryCase{file: filepath.Base(f), expected: map[string]string{}}
			strs := make([]string, 3)
			for i := range 3 {
				bl, ok := lit.Elts[i].(*ast.BasicLit)
				if !ok {
					t.Fatalf("%s: unexpected test case shape at %v", f, fset.Position(lit.Pos()))
				}
				if strs[i], err = strconv.Unquote(bl.Value); err != nil {
					t.Fatal(err)
				}
			}
			c.name, c.pattern, c.text = strs[0], strs[1], strs[2]
			m, ok := lit.Elts[3].(*ast.CompositeLit)
			if !ok {
				t.Fatalf("%s: unexpected expectation shape at %v", f, fset.Position(lit.Pos()))
			}
			for _, e := range m.Elts {
				kv := e.(*ast.KeyValueExpr)
				k, _ := strconv.Unquote(kv.Key.(*ast.BasicLit).Value)
				v, _ := strconv.Unquote(kv.Value.(*ast.BasicLit).Value)
				c.expected[k] = v
			}
			cases = append(cases, c)
		}
		for i := len(cases) - len(lits); i < len(cases); i++ {
			cases[i].set, cases[i].namedOnly = set, namedOnly
		}
	}
	return cases
}

var setsByIdent = map[string]map[string]string{
	"AWS": patterns.AWS, "Bind9": patterns.Bind9, "Bro": patterns.Bro, "Exim": patterns.Exim,
	"Firewalls": patterns.Firewalls, "HAProxy": patterns.HAProxy, "Httpd": patterns.Httpd,
	"Java": patterns.Java, "Junos": patterns.Junos, "MCollective": patterns.MCollective,
	"Maven": patterns.Maven, "MongoDB": patterns.MongoDB, "PostgreSQL": patterns.PostgreSQL,
	"Rails": patterns.Rails, "Redis": patterns.Redis, "Ruby": patterns.Ruby,
	"Squid": patterns.Squid, "Syslog": patterns.Syslog,
}

// fields gives the captures of a match as go-grok reports them: a group
// that did not take part or matched the empty string sets nothing, and a
// later group of the same name overrides an earlier one.
func fields(exp grok.Expansion, s string, idx []int) map[string]string {
	out := map[string]string{}
	for i, c := range exp.Captures {
		if a, b := idx[2*i+2], idx[2*i+3]; a >= 0 && b > a {
			out[c.Field] = s[a:b]
		}
	}
	return out
}

// TestLibraryTestLines runs every test line of go-grok's own pattern tests
// through go-grok and through Weir's expansion, on regexp unanchored (as
// go-grok matches) and on fastre anchored (as SplitText matches), and wants
// the same captures from all three, and the ones the test expects.
func TestLibraryTestLines(t *testing.T) {
	cases := libraryCases(t)
	if len(cases) < 150 {
		t.Fatalf("found %d test lines in go-grok's pattern tests, want the ~170 of v0.3.1", len(cases))
	}
	lib := grok.NewGoGrokLibrary()
	checked := 0
	for _, c := range cases {
		t.Run(c.file+"/"+c.name, func(t *testing.T) {
			set, ok := setsByIdent[c.set]
			if !ok {
				t.Fatalf("unknown pattern set %q", c.set)
			}
			g, err := gogrok.NewWithPatterns(set)
			if err != nil {
				t.Fatal(err)
			}
			if err := g.Compile(c.pattern, c.namedOnly); err != nil {
				t.Fatal(err)
			}
			want, err := g.ParseString(c.text)
			if err != nil {
				t.Fatal(err)
			}
			if len(want) == 0 {
				t.Fatalf("go-grok does not match %q with %s", c.text, c.pattern)
			}
			for k, v := range c.expected {
				if want[k] != v {
					t.Logf("go-grok itself gives %s=%q where its test expects %q", k, want[k], v)
				}
			}
			exp, err := lib.Expand(c.pattern, grok.Options{AllCaptures: !c.namedOnly})
			if err != nil {
				t.Fatal(err)
			}
			idx := regexp.MustCompile(exp.Regex).FindStringSubmatchIndex(c.text)
			if idx == nil {
				t.Fatalf("Weir's expansion does not match %q", c.text)
			}
			if got := fields(exp, c.text, idx); !maps.Equal(got, want) {
				t.Errorf("regexp captures differ from go-grok's:\n got %v\nwant %v", got, want)
			}
			if idx[0] != 0 {
				// SplitText anchors at the start: nothing more to compare.
				t.Logf("the match starts at byte %d of %q", idx[0], c.text)
				return
			}
			m, err := fastre.Compile(`^(?:` + exp.Regex + `)`)
			if err != nil {
				t.Fatalf("fastre: %v", err)
			}
			fidx, ok, gaveUp := m.MatchIndex(c.text, nil)
			if gaveUp || !ok {
				t.Fatalf("fastre: match %v, gave up %v", ok, gaveUp)
			}
			if got := fields(exp, c.text, fidx); !maps.Equal(got, want) {
				t.Errorf("fastre captures differ from go-grok's:\n got %v\nwant %v", got, want)
			}
			checked++
		})
	}
	t.Logf("%d test lines compared, %d of them also on fastre", len(cases), checked)
}

// TestReorderedDefinitions checks that the definitions Weir reorders are
// still go-grok's, and that both orders give the same captures on the
// real access log's addresses and on IPv6 and host names. (The whole
// %{COMBINEDAPACHELOG} on the whole log is compared with the regex job in
// the text package.)
func TestReorderedDefinitions(t *testing.T) {
	for name, r := range grok.Reordered {
		if got := patterns.Default[name]; got != r.Original {
			t.Errorf("go-grok's %s is now %q, not %q: check the reordering again", name, got, r.Original)
		}
	}
	orig := grok.NewLibrary()
	for name, r := range grok.Reordered {
		if err := orig.AddDefinitions(name+" "+r.Original, "test"); err != nil {
			t.Fatal(err)
		}
	}
	inputs := []string{"::1", "fe80::1%eth0", "2001:db8::8a2e:370:7334", "1:2:3:4:5:6:7:8", "10.0.0.1", "255.255.255.255",
		"1.2.3", "abcd:ef01::", "dead.beef", "unicomp6.unicomp.net", "a:b", "123:45", "12.3:4", "1234:5678:9abc:def0:1234:5678:9abc:def0"}
	// The client field of every line of the real log, with what follows
	// it, since that is where %{IPORHOST} meets access logs.
	for _, l := range streamtest.AccessLogLines(t) {
		inputs = append(inputs, l[:min(len(l), 40)])
	}
	for _, expr := range []string{"%{IP:ip}", "%{IPORHOST:host} %{GREEDYDATA:rest}"} {
		for _, all := range []bool{false, true} {
			a, err := grok.NewLibrary().Expand(expr, grok.Options{AllCaptures: all})
			if err != nil {
				t.Fatal(err)
			}
			b, err := orig.Expand(expr, grok.Options{AllCaptures: all})
			if err != nil {
				t.Fatal(err)
			}
			ra, rb := regexp.MustCompile(`^(?:`+a.Regex+`)`), regexp.MustCompile(`^(?:`+b.Regex+`)`)
			for _, in := range inputs {
				ia, ib := ra.FindStringSubmatchIndex(in), rb.FindStringSubmatchIndex(in)
				if (ia == nil) != (ib == nil) {
					t.Fatalf("%s on %q: match %v with Weir's order, %v with go-grok's", expr, in, ia != nil, ib != nil)
				}
				if ia != nil && !maps.Equal(fields(a, in, ia), fields(b, in, ib)) {
					t.Fatalf("%s on %q: %v with Weir's order, %v with go-grok's", expr, in, fields(a, in, ia), fields(b, in, ib))
				}
			}
		}
	}
}
