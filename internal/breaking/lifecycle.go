package breaking

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
)

// Window is a catalog's deprecation window ([policy] deprecation):
// removing a deprecated tool or input property is minor only once it was
// deprecated in at least Releases releases, the first at least Days days
// before; earlier it is breaking.removed-early.
type Window struct {
	Releases, Days int
	// History returns the earlier releases, oldest first, before the new
	// catalog's version. Compare calls it once, on the first removal of
	// something deprecated; an error says why the releases are not known
	// (an earlier catalog that is no git revision, a shallow clone).
	History func() ([]Release, error)
}

// Release is one earlier release of the catalog: its version, its date
// and its tools.
type Release struct {
	Version string
	Date    time.Time
	Tools   []*canonical.Tool
}

// SortReleases sorts releases by version, oldest first.
func SortReleases(rs []Release) {
	slices.SortStableFunc(rs, func(a, b Release) int {
		x, _ := parseVersion(a.Version)
		y, _ := parseVersion(b.Version)
		return slices.Compare(x[:], y[:])
	})
}

// Tombstone says where a removed tool went: the version that removed it and
// the tool to use instead ("" for none).
type Tombstone struct{ In, Use string }

// releases returns the history of the window, read on first use.
func (c *comparer) releases() ([]Release, error) {
	if !c.read {
		c.read = true
		c.history, c.historyErr = c.opts.Window.History()
		if v, ok := parseVersion(c.opts.Version); ok {
			c.history = slices.DeleteFunc(c.history, func(r Release) bool {
				o, ok := parseVersion(r.Version)
				return !ok || bumpOf(o, v) == None // not before the new version
			})
		}
	}
	return c.history, c.historyErr
}

// deprecatedIn returns the releases of rs in which the tool id, or with at
// its input property at that pointer of the input schema, is deprecated.
func deprecatedIn(rs []Release, id string, at canonical.Pointer) []Release {
	var in []Release
	for _, r := range rs {
		i := slices.IndexFunc(r.Tools, func(t *canonical.Tool) bool { return t.ID() == id })
		if i < 0 {
			continue
		}
		t := r.Tools[i]
		switch {
		case at == "" && t.Deprecated:
			in = append(in, r)
		case at != "" && t.Input != nil:
			if p := t.Input.JSON().Resolve(at); p != nil {
				if dep, _ := p.Get("deprecated").BoolValue(); dep {
					in = append(in, r)
				}
			}
		}
	}
	return in
}

// retire judges the removal of what, deprecated: the tool id, or its input
// property at the pointer at. It returns breaking.retired (minor) when
// the window has passed, breaking.removed-early when not, or "" and why
// when the history cannot say.
func (c *comparer) retire(id string, at canonical.Pointer, what string) (code, msg string) {
	w := c.opts.Window
	rs, err := c.releases()
	if err != nil {
		return "", fmt.Sprintf("the deprecation window could not be counted: %v", err)
	}
	in := deprecatedIn(rs, id, at)
	asks := fmt.Sprintf("[policy] deprecation asks %s and %s", plural(w.Releases, "release"), plural(w.Days, "day"))
	if len(in) == 0 {
		if w.Releases == 0 && w.Days == 0 {
			return "breaking.retired", fmt.Sprintf("%s was removed; it was deprecated, and %s", what, asks)
		}
		return "breaking.removed-early", fmt.Sprintf("%s was removed, but no release carried it deprecated: %s first", what, asks)
	}
	days := int(c.opts.Today.Sub(in[0].Date).Hours() / 24)
	had := fmt.Sprintf("deprecated in %s (%s), the first %s ago", plural(len(in), "release"), versions(in), plural(days, "day"))
	if len(in) >= w.Releases && days >= w.Days {
		return "breaking.retired", fmt.Sprintf("%s was removed after its deprecation window: %s; %s", what, had, asks)
	}
	return "breaking.removed-early", fmt.Sprintf("%s was removed before its deprecation window passed: %s; %s", what, had, asks)
}

func versions(rs []Release) string {
	var vs []string
	for _, r := range rs {
		vs = append(vs, r.Version)
	}
	return strings.Join(vs, ", ")
}

func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// lifecycle compares the stability and the sunset of a tool in two
// catalogs.
func (c *comparer) lifecycle(o, n *canonical.Tool) {
	if ol, nl := canonical.StabilityLevel(o.Stability), canonical.StabilityLevel(n.Stability); nl < ol && nl >= 0 {
		c.report(n, "breaking.stability-decreased", "/stability", "its stability went down from %s to %s: callers were promised %s", orStable(o.Stability), n.Stability, orStable(o.Stability))
	}
	if o.Sunset != "" && n.Sunset != "" && n.Sunset < o.Sunset {
		c.report(n, "breaking.sunset-moved", "/sunset", "its sunset moved earlier, from %s to %s: callers planned for the later date", o.Sunset, n.Sunset)
	}
}

func orStable(s string) string {
	if s == "" {
		return "stable"
	}
	return s
}

// isBreak reports whether code is a change that breaks callers when it is
// an error: the codes that call for a major release.
func isBreak(code string) bool {
	switch code {
	case "breaking.description-changed", "breaking.version", "breaking.version-minor", "breaking.unverified", "breaking.retired":
		return false
	}
	return strings.HasPrefix(code, "breaking.") && !minorCodes[code]
}

// Stabilize lowers the breaking findings about tools that were not stable
// in the old catalog, after the policy: a change to a draft or alpha tool
// is an info and needs no release of its own, one to a beta tool a
// warning that a minor release covers. breaking.stability-decreased stays
// what it is: that is the change of the promise itself.
func Stabilize(ds []diag.Diagnostic, old []*canonical.Tool) []diag.Diagnostic {
	stability := map[string]string{}
	for _, t := range old {
		stability[t.ID()] = t.Stability
	}
	out := slices.Clone(ds)
	for i := range out {
		d := &out[i]
		s := stability[d.Tool]
		if d.Severity != diag.Error || !isBreak(d.Code) || d.Code == "breaking.stability-decreased" || canonical.StabilityLevel(s) >= 3 {
			continue
		}
		switch s {
		case "beta":
			d.Severity = diag.Warning
			d.Message += " (the tool is beta: a minor release may change it)"
		default:
			d.Severity = diag.Info
			d.Message += fmt.Sprintf(" (the tool is %s: any release may change it)", s)
		}
	}
	return out
}

// FindingText is the text form of a breaking finding, which an
// [[acknowledge]] entry names: its code, its tool and where in the tool.
func FindingText(d diag.Diagnostic) string {
	s := d.Code
	if d.Tool != "" {
		s += " tool=" + d.Tool
	}
	if d.Subject != "" {
		s += " at=" + d.Subject
	}
	return s
}

// Ack is one acknowledgment of a finding, as the manifest has it, with the
// place of its entry.
type Ack struct {
	Finding, Reason, Until string
	// UntilVersion or UntilDate is Until read.
	UntilVersion string
	UntilDate    time.Time
	// File, Line and Column are where the entry is.
	File         string
	Line, Column int
}

// matches reports whether a names the finding d.
func (a Ack) matches(d diag.Diagnostic) bool {
	return a.Finding == FindingText(d) || a.Finding == diag.Fingerprint(d)
}

// expired reports whether a has ended for a release of version, today.
func (a Ack) expired(version string, today time.Time) bool {
	if a.UntilVersion != "" {
		u, ok1 := parseVersion(a.UntilVersion)
		v, ok2 := parseVersion(version)
		return ok1 && ok2 && bumpOf(u, v) > None
	}
	return today.Format(time.DateOnly) > a.UntilDate.Format(time.DateOnly)
}

func (a Ack) at(code, format string, args ...any) diag.Diagnostic {
	d := diag.New(code, format, args...)
	d.File, d.Line, d.Column = a.File, a.Line, a.Column
	return d
}

// Acknowledge applies the acknowledgments to the breaking errors of ds,
// for a release of version, today: each one that an entry names becomes a
// warning that says so, which a minor release covers; an entry past its
// until is acknowledge.expired (an error, and acknowledges nothing), one
// that names no finding acknowledge.stale. It returns the findings, the
// reason of each acknowledged one by its FindingText, and the entries'
// own findings. Every other breaking error gets the entry to paste as its
// fix.
func Acknowledge(ds []diag.Diagnostic, acks []Ack, version string, today time.Time) ([]diag.Diagnostic, map[string]string, []diag.Diagnostic) {
	out := slices.Clone(ds)
	reasons := map[string]string{}
	var own []diag.Diagnostic
	used := make([]bool, len(acks))
	for i, a := range acks {
		if a.expired(version, today) {
			used[i] = true
			own = append(own, a.at("acknowledge.expired", "the acknowledgment of %q ended with %s: the finding breaks callers again; release it as a major version, or extend until with a new review", a.Finding, a.Until).
				WithFix("remove the entry, or set a later until"))
		}
	}
	for j := range out {
		d := &out[j]
		if d.Severity != diag.Error || !isBreak(d.Code) {
			continue
		}
		i := slices.IndexFunc(acks, func(a Ack) bool { return a.matches(*d) })
		switch {
		case i >= 0 && !acks[i].expired(version, today):
			used[i] = true
			d.Severity = diag.Warning
			d.Message += fmt.Sprintf(" (acknowledged until %s: %s)", acks[i].Until, acks[i].Reason)
			reasons[FindingText(*d)] = acks[i].Reason
		case i < 0:
			d.Fix = fmt.Sprintf("if the release means it, acknowledge it in toolc.toml: [[acknowledge]] finding = %q reason = \"…\" until = %q", FindingText(*d), untilFor(version))
		}
	}
	for i, a := range acks {
		if !used[i] {
			own = append(own, a.at("acknowledge.stale", "the acknowledgment of %q names no finding of this comparison: the change it let through is released, or was undone", a.Finding).
				WithFix("remove the entry"))
		}
	}
	return out, reasons, own
}

// untilFor is the until an entry pasted now would take: the release
// itself, or, for a catalog without a version, a date to choose.
func untilFor(version string) string {
	if version == "" {
		return "YYYY-MM-DD"
	}
	return version
}
