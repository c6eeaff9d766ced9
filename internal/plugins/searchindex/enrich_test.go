package searchindex_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/plugins/cache"
	"github.com/weir-streams/weir/internal/plugins/searchindex"
	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/testserver/zinc"
)

// seedWebshops indexes the reference documents the enrichment reads, as
// LogIsland's webanalytics job reads its openanalytics_webshops index, and
// waits until a search finds them all.
func seedWebshops(t *testing.T, srv *zinc.Server, svc *searchindex.Service) {
	t.Helper()
	docs := []*record.Record{
		record.New("fr-1000", "webshop", 1_700_000_000_000),
		record.New("de-2000", "webshop", 1_700_000_000_000),
	}
	docs[0].SetString("Company", "Orexad")
	docs[0].Set("employees", record.IntValue(250))
	docs[0].SetString("coverage_fr", "full")
	docs[1].SetString("Company", "Rubix DE")
	docs[1].SetString("coverage_de", "partial")
	c, err := svc.Index(context.Background(), docs, searchindex.Target{Index: "openanalytics_webshops", TimeBased: searchindex.TimeBasedNo})
	if err != nil {
		t.Fatal(err)
	}
	if failed, err := wait(t, c); err != nil || len(failed) > 0 {
		t.Fatalf("seed: %v %v", failed, err)
	}
	waitIDs(t, srv, "openanalytics_webshops", 2)
}

func zincService(t *testing.T, srv *zinc.Server) *searchindex.Service {
	return startService(t, nil, map[string]string{searchindex.KeyHosts: srv.ESURL(), searchindex.KeyUsername: zinc.User, searchindex.KeyPassword: zinc.Password})
}

func buildProc(t *testing.T, spec component.Spec, svcs services, kv map[string]string) component.Processor {
	t.Helper()
	conf, probs := component.NewConfig(&spec, kv)
	if err := probs.Err(); err != nil {
		t.Fatalf("configuration: %v", err)
	}
	p, err := spec.NewProcessor(conf, testEnv(t, "enrich", prometheus.NewRegistry(), svcs))
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	return p
}

func fieldText(r *record.Record, name string) string {
	v, ok := r.Get(name)
	if !ok {
		return "<absent>"
	}
	return v.Text()
}

// TestEnrichRecordsAgainstZinc runs EnrichRecordsElasticsearch with the keys
// of LogIsland's webanalytics.yml against a real ZincSearch.
func TestEnrichRecordsAgainstZinc(t *testing.T) {
	srv := zinc.New(t)
	svc := zincService(t, srv)
	seedWebshops(t, srv, svc)
	lru := cache.NewLRUService(component.Env{}, 100, time.Now)
	svcs := services{"opendistro_service": svc, "lru": lru}

	for _, tt := range []struct {
		name  string
		props map[string]string
		in    *record.Record
		want  map[string]string
	}{
		{"renamed field", map[string]string{"record.key": "${webshopId}", "es.includes.field": "CompanyFromERP:Company"},
			rec("webshopId", "fr-1000"), map[string]string{"CompanyFromERP": "Orexad", "Company": "<absent>", "employees": "<absent>"}},
		{"all fields as strings", map[string]string{"record.key": "${webshopId}"},
			rec("webshopId", "de-2000"), map[string]string{"Company": "Rubix DE", "coverage_de": "partial"}},
		{"includes from an expression", map[string]string{"record.key": "${webshopId}", "es.includes.field": "${'coverage:coverage_' + countryCode + ',employees'}"},
			rec("webshopId", "fr-1000", "countryCode", "fr"), map[string]string{"coverage": "full", "employees": "250", "Company": "<absent>"}},
		{"pattern and excludes", map[string]string{"record.key": "${webshopId}", "es.includes.field": "coverage*,Company", "es.excludes.field": "Company"},
			rec("webshopId", "fr-1000"), map[string]string{"coverage_fr": "full", "Company": "<absent>"}},
		{"through a cache", map[string]string{"record.key": "${webshopId}", "es.includes.field": "Company", "cache.service": "lru"},
			rec("webshopId", "de-2000"), map[string]string{"Company": "Rubix DE"}},
		{"document not found", map[string]string{"record.key": "${webshopId}"},
			rec("webshopId", "xx-0"), map[string]string{"Company": "<absent>"}},
		{"index that does not exist", map[string]string{"record.key": "${webshopId}", "es.index": "no_such_index"},
			rec("webshopId", "fr-1000"), map[string]string{"Company": "<absent>"}},
		{"no key: left alone", map[string]string{"record.key": "${webshopId}"},
			rec("other", "x"), map[string]string{"Company": "<absent>"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			props := map[string]string{"elasticsearch.client.service": "opendistro_service", "es.index": "openanalytics_webshops"}
			for k, v := range tt.props {
				props[k] = v
			}
			p := buildProc(t, searchindex.EnrichSpec(), svcs, props)
			b := &component.Batch{Records: []*record.Record{tt.in}}
			if err := p.Process(context.Background(), b); err != nil {
				t.Fatal(err)
			}
			if len(b.Records) != 1 || b.Records[0].HasErrors() {
				t.Fatalf("got %v", b.Records)
			}
			for k, v := range tt.want {
				if got := fieldText(b.Records[0], k); got != v {
					t.Errorf("%s = %q, want %q", k, got, v)
				}
			}
		})
	}
	if lru.Len() == 0 {
		t.Error("the cache service holds no document")
	}

	// An expression that fails makes an error record, with the reason.
	p := buildProc(t, searchindex.EnrichSpec(), svcs, map[string]string{"elasticsearch.client.service": "opendistro_service",
		"es.index": "openanalytics_webshops", "record.key": "${webshopId * 2}"})
	b := &component.Batch{Records: []*record.Record{rec("webshopId", "fr-1000"), rec("webshopId", 3)}}
	if err := p.Process(context.Background(), b); err != nil {
		t.Fatal(err)
	}
	if len(b.Records) != 2 || !b.Records[0].HasErrors() || !strings.Contains(strings.Join(b.Records[0].Errors(), ""), "expression_error") {
		t.Errorf("bad expression: %v", b.Records)
	}
}

// TestEnrichRecordsIndexDown: when the search index cannot answer, every
// record that needed a lookup becomes an error record with the reason.
func TestEnrichRecordsIndexDown(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there any more
	svc := startService(t, nil, map[string]string{searchindex.KeyHosts: "http://" + addr, searchindex.KeyRequestTimeout: "2000"})
	p := buildProc(t, searchindex.EnrichSpec(), services{"es": svc}, map[string]string{"elasticsearch.client.service": "es",
		"es.index": "ref", "record.key": "${k}"})
	b := &component.Batch{Records: []*record.Record{rec("k", "a"), rec("other", "b")}}
	if err := p.Process(context.Background(), b); err != nil {
		t.Fatal(err)
	}
	if len(b.Records) != 2 {
		t.Fatalf("got %d records, want 2: nothing is dropped", len(b.Records))
	}
	if errs := strings.Join(b.Records[0].Errors(), ""); !strings.Contains(errs, searchindex.ErrLookup) || !strings.Contains(errs, addr) {
		t.Errorf("record with a key: errors %q", errs)
	}
	if b.Records[1].HasErrors() {
		t.Errorf("record without a key: %v", b.Records[1].Errors())
	}
}

// TestMultiGetAgainstZinc runs MultiGetElasticsearch with the keys of
// LogIsland's retrieve-data-from-elasticsearch.yml.
func TestMultiGetAgainstZinc(t *testing.T) {
	srv := zinc.New(t)
	svc := zincService(t, srv)
	seedWebshops(t, srv, svc)
	p := buildProc(t, searchindex.MultiGetSpec(), services{"elasticsearch_service": svc}, map[string]string{
		"elasticsearch.client.service": "elasticsearch_service", "es.index.field": "index", "es.type.field": "type",
		"es.ids.field": "ids", "es.includes.field": "includes", "es.excludes.field": "excludes"})
	in := []*record.Record{
		rec("index", "openanalytics_webshops", "ids", "fr-1000, de-2000,missing", "includes", "Company,coverage*", "excludes", "coverage_de"),
		rec("index", "openanalytics_webshops", "ids", "de-2000", "type", "details"),
		rec("ids", "fr-1000"),                            // no index
		rec("index", "openanalytics_webshops", "ids", 3), // ids not a string
	}
	b := &component.Batch{Records: in}
	if err := p.Process(context.Background(), b); err != nil {
		t.Fatal(err)
	}
	var docs, bad []string
	for _, r := range b.Records {
		if r.HasErrors() {
			bad = append(bad, strings.Join(r.Errors(), ";"))
			continue
		}
		docs = append(docs, fieldText(r, "ids")+" "+fieldText(r, "type")+" "+fieldText(r, "Company")+" "+fieldText(r, "coverage_fr")+" "+fieldText(r, "coverage_de")+" "+fieldText(r, "index"))
	}
	want := []string{
		"fr-1000 _doc Orexad full <absent> openanalytics_webshops",
		"de-2000 _doc Rubix DE <absent> <absent> openanalytics_webshops",
		"de-2000 details Rubix DE <absent> partial openanalytics_webshops",
	}
	if strings.Join(docs, "\n") != strings.Join(want, "\n") {
		t.Errorf("documents:\n%s\nwant\n%s", strings.Join(docs, "\n"), strings.Join(want, "\n"))
	}
	if len(bad) != 2 || !strings.Contains(bad[0], "bad_record") || !strings.Contains(bad[0], "index") || !strings.Contains(bad[1], "ids") {
		t.Errorf("error records: %q", bad)
	}
}

func rec(kv ...any) *record.Record {
	r := record.New("id", "t", 0)
	for i := 0; i+1 < len(kv); i += 2 {
		switch v := kv[i+1].(type) {
		case string:
			r.SetString(kv[i].(string), v)
		case int:
			r.Set(kv[i].(string), record.IntValue(int64(v)))
		}
	}
	return r
}

// TestLookupFailsOnlyItsIndex: an index the server refuses fails only the
// records that asked it; the others are enriched.
func TestLookupFailsOnlyItsIndex(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /good/_search", func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprint(w, `{"hits":{"hits":[{"_index":"good-000001","_id":"a","_source":{"name":"Alice","n":7}}]}}`)
	})
	mux.HandleFunc("POST /bad/_search", func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, `{"error":{"type":"invalid_index_name_exception"},"status":400}`, http.StatusBadRequest)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	svc := startService(t, nil, map[string]string{searchindex.KeyHosts: srv.URL})
	p := buildProc(t, searchindex.EnrichSpec(), services{"es": svc}, map[string]string{"elasticsearch.client.service": "es",
		"es.index": "${idx}", "record.key": "${k}"})
	b := &component.Batch{Records: []*record.Record{rec("idx", "good", "k", "a"), rec("idx", "bad", "k", "a")}}
	if err := p.Process(context.Background(), b); err != nil {
		t.Fatal(err)
	}
	if b.Records[0].HasErrors() || fieldText(b.Records[0], "name") != "Alice" || fieldText(b.Records[0], "n") != "7" {
		t.Errorf("good index (an alias of good-000001): %v", b.Records[0])
	}
	if errs := strings.Join(b.Records[1].Errors(), ""); !strings.Contains(errs, searchindex.ErrLookup) || !strings.Contains(errs, "invalid_index_name_exception") {
		t.Errorf("bad index: errors %q", errs)
	}
}
