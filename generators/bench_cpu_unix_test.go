//go:build unix

package generators

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time this process and the children it waited for (the
// go command both loaders run) have used. On a machine shared with other
// work it moves far less with their load than the wall time does.
func cpuTime() (time.Duration, bool) {
	var self, children syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &self) != nil || syscall.Getrusage(syscall.RUSAGE_CHILDREN, &children) != nil {
		return 0, false
	}
	return time.Duration(self.Utime.Nano() + self.Stime.Nano() + children.Utime.Nano() + children.Stime.Nano()), true
}
