// Package parallel runs independent pieces of work side by side, as many at
// once as the process has cores to run them (GOMAXPROCS): more would only
// take turns, and hold more memory at once.
package parallel

import (
	"runtime"
	"sync"
)

// For calls fn for every i from 0 to n-1, on at most GOMAXPROCS goroutines,
// and returns when every call has. Calls take indexes in order, so the
// first pieces start first.
func For(n int, fn func(i int)) {
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(n, runtime.GOMAXPROCS(0)) {
		wg.Go(func() {
			for i := range next {
				fn(i)
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}
