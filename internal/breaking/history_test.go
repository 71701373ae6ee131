package breaking_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/breaking"
	"github.com/toolc-dev/toolc/internal/corpus"
	"github.com/toolc-dev/toolc/internal/formats"
)

// TestGitHubMCPServerHistory compares every pair of consecutive versions of
// each tool of GitHub's MCP server, in the order of the corpus's
// MANIFEST.json (newest first), and reports what breaks. The counts are
// logged, not asserted: they are a finding about the history, not about
// toolc. What is asserted: the history is read, and breaking changes are
// found (GitHub's history has removals and new required parameters). A
// version that is not a valid MCP tool is passed over: its neighbours are
// compared.
func TestGitHubMCPServerHistory(t *testing.T) {
	dir := corpus.Path(t, "mcp", "github-mcp-server")
	data, err := os.ReadFile(filepath.Join(dir, "MANIFEST.json"))
	if err != nil {
		t.Skipf("no MANIFEST.json: %v", err)
	}
	var m struct {
		History []struct{ File, Name, Date string }
		Removed []string `json:"history_names_not_current"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	mcp, _ := formats.Default().Get("mcp")
	var invalid []string // versions that are not valid MCP tools; compared across
	load := func(file string) *canonical.Tool {
		data, err := os.ReadFile(filepath.Join(dir, "history", file))
		if err != nil {
			t.Fatal(err)
		}
		doc, err := canonical.ParseJSON(data)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		tools, ds := mcp.Decode(doc, file)
		if len(tools) != 1 || diag.HasErrors(ds) {
			invalid = append(invalid, file)
			return nil
		}
		return tools[0]
	}
	// Versions per tool, oldest first: the manifest lists newest first.
	versions := map[string][]string{}
	for i := len(m.History) - 1; i >= 0; i-- {
		h := m.History[i]
		versions[h.Name] = append(versions[h.Name], h.File)
	}
	pairs, breakingPairs, findings, unverified := 0, 0, 0, 0
	byCode := map[string]int{}
	bumps := map[breaking.Bump]int{}
	for _, name := range slices.Sorted(maps.Keys(versions)) {
		var old *canonical.Tool
		for _, file := range versions[name] {
			new := load(file)
			if new == nil {
				continue
			}
			if old == nil {
				old = new
				continue
			}
			ds := breaking.Compare([]*canonical.Tool{old}, []*canonical.Tool{new}, breaking.Options{})
			pairs++
			bumps[breaking.Needed(ds)]++
			errs, _, _ := diag.Count(ds)
			if errs > 0 {
				breakingPairs++
			}
			for _, d := range ds {
				if d.Severity == diag.Error {
					findings++
					byCode[d.Code]++
				}
				if d.Code == "breaking.unverified" {
					unverified++
				}
			}
			old = new
		}
	}
	var codes []string
	for _, c := range slices.Sorted(maps.Keys(byCode)) {
		codes = append(codes, fmt.Sprintf("%s %d", strings.TrimPrefix(c, "breaking."), byCode[c]))
	}
	t.Logf("%d versions are not valid MCP tools and were passed over: %s", len(invalid), strings.Join(invalid, ", "))
	t.Logf("%d tools, %d consecutive version pairs: %d breaking (%d breaking findings: %s); bumps: major %d, minor %d, patch %d, none %d",
		len(versions), pairs, breakingPairs, findings, strings.Join(codes, ", "), bumps[breaking.Major], bumps[breaking.Minor], bumps[breaking.Patch], bumps[breaking.None])
	t.Logf("%d changes to keywords that toolc does not compare (breaking.unverified)", unverified)
	t.Logf("%d tools of the history are not in the current server: breaking.tool-removed each, against the version that had them", len(m.Removed))
	if pairs < 500 || breakingPairs == 0 {
		t.Errorf("compared %d pairs, %d breaking: the history was not read", pairs, breakingPairs)
	}
}
