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
	order  []string // start order; closed in reverse
}

// Service implements component.ServiceLookup.
func (s *serviceSet) Service(name string) (component.Service, bool) {
	svc, ok := s.byName[name]
	return svc, ok
}

// buildServices starts every service of df, in order. On failure, the ones
// started are closed and the error names the service.
func (e *Engine) buildServices(ctx context.Context, df *dataflow.DataFlow) (*serviceSet, error) {
	set := &serviceSet{byName: map[string]component.Service{}}
	for _, c := range df.Services {
		spec, conf, err := e.opts.Registry.Configure(c.Component, component.KindService, c.Values())
		if err != nil {
			set.close(ctx, e.log)
			return nil, fmt.Errorf("service %q: %w", c.Name, err)
		}
		env := component.Env{Name: c.Name, Logger: e.opts.Logger.With("service", c.Name), Metrics: e.opts.Metrics, Services: set}
		svc, err := spec.NewService(ctx, conf, env)
		if err != nil {
			set.close(ctx, e.log)
			return nil, fmt.Errorf("start service %q (%s): %w", c.Name, c.Component, err)
		}
		set.byName[c.Name] = svc
		set.order = append(set.order, c.Name)
	}
	return set, nil
}

// close closes the services in reverse start order.
func (s *serviceSet) close(ctx context.Context, log *slog.Logger) {
	for i := len(s.order) - 1; i >= 0; i-- {
		name := s.order[i]
		if err := s.byName[name].Close(ctx); err != nil {
			log.Warn("closing service", "service", name, "error", err)
		}
	}
	s.byName, s.order = map[string]component.Service{}, nil
}
