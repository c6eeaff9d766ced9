package uaparse

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
	"testing"
)

// TestOSSwitchGate proves the gate osSwitchMayMatch against the source
// of osFromEntry: every alternative (operand of ||) of every case of
// its switch must require, through an && chain, an entry that starts
// with or equals a literal whose first two bytes are an opening of
// osSwitchOpenings, or a needle of osSwitchNeedles. A case added without that fails here,
// rather than being skipped silently by the gate.
func TestOSSwitchGate(t *testing.T) {
	gate := map[string]needleID{"kwIPhoneOS": kwIPhoneOS, "kwIPadOS": kwIPadOS, "kwIPhoneOSNoSpace": kwIPhoneOSNoSpace,
		"kwMacOSX": kwMacOSX, "kwMacOSXOneSpace": kwMacOSXOneSpace, "kwMacOSXNoSpace": kwMacOSXNoSpace}
	if len(gate) != len(osSwitchNeedles) {
		t.Fatalf("osSwitchNeedles has %d needles, the test knows %d", len(osSwitchNeedles), len(gate))
	}
	for name, id := range gate {
		found := false
		for _, g := range osSwitchNeedles {
			found = found || g == id
		}
		if !found {
			t.Fatalf("%s is not in osSwitchNeedles", name)
		}
	}
	f, err := parser.ParseFile(token.NewFileSet(), "os.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var sw *ast.SwitchStmt
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == "osFromEntry" {
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				if s, ok := n.(*ast.SwitchStmt); ok && sw == nil {
					sw = s
				}
				return sw == nil
			})
		}
	}
	if sw == nil {
		t.Fatal("no switch in osFromEntry")
	}
	openings := map[string]bool{}
	for _, o := range strings.Fields(osSwitchOpenings) {
		if len(o) != 2 {
			t.Fatalf("opening %q of osSwitchOpenings is not two bytes", o)
		}
		openings[o] = true
		if !osSwitchSeconds[o[0]].has(o[1]) {
			t.Fatalf("opening %q is not in osSwitchSeconds", o)
		}
	}
	opens := func(s string) bool { return len(s) >= 2 && openings[s[:2]] }
	literal := func(e ast.Expr) (string, bool) {
		b, ok := e.(*ast.BasicLit)
		if !ok || b.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(b.Value)
		return s, err == nil
	}
	isLt := func(e ast.Expr) bool {
		id, ok := e.(*ast.Ident)
		return ok && id.Name == "lt"
	}
	// gated reports whether the operand alone keeps the entry out unless
	// the gate lets it in.
	gated := func(e ast.Expr) bool {
		switch x := e.(type) {
		case *ast.BinaryExpr:
			if x.Op == token.EQL && isLt(x.X) {
				if s, ok := literal(x.Y); ok {
					return opens(s)
				}
			}
		case *ast.CallExpr:
			sel, ok := x.Fun.(*ast.SelectorExpr)
			if !ok {
				return false
			}
			if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "strings" && sel.Sel.Name == "HasPrefix" && isLt(x.Args[0]) {
				s, ok := literal(x.Args[1])
				return ok && opens(s)
			}
			if recv, ok := sel.X.(*ast.Ident); ok && recv.Name == "p" && sel.Sel.Name == "has" {
				id, ok := x.Args[0].(*ast.Ident)
				if !ok {
					return false
				}
				_, in := gate[id.Name]
				return in
			}
		}
		return false
	}
	var split func(e ast.Expr, op token.Token) []ast.Expr
	split = func(e ast.Expr, op token.Token) []ast.Expr {
		if p, ok := e.(*ast.ParenExpr); ok {
			e = p.X
		}
		if b, ok := e.(*ast.BinaryExpr); ok && b.Op == op {
			return append(split(b.X, op), split(b.Y, op)...)
		}
		return []ast.Expr{e}
	}
	cases := 0
	for _, st := range sw.Body.List {
		cc := st.(*ast.CaseClause)
		for _, e := range cc.List {
			for _, alt := range split(e, token.LOR) {
				cases++
				ok := false
				for _, term := range split(alt, token.LAND) {
					ok = ok || gated(term)
				}
				if !ok {
					t.Errorf("a case alternative at offset %d of os.go is not covered by osSwitchMayMatch", alt.Pos())
				}
			}
		}
	}
	if cases < 50 {
		t.Fatalf("only %d case alternatives found in osFromEntry's switch", cases)
	}
}

// TestRobotWordNeedles checks that the needle short cut of
// containsRobotWord answers as the plain search on every comment entry
// and product name of the DEV set, and that a string outside the user
// agent is still searched in full.
func TestRobotWordNeedles(t *testing.T) {
	compared, robots := 0, 0
	for _, c := range loadDev(t) {
		p := parse(collapseSpaces(urlDecode(c.UA)))
		var texts []string
		for _, e := range p.entries {
			texts = append(texts, p.ltext(e))
		}
		for _, pr := range p.products {
			texts = append(texts, pr.lname)
		}
		for _, lt := range texts {
			got, want := containsRobotWord(p, lt), containsRobotWord(nil, lt)
			if got != want {
				t.Fatalf("containsRobotWord(%q) in %q = %v, want %v", lt, c.UA, got, want)
			}
			compared++
			if want {
				robots++
			}
		}
		if !containsRobotWord(p, "a crawler") {
			t.Fatal("a string outside the user agent was not searched")
		}
	}
	if compared == 0 || robots == 0 {
		t.Fatalf("compared %d texts, %d with a robot word: the DEV set did not exercise the test", compared, robots)
	}
}

// TestCPUTagNeedles checks that the needle short cut of cpuFromEntryOf
// answers as cpuFromEntry on every comment entry of the DEV set.
func TestCPUTagNeedles(t *testing.T) {
	compared, found := 0, 0
	for _, c := range loadDev(t) {
		p := parse(collapseSpaces(urlDecode(c.UA)))
		for _, e := range p.entries {
			lt := p.ltext(e)
			got, want := cpuFromEntryOf(p, lt), cpuFromEntry(lt)
			if got != want {
				t.Fatalf("cpuFromEntryOf(%q) in %q = %q, want %q", lt, c.UA, got, want)
			}
			compared++
			if want != "" {
				found++
			}
		}
	}
	if compared == 0 || found == 0 {
		t.Fatalf("compared %d entries, %d naming a processor: the DEV set did not exercise the test", compared, found)
	}
}

// TestCPUWordNeedles shows that the needle test of cpuFromWords hides no
// processor tag: on every DEV user agent, and on a comment entry of each
// key of tables/cpu_words.tsv alone and in a window of two words, it
// answers as the search without the test.
func TestCPUWordNeedles(t *testing.T) {
	uas := []string{}
	for _, c := range loadDev(t) {
		uas = append(uas, collapseSpaces(urlDecode(c.UA)))
	}
	for k := range cpuWords {
		uas = append(uas, "Mozilla/5.0 (X11; "+k+")", "Kodi/19.4 (X11; Linux "+strings.ToUpper(k)+" foo) Sys_CPU/"+k)
	}
	compared, found := 0, 0
	for _, ua := range uas {
		p := parse(ua)
		got, want := (&state{p: p}).cpuFromWords(), (&state{p: p}).searchCPUWords()
		if got != want {
			t.Fatalf("cpuFromWords in %q = %q, want %q", ua, got, want)
		}
		compared++
		if want != "" {
			found++
		}
	}
	if compared == 0 || found < len(cpuWords) {
		t.Fatalf("compared %d user agents, %d naming a processor: the test did not exercise every key", compared, found)
	}
}
