package par

import (
	"cmp"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"
)

func TestFor(t *testing.T) {
	for _, n := range []int{0, 1, 7, 64, 65, 1000} {
		for _, chunk := range []int{0, 1, 3, 64} {
			seen := make([]int32, n)
			var calls atomic.Int64
			For(n, chunk, func(i int) { atomic.AddInt32(&seen[i], 1); calls.Add(1) })
			if calls.Load() != int64(n) {
				t.Errorf("For(%d, %d) made %d calls", n, chunk, calls.Load())
			}
			for i, c := range seen {
				if c != 1 {
					t.Fatalf("For(%d, %d) called fn(%d) %d times", n, chunk, i, c)
				}
			}
		}
	}
}

// TestRanges: the ranges cover every index below n once, in order inside
// each, none longer than size, and only the last shorter.
func TestRanges(t *testing.T) {
	for _, n := range []int{0, 1, 7, 512, 513, 1000} {
		for _, size := range []int{0, 1, 3, 512} {
			seen := make([]int32, n)
			var short atomic.Int64
			Ranges(n, size, func(lo, hi int) {
				if hi-lo < max(size, 1) && hi != n || hi <= lo {
					short.Add(1)
				}
				for i := lo; i < hi; i++ {
					atomic.AddInt32(&seen[i], 1)
				}
			})
			if short.Load() != 0 {
				t.Errorf("Ranges(%d, %d) made %d empty or short ranges before the last", n, size, short.Load())
			}
			for i, c := range seen {
				if c != 1 {
					t.Fatalf("Ranges(%d, %d) covered %d %d times", n, size, i, c)
				}
			}
		}
	}
}

// TestSortFunc: the halves sort as slices.Sort does, duplicates and the
// largest value included (the confusable check's keys), under halves and
// over it; and a list whose left half holds the largest values, so that
// the merge ends with the left half's rest.
func TestSortFunc(t *testing.T) {
	desc := make([]int, 3*halves)
	for i := range desc {
		desc[i] = len(desc) - i
	}
	want := slices.Sorted(slices.Values(desc))
	if SortFunc(desc, cmp.Compare[int]); !slices.Equal(desc, want) {
		t.Errorf("%d values in descending order: not sorted", len(want))
	}
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 1 << 16, 1<<17 + 3} {
		s := make([]uint64, n)
		for i := range s {
			s[i] = r.Uint64() >> r.UintN(64)
			if i%7 == 0 {
				s[i] = ^uint64(0)
			}
		}
		want := slices.Clone(s)
		slices.Sort(want)
		SortFunc(s, cmp.Compare[uint64])
		if !slices.Equal(s, want) {
			t.Fatalf("%d values: not sorted as slices.Sort sorts them", n)
		}
	}
}

// TestSortFuncSameOnOneCore: items cmp finds equal (diagnostics that
// differ in a field Compare does not read) end in the same order on one
// processor as on several, so that a build's output does not depend on
// --jobs.
func TestSortFuncSameOnOneCore(t *testing.T) {
	type item struct{ key, n int }
	r := rand.New(rand.NewPCG(5, 6))
	byKey := func(a, b item) int { return cmp.Compare(a.key, b.key) }
	for _, n := range []int{3000, 2 * halves, 2*halves + 1} {
		s := make([]item, n)
		for i := range s {
			s[i] = item{r.IntN(n / 8), i}
		}
		many, one := slices.Clone(s), slices.Clone(s)
		SortFunc(many, byKey)
		procs := runtime.GOMAXPROCS(1)
		SortFunc(one, byKey)
		runtime.GOMAXPROCS(procs)
		if !slices.Equal(many, one) || !slices.IsSortedFunc(many, byKey) {
			t.Errorf("%d items: sorted differently on one processor, or not by key", n)
		}
	}
}
