package services_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/dataflow"
	"github.com/weir-streams/weir/internal/services"
)

// events records what the services of one test did, in order.
type events []string

func (ev *events) add(format string, args ...any) { *ev = append(*ev, fmt.Sprintf(format, args...)) }

// probe is a service that records its start and close, and fails to start
// when told to.
type probe struct {
	name string
	ev   *events
	fail bool
}

func (p *probe) Start(context.Context) error {
	p.ev.add("start %s", p.name)
	if p.fail {
		return errors.New("refused")
	}
	return nil
}

func (p *probe) Close(context.Context) error {
	p.ev.add("close %s", p.name)
	return nil
}

// probeConfig is the probe's typed configuration.
type probeConfig struct {
	After string `key:"after"`
	Fail  bool   `key:"fail"`
}

// probeSpec is a service that may name another probe (after), which it
// looks up while it is built, and may refuse to start.
func probeSpec(ev *events) *component.Spec {
	spec := component.ServiceSpec(component.Spec{
		Name: "test.Probe", Provides: "probe",
		Properties: []component.Property{
			{Key: "after", Description: "a probe this one uses", ServiceRef: "probe"},
			{Key: "fail", Description: "refuse to start", Default: "false", Validator: component.Bool},
		},
	}, func(_ context.Context, c *probeConfig, env component.Env) (component.Service, error) {
		if c.After != "" {
			if _, ok := env.Services.Service(c.After); !ok {
				return nil, fmt.Errorf("service %q is not built yet", c.After)
			}
		}
		ev.add("build %s", env.Name)
		return &probe{name: env.Name, ev: ev, fail: c.Fail}, nil
	})
	return &spec
}

// probes returns the events of a test and a function that configures a
// probe service that records them.
func probes(t *testing.T) (*events, func(name string, props map[string]string) dataflow.Configured) {
	ev := &events{}
	spec := probeSpec(ev)
	return ev, func(name string, props map[string]string) dataflow.Configured {
		t.Helper()
		conf, probs := component.NewConfig(spec, props)
		if len(probs) > 0 {
			t.Fatalf("%s: %v", name, probs)
		}
		return dataflow.Configured{Component: &dataflow.Component{Name: name, Component: spec.Name}, Spec: spec, Config: conf}
	}
}

// wantEvents fails the test unless the services did want, in order.
func wantEvents(t *testing.T, ev *events, want ...string) {
	t.Helper()
	if !slices.Equal(*ev, want) {
		t.Fatalf("events\n%q\nwant\n%q", *ev, want)
	}
}

func TestStartOrderDependenciesFirst(t *testing.T) {
	ctx := context.Background()
	ev, configured := probes(t)
	confs := []dataflow.Configured{
		configured("enricher", map[string]string{"after": "cache"}),
		configured("cache", nil),
		configured("other", nil),
	}
	set, err := services.Start(ctx, confs, services.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"cache", "enricher", "other"} {
		if _, ok := set.Service(name); !ok {
			t.Fatalf("service %q not found", name)
		}
	}
	set.Close(ctx)
	set.Close(ctx) // does nothing
	wantEvents(t, ev, "build cache", "build enricher", "build other", "start cache", "start enricher", "start other",
		"close other", "close enricher", "close cache")
	if _, ok := set.Service("cache"); ok {
		t.Fatal("a closed set still finds its services")
	}
}

func TestStartFailureClosesWhatWasBuilt(t *testing.T) {
	ctx := context.Background()
	ev, configured := probes(t)
	confs := []dataflow.Configured{
		configured("first", nil),
		configured("broken", map[string]string{"fail": "true"}),
		configured("last", nil),
	}
	_, err := services.Start(ctx, confs, services.Options{})
	if err == nil || err.Error() != `start service "broken": refused` {
		t.Fatalf("error %v", err)
	}
	wantEvents(t, ev, "build first", "build broken", "build last", "start first", "start broken",
		"close last", "close broken", "close first")
}

func TestSubstitute(t *testing.T) {
	ctx := context.Background()
	ev, configured := probes(t)
	confs := []dataflow.Configured{
		configured("real", nil),
		configured("canned", nil),
		configured("user", map[string]string{"after": "canned"}),
	}
	stand := &probe{name: "stand-in", ev: ev}
	sub := func(c dataflow.Configured, env component.Env) (component.Service, error) {
		if c.Name() == "canned" {
			return stand, nil
		}
		return nil, nil
	}
	set, err := services.Start(ctx, confs, services.Options{Substitute: sub})
	if err != nil {
		t.Fatal(err)
	}
	if svc, _ := set.Service("canned"); svc != stand {
		t.Fatalf("service canned is %v, want the stand-in", svc)
	}
	set.Close(ctx)
	wantEvents(t, ev, "build real", "build user", "start real", "start stand-in", "start user",
		"close user", "close stand-in", "close real")

	*ev = nil
	refuse := func(c dataflow.Configured, env component.Env) (component.Service, error) {
		if c.Name() == "user" {
			return nil, errors.New("no answers for user")
		}
		return nil, nil
	}
	if _, err := services.Start(ctx, confs, services.Options{Substitute: refuse}); err == nil || err.Error() != "no answers for user" {
		t.Fatalf("error %v", err)
	}
	wantEvents(t, ev, "build real", "build canned", "close canned", "close real")
}

func TestCircleRefused(t *testing.T) {
	ev, configured := probes(t)
	confs := []dataflow.Configured{
		configured("a", map[string]string{"after": "b"}),
		configured("b", map[string]string{"after": "a"}),
	}
	_, err := services.Start(context.Background(), confs, services.Options{})
	if err == nil || !strings.Contains(err.Error(), "name each other in a circle") {
		t.Fatalf("error %v", err)
	}
	if len(*ev) != 0 {
		t.Fatalf("services built despite the circle: %q", *ev)
	}
}
