package engine

import (
	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/dataflow"
)

// currentModel copies the running model with sensitive values redacted.
func (e *Engine) currentModel() *dataflow.DataFlow {
	df := e.cur.plan.DataFlow.Clone()
	redact := func(c *dataflow.Component) {
		spec, ok := e.opts.Registry.Lookup(c.Component)
		if !ok {
			return
		}
		for i, p := range c.Config {
			if d, ok := spec.Property(p.Key); ok && d.Sensitive {
				c.Config[i].Value = component.Redacted
			}
		}
	}
	for i := range df.Services {
		redact(&df.Services[i])
	}
	for i := range df.Streams {
		redact(&df.Streams[i].Component)
		for j := range df.Streams[i].Pipeline.Processors {
			redact(&df.Streams[i].Pipeline.Processors[j])
		}
	}
	return df
}
