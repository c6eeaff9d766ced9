package sdk

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/weir-streams/weir/internal/component"
)

// Config is a processor's validated configuration, with typed accessors
// (String, Int, Bool, Millis, List, IsSet, Dynamic). Defaults are applied.
// A plugin reads its keys by name: Weir checks them against the declared
// properties and their validators before the plugin sees them, and forwards
// them to the plugin's process as they were given.
type Config struct {
	spec    *component.Spec
	values  map[string]string // declared keys given, under their declared names
	dynamic map[string]string // keys not declared, for DynamicProperties
}

// configOf makes the plugin's view of a configuration validated against
// its spec.
func configOf(conf component.Config) Config {
	c := Config{spec: conf.Spec(), values: map[string]string{}, dynamic: map[string]string{}}
	for k, v := range conf.Given() {
		if _, declared := c.spec.Property(k); declared {
			c.values[k] = v
		} else {
			c.dynamic[k] = v
		}
	}
	return c
}

// IsSet reports whether the key was given explicitly.
func (c Config) IsSet(key string) bool {
	_, ok := c.values[key]
	return ok
}

// String returns the value of key, or its default ("" for a key the
// processor does not declare).
func (c Config) String(key string) string {
	if v, ok := c.values[key]; ok {
		return v
	}
	if c.spec != nil {
		if p, ok := c.spec.Property(key); ok {
			return p.Default
		}
	}
	return ""
}

// Int returns the value of key as an integer.
func (c Config) Int(key string) (int64, error) {
	s := strings.TrimSpace(c.String(key))
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("property %q: %q is not an integer", key, s)
	}
	return n, nil
}

// Bool returns the value of key as a boolean: true or false, in any case.
func (c Config) Bool(key string) (bool, error) {
	s := c.String(key)
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, fmt.Errorf("property %q: %q is not true or false", key, s)
}

// Millis returns the value of key, an integer number of milliseconds, as a
// duration.
func (c Config) Millis(key string) (time.Duration, error) {
	n, err := c.Int(key)
	if err != nil {
		return 0, err
	}
	return time.Duration(n) * time.Millisecond, nil
}

// List returns the value of key as a comma-separated list, each item
// trimmed, empty items dropped.
func (c Config) List(key string) []string { return component.SplitList(c.String(key)) }

// Dynamic returns the keys the processor does not declare, for a processor
// with DynamicProperties.
func (c Config) Dynamic() map[string]string { return c.dynamic }

// Values returns every declared key that was given, under its declared
// name.
func (c Config) Values() map[string]string {
	out := make(map[string]string, len(c.values))
	for k, v := range c.values {
		out[k] = v
	}
	return out
}
