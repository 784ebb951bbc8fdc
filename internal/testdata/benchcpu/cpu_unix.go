//go:build unix

package benchcpu

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time this process and the children it waited for (the
// go command the loaders run, git) have used.
func cpuTime() (time.Duration, bool) {
	var self, children syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &self) != nil || syscall.Getrusage(syscall.RUSAGE_CHILDREN, &children) != nil {
		return 0, false
	}
	return time.Duration(self.Utime.Nano() + self.Stime.Nano() + children.Utime.Nano() + children.Stime.Nano()), true
}
