package geoip

import (
	"context"
	"fmt"
	"hash/fnv"
	"log/slog"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/metrics"
	"github.com/weir-streams/weir/internal/plugins/cache"
	"github.com/weir-streams/weir/internal/record"
)

// IpToGeoName is the component identifier.
const IpToGeoName = "pkg.processor.enrichment.IpToGeo"

// CacheSpace is the prefix of the cache.Key space of IpToGeo's entries.
// The space also holds the processor's field settings, because entries
// hold the fields ready to set: IpToGeo processors with the same settings
// share entries, others do not collide.
const CacheSpace = "ip_to_geo"

// GeoFields are the geo fields IpToGeo can add, in LogIsland's names.
// subdivision_N and subdivision_isocode_N are numbered from 0, largest
// region first.
var GeoFields = []string{"continent", "continent_code", "country", "country_isocode", "city", "latitude", "longitude",
	"location", "accuracy_radius", "time_zone", "subdivision", "subdivision_isocode", "postalcode"}

// IpToGeoSpec declares IpToGeo.
func IpToGeoSpec() component.Spec {
	return component.ProcessorSpec(component.Spec{
		Name: IpToGeoName,
		Summary: "Adds the geo-location of the IP address of ip.address.field, from an IP-to-geo service (MaxmindIpToGeoService). " +
			"By default the fields go under one map field X_geo (X being the address field); with geo.hierarchical false they are " +
			"set flat as X_geo_<field>. Private, loopback, link-local, multicast and reserved addresses, and addresses the database " +
			"does not know, get no geo fields and no error. Answers are kept in a cache service, so each address is looked up once per cache life and database.",
		Properties: []component.Property{
			{Key: "ip.address.field", Description: "Field holding the IP address (IPv4 or IPv6).", Required: true, Example: "src_ip", Validator: component.NonEmpty},
			{Key: "iptogeo.service", Description: "Name of the IP-to-geo service (MaxmindIpToGeoService).", Required: true, Example: "maxmind_service", Validator: component.NonEmpty, ServiceRef: Capability},
			{Key: "cache.service", Description: "Name of the cache service (LRUKeyValueCacheService).", Required: true, Example: "lru_cache", Validator: component.NonEmpty, ServiceRef: cache.Capability},
			{Key: "geo.fields", Description: "Comma-separated geo fields to add, or * for all: " + strings.Join(GeoFields, ", ") + ". " +
				"location is \"latitude,longitude\" text; latitude and longitude are numbers; accuracy_radius is in km.",
				Default: "*", Validator: component.NewValidator("* or a list of geo fields", func(s string) error { _, err := parseGeoFields(s); return err })},
			{Key: "geo.hierarchical", Description: "Put the geo fields under one map field (true) or flat beside the address field (false).", Default: "true", Validator: component.Bool},
			{Key: "geo.hierarchical.suffix", Description: "Suffix of the map field when geo.hierarchical is true: X_geo.", Default: "_geo"},
			{Key: "geo.flat.suffix", Description: "Infix of the flat fields when geo.hierarchical is false: X_geo_city.", Default: "_geo_"},
			{Key: "cache.max.time", Description: "Seconds an answer lives in the cache; 0 means until evicted. A new database makes older answers unused at once.",
				Default: "86400", Validator: component.IntRange(0, 10*365*86400)},
			{Key: "debug", Description: "Accepted for LogIsland jobs and ignored (the cache's metrics say how lookups are answered).", Default: "false", Validator: component.Bool},
		},
	}, newIpToGeo)
}

// IpToGeoConfig is IpToGeo's configuration.
type IpToGeoConfig struct {
	IPField            string `key:"ip.address.field"`
	GeoService         string `key:"iptogeo.service"`
	CacheService       string `key:"cache.service"`
	GeoFields          string `key:"geo.fields"`
	Hierarchical       bool   `key:"geo.hierarchical"`
	HierarchicalSuffix string `key:"geo.hierarchical.suffix"`
	FlatSuffix         string `key:"geo.flat.suffix"`
	// CacheMaxSeconds is in seconds, as LogIsland's key is.
	CacheMaxSeconds int64    `key:"cache.max.time"`
	_               struct{} `key:"debug,ignored"`
	// fields is the set GeoFields names, nil for all, made by Validate.
	fields map[string]bool
}

// Validate turns the geo.fields list, which its validator accepted, into
// the set the processor keeps.
func (c *IpToGeoConfig) Validate() error {
	fields, err := parseGeoFields(c.GeoFields)
	if err != nil {
		return fmt.Errorf("property %q: %w", "geo.fields", err)
	}
	c.fields = fields
	return nil
}

func parseGeoFields(s string) (map[string]bool, error) {
	if strings.TrimSpace(s) == "*" {
		return nil, nil
	}
	out := map[string]bool{}
	for _, f := range component.SplitList(s) {
		ok := false
		for _, g := range GeoFields {
			ok = ok || f == g
		}
		if !ok {
			msg := fmt.Sprintf("%q is not a geo field", f)
			if sug := component.Suggest(f, GeoFields); sug != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", sug)
			}
			return nil, fmt.Errorf("%s", msg)
		}
		out[f] = true
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("list at least one geo field, or *")
	}
	return out, nil
}

// Per-record outcomes counted in ip_to_geo_records_total.
const (
	recLocated = iota
	recNotFound
	recPrivate
	recInvalid
	recMissing
	recFailed
	numRec
)

var recNames = [numRec]string{"located", "not_found", "private_or_reserved", "invalid_address", "missing_field", "lookup_failed"}

// entry is the cached answer for one address: the fields to set, ready
// (immutable, shared by every record of that address), and the database
// generation it came from.
type entry struct {
	gen    uint64
	fields []record.Field // nil: not found
}

// IpToGeo is the processor.
type IpToGeo struct {
	ipField      string
	want         map[string]bool // nil: all
	hierarchical bool
	mapName      string
	flatPrefix   string
	space        string
	ttl          time.Duration
	geo          Locator
	cache        cache.KeyValue
	log          *slog.Logger
	records      [numRec]prometheus.Counter
}

func newIpToGeo(c *IpToGeoConfig, env component.Env) (component.Processor, error) {
	loc, err := component.ServiceFor[Locator](env, "iptogeo.service", c.GeoService, "an ip to geo service")
	if err != nil {
		return nil, err
	}
	kv, err := component.ServiceFor[cache.KeyValue](env, "cache.service", c.CacheService, "a key/value cache")
	if err != nil {
		return nil, err
	}
	return New(Options{IPField: c.IPField, Fields: c.fields, Hierarchical: c.Hierarchical, HierarchicalSuffix: c.HierarchicalSuffix,
		FlatSuffix: c.FlatSuffix, TTL: time.Duration(c.CacheMaxSeconds) * time.Second, Service: c.GeoService}, loc, kv, env), nil
}

// Options configure an IpToGeo built with New; they mirror the properties.
type Options struct {
	IPField            string
	Fields             map[string]bool // nil: all
	Hierarchical       bool
	HierarchicalSuffix string
	FlatSuffix         string
	TTL                time.Duration
	// Service names the geo service, so that processors on different
	// databases do not share cache entries.
	Service string
}

// New builds an IpToGeo; the spec's constructor calls it, and tests.
func New(o Options, geo Locator, kv cache.KeyValue, env component.Env) *IpToGeo {
	p := &IpToGeo{ipField: o.IPField, want: o.Fields, hierarchical: o.Hierarchical,
		mapName: o.IPField + o.HierarchicalSuffix, flatPrefix: o.IPField + o.FlatSuffix,
		ttl: o.TTL, geo: geo, cache: kv, log: env.Logger}
	if p.log == nil {
		p.log = slog.New(slog.DiscardHandler)
	}
	var sel []string
	for _, f := range GeoFields {
		if o.Fields == nil || o.Fields[f] {
			sel = append(sel, f)
		}
	}
	// The space is short, a digest of the settings: every cache lookup
	// hashes it with the address.
	sig := fnv.New64a()
	fmt.Fprintf(sig, "%s|%t|%s|%s|%s", o.Service, o.Hierarchical, p.mapName, p.flatPrefix, strings.Join(sel, ","))
	p.space = fmt.Sprintf("%s/%x", CacheSpace, sig.Sum64())
	m := env.Meters()
	vec := m.CounterVec("ip_to_geo_records_total", "Records seen by IpToGeo, by outcome.", append(append([]string(nil), metrics.ComponentLabels...), "outcome")...)
	for i, n := range recNames {
		p.records[i] = vec.WithLabelValues(append(env.MetricLabels(), n)...)
	}
	return p
}

// Process adds the geo fields to every record whose address is located.
func (p *IpToGeo) Process(_ context.Context, b *component.Batch) error {
	var counts [numRec]int
	gen := p.geo.Generation()
	// Consecutive records of an access log often share their address (a
	// page and its assets): the previous answer is reused without asking
	// the shared cache, whose lock and lookup are most of the cost.
	var last lastAnswer
	for _, r := range b.Records {
		counts[p.enrich(r, gen, &last)]++
	}
	for i, n := range counts {
		if n > 0 {
			p.records[i].Add(float64(n))
		}
	}
	return nil
}

// lastAnswer is the answer for the previous record's address in a batch.
type lastAnswer struct {
	addr    string
	outcome int
	e       entry
	valid   bool
}

func (p *IpToGeo) enrich(r *record.Record, gen uint64, last *lastAnswer) int {
	s, ok := r.GetString(p.ipField)
	if !ok {
		return recMissing
	}
	if last.valid && last.addr == s {
		if last.outcome == recLocated || last.outcome == recNotFound {
			return p.apply(r, last.e)
		}
		return last.outcome
	}
	out, e := p.answer(s, gen)
	*last = lastAnswer{addr: s, outcome: out, e: e, valid: out != recFailed}
	if out == recLocated || out == recNotFound {
		return p.apply(r, e)
	}
	return out
}

// answer finds the entry of an address: from the cache, or by a lookup
// that it caches. The outcome is recLocated or recNotFound when e holds
// the answer, or why there is none.
func (p *IpToGeo) answer(s string, gen uint64) (int, entry) {
	key := cache.Key{Space: p.space, Name: s}
	if v, ok := p.cache.Get(key); ok {
		if e, ok := v.(entry); ok && e.gen == gen {
			return outcomeOf(e), e
		}
	}
	addr, err := netip.ParseAddr(s)
	if err != nil {
		return recInvalid, entry{}
	}
	if IsPrivateOrReserved(addr) {
		return recPrivate, entry{}
	}
	g, found, err := p.geo.Locate(addr.WithZone(""))
	if err != nil {
		p.log.Debug("geo lookup failed", "address", s, "error", err)
		return recFailed, entry{}
	}
	e := entry{gen: gen}
	if found {
		e.fields = p.fieldsOf(g)
	}
	p.cache.Set(key, e, p.ttl)
	return outcomeOf(e), e
}

func outcomeOf(e entry) int {
	if e.fields == nil {
		return recNotFound
	}
	return recLocated
}

func (p *IpToGeo) apply(r *record.Record, e entry) int {
	if e.fields == nil {
		return recNotFound
	}
	for _, f := range e.fields {
		r.Set(f.Name, f.Value)
	}
	return recLocated
}

// fieldsOf renders a Geo as the fields this processor sets: one map field,
// or flat fields. Absent values set no field.
func (p *IpToGeo) fieldsOf(g Geo) []record.Field {
	var kv []record.Field
	add := func(name string, v record.Value) {
		if p.want == nil || p.want[name] {
			kv = append(kv, record.Field{Name: name, Value: v})
		}
	}
	str := func(name, s string) {
		if s != "" {
			add(name, record.StringValue(s))
		}
	}
	str("continent", g.Continent)
	str("continent_code", g.ContinentCode)
	str("country", g.Country)
	str("country_isocode", g.CountryISOCode)
	str("city", g.City)
	if g.HasLocation {
		add("latitude", record.FloatValue(g.Latitude))
		add("longitude", record.FloatValue(g.Longitude))
		add("location", record.StringValue(strconv.FormatFloat(g.Latitude, 'f', -1, 64)+","+strconv.FormatFloat(g.Longitude, 'f', -1, 64)))
	}
	if g.AccuracyRadius > 0 {
		add("accuracy_radius", record.IntValue(g.AccuracyRadius))
	}
	str("time_zone", g.TimeZone)
	for i, sd := range g.Subdivisions {
		n := strconv.Itoa(i)
		if sd.Name != "" && (p.want == nil || p.want["subdivision"]) {
			kv = append(kv, record.Field{Name: "subdivision_" + n, Value: record.StringValue(sd.Name)})
		}
		if sd.ISOCode != "" && (p.want == nil || p.want["subdivision_isocode"]) {
			kv = append(kv, record.Field{Name: "subdivision_isocode_" + n, Value: record.StringValue(sd.ISOCode)})
		}
	}
	str("postalcode", g.PostalCode)
	if len(kv) == 0 {
		return []record.Field{}
	}
	if p.hierarchical {
		m := make(map[string]record.Value, len(kv))
		for _, f := range kv {
			m[f.Name] = f.Value
		}
		return []record.Field{{Name: p.mapName, Value: record.MapValue(m)}}
	}
	for i := range kv {
		kv[i].Name = p.flatPrefix + kv[i].Name
	}
	return kv
}

var _ component.Processor = (*IpToGeo)(nil)
