package app_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/weir-streams/weir/internal/app"
	"github.com/weir-streams/weir/internal/config"
	"github.com/weir-streams/weir/internal/engine"
	"github.com/weir-streams/weir/internal/streamtest"
)

// job is a parsing job on the embedded broker, without a status server;
// extra is added to the engine's configuration.
func job(t *testing.T, extra string) *config.Job {
	t.Helper()
	yaml := `version: 1
engine:
  component: pkg.engine.engine.BrokerStreamProcessingEngine
  configuration:
    engine.app.name: app-test
    engine.streaming.batchDuration: 50
    engine.ui.port: -1
` + extra + `
streamConfigurations:
  - stream: parsing
    component: pkg.stream.engine.BrokerRecordStreamParallelProcessing
    configuration:
      broker.input.topics: raw
      broker.output.topics: events
      broker.error.topics: errors
      broker.metadata.broker.list: embedded
      broker.topic.default.partitions: 2
    processorConfigurations:
      - processor: parser
        component: pkg.processor.SplitText
        configuration:
          value.regex: ` + streamtest.ApacheRegex + `
          value.fields: src_ip,identd,user,record_time,http_method,http_query,http_version,http_status,bytes_out
`
	j, err := config.Parse([]byte(yaml), time.Unix(1, 0), func(string) (string, bool) { return "", false })
	if err != nil {
		t.Fatal(err)
	}
	return j
}

func options(t *testing.T) app.Options {
	return app.Options{Logger: streamtest.Logger(t), Registry: streamtest.Registry()}
}

var errSeen = errors.New("every record seen")

// TestRunProcessesUntilTheHookEnds runs a job on the embedded broker: the
// OnStarted hook feeds real lines and reads them back parsed, and its
// error stops the job and is what Run returns.
func TestRunProcessesUntilTheHookEnds(t *testing.T) {
	lines := streamtest.AccessLogLines(t)[:200]
	o := options(t)
	var got int
	o.OnStarted = func(ctx context.Context, e *engine.Engine) error {
		cl, err := kgo.NewClient(kgo.SeedBrokers(e.EmbeddedAddr()), kgo.ConsumeTopics("events"),
			kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
		if err != nil {
			return err
		}
		defer cl.Close()
		rs := make([]*kgo.Record, len(lines))
		for i, l := range lines {
			rs[i] = &kgo.Record{Topic: "raw", Value: []byte(l)}
		}
		if err := cl.ProduceSync(ctx, rs...).FirstErr(); err != nil {
			return err
		}
		for got < len(lines) {
			f := cl.PollFetches(ctx)
			if ctx.Err() != nil {
				return ctx.Err()
			}
			f.EachRecord(func(r *kgo.Record) {
				if strings.Contains(string(r.Value), `"src_ip"`) {
					got++
				}
			})
		}
		return errSeen
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := app.Run(ctx, job(t, ""), o); !errors.Is(err, errSeen) {
		t.Fatalf("Run = %v, want the hook's error", err)
	}
	if got != len(lines) {
		t.Fatalf("%d parsed records read back, want %d", got, len(lines))
	}
}

// TestRunStopsAtTheJobsTimeout: engine.streaming.timeout ends the job by
// itself, and that is not an error.
func TestRunStopsAtTheJobsTimeout(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := app.Run(ctx, job(t, "    engine.streaming.timeout: 300\n"), options(t)); err != nil {
		t.Fatalf("Run = %v, want nil at the job's timeout", err)
	}
	if ctx.Err() != nil {
		t.Fatal("the job ran until the test's own deadline")
	}
}

// TestRunRefusesAnInvalidJob: Run validates before it starts anything.
func TestRunRefusesAnInvalidJob(t *testing.T) {
	j := job(t, "    engine.master: local[0]\n")
	err := app.Run(context.Background(), j, options(t))
	if ps := config.AsProblems(err); len(ps) != 1 || !strings.Contains(ps[0].String(), "engine.master") {
		t.Fatalf("Run = %v, want one problem at engine.master", err)
	}
}

// TestStopBound is the batch interval plus five seconds
// (docs/operations.md).
func TestStopBound(t *testing.T) {
	if got := app.StopBound(200 * time.Millisecond); got != 5200*time.Millisecond {
		t.Fatalf("StopBound(200ms) = %v", got)
	}
}
