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

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/delivery"
	"github.com/weir-streams/weir/internal/localfile"
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
	return component.ServiceSpec(component.Spec{
		Name: ServiceName,
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
	}, newService)
}

// ServiceConfig is the SearchIndexClientService's configuration.
type ServiceConfig struct {
	Hosts           []string      `key:"hosts"`
	BatchSize       int           `key:"batch.size"`
	BulkSize        int           `key:"bulk.size"`
	Flush           time.Duration `key:"flush.interval"`
	Concurrent      int           `key:"concurrent.requests"`
	NumRetry        int           `key:"num.retry"`
	BackoffPolicy   string        `key:"backoff.policy"`
	ThrottlingDelay time.Duration `key:"throttling.delay"`
	BackoffMax      time.Duration `key:"backoff.max.delay"`
	RequestTimeout  time.Duration `key:"request.timeout"`
	Credentials
	TLS
	Gzip         bool   `key:"gzip"`
	DefaultIndex string `key:"default.index"`

	// hosts are the base URLs without a trailing slash.
	hosts []string
}

// Credentials are the keys of HTTP authentication: a user and password,
// or an API key.
type Credentials struct {
	Username string `key:"username"`
	Password string `key:"password"`
	APIKey   string `key:"api.key"`
}

// TLS are the keys of the client's TLS configuration.
type TLS struct {
	CAFile     string `key:"tls.ca.file"`
	CertFile   string `key:"tls.cert.file"`
	KeyFile    string `key:"tls.key.file"`
	SkipVerify bool   `key:"tls.skip.verify"`
}

// Validate checks the keys that must agree and reads the hosts' base URLs.
func (c *ServiceConfig) Validate() error {
	var errs []error
	if c.Password != "" && c.Username == "" {
		errs = append(errs, fmt.Errorf("property %q is set without %q", KeyPassword, KeyUsername))
	}
	if c.APIKey != "" && c.Username != "" {
		errs = append(errs, fmt.Errorf("properties %q and %q are exclusive: use one way to authenticate", KeyAPIKey, KeyUsername))
	}
	if (c.CertFile == "") != (c.KeyFile == "") {
		errs = append(errs, fmt.Errorf("properties %q and %q go together", KeyTLSCert, KeyTLSKey))
	}
	if c.CAFile != "" || c.CertFile != "" {
		https := false
		for _, h := range c.Hosts {
			https = https || strings.HasPrefix(h, "https://")
		}
		if !https {
			errs = append(errs, fmt.Errorf("TLS files are set but no host of %q uses https://", KeyHosts))
		}
	}
	c.hosts = nil
	for _, h := range c.Hosts {
		u, err := url.Parse(h)
		if err != nil || u.Host == "" {
			errs = append(errs, fmt.Errorf("property %q: %q is not a URL", KeyHosts, h))
			continue
		}
		if u.User != nil {
			errs = append(errs, fmt.Errorf("property %q: put credentials in %q and %q, not in the URL", KeyHosts, KeyUsername, KeyPassword))
			continue
		}
		c.hosts = append(c.hosts, strings.TrimRight(h, "/"))
	}
	if len(c.Hosts) == 0 {
		errs = append(errs, fmt.Errorf("property %q: no host", KeyHosts))
	}
	return errors.Join(errs...)
}

// config builds the client's TLS configuration, reading the files named.
func (t *TLS) config() (*tls.Config, error) {
	tc := &tls.Config{MinVersion: tls.VersionTLS12, InsecureSkipVerify: t.SkipVerify} //nolint:gosec // opt-in, documented as tests only
	if t.CAFile != "" {
		pem, err := localfile.Read(t.CAFile, localfile.PEM)
		if err != nil {
			return nil, fmt.Errorf("property %q: %w", KeyTLSCA, err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("property %q: %s holds no PEM certificate", KeyTLSCA, t.CAFile)
		}
		tc.RootCAs = pool
	}
	if t.CertFile != "" {
		pair, err := localfile.KeyPair(t.CertFile, t.KeyFile)
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
func newService(_ context.Context, conf *ServiceConfig, env component.Env) (component.Service, error) {
	tc, err := conf.TLS.config()
	if err != nil {
		return nil, err
	}
	// The service set names the service in its logger already.
	log := env.Log()
	met := env.Meters()
	transport := &http.Transport{
		Proxy:               http.ProxyFromEnvironment,
		TLSClientConfig:     tc,
		MaxIdleConnsPerHost: conf.Concurrent + 1,
		IdleConnTimeout:     90 * time.Second,
		ForceAttemptHTTP2:   true,
	}
	cl := &client{
		hosts:    conf.hosts,
		http:     &http.Client{Transport: transport},
		username: conf.Username,
		password: conf.Password,
		apiKey:   conf.APIKey,
		gzip:     conf.Gzip,
	}
	s := &Service{name: env.Name, defaultIndex: conf.DefaultIndex, log: log, lookupTimeout: conf.RequestTimeout}
	s.w = newWriter(writerConfig{
		client:         cl,
		batchSize:      conf.BatchSize,
		bulkSize:       conf.BulkSize,
		flush:          conf.Flush,
		concurrent:     conf.Concurrent,
		numRetry:       conf.NumRetry,
		backoff:        delivery.Backoff{Policy: conf.BackoffPolicy, Initial: conf.ThrottlingDelay, Max: conf.BackoffMax},
		requestTimeout: conf.RequestTimeout,
		log:            log,
		metrics:        newWriterMetrics(met, env.MetricLabels()),
	})
	log.Info("search-index client ready", "hosts", strings.Join(conf.hosts, ","), "batch_size", conf.BatchSize,
		"bulk_size", conf.BulkSize, "flush_interval_ms", conf.Flush.Milliseconds(), "concurrent_requests", conf.Concurrent,
		"auth", cl.authKind(), "gzip", conf.Gzip)
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
