package engine_test

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/weir-streams/weir/internal/engine"
	"github.com/weir-streams/weir/internal/streamtest"
)

// TestReadinessWaitsForTheGroup: while the broker refuses to let the
// stream's consumer join its group (the coordinator answers "not available",
// as a broker does during a coordinator move), the engine is not ready and
// says the stream has not joined; once joins are answered, it becomes ready.
// The broker is real (kfake); only its answer to joins is held back, through
// kfake's request control, because no real broker refuses joins on demand.
func TestReadinessWaitsForTheGroup(t *testing.T) {
	b := streamtest.StartBroker(t)
	b.CreateTopic(t, "raw", 2)
	var refuse atomic.Bool
	var refused atomic.Int64
	refuse.Store(true)
	for _, key := range []int16{int16(kmsg.JoinGroup), int16(kmsg.ConsumerGroupHeartbeat)} {
		b.Cluster.ControlKey(key, func(req kmsg.Request) (kmsg.Response, error, bool) {
			b.Cluster.KeepControl()
			if !refuse.Load() {
				return nil, nil, false
			}
			refused.Add(1)
			switch r := req.ResponseKind().(type) {
			case *kmsg.JoinGroupResponse:
				r.ErrorCode = kerr.CoordinatorNotAvailable.Code
				return r, nil, true
			case *kmsg.ConsumerGroupHeartbeatResponse:
				r.ErrorCode = kerr.CoordinatorNotAvailable.Code
				return r, nil, true
			}
			return nil, nil, false
		})
	}

	t0 := time.Unix(1000, 0)
	e := streamtest.StartEngine(t, engine.Settings{Workers: 1}, typedDataflow(b.Addr, t0, t0, "gen1"))
	deadline := time.Now().Add(30 * time.Second)
	for refused.Load() < 3 {
		if time.Now().After(deadline) {
			t.Fatalf("the consumer asked to join %d times in 30 s, want 3", refused.Load())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if e.Ready() {
		t.Fatal("engine ready although its stream's consumer was refused its group")
	}
	if why := e.NotReadyReason(); !strings.Contains(why, `stream parsing has not joined its consumer group`) {
		t.Fatalf("not-ready reason %q does not say the stream has not joined", why)
	}

	refuse.Store(false)
	deadline = time.Now().Add(60 * time.Second)
	for !e.Ready() {
		if time.Now().After(deadline) {
			t.Fatalf("engine not ready 60 s after joins were answered: %s", e.NotReadyReason())
		}
		time.Sleep(50 * time.Millisecond)
	}
}
