package component_test

import (
	"context"
	"strings"
	"testing"

	"github.com/weir-streams/weir/internal/component"
)

// lookup is a ServiceLookup over a map: ServiceFor's whole contract is a
// name lookup and a type assertion, which a map shows without a server.
type lookup map[string]component.Service

func (l lookup) Service(name string) (component.Service, bool) { s, ok := l[name]; return s, ok }

type plainService struct{}

func (plainService) Close(context.Context) error { return nil }

// greeter stands for a capability a processor asks of a service.
type greeter interface {
	component.Service
	Greet() string
}

type greetingService struct{ plainService }

func (greetingService) Greet() string { return "hello" }

func TestServiceFor(t *testing.T) {
	for _, c := range []struct {
		name     string
		services component.ServiceLookup
		want     string // error text; "" for the service
	}{
		{"no services", nil, `property "svc.service": no services available to find "greetings"`},
		{"not running", lookup{}, `property "svc.service": service "greetings" is not running`},
		{"wrong capability", lookup{"greetings": plainService{}}, `property "svc.service": service "greetings" (component_test.plainService) is not a greeter`},
		{"found", lookup{"greetings": greetingService{}}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			g, err := component.ServiceFor[greeter](component.Env{Services: c.services}, "svc.service", "greetings", "a greeter")
			if c.want == "" {
				if err != nil || g.Greet() != "hello" {
					t.Fatalf("ServiceFor = %v, %v; want the greeting service", g, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want %q", err, c.want)
			}
		})
	}
}
