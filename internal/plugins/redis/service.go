// Package redis holds RedisKeyValueCacheService, LogIsland's Redis
// datastore: records are stored as JsonSerializer objects under their id,
// written by BulkPut and read and updated by the alerting processors
// (ComputeTags, CheckThresholds, CheckAlerts). The client is
// github.com/redis/go-redis/v9.
package redis

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"strconv"
	"strings"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/serialize"
)

// ServiceName is the component identifier, LogIsland's.
const ServiceName = "pkg.redis.service.RedisKeyValueCacheService"

// Configuration keys, LogIsland's.
const (
	KeyConnection = "connection.string"
	KeyMode       = "redis.mode"
	KeyDatabase   = "database.index"
	KeyTimeout    = "communication.timeout"
	KeyRedirects  = "cluster.max.redirects"
	KeySentinel   = "sentinel.master"
	KeyPassword   = "password"
	KeySerializer = "record.recordSerializer"
)

// Modes of redis.mode.
const (
	ModeStandalone = "standalone"
	ModeSentinel   = "sentinel"
	ModeCluster    = "cluster"
)

// jsonSerializers are the names record.recordSerializer accepts: Weir's
// and LogIsland's JsonSerializer.
var jsonSerializers = []string{"pkg.serializer.JsonSerializer", "com.hurence.logisland.serializer.JsonSerializer"}

var periodRe = regexp.MustCompile(`^\s*(\d+)\s*([a-zA-Z]*)\s*$`)

// ParsePeriod reads a time period as LogIsland writes it ("10 seconds",
// "500 millis", "1 min"); a bare number is milliseconds.
func ParsePeriod(s string) (time.Duration, error) {
	m := periodRe.FindStringSubmatch(s)
	if m == nil {
		return 0, fmt.Errorf("%q is not a time period such as \"10 seconds\"", s)
	}
	n, err := strconv.ParseInt(m[1], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%q: %w", s, err)
	}
	var unit time.Duration
	switch strings.ToLower(m[2]) {
	case "", "ms", "milli", "millis", "millisecond", "milliseconds":
		unit = time.Millisecond
	case "s", "sec", "secs", "second", "seconds":
		unit = time.Second
	case "m", "min", "mins", "minute", "minutes":
		unit = time.Minute
	case "h", "hr", "hrs", "hour", "hours":
		unit = time.Hour
	case "d", "day", "days":
		unit = 24 * time.Hour
	default:
		return 0, fmt.Errorf("%q has an unknown time unit %q", s, m[2])
	}
	return time.Duration(n) * unit, nil
}

var periodValidator = component.NewValidator("time period, e.g. 10 seconds, 500 millis", func(s string) error {
	_, err := ParsePeriod(s)
	return err
})

var ignoredPool = "Accepted for LogIsland's job files and ignored: go-redis manages its pool by itself."

// ServiceSpec declares RedisKeyValueCacheService.
func ServiceSpec() component.Spec {
	return component.ServiceSpec(component.Spec{
		Name: ServiceName,
		Summary: "Stores records in Redis as JsonSerializer objects under their id (SET id json): BulkPut writes through it " +
			"(datastore.client.service), and ComputeTags, CheckThresholds and CheckAlerts read and update the records their formulas " +
			"name. Standalone, sentinel and cluster Redis are supported.",
		Provides: component.DatastoreCapability,
		Properties: []component.Property{
			{Key: KeyConnection, Description: "host:port of the Redis server; for sentinel, the sentinels' and for cluster the nodes' comma-separated host:port list.",
				Required: true, Example: "127.0.0.1:6379", Validator: component.HostPortList},
			{Key: KeyMode, Description: "standalone, sentinel or cluster.", Default: ModeStandalone, Validator: component.Enum(ModeStandalone, ModeSentinel, ModeCluster)},
			{Key: KeyDatabase, Description: "Database index (standalone and sentinel).", Default: "0", Validator: component.IntRange(0, 1<<20)},
			{Key: KeyTimeout, Description: "Time to connect, read and write, e.g. 10 seconds.", Default: "10 seconds", Validator: periodValidator},
			{Key: KeyRedirects, Description: "Most redirects a cluster command follows.", Default: "5", Validator: component.IntRange(0, 1000)},
			{Key: KeySentinel, Description: "Name of the master the sentinels watch (sentinel mode, required there)."},
			{Key: KeyPassword, Description: "Password of the Redis server (AUTH); never logged or shown.", Sensitive: true},
			{Key: "pool.max.total", Description: "Connections at most.", Default: "8", Validator: component.IntRange(1, 10_000)},
			{Key: "pool.max.idle", Description: "Idle connections kept at most.", Default: "8", Validator: component.IntRange(0, 10_000)},
			{Key: "pool.min.idle", Description: "Idle connections kept at least.", Default: "0", Validator: component.IntRange(0, 10_000)},
			{Key: "pool.block.when.exhausted", Description: "Wait for a free connection when all are busy (up to pool.max.wait.time); go-redis always waits.", Default: "true", Validator: component.Bool},
			{Key: "pool.max.wait.time", Description: "Time to wait for a free connection.", Default: "10 seconds", Validator: periodValidator},
			{Key: "pool.min.evictable.idle.time", Description: "Time after which an idle connection is closed.", Default: "60 seconds", Validator: periodValidator},
			{Key: "pool.time.between.eviction.runs", Description: ignoredPool, Default: "30 seconds", Validator: periodValidator},
			{Key: "pool.num.tests.per.eviction.run", Description: ignoredPool, Default: "-1", Validator: component.IntRange(-1<<31, 1<<31)},
			{Key: "pool.test.on.create", Description: ignoredPool, Default: "false", Validator: component.Bool},
			{Key: "pool.test.on.borrow", Description: ignoredPool, Default: "false", Validator: component.Bool},
			{Key: "pool.test.on.return", Description: ignoredPool, Default: "false", Validator: component.Bool},
			{Key: "pool.test.while.idle", Description: ignoredPool, Default: "true", Validator: component.Bool},
			{Key: KeySerializer, Description: "How records are stored: JsonSerializer (pkg.serializer.JsonSerializer, or LogIsland's class name), the only one Weir offers here.",
				Default: jsonSerializers[0], Validator: component.Enum(jsonSerializers...)},
		},
	}, newService)
}

// ServiceConfig is RedisKeyValueCacheService's configuration. The time
// periods are text as LogIsland writes them ("10 seconds"); Validate reads
// them once into durations.
type ServiceConfig struct {
	Connection   []string `key:"connection.string"`
	Mode         string   `key:"redis.mode"`
	Database     int      `key:"database.index"`
	Timeout      string   `key:"communication.timeout"`
	Redirects    int      `key:"cluster.max.redirects"`
	Sentinel     string   `key:"sentinel.master"`
	Password     string   `key:"password"`
	PoolMaxTotal int      `key:"pool.max.total"`
	PoolMaxIdle  int      `key:"pool.max.idle"`
	PoolMinIdle  int      `key:"pool.min.idle"`
	PoolMaxWait  string   `key:"pool.max.wait.time"`
	PoolIdleTime string   `key:"pool.min.evictable.idle.time"`
	// go-redis always waits for a free connection and manages its pool by
	// itself, and JsonSerializer is the only way records are stored: these
	// keys are accepted for LogIsland's job files and mean nothing here.
	_ struct{} `key:"pool.block.when.exhausted,ignored"`
	_ struct{} `key:"pool.time.between.eviction.runs,ignored"`
	_ struct{} `key:"pool.num.tests.per.eviction.run,ignored"`
	_ struct{} `key:"pool.test.on.create,ignored"`
	_ struct{} `key:"pool.test.on.borrow,ignored"`
	_ struct{} `key:"pool.test.on.return,ignored"`
	_ struct{} `key:"pool.test.while.idle,ignored"`
	_ struct{} `key:"record.recordSerializer,ignored"`

	timeout, poolWait, poolIdle time.Duration
}

// Validate checks the keys that depend on the mode and reads the periods.
func (c *ServiceConfig) Validate() error {
	if c.Mode == ModeSentinel && c.Sentinel == "" {
		return fmt.Errorf("property %q is required with %s %q", KeySentinel, KeyMode, ModeSentinel)
	}
	if c.Mode == ModeStandalone && len(c.Connection) > 1 {
		return fmt.Errorf("property %q lists several servers: standalone mode takes one", KeyConnection)
	}
	for _, it := range []struct {
		key, val string
		dst      *time.Duration
	}{{KeyTimeout, c.Timeout, &c.timeout}, {"pool.max.wait.time", c.PoolMaxWait, &c.poolWait}, {"pool.min.evictable.idle.time", c.PoolIdleTime, &c.poolIdle}} {
		d, err := ParsePeriod(it.val)
		if err != nil {
			return fmt.Errorf("property %q: %w", it.key, err)
		}
		*it.dst = d
	}
	return nil
}

// Service is RedisKeyValueCacheService; safe for concurrent use.
type Service struct {
	client goredis.UniversalClient
	log    *slog.Logger
}

var _ component.Datastore = (*Service)(nil)

func newService(_ context.Context, conf *ServiceConfig, env component.Env) (component.Service, error) {
	// The service set names the service in its logger already.
	log := env.Log()
	s := &Service{log: log}
	addrs := conf.Connection
	// Building connects to nothing: go-redis dials on the first command.
	switch conf.Mode {
	case ModeCluster:
		s.client = goredis.NewClusterClient(&goredis.ClusterOptions{Addrs: addrs, Password: conf.Password, MaxRedirects: conf.Redirects,
			DialTimeout: conf.timeout, ReadTimeout: conf.timeout, WriteTimeout: conf.timeout, PoolSize: conf.PoolMaxTotal, MaxIdleConns: conf.PoolMaxIdle,
			MinIdleConns: conf.PoolMinIdle, PoolTimeout: conf.poolWait, ConnMaxIdleTime: conf.poolIdle})
	case ModeSentinel:
		s.client = goredis.NewFailoverClient(&goredis.FailoverOptions{MasterName: conf.Sentinel, SentinelAddrs: addrs, Password: conf.Password,
			DB: conf.Database, DialTimeout: conf.timeout, ReadTimeout: conf.timeout, WriteTimeout: conf.timeout, PoolSize: conf.PoolMaxTotal,
			MaxIdleConns: conf.PoolMaxIdle, MinIdleConns: conf.PoolMinIdle, PoolTimeout: conf.poolWait, ConnMaxIdleTime: conf.poolIdle})
	default:
		s.client = goredis.NewClient(&goredis.Options{Addr: addrs[0], Password: conf.Password, DB: conf.Database,
			DialTimeout: conf.timeout, ReadTimeout: conf.timeout, WriteTimeout: conf.timeout, PoolSize: conf.PoolMaxTotal,
			MaxIdleConns: conf.PoolMaxIdle, MinIdleConns: conf.PoolMinIdle, PoolTimeout: conf.poolWait, ConnMaxIdleTime: conf.poolIdle})
	}
	log.Info("redis client ready", "mode", conf.Mode, "addrs", strings.Join(addrs, ","), "db", conf.Database)
	return s, nil
}

// Start checks that the server answers, so that a wrong address or
// password stops the job at start with a clear error.
func (s *Service) Start(ctx context.Context) error {
	if err := s.client.Ping(ctx).Err(); err != nil {
		return fmt.Errorf("redis: ping: %w", err)
	}
	return nil
}

// Close closes the client's connections; a second call does nothing.
func (s *Service) Close(context.Context) error {
	if err := s.client.Close(); err != nil && !errors.Is(err, goredis.ErrClosed) {
		return fmt.Errorf("redis: close: %w", err)
	}
	return nil
}

// Put stores every record under its id, in one pipeline, and returns a
// Completion that is already done: the records the server refused come
// back from Wait with the reason. It implements component.Datastore for
// BulkPut.
func (s *Service) Put(ctx context.Context, recs []*record.Record) (component.Completion, error) {
	if len(recs) == 0 {
		return done{}, nil
	}
	pipe := s.client.Pipeline()
	cmds := make([]*goredis.StatusCmd, len(recs))
	var buf []byte
	for i, r := range recs {
		buf = serialize.AppendRecordJSON(buf[:0], r)
		cmds[i] = pipe.Set(ctx, r.ID, string(buf), 0)
	}
	if _, err := pipe.Exec(ctx); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		var failed []*record.Record
		for i, c := range cmds {
			if c.Err() != nil {
				f := recs[i].Clone()
				f.AddError(record.ErrDatastoreWrite, "redis: "+c.Err().Error())
				failed = append(failed, f)
			}
		}
		if len(failed) == len(recs) && isConnError(err) {
			// The server cannot be reached: the batch is not confirmed,
			// so the stream redelivers it instead of failing records.
			return nil, fmt.Errorf("redis: write %d records: %w", len(recs), err)
		}
		return done{failed: failed}, nil
	}
	return done{}, nil
}

func isConnError(err error) bool {
	var ne interface{ Timeout() bool }
	return errors.As(err, &ne) || strings.Contains(err.Error(), "connection refused") || errors.Is(err, goredis.ErrClosed)
}

type done struct{ failed []*record.Record }

func (d done) Wait(context.Context) ([]*record.Record, error) { return d.failed, nil }

// GetRecord returns the record stored under id; ok is false when there is
// none.
func (s *Service) GetRecord(ctx context.Context, id string) (*record.Record, bool, error) {
	data, err := s.client.Get(ctx, id).Bytes()
	if errors.Is(err, goredis.Nil) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("redis: get %q: %w", id, err)
	}
	r := record.New(id, "", 0)
	if err := (serialize.JSON{}).Deserialize(r, nil, data); err != nil {
		return nil, false, fmt.Errorf("redis: the value of %q is not a JSON record: %w", id, err)
	}
	return r, true, nil
}

// PutRecord stores r under its id.
func (s *Service) PutRecord(ctx context.Context, r *record.Record) error {
	if err := s.client.Set(ctx, r.ID, string(serialize.AppendRecordJSON(nil, r)), 0).Err(); err != nil {
		return fmt.Errorf("redis: set %q: %w", r.ID, err)
	}
	return nil
}

// RemoveRecord deletes the record stored under id, if any.
func (s *Service) RemoveRecord(ctx context.Context, id string) error {
	if err := s.client.Del(ctx, id).Err(); err != nil {
		return fmt.Errorf("redis: del %q: %w", id, err)
	}
	return nil
}
