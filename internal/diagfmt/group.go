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
	add := func(i int, t string) {
		if t != "" && !slices.Contains(out[i].targets, t) {
			out[i].targets = append(out[i].targets, t)
		}
	}
	if slices.IsSortedFunc(ds, diag.Compare) {
		// Sorted, as a build's are: the diagnostics of one finding are
		// among those of one place, code, tool and message, which are
		// next to each other, and a finding is looked for among those
		// alone (hashing every diagnostic whole was most of the time a
		// 20,000-tool build spent on its digest).
		start := 0                       // the first finding of this run
		var long map[diag.Diagnostic]int // a long run's findings
		for j, d := range ds {
			t := d.Target
			d.Target = ""
			if j == 0 || !sameRun(ds[j-1], ds[j]) {
				start, long = len(out), nil
			}
			i := -1
			switch {
			case long != nil:
				if k, ok := long[d]; ok {
					i = k
				}
			case len(out)-start > 16: // a run that long is looked up by hash
				long = make(map[diag.Diagnostic]int, len(out)-start)
				for k := start; k < len(out); k++ {
					long[out[k].Diagnostic] = k
				}
				if k, ok := long[d]; ok {
					i = k
				}
			default:
				if k := slices.IndexFunc(out[start:], func(f finding) bool { return f.Diagnostic == d }); k >= 0 {
					i = start + k
				}
			}
			if i < 0 {
				i = len(out)
				out = append(out, finding{Diagnostic: d})
				if long != nil {
					long[d] = i
				}
			}
			add(i, t)
		}
	} else {
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
			add(i, t)
		}
	}
	for i := range out {
		slices.Sort(out[i].targets)
	}
	return out
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
