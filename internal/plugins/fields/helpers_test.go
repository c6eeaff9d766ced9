package fields_test

import (
	"context"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/metrics"
	"github.com/weir-streams/weir/internal/record"
)

// build validates props against spec, as the engine does (declared keys,
// then the typed configuration's Validate), and builds the processor with
// a metrics registry of its own.
func build(t testing.TB, spec component.Spec, props map[string]string) (component.Processor, *prometheus.Registry) {
	t.Helper()
	p, reg, err := tryBuild(spec, props)
	if err != nil {
		t.Fatalf("build %s with %v: %v", spec.Name, props, err)
	}
	return p, reg
}

func tryBuild(spec component.Spec, props map[string]string) (component.Processor, *prometheus.Registry, error) {
	conf, probs := component.NewConfig(&spec, props)
	if len(probs) > 0 {
		return nil, nil, probs
	}
	reg := prometheus.NewRegistry()
	p, err := spec.NewProcessor(conf, component.Env{Name: "p", Stream: "s", Metrics: metrics.New(reg)})
	return p, reg, err
}

// buildErr returns the validation or build error of props; the test fails
// when there is none.
func buildErr(t *testing.T, spec component.Spec, props map[string]string) string {
	t.Helper()
	_, _, err := tryBuild(spec, props)
	if err == nil {
		t.Fatalf("%s with %v: no error", spec.Name, props)
	}
	return err.Error()
}

// process runs one batch and returns the records that remain.
func process(t testing.TB, p component.Processor, recs ...*record.Record) []*record.Record {
	t.Helper()
	b := &component.Batch{Records: recs}
	if err := p.Process(context.Background(), b); err != nil {
		t.Fatalf("process: %v", err)
	}
	return b.Records
}

// rec builds a record from name/value pairs; values are Go strings, int,
// int64, float64, bool or record.Value.
func rec(kv ...any) *record.Record {
	r := record.New("id", "t", 0)
	for i := 0; i+1 < len(kv); i += 2 {
		r.Set(kv[i].(string), val(kv[i+1]))
	}
	return r
}

func val(x any) record.Value {
	switch v := x.(type) {
	case record.Value:
		return v
	case string:
		return record.StringValue(v)
	case int:
		return record.IntValue(int64(v))
	case int64:
		return record.IntValue(v)
	case float64:
		return record.FloatValue(v)
	case bool:
		return record.BoolValue(v)
	case nil:
		return record.Value{}
	case []string:
		return record.StringsValue(v)
	}
	panic("unsupported value")
}

// userFields renders the fields other than record_id and record_type, in
// order, as name=json pairs, for comparisons.
func userFields(r *record.Record) string {
	var b strings.Builder
	for _, f := range r.Fields() {
		if f.Name == record.FieldID || f.Name == record.FieldType {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(f.Name)
		b.WriteByte('=')
		b.WriteString(f.Value.String())
	}
	return b.String()
}

// metric returns the value of a counter with the given outcome label.
func metric(t testing.TB, reg *prometheus.Registry, name, outcome string) float64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != "weir_"+name {
			continue
		}
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "outcome" && l.GetValue() == outcome {
					return m.GetCounter().GetValue()
				}
			}
		}
	}
	return 0
}
