package remote

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// store keeps the body of the last dataflow applied from the API, so a start
// while the API is down runs it. The body holds the real values of
// sensitive properties (they are needed to run it), so the directory is
// private to the user and the file readable by the user only.
type store struct {
	dir, name string
}

func (s *store) path() string {
	safe := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' {
			return r
		}
		return '_'
	}, s.name)
	return filepath.Join(s.dir, "dataflow-"+safe+".json")
}

// save writes body beside the file and renames it over, so a crash leaves
// the old file or the new one, never half of one.
func (s *store) save(body []byte) error {
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return fmt.Errorf("keep applied dataflow: %w", err)
	}
	tmp, err := os.CreateTemp(s.dir, ".dataflow-*.tmp")
	if err != nil {
		return fmt.Errorf("keep applied dataflow: %w", err)
	}
	_, werr := tmp.Write(body)
	if werr == nil {
		werr = tmp.Sync()
	}
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), s.path())
	}
	if werr != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("keep applied dataflow: %w", werr)
	}
	return nil
}

// load returns the kept body and when it was written; a nil body when none
// was kept.
func (s *store) load() ([]byte, time.Time, error) {
	b, err := os.ReadFile(s.path())
	if errors.Is(err, os.ErrNotExist) {
		return nil, time.Time{}, nil
	}
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("read kept dataflow: %w", err)
	}
	var saved time.Time
	if st, err := os.Stat(s.path()); err == nil {
		saved = st.ModTime()
	}
	return b, saved, nil
}
