package engine

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/dataflow"
)

// serviceSet holds the running controller services of a dataflow by name.
type serviceSet struct {
	byName map[string]component.Service
	order  []string // build order; closed in reverse
}

// Service implements component.ServiceLookup.
func (s *serviceSet) Service(name string) (component.Service, bool) {
	svc, ok := s.byName[name]
	return svc, ok
}

// buildServices builds every validated service, in order, then starts the
// ones that implement component.Starter. On failure, every service built
// is closed and the error names the service.
func (e *Engine) buildServices(ctx context.Context, confs []dataflow.Configured) (*serviceSet, error) {
	set := &serviceSet{byName: map[string]component.Service{}}
	for _, c := range confs {
		name := c.Name()
		env := component.Env{Name: name, Logger: e.opts.Logger.With("service", name), Metrics: e.opts.Metrics, Services: set}
		svc, err := c.Spec.NewService(ctx, c.Config, env)
		if err != nil {
			set.close(ctx, e.log)
			return nil, fmt.Errorf("start service %q (%s): %w", name, c.Spec.Name, err)
		}
		set.byName[name] = svc
		set.order = append(set.order, name)
	}
	for _, name := range set.order {
		if s, ok := set.byName[name].(component.Starter); ok {
			if err := s.Start(ctx); err != nil {
				set.close(ctx, e.log)
				return nil, fmt.Errorf("start service %q: %w", name, err)
			}
		}
	}
	return set, nil
}

// close closes the services in reverse build order. A second call does
// nothing.
func (s *serviceSet) close(ctx context.Context, log *slog.Logger) {
	for i := len(s.order) - 1; i >= 0; i-- {
		name := s.order[i]
		if err := s.byName[name].Close(ctx); err != nil {
			log.Warn("closing service", "service", name, "error", err)
		}
	}
	s.byName, s.order = map[string]component.Service{}, nil
}
