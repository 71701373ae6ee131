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
	// Path, when set, is how a file is written (relative to where toolc
	// runs, say): the digest maps the few files it writes, where a caller
	// mapping each diagnostic's would copy them all.
	Path func(file string) string
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
	path := opts.Path
	if path == nil {
		path = func(file string) string { return file }
	}
	for i := range errs {
		errs[i].File = path(errs[i].File)
	}
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
			fmt.Fprintf(&b, " in %s", Visible(path(g.files[0])))
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
	var errDs []diag.Diagnostic // grouped as findings below: they are written whole, and few
	var out Digest
	// The other findings are walked, not made: a code's group needs their
	// number, targets and files (the findings of a 100,000-tool build
	// were 94 MB at its end).
	eachFinding(ds, func(d diag.Diagnostic, target string, _ int, first bool) {
		switch d.Severity {
		case diag.Error:
			d.Target = target
			errDs = append(errDs, d)
			return
		case diag.Info:
			if first {
				out.Infos++
			}
			return
		}
		g := byCode[d.Code]
		if g == nil {
			g = &codeGroup{code: d.Code}
			byCode[d.Code] = g
			groups = append(groups, g)
		}
		if first {
			g.n++
			// Sorted findings come file by file: the last file is
			// looked at first (a list of a hundred files looked
			// through for each finding grew as their product).
			if d.File != "" && (len(g.files) == 0 || g.files[len(g.files)-1] != d.File) && !slices.Contains(g.files, d.File) {
				g.files = append(g.files, d.File)
			}
		}
		if target != "" && !slices.Contains(g.targets, target) {
			g.targets = append(g.targets, target)
		}
	})
	errs := group(errDs)
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

// More says what the digest of ds folded away, which every diagnostic
// written shows (--verbose): "2 more warning codes (5 warnings) and 3
// infos, and the place of each warning"; "" when it folded nothing.
func (d Digest) More(ds []diag.Diagnostic) string {
	var parts []string
	if d.Codes > 0 {
		parts = append(parts, fmt.Sprintf("%s (%s)", Plural(d.Codes, "more warning code"), Plural(d.Warnings, "warning")))
	}
	if d.Infos > 0 {
		parts = append(parts, Plural(d.Infos, "info"))
	}
	what := strings.Join(parts, " and ")
	if _, warns, _ := diag.Count(ds); warns > 0 {
		what = strings.TrimPrefix(what+", and the place of each warning", ", and ")
	}
	return what
}
