package quickstart

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/weir-streams/weir"
	"github.com/weir-streams/weir/internal/app"
	"github.com/weir-streams/weir/internal/config"
)

// The sample job and the topics it reads and writes.
const (
	sampleJob    = "conf/quickstart.yml"
	sampleLog    = "testdata/access-logs/apache_combined_10k.log"
	sampleInput  = "pipeline_raw"
	sampleOutput = "pipeline_events"
	sampleErrors = "pipeline_errors"
)

// Run runs the bundled sample job on the embedded broker, feeds it the
// bundled access log and prints the first show records to out, until ctx
// ends. Variables of the sample job (BROKER_LIST, ...) come from the
// environment.
func Run(ctx context.Context, show int, out io.Writer, o app.Options) error {
	data, err := weir.Samples.ReadFile(sampleJob)
	if err != nil {
		return fmt.Errorf("read the sample job: %w", err)
	}
	job, err := config.Parse(data, config.StartTime(), os.LookupEnv)
	if err != nil {
		return fmt.Errorf("%s: %w", sampleJob, err)
	}
	lines, err := weir.Samples.ReadFile(sampleLog)
	if err != nil {
		return fmt.Errorf("read the sample log: %w", err)
	}
	o.OnStarted = Feed(Options{Log: lines, Show: show, Out: out, Input: sampleInput, Output: sampleOutput, Errors: sampleErrors})
	return app.Run(ctx, job, o)
}
