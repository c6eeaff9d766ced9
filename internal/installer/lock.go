package installer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/weir-streams/weir/internal/pluginrpc"
)

// lockFile is the name of the lock file in the Weir home.
const lockFile = "plugins.lock.json"

// pluginsDir holds the unpacked artifacts, one directory per
// group/artifact/version.
const pluginsDir = "plugins"

// Lock is the record of installed artifacts. It is what Weir trusts at
// start: a binary whose sha256 differs from its entry is refused.
type Lock struct {
	Version int     `json:"version"`
	Plugins []Entry `json:"plugins"`
}

// Entry is one installed artifact.
type Entry struct {
	Group    string `json:"group"`
	Artifact string `json:"artifact"`
	Version  string `json:"version"`
	OS       string `json:"os"`
	Arch     string `json:"arch"`
	// Repository is where it came from (without a password).
	Repository string `json:"repository"`
	// ArchiveSHA256 is the verified sha256 of the downloaded archive.
	ArchiveSHA256 string `json:"archiveSha256"`
	// SignedBy names the trusted key that verified the signature; empty
	// when it was installed with --allow-unsigned and did not verify.
	SignedBy string `json:"signedBy,omitempty"`
	// Binary is the plugin executable, relative to the Weir home.
	Binary string `json:"binary"`
	// BinarySHA256 is checked again every time Weir loads the plugin.
	BinarySHA256 string    `json:"binarySha256"`
	InstalledAt  time.Time `json:"installedAt"`
	// Components is the manifest the plugin gave at install.
	Components []pluginrpc.ComponentDecl `json:"components"`
}

// Coordinates returns the entry's coordinates.
func (e *Entry) Coordinates() Coordinates {
	return Coordinates{Group: e.Group, Artifact: e.Artifact, Version: e.Version}
}

// check refuses an entry whose coordinates, platform or binary path are
// not what the installer writes: the lock file's paths are joined to the
// home, loaded and deleted, so a hand-edited "../" must go no further.
func (e *Entry) check() error {
	c := e.Coordinates()
	if err := c.Check(true); err != nil {
		return err
	}
	if err := CheckPlatform(e.OS, e.Arch); err != nil {
		return fmt.Errorf("%s: %w", c, err)
	}
	if want := c.installRel() + "/" + c.Artifact; e.Binary != want {
		return fmt.Errorf("%s: binary %s is not %s, where the installer puts it", c, quoteShort(e.Binary), want)
	}
	return nil
}

// ReadLock reads the lock file of home; a missing file is an empty lock.
func ReadLock(home string) (*Lock, error) {
	path := filepath.Join(home, lockFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &Lock{Version: 1}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read lock file: %w", err)
	}
	var l Lock
	if err := json.Unmarshal(data, &l); err != nil {
		return nil, fmt.Errorf("lock file %s: %w", path, err)
	}
	for i := range l.Plugins {
		if err := l.Plugins[i].check(); err != nil {
			return nil, fmt.Errorf("lock file %s: plugin %d: %w", path, i+1, err)
		}
	}
	return &l, nil
}

// write replaces the lock file atomically (a temporary file renamed over
// it), so a crash never leaves half a lock.
func (l *Lock) write(home string) error {
	data, err := json.MarshalIndent(l, "", "  ")
	if err != nil {
		return fmt.Errorf("encode lock file: %w", err)
	}
	tmp, err := os.CreateTemp(home, lockFile+".*")
	if err != nil {
		return fmt.Errorf("write lock file: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("write lock file: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write lock file: %w", err)
	}
	if err := os.Rename(tmp.Name(), filepath.Join(home, lockFile)); err != nil {
		return fmt.Errorf("write lock file: %w", err)
	}
	return nil
}

// find returns the index of group:artifact, or -1.
func (l *Lock) find(key string) int {
	for i := range l.Plugins {
		if l.Plugins[i].Coordinates().Key() == key {
			return i
		}
	}
	return -1
}

func bytesReader(b []byte) io.Reader { return bytes.NewReader(b) }
