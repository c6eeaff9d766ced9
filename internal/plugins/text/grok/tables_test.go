package grok

import (
	"strings"
	"testing"

	"github.com/weir-streams/weir/internal/fastre"
)

// TestFieldTablesApply checks that every field table entry, edit and own
// text still fits the go-grok text it was written for: a new go-grok
// version that changes a definition fails here instead of silently
// dropping a pattern from the legacy library or keeping go-grok's names.
func TestFieldTablesApply(t *testing.T) {
	base := NewBaseLibrary()
	for _, table := range []struct {
		name   string
		fields map[string][]string
		edits  map[string][][2]string
	}{
		{"ecsFields", ecsFields, nil},
		{"legacyFields", legacyFields, legacyEdits},
		{"legacyOwn", legacyOwn, legacyEdits},
	} {
		for name, fields := range table.fields {
			def, ok := base.Lookup(name)
			if !ok {
				t.Errorf("%s: %s is not in the library", table.name, name)
				continue
			}
			for _, e := range table.edits[name] {
				if !strings.Contains(def, e[0]) {
					t.Errorf("legacyEdits: %s no longer holds %q", name, e[0])
				}
				def = strings.Replace(def, e[0], e[1], 1)
			}
			if _, ok := withFields(def, fields); !ok {
				t.Errorf("%s: %s has %d references and named groups, the table %d", table.name, name, len(RefFields(def)), len(fields))
			}
		}
	}
	for name := range legacyOwn {
		if _, ok := legacyFields[name]; ok {
			t.Errorf("%s is in both legacyOwn and legacyFields", name)
		}
	}
}

// TestLibrariesExpand checks that every pattern of both built-in libraries
// (the ECS one and the legacy one) expands and runs on fastre, but for
// SYSLOGPAMSESSION, whose look-ahead needs regexp2.
func TestLibrariesExpand(t *testing.T) {
	for _, c := range []Compat{ECSv1, Disabled} {
		l := NewLibraryFor(c)
		for _, name := range l.Names() {
			exp, err := l.Expand("%{"+name+"}", Options{})
			if err != nil {
				t.Errorf("compat %d: %s: %v", c, name, err)
				continue
			}
			_, err = fastre.Compile(`^(?:` + exp.Regex + `)`)
			if (err != nil) != (name == "SYSLOGPAMSESSION") {
				t.Errorf("compat %d: %s: fastre: %v", c, name, err)
			}
		}
	}
}

// TestWithFields checks the markers of a field part: =name captures the
// placeholder a definition skips, "name the quoted string whole.
func TestWithFields(t *testing.T) {
	for _, c := range []struct {
		def    string
		fields []string
		want   string
	}{
		{`(?:-|%{INT:a.b:int}) %{WORD}`, []string{"x", ""}, `(?:-|%{INT:x}) %{WORD}`},
		{`(?:-|%{DATA:a})`, []string{"=[b][c]"}, `(?<b.c>-|%{DATA})`},
		{`(?:-1|%{INT:a:int})`, []string{"=t"}, `(?<t>-1|%{INT})`},
		{`(?:-1|%{NUMBER:a:float})`, []string{"=t:float"}, `%{NUMBER:t:float}`},
		{`(?:(?:None)|(?:%{DATA:a}))`, []string{"=r"}, `(?<r>None|%{DATA})`},
		{`(?:\(empty\)|%{DATA:a})`, []string{"=r"}, `(?<r>\(empty\)|%{DATA})`},
		{`"(?:-|%{DATA:a})"`, []string{`"referrer`}, `%{QS:referrer}`},
		{`(?<a>x)`, []string{""}, `(?:x)`},
	} {
		got, ok := withFields(c.def, c.fields)
		if !ok || got != c.want {
			t.Errorf("withFields(%q, %q) = %q, %v; want %q", c.def, c.fields, got, ok, c.want)
		}
	}
	if _, ok := withFields(`%{A:b} %{C}`, []string{"x"}); ok {
		t.Error("a table with fewer fields than references applied")
	}
}
