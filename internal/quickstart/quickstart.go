// Package quickstart shows a newcomer the sample job working: once the job
// runs on the embedded broker, it feeds the bundled real access log into
// pipeline_raw (once: not again when the data directory already holds it),
// prints the first parsed records, and says how to reach the broker with
// any Kafka client.
package quickstart

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/weir-streams/weir/internal/engine"
)

// Options of the quickstart.
type Options struct {
	Log    []byte    // the lines to feed
	Show   int       // records of pipeline_events to print
	Out    io.Writer // where to print
	Input  string    // input topic
	Output string    // output topic
	Errors string    // error topic
}

// Feed returns an app.Options.OnStarted hook that feeds and shows.
func Feed(o Options) func(ctx context.Context, e *engine.Engine) error {
	return func(ctx context.Context, e *engine.Engine) error {
		addr := e.EmbeddedAddr()
		if addr == "" {
			return errors.New("quickstart needs the embedded broker: leave BROKER_LIST unset")
		}
		cl, err := kgo.NewClient(kgo.SeedBrokers(addr), kgo.ConsumeTopics(o.Output), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
		if err != nil {
			return fmt.Errorf("quickstart client: %w", err)
		}
		defer cl.Close()
		adm := kadm.NewClient(cl)
		ends, err := adm.ListEndOffsets(ctx, o.Input)
		if err != nil {
			return fmt.Errorf("read end offsets of %s: %w", o.Input, err)
		}
		var have int64
		ends.Each(func(lo kadm.ListedOffset) { have += lo.Offset })
		lines := split(o.Log)
		if have == 0 {
			start := time.Now()
			rs := make([]*kgo.Record, len(lines))
			for i, l := range lines {
				rs[i] = &kgo.Record{Topic: o.Input, Value: l}
			}
			if err := cl.ProduceSync(ctx, rs...).FirstErr(); err != nil {
				return fmt.Errorf("feed %s: %w", o.Input, err)
			}
			fmt.Fprintf(o.Out, "Fed %d real access-log lines into %s in %v.\n", len(lines), o.Input, time.Since(start).Round(time.Millisecond))
		} else {
			fmt.Fprintf(o.Out, "%s already holds %d lines (kept in the data directory); not feeding again.\n", o.Input, have)
		}

		fmt.Fprintf(o.Out, "First records on %s:\n", o.Output)
		shown := 0
		for shown < o.Show {
			f := cl.PollRecords(ctx, o.Show-shown)
			if ctx.Err() != nil {
				return nil
			}
			f.EachRecord(func(r *kgo.Record) {
				fmt.Fprintf(o.Out, "%s\n", r.Value)
				shown++
			})
		}
		fmt.Fprintf(o.Out, "\nThe embedded Kafka broker listens on %s. Any Kafka client reaches it, for example:\n"+
			"  kcat -b %s -C -t %s -o beginning -e | head\n"+
			"  echo 'not a log line' | kcat -b %s -P -t %s     # shows up on %s\n"+
			"Status: /healthz, /metrics and /api/status on the engine.ui.port. Ctrl-C stops.\n",
			addr, addr, o.Output, addr, o.Input, o.Errors)
		<-ctx.Done()
		return nil
	}
}

func split(b []byte) [][]byte {
	var out [][]byte
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		out = append(out, append([]byte(nil), sc.Bytes()...))
	}
	return out
}
