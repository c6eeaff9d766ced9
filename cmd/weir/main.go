// Command weir runs a Weir job: stream processing of records between Kafka
// topics, changed live without stopping. main only parses flags and wires
// packages; see README.md for the commands.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"runtime/debug"
	"runtime/pprof"
	"syscall"

	"github.com/weir-streams/weir"
	"github.com/weir-streams/weir/internal/app"
	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/config"
	"github.com/weir-streams/weir/internal/engine"
	"github.com/weir-streams/weir/internal/plugins/all"
	"github.com/weir-streams/weir/internal/plugins/useragent/uaparse"
	"github.com/weir-streams/weir/internal/quickstart"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = ""

// commit is the source revision, set at build time with -ldflags
// "-X main.commit=..." (scripts/image and scripts/release do).
var commit = ""

const usage = `weir: stream processing of records between Kafka topics, changed live.

Usage:
  weir --conf FILE                 run a job (same as weir run --conf FILE)
  weir run --conf FILE             run a job until interrupted or its timeout
  weir validate --conf FILE        report every problem of a job file, exit 1 if any
  weir quickstart                  run the sample job on the embedded broker, fed the bundled access log
  weir components                  list every component with its keys, defaults and docs (Markdown)
  weir useragent                   analyse user agents from stdin, one per line, one JSON object per line out
  weir version                     print the version

Flags of run and quickstart:
  --log-format text|json  --log-level debug|info|warn|error
  --data-dir DIR          where the embedded broker keeps topics and offsets (default data/kafka)
  --embedded-port N       port of the embedded broker on 127.0.0.1 (default 9092; 0 = free port)
  --cpuprofile FILE       write a CPU profile of the run (for go tool pprof)
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cmd := "run"
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		cmd, args = args[0], args[1:]
	}
	fs := flag.NewFlagSet("weir "+cmd, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage) }
	conf := fs.String("conf", "", "job file")
	logFormat := fs.String("log-format", "text", "text or json")
	logLevel := fs.String("log-level", "info", "debug, info, warn or error")
	dataDir := fs.String("data-dir", "data/kafka", "embedded broker data directory")
	port := fs.Int("embedded-port", 9092, "embedded broker port on 127.0.0.1")
	show := fs.Int("show", 5, "quickstart: records to print")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the run to this file")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	logger, err := newLogger(stderr, *logFormat, *logLevel)
	if err != nil {
		fmt.Fprintln(stderr, "weir:", err)
		return 2
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(stderr, "weir: --cpuprofile:", err)
			return 2
		}
		defer func() {
			pprof.StopCPUProfile()
			f.Close()
		}()
	}
	reg := all.NewRegistry()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	opts := app.Options{Logger: logger, Registry: reg, Embedded: engine.EmbeddedOptions{Port: *port, DataDir: *dataDir}}

	switch cmd {
	case "version":
		fmt.Fprintln(stdout, "weir", versionString())
		return 0
	case "components":
		if err := component.WriteReference(stdout, reg); err != nil {
			fmt.Fprintln(stderr, "weir:", err)
			return 1
		}
		return 0
	case "useragent":
		if err := uaparse.RunLines(stdin, stdout, uaparse.New(uaparse.Options{CacheSize: 10000})); err != nil {
			fmt.Fprintln(stderr, "weir useragent:", err)
			return 1
		}
		return 0
	case "validate":
		job, err := load(*conf, reg)
		if err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", *conf, err)
			return 1
		}
		fmt.Fprintf(stdout, "%s: valid (%d services, %d streams)\n", *conf, len(job.DataFlow.Services), len(job.DataFlow.Streams))
		return 0
	case "run":
		job, err := load(*conf, reg)
		if err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", *conf, err)
			return 1
		}
		if err := app.Run(ctx, job, opts); err != nil {
			logger.Error("job failed", "error", err)
			return 1
		}
		return 0
	case "quickstart":
		data, err := weir.Samples.ReadFile("conf/quickstart.yml")
		if err == nil {
			var job *config.Job
			job, err = config.Parse(data, config.StartTime(), os.LookupEnv)
			if err == nil {
				logLines, _ := weir.Samples.ReadFile("testdata/access-logs/apache_combined_10k.log")
				opts.OnStarted = quickstart.Feed(quickstart.Options{Log: logLines, Show: *show, Out: stdout,
					Input: "pipeline_raw", Output: "pipeline_events", Errors: "pipeline_errors"})
				err = app.Run(ctx, job, opts)
			}
		}
		if err != nil {
			logger.Error("quickstart failed", "error", err)
			return 1
		}
		return 0
	}
	fmt.Fprintf(stderr, "weir: unknown command %q\n\n%s", cmd, usage)
	return 2
}

// load reads and validates a job file: every problem at once.
func load(path string, reg *component.Registry) (*config.Job, error) {
	if path == "" {
		return nil, errors.New("no job file: give --conf FILE")
	}
	job, err := config.LoadFile(path)
	if err != nil {
		return nil, err
	}
	if err := config.Validate(job, reg); err != nil {
		return nil, err
	}
	return job, nil
}

func newLogger(w io.Writer, format, level string) (*slog.Logger, error) {
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("--log-level %q: want debug, info, warn or error", level)
	}
	o := &slog.HandlerOptions{Level: lv}
	switch format {
	case "text":
		return slog.New(slog.NewTextHandler(w, o)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, o)), nil
	}
	return nil, fmt.Errorf("--log-format %q: want text or json", format)
}

func versionString() string {
	if commit != "" {
		return versionOnly() + " (commit " + commit + ")"
	}
	return versionOnly()
}

func versionOnly() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}
