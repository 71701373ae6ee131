package pipeline

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/toolc-dev/toolc/diag"
)

// TestBaselineGroupsTargetsAndCounts: one entry per finding with its
// targets, a count that changes is the same finding, and a version 1 file
// (one entry per target) is still read.
func TestBaselineGroupsTargetsAndCounts(t *testing.T) {
	lossA := diag.Diagnostic{Code: "loss.default", Severity: diag.Warning, File: "a.json", Pointer: "/0/inputSchema", Tool: "a", Target: "openai", Message: "default 1 dropped"}
	lossB := lossA
	lossB.Target = "gemini"
	count := diag.Diagnostic{Code: "accept.tools", Severity: diag.Warning, File: "toolc.toml", Target: "openai", Message: "the openai bundle has 3 tools"}
	data, n := EncodeBaseline([]diag.Diagnostic{lossA, lossB, count})
	if n != 2 || strings.Count(string(data), "[[known]]") != 2 || !strings.Contains(string(data), `targets = ["gemini", "openai"]`) {
		t.Fatalf("EncodeBaseline = %d findings:\n%s", n, data)
	}
	known, ds := readBaseline(fstest.MapFS{"toolc.baseline": {Data: data}}, "toolc.baseline")
	if len(ds) > 0 {
		t.Fatal(ds)
	}
	more := count
	more.Message = "the openai bundle has 4 tools"
	other := lossA
	other.Target = "anthropic" // the same loss in a target it was not known for
	kept, hidden, gone := hideKnown([]diag.Diagnostic{lossA, lossB, more, other}, known)
	if len(kept) != 1 || kept[0].Target != "anthropic" || hidden != 2 || gone != 0 {
		t.Errorf("hideKnown = %v, %d hidden, %d gone; want the anthropic loss kept, 2 hidden", kept, hidden, gone)
	}

	v1 := "version = 1\n[[known]]\nfingerprint = \"" + diag.Fingerprint(lossA) + "\"\ncode = \"loss.default\"\nmessage = \"x\"\n"
	known, ds = readBaseline(fstest.MapFS{"toolc.baseline": {Data: []byte(v1)}}, "toolc.baseline")
	if len(ds) > 0 {
		t.Fatal(ds)
	}
	if kept, hidden, _ := hideKnown([]diag.Diagnostic{lossA, lossB}, known); len(kept) != 1 || kept[0].Target != "gemini" || hidden != 1 {
		t.Errorf("a version 1 baseline: kept %v, hid %d; want the gemini loss kept", kept, hidden)
	}
}
