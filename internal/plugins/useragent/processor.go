// Package useragent holds the processor pkg.processor.useragent.ParseUserAgent,
// which analyses a user-agent field of each record with the uaparse analyzer
// and writes the requested attributes (DeviceClass, AgentName, ...) as string
// fields named as the attributes.
package useragent

import (
	"context"
	"fmt"
	"strings"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/metrics"
	"github.com/weir-streams/weir/internal/plugins/useragent/uaparse"
	"github.com/weir-streams/weir/internal/record"
)

// ParseUserAgentName is the component identifier.
const ParseUserAgentName = "pkg.processor.useragent.ParseUserAgent"

// DefaultCacheSize is the number of analysed user agents kept by default.
// Real traffic repeats few user agents (559 distinct ones in 10,000 lines of
// the bundled access log), so a modest cache answers nearly every record.
const DefaultCacheSize = 10000

// maxCacheSize bounds cache.size so that a typo cannot ask for a cache that
// exhausts memory (an entry holds 53 attribute values, about 1 KB).
const maxCacheSize = 10_000_000

// ParseUserAgent's keys.
const (
	KeyField     = "useragent.field"
	KeyFields    = "fields"
	KeyKeep      = "useragent.keep"
	KeyCacheSize = "cache.size"
)

// ParseUserAgentSpec declares ParseUserAgent.
func ParseUserAgentSpec() component.Spec {
	return component.ProcessorSpec(component.Spec{
		Name: ParseUserAgentName,
		Summary: "Analyses the user-agent string of a field into Yauaa's attributes (DeviceClass, DeviceName, " +
			"OperatingSystemNameVersion, AgentName, ...) and sets each requested attribute as a string field named as the " +
			"attribute; an attribute that cannot be determined is \"Unknown\". A record without the field passes unchanged; " +
			"analysis never fails a record.",
		Properties: []component.Property{
			{Key: KeyField, Description: "Field holding the user-agent string (sample http_user_agent).",
				Required: true, Example: "http_user_agent", Validator: component.NonEmpty},
			{Key: KeyFields, Description: "Comma-separated attribute names to set, in any order. Default: every attribute (" +
				strings.Join(uaparse.AttributeNames(), ", ") + ").", Validator: attributeList},
			{Key: KeyKeep, Description: "Keep the user-agent field; false removes it once analysed.",
				Default: "true", Validator: component.Bool},
			{Key: KeyCacheSize, Description: "Number of analysed user agents kept in an LRU cache of this processor; 0 turns the cache off.",
				Default: fmt.Sprint(DefaultCacheSize), Validator: component.IntRange(0, maxCacheSize)},
		},
	}, newParseUserAgent)
}

// ParseUserAgentConfig is ParseUserAgent's configuration.
type ParseUserAgentConfig struct {
	Field     string   `key:"useragent.field"`
	Fields    []string `key:"fields"`
	Keep      bool     `key:"useragent.keep"`
	CacheSize int      `key:"cache.size"`
	// attrs are the attributes Fields names (every one when it is empty),
	// each once, resolved by Validate.
	attrs []uaparse.Attribute
}

// Validate resolves the attribute names once, for the processor to set.
func (c *ParseUserAgentConfig) Validate() (err error) {
	c.attrs, err = attributesOf(c.Fields)
	return err
}

// attributeList accepts a comma-separated list of attribute names. An
// unknown name is refused with the closest name and the full list, so that a
// job file can be fixed without looking the names up elsewhere.
var attributeList = component.NewValidator("comma-separated list of user-agent attribute names", func(s string) error {
	items := component.SplitList(s)
	if len(items) == 0 {
		return fmt.Errorf("must list at least one attribute")
	}
	names := uaparse.AttributeNames()
	for _, it := range items {
		if uaparse.IsAttribute(it) {
			continue
		}
		msg := fmt.Sprintf("%q is not a user-agent attribute", it)
		if sug := component.Suggest(it, names); sug != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", sug)
		}
		return fmt.Errorf("%s; valid attributes are %s", msg, strings.Join(names, ", "))
	}
	return nil
})

// Record outcomes counted in useragent_records_total.
const (
	recAnalyzed     = iota // analysed now (a cache miss, or no cache)
	recCached              // answered by the cache
	recMissingField        // no useragent.field: passed unchanged
	numRecOutcomes
)

var recOutcomeNames = [numRecOutcomes]string{"analyzed", "cached", "missing_field"}

// ParseUserAgent is the processor. The analyzer and its cache are safe for
// concurrent use and the rest is read-only after construction, so Process
// may run for several partitions at once.
type ParseUserAgent struct {
	field    string
	keep     bool
	attrs    []uaparse.Attribute
	names    []record.Name // the field name of each of attrs, hashed once
	cached   bool          // the analyzer keeps a cache (cache.size > 0)
	analyzer *uaparse.Analyzer
	records  [numRecOutcomes]prometheus.Counter
}

func newParseUserAgent(c *ParseUserAgentConfig, env component.Env) (component.Processor, error) {
	return newProcessor(c.Field, c.Keep, c.attrs, c.CacheSize, env), nil
}

// Options configure a ParseUserAgent built with New; they mirror the
// properties.
type Options struct {
	// Field is the record field holding the user agent.
	Field string
	// Fields are the attribute names to set; empty means every attribute.
	Fields []string
	// Keep keeps Field once analysed.
	Keep bool
	// CacheSize is the number of cached analyses; 0 turns the cache off.
	CacheSize int
}

// New builds a ParseUserAgent from options, for tests and benchmarks (the
// spec builds it from its validated configuration). It fails on an empty
// field name or an unknown attribute name.
func New(o Options, env component.Env) (*ParseUserAgent, error) {
	if strings.TrimSpace(o.Field) == "" {
		return nil, fmt.Errorf("property %q must not be empty", KeyField)
	}
	attrs, err := attributesOf(o.Fields)
	if err != nil {
		return nil, err
	}
	return newProcessor(o.Field, o.Keep, attrs, o.CacheSize, env), nil
}

// attributesOf returns the attributes that names name, each once, in the
// order of their first mention; no names means every attribute.
func attributesOf(names []string) ([]uaparse.Attribute, error) {
	if len(names) == 0 {
		names = uaparse.AttributeNames()
	}
	var attrs []uaparse.Attribute
	seen := make(map[uaparse.Attribute]bool, len(names))
	for _, n := range names {
		a, ok := uaparse.AttributeOf(n)
		if !ok {
			return nil, fmt.Errorf("property %q: %w", KeyFields, attributeList.Validate(n))
		}
		if !seen[a] {
			seen[a] = true
			attrs = append(attrs, a)
		}
	}
	return attrs, nil
}

func newProcessor(field string, keep bool, attrs []uaparse.Attribute, cacheSize int, env component.Env) *ParseUserAgent {
	p := &ParseUserAgent{field: field, keep: keep, attrs: attrs, cached: cacheSize > 0, analyzer: uaparse.New(uaparse.Options{CacheSize: cacheSize})}
	for _, a := range attrs {
		p.names = append(p.names, record.MakeName(a.Name()))
	}
	p.initMetrics(env)
	return p
}

func (p *ParseUserAgent) initMetrics(env component.Env) {
	m := env.Meters()
	labels := env.MetricLabels()
	withOutcome := append(append([]string(nil), metrics.ComponentLabels...), "outcome")
	rec := m.CounterVec("useragent_records_total",
		"Records seen by ParseUserAgent, by outcome: analyzed (cache miss), cached (cache hit, or the same user agent as the record before in the batch), missing_field.", withOutcome...)
	for i, n := range recOutcomeNames {
		p.records[i] = rec.WithLabelValues(append(append([]string(nil), labels...), n)...)
	}
}

// Process sets the requested attributes on every record that has the
// user-agent field. It never fails a record and never returns an error: the
// analyzer answers every string, hostile or broken ones included.
func (p *ParseUserAgent) Process(_ context.Context, b *component.Batch) error {
	var counts [numRecOutcomes]int
	// prev is the user agent of the last record analysed in this batch and
	// res its analysis. Consecutive lines of an access log often come from
	// the same client (58 % of the lines of testdata's real log have the
	// user agent of the line before), and a partition's batch keeps their
	// order: comparing with the last one costs a string comparison, where
	// the cache hashes the whole user agent and takes its lock.
	var prev string
	var res uaparse.Result
	havePrev := false
	for _, r := range b.Records {
		ua, ok := r.GetString(p.field)
		if !ok {
			counts[recMissingField]++
			continue
		}
		if havePrev && ua == prev {
			// The analysis the cache would give: the same string, within
			// one batch. Without a cache (cache.size 0) every record is
			// analysed, as configured.
			counts[recCached]++
		} else {
			var hit bool
			res, hit = p.analyzer.AnalyzeCached(ua)
			if hit {
				counts[recCached]++
			} else {
				counts[recAnalyzed]++
			}
			prev, havePrev = ua, p.cached
		}
		// The source field goes first, so that a source field named as
		// one of the attributes is replaced by the attribute rather than
		// removed after it was set.
		if !p.keep {
			r.Remove(p.field)
		}
		for i, a := range p.attrs {
			r.SetNamed(p.names[i], record.StringValue(res.Value(a)))
		}
	}
	// Counting per batch keeps the atomic additions off the per-record path.
	for i, n := range counts {
		if n > 0 {
			p.records[i].Add(float64(n))
		}
	}
	return nil
}

// ensure the interface is met.
var _ component.Processor = (*ParseUserAgent)(nil)
