package engine

import (
	"net/url"
	"sort"
	"strings"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/dataflow"
)

// eachSensitive calls fn for every property of df that its component's spec
// declares Sensitive. Components the registry does not know are skipped:
// validation refuses them before anything runs.
func eachSensitive(df *dataflow.DataFlow, reg *component.Registry, fn func(p *dataflow.Property)) {
	visit := func(c *dataflow.Component) {
		spec, ok := reg.Lookup(c.Component)
		if !ok {
			return
		}
		for i, p := range c.Config {
			if d, ok := spec.Property(p.Key); ok && d.Sensitive {
				fn(&c.Config[i])
			}
		}
	}
	for i := range df.Services {
		visit(&df.Services[i])
	}
	for i := range df.Streams {
		visit(&df.Streams[i].Component)
		for j := range df.Streams[i].Pipeline.Processors {
			visit(&df.Streams[i].Pipeline.Processors[j])
		}
	}
}

// currentModel copies the running model with sensitive values redacted.
func (e *Engine) currentModel() *dataflow.DataFlow {
	df := e.cur.plan.DataFlow.Clone()
	eachSensitive(df, e.opts.Registry, func(p *dataflow.Property) { p.Value = component.Redacted })
	return df
}

// secretsOf returns the sensitive values of the given dataflows in every
// form an error may quote them: as written, URL-escaped and unescaped, and
// the password of a URI's user info alone (a driver quotes that part). The
// longest come first, so that a value is replaced before a part of it.
func secretsOf(reg *component.Registry, dfs ...*dataflow.DataFlow) []string {
	set := map[string]struct{}{}
	add := func(s string) {
		if s != "" && s != component.Redacted {
			set[s] = struct{}{}
		}
	}
	forms := func(s string) {
		add(s)
		add(url.QueryEscape(s))
		add(url.PathEscape(s))
		if u, err := url.QueryUnescape(s); err == nil {
			add(u)
		}
		if u, err := url.PathUnescape(s); err == nil {
			add(u)
		}
	}
	for _, df := range dfs {
		if df == nil {
			continue
		}
		eachSensitive(df, reg, func(p *dataflow.Property) {
			forms(p.Value)
			if u, err := url.Parse(p.Value); err == nil && u.User != nil {
				if pw, ok := u.User.Password(); ok {
					forms(pw)
				}
			}
		})
	}
	out := make([]string, 0, len(set))
	for s := range set {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return len(out[i]) > len(out[j]) })
	return out
}

// redactedError is an error whose message has the secrets replaced; Unwrap
// keeps the original chain for errors.Is and errors.As.
type redactedError struct {
	msg string
	err error
}

func (r *redactedError) Error() string { return r.msg }
func (r *redactedError) Unwrap() error { return r.err }

// redactError returns err with every secret in its message replaced by
// component.Redacted. Components redact what they know (the MongoDB
// service its URI's password); this is the engine's net under all of them,
// before an error is logged, shown on /api/status or returned.
func redactError(err error, secrets []string) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	changed := false
	for _, s := range secrets {
		if strings.Contains(msg, s) {
			msg = strings.ReplaceAll(msg, s, component.Redacted)
			changed = true
		}
	}
	if !changed {
		return err
	}
	return &redactedError{msg: msg, err: err}
}
