package settings

import (
	"runtime"
	"testing"
)

// TestWorkersFollowGOMAXPROCS checks that local[*] counts the CPUs the Go
// runtime schedules on, which in a container is its CPU limit (Go sets
// GOMAXPROCS from the cgroup's quota), not the cores of the node.
func TestWorkersFollowGOMAXPROCS(t *testing.T) {
	prev := runtime.GOMAXPROCS(3)
	defer runtime.GOMAXPROCS(prev)
	if runtime.NumCPU() == 3 {
		runtime.GOMAXPROCS(5) // a value NumCPU cannot also give
	}
	want := runtime.GOMAXPROCS(0)
	for master, n := range map[string]int{"local": 1, "local[1]": 1, "local[6]": 6, "local[*]": want} {
		if got := Workers(master); got != n {
			t.Errorf("Workers(%q) = %d, want %d", master, got, n)
		}
	}
}
