// Package par runs independent pieces of work on every processor: the one
// loop that toolc's stages (lowering a target's tools, encoding the lock,
// indenting a bundle) share, over indexes or ranges of them, and a sort of
// long lists.
package par

import (
	"context"
	"runtime"
	"slices"
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

// ForContext is For for a stage of a build: once ctx is done, no worker
// takes another chunk, and it returns ctx's error when the calls are left
// unfinished (a cancelled build ends within a chunk's time).
func ForContext(ctx context.Context, n, chunk int, fn func(i int)) error {
	chunk = max(chunk, 1)
	var stopped atomic.Bool
	For((n+chunk-1)/chunk, 1, func(c int) {
		if stopped.Load() {
			return
		}
		if ctx.Err() != nil {
			stopped.Store(true)
			return
		}
		for i := c * chunk; i < min(n, (c+1)*chunk); i++ {
			fn(i)
		}
	})
	if stopped.Load() {
		return ctx.Err()
	}
	return nil
}

// Ranges calls fn(lo, hi) for the consecutive ranges of size indexes
// (the last one shorter) that cover those below n, on every processor as
// For does: for work that keeps a buffer from one index to the next, or
// makes one result a range.
func Ranges(n, size int, fn func(lo, hi int)) {
	size = max(size, 1)
	For((n+size-1)/size, 1, func(i int) { fn(i*size, min(n, (i+1)*size)) })
}

// halves is the length from which SortFunc sorts a list's two halves at
// once and merges them.
const halves = 1 << 14

// SortFunc sorts s by cmp as slices.SortFunc does; from halves items, its
// two halves at once, then merged in place (with a copy of the left half;
// the left one first when cmp says they are equal). The halves are made
// whatever the number of processors, so that items cmp finds equal end in
// the same order on every machine and with any --jobs: a build of 100,000
// tools sorts 460,000 diagnostics, and its confusable check millions of
// keys, which alone on one core were the longest serial steps of each.
func SortFunc[E any](s []E, cmp func(a, b E) int) {
	if len(s) < halves {
		slices.SortFunc(s, cmp)
		return
	}
	mid := len(s) / 2
	var wg sync.WaitGroup
	wg.Go(func() { slices.SortFunc(s[:mid], cmp) })
	slices.SortFunc(s[mid:], cmp)
	wg.Wait()
	left := slices.Clone(s[:mid])
	i, j, k := 0, mid, 0
	for i < len(left) && j < len(s) {
		if cmp(s[j], left[i]) < 0 {
			s[k], j = s[j], j+1
		} else {
			s[k], i = left[i], i+1
		}
		k++
	}
	copy(s[k:], left[i:]) // what is left of the right half is in place
}
