package breaking

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/diagfmt"
)

// Window is a catalog's deprecation window ([policy] deprecation):
// removing a deprecated tool or input property is minor only once the
// releases just before the new one carried it deprecated, at least
// Releases of them, the first at least Days days before; earlier it is
// breaking.removed-early.
type Window struct {
	Releases, Days int
	// History returns the earlier releases, oldest first, before the new
	// catalog's version. Compare calls it once, on the first removal of
	// something deprecated; an error says why the releases are not known
	// (an earlier catalog that is no git revision, a shallow clone).
	History func() ([]Release, error)
}

// Release is one earlier release of the catalog: a version, counted once
// whatever tags name it, dated by its first tag.
type Release struct {
	Version string
	Date    time.Time
	// Tags are the tags that name it, the first first.
	Tags []string
	// Tools reads the release's catalog: once, when the window needs it
	// (a removal reads back only as far as its deprecation goes). An
	// error says why the release cannot be read; the window is judged on
	// the others, and the release is a history.release-unreadable warning.
	Tools func() ([]*canonical.Tool, error)
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

// deprecatedRun returns the releases, newest first, of the run just
// before the new catalog that carried the tool id (or, with at, its input
// property at that pointer) deprecated: read from the newest back, until a
// release that did not, or until the run fills the window (w, as of
// today). A release that cannot be read is passed over, and said once.
func (c *comparer) deprecatedRun(rs []Release, id string, at canonical.Pointer) []Release {
	w := c.opts.Window
	var in []Release
	for i := len(rs) - 1; i >= 0; i-- {
		r := rs[i]
		tools, err := r.Tools()
		if err != nil {
			c.unreadable(r, err)
			continue
		}
		if !deprecated(tools, id, at) {
			break
		}
		in = append(in, r)
		if len(in) >= max(w.Releases, 1) && c.daysSince(r.Date) >= w.Days {
			break // the window is met: older releases change nothing
		}
	}
	return in
}

// deprecated reports whether tools has the tool id deprecated, or with
// at, its input property at that pointer.
func deprecated(tools []*canonical.Tool, id string, at canonical.Pointer) bool {
	i := slices.IndexFunc(tools, func(t *canonical.Tool) bool { return t.ID() == id })
	if i < 0 {
		return false
	}
	t := tools[i]
	switch {
	case at == "":
		return t.Deprecated
	case t.Input != nil:
		if p := t.Input.JSON().Resolve(at); p != nil {
			dep, _ := p.Get("deprecated").BoolValue()
			return dep
		}
	}
	return false
}

// unreadable says, once a release, that r could not be read.
func (c *comparer) unreadable(r Release, err error) {
	if c.said == nil {
		c.said = map[string]bool{}
	}
	if c.said[r.Version] {
		return
	}
	c.said[r.Version] = true
	c.out = append(c.out, diag.New("history.release-unreadable", "release %s (tag %s) cannot be read, so the deprecation window is counted without it: %v", r.Version, strings.Join(r.Tags, ", "), err).
		WithFix("fix the catalog at that tag (a release tag is not moved), or leave the warning: the window counts the releases that can be read"))
}

func (c *comparer) daysSince(t time.Time) int { return int(c.opts.Today.Sub(t).Hours() / 24) }

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
	in := c.deprecatedRun(rs, id, at)
	asks := fmt.Sprintf("[policy] deprecation asks %s and %s", diagfmt.Plural(w.Releases, "release"), diagfmt.Plural(w.Days, "day"))
	if len(in) == 0 {
		if w.Releases == 0 && w.Days == 0 {
			return "breaking.retired", fmt.Sprintf("%s was removed; it was deprecated, and %s", what, asks)
		}
		return "breaking.removed-early", fmt.Sprintf("%s was removed, but the release before this one did not carry it deprecated: %s first", what, asks)
	}
	slices.Reverse(in) // oldest first
	days := c.daysSince(in[0].Date)
	had := fmt.Sprintf("deprecated in %s (%s), the first %s ago", diagfmt.Plural(len(in), "release"), versions(in), diagfmt.Plural(days, "day"))
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
	case "breaking.description-changed", "breaking.tool-deferred", "breaking.version", "breaking.version-minor", "breaking.unverified", "breaking.retired":
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

// Beyond says why a's until lies past the horizon, or "": a date more
// than days after today, or a version past the catalog's version's majors
// next major versions (0.y.z counts as cargo does: 0.2.0 is 0.1.z's next
// major), or a version too large to compare.
func (a Ack) Beyond(version string, today time.Time, days, majors int) string {
	if a.UntilVersion == "" {
		if limit := today.AddDate(0, 0, days); a.UntilDate.After(limit) {
			return fmt.Sprintf("until = %q is more than %s after today (%s): an acknowledgment is a reviewed exception, not a standing one; set a date up to %s, or a longer horizon with [policy] acknowledge = { days = N }",
				a.Until, diagfmt.Plural(days, "day"), today.Format(time.DateOnly), limit.Format(time.DateOnly))
		}
		return ""
	}
	u, ok := parseVersion(a.UntilVersion)
	if !ok {
		return fmt.Sprintf("until = %q is no version toolc can compare (a number too large for one)", a.Until)
	}
	if _, ok := parseVersion(version); !ok {
		return "" // a catalog without a version: its releases are not counted
	}
	limit := version
	for range majors {
		limit = Next(limit, Major)
	}
	if l, _ := parseVersion(limit); slices.Compare(u[:], l[:]) > 0 {
		return fmt.Sprintf("until = %q is past %s, %s after the catalog's %s: a major release may break anyway, so an acknowledgment ends by then; set until = %q at most, or a longer horizon with [policy] acknowledge = { majors = N }",
			a.Until, limit, diagfmt.Plural(majors, "major release"), version, limit)
	}
	return ""
}

// ackFor is the index of the acknowledgment of acks that lets the break d
// through in a release of version, today, or -1.
func ackFor(d diag.Diagnostic, acks []Ack, version string, today time.Time) int {
	i := slices.IndexFunc(acks, func(a Ack) bool { return a.matches(d) })
	if i >= 0 && acks[i].expired(version, today) {
		return -1
	}
	return i
}

// Required is the bump a comparison's findings call for, from what they
// break: ds as Compare made them, before any policy, with the changes to
// tools that were not stable lowered (Stabilize), and a break an
// acknowledgment lets through counted as the minor release it asks for.
// The policy decides which findings fail the build; it never decides the
// version (a description edit denied is still a patch).
func Required(ds []diag.Diagnostic, old []*canonical.Tool, acks []Ack, version string, today time.Time) Bump {
	ds = Stabilize(ds, old)
	for i := range ds {
		if ds[i].Severity == diag.Error && isBreak(ds[i].Code) && ackFor(ds[i], acks, version, today) >= 0 {
			ds[i].Severity = diag.Warning
		}
	}
	return Needed(ds)
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
		if !a.expired(version, today) {
			continue
		}
		used[i] = true
		if !slices.ContainsFunc(ds, a.matches) {
			own = append(own, a.at("acknowledge.expired", "the acknowledgment of %q ended with %s, and names no finding of this comparison: the change it let through is released, or was undone", a.Finding, a.Until).
				WithFix("remove the entry"))
			continue
		}
		own = append(own, a.at("acknowledge.expired", "the acknowledgment of %q ended with %s: the finding breaks callers again; release it as a major version, or extend until with a new review", a.Finding, a.Until).
			WithFix("remove the entry, or set a later until"))
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
			d.Fix = AckFix(FindingText(*d), untilFor(version))
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

// AckFix is the fix that acknowledges a finding: an [[acknowledge]] table
// to paste into toolc.toml, whose reason is to be written (the manifest
// refuses its placeholder).
func AckFix(finding, until string) string {
	return fmt.Sprintf("if the release means it, acknowledge it in toolc.toml, with the reason written:\n[[acknowledge]]\nfinding = %q\nreason = \"…\"\nuntil = %q", finding, until)
}
