package jobtest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/weir-streams/weir/internal/expr"
	"github.com/weir-streams/weir/internal/record"
)

// File is a test file: the job it tests, the environment of the job's
// ${VAR} references, canned answers for the job's services that reach the
// network, and the test cases.
type File struct {
	// Path is the test file's path, as given.
	Path string
	// Job is the job file's path, resolved from the test file's directory.
	Job string
	// Env holds the variables of the job's ${VAR} references; a variable
	// not listed is taken from the process environment.
	Env      map[string]string
	Services map[string]*Canned
	Tests    []*Case
}

// Canned are the declared answers of one controller service.
type Canned struct {
	Name string
	Line int
	// ReverseDNS maps an address, as written in records, to its verified
	// name; "" (or null) means the address has no name. Addresses not
	// listed have no name either: a test never asks a real DNS server.
	ReverseDNS map[string]string
	// Datastore, when set, stands in for a document database or search
	// index: it accepts every record but those of a refuse rule.
	Datastore *CannedStore
}

// CannedStore is a datastore that answers from rules.
type CannedStore struct {
	Refuse []RefuseRule
}

// RefuseRule refuses for good the records for which When is true, with
// Reason, as a database refuses a document (a duplicate key, a mapping
// conflict).
type RefuseRule struct {
	When   *expr.Program
	Reason string
}

// Case is one test: messages in, expectations on what comes out.
type Case struct {
	Name string
	Line int
	// Stream is the stream whose chain runs; empty means the job's only
	// stream.
	Stream string
	// From and To name the first and last processors of the range that
	// runs; empty means the first and the last of the chain.
	From, To string
	Input    []Message
	Expect   Expect
}

// Message is one input message: a raw value (Value) or a JSON value (JSON)
// given to the stream's input serializer, with an optional key, or a record
// already made (Fields) for a range of processors that starts after the
// parsing.
type Message struct {
	Line   int
	Key    []byte
	Value  []byte
	Fields []record.Field
	// Direct is true for Fields: the record skips the input serializer.
	Direct bool
}

// Expect holds the expectations of a case.
type Expect struct {
	// Counts are the expected numbers of records per destination: "output",
	// "error", "dropped", or a topic name.
	Counts map[string]int
	// Stored are the expected numbers of records a canned datastore
	// accepted, by service name.
	Stored  map[string]int
	Records []RecordExpect
	Line    int
	// lines are the lines of the count and stored entries, by
	// "count.DEST" and "stored.NAME".
	lines map[string]int
}

// lineOf returns the line of a count or stored entry.
func (e Expect) lineOf(entry string) int {
	if l, ok := e.lines[entry]; ok {
		return l
	}
	return e.Line
}

// RecordExpect is what one record must hold. The n-th RecordExpect of a
// destination applies to the n-th record written there, in input order.
type RecordExpect struct {
	Line int
	// Dest is "output", "error" or a topic name.
	Dest   string
	Fields []FieldExpect
}

// FieldExpect is one check of one field.
type FieldExpect struct {
	Line  int
	Field string
	// Op is "equals", "matches", "exists", "absent" or "type".
	Op      string
	Equals  record.Value
	Matches *regexp.Regexp
	Type    string
}

// fileErrors are the problems of a test file, each with its line.
type fileErrors struct {
	path string
	errs []lineError
}

type lineError struct {
	line int
	msg  string
}

func (e *fileErrors) add(n *yaml.Node, format string, args ...any) {
	line := 0
	if n != nil {
		line = n.Line
	}
	e.errs = append(e.errs, lineError{line, fmt.Sprintf(format, args...)})
}

func (e *fileErrors) Error() string {
	sort.SliceStable(e.errs, func(i, j int) bool { return e.errs[i].line < e.errs[j].line })
	var b strings.Builder
	for i, le := range e.errs {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "%s:%d: %s", e.path, le.line, le.msg)
	}
	return b.String()
}

// LoadFile reads a test file. A file that is not valid is refused with
// every problem found, each as path:line: message.
func LoadFile(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read test file: %w", err)
	}
	return Parse(path, data)
}

// Parse reads a test file's content; path names it in errors and is the
// base of the job's relative path.
func Parse(path string, data []byte) (*File, error) {
	errs := &fileErrors{path: path}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	f := &File{Path: path, Env: map[string]string{}, Services: map[string]*Canned{}}
	if root.Kind == 0 || len(root.Content) == 0 {
		errs.add(nil, "test file is empty")
		return nil, errs
	}
	doc := root.Content[0]
	top := fields(errs, doc, "the test file", "job", "env", "services", "tests")
	if kv, ok := top["job"]; ok {
		f.Job = scalar(errs, kv[1], "job")
		if f.Job != "" && !filepath.IsAbs(f.Job) {
			f.Job = filepath.Join(filepath.Dir(path), f.Job)
		}
	} else {
		f.Job = defaultJob(path)
		if f.Job == "" {
			errs.add(doc, "missing key \"job\" (the job file under test; it can be left out when the test file is named JOB.test.yml beside JOB.yml)")
		}
	}
	if kv, ok := top["env"]; ok {
		for k, v := range pairs(errs, kv[1], "env") {
			f.Env[k] = scalar(errs, v, "env."+k)
		}
	}
	if kv, ok := top["services"]; ok {
		pairs(errs, kv[1], "services") // reports what is not a mapping, and duplicates
		if kv[1].Kind == yaml.MappingNode {
			for i := 0; i+1 < len(kv[1].Content); i += 2 {
				k, v := kv[1].Content[i], kv[1].Content[i+1]
				if _, dup := f.Services[k.Value]; !dup {
					f.Services[k.Value] = parseCanned(errs, k.Value, k, v)
				}
			}
		}
	}
	kv, ok := top["tests"]
	switch {
	case !ok:
		errs.add(doc, "missing key \"tests\"")
	case kv[1].Kind != yaml.SequenceNode || len(kv[1].Content) == 0:
		errs.add(kv[1], "tests must be a list of at least one test")
	default:
		names := map[string]int{}
		for _, n := range kv[1].Content {
			c := parseCase(errs, n)
			if c.Name != "" {
				if prev, dup := names[c.Name]; dup {
					errs.add(n, "test name %q is used twice (first on line %d)", c.Name, prev)
				}
				names[c.Name] = n.Line
			}
			f.Tests = append(f.Tests, c)
		}
	}
	if len(errs.errs) > 0 {
		return nil, errs
	}
	return f, nil
}

// defaultJob is JOB.yml for a test file named JOB.test.yml, or "".
func defaultJob(path string) string {
	for _, ext := range []string{".test.yml", ".test.yaml"} {
		if base, ok := strings.CutSuffix(path, ext); ok {
			for _, jext := range []string{".yml", ".yaml"} {
				if _, err := os.Stat(base + jext); err == nil {
					return base + jext
				}
			}
		}
	}
	return ""
}

func parseCanned(errs *fileErrors, name string, key, n *yaml.Node) *Canned {
	c := &Canned{Name: name, Line: key.Line}
	f := fields(errs, n, "services."+name, "reverse_dns", "datastore")
	if len(f) == 0 && n.Kind == yaml.MappingNode {
		errs.add(n, "services.%s: give reverse_dns or datastore answers", name)
	}
	if kv, ok := f["reverse_dns"]; ok {
		c.ReverseDNS = map[string]string{}
		for addr, v := range pairs(errs, kv[1], "services."+name+".reverse_dns") {
			if v.Tag == "!!null" {
				c.ReverseDNS[addr] = ""
				continue
			}
			c.ReverseDNS[addr] = strings.TrimSuffix(scalar(errs, v, "services."+name+".reverse_dns."+addr), ".")
		}
	}
	if kv, ok := f["datastore"]; ok {
		c.Datastore = &CannedStore{}
		df := fields(errs, kv[1], "services."+name+".datastore", "refuse")
		if rk, ok := df["refuse"]; ok {
			if rk[1].Kind != yaml.SequenceNode {
				errs.add(rk[1], "services.%s.datastore.refuse must be a list of {when, reason}", name)
			} else {
				for _, rn := range rk[1].Content {
					rf := fields(errs, rn, "refuse rule", "when", "reason")
					var rule RefuseRule
					if w, ok := rf["when"]; ok {
						src := scalar(errs, w[1], "when")
						prog, err := expr.Compile(src)
						if err != nil {
							errs.add(w[1], "refuse rule: when: %v", err)
						}
						rule.When = prog
					} else {
						errs.add(rn, "refuse rule: missing key \"when\" (an expression over the record's fields)")
					}
					rule.Reason = "refused by the canned datastore"
					if r, ok := rf["reason"]; ok {
						rule.Reason = scalar(errs, r[1], "reason")
					}
					c.Datastore.Refuse = append(c.Datastore.Refuse, rule)
				}
			}
		}
	}
	return c
}

func parseCase(errs *fileErrors, n *yaml.Node) *Case {
	c := &Case{Line: n.Line}
	f := fields(errs, n, "test", "name", "stream", "processors", "input", "expect")
	if kv, ok := f["name"]; ok {
		c.Name = scalar(errs, kv[1], "name")
	}
	if c.Name == "" && n.Kind == yaml.MappingNode {
		errs.add(n, "test: missing key \"name\"")
	}
	if kv, ok := f["stream"]; ok {
		c.Stream = scalar(errs, kv[1], "stream")
	}
	if kv, ok := f["processors"]; ok {
		pf := fields(errs, kv[1], "processors", "from", "to")
		if x, ok := pf["from"]; ok {
			c.From = scalar(errs, x[1], "processors.from")
		}
		if x, ok := pf["to"]; ok {
			c.To = scalar(errs, x[1], "processors.to")
		}
	}
	if kv, ok := f["input"]; ok {
		if kv[1].Kind != yaml.SequenceNode || len(kv[1].Content) == 0 {
			errs.add(kv[1], "input must be a list of messages ({value}, {json} or {fields}, each with an optional key)")
		} else {
			for _, m := range kv[1].Content {
				c.Input = append(c.Input, parseMessage(errs, m))
			}
		}
	} else if n.Kind == yaml.MappingNode {
		errs.add(n, "test %q: missing key \"input\"", c.Name)
	}
	if kv, ok := f["expect"]; ok {
		c.Expect = parseExpect(errs, kv[1])
	} else if n.Kind == yaml.MappingNode {
		errs.add(n, "test %q: missing key \"expect\"", c.Name)
	}
	return c
}

func parseMessage(errs *fileErrors, n *yaml.Node) Message {
	m := Message{Line: n.Line}
	if n.Kind == yaml.ScalarNode {
		// A bare string is a raw value: the common case of log lines.
		m.Value = []byte(n.Value)
		return m
	}
	f := fields(errs, n, "input message", "value", "json", "fields", "key")
	given := 0
	if kv, ok := f["value"]; ok {
		given++
		m.Value = []byte(scalar(errs, kv[1], "value"))
	}
	if kv, ok := f["json"]; ok {
		given++
		if kv[1].Kind == yaml.ScalarNode && kv[1].Tag == "!!str" {
			// JSON text as written, for documents YAML cannot hold as they are.
			if !json.Valid([]byte(kv[1].Value)) {
				errs.add(kv[1], "json: the text is not valid JSON")
			}
			m.Value = []byte(kv[1].Value)
		} else {
			var x any
			if err := kv[1].Decode(&x); err != nil {
				errs.add(kv[1], "json: %v", err)
			}
			b, err := json.Marshal(x)
			if err != nil {
				errs.add(kv[1], "json: %v", err)
			}
			m.Value = b
		}
	}
	if kv, ok := f["fields"]; ok {
		given++
		m.Direct = true
		if kv[1].Kind != yaml.MappingNode {
			errs.add(kv[1], "fields must be a mapping of field name to value")
		} else {
			for i := 0; i+1 < len(kv[1].Content); i += 2 {
				k, v := kv[1].Content[i], kv[1].Content[i+1]
				val, err := nodeValue(v)
				if err != nil {
					errs.add(v, "fields.%s: %v", k.Value, err)
				}
				m.Fields = append(m.Fields, record.Field{Name: k.Value, Value: val})
			}
		}
	}
	if kv, ok := f["key"]; ok {
		m.Key = []byte(scalar(errs, kv[1], "key"))
		if m.Direct {
			errs.add(kv[0], "key goes with value or json (a message); a record given as fields has no key")
		}
	}
	if given != 1 && n.Kind == yaml.MappingNode {
		errs.add(n, "an input message has exactly one of value, json and fields")
	}
	return m
}

// destinations named by expectations besides topic names.
const (
	DestOutput = "output"
	DestError  = "error"
	// DestDropped names the records the chain dropped on purpose (a
	// FilterRecords whose criteria they did not meet): written nowhere,
	// their offsets committed.
	DestDropped = "dropped"
)

func parseExpect(errs *fileErrors, n *yaml.Node) Expect {
	e := Expect{Line: n.Line, Counts: map[string]int{}, Stored: map[string]int{}, lines: map[string]int{}}
	f := fields(errs, n, "expect", "count", "stored", "records")
	for _, part := range []struct {
		key string
		dst map[string]int
	}{{"count", e.Counts}, {"stored", e.Stored}} {
		kv, ok := f[part.key]
		if !ok {
			continue
		}
		for k, v := range pairs(errs, kv[1], "expect."+part.key) {
			var x int
			if err := v.Decode(&x); err != nil || x < 0 {
				errs.add(v, "expect.%s.%s: %q is not a count", part.key, k, v.Value)
			}
			part.dst[k] = x
			e.lines[part.key+"."+k] = v.Line
		}
	}
	if kv, ok := f["records"]; ok {
		if kv[1].Kind != yaml.SequenceNode {
			errs.add(kv[1], "expect.records must be a list of {topic, fields}")
		} else {
			for _, rn := range kv[1].Content {
				e.Records = append(e.Records, parseRecordExpect(errs, rn))
			}
		}
	}
	if len(e.Counts) == 0 && len(e.Stored) == 0 && len(e.Records) == 0 {
		errs.add(n, "expect holds no expectation (give count, stored or records)")
	}
	return e
}

func parseRecordExpect(errs *fileErrors, n *yaml.Node) RecordExpect {
	re := RecordExpect{Line: n.Line, Dest: DestOutput}
	f := fields(errs, n, "expected record", "topic", "fields")
	if kv, ok := f["topic"]; ok {
		re.Dest = scalar(errs, kv[1], "topic")
	}
	kv, ok := f["fields"]
	if !ok {
		if n.Kind == yaml.MappingNode {
			errs.add(n, "expected record: missing key \"fields\"")
		}
		return re
	}
	if kv[1].Kind != yaml.MappingNode {
		errs.add(kv[1], "fields must be a mapping of field name to expectation")
		return re
	}
	for i := 0; i+1 < len(kv[1].Content); i += 2 {
		k, v := kv[1].Content[i], kv[1].Content[i+1]
		re.Fields = append(re.Fields, parseFieldExpect(errs, k.Value, v)...)
	}
	return re
}

// parseFieldExpect reads the expectation of one field: a value (equals), or
// a mapping of checks.
func parseFieldExpect(errs *fileErrors, name string, v *yaml.Node) []FieldExpect {
	if v.Kind != yaml.MappingNode {
		val, err := nodeValue(v)
		if err != nil {
			errs.add(v, "field %s: %v", name, err)
		}
		return []FieldExpect{{Line: v.Line, Field: name, Op: "equals", Equals: val}}
	}
	var out []FieldExpect
	checks := fields(errs, v, "field "+name, "equals", "matches", "exists", "absent", "type")
	for _, op := range []string{"equals", "matches", "exists", "absent", "type"} {
		kv, ok := checks[op]
		if !ok {
			continue
		}
		fe := FieldExpect{Line: kv[0].Line, Field: name, Op: op}
		switch op {
		case "equals":
			val, err := nodeValue(kv[1])
			if err != nil {
				errs.add(kv[1], "field %s: equals: %v", name, err)
			}
			fe.Equals = val
		case "matches":
			re, err := regexp.Compile(scalar(errs, kv[1], "matches"))
			if err != nil {
				errs.add(kv[1], "field %s: matches: %v", name, err)
			}
			fe.Matches = re
		case "exists", "absent":
			var b bool
			if err := kv[1].Decode(&b); err != nil || !b {
				errs.add(kv[1], "field %s: %s takes true (write absent: true or exists: true)", name, op)
			}
		case "type":
			fe.Type = scalar(errs, kv[1], "type")
			if !validType(fe.Type) {
				errs.add(kv[1], "field %s: type %q is not one of %s", name, fe.Type, strings.Join(typeNames(), ", "))
			}
		}
		out = append(out, fe)
	}
	if len(out) == 0 && len(v.Content) == 0 {
		errs.add(v, "field %s: give a value, or equals, matches, exists, absent or type", name)
	}
	return out
}

// nodeValue converts a YAML value to a record value: integers to int,
// other numbers (200.0 too) to float, strings, booleans, null, lists and
// mappings.
func nodeValue(n *yaml.Node) (record.Value, error) {
	var x any
	if err := n.Decode(&x); err != nil {
		return record.Value{}, err
	}
	return anyValue(x)
}

func anyValue(x any) (record.Value, error) {
	switch t := x.(type) {
	case nil:
		return record.Value{}, nil
	case string:
		return record.StringValue(t), nil
	case bool:
		return record.BoolValue(t), nil
	case int:
		return record.IntValue(int64(t)), nil
	case int64:
		return record.IntValue(t), nil
	case uint64:
		return record.FloatValue(float64(t)), nil
	case float64:
		return record.FloatValue(t), nil
	case []any:
		a := make([]record.Value, len(t))
		for i, e := range t {
			v, err := anyValue(e)
			if err != nil {
				return record.Value{}, err
			}
			a[i] = v
		}
		return record.ArrayValue(a), nil
	case map[string]any:
		m := make(map[string]record.Value, len(t))
		for k, e := range t {
			v, err := anyValue(e)
			if err != nil {
				return record.Value{}, err
			}
			m[k] = v
		}
		return record.MapValue(m), nil
	}
	return record.Value{}, fmt.Errorf("a value of type %T cannot be a field", x)
}

func validType(t string) bool {
	for _, n := range typeNames() {
		if n == t {
			return true
		}
	}
	return false
}

// typeNames are the kinds of record values, as record.Kind names them.
func typeNames() []string {
	return []string{record.Null.String(), record.String.String(), record.Int.String(), record.Float.String(),
		record.Bool.String(), record.Bytes.String(), record.Array.String(), record.Map.String()}
}

// fields reads a mapping, reporting keys outside allowed and keys given
// twice; it returns key -> (key node, value node).
func fields(errs *fileErrors, n *yaml.Node, what string, allowed ...string) map[string][2]*yaml.Node {
	out := map[string][2]*yaml.Node{}
	if n.Kind != yaml.MappingNode {
		errs.add(n, "%s must be a mapping with the keys %s", what, strings.Join(allowed, ", "))
		return out
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		known := false
		for _, a := range allowed {
			known = known || a == k.Value
		}
		if !known {
			errs.add(k, "%s: unknown key %q (known: %s)", what, k.Value, strings.Join(allowed, ", "))
			continue
		}
		if _, dup := out[k.Value]; dup {
			errs.add(k, "%s: key %q is given twice", what, k.Value)
			continue
		}
		out[k.Value] = [2]*yaml.Node{k, v}
	}
	return out
}

// pairs reads a mapping of names to values.
func pairs(errs *fileErrors, n *yaml.Node, what string) map[string]*yaml.Node {
	out := map[string]*yaml.Node{}
	if n.Kind != yaml.MappingNode {
		errs.add(n, "%s must be a mapping", what)
		return out
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if _, dup := out[k.Value]; dup {
			errs.add(k, "%s: key %q is given twice", what, k.Value)
			continue
		}
		out[k.Value] = v
	}
	return out
}

func scalar(errs *fileErrors, n *yaml.Node, what string) string {
	if n.Kind != yaml.ScalarNode {
		errs.add(n, "%s must be a single value", what)
		return ""
	}
	if n.Tag == "!!null" {
		return ""
	}
	return n.Value
}
