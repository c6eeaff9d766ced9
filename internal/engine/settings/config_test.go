package settings

import (
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/component/configtest"
	"github.com/weir-streams/weir/internal/dataflow"
	"github.com/weir-streams/weir/internal/remote"
)

// TestEngineConfig decodes the engine's configurations from testdata and
// compares the Engine that Validate derives: the defaults, every key
// given, and the problems of keys that must agree, each at its key.
func TestEngineConfig(t *testing.T) {
	for _, tt := range []struct {
		id       string
		want     Engine
		wantKeys []string // the keys of the problems, in order
	}{
		{id: "defaults", want: Engine{AppName: "weir", Workers: runtime.GOMAXPROCS(0), BatchInterval: 200 * time.Millisecond, UIPort: 4050,
			Remote: remote.Settings{Dataflow: "weir", PollingRate: 5 * time.Second, PushRate: 30 * time.Second, Connect: 10 * time.Second, Socket: 10 * time.Second}}},
		{id: "full", want: Engine{AppName: "shop", Workers: 3, BatchInterval: time.Second, MaxRate: 5000, Timeout: time.Minute,
			MemoryLimit: 512 << 20, UIPort: 0,
			UI: UI{BindAddress: "127.0.0.1", Profiling: true, Tap: true, Username: "ops", Password: "ui-pass", CertFile: "/etc/weir/ui.pem", KeyFile: "/etc/weir/ui.key"},
			Remote: remote.Settings{BaseURL: "https://api.example.com/v1", Dataflow: "shop", PollingRate: 2 * time.Second, Connect: 3 * time.Second, Socket: 4 * time.Second,
				Token: "tok", CAFile: "/etc/weir/ca.pem", CertFile: "/etc/weir/client.pem", KeyFile: "/etc/weir/client.key",
				Policy: dataflow.RemotePolicy{AllowedPaths: []string{"/etc/weir", "/srv/lookup"}, AllowEmbedded: true}}}},
		{id: "ui_half_pairs", wantKeys: []string{KeyUIUsername, KeyUICert}},
		{id: "remote_conflicts", wantKeys: []string{remote.KeyAllowedPaths, remote.KeyBaseURL, remote.KeyUser, remote.KeyToken}},
	} {
		t.Run(tt.id, func(t *testing.T) {
			got, err := configtest.Decode[EngineConfig](Spec(), "testdata/config.yaml", tt.id)
			if tt.wantKeys != nil {
				ps, ok := err.(component.Problems)
				if !ok {
					t.Fatalf("error %v, want problems at %q", err, tt.wantKeys)
				}
				var keys []string
				for _, p := range ps {
					keys = append(keys, p.Key)
					if !strings.Contains(p.Msg, `property "`+p.Key+`"`) {
						t.Errorf("%q does not name its key %s", p.Msg, p.Key)
					}
				}
				if !reflect.DeepEqual(keys, tt.wantKeys) {
					t.Errorf("problems at %q, want %q: %v", keys, tt.wantKeys, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got.engine, tt.want) {
				t.Errorf("decoded\n%+v\nwant\n%+v", got.engine, tt.want)
			}
		})
	}
}
