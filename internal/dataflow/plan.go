package dataflow

import (
	"time"

	"github.com/weir-streams/weir/internal/component"
)

// Plan is a dataflow that passed validation: for each component, its spec
// and its configuration with aliases resolved and defaults applied, in the
// dataflow's order. It is what Check returns and what the engine builds
// from; builders never validate again.
type Plan struct {
	DataFlow *DataFlow
	Services []Configured
	Streams  []StreamPlan
}

// Configured is one validated component.
type Configured struct {
	// Component is the component in the dataflow model (name, identifier,
	// raw properties).
	Component *Component
	Spec      *component.Spec
	// Config is the typed, defaulted configuration the component is built
	// with.
	Config component.Config
}

// Name returns the component's name in the dataflow.
func (c Configured) Name() string { return c.Component.Name }

// StreamPlan is one validated stream: its own configuration and its
// pipeline's.
type StreamPlan struct {
	Configured
	Pipeline PipelinePlan
}

// PipelinePlan is a validated processor chain, ready to build.
type PipelinePlan struct {
	LastModified time.Time
	Processors   []Configured
}

// Check validates d against the registry, reporting every problem at once,
// and returns the plan to build when there is none. The plan refers to d's
// components; d must not change while the plan is used.
func Check(d *DataFlow, reg *component.Registry) (*Plan, component.Problems) {
	plan, probs := check(d, reg)
	if len(probs) > 0 {
		return nil, probs
	}
	return plan, nil
}

// CheckPipeline validates the processor chain of one stream against the
// registry and the services available to it (by name), and returns the
// chain to build when it has no problem.
func CheckPipeline(s *Stream, reg *component.Registry, services map[string]*component.Spec) (PipelinePlan, component.Problems) {
	procs, probs := checkPipeline(s, reg, services)
	if len(probs) > 0 {
		return PipelinePlan{}, probs
	}
	return PipelinePlan{LastModified: s.Pipeline.LastModified, Processors: procs}, nil
}
