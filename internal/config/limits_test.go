package config_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/config"
	"github.com/weir-streams/weir/internal/plugins/all"
)

func TestJobFileOverLimitRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.yml")
	data := []byte("version: 1\n# " + strings.Repeat("x", 2000) + "\n")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := config.LoadChecked(path, 1000, all.NewRegistry())
	if err == nil || !strings.Contains(err.Error(), "larger than 1000 bytes") || !strings.Contains(err.Error(), "--max-job-bytes") {
		t.Fatalf("error %v, want the size limit named", err)
	}
	// Under a raised limit the size is no longer the problem.
	if _, err := config.LoadChecked(path, 1<<20, all.NewRegistry()); err != nil && strings.Contains(err.Error(), "larger than") {
		t.Fatalf("refused under a raised limit: %v", err)
	}
}

func TestJobFileNotUTF8NamesLineAndColumn(t *testing.T) {
	data := []byte("version: 1\ndocumentation: \"caf\xe9 au lait\"\n")
	_, err := config.Parse(data, time.Time{}, func(string) (string, bool) { return "", false })
	if err == nil || !strings.Contains(err.Error(), "line 2, column 20: byte 0xe9 is not valid UTF-8") {
		t.Fatalf("error %v, want line 2, column 20", err)
	}
}
