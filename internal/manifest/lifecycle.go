package manifest

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
)

// Acknowledgment is one [[acknowledge]] entry: a finding of toolc breaking
// that a release means, reviewed, with its reason, until a version or a
// date after which the entry is an error.
type Acknowledgment struct {
	// Finding is what toolc breaking prints for it: "CODE tool=ID" and,
	// for a finding inside the tool, " at=POINTER"; or its fingerprint.
	Finding string `toml:"finding"`
	Reason  string `toml:"reason"`
	Until   string `toml:"until"` // a semantic version, or a date YYYY-MM-DD
}

// Tombstone is one [[removed]] entry: a tool the catalog no longer has,
// the version that removed it and the tool to use instead. The lock
// records it, so that a call to it gets an answer that says so.
type Tombstone struct {
	ID  string `toml:"id"`
	In  string `toml:"in"`
	Use string `toml:"use"`
}

// Deprecation is [policy] deprecation: how long a tool or property must
// have been deprecated before removing it is a minor change.
type Deprecation struct {
	Releases int `toml:"releases"` // releases that carried it deprecated
	Days     int `toml:"days"`     // days since the first of them
	// Prereleases counts pre-release tags (1.1.0-rc.1) as releases; by
	// default a release is a version without a pre-release part.
	Prereleases bool `toml:"prereleases"`
}

// Horizon is [policy] acknowledge: how far an acknowledgment's until may
// lie, from the build's date (Days, 365 when not set) or after the
// catalog's version (Majors major versions, 1 when not set: until the
// next major release). An acknowledgment that never ends is a break kept
// quiet for good.
type Horizon struct {
	Days   int `toml:"days"`
	Majors int `toml:"majors"`
}

// The horizon's defaults.
const (
	DefaultHorizonDays   = 365
	DefaultHorizonMajors = 1
)

// Limits are h's days and majors, with their defaults.
func (h *Horizon) Limits() (days, majors int) {
	days, majors = DefaultHorizonDays, DefaultHorizonMajors
	if h != nil && h.Days > 0 {
		days = h.Days
	}
	if h != nil && h.Majors > 0 {
		majors = h.Majors
	}
	return days, majors
}

// policy is the [policy] table as written: diag.Policy's lists and the
// deprecation window.
type policy struct {
	Deny        []string     `toml:"deny"`
	Warn        []string     `toml:"warn"`
	Ignore      []string     `toml:"ignore"`
	Deprecation *Deprecation `toml:"deprecation"`
	Acknowledge *Horizon     `toml:"acknowledge"`
	Quality     *Quality     `toml:"quality"`
}

// Quality is [policy] quality: the description score (docs/quality.md) a
// build requires of the catalog.
type Quality struct {
	// Min is the lowest catalog score the build takes, 1 to 5; each tool
	// under it is named.
	Min float64 `toml:"min"`
}

// findingRE is the text form of a finding: its code, its tool, and where in
// the tool.
var findingRE = regexp.MustCompile(`^(breaking\.[a-z-]+) tool=(\S+)(?: at=(\S+))?$`)

// fingerprintRE is a finding's fingerprint, as diag.Fingerprint writes it.
var fingerprintRE = regexp.MustCompile(`^[0-9a-f]{32}$`)

// ParseFinding splits the text form of a finding into its code, tool ID and
// pointer; ok is false when it is neither that nor a fingerprint.
func ParseFinding(s string) (code, tool, at string, ok bool) {
	if fingerprintRE.MatchString(s) {
		return "", "", "", true
	}
	m := findingRE.FindStringSubmatch(s)
	if m == nil {
		return "", "", "", false
	}
	if _, _, err := canonical.ParseID(m[2]); err != nil {
		return "", "", "", false
	}
	return m[1], m[2], m[3], diag.Known(m[1])
}

// ParseUntil reads an acknowledgment's until: a version or a date.
func ParseUntil(s string) (version string, date time.Time, ok bool) {
	if semverRE.MatchString(s) {
		return s, time.Time{}, true
	}
	d, err := time.Parse(time.DateOnly, s)
	return "", d, err == nil
}

// checkLifecycle checks the [[acknowledge]] and [[removed]] entries and
// the deprecation window.
func (d *decoder) checkLifecycle(m *Manifest) {
	for i, a := range m.Acknowledge {
		key := fmt.Sprintf("acknowledge[%d]", i)
		if _, _, _, ok := ParseFinding(a.Finding); !ok {
			d.errorAt("manifest.invalid", key+".finding", "%q is not a finding: paste the line toolc breaking prints (\"breaking.CODE tool=ID at=POINTER\") or its fingerprint", a.Finding)
		}
		switch r := strings.TrimSpace(a.Reason); {
		case r == "":
			d.errorAt("manifest.invalid", key, "an acknowledgment needs a reason = \"...\": why the release breaks this on purpose")
		case placeholderReason(r):
			d.errorAt("manifest.invalid", key+".reason", "reason = %q is a placeholder: write why the release breaks this on purpose (the release notes print it)", a.Reason)
		}
		if _, _, ok := ParseUntil(a.Until); !ok {
			d.errorAt("manifest.invalid", key+".until", "until = %q is neither a semantic version (\"2.0.0\") nor a date (\"2027-01-31\"): an acknowledgment must end", a.Until)
		}
	}
	for i, t := range m.Removed {
		key := fmt.Sprintf("removed[%d]", i)
		if _, _, err := canonical.ParseID(t.ID); err != nil {
			d.errorAt("manifest.invalid", key+".id", "%v", err)
		}
		if !semverRE.MatchString(t.In) {
			d.errorAt("manifest.invalid", key+".in", "in = %q is not the semantic version that removed the tool", t.In)
		}
		if t.Use != "" {
			if _, _, err := canonical.ParseID(t.Use); err != nil {
				d.errorAt("manifest.invalid", key+".use", "%v", err)
			}
		}
	}
	if w := m.Deprecation; w != nil && (w.Releases < 0 || w.Days < 0) {
		d.errorAt("manifest.invalid", "policy.deprecation", "releases and days count forward: want 0 or more")
	}
	if h := m.Horizon; h != nil && (h.Days < 0 || h.Majors < 0) {
		d.errorAt("manifest.invalid", "policy.acknowledge", "days and majors count forward: want 1 or more (0 keeps the default)")
	}
}

// placeholderReason reports whether a reason says nothing: the ellipsis
// toolc's own fix prints for it, or a TODO.
func placeholderReason(r string) bool {
	r = strings.ToLower(strings.Trim(r, " .…<>[]()"))
	return r == "" || r == "todo" || r == "tbd" || r == "fixme" || r == "why" || r == "reason"
}
