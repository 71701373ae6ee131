package par

import (
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
