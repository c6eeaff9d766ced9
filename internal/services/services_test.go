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

// probeSpec is a service that may name another probe (after), which it
// looks up while it is built, and may refuse to start.
func probeSpec(ev *events) *component.Spec {
	return &component.Spec{
		Name: "test.Probe", Kind: component.KindService, Provides: "probe",
		Properties: []component.Property{
			{Key: "after", Description: "a probe this one uses", ServiceRef: "probe"},
			{Key: "fail", Description: "refuse to start", Default: "false", Validator: component.Bool},
		},
		NewService: func(_ context.Context, conf component.Config, env component.Env) (component.Service, error) {
			if conf.IsSet("after") {
				if _, ok := env.Services.Service(conf.String("after")); !ok {
					return nil, fmt.Errorf("service %q is not built yet", conf.String("after"))
				}
			}
			fail, err := conf.Bool("fail")
			if err != nil {
				return nil, err
			}
			ev.add("build %s", env.Name)
			return &probe{name: env.Name, ev: ev, fail: fail}, nil
		},
	}
}

func configured(t *testing.T, spec *component.Spec, name string, props map[string]string) dataflow.Configured {
	t.Helper()
	conf, probs := component.NewConfig(spec, props)
	if len(probs) > 0 {
		t.Fatalf("%s: %v", name, probs)
	}
	return dataflow.Configured{Component: &dataflow.Component{Name: name, Component: spec.Name}, Spec: spec, Config: conf}
}

func TestStartOrderDependenciesFirst(t *testing.T) {
	ctx := context.Background()
	var ev events
	spec := probeSpec(&ev)
	confs := []dataflow.Configured{
		configured(t, spec, "enricher", map[string]string{"after": "cache"}),
		configured(t, spec, "cache", nil),
		configured(t, spec, "other", nil),
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
	want := []string{"build cache", "build enricher", "build other", "start cache", "start enricher", "start other",
		"close other", "close enricher", "close cache"}
	if !slices.Equal(ev, want) {
		t.Fatalf("events\n%q\nwant\n%q", ev, want)
	}
	if _, ok := set.Service("cache"); ok {
		t.Fatal("a closed set still finds its services")
	}
}

func TestStartFailureClosesWhatWasBuilt(t *testing.T) {
	ctx := context.Background()
	var ev events
	spec := probeSpec(&ev)
	confs := []dataflow.Configured{
		configured(t, spec, "first", nil),
		configured(t, spec, "broken", map[string]string{"fail": "true"}),
		configured(t, spec, "last", nil),
	}
	_, err := services.Start(ctx, confs, services.Options{})
	if err == nil || err.Error() != `start service "broken": refused` {
		t.Fatalf("error %v", err)
	}
	want := []string{"build first", "build broken", "build last", "start first", "start broken",
		"close last", "close broken", "close first"}
	if !slices.Equal(ev, want) {
		t.Fatalf("events\n%q\nwant\n%q", ev, want)
	}
}

func TestSubstitute(t *testing.T) {
	ctx := context.Background()
	var ev events
	spec := probeSpec(&ev)
	confs := []dataflow.Configured{
		configured(t, spec, "real", nil),
		configured(t, spec, "canned", nil),
		configured(t, spec, "user", map[string]string{"after": "canned"}),
	}
	stand := &probe{name: "stand-in", ev: &ev}
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
	want := []string{"build real", "build user", "start real", "start stand-in", "start user",
		"close user", "close stand-in", "close real"}
	if !slices.Equal(ev, want) {
		t.Fatalf("events\n%q\nwant\n%q", ev, want)
	}

	ev = nil
	refuse := func(c dataflow.Configured, env component.Env) (component.Service, error) {
		if c.Name() == "user" {
			return nil, errors.New("no answers for user")
		}
		return nil, nil
	}
	if _, err := services.Start(ctx, confs, services.Options{Substitute: refuse}); err == nil || err.Error() != "no answers for user" {
		t.Fatalf("error %v", err)
	}
	if want := []string{"build real", "build canned", "close canned", "close real"}; !slices.Equal(ev, want) {
		t.Fatalf("events\n%q\nwant\n%q", ev, want)
	}
}

func TestCircleRefused(t *testing.T) {
	var ev events
	spec := probeSpec(&ev)
	confs := []dataflow.Configured{
		configured(t, spec, "a", map[string]string{"after": "b"}),
		configured(t, spec, "b", map[string]string{"after": "a"}),
	}
	_, err := services.Start(context.Background(), confs, services.Options{})
	if err == nil || !strings.Contains(err.Error(), "name each other in a circle") {
		t.Fatalf("error %v", err)
	}
	if len(ev) != 0 {
		t.Fatalf("services built despite the circle: %q", ev)
	}
}
