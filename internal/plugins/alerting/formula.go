// Package alerting holds LogIsland's alerting processors: ComputeTags,
// CheckThresholds and CheckAlerts. Each dynamic key is a formula over
// records kept in a datastore (RedisKeyValueCacheService), which the
// formula names as cache("id").value, .count or .duration, as LogIsland's
// JavaScript formulas do. Formulas are Weir expressions (docs/expressions.md):
// LogIsland's written forms that mean the same, a leading "return" and a
// trailing ";", are accepted; other JavaScript is refused at validation.
package alerting

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/expr"
	"github.com/weir-streams/weir/internal/record"
)

// Store is what the alerting processors need of their datastore service:
// the Redis service provides it.
type Store interface {
	component.Service
	GetRecord(ctx context.Context, id string) (*record.Record, bool, error)
	PutRecord(ctx context.Context, r *record.Record) error
	RemoveRecord(ctx context.Context, id string) error
}

// The fields the processors read and write, LogIsland's.
const (
	FieldCount      = "record_count"
	FieldLastUpdate = "record_last_update_time"
)

// cacheRef matches cache("id").member, the one way a formula reads the
// datastore.
var cacheRef = regexp.MustCompile(`cache\(\s*(?:"([^"]*)"|'([^']*)')\s*\)\s*\.\s*(value|count|duration)\b`)

// ref is one cache("id").member of a formula and the name of the
// variable that stands for it in the compiled expression.
type ref struct {
	id, member, name string
}

// formula is a compiled formula.
type formula struct {
	key, text string
	prog      *expr.Program
	refs      []ref
}

// compileFormula translates LogIsland's written form into a Weir
// expression: "return " and a final ";" are dropped and every
// cache("id").member becomes a variable that evaluation fills from the
// datastore.
func compileFormula(key, text string) (*formula, error) {
	body := strings.TrimSpace(text)
	body = strings.TrimSpace(strings.TrimSuffix(body, ";"))
	if rest, ok := strings.CutPrefix(body, "return "); ok {
		body = strings.TrimSpace(rest)
	}
	f := &formula{key: key, text: text}
	seen := map[string]string{}
	body = cacheRef.ReplaceAllStringFunc(body, func(m string) string {
		sub := cacheRef.FindStringSubmatch(m)
		id := sub[1] + sub[2]
		k := id + "\x00" + sub[3]
		if name, ok := seen[k]; ok {
			return name
		}
		name := "cache_" + strconv.Itoa(len(f.refs))
		seen[k] = name
		f.refs = append(f.refs, ref{id: id, member: sub[3], name: name})
		return name
	})
	if strings.Contains(body, "cache(") {
		return nil, fmt.Errorf(`formula %q: read the datastore as cache("id").value, cache("id").count or cache("id").duration`, text)
	}
	prog, err := expr.Compile(body)
	if err != nil {
		return nil, fmt.Errorf("formula %q: %w", text, err)
	}
	f.prog = prog
	return f, nil
}

// bind builds the record a formula is evaluated on: one field per
// cache("id").member, read from the store as LogIsland's getValue,
// getCount and getDuration do: a missing record gives NaN for value and -1
// for count and duration.
func (f *formula) bind(ctx context.Context, st Store, now time.Time) (*record.Record, error) {
	r := record.New("formula", "formula", now.UnixMilli())
	for _, rf := range f.refs {
		cached, ok, err := st.GetRecord(ctx, rf.id)
		if err != nil {
			return nil, err
		}
		var v record.Value
		switch rf.member {
		case "value":
			v = record.FloatValue(math.NaN())
			if ok {
				v = record.FloatValue(numberOf(cached, record.FieldValue))
			}
		case "count":
			v = record.IntValue(-1)
			if ok {
				v = record.IntValue(int64(numberOf(cached, FieldCount)))
			}
		case "duration":
			v = record.IntValue(-1)
			if ok {
				v = record.IntValue(now.UnixMilli() - timeOf(cached))
			}
		}
		r.Set(rf.name, v)
	}
	return r, nil
}

// numberOf reads a field as a number, parsing text; NaN when it is none.
func numberOf(r *record.Record, name string) float64 {
	v, ok := r.Get(name)
	if !ok {
		return math.NaN()
	}
	if f, ok := v.AsFloat(); ok {
		return f
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(v.Text()), 64)
	if err != nil {
		return math.NaN()
	}
	return f
}

// timeOf is a record's event time: record_time, or its creation date.
func timeOf(r *record.Record) int64 {
	if v, ok := r.Get(record.FieldTime); ok {
		if n, ok := v.AsInt(); ok {
			return n
		}
		if f, ok := v.AsFloat(); ok {
			return int64(f)
		}
	}
	return r.CreationDate
}

// formulas compiles the dynamic keys, in name order.
func formulas(dynamic map[string]string) ([]*formula, error) {
	var out []*formula
	var errs []string
	keys := make([]string, 0, len(dynamic))
	for k := range dynamic {
		keys = append(keys, k)
	}
	sortStrings(keys)
	for _, k := range keys {
		f, err := compileFormula(k, dynamic[k])
		if err != nil {
			errs = append(errs, fmt.Sprintf("property %q: %v", k, err))
			continue
		}
		out = append(out, f)
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return out, nil
}
