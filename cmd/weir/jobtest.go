package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/config"
	"github.com/weir-streams/weir/internal/jobtest"
)

// testHelp is what `weir test --help` prints.
const testHelp = `Usage: weir test [--junit FILE] [FILE or DIR ...]

Runs the test files of jobs (docs/testing-jobs.md): each test feeds messages to a stream's
processor chain, or a range of it, in process with no broker, and checks what comes out:
the topic (output, error or a topic name), field equals / matches / exists / absent, the type
of a field, the number of records, the records a database or search index stored. Services
that reach the network (reverse DNS through a cache, MongoDB, the search index) answer from
the canned answers declared in the test file; a test never reaches the network.

A DIR gives every *.test.yml and *.test.yaml under it; no argument means the current
directory. A test file names its job with "job:", or is named JOB.test.yml beside JOB.yml.

Prints one line per test, each difference of a failed test with its line and the record,
and a summary line. --junit FILE also writes the results as JUnit XML, which CI systems
read (GitLab, Jenkins, GitHub Actions through a test-report action, Azure Pipelines).
Exit 0 when every test passed, 1 when one failed or could not run, 2 on a usage error.
`

// runTests is `weir test`.
func runTests(ctx context.Context, args []string, junit string, maxJobBytes int64, stdout, stderr io.Writer, reg *component.Registry, logger *slog.Logger) int {
	paths, err := jobtest.FindFiles(args)
	if err != nil {
		fmt.Fprintln(stderr, "weir test:", err)
		return 2
	}
	s := jobtest.Run(ctx, paths, jobtest.RunOptions{Registry: reg, Logger: logger, MaxJobBytes: maxJobBytes})
	if err := jobtest.WriteText(stdout, s); err != nil {
		fmt.Fprintln(stderr, "weir test:", err)
		return 1
	}
	if junit != "" {
		if err := writeJUnit(junit, s); err != nil {
			fmt.Fprintln(stderr, "weir test:", err)
			return 1
		}
	}
	if !s.OK() {
		return 1
	}
	return 0
}

func writeJUnit(path string, s jobtest.Summary) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("--junit: %w", err)
	}
	if err := jobtest.WriteJUnit(f, s); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("--junit: %w", err)
	}
	return nil
}

// dryRun is `weir run --dry-run`: the job's stream chain on lines of input,
// outputs as JSON on stdout, error records on stderr, no broker.
func dryRun(ctx context.Context, checked *config.Checked, input, streamName string, stdin io.Reader, stdout, stderr io.Writer, reg *component.Registry, logger *slog.Logger) int {
	in := stdin
	if input != "" && input != "-" {
		f, err := os.Open(input)
		if err != nil {
			fmt.Fprintln(stderr, "weir run --dry-run: --input:", err)
			return 1
		}
		defer f.Close()
		in = f
	}
	n, err := jobtest.DryRun(ctx, checked, in, stdout, stderr, jobtest.DryRunOptions{
		Options: jobtest.Options{Registry: reg, Logger: logger}, Stream: streamName})
	if err != nil {
		fmt.Fprintln(stderr, "weir run --dry-run:", err)
		return 1
	}
	logger.Info("dry run done", "records_in", n.In, "records_out", n.Out, "error_records", n.Errors)
	return 0
}

// parseFlags parses the command's flags. For `weir test` and `weir
// validate` flags may also follow the files (weir test conf/ --junit
// report.xml), as users of test runners expect; other commands stop at their first argument, as flag
// does, so that a grok pattern is never read as a flag.
func parseFlags(fs *flag.FlagSet, cmd string, args []string) error {
	if cmd != "test" && cmd != "validate" {
		return fs.Parse(args)
	}
	var files []string
	for {
		if err := fs.Parse(args); err != nil {
			return err
		}
		if fs.NArg() == 0 {
			break
		}
		files = append(files, fs.Arg(0))
		args = fs.Args()[1:]
	}
	return fs.Parse(append([]string{"--"}, files...))
}

// jobFlagsMisused returns what is wrong when the flags of weir test and
// weir run --dry-run are given where they do nothing, or "".
func jobFlagsMisused(cmd string, dryRun bool, input, stream, junit string) string {
	switch {
	case junit != "" && cmd != "test":
		return "--junit is used by weir test only"
	case dryRun && cmd != "run":
		return "--dry-run is used by weir run only"
	case !dryRun && input != "":
		return "--input is used with --dry-run only"
	case !dryRun && stream != "":
		return "--stream is used with --dry-run only"
	}
	return ""
}
