package diagfmt

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/toolc-dev/toolc/diag"
)

// DigestOptions tune WriteDigest.
type DigestOptions struct {
	MaxCodes  int  // how many warning codes to list
	MaxErrors int  // how many errors to write in full; 0 for all
	Warnings  bool // list the warning codes at all (false for --quiet checks)
	Color     bool
}

// Digest is what WriteDigest left out: the warning codes past the limit and
// their findings, the errors past the limit, and the infos.
type Digest struct {
	Codes, Warnings, Errors, Infos int
}

// WriteDigest writes ds in the text format for a person who wants to see
// what matters: one line per warning code, the most frequent first and at
// most MaxCodes of them, each with its count of findings, the targets and
// files it concerns and where to read about it; then the errors in full,
// last, where the eye lands. Infos are counted, not written. A finding is
// what differs from the other diagnostics in more than its target.
func WriteDigest(w io.Writer, ds []diag.Diagnostic, opts DigestOptions) (Digest, error) {
	groups, errs, out := groupCodes(ds)
	var b strings.Builder
	sev := "warning"
	if opts.Color {
		sev = severityColor[diag.Warning] + sev + "\x1b[0m"
	}
	listed := 0 // codes listed that are not urgent: MaxCodes of them
	for _, g := range groups {
		if !opts.Warnings || !urgent(g.code) && listed >= opts.MaxCodes {
			out.Codes++
			out.Warnings += g.n
			continue
		}
		if !urgent(g.code) {
			listed++
		}
		fmt.Fprintf(&b, "%s %s ×%d", sev, g.code, g.n)
		switch len(g.files) {
		case 0:
		case 1:
			fmt.Fprintf(&b, " in %s", g.files[0])
		default:
			fmt.Fprintf(&b, " in %d files", len(g.files))
		}
		slices.Sort(g.targets)
		b.WriteString(finding{targets: g.targets}.suffix())
		fmt.Fprintf(&b, " — toolc explain %s\n", g.code)
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return out, err
	}
	n, err := writeText(w, errs, opts.Color, opts.MaxErrors)
	out.Errors = n
	return out, err
}

// codeGroup is the warnings of one code: how many, in which targets and
// files.
type codeGroup struct {
	code           string
	n              int
	targets, files []string
}

// groupCodes groups the warnings of ds by code, what a provider refuses and
// what the manifest got wrong first, whatever their count (184 tools over
// OpenAI's 128 must not hide behind 656 parameters without a
// description), then by count; it returns the errors apart, and counts
// the infos.
func groupCodes(ds []diag.Diagnostic) ([]*codeGroup, []finding, Digest) {
	var groups []*codeGroup
	byCode := map[string]*codeGroup{}
	var errs []finding
	var out Digest
	for _, f := range group(ds) {
		switch f.Severity {
		case diag.Error:
			errs = append(errs, f)
			continue
		case diag.Info:
			out.Infos++
			continue
		}
		g := byCode[f.Code]
		if g == nil {
			g = &codeGroup{code: f.Code}
			byCode[f.Code] = g
			groups = append(groups, g)
		}
		g.n++
		for _, t := range f.targets {
			if !slices.Contains(g.targets, t) {
				g.targets = append(g.targets, t)
			}
		}
		if f.File != "" && !slices.Contains(g.files, f.File) {
			g.files = append(g.files, f.File)
		}
	}
	slices.SortStableFunc(groups, func(a, b *codeGroup) int {
		ua, ub := urgent(a.code), urgent(b.code)
		switch {
		case ua && !ub:
			return -1
		case ub && !ua:
			return 1
		}
		return cmp.Or(b.n-a.n, strings.Compare(a.code, b.code))
	})
	return groups, errs, out
}

// urgent reports whether warnings of code are always listed first in the
// digest: a provider's or client's refusal (accept.*: a request over its
// limit, a tool a client drops), a manifest's mistake, a source selection
// that matched nothing, an empty catalog.
func urgent(code string) bool {
	return strings.HasPrefix(code, "accept.") || strings.HasPrefix(code, "manifest.") ||
		strings.HasSuffix(code, "-unmatched") || code == "source.no-match" || code == "catalog.empty"
}
