package diagfmt

import (
	"strconv"

	"github.com/toolc-dev/toolc/diag"
)

// Count returns the number of findings in ds at each severity: what the
// text, JSON and GitHub Actions formats write, one for the diagnostics that
// differ only in their target.
func Count(ds []diag.Diagnostic) (errors, warnings, infos int) {
	for _, f := range group(ds) {
		switch f.Severity {
		case diag.Error:
			errors++
		case diag.Warning:
			warnings++
		default:
			infos++
		}
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
