//go:build !race

package stream_test

// raceEnabled reports a test binary built with -race.
const raceEnabled = false
