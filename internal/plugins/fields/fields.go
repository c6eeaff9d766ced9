// Package fields holds the everyday record processors: convert, add,
// remove, rename, filter, split, parse and mask fields, and log records.
// Where LogIsland has the same processor (logisland-processor-common), the
// identifier is LogIsland's with "com.hurence.logisland" replaced by "pkg"
// and the keys are LogIsland's, so that a LogIsland job moves over by
// changing only the package prefix. docs/processors.md documents each one.
//
// Every processor here holds only read-only state built from its
// configuration (compiled expressions, regular expressions, field lists)
// and is safe for concurrent use.
package fields

import (
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/expr"
	"github.com/weir-streams/weir/internal/metrics"
	"github.com/weir-streams/weir/internal/record"
)

// Conflict resolution policies (LogIsland's values of
// conflict.resolution.policy).
const (
	policyOverwrite = "overwrite_existing"
	policyKeepOld   = "keep_only_old_field"
	policyNothing   = "do_nothing"
	policyKeepBoth  = "keep_both_fields"
)

// ConflictPolicy is the key conflict.resolution.policy of the processors
// that write fields, in their typed configurations. Each declares the key
// itself, with the policies it takes and its default.
type ConflictPolicy struct {
	Policy string `key:"conflict.resolution.policy"`
}

// overwrite reports whether a written field replaces an existing one.
func (c ConflictPolicy) overwrite() bool { return c.Policy == policyOverwrite }

// overwritePolicy declares conflict.resolution.policy for a processor that
// either overwrites an existing field or keeps it (the default); desc says
// what "existing" means for it.
func overwritePolicy(desc string) component.Property {
	return component.Property{Key: "conflict.resolution.policy", Description: desc,
		Default: policyKeepOld, Validator: component.Enum(policyOverwrite, policyKeepOld)}
}

// ErrExpression is the error type of a record whose expression failed.
const ErrExpression = "expression_error"

// counter returns a per-component counter with one outcome label value.
func counter(env component.Env, name, help, outcome string) prometheus.Counter {
	m := env.Meters()
	labels := append(append([]string(nil), metrics.ComponentLabels...), "outcome")
	return m.CounterVec(name, help, labels...).WithLabelValues(append(env.MetricLabels(), outcome)...)
}

// count adds a batch's number of one outcome to its counter. A batch adds
// each outcome once, and the outcomes it did not meet cost nothing.
func count(c prometheus.Counter, n int) {
	if n > 0 {
		c.Add(float64(n))
	}
}

// setOf returns the set of names, or nil when there are none.
func setOf(names []string) map[string]bool {
	if len(names) == 0 {
		return nil
	}
	set := make(map[string]bool, len(names))
	for _, n := range names {
		set[n] = true
	}
	return set
}

// isTechnical reports whether a field is one that every record keeps
// (RemoveFields' fields.to.keep never removes them): its id, type, time
// and errors.
func isTechnical(name string) bool {
	switch name {
	case record.FieldID, record.FieldType, record.FieldTime, record.FieldErrors:
		return true
	}
	return false
}

// expressionValidator checks that a value compiles as an expression (with
// or without ${...}), so that a bad one is refused at validation with its
// column.
var expressionValidator = component.NewValidator("expression (docs/expressions.md), optionally written ${...}", func(s string) error {
	body, _ := expr.Unwrap(s)
	_, err := expr.Compile(body)
	return err
})

// parseDynamic sets *dst to what parse makes of each free-form key of a
// component, in key order. Every value is tried, so that a job file's
// mistakes are reported together; each error names its key, and the
// caller's path gives the component.
func parseDynamic[T any](dst *[]T, dyn map[string]string, parse func(key, value string) (T, error)) error {
	*dst = nil
	var errs []error
	for _, k := range slices.Sorted(maps.Keys(dyn)) {
		t, err := parse(k, dyn[k])
		if err != nil {
			errs = append(errs, fmt.Errorf("property %q: %w", k, err))
			continue
		}
		*dst = append(*dst, t)
	}
	return errors.Join(errs...)
}

// compileExpression compiles a value that is always an expression, written
// with or without ${...}.
func compileExpression(s string) (*expr.Program, error) {
	body, _ := expr.Unwrap(s)
	return expr.Compile(body)
}
