// Package searchindex holds Weir's search-index components: the
// SearchIndexClientService, a client of the `_bulk` API of Elasticsearch
// (7, 8, 9) and OpenSearch (1, 2, 3) built on net/http, its bulk writer,
// and the BulkAddSearchIndex processor that hands records to it.
//
// The client speaks the NDJSON `_bulk` wire format without `_type`, which
// every one of those servers accepts, and parses the per-item results
// itself: the official go-elasticsearch client refuses to talk to
// OpenSearch, and the bulk API is small enough that a client of its own
// costs less than a dependency per server family.
//
// The delivery contract is the one of component.Completion, as for the
// docdb service: a processor queues a batch's documents and registers a
// Completion; the writer groups documents from every processor into bulk
// requests of batch.size documents or bulk.size bytes, or whatever is queued
// every flush.interval, and the Completion is done only when the index has
// accepted every document (or refused some for good). Offsets are
// committed only after that, and a replay overwrites the same documents,
// whose _id is the record id.
package searchindex

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/delivery"
	"github.com/weir-streams/weir/internal/localfile"
	"github.com/weir-streams/weir/internal/metrics"
	"github.com/weir-streams/weir/internal/record"
)

// ServiceName is the identifier of the client service.
const ServiceName = "pkg.service.searchindex.SearchIndexClientService"

// Configuration keys of the service.
const (
	KeyHosts           = "hosts"
	KeyBatchSize       = "batch.size"
	KeyBulkSize        = "bulk.size"
	KeyFlush           = "flush.interval"
	KeyConcurrent      = "concurrent.requests"
	KeyNumRetry        = "num.retry"
	KeyBackoffPolicy   = "backoff.policy"
	KeyThrottlingDelay = "throttling.delay"
	KeyBackoffMax      = "backoff.max.delay"
	KeyRequestTimeout  = "request.timeout"
	KeyUsername        = "username"
	KeyPassword        = "password"
	KeyAPIKey          = "api.key"
	KeyTLSCA           = "tls.ca.file"
	KeyTLSCert         = "tls.cert.file"
	KeyTLSKey          = "tls.key.file"
	KeyTLSSkipVerify   = "tls.skip.verify"
	KeyGzip            = "gzip"
	KeyServiceIndex    = "default.index"
)

// Backoff policies, in LogIsland's spirit.
const (
	BackoffExponential = delivery.BackoffExponential
	BackoffConstant    = delivery.BackoffConstant
	BackoffNone        = delivery.BackoffNone
)

// ServiceSpec declares the SearchIndexClientService.
func ServiceSpec() component.Spec {
	return component.Spec{
		Name: ServiceName,
		Kind: component.KindService,
		Summary: "Client of the _bulk API of Elasticsearch 7-9 and OpenSearch 1-3 (plain HTTP, NDJSON), shared by every " +
			"BulkAddSearchIndex and BulkPut that names it: documents are sent in bulks of batch.size documents or " +
			"bulk.size bytes or every flush.interval, items refused for load are retried with backoff, items refused " +
			"for good become error records, and a batch is acknowledged to the stream only once every document has an outcome.",
		Provides: component.DatastoreCapability,
		Properties: []component.Property{
			{Key: KeyHosts, Description: "Base URLs of the cluster's nodes (http:// or https://, with a path prefix if the server has one), comma-separated; a request that cannot reach one goes to the next.", Required: true, Example: "http://127.0.0.1:9200", Validator: component.List(component.URL("http", "https"))},
			{Key: KeyBatchSize, Description: "Documents per bulk request at most.", Default: "1000", Validator: component.IntRange(1, 100_000)},
			{Key: KeyBulkSize, Description: "Bytes of NDJSON per bulk request at most (a single larger document is sent alone).", Default: "5242880", Validator: component.IntRange(1024, 1<<30)},
			{Key: KeyFlush, Description: "Milliseconds after which queued documents are sent even if the bulk is not full.", Default: "1000", Validator: component.IntRange(1, 3_600_000)},
			{Key: KeyConcurrent, Description: "Bulk requests in flight at once.", Default: "2", Validator: component.IntRange(1, 64)},
			{Key: KeyNumRetry, Description: "Retries of a document refused for load (429, 503, es_rejected_execution_exception) or of a failed request before the batch is reported unconfirmed; the stream then redelivers it, so nothing is lost.", Default: "8", Validator: component.IntRange(0, 1_000_000)},
			{Key: KeyBackoffPolicy, Description: "Delay between retries: exponential (throttling.delay doubled each retry up to backoff.max.delay, with jitter), constant (throttling.delay), none.", Default: BackoffExponential, Validator: component.Enum(BackoffExponential, BackoffConstant, BackoffNone)},
			{Key: KeyThrottlingDelay, Description: "Milliseconds of the first retry delay.", Default: "100", Validator: component.IntRange(1, 3_600_000)},
			{Key: KeyBackoffMax, Description: "Milliseconds of the longest retry delay (a Retry-After header may ask for longer, up to 5 minutes).", Default: "10000", Validator: component.IntRange(1, 3_600_000)},
			{Key: KeyRequestTimeout, Description: "Milliseconds one bulk request may take before it is abandoned and retried.", Default: "30000", Validator: component.IntRange(10, 3_600_000)},
			{Key: KeyUsername, Description: "User name for HTTP basic authentication."},
			{Key: KeyPassword, Description: "Password for HTTP basic authentication; never logged or shown.", Sensitive: true},
			{Key: KeyAPIKey, Description: "API key sent as `Authorization: ApiKey <value>` (the encoded form Elasticsearch returns); never logged or shown. Exclusive with username.", Sensitive: true},
			{Key: KeyTLSCA, Description: "PEM file of the certificate authorities that sign the servers' certificates (default: the system's)."},
			{Key: KeyTLSCert, Description: "PEM file of the client certificate, with tls.key.file."},
			{Key: KeyTLSKey, Description: "PEM file of the client certificate's private key, with tls.cert.file."},
			{Key: KeyTLSSkipVerify, Description: "Accept any server certificate (tests only: it allows interception).", Default: "false", Validator: component.Bool},
			{Key: KeyGzip, Description: "Send request bodies gzip-compressed (Content-Encoding: gzip), which Elasticsearch and OpenSearch accept.", Default: "false", Validator: component.Bool},
			{Key: KeyServiceIndex, Description: "Index of the documents written through BulkPut (datastore.client.service); BulkAddSearchIndex has its own. Without it, records given by BulkPut become error records.", Validator: IndexNameValidator},
		},
		Check:      checkService,
		NewService: newService,
	}
}

// checkService validates keys that must agree.
func checkService(conf component.Config) error {
	var errs []error
	user, pass, key := conf.String(KeyUsername), conf.String(KeyPassword), conf.String(KeyAPIKey)
	if pass != "" && user == "" {
		errs = append(errs, fmt.Errorf("property %q is set without %q", KeyPassword, KeyUsername))
	}
	if key != "" && user != "" {
		errs = append(errs, fmt.Errorf("properties %q and %q are exclusive: use one way to authenticate", KeyAPIKey, KeyUsername))
	}
	if (conf.String(KeyTLSCert) == "") != (conf.String(KeyTLSKey) == "") {
		errs = append(errs, fmt.Errorf("properties %q and %q go together", KeyTLSCert, KeyTLSKey))
	}
	tlsSet := conf.String(KeyTLSCA) != "" || conf.String(KeyTLSCert) != ""
	if tlsSet {
		https := false
		for _, h := range conf.List(KeyHosts) {
			https = https || strings.HasPrefix(h, "https://")
		}
		if !https {
			errs = append(errs, fmt.Errorf("TLS files are set but no host of %q uses https://", KeyHosts))
		}
	}
	return errors.Join(errs...)
}

// settings is the validated configuration of a service.
type settings struct {
	hosts          []string
	batchSize      int
	bulkSize       int
	flush          time.Duration
	concurrent     int
	numRetry       int
	backoff        delivery.Backoff
	requestTimeout time.Duration
	username       string
	password       string
	apiKey         string
	gzip           bool
	defaultIndex   string
}

func readSettings(conf component.Config) (settings, error) {
	s := settings{
		username:     conf.String(KeyUsername),
		password:     conf.String(KeyPassword),
		apiKey:       conf.String(KeyAPIKey),
		defaultIndex: conf.String(KeyServiceIndex),
	}
	for _, h := range conf.List(KeyHosts) {
		u, err := url.Parse(h)
		if err != nil || u.Host == "" {
			return s, fmt.Errorf("property %q: %q is not a URL", KeyHosts, h)
		}
		if u.User != nil {
			return s, fmt.Errorf("property %q: put credentials in %q and %q, not in the URL", KeyHosts, KeyUsername, KeyPassword)
		}
		s.hosts = append(s.hosts, strings.TrimRight(h, "/"))
	}
	if len(s.hosts) == 0 {
		return s, fmt.Errorf("property %q: no host", KeyHosts)
	}
	ints := []struct {
		key string
		dst *int
	}{{KeyBatchSize, &s.batchSize}, {KeyBulkSize, &s.bulkSize}, {KeyConcurrent, &s.concurrent}, {KeyNumRetry, &s.numRetry}}
	for _, it := range ints {
		n, err := conf.Int(it.key)
		if err != nil {
			return s, err
		}
		*it.dst = int(n)
	}
	var err error
	if s.flush, err = conf.Millis(KeyFlush); err != nil {
		return s, err
	}
	if s.requestTimeout, err = conf.Millis(KeyRequestTimeout); err != nil {
		return s, err
	}
	s.backoff.Policy = conf.String(KeyBackoffPolicy)
	if s.backoff.Initial, err = conf.Millis(KeyThrottlingDelay); err != nil {
		return s, err
	}
	if s.backoff.Max, err = conf.Millis(KeyBackoffMax); err != nil {
		return s, err
	}
	if s.gzip, err = conf.Bool(KeyGzip); err != nil {
		return s, err
	}
	return s, nil
}

// tlsConfig builds the client's TLS configuration from the TLS keys.
func tlsConfig(conf component.Config) (*tls.Config, error) {
	skip, err := conf.Bool(KeyTLSSkipVerify)
	if err != nil {
		return nil, err
	}
	tc := &tls.Config{MinVersion: tls.VersionTLS12, InsecureSkipVerify: skip} //nolint:gosec // opt-in, documented as tests only
	if ca := conf.String(KeyTLSCA); ca != "" {
		pem, err := localfile.Read(ca, localfile.PEM)
		if err != nil {
			return nil, fmt.Errorf("property %q: %w", KeyTLSCA, err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("property %q: %s holds no PEM certificate", KeyTLSCA, ca)
		}
		tc.RootCAs = pool
	}
	if cert := conf.String(KeyTLSCert); cert != "" {
		pair, err := localfile.KeyPair(cert, conf.String(KeyTLSKey))
		if err != nil {
			return nil, fmt.Errorf("properties %q and %q: %w", KeyTLSCert, KeyTLSKey, err)
		}
		tc.Certificates = []tls.Certificate{pair}
	}
	return tc, nil
}

// Service is the SearchIndexClientService: one HTTP client and one bulk
// writer, shared by every processor that names it. It is safe for
// concurrent use.
type Service struct {
	name         string
	w            *writer
	defaultIndex string
	log          *slog.Logger
	// lookupTimeout bounds one MultiGet request (request.timeout).
	lookupTimeout time.Duration
}

var _ component.Datastore = (*Service)(nil)

// newService builds the client and starts the writer. It does not wait for
// the cluster: one that is down at start is retried like one that goes
// down later.
func newService(_ context.Context, conf component.Config, env component.Env) (component.Service, error) {
	st, err := readSettings(conf)
	if err != nil {
		return nil, err
	}
	tc, err := tlsConfig(conf)
	if err != nil {
		return nil, err
	}
	log := env.Logger
	if log == nil {
		log = slog.Default()
	}
	log = log.With("service", env.Name)
	met := env.Metrics
	if met == nil {
		met = metrics.New(prometheus.NewRegistry())
	}
	transport := &http.Transport{
		Proxy:               http.ProxyFromEnvironment,
		TLSClientConfig:     tc,
		MaxIdleConnsPerHost: st.concurrent + 1,
		IdleConnTimeout:     90 * time.Second,
		ForceAttemptHTTP2:   true,
	}
	cl := &client{
		hosts:    st.hosts,
		http:     &http.Client{Transport: transport},
		username: st.username,
		password: st.password,
		apiKey:   st.apiKey,
		gzip:     st.gzip,
	}
	s := &Service{name: env.Name, defaultIndex: st.defaultIndex, log: log, lookupTimeout: st.requestTimeout}
	s.w = newWriter(writerConfig{
		client:         cl,
		batchSize:      st.batchSize,
		bulkSize:       st.bulkSize,
		flush:          st.flush,
		concurrent:     st.concurrent,
		numRetry:       st.numRetry,
		backoff:        st.backoff,
		requestTimeout: st.requestTimeout,
		log:            log,
		metrics:        newWriterMetrics(met, env.MetricLabels()),
	})
	log.Info("search-index client ready", "hosts", strings.Join(st.hosts, ","), "batch_size", st.batchSize,
		"bulk_size", st.bulkSize, "flush_interval_ms", st.flush.Milliseconds(), "concurrent_requests", st.concurrent,
		"auth", cl.authKind(), "gzip", st.gzip)
	return s, nil
}

// Target says which index each document of a batch goes to.
type Target struct {
	// Index is the index of records without an index field.
	Index string
	// TimeBased is TimeBasedNo, TimeBasedToday or TimeBasedYesterday.
	TimeBased string
	// Field, when set, names a record field whose value overrides Index.
	Field string
}

// Index queues the documents of recs for indexing into target and returns
// the Completion that is done when every document has an outcome. Records
// that cannot become a document (no id, an invalid index name from the
// index field) are refused at once in the Completion. It blocks while the
// writer's queue is full and returns ctx's error if ctx ends first.
func (s *Service) Index(ctx context.Context, recs []*record.Record, target Target) (component.Completion, error) {
	return s.w.put(ctx, recs, target)
}

// Put implements component.Datastore, for BulkPut: documents go to the
// service's default.index.
func (s *Service) Put(ctx context.Context, recs []*record.Record) (component.Completion, error) {
	return s.w.put(ctx, recs, Target{Index: s.defaultIndex, TimeBased: TimeBasedNo})
}

// PutTo implements component.CollectionDatastore, for BulkPut's
// default.collection, timebased.collection and collection.field: the
// collection is the index.
func (s *Service) PutTo(ctx context.Context, recs []*record.Record, t component.DatastoreTarget) (component.Completion, error) {
	index := t.Collection
	if index == "" {
		index = s.defaultIndex
	}
	tb := t.TimeBased
	if tb == "" {
		tb = TimeBasedNo
	}
	return s.w.put(ctx, recs, Target{Index: index, TimeBased: tb, Field: t.Field})
}

// Stats returns the service's counters since it started.
func (s *Service) Stats() Stats { return s.w.snapshot() }

// Close sends what is still queued, waiting at most until ctx ends.
// Completions still pending when ctx ends report an error, so their
// batches are not committed and are redelivered.
func (s *Service) Close(ctx context.Context) error {
	s.w.close(ctx)
	s.w.cfg.client.http.CloseIdleConnections()
	return nil
}
