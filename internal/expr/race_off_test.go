//go:build !race

package expr_test

// raceEnabled reports a test binary built with -race.
const raceEnabled = false
