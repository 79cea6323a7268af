// Package parallel runs independent pieces of work on every processor.
package parallel

import (
	"runtime"
	"sync"
)

// For calls fn(i) for each i in [0, n), on as many goroutines as there
// are processors, and returns when every call has. The calls may run in
// any order; each writes only what is its own (the i-th result).
func For(n int, fn func(i int)) {
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				fn(i)
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}
