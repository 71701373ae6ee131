// Package par runs independent pieces of work on every processor: the one
// loop that toolc's stages (lowering a target's tools, encoding the lock,
// indenting a bundle) share.
package par

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// For calls fn(i) for every i below n, on as many goroutines as
// GOMAXPROCS allows (which --jobs sets), each taking chunk indexes at a
// time; it returns when all calls have returned. fn must be safe to call
// concurrently for different i; the order of the calls is not defined, so
// each call writes its own slot.
func For(n, chunk int, fn func(i int)) {
	chunk = max(chunk, 1)
	workers := min(runtime.GOMAXPROCS(0), (n+chunk-1)/chunk)
	if workers <= 1 {
		for i := range n {
			fn(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				start := int(next.Add(int64(chunk))) - chunk
				if start >= n {
					return
				}
				for i := start; i < min(n, start+chunk); i++ {
					fn(i)
				}
			}
		})
	}
	wg.Wait()
}
