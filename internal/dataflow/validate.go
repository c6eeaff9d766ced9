package dataflow

import (
	"fmt"

	"github.com/weir-streams/weir/internal/component"
)

// check validates d against the registry and builds its plan, reporting
// every problem at once: unknown or misplaced components, invalid or
// unknown properties, duplicate names, and service references that name no
// service or a service of the wrong capability. The plan is complete only
// when no problem was found.
func check(d *DataFlow, reg *component.Registry) (*Plan, component.Problems) {
	var probs component.Problems
	plan := &Plan{DataFlow: d}
	services := map[string]*component.Spec{}
	for i := range d.Services {
		c := &d.Services[i]
		path := pathOr(c, fmt.Sprintf("services[%s]", c.Name))
		if c.Name == "" {
			probs = append(probs, component.Problem{Path: path, Line: c.Line, Msg: "service has no name"})
		} else if _, dup := services[c.Name]; dup {
			probs = append(probs, component.Problem{Path: path, Line: c.Line, Msg: fmt.Sprintf("service name %q is used twice", c.Name)})
		}
		conf, p := validateComponent(c, component.KindService, reg, path, services)
		probs = append(probs, p...)
		services[c.Name] = conf.Spec
		plan.Services = append(plan.Services, conf)
	}
	streams := map[string]bool{}
	for i := range d.Streams {
		s := &d.Streams[i]
		path := pathOr(&s.Component, fmt.Sprintf("streams[%s]", s.Name))
		if s.Name == "" {
			probs = append(probs, component.Problem{Path: path, Line: s.Line, Msg: "stream has no name"})
		} else if streams[s.Name] {
			probs = append(probs, component.Problem{Path: path, Line: s.Line, Msg: fmt.Sprintf("stream name %q is used twice", s.Name)})
		}
		streams[s.Name] = true
		conf, p := validateComponent(&s.Component, component.KindStream, reg, path, services)
		probs = append(probs, p...)
		procs, p := checkPipeline(s, reg, services)
		probs = append(probs, p...)
		plan.Streams = append(plan.Streams, StreamPlan{Configured: conf,
			Pipeline: PipelinePlan{LastModified: s.Pipeline.LastModified, Processors: procs}})
	}
	return plan, probs
}

func checkPipeline(s *Stream, reg *component.Registry, services map[string]*component.Spec) ([]Configured, component.Problems) {
	var probs component.Problems
	var procs []Configured
	spath := pathOr(&s.Component, fmt.Sprintf("streams[%s]", s.Name))
	names := map[string]bool{}
	for i := range s.Pipeline.Processors {
		c := &s.Pipeline.Processors[i]
		path := pathOr(c, fmt.Sprintf("%s.pipeline.processors[%s]", spath, c.Name))
		if c.Name == "" {
			probs = append(probs, component.Problem{Path: path, Line: c.Line, Msg: "processor has no name"})
		} else if names[c.Name] {
			probs = append(probs, component.Problem{Path: path, Line: c.Line, Msg: fmt.Sprintf("processor name %q is used twice in this stream", c.Name)})
		}
		names[c.Name] = true
		conf, p := validateComponent(c, component.KindProcessor, reg, path, services)
		probs = append(probs, p...)
		procs = append(procs, conf)
	}
	return procs, probs
}

// validateComponent checks one component and returns it configured (with
// a nil Spec when the identifier is unknown).
func validateComponent(c *Component, kind component.Kind, reg *component.Registry, path string, services map[string]*component.Spec) (Configured, component.Problems) {
	spec, err := reg.LookupKind(c.Component, kind)
	if err != nil {
		return Configured{Component: c}, component.Problems{{Path: path + ".component", Line: c.Line, Msg: err.Error()}}
	}
	cpath := path + configSuffix(c)
	var probs component.Problems
	seen := map[string]bool{}
	for _, p := range c.Config {
		if seen[p.Key] {
			probs = append(probs, component.Problem{Path: cpath, Key: p.Key, Line: p.Line, Msg: fmt.Sprintf("property %q is given twice", p.Key)})
		}
		seen[p.Key] = true
	}
	conf, cp := component.NewConfig(spec, c.Values())
	probs = append(probs, c.AsWritten(cp.At(cpath, c.LineOf))...)
	// Service references are checked from the values as given, under
	// their declared names: the dataflow forwards them and reads no key of
	// a component's own.
	given := conf.Values()
	for _, prop := range spec.Properties {
		name, set := given[prop.Key]
		if prop.ServiceRef == "" || !set {
			continue
		}
		svc, ok := services[name]
		switch {
		case !ok:
			msg := fmt.Sprintf("property %q names service %q, which is not defined", prop.Key, name)
			if sug := component.Suggest(name, keys(services)); sug != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", sug)
			}
			probs = append(probs, component.Problem{Path: cpath, Key: prop.Key, Line: c.LineOf(prop.Key), Msg: msg})
		case svc != nil && svc.Provides != prop.ServiceRef:
			probs = append(probs, component.Problem{Path: cpath, Key: prop.Key, Line: c.LineOf(prop.Key),
				Msg: fmt.Sprintf("property %q names service %q, a %s, which does not provide %q", prop.Key, name, svc.Name, prop.ServiceRef)})
		}
	}
	return Configured{Component: c, Spec: spec, Config: conf}, probs
}

func pathOr(c *Component, restPath string) string {
	if c.Path != "" {
		return c.Path
	}
	return restPath
}

// configSuffix is the name of the configuration map in the component's
// source: "configuration" in job files, "config" in the REST form.
func configSuffix(c *Component) string {
	if c.Path != "" {
		return ".configuration"
	}
	return ".config"
}

func keys(m map[string]*component.Spec) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
