package diagfmt

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolc-dev/toolc/diag"
)

// Count returns the number of findings in ds at each severity: what the
// text, JSON and GitHub Actions formats write, one for the diagnostics that
// differ only in their target.
func Count(ds []diag.Diagnostic) (errors, warnings, infos int) {
	tally := func(s diag.Severity) {
		switch s {
		case diag.Error:
			errors++
		case diag.Warning:
			warnings++
		default:
			infos++
		}
	}
	if !slices.IsSortedFunc(ds, diag.Compare) {
		for _, f := range group(ds) {
			tally(f.Severity)
		}
		return errors, warnings, infos
	}
	// Sorted, as a build's are: each finding is counted at its first
	// diagnostic, looked for among those of its run alone, and no
	// finding is made (a report and a build count 50,000 of them).
	var run []diag.Diagnostic
	var long map[diag.Diagnostic]bool
	for j, d := range ds {
		d.Target = ""
		if j == 0 || !sameRun(ds[j-1], ds[j]) {
			run, long = run[:0], nil
		}
		switch {
		case long != nil:
			if long[d] {
				continue
			}
			long[d] = true
		case slices.Contains(run, d):
			continue
		case len(run) >= 16: // a run that long is looked up by hash
			long = make(map[diag.Diagnostic]bool, 2*len(run))
			for _, r := range run {
				long[r] = true
			}
			long[d] = true
		default:
			run = append(run, d)
		}
		tally(d.Severity)
	}
	return errors, warnings, infos
}

// Plural says how many of a thing there are in a message: "1 tool",
// "3 tools".
func Plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// Elide cuts text to at most n characters (runes, not bytes), the last
// an ellipsis when it cut: a quoted name or description in a message.
func Elide(text string, n int) string {
	if utf8.RuneCountInString(text) <= n {
		return text
	}
	return string([]rune(text)[:n-1]) + "…"
}

// Wrap breaks text into lines of at most width columns, at spaces (a word
// longer than a line stays whole), without a final newline.
func Wrap(text string, width int) string {
	var b strings.Builder
	n := 0
	for _, word := range strings.Fields(text) {
		if n > 0 && n+1+len(word) > width {
			b.WriteByte('\n')
			n = 0
		} else if n > 0 {
			b.WriteByte(' ')
			n++
		}
		b.WriteString(word)
		n += len(word)
	}
	return b.String()
}
