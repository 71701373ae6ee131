package diagfmt

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolc-dev/toolc/diag"
)

// Count returns the number of findings in ds at each severity: what the
// text, JSON and GitHub Actions formats write, one for the diagnostics that
// differ only in their target.
func Count(ds []diag.Diagnostic) (errors, warnings, infos int) {
	// Each finding at its first diagnostic, and no finding made: a build
	// and a report count 50,000 of them.
	eachFinding(ds, func(d diag.Diagnostic, _ string, _ int, first bool) {
		switch {
		case !first:
		case d.Severity == diag.Error:
			errors++
		case d.Severity == diag.Warning:
			warnings++
		default:
			infos++
		}
	})
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

// Thousands writes n with commas between groups of three digits.
func Thousands(n int) string {
	if n < 0 {
		return "-" + Thousands(-n)
	}
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
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
