package streamtest

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// PIDsRunning returns the processes running the program bin, found as an
// operator would (ps): by /proc/PID/exe. Tests that start plugin processes
// use it to check that none is left behind; it reads Linux's /proc.
func PIDsRunning(t testing.TB, bin string) []int {
	t.Helper()
	ents, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatalf("read /proc: %v", err)
	}
	var pids []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		exe, err := os.Readlink(filepath.Join("/proc", e.Name(), "exe"))
		if err == nil && exe == bin {
			pids = append(pids, pid)
		}
	}
	return pids
}
