package redis_test

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/plugins/redis"
	"github.com/weir-streams/weir/internal/record"
	redisserver "github.com/weir-streams/weir/internal/testserver/redis"
)

func startService(t *testing.T, props map[string]string) *redis.Service {
	t.Helper()
	spec := redis.ServiceSpec()
	conf, probs := component.NewConfig(&spec, props)
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	svc, err := spec.NewService(context.Background(), conf, component.Env{Name: "datastore_service"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = svc.Close(context.Background()) })
	return svc.(*redis.Service)
}

// TestRedisService stores and reads records on a real redis-server with
// the keys of LogIsland's threshold-alerting.yml.
func TestRedisService(t *testing.T) {
	srv := redisserver.New(t)
	ctx := context.Background()
	svc := startService(t, map[string]string{
		"connection.string": srv.Addr(), "redis.mode": "standalone", "database.index": "0", "communication.timeout": "10 seconds",
		"pool.max.total": "8", "pool.max.idle": "8", "pool.min.idle": "0", "pool.block.when.exhausted": "true",
		"pool.max.wait.time": "10 seconds", "pool.min.evictable.idle.time": "60 seconds", "pool.time.between.eviction.runs": "30 seconds",
		"pool.num.tests.per.eviction.run": "-1", "pool.test.on.create": "false", "pool.test.on.borrow": "false",
		"pool.test.on.return": "false", "pool.test.while.idle": "true", "record.recordSerializer": "com.hurence.logisland.serializer.JsonSerializer",
	})
	if err := svc.Start(ctx); err != nil {
		t.Fatal(err)
	}
	recs := []*record.Record{record.New("204.138.95.105", "apache_log", 1000), record.New("10.0.0.1", "apache_log", 2000)}
	recs[0].Set("record_value", record.FloatValue(7000.5))
	recs[1].SetString("http_method", "GET")
	c, err := svc.Put(ctx, recs)
	if err != nil {
		t.Fatal(err)
	}
	if failed, err := c.Wait(ctx); err != nil || len(failed) != 0 {
		t.Fatalf("put: %v %v", failed, err)
	}
	got, ok, err := svc.GetRecord(ctx, "204.138.95.105")
	if err != nil || !ok {
		t.Fatalf("get: %v %v", ok, err)
	}
	if v, _ := got.Get("record_value"); v.String() != "7000.5" || got.Type != "apache_log" || got.CreationDate != 1000 {
		t.Errorf("read back %v", got)
	}
	if _, ok, err := svc.GetRecord(ctx, "nobody"); ok || err != nil {
		t.Errorf("missing key: %v %v", ok, err)
	}
	if err := svc.RemoveRecord(ctx, "10.0.0.1"); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := svc.GetRecord(ctx, "10.0.0.1"); ok {
		t.Error("removed record still there")
	}

	// Bad data: a value that is not a JSON record is an error that says so.
	raw := goredis.NewClient(&goredis.Options{Addr: srv.Addr()})
	defer raw.Close()
	if err := raw.Set(ctx, "garbage", "not json", 0).Err(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := svc.GetRecord(ctx, "garbage"); err == nil || !strings.Contains(err.Error(), "not a JSON record") {
		t.Errorf("garbage: %v", err)
	}

	// The server stops: writes are not confirmed (the batch is redelivered)
	// and a start fails with the reason.
	srv.Stop()
	if _, err := svc.Put(ctx, recs); err == nil {
		t.Error("put with the server down: no error")
	}
	if err := svc.Start(ctx); err == nil {
		t.Error("start with the server down: no error")
	}
}

func TestRedisServiceConfiguration(t *testing.T) {
	spec := redis.ServiceSpec()
	for name, props := range map[string]map[string]string{
		"sentinel.master":           {"connection.string": "127.0.0.1:26379", "redis.mode": "sentinel"},
		"standalone mode takes one": {"connection.string": "127.0.0.1:1,127.0.0.1:2"},
		"time period":               {"connection.string": "127.0.0.1:1", "communication.timeout": "ten seconds"},
		"JsonSerializer":            {"connection.string": "127.0.0.1:1", "record.recordSerializer": "com.hurence.logisland.serializer.KryoSerializer"},
	} {
		_, probs := component.NewConfig(&spec, props)
		err := probs.Err()
		if err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%v: error %v, want one that names %s", props, err, name)
		}
	}
	for in, want := range map[string]time.Duration{"10 seconds": 10 * time.Second, "500 millis": 500 * time.Millisecond, "250": 250 * time.Millisecond, "1 min": time.Minute} {
		if got, err := redis.ParsePeriod(in); err != nil || got != want {
			t.Errorf("%q: %v %v", in, got, err)
		}
	}
	// A port nothing listens on: Start fails, Close still works.
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := ln.Addr().String()
	ln.Close()
	svc := startService(t, map[string]string{"connection.string": addr, "communication.timeout": "500 millis"})
	if err := svc.Start(context.Background()); err == nil {
		t.Error("start: no error")
	}
}
