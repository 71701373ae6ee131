package breaking

import (
	"strings"
	"testing"

	"github.com/toolc-dev/toolc/diag"
)

// verdictFindings are what a comparison of two releases might give: a
// property removed (major), a tool added (minor), a description changed
// (patch).
var verdictFindings = []diag.Diagnostic{
	{Code: "breaking.property-removed", Severity: diag.Error, Tool: "github:search", Message: `property "q" was removed`},
	{Code: "breaking.tool-added", Severity: diag.Warning, Tool: "github:list"},
	{Code: "breaking.description-changed", Severity: diag.Info, Tool: "github:list", Message: "the description changed"},
}

func TestVerdictWriters(t *testing.T) {
	v := &Verdict{Need: Needed(verdictFindings), Findings: verdictFindings, From: "1.2.0", To: "1.3.0"}
	var md, text, js strings.Builder
	v.WriteChangelog(&md, "acme")
	v.WriteText(&text)
	v.WriteJSON(&js)
	for _, tc := range []struct{ name, got, want string }{
		{"WriteChangelog", md.String(), "## acme 1.3.0\n\nA **major** release: from 1.2.0, at least 2.0.0 (this is 1.3.0).\n\n" +
			"### Breaking\n\n- `github:search`: property \"q\" was removed\n\n### Added\n\n- `github:list`\n\n" +
			"### Changed\n\n- `github:list`: the description changed\n"},
		{"WriteText", text.String(), "major: 1.2.0 needs at least 2.0.0 (the manifest says 1.3.0)\n  major: property-removed 1\n  minor: tool-added 1\n  patch: description-changed 1\n"},
		{"WriteJSON", js.String(), `{"breaking":{"bump":"major","from":"1.2.0","needs":"2.0.0","version":"1.3.0","covered":false,"counts":{"major":{"property-removed":1},"minor":{"tool-added":1},"patch":{"description-changed":1}}}}` + "\n"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s wrote\n%s\nwant\n%s", tc.name, tc.got, tc.want)
		}
	}
}

// TestAcknowledge: a release whose version says it breaks callers prints
// each breaking error as a warning that says so, and counts them.
func TestInMajor(t *testing.T) {
	got, n := InMajor(verdictFindings, "2.0.0")
	if n != 1 || got[0].Severity != diag.Warning || !strings.HasSuffix(got[0].Message, "(in 2.0.0, which says it breaks callers)") {
		t.Errorf("Acknowledge = %v, %d; want the removal as a warning that names 2.0.0, and 1", got, n)
	}
	if verdictFindings[0].Severity != diag.Error {
		t.Errorf("Acknowledge changed its input")
	}
}

// TestAcknowledgedRemovalOnce: an early removal that an [[acknowledge]]
// entry lets through is said once in the release notes, under
// Acknowledged, not again under Removed.
func TestAcknowledgedRemovalOnce(t *testing.T) {
	d := diag.Diagnostic{Code: "breaking.removed-early", Severity: diag.Warning, Tool: "shop:old_report", Message: "removed before its deprecation window passed (acknowledged until 2.0.0: the report moved to the data team)"}
	v := &Verdict{Need: Minor, Findings: []diag.Diagnostic{d}, From: "1.2.0", To: "1.3.0", Reasons: map[string]string{FindingText(d): "the report moved to the data team"}}
	var md strings.Builder
	v.WriteChangelog(&md, "shop")
	if n := strings.Count(md.String(), "shop:old_report"); n != 1 {
		t.Errorf("the acknowledged removal is said %d times:\n%s", n, md.String())
	}
}
