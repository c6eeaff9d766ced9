package lucene

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/netip"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/record"
)

// Identifiers of the processors, LogIsland's.
const (
	MatchQueryName = "pkg.processor.MatchQuery"
	MatchIPName    = "pkg.processor.MatchIP"
)

// The fields a match sets, LogIsland's.
const (
	FieldMatchName  = "alert_match_name"
	FieldMatchQuery = "alert_match_query"
)

// Policies, LogIsland's values.
const (
	onMatchFirst  = "first"
	onMatchAll    = "all"
	onMissDrop    = "discard"
	onMissFwd     = "forward"
	typeOverwrite = "overwrite"
	typeKeep      = "keep"
)

func commonProperties() []component.Property {
	return []component.Property{
		{Key: "numeric.fields", Description: "Comma-separated fields whose number values are matched as numbers (ranges such as bytes_out:[5000 TO *] and terms such as count:3); other number fields match no query.",
			Validator: component.List(component.NonEmpty)},
		{Key: "output.record.type", Description: "Type given to a matching record when record.type.updatePolicy is overwrite.", Default: "alert_match", Validator: component.NonEmpty},
		{Key: "record.type.updatePolicy", Description: "overwrite: a matching record takes output.record.type; keep: it keeps its type.", Default: typeOverwrite, Validator: component.Enum(typeOverwrite, typeKeep)},
		{Key: "policy.onmatch", Description: "first: one copy of the record per query it matches, each with that query's name and text as strings; all: the record once, with the names and texts of every query it matches as arrays.",
			Default: onMatchFirst, Validator: component.Enum(onMatchFirst, onMatchAll)},
		{Key: "policy.onmiss", Description: "discard: records that match no query leave the batch; forward: they go on unchanged.", Default: onMissDrop, Validator: component.Enum(onMissDrop, onMissFwd)},
	}
}

// rule is one dynamic key: its name, how it matches, and the query text
// set on matching records.
type rule struct {
	name, text string
	query      *Query         // MatchQuery, and MatchIP's lucene-like rules
	ipField    string         // MatchIP
	ipLo, ipHi uint64         // MatchIP: address or range
	ipRe       *regexp.Regexp // MatchIP: regular expression rule, anchored at the start
	isIP       bool
}

// Matcher is MatchQuery and MatchIP: it holds only read-only state and is
// safe for concurrent use.
type Matcher struct {
	rules     []rule // Lucene rules, in name order
	reRules   []rule // MatchIP's regular-expression rules, in name order
	numeric   map[string]bool
	outType   string
	overwrite bool
	all       bool
	forward   bool
}

// Policies is the configuration MatchQuery and MatchIP share: what a match
// does to a record and what becomes of the others.
type Policies struct {
	NumericFields []string `key:"numeric.fields"`
	OutputType    string   `key:"output.record.type"`
	TypePolicy    string   `key:"record.type.updatePolicy"`
	OnMatch       string   `key:"policy.onmatch"`
	OnMiss        string   `key:"policy.onmiss"`
}

func (p *Policies) matcher() *Matcher {
	m := &Matcher{numeric: map[string]bool{}, outType: p.OutputType,
		overwrite: p.TypePolicy == typeOverwrite,
		all:       p.OnMatch == onMatchAll,
		forward:   p.OnMiss == onMissFwd}
	for _, f := range p.NumericFields {
		m.numeric[f] = true
	}
	return m
}

// MatchQuerySpec declares MatchQuery.
func MatchQuerySpec() component.Spec {
	return component.ProcessorSpec(component.Spec{
		Name: MatchQueryName,
		Summary: "Tags records that match queries in Lucene's query syntax (docs/processors.md, \"Query matching\", lists the syntax " +
			"understood). Each dynamic key is a query's name and its value the query, e.g. too_many_errors: status:[500 TO 599]. A matching " +
			"record gets alert_match_name and alert_match_query, as policy.onmatch says, and output.record.type as its type unless " +
			"record.type.updatePolicy is keep; a record that matches nothing is dropped or forwarded as policy.onmiss says. Records " +
			"come out in input order.",
		DynamicProperties: true,
		DynamicExamples:   map[string]string{"has_line": "record_value:line OR record_value:one"},
		Properties:        commonProperties(),
	}, newMatchQuery)
}

func newMatchQuery(c *MatchQueryConfig, _ component.Env) (component.Processor, error) {
	m := c.matcher()
	m.rules = c.rules
	return m, nil
}

// MatchQueryConfig is MatchQuery's configuration: the policies, and the
// queries by name (the dynamic keys), parsed once by Validate.
type MatchQueryConfig struct {
	Policies
	Queries map[string]string `key:",dynamic"`

	rules []rule
}

// Validate parses every query and reports each one that does not parse.
func (c *MatchQueryConfig) Validate() error {
	var errs []error
	c.rules = nil
	for _, k := range slices.Sorted(maps.Keys(c.Queries)) {
		v := c.Queries[k]
		q, err := Parse(v)
		if err != nil {
			errs = append(errs, fmt.Errorf("property %q: %w", k, err))
			continue
		}
		c.rules = append(c.rules, rule{name: k, text: v, query: q})
	}
	return errors.Join(errs...)
}

// MatchIPSpec declares MatchIP.
func MatchIPSpec() component.Spec {
	return component.ProcessorSpec(component.Spec{
		Name: MatchIPName,
		Summary: "Tags records whose IPv4 address field matches rules, as MatchQuery tags them. Each dynamic key is a rule's name and its " +
			"value FIELD:ADDRESS, FIELD:ADDRESS/BITS (a CIDR block, its network and broadcast addresses excluded, as Apache Commons' " +
			"SubnetUtils counts hosts) or FIELD:REGEX (any other value, RE2 syntax, matched at the start of the field's text). The field " +
			"must hold a dotted IPv4 address for the address and CIDR rules; regular-expression rules are tried only on records that " +
			"matched no address or CIDR rule, and each one that matches tags the record.",
		DynamicProperties: true,
		DynamicExamples:   map[string]string{"loopback": "src_ip:127.0.0.0/8", "local": "src_ip:192\\.168\\."},
		Properties:        commonProperties(),
	}, newMatchIP)
}

func newMatchIP(c *MatchIPConfig, _ component.Env) (component.Processor, error) {
	m := c.matcher()
	m.rules, m.reRules = c.rules, c.reRules
	return m, nil
}

// MatchIPConfig is MatchIP's configuration: the policies, and the rules by
// name (the dynamic keys), read once by Validate.
type MatchIPConfig struct {
	Policies
	Rules map[string]string `key:",dynamic"`

	rules, reRules []rule
}

var (
	ipSyntax   = regexp.MustCompile(`^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d+$`)
	cidrSyntax = regexp.MustCompile(`^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}/\d+$`)
)

// ipToLong is LogIsland's: the sum of each part times 256 to the power of
// its place, parts above 255 included.
func ipToLong(ip string) uint64 {
	var n uint64
	for _, p := range strings.Split(ip, ".") {
		v, _ := strconv.ParseUint(p, 10, 64)
		n = n*256 + v
	}
	return n
}

// Validate reads every rule: an address, a CIDR block or a regular
// expression, and reports each one that is none of them.
func (c *MatchIPConfig) Validate() error {
	var errs []error
	c.rules, c.reRules = nil, nil
	for _, k := range slices.Sorted(maps.Keys(c.Rules)) {
		v := c.Rules[k]
		field, val, ok := strings.Cut(v, ":")
		if !ok {
			errs = append(errs, fmt.Errorf("property %q: %q is not FIELD:ADDRESS, FIELD:CIDR or FIELD:REGEX", k, v))
			continue
		}
		r := rule{name: k, text: v, ipField: field, isIP: true}
		switch {
		case ipSyntax.MatchString(val):
			r.ipLo = ipToLong(val)
			r.ipHi = r.ipLo
			c.rules = append(c.rules, r)
		case cidrSyntax.MatchString(val):
			pfx, err := netip.ParsePrefix(val)
			if err != nil {
				errs = append(errs, fmt.Errorf("property %q: %q is not a CIDR block: %w", k, val, err))
				continue
			}
			r.ipLo, r.ipHi = hostRange(pfx)
			c.rules = append(c.rules, r)
		default:
			re, err := regexp.Compile(`^(?:` + val + `)`)
			if err != nil {
				errs = append(errs, fmt.Errorf("property %q: invalid regular expression: %w", k, err))
				continue
			}
			r.ipRe = re
			c.reRules = append(c.reRules, r)
		}
	}
	return errors.Join(errs...)
}

// hostRange returns the first and last host addresses of a block as
// SubnetUtils does without inclusiveHostCount: the network and broadcast
// addresses are left out, and a /31 or /32 has no host (0 to 0).
func hostRange(pfx netip.Prefix) (uint64, uint64) {
	a := pfx.Masked().Addr().As4()
	network := uint64(a[0])<<24 | uint64(a[1])<<16 | uint64(a[2])<<8 | uint64(a[3])
	size := uint64(1) << (32 - pfx.Bits())
	broadcast := network + size - 1
	if broadcast-network <= 1 {
		return 0, 0
	}
	return network + 1, broadcast - 1
}

// matches returns the rules r matches, in name order.
func (m *Matcher) matches(r *record.Record) []*rule {
	var out []*rule
	var doc *Doc
	for i := range m.rules {
		ru := &m.rules[i]
		if ru.isIP {
			v, ok := r.Get(ru.ipField)
			if !ok || v.IsNull() {
				continue
			}
			s := v.Text()
			if !ipSyntax.MatchString(s) {
				continue
			}
			if n := ipToLong(s); n >= ru.ipLo && n <= ru.ipHi {
				out = append(out, ru)
			}
			continue
		}
		if doc == nil {
			doc = NewDoc(r, m.numeric)
		}
		if ru.query.Match(doc) {
			out = append(out, ru)
		}
	}
	if len(out) > 0 {
		return out
	}
	for i := range m.reRules {
		ru := &m.reRules[i]
		if v, ok := r.Get(ru.ipField); ok && !v.IsNull() && ru.ipRe.MatchString(v.Text()) {
			out = append(out, ru)
		}
	}
	return out
}

// Process tags the matching records and drops or forwards the others.
func (m *Matcher) Process(_ context.Context, b *component.Batch) error {
	out := b.Records[:0:0]
	for _, r := range b.Records {
		hits := m.matches(r)
		if len(hits) == 0 {
			if m.forward {
				out = append(out, r)
			}
			continue
		}
		if !m.all {
			// LogIsland's "first" handler emits a copy per matching query.
			for i, h := range hits {
				c := r
				if i < len(hits)-1 {
					c = r.Clone()
				}
				m.tag(c)
				c.SetString(FieldMatchName, h.name)
				c.SetString(FieldMatchQuery, h.text)
				out = append(out, c)
			}
			continue
		}
		names := make([]string, len(hits))
		texts := make([]string, len(hits))
		for i, h := range hits {
			names[i], texts[i] = h.name, h.text
		}
		m.tag(r)
		r.Set(FieldMatchName, record.StringsValue(names))
		r.Set(FieldMatchQuery, record.StringsValue(texts))
		out = append(out, r)
	}
	b.Records = out
	return nil
}

func (m *Matcher) tag(r *record.Record) {
	if m.overwrite {
		r.SetType(m.outType)
	}
}
