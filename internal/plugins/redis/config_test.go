package redis

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/component/configtest"
)

// TestServiceConfig decodes RedisKeyValueCacheService's configurations
// from testdata.
func TestServiceConfig(t *testing.T) {
	defaults := ServiceConfig{Mode: ModeStandalone, Timeout: "10 seconds", Redirects: 5, PoolMaxTotal: 8, PoolMaxIdle: 8,
		PoolMaxWait: "10 seconds", PoolIdleTime: "60 seconds", timeout: 10 * time.Second, poolWait: 10 * time.Second, poolIdle: time.Minute}
	with := func(f func(c *ServiceConfig)) *ServiceConfig {
		c := defaults
		f(&c)
		return &c
	}
	for _, tt := range []struct {
		id      string
		want    *ServiceConfig
		wantErr string
	}{
		{id: "defaults", want: with(func(c *ServiceConfig) { c.Connection = []string{"127.0.0.1:6379"} })},
		{id: "logisland", want: with(func(c *ServiceConfig) { c.Connection = []string{"sandbox:6379"} })},
		{id: "sentinel", want: with(func(c *ServiceConfig) {
			c.Connection, c.Mode, c.Sentinel, c.Database, c.Password = []string{"10.0.0.1:26379", "10.0.0.2:26379"}, ModeSentinel, "mymaster", 3, "s3cret"
			c.Timeout, c.PoolMaxWait, c.PoolIdleTime = "500 millis", "2 min", "1 hour"
			c.timeout, c.poolWait, c.poolIdle = 500*time.Millisecond, 2*time.Minute, time.Hour
		})},
		{id: "cluster", want: with(func(c *ServiceConfig) {
			c.Connection, c.Mode = []string{"10.0.0.1:7000", "10.0.0.2:7000", "10.0.0.3:7000"}, ModeCluster
			c.Redirects, c.PoolMaxTotal, c.PoolMinIdle = 2, 32, 4
		})},
		{id: "sentinel_without_master", wantErr: `property "sentinel.master" is required with redis.mode "sentinel"`},
		{id: "standalone_two_servers", wantErr: "standalone mode takes one"},
		{id: "bad_period", wantErr: `property "pool.max.wait.time"`},
	} {
		t.Run(tt.id, func(t *testing.T) {
			got, err := configtest.Decode[ServiceConfig](ServiceSpec(), "testdata/config.yaml", tt.id)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("decoded\n%+v\nwant\n%+v", got, tt.want)
			}
		})
	}
}
