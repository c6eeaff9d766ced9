package streamtest

import (
	"syscall"
	"testing"
	"time"
)

// BenchBatches is the loop of the per-record benchmarks of processors and
// chains: run(start, n) processes records [start, start+n) of a data set
// of total records. It runs once over the whole set first (caches fill,
// record fields settle), then hands out batches of batch records, cycling
// through the set, until the benchmark's b.N records are done, and
// reports ns/record, records/s and cpu-ns/record. The machine the
// benchmarks run on is shared with other builds, so wall-clock time
// measures its load as much as the code; cpu-ns/record, the process's CPU
// time (user and system: the garbage collector's work included) per
// record, is the figure to compare.
func BenchBatches(b *testing.B, total, batch int, run func(start, n int)) {
	b.Helper()
	for start := 0; start < total; start += batch {
		run(start, min(batch, total-start))
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := CPUTime()
	done, start := 0, 0
	for done < b.N {
		n := min(batch, total-start)
		run(start, n)
		done += n
		if start += batch; start >= total {
			start = 0
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(done), "ns/record")
	b.ReportMetric(float64((CPUTime()-cpu0).Nanoseconds())/float64(done), "cpu-ns/record")
	b.ReportMetric(float64(done)/b.Elapsed().Seconds(), "records/s")
}

// CPUTime returns the CPU time (user and system) the process has used.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
