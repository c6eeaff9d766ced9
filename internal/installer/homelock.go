package installer

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// homeLockFile is the file `weir -i` and `weir -r` lock in the Weir home.
// It holds nothing; its flock is the lock. It is never removed: removing a
// locked file would let a third run lock a new file of the same name while
// the first still holds the old one.
const homeLockFile = ".weir.lock"

// homeLockPoll is how often a run waiting for the lock tries again. flock
// has no timeout of its own; polling with LOCK_NB lets the wait end with
// the context (Ctrl-C) instead of blocking in a system call.
const homeLockPoll = 50 * time.Millisecond

// lockHome takes an exclusive flock on the Weir home's lock file, so that
// two concurrent `weir -i` / `weir -r` runs on one home do not both read
// the lock file, change it and write it back, one losing the other's entry
// (and both unpacking into plugins/). A second run waits for the first and
// says so in the log. The returned function releases the lock; the kernel
// releases it too if the process dies.
func lockHome(ctx context.Context, home string, logger *slog.Logger) (func(), error) {
	if err := os.MkdirAll(home, 0o755); err != nil {
		return nil, fmt.Errorf("weir home: %w", err)
	}
	path := filepath.Join(home, homeLockFile)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open the weir home's lock: %w", err)
	}
	release := func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}
	warned := false
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return release, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) {
			f.Close()
			return nil, fmt.Errorf("lock the weir home (%s): %w", path, err)
		}
		if !warned && logger != nil {
			logger.Info("another weir install or remove is running on this home; waiting for it", "lock", path)
			warned = true
		}
		t := time.NewTimer(homeLockPoll)
		select {
		case <-ctx.Done():
			t.Stop()
			f.Close()
			return nil, fmt.Errorf("waiting for another weir install or remove on %s: %w", home, ctx.Err())
		case <-t.C:
		}
	}
}
