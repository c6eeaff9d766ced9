package searchindex

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/component/configtest"
	"github.com/weir-streams/weir/internal/expr"
)

// TestServiceConfig decodes the SearchIndexClientService's configurations
// from testdata: the keys with their credentials and TLS groups, and the
// hosts' base URLs Validate derives.
func TestServiceConfig(t *testing.T) {
	defaults := ServiceConfig{Hosts: []string{"http://127.0.0.1:9200"}, BatchSize: 1000, BulkSize: 5242880, Flush: time.Second, Concurrent: 2,
		NumRetry: 8, BackoffPolicy: BackoffExponential, ThrottlingDelay: 100 * time.Millisecond, BackoffMax: 10 * time.Second,
		RequestTimeout: 30 * time.Second, hosts: []string{"http://127.0.0.1:9200"}}
	apiKey := defaults
	apiKey.APIKey = "k3y-s3cret"
	for _, tt := range []struct {
		id      string
		want    *ServiceConfig
		wantErr []string
	}{
		{id: "service_defaults", want: &defaults},
		{id: "service_full", want: &ServiceConfig{Hosts: []string{"https://es1:9200/", "https://es2:9200/prefix"}, BatchSize: 500, BulkSize: 1 << 20,
			Flush: 250 * time.Millisecond, Concurrent: 4, NumRetry: 3, BackoffPolicy: BackoffConstant, ThrottlingDelay: 50 * time.Millisecond,
			BackoffMax: 2 * time.Second, RequestTimeout: 5 * time.Second,
			Credentials: Credentials{Username: "weir", Password: "pa55-s3cret"},
			TLS:         TLS{CAFile: "/etc/weir/ca.pem", CertFile: "/etc/weir/client.pem", KeyFile: "/etc/weir/client.key"},
			Gzip:        true, DefaultIndex: "apache_logs", hosts: []string{"https://es1:9200", "https://es2:9200/prefix"}}},
		{id: "service_api_key", want: &apiKey},
		{id: "service_disagreeing", wantErr: []string{`property "password" is set without "username"`,
			`properties "tls.cert.file" and "tls.key.file" go together`, `TLS files are set but no host of "hosts" uses https://`}},
		{id: "service_api_key_and_user", wantErr: []string{`properties "api.key" and "username" are exclusive`}},
		{id: "service_credentials_in_url", wantErr: []string{`property "hosts": put credentials in "username" and "password", not in the URL`}},
	} {
		t.Run(tt.id, func(t *testing.T) {
			got, err := configtest.Decode[ServiceConfig](ServiceSpec(), "testdata/config.yaml", tt.id)
			check(t, got, err, tt.want, tt.wantErr...)
		})
	}
}

// TestProcessorConfig decodes BulkAddSearchIndex's configurations from
// testdata.
func TestProcessorConfig(t *testing.T) {
	for _, tt := range []struct {
		id      string
		want    *ProcessorConfig
		wantErr string
	}{
		{id: "processor_defaults", want: &ProcessorConfig{Service: "search_service", Index: "apache_logs", TimeBased: TimeBasedNo}},
		{id: "processor_full", want: &ProcessorConfig{Service: "search_service", Index: "apache_logs", TimeBased: TimeBasedYesterday, IndexField: "search_index"}},
		{id: "processor_bad_index", wantErr: `property "default.index"`},
	} {
		t.Run(tt.id, func(t *testing.T) {
			got, err := configtest.Decode[ProcessorConfig](ProcessorSpec(), "testdata/config.yaml", tt.id)
			check(t, got, err, tt.want, tt.wantErr)
		})
	}
}

// TestEnrichConfig decodes EnrichRecordsElasticsearch's configurations
// from testdata, with the templates, exclusions and debug filter Validate
// reads from them.
func TestEnrichConfig(t *testing.T) {
	for _, tt := range []struct {
		id, parsed, wantErr string
		want                *EnrichConfig
	}{
		{id: "enrich_defaults", want: &EnrichConfig{Lookup: Lookup{Service: "search_service"}, RecordKey: "${webshopId}", Index: "reference",
			Includes: "*", Excludes: "N/A"},
			parsed: "key=${webshopId} index=reference incl=* excludes=[] debug=:<nil>"},
		{id: "enrich_full", want: &EnrichConfig{Lookup: Lookup{Service: "search_service"}, RecordKey: "${webshopId}", Index: "${shop_index}",
			Includes: "name, shop_name:name, address*", Excludes: "secret*, internal", CacheService: "lru_cache", Optional: true,
			DebugFilter: "webshopId:^debug-"},
			parsed: "key=${webshopId} index=${shop_index} incl=name, shop_name:name, address* excludes=[secret* internal] debug=webshopId:^debug-"},
		{id: "enrich_bad_filter", wantErr: `property "debug.filter"`},
	} {
		t.Run(tt.id, func(t *testing.T) {
			got, err := configtest.Decode[EnrichConfig](EnrichSpec(), "testdata/config.yaml", tt.id)
			if err == nil {
				if parsed := fmt.Sprintf("key=%s index=%s incl=%s excludes=%v debug=%s:%v", template(got.key), template(got.index),
					template(got.incl), got.excludes, got.debugField, got.debugRe); parsed != tt.parsed {
					t.Errorf("parsed %s, want %s", parsed, tt.parsed)
				}
				got.key, got.index, got.incl, got.excludes, got.debugField, got.debugRe = expr.Template{}, expr.Template{}, expr.Template{}, nil, "", nil
			}
			check(t, got, err, tt.want, tt.wantErr)
		})
	}
}

// template writes a parsed template as it was written.
func template(t expr.Template) string {
	if t.Prog == nil {
		return t.Const
	}
	return "${" + t.Prog.Source() + "}"
}

// TestMultiGetConfig decodes MultiGetElasticsearch's configurations from
// testdata.
func TestMultiGetConfig(t *testing.T) {
	for _, tt := range []struct {
		id      string
		want    *MultiGetConfig
		wantErr string
	}{
		{id: "multiget", want: &MultiGetConfig{Lookup: Lookup{Service: "search_service"}, IndexField: "index", TypeField: "type", IDsField: "ids",
			IncludesField: "includes", ExcludesField: "excludes"}},
		{id: "multiget_missing_ids", wantErr: `missing required property "es.ids.field"`},
	} {
		t.Run(tt.id, func(t *testing.T) {
			got, err := configtest.Decode[MultiGetConfig](MultiGetSpec(), "testdata/config.yaml", tt.id)
			check(t, got, err, tt.want, tt.wantErr)
		})
	}
}

// check compares a decoded configuration with what the case wants, or the
// error decoding gave with the parts it must contain (none: no error).
func check[C any](t *testing.T, got *C, err error, want *C, wantErr ...string) {
	t.Helper()
	if len(wantErr) > 0 && wantErr[0] != "" {
		for _, w := range wantErr {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Fatalf("error %v, want one containing %q", err, w)
			}
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("decoded\n%+v\nwant\n%+v", got, want)
	}
}
