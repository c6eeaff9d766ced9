package component

import "fmt"

// ServiceFor returns the running service name, which the processor's
// property key names, as the capability T the processor needs; what names T
// in the error
// ("a datastore", "a key/value cache"). Validation has checked names given in
// ServiceRef properties, so an error here means the service stopped or a
// registry is inconsistent; the error names the property, the service and
// what it is instead.
func ServiceFor[T any](env Env, key, name, what string) (T, error) {
	var zero T
	if env.Services == nil {
		return zero, fmt.Errorf("property %q: no services available to find %q", key, name)
	}
	svc, ok := env.Services.Service(name)
	if !ok {
		return zero, fmt.Errorf("property %q: service %q is not running", key, name)
	}
	s, ok := svc.(T)
	if !ok {
		return zero, fmt.Errorf("property %q: service %q (%T) is not %s", key, name, svc, what)
	}
	return s, nil
}
