package component

import (
	"fmt"
	"sort"
	"strings"
)

// Config is a component's configuration after validation: declared keys with
// their defaults applied, aliases resolved, dynamic keys kept apart, and the
// typed configuration they were decoded into. A built-in component reads
// only its typed configuration (Typed); no key is read by name after
// validation. Values and Given expose the keys as given, for what works on
// keys as such: service references, redacted views, an installed plugin.
type Config struct {
	spec    *Spec
	values  map[string]string
	dynamic map[string]string
	// typed is the *C of the spec's ConfigType, decoded once by NewConfig.
	typed any
}

// NewConfig validates raw key/values against the spec and returns the
// typed configuration, or every problem found. Problems carry only the key;
// callers prefix the path of the component.
func NewConfig(spec *Spec, raw map[string]string) (Config, Problems) {
	c := Config{spec: spec, values: map[string]string{}, dynamic: map[string]string{}}
	var probs Problems
	seen := map[string]string{}
	keys := make([]string, 0, len(raw))
	for k := range raw {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := raw[k]
		p, ok := spec.Property(k)
		if !ok {
			if spec.DynamicProperties {
				if near := nearKey(k, spec.keys()); near != "" {
					probs = append(probs, Problem{Key: k, Msg: fmt.Sprintf("%q is taken as a free-form key but is close to the declared key %q (did you mean %q?)", k, near, near)})
					continue
				}
				c.dynamic[k] = v
				continue
			}
			msg := fmt.Sprintf("unknown property %q", k)
			if sug := Suggest(k, spec.keys()); sug != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", sug)
			}
			probs = append(probs, Problem{Key: k, Msg: msg})
			continue
		}
		if other, dup := seen[p.Key]; dup {
			probs = append(probs, Problem{Key: k, Msg: fmt.Sprintf("property %q is also given as %q", k, other)})
			continue
		}
		seen[p.Key] = k
		if p.Validator != nil {
			if err := p.Validator.Validate(v); err != nil {
				msg := err.Error()
				if p.Sensitive && v != "" {
					// A validator may quote the value; a secret is never shown.
					msg = strings.ReplaceAll(msg, v, Redacted)
				}
				probs = append(probs, Problem{Key: k, Msg: fmt.Sprintf("property %q: %s", k, msg)})
				continue
			}
		}
		c.values[p.Key] = v
	}
	for _, p := range spec.Properties {
		if _, ok := c.values[p.Key]; ok {
			continue
		}
		if _, given := seen[p.Key]; given {
			continue // given but invalid: already reported
		}
		if p.Required {
			probs = append(probs, Problem{Key: p.Key, Msg: fmt.Sprintf("missing required property %q", p.Key)})
		}
	}
	if len(probs) > 0 {
		return c, probs
	}
	// What single keys cannot show is checked once every key is valid:
	// the typed configuration's Validate, or a plugin's own check.
	if spec.Config != nil {
		c.typed, probs = spec.Config.decode(c)
	}
	if len(probs) == 0 && spec.Check != nil {
		if err := spec.Check(c); err != nil {
			probs = problemsOf(err)
		}
	}
	return c, probs
}

// value returns the value of key, or its default.
func (c Config) value(key string) string {
	if v, ok := c.values[key]; ok {
		return v
	}
	if p, ok := c.spec.Property(key); ok {
		return p.Default
	}
	return ""
}

// nearKey returns the declared key that k, a key the spec does not declare,
// most likely misspells, or "". A component with free-form keys takes any
// undeclared key as a field name or condition, so a typo in an optional key
// would otherwise pass validation and silently change the results. The bar
// is tighter than Suggest's, so that free-form names merely resembling a
// key are kept: two edits for a declared key of ten bytes or more, one for
// six to nine, and only a difference of case for shorter ones (a condition
// named login stays apart from logic).
func nearKey(k string, declared []string) string {
	lk := strings.ToLower(k)
	best, bestD := "", -1
	for _, d := range declared {
		limit := 0
		switch {
		case len(d) >= 10:
			limit = 2
		case len(d) >= 6:
			limit = 1
		}
		dist := EditDistance(lk, strings.ToLower(d))
		if dist > limit {
			continue
		}
		if bestD < 0 || dist < bestD {
			best, bestD = d, dist
		}
	}
	return best
}

func (s *Spec) keys() []string {
	var out []string
	for _, p := range s.Properties {
		out = append(out, p.Key)
		out = append(out, p.Aliases...)
	}
	return out
}

// Spec returns the spec the configuration was validated against.
func (c Config) Spec() *Spec { return c.spec }

// Values returns every declared key that was set, resolved under its
// canonical name, with sensitive values as they are. Use Redacted for
// anything shown to people.
func (c Config) Values() map[string]string {
	out := make(map[string]string, len(c.values))
	for k, v := range c.values {
		out[k] = v
	}
	return out
}

// Given returns every key that was given: the declared ones under their
// canonical names and, for a component with DynamicProperties, the
// free-form ones. It is what a component configured in another process (an
// installed plugin) is sent, since Weir decodes no key of it.
func (c Config) Given() map[string]string {
	out := make(map[string]string, len(c.values)+len(c.dynamic))
	for k, v := range c.values {
		out[k] = v
	}
	for k, v := range c.dynamic {
		out[k] = v
	}
	return out
}

// Redacted is the text that replaces sensitive values in logs and snapshots.
const Redacted = "******"
