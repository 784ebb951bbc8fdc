// Package benchcpu reports the CPU time of a benchmark's loop beside its
// wall time: on a machine shared with other work, the CPU time moves far
// less with their load than the wall time does.
package benchcpu

import "testing"

// Report reports, when the function it returns runs (defer it at once), the
// CPU time per iteration (cpu-ms/op) of a benchmark's loop, where the
// platform measures it.
func Report(b *testing.B) func() {
	start, ok := cpuTime()
	return func() {
		if end, _ := cpuTime(); ok && b.N > 0 {
			b.ReportMetric(float64(end-start)/float64(b.N)/1e6, "cpu-ms/op")
		}
	}
}
