package searchindex

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"path"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/expr"
	"github.com/weir-streams/weir/internal/plugins/cache"
	"github.com/weir-streams/weir/internal/record"
)

// Identifiers of the enrichment processors, LogIsland's.
const (
	EnrichName   = "pkg.processor.elasticsearch.EnrichRecordsElasticsearch"
	MultiGetName = "pkg.processor.elasticsearch.MultiGetElasticsearch"
)

// KeyESService is the key of the enrichment processors that names the
// search-index service (LogIsland's elasticsearch.client.service).
const KeyESService = "elasticsearch.client.service"

// ErrLookup is the error type of a record whose documents could not be
// fetched because the search index failed.
const ErrLookup = "search_lookup_error"

// ErrBadRecord is the error type of a record that lacks what a lookup needs
// (LogIsland's BAD_RECORD).
const ErrBadRecord = "bad_record"

var templateValidator = component.NewValidator("constant, or ${expression} (docs/expressions.md)", func(s string) error {
	_, err := expr.ParseTemplate(s)
	return err
})

// Lookup is the key the enrichment processors share: the service that
// answers their lookups.
type Lookup struct {
	Service string `key:"elasticsearch.client.service"`
}

func serviceProperty() component.Property {
	return component.Property{Key: KeyESService, Description: "Name of the search-index client service (" + ServiceName + ", or one of LogIsland's Elasticsearch client service names) that answers the lookups.",
		Required: true, Example: "search_client", Validator: component.NonEmpty, ServiceRef: component.DatastoreCapability}
}

// EnrichSpec declares EnrichRecordsElasticsearch.
func EnrichSpec() component.Spec {
	return component.ProcessorSpec(component.Spec{
		Name: EnrichName,
		Summary: "Enriches each record with fields of one document of the search index, fetched by id: record.key gives the id and " +
			"es.index the index (constants or ${expression}, evaluated per record). The batch's documents are fetched together, " +
			"with one request per index. Fields named by es.includes.field are set on the record as strings; NEW:FIELD sets the " +
			"document's FIELD as the record's NEW. A record whose id or index is empty is left alone; a record whose expression " +
			"fails becomes an error record (expression_error), and a record whose index the server failed to search becomes an error " +
			"record (" + ErrLookup + ") with the reason, so none goes on unenriched without a trace.",
		Properties: []component.Property{
			serviceProperty(),
			{Key: "record.key", Description: "Id of the document to fetch: a constant, or ${expression} such as ${webshopId}.", Required: true, Example: "${record_value}", Validator: templateValidator},
			{Key: "es.index", Description: "Index of the document: a constant, or ${expression}.", Required: true, Example: "reference", Validator: templateValidator},
			{Key: "es.type", Description: "Document type of Elasticsearch before 7, accepted for LogIsland's job files: the lookup ignores it.", Default: "_doc", Validator: templateValidator},
			{Key: "es.includes.field", Description: "Comma-separated document fields to set on the record (a constant, or ${expression} that gives the list): * for all, a pattern with * for several, NEW:FIELD to rename.",
				Default: "*", Validator: templateValidator},
			{Key: "es.excludes.field", Description: "Comma-separated document fields (patterns with *) never set on the record. N/A, LogIsland's default, excludes nothing.", Default: "N/A", Validator: component.NonEmpty},
			{Key: "cache.service", Description: "Name of a cache service that keeps the documents fetched, so that a later record with the same index and id needs no request. Unset: every batch asks the index.",
				ServiceRef: cache.Capability},
			{Key: "enrich.optional", Description: "When true, a record without an id to fetch is not logged.", Default: "false", Validator: component.Bool},
			{Key: "debug.filter", Description: "FIELD:REGEX: log the lookups of the records whose FIELD matches REGEX, at info level.",
				Validator: component.NewValidator("FIELD:REGEX", func(s string) error { _, _, err := debugFilter(s); return err })},
		},
	}, newEnrich)
}

// EnrichConfig is EnrichRecordsElasticsearch's configuration. Validate
// parses the templates, the excluded fields and the debug filter once.
type EnrichConfig struct {
	Lookup
	RecordKey    string `key:"record.key"`
	Index        string `key:"es.index"`
	Includes     string `key:"es.includes.field"`
	Excludes     string `key:"es.excludes.field"`
	CacheService string `key:"cache.service"`
	Optional     bool   `key:"enrich.optional"`
	DebugFilter  string `key:"debug.filter"`
	// The lookup ignores the document type (Elasticsearch before 7).
	_ struct{} `key:"es.type,ignored"`

	key, index, incl expr.Template
	excludes         []string
	debugField       string
	debugRe          *regexp.Regexp
}

// Validate parses what the keys hold.
func (c *EnrichConfig) Validate() error {
	var err error
	for _, t := range []struct {
		key, val string
		dst      *expr.Template
	}{{"record.key", c.RecordKey, &c.key}, {"es.index", c.Index, &c.index}, {"es.includes.field", c.Includes, &c.incl}} {
		if *t.dst, err = expr.ParseTemplate(t.val); err != nil {
			return fmt.Errorf("property %q: %w", t.key, err)
		}
	}
	c.excludes = nil
	if c.Excludes != "N/A" {
		c.excludes = component.SplitList(c.Excludes)
	}
	if c.DebugFilter != "" {
		if c.debugField, c.debugRe, err = debugFilter(c.DebugFilter); err != nil {
			return fmt.Errorf("property %q: %w", "debug.filter", err)
		}
	}
	return nil
}

func debugFilter(s string) (string, *regexp.Regexp, error) {
	k, re, ok := strings.Cut(s, ":")
	if !ok || k == "" {
		return "", nil, fmt.Errorf("%q is not FIELD:REGEX", s)
	}
	rx, err := regexp.Compile(re)
	if err != nil {
		return "", nil, fmt.Errorf("invalid regular expression: %w", err)
	}
	return k, rx, nil
}

// Enrich is EnrichRecordsElasticsearch. It holds only read-only state and is
// safe for concurrent use.
type Enrich struct {
	svc              Getter
	cache            cache.KeyValue
	key, index, incl expr.Template
	excludes         []string
	optional         bool
	debugField       string
	debugRe          *regexp.Regexp
	log              *slog.Logger
}

func newEnrich(conf *EnrichConfig, env component.Env) (component.Processor, error) {
	svc, err := component.ServiceFor[Getter](env, KeyESService, conf.Service, "a "+ServiceName)
	if err != nil {
		return nil, err
	}
	p := &Enrich{svc: svc, log: env.Log(), key: conf.key, index: conf.index, incl: conf.incl, excludes: conf.excludes,
		optional: conf.Optional, debugField: conf.debugField, debugRe: conf.debugRe}
	if conf.CacheService != "" {
		if p.cache, err = component.ServiceFor[cache.KeyValue](env, "cache.service", conf.CacheService, "a cache"); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// enrichment is what one record asks for.
type enrichment struct {
	r          *record.Record
	index, id  string
	includes   includeFields
	cached     *Document
	fromLookup bool
}

// Process fetches the documents of the batch and sets their fields.
func (p *Enrich) Process(ctx context.Context, b *component.Batch) error {
	var todo []enrichment
	byIndex := map[string]map[string]bool{}
	for _, r := range b.Records {
		id, index, incl, err := p.evaluate(r)
		if err != nil {
			r.AddError(ErrExpression, err.Error())
			continue
		}
		if strings.TrimSpace(id) == "" || index == "" {
			if !p.optional {
				p.log.Debug("record without a document to fetch", "record_id", r.ID, "index", index, "key", id)
			}
			continue
		}
		e := enrichment{r: r, index: index, id: id, includes: parseIncludes(incl)}
		if p.cache != nil {
			if v, ok := p.cache.Get(cache.Key{Space: "search_enrich", Name: index + "\x00" + id}); ok {
				d := v.(Document)
				e.cached = &d
			}
		}
		if e.cached == nil {
			if byIndex[index] == nil {
				byIndex[index] = map[string]bool{}
			}
			byIndex[index][id] = true
			e.fromLookup = true
		}
		p.debug(r, "requesting "+index+"/"+id)
		todo = append(todo, e)
	}
	found, failed, err := lookupAll(ctx, p.svc, byIndex)
	if err != nil {
		return err
	}
	for _, e := range todo {
		if msg, bad := failed[e.index]; bad && e.fromLookup {
			e.r.AddError(ErrLookup, msg)
		}
	}
	if len(failed) > 0 {
		p.log.Warn("search-index lookup failed: the records that needed it become error records", "indexes", len(failed))
	}
	if p.cache != nil {
		for k, d := range found {
			p.cache.Set(cache.Key{Space: "search_enrich", Name: k}, d, 0)
		}
	}
	for _, e := range todo {
		if e.r.HasErrors() {
			continue
		}
		d, ok := found[e.index+"\x00"+e.id]
		if e.cached != nil {
			d, ok = *e.cached, true
		}
		if !ok {
			continue
		}
		for _, name := range sortedSourceKeys(d.Source) {
			if !e.includes.includes(name) || matchesAny(p.excludes, name) {
				continue
			}
			to := name
			if m, ok := e.includes.mapping[name]; ok {
				to = m
			}
			p.debug(e.r, "enriching "+e.index+"/"+e.id+": "+to)
			e.r.SetString(to, sourceText(d.Source[name]))
		}
	}
	return nil
}

func (p *Enrich) evaluate(r *record.Record) (id, index, incl string, err error) {
	for _, t := range []struct {
		name string
		tpl  expr.Template
		dst  *string
	}{{"record.key", p.key, &id}, {"es.index", p.index, &index}, {"es.includes.field", p.incl, &incl}} {
		v, err := t.tpl.Eval(r)
		if err != nil {
			return "", "", "", fmt.Errorf("property %q: %w", t.name, err)
		}
		if !v.IsNull() {
			*t.dst = v.Text()
		}
	}
	return id, index, incl, nil
}

func (p *Enrich) debug(r *record.Record, msg string) {
	if p.debugRe == nil {
		return
	}
	v, ok := r.Get(p.debugField)
	if ok && p.debugRe.MatchString(v.Text()) {
		p.log.Info("EnrichRecordsElasticsearch: "+msg, p.debugField, v.Text())
	}
}

// lookupAll fetches the documents of every index, one request each, so
// that an index that fails (a name the server refuses, say) fails only the
// records that asked it. It returns the documents found by index and id,
// and the error of each index that failed; a non-nil error means ctx ended
// and the batch is abandoned.
func lookupAll(ctx context.Context, svc Getter, byIndex map[string]map[string]bool) (map[string]Document, map[string]string, error) {
	found := map[string]Document{}
	failed := map[string]string{}
	for _, req := range getRequests(byIndex) {
		docs, err := svc.MultiGet(ctx, []GetRequest{req})
		if err != nil {
			if ctx.Err() != nil {
				return nil, nil, ctx.Err()
			}
			failed[req.Index] = err.Error()
			continue
		}
		// Keyed by the index asked for: the answer names the index that
		// holds the document, which differs when the name is an alias.
		for _, d := range docs {
			found[req.Index+"\x00"+d.ID] = d
		}
	}
	return found, failed, nil
}

func getRequests(byIndex map[string]map[string]bool) []GetRequest {
	reqs := make([]GetRequest, 0, len(byIndex))
	for index, ids := range byIndex {
		req := GetRequest{Index: index}
		for id := range ids {
			req.IDs = append(req.IDs, id)
		}
		sort.Strings(req.IDs)
		reqs = append(reqs, req)
	}
	sort.Slice(reqs, func(i, j int) bool { return reqs[i].Index < reqs[j].Index })
	return reqs
}

// includeFields is LogIsland's es.includes.field: names, patterns with *,
// and NEW:FIELD renamings.
type includeFields struct {
	all      bool
	names    map[string]bool
	patterns []string
	mapping  map[string]string // document field -> record field
}

func parseIncludes(s string) includeFields {
	var inc includeFields
	items := component.SplitList(s)
	if len(items) == 0 {
		inc.all = true
		return inc
	}
	for _, it := range items {
		switch {
		case it == "*":
			inc.all = true
		case strings.Contains(it, ":"):
			to, from, _ := strings.Cut(it, ":")
			to, from = strings.TrimSpace(to), strings.TrimSpace(from)
			if to == "" || from == "" {
				continue
			}
			if inc.mapping == nil {
				inc.mapping = map[string]string{}
			}
			inc.mapping[from] = to
			inc.addName(from)
		case strings.Contains(it, "*"):
			inc.patterns = append(inc.patterns, it)
		default:
			inc.addName(it)
		}
	}
	return inc
}

func (inc *includeFields) addName(n string) {
	if inc.names == nil {
		inc.names = map[string]bool{}
	}
	inc.names[n] = true
}

func (inc includeFields) includes(name string) bool {
	if inc.all || inc.names[name] {
		return true
	}
	for _, p := range inc.patterns {
		// LogIsland turns * into .* and matches at the start of the name.
		if ok, _ := path.Match(p+"*", name); ok {
			return true
		}
	}
	return false
}

func matchesAny(patterns []string, name string) bool {
	for _, p := range patterns {
		if ok, _ := path.Match(p, name); ok {
			return true
		}
	}
	return false
}

func sortedSourceKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// sourceText renders a document value as the string LogIsland sets:
// strings as they are, numbers as written in the document, objects and
// arrays as JSON.
func sourceText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		return x.String()
	case nil:
		return ""
	case bool:
		if x {
			return "true"
		}
		return "false"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// MultiGetSpec declares MultiGetElasticsearch.
func MultiGetSpec() component.Spec {
	return component.ProcessorSpec(component.Spec{
		Name: MultiGetName,
		Summary: "Replaces each record, a query, by the documents it asks for: the record's es.index.field names the index and its " +
			"es.ids.field the comma-separated ids; es.includes.field and es.excludes.field, when the record has them, list the document " +
			"fields to keep and to drop (patterns with *). Each document found becomes a record with the index, type and id fields " +
			"(under the same names) and the document's fields as strings. A record without a string index or ids becomes an error " +
			"record (" + ErrBadRecord + ") and one whose lookup failed an error record (" + ErrLookup + "), both with the reason.",
		Properties: []component.Property{
			serviceProperty(),
			{Key: "es.index.field", Description: "Record field that holds the index to read.", Required: true, Example: "index", Validator: component.NonEmpty},
			{Key: "es.type.field", Description: "Record field that holds the document type (Elasticsearch before 7); it is copied to the output records, and the lookup ignores it.", Required: true, Example: "type", Validator: component.NonEmpty},
			{Key: "es.ids.field", Description: "Record field that holds the comma-separated document ids.", Required: true, Example: "ids", Validator: component.NonEmpty},
			{Key: "es.includes.field", Description: "Record field that holds the comma-separated document fields to keep (* patterns); absent: all.", Required: true, Example: "includes", Validator: component.NonEmpty},
			{Key: "es.excludes.field", Description: "Record field that holds the comma-separated document fields to drop (* patterns); absent: none.", Required: true, Example: "excludes", Validator: component.NonEmpty},
		},
	}, newMultiGet)
}

// MultiGetConfig is MultiGetElasticsearch's configuration: the names of
// the record fields that hold each query's parts.
type MultiGetConfig struct {
	Lookup
	IndexField    string `key:"es.index.field"`
	TypeField     string `key:"es.type.field"`
	IDsField      string `key:"es.ids.field"`
	IncludesField string `key:"es.includes.field"`
	ExcludesField string `key:"es.excludes.field"`
}

// MultiGet is MultiGetElasticsearch; safe for concurrent use.
type MultiGet struct {
	svc                               Getter
	indexF, typeF, idsF, inclF, exclF string
	log                               *slog.Logger
	now                               func() time.Time
}

func newMultiGet(conf *MultiGetConfig, env component.Env) (component.Processor, error) {
	svc, err := component.ServiceFor[Getter](env, KeyESService, conf.Service, "a "+ServiceName)
	if err != nil {
		return nil, err
	}
	return &MultiGet{svc: svc, indexF: conf.IndexField, typeF: conf.TypeField, idsF: conf.IDsField,
		inclF: conf.IncludesField, exclF: conf.ExcludesField, log: env.Logger, now: time.Now}, nil
}

type mgQuery struct {
	r          *record.Record
	index, typ string
	ids        []string
	incl, excl []string
	inclAll    bool
}

// Process replaces the batch with the documents found and the error
// records of the queries that failed.
func (p *MultiGet) Process(ctx context.Context, b *component.Batch) error {
	var out []*record.Record
	var queries []mgQuery
	byIndex := map[string]map[string]bool{}
	for _, r := range b.Records {
		index, ok := nonEmptyString(r, p.indexF)
		if !ok {
			r.AddError(ErrBadRecord, fmt.Sprintf("record must have the field %s containing the index name to use in the multiget query; this field must be of STRING type and cannot be empty", p.indexF))
			out = append(out, r)
			continue
		}
		ids, ok := nonEmptyString(r, p.idsF)
		if !ok {
			r.AddError(ErrBadRecord, fmt.Sprintf("record must have the field %s containing the ids to use in the multiget query; this field must be of STRING type and cannot be empty", p.idsF))
			out = append(out, r)
			continue
		}
		q := mgQuery{r: r, index: index, typ: "_doc", ids: component.SplitList(ids), inclAll: true}
		if v, ok := r.Get(p.typeF); ok && strings.TrimSpace(v.Text()) != "" {
			q.typ = v.Text()
		}
		if v, ok := r.Get(p.inclF); ok && !v.IsNull() {
			q.incl, q.inclAll = component.SplitList(v.Text()), false
		}
		if v, ok := r.Get(p.exclF); ok && !v.IsNull() {
			q.excl = component.SplitList(v.Text())
		}
		if byIndex[index] == nil {
			byIndex[index] = map[string]bool{}
		}
		for _, id := range q.ids {
			byIndex[index][id] = true
		}
		queries = append(queries, q)
	}
	if len(queries) > 0 {
		found, failed, err := lookupAll(ctx, p.svc, byIndex)
		if err != nil {
			return err
		}
		for _, q := range queries {
			if msg, bad := failed[q.index]; bad {
				q.r.AddError(ErrLookup, msg)
				out = append(out, q.r)
				continue
			}
			for _, id := range q.ids {
				d, ok := found[q.index+"\x00"+id]
				if !ok {
					continue
				}
				// The id derives from the query record and the document, so a
				// replay gives the same ids; the type is LogIsland's default.
				nr := record.New(q.r.ID+"/"+q.index+"/"+id, "generic", p.now().UnixMilli())
				nr.Origin = q.r.Origin
				nr.SetString(p.indexF, q.index)
				nr.SetString(p.typeF, q.typ)
				nr.SetString(p.idsF, id)
				for _, k := range sortedSourceKeys(d.Source) {
					if (!q.inclAll && !matchesAny(q.incl, k)) || matchesAny(q.excl, k) {
						continue
					}
					nr.SetString(k, sourceText(d.Source[k]))
				}
				out = append(out, nr)
			}
		}
	}
	b.Records = out
	return nil
}

func nonEmptyString(r *record.Record, name string) (string, bool) {
	v, ok := r.Get(name)
	if !ok {
		return "", false
	}
	s, ok := v.AsString()
	return s, ok && s != ""
}

// ErrExpression is the error type of a record whose expression failed
// (as the field kit's processors write it).
const ErrExpression = "expression_error"
