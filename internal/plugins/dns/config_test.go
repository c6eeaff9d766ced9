package dns

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/component/configtest"
)

// TestIpToFqdnConfig decodes IpToFqdn's configurations from testdata.
func TestIpToFqdnConfig(t *testing.T) {
	for _, tt := range []struct {
		id      string
		want    *IpToFqdnConfig
		wantErr string
	}{
		{id: "fqdn_defaults", want: &IpToFqdnConfig{IPField: "src_ip", FQDNField: "src_fqdn", CacheService: "lru_cache",
			CacheMaxSeconds: 86400, CacheFailureSeconds: 60, Timeout: time.Second, Concurrency: 64}},
		// overwrite.fqdn.field is an alias of override.fqdn.field.
		{id: "fqdn_full", want: &IpToFqdnConfig{IPField: "src_ip", FQDNField: "src_ip", Override: true, CacheService: "lru_cache",
			CacheFailureSeconds: 5, Timeout: 250 * time.Millisecond, Concurrency: 8, Servers: []string{"127.0.0.1:53", "[::1]:5353"}}},
		{id: "fqdn_bad_server", wantErr: `property "dns.servers"`},
		{id: "fqdn_no_failure_time", wantErr: `property "cache.failure.time"`},
		{id: "fqdn_no_cache", wantErr: `missing required property "cache.service"`},
	} {
		got, err := configtest.Decode[IpToFqdnConfig](IpToFqdnSpec(), "testdata/config.yaml", tt.id)
		switch {
		case tt.wantErr == "" && (err != nil || !reflect.DeepEqual(got, tt.want)):
			t.Errorf("%s: %+v, %v; want %+v", tt.id, got, err, tt.want)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("%s: error %v, want one containing %q", tt.id, err, tt.wantErr)
		}
	}
}
