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
	"runtime/pprof"
	"strings"
	"syscall"

	"github.com/weir-streams/weir/internal/app"
	"github.com/weir-streams/weir/internal/broker"
	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/config"
	"github.com/weir-streams/weir/internal/installer"
	"github.com/weir-streams/weir/internal/plugins/all"
	"github.com/weir-streams/weir/internal/plugins/text"
	useragentproc "github.com/weir-streams/weir/internal/plugins/useragent"
	"github.com/weir-streams/weir/internal/plugins/useragent/uaparse"
	"github.com/weir-streams/weir/internal/quickstart"
	"github.com/weir-streams/weir/internal/status"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = ""

// commit is the source revision, set at build time with -ldflags
// "-X main.commit=..." (scripts/image and scripts/release do).
var commit = ""

const usage = `weir: stream processing of records between Kafka topics, changed live.

Usage:
  weir help [COMMAND]              this text, or one command's
  weir --conf FILE                 run a job (same as weir run --conf FILE)
  weir run --conf FILE [--watch]   run a job until interrupted or its timeout; --watch applies edits of FILE
  weir validate FILE...            report every problem of job files (or --conf FILE), exit 1 if any
  weir test [FILE|DIR...]          run a job's test files: messages in, expectations out, no broker
  weir run --dry-run --conf FILE [--input FILE|-] [--stream NAME]
                                   run lines through a stream's chain: outputs as JSON on stdout,
                                   error records on stderr, no broker
  weir quickstart                  run the sample job on the embedded broker, fed the bundled access log
  weir components [NAME]           every component's keys, defaults and docs (Markdown), or one's
  weir useragent [fields=A,B...]   analyse user agents from stdin, one per line, one JSON object per line out
  weir grok PATTERN [KEY=VALUE...] parse lines from stdin with a grok pattern, one JSON object of fields per line out
  weir tap [--stream S] [--errors] [--n N] [--url URL]
                                   samples of the records a running job writes (engine.ui.tap)
  weir version                     print the version
  weir -i G:A:V | -l | -r G:A      install, list, remove plugins (see below)

Flags of run and quickstart:
  --log-format text|json  --log-level debug|info|warn|error
  --data-dir DIR          where the embedded broker keeps topics and offsets (default data/kafka)
  --embedded-port N       port of the embedded broker on 127.0.0.1 (default 9092; 0 = free port)
  --remote-dir DIR        where the last dataflow applied from the REST API is kept, for a start
                          while the API is down (default data/remote)
  --cpuprofile FILE       write a CPU profile of the run (for go tool pprof)
  --max-job-bytes N       largest job file accepted (default 10485760, 10 MiB)

Installed plugins are read from $WEIR_HOME (default ~/.weir) by every command.

` + installer.CommandUsage

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// commandHelp is what `weir help CMD` and `weir CMD --help` print.
var commandHelp = map[string]string{
	"run": `Usage: weir run --conf FILE [--watch] [--log-format text|json] [--log-level LEVEL] [--data-dir DIR]
                [--embedded-port N] [--remote-dir DIR] [--max-job-bytes N] [--cpuprofile FILE]
       weir --conf FILE ...
       weir run --dry-run --conf FILE [--input FILE|-] [--stream NAME]

Runs the job of FILE until SIGINT/SIGTERM or engine.streaming.timeout. A stop waits for the
batch in flight at most the batch interval plus 5 s (docs/metrics.md). Exit 1 when the file
is refused or the job fails.

  --watch                 read FILE again each time it changes and apply what changed, as the REST
                          API's changes are applied: a stream whose processors changed has its chain
                          swapped without stopping, a change of services or stream keys restarts
                          the dataflow, a file that is not valid changes nothing (the reason is
                          logged). SIGHUP does the same once, with or without --watch. Engine keys
                          are read at start only. Not with remote.api.baseUrl (the API owns the
                          dataflow).
  --log-format text|json  --log-level debug|info|warn|error   the log on stderr
  --data-dir DIR          where the embedded broker keeps topics and offsets (default data/kafka)
  --embedded-port N       port of the embedded broker on 127.0.0.1 (default 9092; 0 = free port)
  --remote-dir DIR        where the last dataflow applied from the REST API is kept, for a start
                          while the API is down (default data/remote)
  --max-job-bytes N       largest job file accepted (default 10485760, 10 MiB)
  --cpuprofile FILE       write a CPU profile of the run (for go tool pprof)

--dry-run reads messages from --input (a file, or - or nothing for stdin), one per line: a raw
line for a stream whose input serializer is none, a JSON record for the JSON serializer. It
runs them through the chain of the stream (--stream NAME when the job has several), with no
broker, and prints each output record as one line of JSON on stdout and each error record on
stderr. Database and search-index services are replaced by stand-ins that accept every record,
so nothing is written anywhere (docs/testing-jobs.md). A dry run writes no log, so that stderr
holds only error records, unless --log-level or --log-format is given (to see DebugStream's
records, say): the log then shares stderr. A failure to run is one last line,
"weir run --dry-run: ...", and exit 1.
`,
	"validate": `Usage: weir validate FILE... [--max-job-bytes N]
       weir validate --conf FILE

Reports every problem of each job file at once, each with its line and key path. Exit 0 when
every file is valid, 1 otherwise.
`,
	"test": testHelp,
	"quickstart": `Usage: weir quickstart [--show N] [--log-format text|json] [--log-level LEVEL]
                       [--data-dir DIR] [--embedded-port N]

Runs the sample job on the embedded broker, feeds it the bundled access log and prints N
parsed records (default 5).
`,
	"components": `Usage: weir components [NAME]

Prints every component with its keys, defaults and documentation (Markdown, as
docs/components.md), or only the component NAME: its identifier (pkg.processor.SplitText) or
its last part (SplitText), in any case. The installer's subcommands (install, list, remove,
keygen, sign, publish) are listed at the end of weir help.
`,
	"useragent": `Usage: weir useragent [fields=A,B,...] [cache.size=N]

Reads user agents from stdin, one per line, and writes one JSON object per line: every
attribute, or those of fields in that order (the keys of pkg.processor.useragent.ParseUserAgent;
weir components ParseUserAgent lists the attribute names).
`,
	"grok": `Usage: weir grok PATTERN [KEY=VALUE...]

Reads lines on stdin and writes the fields a SplitText with value.regex PATTERN (grok or a
regular expression) and the given keys would set, one JSON object per line (docs/grok.md).
`,
	"version": `Usage: weir version

Prints the version.
`,
	"tap": tapHelp,
	"help": `Usage: weir help [COMMAND]

Prints the usage of weir, or of one command.
`,
}

// takesArgs lists the commands that read positional arguments.
var takesArgs = map[string]bool{"grok": true, "test": true, "validate": true, "components": true, "useragent": true}

// takesConf lists the commands that read --conf.
var takesConf = map[string]bool{"run": true, "validate": true}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if installer.IsCommand(args) {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		logger := slog.New(slog.NewTextHandler(stderr, nil))
		return installer.Command(ctx, args, installer.Env{Stdout: stdout, Stderr: stderr, Logger: logger, Registry: all.NewRegistry(), Version: versionString()})
	}
	if len(args) == 0 {
		// Nothing asked: say what can be asked, as a misuse.
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	cmd := "run"
	if len(args[0]) > 0 && args[0][0] != '-' {
		cmd, args = args[0], args[1:]
	}
	if cmd == "help" {
		switch {
		case len(args) == 0:
			fmt.Fprint(stdout, usage)
			return 0
		case len(args) > 1:
			fmt.Fprintf(stderr, "weir help: one command at a time, got %q\n", args)
			return 2
		}
		h, ok := commandHelp[args[0]]
		if !ok {
			fmt.Fprintf(stderr, "weir help: unknown command %q\n\n%s", args[0], usage)
			return 2
		}
		fmt.Fprint(stdout, h)
		return 0
	}
	if _, ok := commandHelp[cmd]; !ok {
		fmt.Fprintf(stderr, "weir: unknown command %q\n\n%s", cmd, usage)
		return 2
	}
	if cmd == "tap" {
		return tapCmd(args, stdout, stderr)
	}
	fs := flag.NewFlagSet("weir "+cmd, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {} // --help is answered below, on stdout; errors say what is wrong
	conf := fs.String("conf", "", "job file")
	logFormat := fs.String("log-format", "text", "text or json")
	logLevel := fs.String("log-level", "info", "debug, info, warn or error")
	dataDir := fs.String("data-dir", "data/kafka", "embedded broker data directory")
	port := fs.Int("embedded-port", 9092, "embedded broker port on 127.0.0.1")
	show := fs.Int("show", 5, "quickstart: records to print")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the run to this file")
	maxJobBytes := fs.Int64("max-job-bytes", config.DefaultMaxJobBytes, "largest job file accepted, in bytes")
	remoteDir := fs.String("remote-dir", "data/remote", "where the last dataflow applied from the REST API is kept")
	dryRunFlag := fs.Bool("dry-run", false, "run: run lines through the chain with no broker")
	watch := fs.Bool("watch", false, "run: apply the job file again each time it changes")
	input := fs.String("input", "", "run --dry-run: input file, - for stdin")
	streamName := fs.String("stream", "", "run --dry-run: the stream to run")
	junit := fs.String("junit", "", "test: also write the results as JUnit XML to this file")
	if err := parseFlags(fs, cmd, args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, commandHelp[cmd])
			return 0
		}
		fmt.Fprintf(stderr, "see weir help %s\n", cmd)
		return 2
	}
	if fs.NArg() > 0 && !takesArgs[cmd] {
		fmt.Fprintf(stderr, "weir %s: unexpected argument %q (see weir help %s)\n", cmd, fs.Arg(0), cmd)
		return 2
	}
	if msg := jobFlagsMisused(cmd, *dryRunFlag, *input, *streamName, *junit); msg != "" {
		fmt.Fprintf(stderr, "weir %s: %s (see weir help %s)\n", cmd, msg, cmd)
		return 2
	}
	if *watch && (cmd != "run" || *dryRunFlag) {
		fmt.Fprintf(stderr, "weir %s: --watch is used by weir run only, without --dry-run (see weir help run)\n", cmd)
		return 2
	}
	if *conf != "" && !takesConf[cmd] {
		fmt.Fprintf(stderr, "weir %s: --conf is not used by this command\n", cmd)
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
	if err := installer.RegisterInstalled(reg, installer.Home(""), logger); err != nil {
		logger.Warn("installed plugins", "error", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	opts := app.Options{Logger: logger, Registry: reg, Embedded: broker.Options{Port: *port, DataDir: *dataDir}, Version: version, Commit: commit, RemoteDir: *remoteDir}

	switch cmd {
	case "version":
		fmt.Fprintln(stdout, "weir", versionString())
		return 0
	case "components":
		return components(fs.Args(), reg, stdout, stderr)
	case "useragent":
		return useragent(fs.Args(), stdin, stdout, stderr)
	case "grok":
		if err := text.RunGrok(fs.Args(), stdin, stdout); err != nil {
			fmt.Fprintln(stderr, "weir grok:", err)
			return 1
		}
		return 0
	case "validate":
		files := fs.Args()
		if *conf != "" {
			files = append([]string{*conf}, files...)
		}
		if len(files) == 0 {
			fmt.Fprintln(stderr, "weir validate: no job file: give FILE... or --conf FILE (see weir help validate)")
			return 2
		}
		code := 0
		for _, f := range files {
			checked, err := load(f, *maxJobBytes, reg)
			if err != nil {
				fmt.Fprintf(stderr, "%s: %v\n", f, err)
				code = 1
				continue
			}
			fmt.Fprintf(stdout, "%s: valid (%d services, %d streams)\n", f, len(checked.Plan.Services), len(checked.Plan.Streams))
			if ig := checked.Job.Ignored; len(ig) > 0 {
				fmt.Fprintf(stdout, "%s: LogIsland keys with no Weir equivalent, ignored: %s\n", f, strings.Join(ig, ", "))
			}
			for _, w := range checked.Job.Warnings {
				fmt.Fprintf(stdout, "%s: warning: %s\n", f, w)
			}
			if rn := checked.Job.Renamed; len(rn) > 0 {
				fmt.Fprintf(stdout, "%s: names used twice, the later run under their position: %s\n", f, strings.Join(rn, "; "))
			}
		}
		return code
	case "test":
		return runTests(ctx, fs.Args(), *junit, *maxJobBytes, stdout, stderr, reg, logger)
	case "run":
		checked, err := load(*conf, *maxJobBytes, reg)
		if err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", confLabel(cmd, *conf), err)
			return 1
		}
		if *dryRunFlag {
			// stderr holds the error records as JSON lines: no log is
			// written between them unless a log flag asks for it (to see
			// DebugStream's records, say).
			dryLog := slog.New(slog.DiscardHandler)
			fs.Visit(func(f *flag.Flag) {
				if f.Name == "log-level" || f.Name == "log-format" {
					dryLog = logger
				}
			})
			return dryRun(ctx, checked, *input, *streamName, stdin, stdout, stderr, reg, dryLog)
		}
		opts.JobPath, opts.Watch, opts.MaxJobBytes = *conf, *watch, *maxJobBytes
		if err := app.RunChecked(ctx, checked, opts); err != nil {
			logger.Error("job failed", "error", err)
			return 1
		}
		return 0
	case "quickstart":
		if err := quickstart.Run(ctx, *show, stdout, opts); err != nil {
			logger.Error("quickstart failed", "error", err)
			return 1
		}
		return 0
	}
	fmt.Fprintf(stderr, "weir: unknown command %q\n\n%s", cmd, usage)
	return 2
}

// confLabel prefixes a message about the job file: its path, or the
// command when no path was given (never an empty prefix before a colon).
func confLabel(cmd, path string) string {
	if path == "" {
		return "weir " + cmd
	}
	return path
}

// load reads and validates a job file: every problem at once. The result
// is what the job runs from; it is not validated again.
func load(path string, maxBytes int64, reg *component.Registry) (*config.Checked, error) {
	if path == "" {
		return nil, errors.New("no job file: give --conf FILE")
	}
	return config.LoadChecked(path, maxBytes, reg)
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

// versionString is the version `weir version` prints, the one the status
// page and /api/status show (status.ReadBuild).
func versionString() string { return status.ReadBuild(version, commit).String() }

// components prints the reference of every component, or of the one
// named: its identifier, or the identifier's last part, in any case.
func components(args []string, reg *component.Registry, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		if err := component.WriteReference(stdout, reg); err != nil {
			fmt.Fprintln(stderr, "weir components:", err)
			return 1
		}
		return 0
	}
	if len(args) > 1 {
		fmt.Fprintf(stderr, "weir components: one component at a time, got %q (see weir help components)\n", args)
		return 2
	}
	name := args[0]
	var names []string
	for _, s := range reg.Specs() {
		short := s.Name[strings.LastIndexByte(s.Name, '.')+1:]
		if strings.EqualFold(s.Name, name) || strings.EqualFold(short, name) {
			if err := component.WriteSpecReference(stdout, s); err != nil {
				fmt.Fprintln(stderr, "weir components:", err)
				return 1
			}
			return 0
		}
		names = append(names, s.Name, short)
	}
	msg := fmt.Sprintf("weir components: no component %q", name)
	if sug := component.Suggest(name, names); sug != "" {
		msg += fmt.Sprintf("; did you mean %q?", sug)
	}
	fmt.Fprintln(stderr, msg+" (weir components lists them all)")
	return 1
}

// useragent analyses user agents from stdin with the keys of
// ParseUserAgent that make sense on the command line: fields and
// cache.size, validated as in a job file.
func useragent(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	values := map[string]string{useragentproc.KeyField: "stdin", useragentproc.KeyCacheSize: "10000"}
	for _, kv := range args {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			fmt.Fprintf(stderr, "weir useragent: argument %q: want KEY=VALUE (see weir help useragent)\n", kv)
			return 2
		}
		if k != useragentproc.KeyFields && k != useragentproc.KeyCacheSize {
			msg := fmt.Sprintf("weir useragent: key %q is not used here: give fields or cache.size", k)
			if sug := component.Suggest(k, []string{useragentproc.KeyFields, useragentproc.KeyCacheSize}); sug != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", sug)
			}
			fmt.Fprintln(stderr, msg)
			return 2
		}
		values[k] = v
	}
	spec := useragentproc.ParseUserAgentSpec()
	conf, probs := component.NewConfig(&spec, values)
	if err := probs.Err(); err != nil {
		fmt.Fprintln(stderr, "weir useragent:", err)
		return 2
	}
	c, err := component.Typed[useragentproc.ParseUserAgentConfig](conf)
	if err != nil {
		fmt.Fprintln(stderr, "weir useragent:", err)
		return 2
	}
	a := uaparse.New(uaparse.Options{CacheSize: c.CacheSize})
	if err := uaparse.RunLinesFields(stdin, stdout, a, c.Fields); err != nil {
		fmt.Fprintln(stderr, "weir useragent:", err)
		return 1
	}
	return 0
}
