package searchindex_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/config"
	"github.com/weir-streams/weir/internal/dataflow"
	"github.com/weir-streams/weir/internal/metrics"
	"github.com/weir-streams/weir/internal/plugins/docdb"
	"github.com/weir-streams/weir/internal/plugins/searchindex"
	servicesets "github.com/weir-streams/weir/internal/services"
	"github.com/weir-streams/weir/internal/streamtest"
	"github.com/weir-streams/weir/internal/testserver/zinc"
)

// TestValidationProblems: keys that are wrong alone or together are
// refused at validation with the component's path, and no message shows
// the password or the API key.
func TestValidationProblems(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(streamtest.Root(), "conf", "index-apache-logs-searchindex.yml"))
	if err != nil {
		t.Fatal(err)
	}
	const svcPath = "engine.controllerServiceConfigurations[search_service].configuration"
	for _, tc := range []struct {
		name, from, to, want string
	}{
		{"bad host scheme", "hosts: ${SEARCH_HOSTS}", "hosts: ftp://es:9200", "hosts"},
		{"password without user", "username: ${SEARCH_USER:-}", "username: \"\"", "is set without"},
		{"api key and user", "num.retry: 8", "num.retry: 8\n        api.key: k3y-s3cret", "exclusive"},
		{"cert without key", "num.retry: 8", "num.retry: 8\n        tls.cert.file: /etc/weir/client.pem", "go together"},
		{"TLS on http hosts", "num.retry: 8", "num.retry: 8\n        tls.ca.file: /etc/weir/ca.pem", "no host"},
		{"upper-case index", "default.index: apache_logs", "default.index: Apache", "default.index"},
		{"unknown time-based mode", "timebased.index: no", "timebased.index: weekly", "timebased.index"},
		{"bad backoff", "backoff.policy: exponential", "backoff.policy: linear", "backoff.policy"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(string(data), tc.from) {
				t.Fatalf("the sample job has no %q", tc.from)
			}
			job, err := config.Parse([]byte(strings.Replace(string(data), tc.from, tc.to, 1)), time.Now(), func(k string) (string, bool) {
				v, ok := map[string]string{"SEARCH_HOSTS": "http://127.0.0.1:9200", "SEARCH_USER": "weir", "SEARCH_PASSWORD": "pa55-s3cret"}[k]
				return v, ok
			})
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			_, err = config.Check(job, streamtest.Registry())
			probs := config.AsProblems(err)
			if len(probs) == 0 {
				t.Fatalf("validation = %v, want a problem", err)
			}
			found := false
			for _, p := range probs {
				msg := p.String()
				found = found || strings.Contains(msg, tc.want) && strings.Contains(msg, "configuration")
				for _, secret := range []string{"pa55-s3cret", "k3y-s3cret"} {
					if strings.Contains(msg, secret) {
						t.Fatalf("problem %q shows a secret", msg)
					}
				}
				t.Log(msg)
			}
			if !found {
				t.Fatalf("problems %v do not say %q with the path", err, tc.want)
			}
		})
	}
	// The path of a service problem.
	job, _ := config.Parse([]byte(strings.Replace(string(data), "hosts: ${SEARCH_HOSTS}", "hosts: ftp://es", 1)), time.Now(), func(string) (string, bool) { return "", false })
	_, cerr := config.Check(job, streamtest.Registry())
	if probs := config.AsProblems(cerr); len(probs) == 0 || probs[0].Path != svcPath {
		t.Fatalf("problems %v, want one at %s", probs, svcPath)
	}
}

// TestSecretsNotLogged: the password and API key never appear in the
// service's logs, even when every request is refused for authentication.
func TestSecretsNotLogged(t *testing.T) {
	srv := newESServer(t, func(int, []action) (int, map[string]string, []int) { return http.StatusUnauthorized, nil, nil })
	var logs bytes.Buffer
	for _, kv := range []map[string]string{
		{searchindex.KeyUsername: "weir", searchindex.KeyPassword: "pa55-s3cret"},
		{searchindex.KeyAPIKey: "k3y-s3cret"},
	} {
		spec := searchindex.ServiceSpec()
		raw := map[string]string{searchindex.KeyHosts: srv.URL, searchindex.KeyNumRetry: "1", searchindex.KeyThrottlingDelay: "5", searchindex.KeyFlush: "10"}
		for k, v := range kv {
			raw[k] = v
		}
		conf, probs := component.NewConfig(&spec, raw)
		if err := probs.Err(); err != nil {
			t.Fatal(err)
		}
		env := component.Env{Name: "search_service", Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
			Metrics: metrics.New(prometheus.NewRegistry())}
		svc, err := spec.NewService(context.Background(), conf, env)
		if err != nil {
			t.Fatal(err)
		}
		_, werr := wait(t, process(t, newIndexer(t, svc), records(2)))
		if werr == nil || !strings.Contains(werr.Error(), "HTTP 401") {
			t.Fatalf("Wait = %v, want the 401", werr)
		}
		if err := svc.Close(context.Background()); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(werr.Error(), "s3cret") {
			t.Fatalf("Wait error %q shows a secret", werr)
		}
	}
	if !strings.Contains(logs.String(), "401") {
		t.Fatalf("the logs do not show the refusal:\n%s", logs.String())
	}
	if strings.Contains(logs.String(), "s3cret") {
		t.Fatalf("the logs show a secret:\n%s", logs.String())
	}
}

// TestBulkPutThroughSearchIndex: BulkPut named with the search-index
// service (datastore.client.service) indexes into the service's
// default.index in a real ZincSearch; without default.index, its records
// become error records that say why.
func TestBulkPutThroughSearchIndex(t *testing.T) {
	srv := zinc.New(t)
	svc := startService(t, nil, map[string]string{
		searchindex.KeyHosts: srv.ESURL(), searchindex.KeyUsername: zinc.User, searchindex.KeyPassword: zinc.Password,
		searchindex.KeyServiceIndex: "bulkput_logs",
	})
	bp := newBulkPut(t, svc)
	recs := records(50)
	if failed, err := wait(t, process(t, bp, recs)); err != nil || len(failed) != 0 {
		t.Fatalf("Wait = %d failed, %v", len(failed), err)
	}
	ids := waitIDs(t, srv, "bulkput_logs", len(recs))
	for _, r := range recs {
		if ids[r.ID] != 1 {
			t.Fatalf("id %s in the index %d times", r.ID, ids[r.ID])
		}
	}
	doc, found, err := srv.Get("bulkput_logs", "r-7")
	if err != nil || !found || doc["src_ip"] != "10.0.0.7" {
		t.Fatalf("r-7 = %v, %v, %v", doc, found, err)
	}

	noIndex := startService(t, nil, map[string]string{searchindex.KeyHosts: srv.ESURL()})
	failed, err := wait(t, process(t, newBulkPut(t, noIndex), records(2)))
	if err != nil || len(failed) != 2 || !strings.Contains(errorsOf(failed[0]), "default.index") {
		t.Fatalf("Wait without default.index = %v, %v; want two error records that name default.index", failed, err)
	}
}

// TestIndexerRefusesOtherDatastores: BulkAddSearchIndex named with a
// datastore that is not the search-index service is refused at build with
// a message that says so.
func TestIndexerRefusesOtherDatastores(t *testing.T) {
	spec := searchindex.ProcessorSpec()
	conf, probs := component.NewConfig(&spec, map[string]string{searchindex.KeyService: "datastore_service", searchindex.KeyIndex: "x"})
	if err := probs.Err(); err != nil {
		t.Fatal(err)
	}
	_, err := spec.NewProcessor(conf, testEnv(t, "es_indexer", prometheus.NewRegistry(), services{"datastore_service": &docdb.Service{}}))
	if err == nil || !strings.Contains(err.Error(), "is not a "+searchindex.ServiceName) {
		t.Fatalf("build = %v, want a refusal naming the expected service", err)
	}
}

// newBulkPut builds docdb's BulkPut on svc through its spec.
func newBulkPut(t testing.TB, svc component.Service) component.Processor {
	t.Helper()
	spec := docdb.BulkPutSpec()
	conf, probs := component.NewConfig(&spec, map[string]string{docdb.KeyService: "search_service"})
	if err := probs.Err(); err != nil {
		t.Fatal(err)
	}
	p, err := spec.NewProcessor(conf, testEnv(t, "bulk_put", prometheus.NewRegistry(), services{"search_service": svc}))
	if err != nil {
		t.Fatalf("build BulkPut on the search-index service: %v", err)
	}
	return p
}

// TestBulkPutJobValidates: the sample job with BulkPut in place of
// BulkAddSearchIndex, naming the search-index service, validates (the
// service provides the datastore capability BulkPut asks for).
func TestBulkPutJobValidates(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(streamtest.Root(), "conf", "index-apache-logs-searchindex.yml"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	for _, r := range [][2]string{
		{"component: pkg.processor.searchindex.BulkAddSearchIndex", "component: pkg.processor.datastore.BulkPut"},
		{"search.client.service: search_service", "datastore.client.service: search_service"},
		{"            default.index: apache_logs\n", ""},
		{"            timebased.index: no\n", ""},
		{"num.retry: 8", "num.retry: 8\n        default.index: apache_logs"},
	} {
		if !strings.Contains(s, r[0]) {
			t.Fatalf("the sample job has no %q", r[0])
		}
		s = strings.Replace(s, r[0], r[1], 1)
	}
	job, err := config.Parse([]byte(s), time.Now(), func(k string) (string, bool) {
		v, ok := map[string]string{"SEARCH_HOSTS": "http://127.0.0.1:9200"}[k]
		return v, ok
	})
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	if _, err := config.Check(job, streamtest.Registry()); err != nil {
		t.Fatalf("validate BulkPut on the search-index service: %v", err)
	}
}

// TestServiceLogNamesItOnce: started in a service set, as the engine
// starts it, the service's log lines carry its name once (the set names
// it; a second "service" key would repeat it in text logs and make JSON
// logs hold a duplicate key).
func TestServiceLogNamesItOnce(t *testing.T) {
	spec := searchindex.ServiceSpec()
	conf, probs := component.NewConfig(&spec, map[string]string{searchindex.KeyHosts: "http://127.0.0.1:9"})
	if err := probs.Err(); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&buf, nil))
	confs := []dataflow.Configured{{Component: &dataflow.Component{Name: "search_service", Component: searchindex.ServiceName}, Spec: &spec, Config: conf}}
	set, err := servicesets.Start(context.Background(), confs, servicesets.Options{Logger: log, Metrics: metrics.New(prometheus.NewRegistry())})
	if err != nil {
		t.Fatal(err)
	}
	set.Close(context.Background())
	line, _, _ := strings.Cut(buf.String()[strings.Index(buf.String(), "search-index client ready"):], "\n")
	if n := strings.Count(line, "service=search_service"); n != 1 {
		t.Errorf("the service's name appears %d times in %q, want once", n, line)
	}
}
