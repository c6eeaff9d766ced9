// Package docdb holds Weir's document-database components: the
// DocDBControllerService, a MongoDB client service built on the official Go
// driver, its bulk writer, and the BulkPut processor that hands records to it.
//
// The delivery contract is the one of component.Completion: BulkPut queues a
// batch's documents with the service and registers a Completion; the
// service's writer groups documents from every processor and partition into
// bulk writes of batch.size documents, or whatever is queued every
// flush.interval, and the Completion is done only when the database has
// acknowledged every document of the batch (or refused some for good). The
// stream commits offsets only after that, so a crash loses nothing and a
// replay rewrites the same documents (upsert by record id).
package docdb

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"time"

	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
	"go.mongodb.org/mongo-driver/v2/mongo/readpref"
	"go.mongodb.org/mongo-driver/v2/mongo/writeconcern"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver/connstring"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/record"
)

// ServiceName is the identifier of the controller service.
const ServiceName = "pkg.service.docdb.DocDBControllerService"

// Capability is what the service provides, and what BulkPut's
// datastore.client.service asks for.
const Capability = component.DatastoreCapability

// Configuration keys of the service.
const (
	KeyURI          = "docdb.uri"
	KeyDatabase     = "docdb.db.name"
	KeyCollection   = "docdb.collection.name"
	KeyWriteConcern = "docdb.write.concern"
	KeyFlush        = "flush.interval"
	KeyBatchSize    = "batch.size"
	KeyBulkMode     = "docdb.bulk.mode"
	KeyWriteTimeout = "docdb.write.timeout"
)

// Write concern names, as the spec lists them.
const (
	Acknowledged        = "ACKNOWLEDGED"
	Unacknowledged      = "UNACKNOWLEDGED"
	Fsynced             = "FSYNCED"
	Journaled           = "JOURNALED"
	ReplicaAcknowledged = "REPLICA_ACKNOWLEDGED"
	Majority            = "MAJORITY"
)

// WriteConcerns lists the accepted write concern names.
var WriteConcerns = []string{Acknowledged, Unacknowledged, Fsynced, Journaled, ReplicaAcknowledged, Majority}

// Bulk modes.
const (
	// ModeUpsert replaces the document with the record's id, or inserts it:
	// a replay after a crash rewrites the same documents.
	ModeUpsert = "upsert"
	// ModeInsert inserts; a document whose id already exists is counted as
	// a duplicate and skipped, the rest of the bulk is written.
	ModeInsert = "insert"
)

// MaxDocumentSize is MongoDB's limit on one BSON document. Larger
// documents are refused before they are sent, so they never fail a bulk.
const MaxDocumentSize = 16 * 1024 * 1024

// ServiceSpec declares the DocDBControllerService.
func ServiceSpec() component.Spec {
	return component.ServiceSpec(component.Spec{
		Name: ServiceName,
		Summary: "MongoDB client service (official Go driver) with a bulk writer shared by every BulkPut processor: " +
			"documents are written in bulks of batch.size or every flush.interval, retried with backoff while the " +
			"database is unavailable, and acknowledged to the stream only once the database acknowledged them.",
		Provides: Capability,
		Properties: []component.Property{
			{Key: KeyURI, Description: "MongoDB connection URI (mongodb:// or mongodb+srv://). May hold credentials: it is never logged or shown.", Required: true, Sensitive: true, Example: "mongodb://127.0.0.1:27017/", Validator: URIValidator},
			{Key: KeyDatabase, Description: "Database name.", Required: true, Example: "weir", Validator: databaseName},
			{Key: KeyCollection, Description: "Collection name.", Required: true, Example: "events", Validator: collectionName},
			{Key: KeyWriteConcern, Description: "Write concern of every write: ACKNOWLEDGED {w:1}, UNACKNOWLEDGED {w:0} (no confirmation: offsets move once the write is sent), FSYNCED and JOURNALED {w:1, j:true}, REPLICA_ACKNOWLEDGED {w:2}, MAJORITY {w:\"majority\"}. It overrides any w or journal option of the URI.", Default: Acknowledged, Validator: component.Enum(WriteConcerns...)},
			{Key: KeyFlush, Description: "Milliseconds after which queued documents are written even if fewer than batch.size are queued.", Default: "2000", Validator: component.IntRange(1, 3_600_000)},
			{Key: KeyBatchSize, Description: "Documents per bulk write (MongoDB accepts at most 100000).", Default: "1000", Validator: component.IntRange(1, 100_000)},
			{Key: KeyBulkMode, Description: "upsert: replace the document with the record's id or insert it, so replays rewrite the same documents; insert: insert, counting and skipping documents whose id exists.", Default: ModeUpsert, Validator: component.Enum(ModeUpsert, ModeInsert)},
			{Key: KeyWriteTimeout, Description: "Milliseconds one bulk write attempt may take before it is abandoned and retried.", Default: "60000", Validator: component.IntRange(100, 3_600_000)},
		},
	}, newService)
}

// ServiceConfig is the DocDBControllerService's configuration.
type ServiceConfig struct {
	URI          string        `key:"docdb.uri"`
	Database     string        `key:"docdb.db.name"`
	Collection   string        `key:"docdb.collection.name"`
	WriteConcern string        `key:"docdb.write.concern"`
	Flush        time.Duration `key:"flush.interval"`
	BatchSize    int           `key:"batch.size"`
	BulkMode     string        `key:"docdb.bulk.mode"`
	WriteTimeout time.Duration `key:"docdb.write.timeout"`

	// wc is the driver's write concern, hosts the URI's, for the log.
	wc    *writeconcern.WriteConcern
	hosts []string
}

// Validate derives the driver's write concern and the URI's hosts, which
// the property validators have checked.
func (c *ServiceConfig) Validate() error {
	var err error
	if c.wc, err = WriteConcern(c.WriteConcern); err != nil {
		return fmt.Errorf("property %q: %w", KeyWriteConcern, err)
	}
	cs, err := parseURI(c.URI)
	if err != nil {
		return fmt.Errorf("property %q: %w", KeyURI, err)
	}
	c.hosts = cs.Hosts
	return nil
}

// sensitiveOptions are URI options whose values are secrets, redacted from
// validation messages like the password.
var sensitiveOptions = []string{"authmechanismproperties", "tlscertificatekeyfilepassword", "sslclientcertificatekeypassword"}

// URIValidator accepts a MongoDB connection URI the driver can parse. Its
// messages never echo the password or other secret options: the driver's
// parser quotes offending values, so they are redacted from its errors.
var URIValidator = component.NewValidator("MongoDB connection URI (mongodb:// or mongodb+srv://)", func(s string) error {
	_, err := parseURI(s)
	return err
})

// parseURI parses and validates a connection URI without network access: a
// mongodb+srv URI is checked in its mongodb:// form, because the driver
// resolves SRV and TXT records while parsing one.
func parseURI(s string) (*connstring.ConnString, error) {
	check := s
	switch {
	case strings.HasPrefix(s, "mongodb+srv://"):
		check = "mongodb://" + strings.TrimPrefix(s, "mongodb+srv://")
	case strings.HasPrefix(s, "mongodb://"):
	default:
		return nil, fmt.Errorf("URI scheme must be mongodb:// or mongodb+srv://")
	}
	cs, err := connstring.ParseAndValidate(check)
	if err != nil {
		return nil, fmt.Errorf("invalid MongoDB URI: %s", redact(err.Error(), s))
	}
	if len(cs.Hosts) == 0 {
		return nil, fmt.Errorf("MongoDB URI has no host")
	}
	return cs, nil
}

// redact removes the secrets of uri from msg: the password, in raw and
// unescaped forms, and the values of secret options.
func redact(msg, uri string) string {
	var secrets []string
	rest := uri[strings.Index(uri, "://")+3:]
	if at := strings.LastIndex(strings.SplitN(rest, "/", 2)[0], "@"); at >= 0 {
		if _, pw, ok := strings.Cut(rest[:at], ":"); ok && pw != "" {
			secrets = append(secrets, pw)
			if u, err := url.PathUnescape(pw); err == nil {
				secrets = append(secrets, u)
			}
		}
	}
	if _, q, ok := strings.Cut(uri, "?"); ok {
		for _, kv := range strings.Split(q, "&") {
			k, v, _ := strings.Cut(kv, "=")
			for _, so := range sensitiveOptions {
				if strings.EqualFold(k, so) && v != "" {
					secrets = append(secrets, v)
					if u, err := url.QueryUnescape(v); err == nil {
						secrets = append(secrets, u)
					}
				}
			}
		}
	}
	for _, sec := range secrets {
		if sec != "" {
			msg = strings.ReplaceAll(msg, sec, component.Redacted)
		}
	}
	// The parser reports a bad escape in the password with the escape it
	// found ("invalid URL escape %zz"), a piece of the password.
	if strings.Contains(msg, "password") {
		msg = "invalid password in user info (value not shown)"
	}
	return msg
}

// databaseName follows MongoDB's naming rules for databases.
var databaseName = component.NewValidator("MongoDB database name (no /\\. \"$*<>:|? or space, under 64 bytes)", func(s string) error {
	if s == "" {
		return fmt.Errorf("must not be empty")
	}
	if len(s) >= 64 {
		return fmt.Errorf("database name is %d bytes, MongoDB allows at most 63", len(s))
	}
	if i := strings.IndexAny(s, "/\\. \"$*<>:|?\x00"); i >= 0 {
		return fmt.Errorf("database name %q contains %q, which MongoDB does not allow", s, s[i:i+1])
	}
	return nil
})

var systemPrefix = regexp.MustCompile(`^system\.`)

// collectionName follows MongoDB's naming rules for collections.
var collectionName = component.NewValidator("MongoDB collection name (no $, not system.*)", func(s string) error {
	if strings.TrimSpace(s) == "" {
		return fmt.Errorf("must not be empty")
	}
	if strings.ContainsAny(s, "$\x00") {
		return fmt.Errorf("collection name %q contains $ or a NUL byte, which MongoDB does not allow", s)
	}
	if systemPrefix.MatchString(s) {
		return fmt.Errorf("collection name %q is in the reserved system. namespace", s)
	}
	return nil
})

// WriteConcern maps a write concern name of the spec to the driver's.
// FSYNCED maps like JOURNALED: MongoDB has treated fsync:true as j:true
// since journaling became the default, and the Go driver has no fsync.
func WriteConcern(name string) (*writeconcern.WriteConcern, error) {
	yes := true
	switch name {
	case Acknowledged:
		return &writeconcern.WriteConcern{W: 1}, nil
	case Unacknowledged:
		return &writeconcern.WriteConcern{W: 0}, nil
	case Fsynced, Journaled:
		return &writeconcern.WriteConcern{W: 1, Journal: &yes}, nil
	case ReplicaAcknowledged:
		return &writeconcern.WriteConcern{W: 2}, nil
	case Majority:
		return &writeconcern.WriteConcern{W: "majority"}, nil
	}
	return nil, fmt.Errorf("unknown write concern %q (want one of %s)", name, strings.Join(WriteConcerns, ", "))
}

// Datastore is what BulkPut needs from a datastore service: the docdb
// service implements it, and so does the search-index service. It is
// declared in component so that BulkPut and the services need not import
// each other.
type Datastore = component.Datastore

// Service is the DocDBControllerService: one MongoDB client and one bulk
// writer, shared by every BulkPut that names it. It is safe for concurrent
// use.
type Service struct {
	name   string
	client *mongo.Client
	w      *writer
	log    *slog.Logger

	closeOnce sync.Once
	closeErr  error
}

var _ Datastore = (*Service)(nil)

// newService connects the client and starts the writer. It does not wait
// for the database: a database that is down at start is retried like one
// that goes down later, so the dataflow starts and the streams wait.
func newService(ctx context.Context, conf *ServiceConfig, env component.Env) (component.Service, error) {
	// The service set names the service in its logger already.
	log := env.Log()
	met := env.Meters()

	opts := options.Client().ApplyURI(conf.URI).SetAppName("weir")
	if opts.ServerSelectionTimeout == nil {
		// The driver's default (30 s) made each write attempt against an
		// unreachable server wait 30 s; the writer retries with its own
		// backoff (100 ms to 5 s), so one attempt need not wait long. A URI
		// with serverSelectionTimeoutMS keeps its own value.
		opts.SetServerSelectionTimeout(serverSelection)
	}
	client, err := mongo.Connect(opts)
	if err != nil {
		return nil, fmt.Errorf("connect to MongoDB %s: %s", strings.Join(conf.hosts, ","), redact(err.Error(), conf.URI))
	}
	coll := client.Database(conf.Database).Collection(conf.Collection, options.Collection().SetWriteConcern(conf.wc))
	s := &Service{name: env.Name, client: client, log: log}
	s.w = newWriter(writerConfig{
		coll:         coll,
		mode:         conf.BulkMode,
		batchSize:    conf.BatchSize,
		flush:        conf.Flush,
		writeTimeout: conf.WriteTimeout,
		acknowledged: conf.wc.Acknowledged(),
		log:          log,
		metrics:      newWriterMetrics(met, env.MetricLabels()),
	})

	// A quick ping tells the operator at start whether the database is
	// reachable; failing it is not fatal (see above).
	pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := client.Ping(pctx, readpref.Primary()); err != nil {
		log.Warn("MongoDB not reachable yet; writes wait and retry until it is",
			"hosts", strings.Join(conf.hosts, ","), "db", conf.Database, "collection", conf.Collection, "error", redact(err.Error(), conf.URI))
	} else {
		log.Info("connected to MongoDB", "hosts", strings.Join(conf.hosts, ","), "db", conf.Database, "collection", conf.Collection,
			"write_concern", conf.WriteConcern, "bulk_mode", conf.BulkMode, "batch_size", conf.BatchSize, "flush_interval_ms", conf.Flush.Milliseconds())
	}
	return s, nil
}

// serverSelection bounds how long one write attempt looks for a server.
const serverSelection = 2 * time.Second

// Put implements Datastore.
func (s *Service) Put(ctx context.Context, recs []*record.Record) (component.Completion, error) {
	return s.w.put(ctx, recs)
}

// Stats returns the service's counters since it started.
func (s *Service) Stats() Stats { return s.w.snapshot() }

// Close writes what is still queued, waiting at most until ctx ends, then
// disconnects. Completions still pending when ctx ends report an error, so
// their batches are not committed and are redelivered. Later calls return
// the first call's result.
func (s *Service) Close(ctx context.Context) error {
	s.closeOnce.Do(func() {
		s.w.close(ctx)
		// The writer is done, so no operation holds a connection; the bound
		// only guards against a connection that never answers its close.
		dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		if err := s.client.Disconnect(dctx); err != nil {
			s.closeErr = fmt.Errorf("disconnect from MongoDB: %w", err)
		}
	})
	return s.closeErr
}
