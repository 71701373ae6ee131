package breaking

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/diagfmt"
)

// Verdict is what a comparison of two catalogs comes to, ready to print as
// text, as release notes in Markdown, or as a JSON record.
type Verdict struct {
	// Need is the bump the findings need.
	Need Bump
	// Findings are the comparison's diagnostics, with the policy applied.
	Findings []diag.Diagnostic
	// From is the earlier catalog's version, To the version the manifest
	// says; either may be empty.
	From, To string
	// Acknowledged counts the breaking changes that a major release printed
	// as warnings (InMajor).
	Acknowledged int
	// Reasons holds the reason of each finding an [[acknowledge]] entry
	// let through, by its FindingText.
	Reasons map[string]string
	// Tombstones are the manifest's removed tools, by ID; Window its
	// deprecation window, if any.
	Tombstones map[string]Tombstone
	Window     *Window
}

// InMajor returns the findings as a release whose version says it
// breaks callers prints them: each breaking error a warning, what the
// release contains; and how many it changed.
func InMajor(ds []diag.Diagnostic, version string) ([]diag.Diagnostic, int) {
	out := slices.Clone(ds)
	n := 0
	for i := range out {
		if out[i].Severity == diag.Error && strings.HasPrefix(out[i].Code, "breaking.") {
			out[i].Severity = diag.Warning
			out[i].Message += fmt.Sprintf(" (in %s, which says it breaks callers)", version)
			out[i].Fix = "" // the release itself says it
			n++
		}
	}
	return out, n
}

// bumpFor returns the bump one finding needs.
func bumpFor(d diag.Diagnostic) Bump { return Needed([]diag.Diagnostic{d}) }

// lifecycleCodes have sections of their own in the release notes.
var lifecycleCodes = []string{"breaking.tool-added", "breaking.tool-removed", "breaking.tool-sunset", "breaking.tool-deprecated", "breaking.tool-renamed"}

// WriteChangelog prints release notes in Markdown for the catalog named
// name: the bump, then the tools that break callers, were added, changed or
// removed, each change once.
func (v *Verdict) WriteChangelog(w io.Writer, name string) {
	need, ds, oldVersion, newVersion := v.Need, v.Findings, v.From, v.To
	title := cmp.Or(strings.TrimSpace(name+" "+newVersion), "Tool catalog")
	fmt.Fprintf(w, "## %s\n\n", title)
	switch {
	case need == None:
		fmt.Fprintf(w, "No change that callers can see.\n")
		return
	case oldVersion != "":
		fmt.Fprintf(w, "A **%s** release: from %s, at least %s", need, oldVersion, Next(oldVersion, need))
		if newVersion != "" {
			fmt.Fprintf(w, " (this is %s)", newVersion)
		}
		fmt.Fprint(w, ".\n")
	default:
		fmt.Fprintf(w, "A **%s** release.\n", need)
	}
	acked := func(d diag.Diagnostic) bool { _, ok := v.Reasons[FindingText(d)]; return ok }
	removal := func(d diag.Diagnostic) bool {
		return slices.Contains([]string{"breaking.tool-removed", "breaking.tool-sunset", "breaking.retired", "breaking.removed-early"}, d.Code) && d.Subject == ""
	}
	sections := []struct {
		title string
		keep  func(diag.Diagnostic) bool
	}{
		{"Breaking", func(d diag.Diagnostic) bool { return bumpFor(d) == Major && !removal(d) }},
		{"Acknowledged", acked},
		{"Removed", func(d diag.Diagnostic) bool { return removal(d) && !acked(d) }}, // an acknowledged one is said under Acknowledged
		{"Deprecated", func(d diag.Diagnostic) bool { return d.Code == "breaking.tool-deprecated" }},
		{"Renamed", func(d diag.Diagnostic) bool { return d.Code == "breaking.tool-renamed" }},
		{"Added", func(d diag.Diagnostic) bool { return d.Code == "breaking.tool-added" }},
		{"Changed", func(d diag.Diagnostic) bool {
			b := bumpFor(d)
			return (b == Minor || b == Patch) && !slices.Contains(lifecycleCodes, d.Code) && !acked(d) && !removal(d)
		}},
		{"To check by hand", func(d diag.Diagnostic) bool { return d.Code == "breaking.unverified" }},
	}
	for _, sec := range sections {
		var lines []string
		for _, d := range ds {
			if d.Code == "breaking.version" || d.Code == "breaking.version-minor" || !sec.keep(d) {
				continue
			}
			line := v.changelogLine(d)
			if !slices.Contains(lines, line) {
				lines = append(lines, line)
			}
		}
		if len(lines) > 0 {
			fmt.Fprintf(w, "\n### %s\n\n%s\n", sec.title, strings.Join(lines, "\n"))
		}
	}
}

// verdictRecord is the json format's last line from breaking:
// {"breaking": {...}}, beside the findings' lines, which have "code".
type verdictRecord struct {
	Breaking struct {
		Bump         string                    `json:"bump"`                   // none, patch, minor or major
		From         string                    `json:"from,omitempty"`         // the earlier catalog's version
		Needs        string                    `json:"needs,omitempty"`        // the least version that covers the bump
		Version      string                    `json:"version,omitempty"`      // the version the manifest says
		Covered      bool                      `json:"covered"`                // the manifest's version covers the bump
		Acknowledged int                       `json:"acknowledged,omitempty"` // breaking changes a major release printed as warnings
		Counts       map[string]map[string]int `json:"counts"`                 // bump → code (without "breaking.") → findings
	} `json:"breaking"`
}

// WriteJSON prints the verdict as one JSON line, {"breaking": {...}}: the
// json format's last line, after the findings' lines (which have "code").
func (vd *Verdict) WriteJSON(w io.Writer) {
	need, ds, oldVersion, newVersion := vd.Need, vd.Findings, vd.From, vd.To
	var r verdictRecord
	v := &r.Breaking
	v.Bump, v.From, v.Version, v.Acknowledged = need.String(), oldVersion, newVersion, vd.Acknowledged
	if oldVersion != "" && need != None {
		v.Needs = Next(oldVersion, need)
	}
	v.Covered = need == None || Covers(oldVersion, newVersion, need)
	v.Counts = map[string]map[string]int{}
	for _, d := range ds {
		bump := bumpFor(d)
		if bump == None {
			continue
		}
		b := bump.String()
		if v.Counts[b] == nil {
			v.Counts[b] = map[string]int{}
		}
		v.Counts[b][strings.TrimPrefix(d.Code, "breaking.")]++
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(r)
}

// WriteText prints the bump the changes need, and why: a line with the bump
// and the least version, then per bump the codes and how many.
func (v *Verdict) WriteText(w io.Writer) {
	need, ds, oldVersion, newVersion := v.Need, v.Findings, v.From, v.To
	count := map[Bump]map[string]int{}
	for _, d := range ds {
		b := bumpFor(d)
		if count[b] == nil {
			count[b] = map[string]int{}
		}
		count[b][d.Code]++
	}
	line := need.String()
	if oldVersion != "" && need != None {
		line += fmt.Sprintf(": %s needs at least %s", oldVersion, Next(oldVersion, need))
		if newVersion != "" {
			line += fmt.Sprintf(" (the manifest says %s)", newVersion)
		}
	}
	fmt.Fprintln(w, line)
	for _, b := range []Bump{Major, Minor, Patch} {
		codes := count[b]
		if len(codes) == 0 {
			continue
		}
		var parts []string
		for _, c := range slices.Sorted(maps.Keys(codes)) {
			parts = append(parts, fmt.Sprintf("%s %d", strings.TrimPrefix(c, "breaking."), codes[c]))
		}
		fmt.Fprintf(w, "  %s: %s\n", b, strings.Join(parts, ", "))
	}
}

// changelogLine is the release notes' line of the finding d.
func (v *Verdict) changelogLine(d diag.Diagnostic) string {
	switch {
	case d.Tool == "":
		return "- " + d.Message
	case d.Code == "breaking.tool-added":
		return fmt.Sprintf("- `%s`", d.Tool)
	case d.Code == "breaking.tool-removed":
		if ts, ok := v.Tombstones[d.Tool]; ok && ts.Use != "" {
			return fmt.Sprintf("- `%s`: use `%s`", d.Tool, ts.Use)
		}
		return fmt.Sprintf("- `%s`", d.Tool)
	case d.Code == "breaking.tool-deprecated" && v.Window != nil:
		return fmt.Sprintf("- `%s`: %s; it may go in a minor release once deprecated in %s, the first %s before", d.Tool, d.Message, diagfmt.Plural(v.Window.Releases, "release"), diagfmt.Plural(v.Window.Days, "day"))
	case d.Code == "breaking.tool-deprecated":
		return fmt.Sprintf("- `%s`: %s", d.Tool, d.Message)
	}
	return fmt.Sprintf("- `%s`: %s", d.Tool, d.Message)
}

// Shown returns the findings as toolc breaking prints them: as InMajor
// makes them when the release's version says it breaks callers (unless
// strict), counting them in Acknowledged.
func (v *Verdict) Shown(strict bool) []diag.Diagnostic {
	if strict || v.Need != Major || !Covers(v.From, v.To, v.Need) {
		return v.Findings
	}
	shown, n := InMajor(v.Findings, v.To)
	v.Acknowledged = n
	return shown
}

// Status is toolc breaking's last line for the findings it showed, with
// summary ("13 tools against 12 in v1.2.0") at its end; failed when they
// hold an error.
func (v *Verdict) Status(shown []diag.Diagnostic, summary string) (line string, failed bool) {
	errs, _, _ := diag.Count(shown)
	switch {
	case errs > 0:
		return fmt.Sprintf("breaking: %s: %s", diagfmt.Plural(errs, "error"), summary), true
	case v.Acknowledged > 0:
		return fmt.Sprintf("%s is a major release and says so: %s that break callers, printed above: %s", v.To, diagfmt.Plural(v.Acknowledged, "change"), summary), false
	case len(v.Reasons) > 0:
		return fmt.Sprintf("nothing breaks but %s that toolc.toml acknowledges: %s", diagfmt.Plural(len(v.Reasons), "change"), summary), false
	}
	return "nothing breaks: " + summary, false
}
