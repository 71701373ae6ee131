// Package suggest finds the name a user most likely meant: "incldue" for
// include, a format "mpc" for mcp, a tool name off by a letter. Cobra does
// the same for commands; toolc does it for every name it refuses.
package suggest

import "fmt"

// Closest returns the option that word most likely misspells: at most two
// edits away and fewer than a third of its letters (one edit for short
// names), the nearest, the first of equals; or "" when none is that near.
func Closest(word string, options []string) string {
	best, bestD := "", 3
	for _, o := range options {
		if d := distance(word, o); d < bestD && d <= max(1, len(o)/3) {
			best, bestD = o, d
		}
	}
	return best
}

// Hint is "; did you mean "x"?" for the option word most likely misspells,
// or "".
func Hint(word string, options []string) string {
	if c := Closest(word, options); c != "" {
		return fmt.Sprintf("; did you mean %q?", c)
	}
	return ""
}

// distance is the Levenshtein distance of a and b, a swap of two
// neighbours counted as one edit ("incldue").
func distance(a, b string) int {
	prev2, prev, cur := make([]int, len(b)+1), make([]int, len(b)+1), make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
