package alerting

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"sort"
	"time"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/record"
)

// Identifiers, LogIsland's.
const (
	ComputeTagsName     = "pkg.processor.alerting.ComputeTags"
	CheckThresholdsName = "pkg.processor.alerting.CheckThresholds"
	CheckAlertsName     = "pkg.processor.alerting.CheckAlerts"
)

// ErrFormula is the error type of the error record a formula that cannot
// be evaluated produces.
const ErrFormula = "formula_error"

// KeyDatastore names the datastore service.
const KeyDatastore = "datastore.client.service"

func sortStrings(s []string) { sort.Strings(s) }

const sandboxNote = "Accepted for LogIsland's job files and ignored: Weir's formulas are compiled expressions, not sandboxed JavaScript."

// commonProperties are AbstractNashornSandboxProcessor's keys.
func commonProperties() []component.Property {
	return []component.Property{
		{Key: KeyDatastore, Description: "Name of the datastore service that holds the records the formulas read (RedisKeyValueCacheService).",
			Required: true, Example: "datastore_service", Validator: component.NonEmpty, ServiceRef: component.DatastoreCapability},
		{Key: "output.record.type", Description: "Type of the records the processor adds.", Default: "event", Validator: component.NonEmpty},
		{Key: "datastore.cache.collection", Description: "Collection of the cached records; Redis has none, so it is accepted and ignored.", Default: "test", Validator: component.NonEmpty},
		{Key: "max.cpu.time", Description: sandboxNote, Default: "100", Validator: component.IntRange(0, 1<<62)},
		{Key: "max.memory", Description: sandboxNote, Default: "51200", Validator: component.IntRange(0, 1<<62)},
		{Key: "allow.no.brace", Description: sandboxNote, Default: "false", Validator: component.Bool},
		{Key: "max.prepared.statements", Description: sandboxNote, Default: "30", Validator: component.IntRange(0, 1<<31)},
		{Key: "js.cache.service", Description: sandboxNote},
	}
}

type base struct {
	store    Store
	forms    []*formula
	outType  string
	log      *slog.Logger
	now      func() time.Time
	procName string
}

// SandboxConfig holds the keys every alerting processor shares (LogIsland's
// AbstractNashornSandboxProcessor's) and its formulas, the dynamic keys.
type SandboxConfig struct {
	Datastore  string `key:"datastore.client.service"`
	OutputType string `key:"output.record.type"`
	// Redis has no collections, and Weir's formulas are compiled
	// expressions, not sandboxed JavaScript: these keys are accepted for
	// LogIsland's job files and mean nothing.
	_ struct{} `key:"datastore.cache.collection,ignored"`
	_ struct{} `key:"max.cpu.time,ignored"`
	_ struct{} `key:"max.memory,ignored"`
	_ struct{} `key:"allow.no.brace,ignored"`
	_ struct{} `key:"max.prepared.statements,ignored"`
	_ struct{} `key:"js.cache.service,ignored"`
	// Formulas maps each dynamic key to its formula's text.
	Formulas map[string]string `key:",dynamic"`
	// forms are the Formulas compiled by Validate, in key order.
	forms []*formula
}

// Validate compiles the formulas once, for the processor to evaluate.
func (c *SandboxConfig) Validate() (err error) {
	c.forms, err = formulas(c.Formulas)
	return err
}

func newBase(c *SandboxConfig, env component.Env) (base, error) {
	st, err := component.ServiceFor[Store](env, KeyDatastore, c.Datastore, "a datastore of records (RedisKeyValueCacheService)")
	if err != nil {
		return base{}, err
	}
	return base{store: st, forms: c.forms, outType: c.OutputType, log: env.Log(), now: time.Now, procName: env.Name}, nil
}

// failed is the error record of a formula that could not be evaluated:
// it goes to the error topics with the reason, and the input records go on.
func (b *base) failed(f *formula, now time.Time, err error) *record.Record {
	r := record.New(f.key, "error", now.UnixMilli())
	r.SetString(record.FieldValue, f.text)
	r.AddError(ErrFormula, err.Error())
	b.log.Warn("formula failed", "formula", f.key, "error", err)
	return r
}

// ComputeTagsSpec declares ComputeTags.
func ComputeTagsSpec() component.Spec {
	return component.ProcessorSpec(component.Spec{
		Name: ComputeTagsName,
		Summary: "Adds, for each dynamic key, a record whose id is the key and whose record_value (a number) is the key's formula, " +
			"e.g. computed1: cache(\"204.138.95.105\").value * 10.2, which reads record_value of the record stored under that id. " +
			"A formula over a record the datastore lacks gives no number (NaN) and adds no record; one that fails adds an error record " +
			"(" + ErrFormula + "). The input records go on.",
		DynamicProperties: true,
		DynamicExamples:   map[string]string{"computed1": `return cache("204.138.95.105").value * 10.2;`},
		Properties:        commonProperties(),
	}, newComputeTags)
}

// ComputeTagsConfig is ComputeTags' configuration.
type ComputeTagsConfig struct {
	SandboxConfig
}

func newComputeTags(c *ComputeTagsConfig, env component.Env) (component.Processor, error) {
	b, err := newBase(&c.SandboxConfig, env)
	if err != nil {
		return nil, err
	}
	return &ComputeTags{b}, nil
}

// ComputeTags is the processor; safe for concurrent use.
type ComputeTags struct{ base }

// Process appends one record per formula.
func (p *ComputeTags) Process(ctx context.Context, b *component.Batch) error {
	now := p.now()
	for _, f := range p.forms {
		bound, err := f.bind(ctx, p.store, now)
		if err != nil {
			b.Records = append(b.Records, p.failed(f, now, err))
			continue
		}
		v, err := f.prog.Eval(bound)
		if err != nil {
			b.Records = append(b.Records, p.failed(f, now, err))
			continue
		}
		n, ok := v.AsFloat()
		if !ok {
			b.Records = append(b.Records, p.failed(f, now, fmt.Errorf("the formula gives %s, not a number", v.String())))
			continue
		}
		if math.IsNaN(n) || math.IsInf(n, 0) {
			continue // no value to tag: a record it reads is missing
		}
		r := record.New(f.key, p.outType, now.UnixMilli())
		r.Set(record.FieldTime, record.IntValue(now.UnixMilli()))
		r.Set(record.FieldValue, record.FloatValue(n))
		b.Records = append(b.Records, r)
	}
	return nil
}

// CheckThresholdsSpec declares CheckThresholds.
func CheckThresholdsSpec() component.Spec {
	props := append(commonProperties(),
		component.Property{Key: "record.ttl", Description: "Milliseconds after its first crossing that a threshold record is removed from the datastore, so that the next crossing starts a new one.", Default: "30000", Validator: component.IntRange(0, 1<<31)},
		component.Property{Key: "min.update.time.ms", Description: "Milliseconds at least between two updates of one threshold record.", Default: "200", Validator: component.IntRange(0, 1<<62)},
	)
	return component.ProcessorSpec(component.Spec{
		Name: CheckThresholdsName,
		Summary: "Checks, for each dynamic key, its condition, e.g. threshold1: cache(\"204.138.95.105\").value > 2000.0. When it holds, " +
			"the threshold record stored under the key is created (record_count 1) or, if it was last updated more than min.update.time.ms " +
			"ago, updated (record_count + 1, its first time kept), written to the datastore and added to the batch; record_value holds the " +
			"condition's text. A threshold record older than record.ttl is removed first. A condition that fails adds an error record (" + ErrFormula + ").",
		DynamicProperties: true,
		DynamicExamples:   map[string]string{"threshold1": `cache("204.138.95.105").value > 2000.0`},
		Properties:        props,
	}, newCheckThresholds)
}

// CheckThresholdsConfig is CheckThresholds' configuration.
type CheckThresholdsConfig struct {
	SandboxConfig
	// TTLMillis and MinUpdateMillis are milliseconds, compared with
	// records' epoch-millisecond times.
	TTLMillis       int64 `key:"record.ttl"`
	MinUpdateMillis int64 `key:"min.update.time.ms"`
}

func newCheckThresholds(c *CheckThresholdsConfig, env component.Env) (component.Processor, error) {
	b, err := newBase(&c.SandboxConfig, env)
	if err != nil {
		return nil, err
	}
	return &CheckThresholds{base: b, ttl: c.TTLMillis, minUpdate: c.MinUpdateMillis}, nil
}

// CheckThresholds is the processor; safe for concurrent use (two batches
// that cross one threshold at once may both count it, as in LogIsland).
type CheckThresholds struct {
	base
	ttl, minUpdate int64
}

// Process checks every threshold.
func (p *CheckThresholds) Process(ctx context.Context, b *component.Batch) error {
	now := p.now()
	ms := now.UnixMilli()
	for _, f := range p.forms {
		cached, ok, err := p.store.GetRecord(ctx, f.key)
		if err == nil && ok && ms-timeOf(cached) > p.ttl {
			err = p.store.RemoveRecord(ctx, f.key)
			cached, ok = nil, false
		}
		if err != nil {
			b.Records = append(b.Records, p.failed(f, now, err))
			continue
		}
		bound, err := f.bind(ctx, p.store, now)
		if err != nil {
			b.Records = append(b.Records, p.failed(f, now, err))
			continue
		}
		match, err := f.prog.EvalBool(bound)
		if err != nil {
			b.Records = append(b.Records, p.failed(f, now, err))
			continue
		}
		if !match {
			continue
		}
		var out *record.Record
		if ok {
			last := int64(numberOf(cached, FieldLastUpdate))
			if ms-last <= p.minUpdate {
				continue
			}
			count := int64(numberOf(cached, FieldCount))
			out = cached
			out.Set(FieldCount, record.IntValue(count+1))
			out.Set(FieldLastUpdate, record.IntValue(ms))
		} else {
			out = record.New(f.key, p.outType, ms)
			out.Set(record.FieldTime, record.IntValue(ms))
			out.SetString(record.FieldValue, f.text)
			out.Set(FieldCount, record.IntValue(1))
			out.Set(FieldLastUpdate, record.IntValue(ms))
		}
		if err := p.store.PutRecord(ctx, out); err != nil {
			b.Records = append(b.Records, p.failed(f, now, err))
			continue
		}
		b.Records = append(b.Records, out)
	}
	return nil
}

// CheckAlertsSpec declares CheckAlerts.
func CheckAlertsSpec() component.Spec {
	props := append(commonProperties(),
		component.Property{Key: "profile.activation.condition", Description: "Condition that activates the alerts: none is checked while it does not hold.",
			Default: "0==0", Validator: component.NonEmpty},
		component.Property{Key: "alert.criticity", Description: "Criticity of the alerts, from 0; LogIsland accepts it and writes it nowhere, and so does Weir.",
			Default: "0", Validator: component.IntRange(-1<<31, 1<<31)},
	)
	return component.ProcessorSpec(component.Spec{
		Name: CheckAlertsName,
		Summary: "Adds, for each dynamic key whose condition holds while profile.activation.condition holds, an alert record whose id is " +
			"the key and whose record_value is the condition's text, e.g. alert1: cache(\"threshold1\").duration > 50.0 (duration: " +
			"milliseconds since the stored record's time; count: its record_count). A condition that fails adds an error record (" + ErrFormula + ").",
		DynamicProperties: true,
		DynamicExamples:   map[string]string{"alert1": `cache("threshold1").duration > 50.0`},
		Properties:        props,
	}, newCheckAlerts)
}

// CheckAlertsConfig is CheckAlerts' configuration.
type CheckAlertsConfig struct {
	SandboxConfig
	Activation string `key:"profile.activation.condition"`
	// LogIsland writes the criticity nowhere either.
	_ struct{} `key:"alert.criticity,ignored"`
	// activation is Activation compiled by Validate.
	activation *formula
}

// Validate compiles the activation condition, then the alerts' formulas.
func (c *CheckAlertsConfig) Validate() error {
	act, err := compileFormula("profile.activation.condition", c.Activation)
	if err != nil {
		return fmt.Errorf("property %q: %w", "profile.activation.condition", err)
	}
	c.activation = act
	return c.SandboxConfig.Validate()
}

func newCheckAlerts(c *CheckAlertsConfig, env component.Env) (component.Processor, error) {
	b, err := newBase(&c.SandboxConfig, env)
	if err != nil {
		return nil, err
	}
	return &CheckAlerts{base: b, activation: c.activation}, nil
}

// CheckAlerts is the processor; safe for concurrent use.
type CheckAlerts struct {
	base
	activation *formula
}

// Process appends the alerts whose conditions hold.
func (p *CheckAlerts) Process(ctx context.Context, b *component.Batch) error {
	now := p.now()
	bound, err := p.activation.bind(ctx, p.store, now)
	var active bool
	if err == nil {
		active, err = p.activation.prog.EvalBool(bound)
	}
	if err != nil {
		b.Records = append(b.Records, p.failed(p.activation, now, err))
		return nil
	}
	if !active {
		return nil
	}
	for _, f := range p.forms {
		bound, err := f.bind(ctx, p.store, now)
		var hit bool
		if err == nil {
			hit, err = f.prog.EvalBool(bound)
		}
		if err != nil {
			b.Records = append(b.Records, p.failed(f, now, err))
			continue
		}
		if hit {
			r := record.New(f.key, p.outType, now.UnixMilli())
			r.Set(record.FieldTime, record.IntValue(now.UnixMilli()))
			r.SetString(record.FieldValue, f.text)
			b.Records = append(b.Records, r)
		}
	}
	return nil
}
