package grok

import (
	"regexp"
	"strings"
)

// fieldSite finds where a definition names a field: a reference
// %{NAME} or %{NAME:field} or %{NAME:field:type} (group 2 holds field and
// type), or a named group (?<field> (group 3).
var fieldSite = regexp.MustCompile(`%\{(\w+)(?::([^}]*))?\}|\(\?P?<([^>=!][^>]*)>`)

// RefFields returns the field part (field or field:type, "" for none) of
// each reference and named group of a definition, in order.
func RefFields(def string) []string {
	var out []string
	for _, m := range fieldSite.FindAllStringSubmatch(def, -1) {
		if m[1] != "" {
			out = append(out, m[2])
		} else {
			out = append(out, m[3])
		}
	}
	return out
}

// skeleton is a definition without the field names of its references and
// named groups: two definitions with the same skeleton match the same text
// and differ only in the fields they fill.
func skeleton(def string) string {
	return fieldSite.ReplaceAllStringFunc(def, func(s string) string {
		m := fieldSite.FindStringSubmatch(s)
		if m[1] != "" {
			return "%{" + m[1] + "}"
		}
		return "(?<>"
	})
}

// AlignFields returns the field parts of theirs (RefFields) when ours has
// the same skeleton, so that they can stand for those of ours.
func AlignFields(ours, theirs string) ([]string, bool) {
	if skeleton(ours) != skeleton(theirs) {
		return nil, false
	}
	return RefFields(theirs), true
}

// withFields returns def with the field parts of its references and named
// groups replaced by fields, in order, or false when their number differs
// (a go-grok text that changed since the table was written). A named
// group given no field becomes a plain group.
func withFields(def string, fields []string) (string, bool) {
	if len(RefFields(def)) != len(fields) {
		return def, false
	}
	i := 0
	var dashes, quoted []string
	out := fieldSite.ReplaceAllStringFunc(def, func(s string) string {
		m := fieldSite.FindStringSubmatch(s)
		f := fields[i]
		i++
		if rest, ok := strings.CutPrefix(f, `"`); ok && m[1] != "" {
			f = dotted(rest)
			quoted = append(quoted, m[1], f)
			return "%{" + m[1] + ":" + f + "}"
		}
		if rest, ok := strings.CutPrefix(f, "="); ok && m[1] != "" {
			f = dotted(rest)
			dashes = append(dashes, m[1], f)
			return "%{" + m[1] + ":" + f + "}"
		}
		f = dotted(f)
		switch {
		case m[1] == "":
			if f == "" {
				return "(?:"
			}
			return "(?<" + f + ">"
		case f == "":
			return "%{" + m[1] + "}"
		default:
			return "%{" + m[1] + ":" + f + "}"
		}
	})
	// A field written =name takes the placeholder the definition skips,
	// (?:-|%{P:name}) or (?:-1|%{P:name}), as its value: Logstash's legacy
	// texts capture - into most fields of Zeek's logs, -1 into HAProxy's
	// timers.
	for j := 0; j < len(dashes); j += 2 {
		p, f := dashes[j], dashes[j+1]
		if name, _, typed := strings.Cut(f, ":"); typed && (p == "NUMBER" || p == "INT") {
			// A named group has no type: a number matches -1 itself.
			out = strings.ReplaceAll(out, "(?:-1|%{"+p+":"+f+"})", "%{"+p+":"+f+"}")
			f = name
		}
		ref := regexp.QuoteMeta("%{" + p + ":" + f + "}")
		group := "(?<" + strings.ReplaceAll(f, "$", "$$") + ">${1}|%{" + p + "})"
		for _, skipped := range []*regexp.Regexp{
			regexp.MustCompile(`\(\?:((?:\\.|[^()|%\\])+)\|` + ref + `\)`), // (?:-|%{P:f})
			regexp.MustCompile(`\(\?:\(\?:(\w+)\)\|\(\?:` + ref + `\)\)`),  // (?:(?:None)|(?:%{P:f}))
		} {
			out = skipped.ReplaceAllString(out, group)
		}
	}
	// A field written "name is the quoted string whole, quotes included,
	// where the definition takes what is inside them: Logstash's legacy
	// texts capture %{QS:referrer}.
	for j := 0; j < len(quoted); j += 2 {
		p, f := quoted[j], quoted[j+1]
		out = strings.ReplaceAll(out, `"(?:-|%{`+p+":"+f+`})"`, "%{QS:"+f+"}")
	}
	return out, true
}

// dotted writes the field of a field part (field or field:type) as Weir
// names it, [source][ip] as source.ip, as the library's texts do.
func dotted(f string) string {
	name, typ, ok := strings.Cut(f, ":")
	if strings.HasPrefix(f, "[") {
		if i := strings.LastIndex(f, "]"); i >= 0 {
			name, typ, ok = f[:i+1], strings.TrimPrefix(f[i+1:], ":"), len(f) > i+1
		}
	}
	name = FieldName(name)
	if ok {
		return name + ":" + typ
	}
	return name
}
