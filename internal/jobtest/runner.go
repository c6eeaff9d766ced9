package jobtest

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/config"
)

// CaseResult is the outcome of one test case, or of a test file that could
// not be run (Name is then empty and Err says why).
type CaseResult struct {
	File string
	Name string
	Line int
	// Processors are the processors that ran.
	Processors []string
	Failures   []Failure
	// Err is a test that could not run (a job that does not validate, an
	// unknown stream): an error, not a failed expectation.
	Err     error
	Elapsed time.Duration
}

// Passed reports whether the case ran and every expectation held.
func (c CaseResult) Passed() bool { return c.Err == nil && len(c.Failures) == 0 }

// Summary is the outcome of a run of test files.
type Summary struct {
	Cases []CaseResult
}

// Counts returns the number of cases, of failed cases and of errors.
func (s Summary) Counts() (total, failed, errored int) {
	for _, c := range s.Cases {
		total++
		switch {
		case c.Err != nil:
			errored++
		case len(c.Failures) > 0:
			failed++
		}
	}
	return total, failed, errored
}

// OK reports whether every case passed.
func (s Summary) OK() bool {
	_, f, e := s.Counts()
	return f == 0 && e == 0 && len(s.Cases) > 0
}

// RunOptions configure Run.
type RunOptions struct {
	Registry *component.Registry
	Logger   *slog.Logger
	// MaxJobBytes bounds the job files read.
	MaxJobBytes int64
	// Getenv is the process environment (os.LookupEnv when nil); a test
	// file's env wins over it.
	Getenv func(string) (string, bool)
}

// FindFiles expands the arguments of `weir test`: a file is taken as it
// is, a directory gives every *.test.yml and *.test.yaml under it, in
// lexical order. No argument means the current directory.
func FindFiles(args []string) ([]string, error) {
	if len(args) == 0 {
		args = []string{"."}
	}
	var out []string
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			return nil, fmt.Errorf("test files: %w", err)
		}
		if !st.IsDir() {
			out = append(out, a)
			continue
		}
		var found []string
		err = filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && (strings.HasSuffix(p, ".test.yml") || strings.HasSuffix(p, ".test.yaml")) {
				found = append(found, p)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("test files: %w", err)
		}
		if len(found) == 0 {
			return nil, fmt.Errorf("test files: no *.test.yml under %s", a)
		}
		sort.Strings(found)
		out = append(out, found...)
	}
	return out, nil
}

// Run runs every case of every test file.
func Run(ctx context.Context, paths []string, opts RunOptions) Summary {
	var s Summary
	for _, p := range paths {
		s.Cases = append(s.Cases, RunFile(ctx, p, opts)...)
	}
	return s
}

// RunFile runs the cases of one test file. A file that cannot be read, or
// whose job does not validate, gives one result with Err set.
func RunFile(ctx context.Context, path string, opts RunOptions) []CaseResult {
	f, err := LoadFile(path)
	if err != nil {
		return []CaseResult{{File: path, Err: err}}
	}
	getenv := opts.Getenv
	if getenv == nil {
		getenv = os.LookupEnv
	}
	env := func(k string) (string, bool) {
		if v, ok := f.Env[k]; ok {
			return v, true
		}
		return getenv(k)
	}
	maxBytes := opts.MaxJobBytes
	if maxBytes <= 0 {
		maxBytes = config.DefaultMaxJobBytes
	}
	checked, err := loadJob(f.Job, maxBytes, env, opts.Registry)
	if err != nil {
		return []CaseResult{{File: path, Err: fmt.Errorf("job %s: %w", f.Job, err)}}
	}
	out := make([]CaseResult, 0, len(f.Tests))
	for _, c := range f.Tests {
		out = append(out, runCase(ctx, f, c, checked, opts))
	}
	return out
}

func loadJob(path string, maxBytes int64, getenv func(string) (string, bool), reg *component.Registry) (*config.Checked, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("read job file: %w", err)
	}
	if st.Size() > maxBytes {
		return nil, fmt.Errorf("job file %s is larger than %d bytes", path, maxBytes)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read job file: %w", err)
	}
	return config.ParseChecked(data, st.ModTime().UTC().Truncate(time.Millisecond), getenv, reg)
}

func runCase(ctx context.Context, f *File, c *Case, checked *config.Checked, opts RunOptions) (res CaseResult) {
	res = CaseResult{File: f.Path, Name: c.Name, Line: c.Line}
	start := time.Now()
	defer func() { res.Elapsed = time.Since(start) }()
	h, err := New(ctx, checked, c.Stream, c.From, c.To, Options{Registry: opts.Registry, Logger: opts.Logger, Canned: f.Services})
	if err != nil {
		res.Err = err
		return res
	}
	defer h.Close(ctx)
	res.Processors = h.Processors()
	out, err := h.Run(ctx, c.Input)
	if err != nil {
		res.Err = err
		return res
	}
	res.Failures = check(c.Expect, out)
	if errors.Is(ctx.Err(), context.Canceled) {
		res.Err = ctx.Err()
	}
	return res
}
