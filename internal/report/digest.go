package report

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/toolc-dev/toolc/diag"
)

// Digest is what WriteDigest left out: the warning codes past the limit and
// their warnings, and the infos.
type Digest struct {
	Codes, Warnings, Infos int
}

// Folded reports whether the digest left anything out.
func (d Digest) Folded() bool { return d.Codes > 0 || d.Infos > 0 }

// WriteDigest writes ds in the text format for a person who wants to see
// what matters: one line per warning code, the most frequent first and at
// most maxCodes of them, each with its count, the targets and files it
// concerns and where to read about it; then every error in full, last,
// where the eye lands. Infos are counted, not written.
func WriteDigest(w io.Writer, ds []diag.Diagnostic, maxCodes int, color bool) (Digest, error) {
	type group struct {
		code           string
		n              int
		targets, files []string
	}
	var groups []*group
	byCode := map[string]*group{}
	var errs []diag.Diagnostic
	var out Digest
	for _, d := range ds {
		switch d.Severity {
		case diag.Error:
			errs = append(errs, d)
			continue
		case diag.Info:
			out.Infos++
			continue
		}
		g := byCode[d.Code]
		if g == nil {
			g = &group{code: d.Code}
			byCode[d.Code] = g
			groups = append(groups, g)
		}
		g.n++
		if d.Target != "" && !slices.Contains(g.targets, d.Target) {
			g.targets = append(g.targets, d.Target)
		}
		if d.File != "" && !slices.Contains(g.files, d.File) {
			g.files = append(g.files, d.File)
		}
	}
	slices.SortStableFunc(groups, func(a, b *group) int { return cmp.Or(b.n-a.n, strings.Compare(a.code, b.code)) })
	var b strings.Builder
	sev := "warning"
	if color {
		sev = severityColor[diag.Warning] + sev + "\x1b[0m"
	}
	for i, g := range groups {
		if i >= maxCodes {
			out.Codes++
			out.Warnings += g.n
			continue
		}
		fmt.Fprintf(&b, "%s %s ×%d", sev, g.code, g.n)
		switch len(g.files) {
		case 0:
		case 1:
			fmt.Fprintf(&b, " in %s", g.files[0])
		default:
			fmt.Fprintf(&b, " in %d files", len(g.files))
		}
		if len(g.targets) > 0 {
			slices.Sort(g.targets)
			fmt.Fprintf(&b, " [targets %s]", strings.Join(g.targets, ", "))
		}
		fmt.Fprintf(&b, " — toolc explain %s\n", g.code)
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return out, err
	}
	return out, writeText(w, errs, color)
}
