package parallel

import (
	"runtime"
	"sync/atomic"
	"testing"
)

// TestForCallsEachIndexOnceWithinGOMAXPROCS: every index is called exactly
// once, and never more calls run at once than GOMAXPROCS allows.
func TestForCallsEachIndexOnceWithinGOMAXPROCS(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(3))
	const n = 200
	var calls [n]atomic.Int32
	var running, most atomic.Int32
	For(n, func(i int) {
		now := running.Add(1)
		for {
			m := most.Load()
			if now <= m || most.CompareAndSwap(m, now) {
				break
			}
		}
		calls[i].Add(1)
		runtime.Gosched()
		running.Add(-1)
	})
	for i := range calls {
		if c := calls[i].Load(); c != 1 {
			t.Errorf("index %d called %d times", i, c)
		}
	}
	if m := most.Load(); m > 3 {
		t.Errorf("%d calls at once, GOMAXPROCS is 3", m)
	}
	For(0, func(int) { t.Error("called with n = 0") })
}
