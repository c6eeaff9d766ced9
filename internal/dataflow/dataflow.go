// Package dataflow is the model of what a Weir job runs: the REST API's
// DataFlow, Stream, Pipeline, Component and Property structures. A YAML job
// file converts to it, and the REST poller decodes into it, so both sources
// of configuration meet in one type and go through one validation and one
// engine.Apply.
package dataflow

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/weir-streams/weir/internal/component"
)

// Property is one configuration key of a component. Type is carried for
// the REST contract; values are always strings and the component's property
// declarations give them meaning.
type Property struct {
	Key   string `json:"key"`
	Type  string `json:"type,omitempty"`
	Value string `json:"value"`

	// Line is the line of the key in the job file, 0 when the property did
	// not come from a file.
	Line int `json:"-"`
	// Written is the key as the source wrote it when that was another name
	// of Key (LogIsland's, internal/logisland), so that problems name the
	// key the user wrote; empty otherwise. It is never shown as the key.
	Written string `json:"-"`
}

// Component is a service, stream or processor.
type Component struct {
	Name          string     `json:"name"`
	Component     string     `json:"component"`
	Documentation string     `json:"documentation,omitempty"`
	Config        []Property `json:"config,omitempty"`

	// Path locates the component in its source for error messages, e.g.
	// "streamConfigurations[parsing]"; empty means the REST form is used.
	Path string `json:"-"`
	// Line is the component's line in the job file, 0 if none.
	Line int `json:"-"`
}

// Pipeline is the processor chain of a stream, versioned on its own so it
// can change without stopping the stream.
type Pipeline struct {
	LastModified       time.Time   `json:"lastModified"`
	ModificationReason string      `json:"modificationReason,omitempty"`
	Processors         []Component `json:"processors,omitempty"`
}

// Stream is a stream component with its pipeline.
type Stream struct {
	Component
	Pipeline Pipeline `json:"pipeline"`
}

// DataFlow is the set of services and streams of a job.
type DataFlow struct {
	// Name is the dataflow name, the engine's app name. It is the path
	// parameter of the REST API, not part of its body.
	Name               string      `json:"-"`
	LastModified       time.Time   `json:"lastModified"`
	ModificationReason string      `json:"modificationReason,omitempty"`
	Services           []Component `json:"services,omitempty"`
	Streams            []Stream    `json:"streams,omitempty"`
}

// Values returns the properties as a map. A key given twice keeps its last
// value; Validate reports the duplicate.
func (c *Component) Values() map[string]string {
	m := make(map[string]string, len(c.Config))
	for _, p := range c.Config {
		m[p.Key] = p.Value
	}
	return m
}

// Value returns the value of one key.
func (c *Component) Value(key string) (string, bool) {
	for i := len(c.Config) - 1; i >= 0; i-- {
		if c.Config[i].Key == key {
			return c.Config[i].Value, true
		}
	}
	return "", false
}

// LineOf returns the job-file line of a key, or of the component itself
// when the key has none.
func (c *Component) LineOf(key string) int {
	for _, p := range c.Config {
		if p.Key == key && p.Line > 0 {
			return p.Line
		}
	}
	return c.Line
}

// AsWritten returns problems found with c's configuration, each one about
// a key the source wrote under another name (Property.Written) saying that
// name too: `property "spark.master" (Weir's "engine.master"): ...`. The
// others are returned as they are.
func (c *Component) AsWritten(ps component.Problems) component.Problems {
	for i, p := range ps {
		if p.Key == "" {
			continue
		}
		for _, prop := range c.Config {
			if prop.Key == p.Key && prop.Written != "" {
				q := strconv.Quote(p.Key)
				if strings.Contains(p.Msg, q) {
					ps[i].Msg = strings.Replace(p.Msg, q, fmt.Sprintf("%q (Weir's %s)", prop.Written, q), 1)
				} else {
					ps[i].Msg = fmt.Sprintf("%s (given as %q)", p.Msg, prop.Written)
				}
				break
			}
		}
	}
	return ps
}

// Stream returns the stream of that name.
func (d *DataFlow) Stream(name string) (*Stream, bool) {
	for i := range d.Streams {
		if d.Streams[i].Name == name {
			return &d.Streams[i], true
		}
	}
	return nil, false
}

// Clone returns a deep copy, so a running engine never shares its model with
// a caller that might change it.
func (d *DataFlow) Clone() *DataFlow {
	c := *d
	c.Services = cloneComponents(d.Services)
	c.Streams = make([]Stream, len(d.Streams))
	for i, s := range d.Streams {
		s.Config = append([]Property(nil), s.Config...)
		s.Pipeline.Processors = cloneComponents(s.Pipeline.Processors)
		c.Streams[i] = s
	}
	return &c
}

func cloneComponents(cs []Component) []Component {
	if cs == nil {
		return nil
	}
	out := make([]Component, len(cs))
	for i, c := range cs {
		c.Config = append([]Property(nil), c.Config...)
		out[i] = c
	}
	return out
}

// Disambiguate gives a name of its own to each stream whose name an
// earlier stream of d has, and to each processor whose name an earlier
// processor of its stream has: LogIsland accepts such job files, and its
// own (logisland-resources/src/main/resources/conf) have them, while
// Weir's metrics, status page and REST API tell components apart by name.
// The later one is named after its position, stream or processor number N
// (from 1) as name#N, so that the name still says what the file called it
// and where it sits. It returns one line per component renamed, for the
// log; the components' Path keeps the name as written, so problems still
// point at the file's text.
func Disambiguate(d *DataFlow) []string {
	var renamed []string
	unique := func(taken map[string]bool, name string, pos int) string {
		n := fmt.Sprintf("%s#%d", name, pos)
		for i := 2; taken[n]; i++ {
			n = fmt.Sprintf("%s#%d.%d", name, pos, i)
		}
		return n
	}
	streams := map[string]bool{}
	for i := range d.Streams {
		s := &d.Streams[i]
		if s.Name != "" && streams[s.Name] {
			n := unique(streams, s.Name, i+1)
			renamed = append(renamed, fmt.Sprintf("%s (line %d) runs as stream %q", s.Path, s.Line, n))
			s.Name = n
		}
		streams[s.Name] = true
		procs := map[string]bool{}
		for j := range s.Pipeline.Processors {
			c := &s.Pipeline.Processors[j]
			if c.Name != "" && procs[c.Name] {
				n := unique(procs, c.Name, j+1)
				renamed = append(renamed, fmt.Sprintf("%s (line %d) runs as processor %q", c.Path, c.Line, n))
				c.Name = n
			}
			procs[c.Name] = true
		}
	}
	return renamed
}
