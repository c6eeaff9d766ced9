// Package generated checks that a committed file made by one of the tools
// is what the tool makes today, for the tools' "up to date" tests.
package generated

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// Check fails tb unless the file at rel, below the repository's root, holds
// exactly made, what the tool wrote. The failure names the command that
// writes the file again (cmd, run from the root, its output redirected to
// rel), so that a reader of a failed test knows how to bring the file up to
// date.
func Check(tb testing.TB, root, rel string, made []byte, cmd string) {
	tb.Helper()
	committed, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		tb.Fatalf("read committed %s: %v", rel, err)
	}
	if !bytes.Equal(made, committed) {
		tb.Fatalf("%s is not what the tool makes; run\n  %s > %s", rel, cmd, rel)
	}
}
