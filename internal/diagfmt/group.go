package diagfmt

import (
	"slices"
	"strings"

	"github.com/toolc-dev/toolc/diag"
)

// finding is one diagnostic as people read it: the diagnostics that differ
// only in their target (the same loss at the same place of the same tool
// for anthropic, bedrock and openai) are one finding with every target.
type finding struct {
	diag.Diagnostic          // with Target ""
	targets         []string // sorted
}

// group folds ds into findings, in the order of each finding's first
// diagnostic.
func group(ds []diag.Diagnostic) []finding {
	out := make([]finding, 0, len(ds))
	at := make(map[diag.Diagnostic]int, len(ds))
	for _, d := range ds {
		t := d.Target
		d.Target = ""
		i, ok := at[d]
		if !ok {
			i = len(out)
			at[d] = i
			out = append(out, finding{Diagnostic: d})
		}
		if t != "" && !slices.Contains(out[i].targets, t) {
			out[i].targets = append(out[i].targets, t)
		}
	}
	for i := range out {
		slices.Sort(out[i].targets)
	}
	return out
}

// suffix is what a finding's one-line forms end with: " [target t]" or
// " [targets a, b]", or nothing.
func (f finding) suffix() string {
	switch len(f.targets) {
	case 0:
		return ""
	case 1:
		return " [target " + f.targets[0] + "]"
	}
	return " [targets " + strings.Join(f.targets, ", ") + "]"
}

// String formats f as diag.Diagnostic.String does, with every target.
func (f finding) String() string { return f.Diagnostic.String() + f.suffix() }

// message is f's message with its tool, targets and fix: what a format that
// has one text field per finding shows.
func (f finding) message() string {
	msg := f.Text() + f.suffix()
	if f.Fix != "" {
		msg += "\nfix: " + f.Fix
	}
	return msg
}
