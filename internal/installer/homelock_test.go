package installer

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"
)

// TestConcurrentInstalls runs two installs on one home at once, of two
// artifacts: both must end up in the lock file. Without the home's lock
// each run reads the lock file, spends tens of milliseconds unpacking and
// starting its plugin, and writes back what it read plus its own entry, so
// the last writer drops the other's entry.
func TestConcurrentInstalls(t *testing.T) {
	repo := newTestRepo(t)
	coords := []Coordinates{
		{Group: "com.example.a", Artifact: testArtifact, Version: "1.0.0"},
		{Group: "com.example.b", Artifact: testArtifact, Version: "1.0.0"},
	}
	for _, c := range coords {
		repo.publish(t, c, examplePlugin, false)
	}
	o := repo.options(t, repo.fileURL())
	var wg sync.WaitGroup
	errs := make([]error, len(coords))
	for i, c := range coords {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = Install(context.Background(), o, c)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	lock, err := ReadLock(o.Home)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range lock.Plugins {
		got = append(got, e.Coordinates().String())
	}
	if fmt.Sprint(got) != fmt.Sprint([]string{coords[0].String(), coords[1].String()}) {
		t.Fatalf("lock lists %v, want both installs", got)
	}

	// Two concurrent removes leave an empty lock.
	for i, c := range coords {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = Remove(context.Background(), o, c)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	if lock, _ := ReadLock(o.Home); len(lock.Plugins) != 0 {
		t.Fatalf("lock still lists %d plugins", len(lock.Plugins))
	}
}

// TestHomeLockWaits: while one run holds the home, another waits, gives up
// when its context ends, and gets the lock once the first lets go.
func TestHomeLockWaits(t *testing.T) {
	home := t.TempDir()
	unlock, err := lockHome(context.Background(), home, testLogger(t))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*homeLockPoll)
	defer cancel()
	_, err = lockHome(ctx, home, testLogger(t))
	wantErr(t, err, "waiting for another weir install or remove", "deadline exceeded")

	// An install refused for the same reason leaves nothing behind.
	repo := newTestRepo(t)
	repo.publish(t, testCoords, examplePlugin, false)
	o := repo.options(t, repo.fileURL())
	o.Home = home
	_, err = Install(ctx, o, testCoords)
	wantErr(t, err, "waiting for another weir install or remove")

	got := make(chan error, 1)
	go func() {
		u, err := lockHome(context.Background(), home, testLogger(t))
		if err == nil {
			u()
		}
		got <- err
	}()
	unlock()
	select {
	case err := <-got:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the waiting run did not get the lock after it was released")
	}
}
