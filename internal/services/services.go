// Package services builds, starts and closes the controller services of a
// dataflow. It is the one service set behind the engine, which runs the
// real services, and behind `weir test` and `weir run --dry-run`, which
// put stand-ins in place of those that reach the network (Options.Substitute).
//
// A service is built after the services it names in its ServiceRef
// properties, so that it may look them up while it is built or started;
// services that name none keep the dataflow's order. Every service is
// built first, then each is started in the same order, and Close closes
// them in the reverse order.
package services

import (
	"context"
	"fmt"
	"log/slog"
	"sync"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/dataflow"
)

// Options configure Start.
type Options struct {
	// Logger receives the services' logs (each with its "service" name)
	// and the errors of closing them; nil discards them.
	Logger *slog.Logger
	// Metrics is the registry the services report to.
	Metrics component.Metrics
	// Substitute, when not nil, is asked about each service before it is
	// built. A service it returns stands in for the configured one and is
	// started and closed like it; nil lets the configured service be built;
	// an error refuses the whole set.
	Substitute func(c dataflow.Configured, env component.Env) (component.Service, error)
}

// Set holds the running services of a dataflow by name. It implements
// component.ServiceLookup, and is safe for concurrent lookups.
type Set struct {
	log    *slog.Logger
	mu     sync.Mutex
	byName map[string]component.Service
	order  []string // build and start order; closed in reverse
}

// Start builds every service of confs, dependencies first, then starts the
// ones that implement component.Starter in the same order. On failure every
// service built is closed and the error names the service that failed.
func Start(ctx context.Context, confs []dataflow.Configured, opts Options) (*Set, error) {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	set := &Set{log: log, byName: map[string]component.Service{}}
	ordered, err := Order(confs)
	if err != nil {
		return nil, err
	}
	for _, c := range ordered {
		name := c.Name()
		env := component.Env{Name: name, Logger: log.With("service", name), Metrics: opts.Metrics, Services: set}
		var svc component.Service
		if opts.Substitute != nil {
			if svc, err = opts.Substitute(c, env); err != nil {
				set.Close(ctx)
				return nil, err
			}
		}
		if svc == nil {
			if svc, err = c.Spec.NewService(ctx, c.Config, env); err != nil {
				set.Close(ctx)
				return nil, fmt.Errorf("start service %q (%s): %w", name, c.Spec.Name, err)
			}
		}
		set.add(name, svc)
	}
	for _, name := range set.order {
		if s, ok := set.byName[name].(component.Starter); ok {
			if err := s.Start(ctx); err != nil {
				set.Close(ctx)
				return nil, fmt.Errorf("start service %q: %w", name, err)
			}
		}
	}
	return set, nil
}

// Order returns confs with every service after the services it names
// (dataflow.Configured.ServiceRefs); services that do not depend on each
// other keep their order. A name that is not among confs is left to
// validation, which refuses it; services that name each other in a circle
// are an error.
func Order(confs []dataflow.Configured) ([]dataflow.Configured, error) {
	index := make(map[string]int, len(confs))
	for i, c := range confs {
		index[c.Name()] = i
	}
	out := make([]dataflow.Configured, 0, len(confs))
	const (
		unvisited = iota
		visiting
		placed
	)
	state := make([]int, len(confs))
	var visit func(i int, path []string) error
	visit = func(i int, path []string) error {
		switch state[i] {
		case placed:
			return nil
		case visiting:
			return fmt.Errorf("services %v name each other in a circle", append(path, confs[i].Name()))
		}
		state[i] = visiting
		for _, dep := range confs[i].ServiceRefs() {
			if j, ok := index[dep]; ok {
				if err := visit(j, append(path, confs[i].Name())); err != nil {
					return err
				}
			}
		}
		state[i] = placed
		out = append(out, confs[i])
		return nil
	}
	for i := range confs {
		if err := visit(i, nil); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (s *Set) add(name string, svc component.Service) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.byName[name] = svc
	s.order = append(s.order, name)
}

// Service implements component.ServiceLookup.
func (s *Set) Service(name string) (component.Service, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	svc, ok := s.byName[name]
	return svc, ok
}

// Close closes the services in the reverse of their start order. A service
// that does not close cleanly is logged and the others are still closed. A
// second call does nothing.
func (s *Set) Close(ctx context.Context) {
	s.mu.Lock()
	byName, order := s.byName, s.order
	s.byName, s.order = map[string]component.Service{}, nil
	s.mu.Unlock()
	for i := len(order) - 1; i >= 0; i-- {
		if err := byName[order[i]].Close(ctx); err != nil {
			s.log.Warn("closing service", "service", order[i], "error", err)
		}
	}
}
