// Package config loads a Weir job file: YAML in the spec's shape, with
// ${VAR} expansion, strict keys and line numbers, converted to a Job whose
// services and streams are a dataflow.DataFlow. Validation against the
// component registry reports every problem at once with its key path and
// line.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/dataflow"
	"github.com/weir-streams/weir/internal/engine/settings"
)

// Job is a loaded job file.
type Job struct {
	Version       string
	Documentation string
	// Engine is the engine component and its configuration.
	Engine dataflow.Component
	// DataFlow holds the services and streams. Its Name is the engine's
	// engine.app.name when that is set.
	DataFlow *dataflow.DataFlow
	// Ignored are the paths of LogIsland keys that Weir has no equivalent
	// for (Spark's executors, YARN...: internal/logisland), accepted and
	// dropped; whoever runs the job logs them once.
	Ignored []string
	// Renamed are the streams and processors that share a name with an
	// earlier one (LogIsland accepts that), each with the name it runs
	// under (dataflow.Disambiguate); whoever runs the job logs them once.
	Renamed []string
	// Warnings are LogIsland values taken in Weir's meaning that may not
	// do what the file meant (internal/logisland); whoever runs the job
	// logs each once, at warning level.
	Warnings []string
}

// DefaultMaxJobBytes is the largest job file weir reads: far above any
// real job (the sample is 2 KB), far below what would take minutes and
// gigabytes to parse. weir's --max-job-bytes raises it.
const DefaultMaxJobBytes = 10 << 20

// readJobFile reads a job file of at most maxBytes and its modification
// time, to the millisecond.
func readJobFile(path string, maxBytes int64) ([]byte, time.Time, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("read job file: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxBytes+1))
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("read job file: %w", err)
	}
	if int64(len(data)) > maxBytes {
		return nil, time.Time{}, fmt.Errorf("job file %s is larger than %d bytes; a job this large is almost certainly a mistake (raise the limit with --max-job-bytes)", path, maxBytes)
	}
	var modTime time.Time
	if st, err := f.Stat(); err == nil {
		modTime = st.ModTime().UTC().Truncate(time.Millisecond)
	}
	return data, modTime, nil
}

// Parse parses a job from YAML. lastModified becomes the dataflow's and
// every pipeline's lastModified. It returns every problem of shape at once;
// ParseChecked also validates the job against the registry in the same run.
func Parse(data []byte, lastModified time.Time, getenv func(string) (string, bool)) (*Job, error) {
	job, p, err := parse(data, lastModified, getenv)
	if err != nil {
		return nil, err
	}
	if len(p.probs) > 0 {
		p.probs.Sort()
		return nil, p.probs
	}
	return job, nil
}

// parse reads the YAML and walks it, going on after every problem. It
// returns the job as far as it could be read (nil when the file holds no
// job at all: empty, or not a mapping) with the parser, whose problems and
// suppressions say what is wrong and what is not known. err is set only when
// the YAML cannot be read at all.
func parse(data []byte, lastModified time.Time, getenv func(string) (string, bool)) (*Job, *parser, error) {
	if err := checkUTF8(data); err != nil {
		return nil, nil, fmt.Errorf("parse job file: %w", err)
	}
	p := &parser{getenv: getenv, sup: newSuppressions()}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var root yaml.Node
	if err := dec.Decode(&root); err != nil && !errors.Is(err, io.EOF) {
		// The YAML parser stops at a syntax error. The lines above it are
		// read and checked all the same, so that one run reports them too;
		// what only follows from the cut is left out (truncation.go).
		line, msg := yamlError(err)
		prefix, ok := linesBefore(data, line)
		if !ok || yaml.Unmarshal(prefix, &root) != nil {
			return nil, nil, fmt.Errorf("parse job file: %w", err)
		}
		p.cut = line
		p.probs = append(p.probs, component.Problem{Line: line, Msg: "YAML syntax error: " + msg + " (the lines from here on were not read; the lines above were checked)"})
		job := p.job(&root, lastModified)
		p.probs = p.truncated(p.probs)
		if job.DataFlow == nil {
			return nil, p, nil
		}
		return job, p, nil
	}
	// A job file is one document. What follows a "---" is not read as part
	// of the job, which is checked whole all the same: a second document, or
	// a syntax error inside it, is one more problem of the run.
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case errors.Is(err, io.EOF):
	case err != nil:
		line, msg := yamlError(err)
		p.probs = append(p.probs, component.Problem{Line: line, Msg: "YAML syntax error after the job's document: " + msg})
	default:
		p.problem(&next, "", "a second YAML document starts here; a job file holds one document, and this one is not read")
		if next.Line > 1 {
			// The document node's line is that of its first content; the
			// "---" above it is what the user wrote.
			p.probs[len(p.probs)-1].Line = next.Line - 1
		}
	}
	job := p.job(&root, lastModified)
	if job.DataFlow == nil {
		return nil, p, nil
	}
	return job, p, nil
}

// yamlError splits a yaml.v3 error ("yaml: line N: what") into its line
// (0 when it names none) and its text.
func yamlError(err error) (int, string) {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	var n int
	if _, scanErr := fmt.Sscanf(msg, "line %d:", &n); scanErr != nil {
		return 0, msg
	}
	_, rest, _ := strings.Cut(msg, ": ")
	return n, rest
}

// checkUTF8 refuses a file that is not UTF-8, naming the line and column
// (in characters, from 1) of the first bad byte: the YAML parser says only
// "invalid leading UTF-8 octet".
func checkUTF8(data []byte) error {
	line, col := 1, 1
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			return fmt.Errorf("line %d, column %d: byte 0x%02x is not valid UTF-8; job files must be UTF-8", line, col, data[i])
		}
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
		i += size
	}
	return nil
}

// unknownKey marks, in what fields returns, that the mapping had a key it
// refused. It cannot clash with a YAML key the walk reads: those are listed.
const unknownKey = "\x00unknown"

type parser struct {
	getenv func(string) (string, bool)
	probs  component.Problems
	// sup records what the walk could not know (a value whose variable is
	// unset, a component with no identifier...), so that validation, which
	// runs on the partial job in the same run, does not report it a second
	// time in other words.
	sup *suppressions
	// cut is the line of a syntax error the walk stopped at (0: none): the
	// job was read from the lines above it.
	cut int
	// last is the path of the component that starts last in the file: with
	// a cut, the one the cut may have shortened.
	last     string
	lastLine int
}

func (p *parser) problem(n *yaml.Node, path, format string, args ...any) {
	line := 0
	if n != nil {
		line = n.Line
	}
	p.probs = append(p.probs, component.Problem{Path: path, Line: line, Msg: fmt.Sprintf(format, args...)})
}

// fields walks a mapping node, refusing keys outside allowed. It returns
// key -> (key node, value node). A key that is refused is kept under
// unknownKey, so that callers know the mapping may lack a key the user meant
// to give (a misspelt "configuraton").
func (p *parser) fields(n *yaml.Node, path string, allowed ...string) map[string][2]*yaml.Node {
	out := map[string][2]*yaml.Node{}
	if n.Kind != yaml.MappingNode {
		p.problem(n, path, "must be a mapping, not %s", kindName(n))
		return out
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if !contains(allowed, k.Value) {
			msg := fmt.Sprintf("unknown key %q", k.Value)
			if sug := component.Suggest(k.Value, allowed); sug != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", sug)
			}
			p.problem(k, path, "%s", msg)
			out[unknownKey] = [2]*yaml.Node{k, v}
			continue
		}
		if _, dup := out[k.Value]; dup {
			p.problem(k, path, "key %q is given twice", k.Value)
			continue
		}
		out[k.Value] = [2]*yaml.Node{k, v}
	}
	return out
}

// scalar returns the expanded text of the value of a key. A value that is
// not a scalar is reported at the key's line: the line of a block mapping or
// list is that of its first entry, below the key the user has to fix.
func (p *parser) scalar(kv [2]*yaml.Node, path string) string {
	v, _ := p.value(kv, path)
	return v
}

// value is scalar that also says whether the value is known: false when it
// was reported (not a single value, an unset variable...).
func (p *parser) value(kv [2]*yaml.Node, path string) (string, bool) {
	n := kv[1]
	if n == nil {
		return "", true
	}
	if n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if n.Kind != yaml.ScalarNode {
		p.problem(kv[0], path, "must be a single value, not %s", kindName(n))
		return "", false
	}
	if n.Tag == "!!null" {
		return "", true
	}
	v, err := Expand(n.Value, p.getenv)
	if err != nil {
		p.problem(n, path, "%v", err)
		return "", false
	}
	return v, true
}

func (p *parser) job(root *yaml.Node, lastModified time.Time) *Job {
	job := &Job{}
	if root.Kind == 0 || len(root.Content) == 0 {
		p.problem(nil, "", "job file is empty")
		return job
	}
	doc := root.Content[0]
	if doc.Kind != yaml.MappingNode {
		// Walking on would only add a "missing key" for every key of the
		// job, which says nothing more.
		p.problem(doc, "", "the job file must be a mapping with the keys engine and streamConfigurations, not %s", kindName(doc))
		return job
	}
	job.DataFlow = &dataflow.DataFlow{LastModified: lastModified}
	top := p.fields(doc, "", "version", "documentation", "engine", "controllerServiceConfigurations", "streamConfigurations")
	if kv, ok := top["version"]; ok {
		job.Version = p.scalar(kv, "version")
	}
	if kv, ok := top["documentation"]; ok {
		job.Documentation = p.scalar(kv, "documentation")
	}
	// Without an engine the lists at the top level are still read and
	// checked: the missing engine is one problem among the others.
	kv, ok := top["engine"]
	eng := map[string][2]*yaml.Node{}
	job.Engine = dataflow.Component{Name: "engine", Path: "engine"}
	if !ok {
		p.problem(doc, "", "missing key \"engine\"")
		p.sup.paths["engine.component"] = true
		kv = [2]*yaml.Node{doc, doc}
	} else {
		eng = p.fields(kv[1], "engine", "component", "type", "documentation", "configuration", "controllerServiceConfigurations", "streamConfigurations")
		job.Engine.Line = kv[0].Line
		p.component(job, &job.Engine, eng, "engine", kv[1])
	}

	// The lists sit at the top level in the spec's table and inside the
	// engine in existing job files; accept either, not both.
	noStream, noStreamPath := kv[0], "streamConfigurations"
	for _, list := range []string{"controllerServiceConfigurations", "streamConfigurations"} {
		a, inTop := top[list]
		b, inEngine := eng[list]
		switch {
		case inTop && inEngine:
			p.problem(b[0], "engine."+list, "%s is given both at the top level (line %d) and inside engine; keep one", list, a[0].Line)
		case inTop:
			p.list(job, list, list, a[1])
		case inEngine:
			p.list(job, list, "engine."+list, b[1])
		}
		// A stream list that is there but empty is reported at its own
		// line; a missing one at the engine's.
		if list == "streamConfigurations" && inTop != inEngine {
			noStream, noStreamPath = a[0], list
			if inEngine {
				noStream, noStreamPath = b[0], "engine."+list
			}
		}
	}
	// A job that takes its dataflow from the REST API may hold only the
	// engine.
	_, remote := job.Engine.Value("remote.api.baseUrl")
	if len(job.DataFlow.Streams) == 0 && len(p.probs) == 0 && !remote {
		p.problem(noStream, noStreamPath, "the job has no stream")
	}
	for i := range job.DataFlow.Streams {
		job.DataFlow.Streams[i].Pipeline.LastModified = lastModified
	}
	p.structured(job)
	job.Renamed = dataflow.Disambiguate(job.DataFlow)
	if name, ok := job.Engine.Value(settings.KeyAppName); ok {
		job.DataFlow.Name = name
	}
	return job
}

func (p *parser) list(job *Job, kind, path string, n *yaml.Node) {
	if n.Tag == "!!null" {
		return
	}
	if n.Kind != yaml.SequenceNode {
		p.problem(n, path, "must be a list, not %s", kindName(n))
		return
	}
	nameKey := map[string]string{"controllerServiceConfigurations": "controllerService", "streamConfigurations": "stream"}[kind]
	for i, item := range n.Content {
		ipath := itemPath(path, item, nameKey, i)
		switch kind {
		case "controllerServiceConfigurations":
			f := p.fields(item, ipath, "controllerService", "component", "type", "documentation", "configuration")
			c := dataflow.Component{Line: item.Line}
			p.named(&c, f, "controllerService", path, ipath, item, i)
			p.component(job, &c, f, c.Path, item)
			job.DataFlow.Services = append(job.DataFlow.Services, c)
		case "streamConfigurations":
			f := p.fields(item, ipath, "stream", "component", "type", "documentation", "configuration", "processorConfigurations")
			s := dataflow.Stream{Component: dataflow.Component{Line: item.Line}}
			p.named(&s.Component, f, "stream", path, ipath, item, i)
			p.component(job, &s.Component, f, s.Path, item)
			if kv, ok := f["processorConfigurations"]; ok && kv[1].Tag != "!!null" {
				ppath := s.Path + ".processorConfigurations"
				if kv[1].Kind != yaml.SequenceNode {
					p.problem(kv[1], ppath, "must be a list, not %s", kindName(kv[1]))
				} else {
					for j, pn := range kv[1].Content {
						jpath := itemPath(ppath, pn, "processor", j)
						pf := p.fields(pn, jpath, "processor", "component", "type", "documentation", "configuration")
						c := dataflow.Component{Line: pn.Line}
						p.named(&c, pf, "processor", ppath, jpath, pn, j)
						p.component(job, &c, pf, c.Path, pn)
						s.Pipeline.Processors = append(s.Pipeline.Processors, c)
					}
				}
			}
			job.DataFlow.Streams = append(job.DataFlow.Streams, s)
		}
	}
}

// name returns the item's name; ok is false when the name is missing or
// could not be read (both reported).
func (p *parser) name(f map[string][2]*yaml.Node, key, path string, item *yaml.Node) (string, bool) {
	kv, ok := f[key]
	if !ok {
		p.problem(item, path, "missing key %q", key)
		return "", false
	}
	return p.value(kv, path+"."+key)
}

// named sets the component's name and path; a name that could not be read
// is not reported again by validation as "has no name".
func (p *parser) named(c *dataflow.Component, f map[string][2]*yaml.Node, key, list, ipath string, item *yaml.Node, i int) {
	name, ok := p.name(f, key, ipath, item)
	c.Name = name
	c.Path = fmt.Sprintf("%s[%s]", list, nameOr(name, i))
	if !ok {
		p.sup.unnamed[c.Path] = true
	}
}

// component fills the identifier, documentation and flat configuration map.
// "type" is accepted as a synonym of "component" because LogIsland's job
// files use it; giving both is an error, except when "type" is one of
// LogIsland's role words (parser, processor, ...), which LogIsland's own
// job files put beside "component" and which say nothing Weir needs.
// LogIsland's names of the engine, the stream and their keys become Weir's
// (logisland.go).
func (p *parser) component(job *Job, c *dataflow.Component, f map[string][2]*yaml.Node, path string, n *yaml.Node) {
	if n.Line >= p.lastLine {
		p.last, p.lastLine = path, n.Line
	}
	comp, hasC := f["component"]
	typ, hasT := f["type"]
	if hasC && hasT && logIslandRoles[typ[1].Value] {
		hasT = false
	}
	known := false
	switch {
	case hasC && hasT:
		p.problem(typ[0], path, "give either \"component\" or its synonym \"type\", not both")
	case hasC:
		c.Component, known = p.value(comp, path+".component")
	case hasT:
		c.Component, known = p.value(typ, path+".type")
	default:
		p.problem(n, path, "missing key \"component\"")
	}
	if !known {
		p.sup.paths[path+".component"] = true
	}
	if kv, ok := f["documentation"]; ok {
		c.Documentation = p.scalar(kv, path+".documentation")
	}
	cpath := path + ".configuration"
	// Whatever the configuration holds, even nothing, the identifier is
	// mapped too.
	defer p.logIsland(job, c, cpath)
	kv, ok := f["configuration"]
	if !ok {
		if _, refused := f[unknownKey]; refused {
			// A refused key may be the configuration, misspelt: what
			// validation would say of a configuration it cannot see (missing
			// required properties) is not known.
			p.sup.whole[cpath] = true
		}
		return
	}
	if kv[1].Tag == "!!null" {
		return
	}
	if kv[1].Kind != yaml.MappingNode {
		p.problem(kv[1], cpath, "must be a mapping of key to value, not %s", kindName(kv[1]))
		p.sup.whole[cpath] = true
		return
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(kv[1].Content); i += 2 {
		k, v := kv[1].Content[i], kv[1].Content[i+1]
		if seen[k.Value] {
			p.problem(k, cpath, "property %q is given twice", k.Value)
			continue
		}
		seen[k.Value] = true
		val, known := p.value([2]*yaml.Node{k, v}, cpath+"."+k.Value)
		if !known {
			p.sup.unknownValue(cpath, k.Value)
		}
		c.Config = append(c.Config, dataflow.Property{Key: k.Value, Value: val, Line: k.Line})
	}
}

// logIslandRoles are the values of "type" in LogIsland's job files, where
// it names the component's role rather than its class.
var logIslandRoles = map[string]bool{"parser": true, "processor": true, "stream": true, "service": true, "sink": true, "engine": true}

// itemPath is the path of a list item for the problems found while its keys
// are read, before its name is known: the item's plain name when it has one,
// so that these problems carry the same path as the validator's
// (streamConfigurations[parsing]), and its index otherwise.
func itemPath(path string, item *yaml.Node, nameKey string, i int) string {
	if item.Kind == yaml.MappingNode {
		for j := 0; j+1 < len(item.Content); j += 2 {
			k, v := item.Content[j], item.Content[j+1]
			if k.Value == nameKey && v.Kind == yaml.ScalarNode && v.Tag != "!!null" && v.Value != "" && !strings.Contains(v.Value, "${") {
				return fmt.Sprintf("%s[%s]", path, v.Value)
			}
		}
	}
	return fmt.Sprintf("%s[%d]", path, i)
}

func nameOr(name string, i int) string {
	if name != "" {
		return name
	}
	return strconv.Itoa(i)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		return fmt.Sprintf("the value %q", n.Value)
	case yaml.AliasNode:
		return "an alias"
	}
	return "nothing"
}

// Checked is a job that passed validation, ready to run: the engine's typed
// settings and the dataflow's plan (each component's spec and defaulted
// configuration). It is the one validation of a job; nothing after it
// validates again.
type Checked struct {
	Job    *Job
	Engine settings.Engine
	Plan   *dataflow.Plan
}

// Check validates the job against the registry, the engine component and
// its keys, then the dataflow, and returns every problem found, or the job
// ready to run.
func Check(job *Job, reg *component.Registry) (*Checked, error) {
	var probs component.Problems
	var eng settings.Engine
	spec, err := reg.LookupKind(job.Engine.Component, component.KindEngine)
	if err != nil {
		probs = append(probs, component.Problem{Path: "engine.component", Line: job.Engine.Line, Msg: err.Error()})
	} else {
		conf, cp := component.NewConfig(spec, job.Engine.Values())
		probs = append(probs, job.Engine.AsWritten(cp.At("engine.configuration", job.Engine.LineOf))...)
		if len(cp) == 0 {
			if eng, err = settings.Decode(conf); err != nil {
				var ep component.Problems
				if errors.As(err, &ep) {
					probs = append(probs, job.Engine.AsWritten(ep.At("engine.configuration", job.Engine.LineOf))...)
				} else {
					probs = append(probs, component.Problem{Path: "engine.configuration", Line: job.Engine.Line, Msg: err.Error()})
				}
			}
		}
	}
	plan, dp := dataflow.Check(job.DataFlow, reg)
	probs = append(probs, dp...)
	if len(probs) > 0 {
		probs.Sort()
		return nil, probs
	}
	return &Checked{Job: job, Engine: eng, Plan: plan}, nil
}

// ParseChecked parses and validates a job in one run: the problems of shape
// (unknown keys, unset variables, a second YAML document) and those of
// validation against the registry (unknown components, values of the wrong
// type, missing properties) are all returned at once, sorted by line. A
// problem that only follows from another (a property whose variable is
// unset is not also "not an integer") is reported once. The error is not
// Problems only when the YAML cannot be read at all.
func ParseChecked(data []byte, lastModified time.Time, getenv func(string) (string, bool), reg *component.Registry) (*Checked, error) {
	job, p, err := parse(data, lastModified, getenv)
	if err != nil {
		return nil, err
	}
	probs := p.probs
	var checked *Checked
	if job != nil {
		c, cerr := Check(job, reg)
		checked = c
		probs = append(probs, p.truncated(p.sup.filter(AsProblems(cerr)))...)
	}
	if len(probs) > 0 {
		probs.Sort()
		return nil, probs
	}
	return checked, nil
}

// LoadChecked reads a job file of at most maxBytes (a larger file is
// refused before it is parsed) and validates it with ParseChecked: every
// problem of the file in one run.
func LoadChecked(path string, maxBytes int64, reg *component.Registry) (*Checked, error) {
	data, modTime, err := readJobFile(path, maxBytes)
	if err != nil {
		return nil, err
	}
	return ParseChecked(data, modTime, os.LookupEnv, reg)
}

// AsProblems extracts the problems of an error from LoadChecked,
// ParseChecked, Parse or Check, or nil if it holds none.
func AsProblems(err error) component.Problems {
	var ps component.Problems
	if errors.As(err, &ps) {
		return ps
	}
	return nil
}

// StartTime is the lastModified given to a job that is not read from a file
// (an embedded sample): the time of start, to the millisecond.
func StartTime() time.Time { return time.Now().UTC().Truncate(time.Millisecond) }
