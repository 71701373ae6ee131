package breaking

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/toolc-dev/toolc/diag"
)

// Bump is a semantic-version bump.
type Bump int

// The bumps, from none to major.
const (
	None Bump = iota
	Patch
	Minor
	Major
)

// String returns "none", "patch", "minor" or "major".
func (b Bump) String() string {
	return [...]string{"none", "patch", "minor", "major"}[b]
}

// minorCodes are the findings that add to what a catalog offers without
// breaking callers: a minor release.
var minorCodes = map[string]bool{
	"breaking.tool-added":          true,
	"breaking.optional-added":      true,
	"breaking.enum-value-added":    true,
	"breaking.constraint-loosened": true,
	"breaking.tool-deprecated":     true,
	"breaking.tool-renamed":        true,
	"breaking.tool-sunset":         true,
	"breaking.retired":             true,
}

// Needed returns the bump that the findings ds call for: major for any
// error (a breaking change, after the policy), minor for an addition or a
// break that is only a warning (a beta tool's, an acknowledged one), patch
// for a change in wording only, none when nothing changed.
func Needed(ds []diag.Diagnostic) Bump {
	b := None
	for _, d := range ds {
		switch {
		case !strings.HasPrefix(d.Code, "breaking."):
			// an acknowledgment's own finding says nothing of the catalog
		case d.Severity == diag.Error && d.Code != "breaking.version":
			return Major
		case d.Severity == diag.Warning && isBreak(d.Code):
			b = max(b, Minor)
		case minorCodes[d.Code]:
			b = max(b, Minor)
		case d.Code == "breaking.description-changed", d.Code == "breaking.tool-deferred":
			b = max(b, Patch)
		}
	}
	return b
}

// version is MAJOR.MINOR.PATCH; pre-release and build parts are ignored.
type version [3]int

func parseVersion(s string) (version, bool) {
	s, _, _ = strings.Cut(s, "+")
	s, _, _ = strings.Cut(s, "-")
	parts := strings.Split(s, ".")
	var v version
	if len(parts) != 3 {
		return v, false
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return v, false
		}
		v[i] = n
	}
	return v, true
}

// bumpOf returns the bump from old to new, by semver's rules and cargo's
// for 0.x versions: in 0.y.z the minor number is the major one and the
// patch the minor one, and in 0.0.z every change is major.
func bumpOf(old, new version) Bump {
	switch {
	case new[0] > old[0]:
		return Major
	case new[0] < old[0]:
		return None
	case new[1] > old[1] && old[0] == 0:
		return Major
	case new[1] > old[1]:
		return Minor
	case new[1] < old[1]:
		return None
	case new[2] > old[2] && old[0] == 0 && old[1] == 0:
		return Major
	case new[2] > old[2] && old[0] == 0:
		return Minor
	case new[2] > old[2]:
		return Patch
	}
	return None
}

// Next returns the smallest version after old that makes the bump need.
func Next(old string, need Bump) string {
	v, ok := parseVersion(old)
	if !ok || need == None {
		return old
	}
	switch {
	case need == Major && v[0] == 0 && v[1] > 0:
		v = version{0, v[1] + 1, 0}
	case need == Major && v[0] > 0:
		v = version{v[0] + 1, 0, 0}
	case need == Minor && v[0] > 0:
		v = version{v[0], v[1] + 1, 0}
	default: // a patch, or any change of 0.0.z; 0.y.z takes additions in a patch
		v[2]++
	}
	return fmt.Sprintf("%d.%d.%d", v[0], v[1], v[2])
}

// Covers reports whether going from oldVersion to newVersion is a release
// of at least the bump need: both versions are semantic versions and the
// new one bumps enough (a major change in 0.y.z needs a new minor, as cargo
// reads it).
func Covers(oldVersion, newVersion string, need Bump) bool {
	o, ok1 := parseVersion(oldVersion)
	n, ok2 := parseVersion(newVersion)
	return ok1 && ok2 && bumpOf(o, n) >= need
}

// versionChange says what going from oldVersion to newVersion is.
func versionChange(oldVersion, newVersion string, got Bump) string {
	switch {
	case oldVersion == newVersion:
		return fmt.Sprintf("the catalog version stays %s", oldVersion)
	case got == None:
		return fmt.Sprintf("the catalog version goes from %s to %s, which is no release after it", oldVersion, newVersion)
	}
	return fmt.Sprintf("the catalog version goes from %s to %s, a %s release", oldVersion, newVersion, got)
}

// CheckVersion compares the catalog's version change with the bump its
// changes need. It returns a breaking.version error when a breaking change
// comes without a major bump (0.x: a minor one), and a
// breaking.version-minor warning when an addition comes with a patch bump
// only. Either version empty or not semantic: no finding.
func CheckVersion(oldVersion, newVersion string, need Bump) (diag.Diagnostic, bool) {
	o, ok1 := parseVersion(oldVersion)
	n, ok2 := parseVersion(newVersion)
	if !ok1 || !ok2 || need == None {
		return diag.Diagnostic{}, false
	}
	got := bumpOf(o, n)
	switch {
	case need == Major && got < Major:
		return diag.New("breaking.version", "%s, but its changes break callers: it needs %s", versionChange(oldVersion, newVersion, got), Next(oldVersion, Major)).
			WithFix(fmt.Sprintf(`set [catalog] version = "%s"`, Next(oldVersion, Major))), true
	case need == Minor && got < Minor:
		return diag.New("breaking.version-minor", "%s, but it adds to the catalog: %s would say so", versionChange(oldVersion, newVersion, got), Next(oldVersion, Minor)).
			WithFix(fmt.Sprintf(`set [catalog] version = "%s"`, Next(oldVersion, Minor))), true
	}
	return diag.Diagnostic{}, false
}
