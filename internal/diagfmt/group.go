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
// diagnostic. Sorted diagnostics, as a build's are, keep a finding's in
// one run of place, code, tool and message, and a finding is looked for in
// its run alone (hashing every diagnostic whole was most of the time a
// 20,000-tool build spent on its digest); others are hashed.
func group(ds []diag.Diagnostic) []finding {
	out := make([]finding, 0, len(ds))
	sorted := slices.IsSortedFunc(ds, diag.Compare)
	var run runIndex
	var at map[diag.Diagnostic]int
	if !sorted {
		at = make(map[diag.Diagnostic]int, len(ds))
	}
	for j, d := range ds {
		t := d.Target
		d.Target = ""
		i, ok := at[d]
		if sorted {
			if j == 0 || !sameRun(ds[j-1], ds[j]) {
				run = runIndex{start: len(out)}
			}
			i = run.find(out, d)
			ok = i >= 0
		}
		if !ok {
			i = len(out)
			out = append(out, finding{Diagnostic: d})
			if sorted {
				run.added(d, i)
			} else {
				at[d] = i
			}
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

// runIndex finds a finding among those of one run of sorted diagnostics:
// by looking at each, or by hash once the run is long.
type runIndex struct {
	start int                     // the run's first finding
	long  map[diag.Diagnostic]int // a long run's findings
}

// find returns the index in out of the finding d, or -1.
func (r *runIndex) find(out []finding, d diag.Diagnostic) int {
	if r.long == nil && len(out)-r.start > 16 {
		r.long = make(map[diag.Diagnostic]int, len(out)-r.start)
		for k := r.start; k < len(out); k++ {
			r.long[out[k].Diagnostic] = k
		}
	}
	if r.long != nil {
		if k, ok := r.long[d]; ok {
			return k
		}
		return -1
	}
	if k := slices.IndexFunc(out[r.start:], func(f finding) bool { return f.Diagnostic == d }); k >= 0 {
		return r.start + k
	}
	return -1
}

// added records that d is the finding at i.
func (r *runIndex) added(d diag.Diagnostic, i int) {
	if r.long != nil {
		r.long[d] = i
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
