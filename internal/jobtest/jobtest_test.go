package jobtest_test

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/weir-streams/weir/internal/jobtest"
	"github.com/weir-streams/weir/internal/plugins/all"
)

func run(t *testing.T, paths ...string) jobtest.Summary {
	t.Helper()
	// DOCDB_URI is set by the test files' env; unset here so that a value
	// of the developer's cannot change what the files test.
	getenv := func(string) (string, bool) { return "", false }
	return jobtest.Run(context.Background(), paths, jobtest.RunOptions{Registry: all.NewRegistry(), Getenv: getenv})
}

func text(t *testing.T, s jobtest.Summary) string {
	t.Helper()
	var b bytes.Buffer
	if err := jobtest.WriteText(&b, s); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestPassingSuite(t *testing.T) {
	s := run(t, "testdata/pass.test.yml")
	out := text(t, s)
	if !s.OK() {
		t.Fatalf("the passing suite fails:\n%s", out)
	}
	if total, _, _ := s.Counts(); total != 5 {
		t.Fatalf("%d tests, want 5:\n%s", total, out)
	}
	t.Log("\n" + out)
	_ = os.Stdout
}
