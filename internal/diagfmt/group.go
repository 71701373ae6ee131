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
	eachFinding(ds, func(d diag.Diagnostic, target string, i int, first bool) {
		if first {
			out = append(out, finding{Diagnostic: d})
		}
		if target != "" && !slices.Contains(out[i].targets, target) {
			out[i].targets = append(out[i].targets, target)
		}
	})
	for i := range out {
		slices.Sort(out[i].targets)
	}
	return out
}

// eachFinding calls fn for each diagnostic of ds, with its target taken
// out of it, the index of its finding (the findings numbered in the order
// of their first diagnostics) and whether it is that first. Sorted
// diagnostics, as a build's are, keep a finding's in one run of place,
// code, tool and message, and a finding is looked for in its run alone,
// by looking at each or, in a long run, by hash (hashing every diagnostic
// whole was most of the time a 20,000-tool build spent on its digest);
// others are all hashed.
func eachFinding(ds []diag.Diagnostic, fn func(d diag.Diagnostic, target string, i int, first bool)) {
	sorted := slices.IsSortedFunc(ds, diag.Compare)
	var at map[diag.Diagnostic]int // every finding, or a long run's
	var run []diag.Diagnostic      // a short run's findings
	start, n := 0, 0               // the run's first finding, and how many there are
	for j, d := range ds {
		t := d.Target
		d.Target = ""
		if sorted && (j == 0 || !sameRun(ds[j-1], ds[j])) {
			start, run, at = n, run[:0], nil
		}
		i, ok := at[d]
		if sorted && at == nil {
			if k := slices.Index(run, d); k >= 0 {
				i, ok = start+k, true
			}
		}
		if !ok {
			i, n = n, n+1
			switch {
			case !sorted || at != nil:
				if at == nil {
					at = map[diag.Diagnostic]int{}
				}
				at[d] = i
			case len(run) < 16:
				run = append(run, d)
			default: // a run that long is looked up by hash
				at = make(map[diag.Diagnostic]int, 2*len(run))
				for k, r := range run {
					at[r] = start + k
				}
				at[d] = i
			}
		}
		fn(d, t, i, !ok)
	}
}

// sameRun reports whether a and b, sorted, are of one place, code, tool
// and message: what diag.Compare orders by before their targets.
func sameRun(a, b diag.Diagnostic) bool {
	return a.File == b.File && a.Line == b.Line && a.Column == b.Column && a.Code == b.Code && a.Tool == b.Tool && a.Message == b.Message
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
