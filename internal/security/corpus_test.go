package security_test

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/corpus"
	"github.com/toolc-dev/toolc/internal/formats"
	"github.com/toolc-dev/toolc/internal/security"
	"github.com/toolc-dev/toolc/internal/validate"
)

// TestPrecisionOnCorpus runs every rule on the real servers and examples of
// the corpus, each server a catalog of its own as a team would build it:
// GitHub's MCP server, the reference servers, the specification's examples,
// Anthropic's examples, BFCL's functions and the operations of five OpenAPI
// descriptions. No real tool is hostile: the findings must be the known
// ones (knownFindings), none an error. It logs the figures per rule.
func TestPrecisionOnCorpus(t *testing.T) {
	corpus.Heavy(t)
	dir := corpus.Dir(t)
	reg := formats.Default()
	read := func(files ...string) []*canonical.Tool {
		var out []*canonical.Tool
		seen := map[string]bool{}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			doc, err := formats.Parse(data, f)
			if err != nil {
				continue
			}
			det := reg.Detect(doc)
			if det.Err != nil {
				continue
			}
			a, _ := reg.Get(det.Format)
			tools, _ := a.Decode(doc, f)
			for _, tl := range tools {
				validate.Repair(tl)
				if !seen[tl.ID()] && tl.Input != nil {
					seen[tl.ID()] = true
					out = append(out, tl)
				}
			}
		}
		return out
	}
	glob := func(pattern string) []string {
		ms, _ := filepath.Glob(filepath.Join(dir, pattern))
		return ms
	}
	catalogs := map[string][]*canonical.Tool{
		"github":          read(filepath.Join(dir, "mcp/github-mcp-server/tools_list.current.json")),
		"spec examples":   read(glob("mcp/spec/schema/2026-07-28/examples/*/*.json")...),
		"anthropic":       read(glob("anthropic/*/*.json")...),
		"langchain":       read(filepath.Join(dir, "langchain/langchainjs-community-tools.json")),
		"openai cookbook": read(glob("openai/cookbook/*.json")...),
	}
	for _, f := range glob("mcp/reference-servers-py/*.json") {
		catalogs[filepath.Base(f)] = read(f)
	}
	// The OpenAPI descriptions, a catalog each: their operations' summaries
	// and descriptions are long prose, with examples, IDs and hashes.
	for _, api := range []string{"swagger-petstore/openapi.yaml", "redocly-museum/openapi.yaml", "notion/notion-openapi.json", "stripe/spec3.2023-09-12.json", "openai/openapi.json"} {
		catalogs[api] = read(filepath.Join(dir, "openapi", api))
	}
	var bfcl []string
	tmp := t.TempDir()
	for i, l := range corpus.Lines(t, "openai/bfcl/all_functions.distinct.jsonl") {
		f := filepath.Join(tmp, fmt.Sprintf("%d.json", i))
		if err := os.WriteFile(f, []byte(`{"type":"function","function":`+strings.TrimSpace(extract(string(l)))+`}`), 0o644); err != nil {
			t.Fatal(err)
		}
		bfcl = append(bfcl, f)
	}
	catalogs["bfcl"] = read(bfcl...) // one catalog: a function twice is one tool

	total, flagged := 0, 0
	perRule := map[string]int{}
	var found []string
	for _, name := range slices.Sorted(maps.Keys(catalogs)) {
		tools := catalogs[name]
		total += len(tools)
		hit := map[string]bool{}
		for _, d := range security.Check(context.Background(), tools) {
			perRule[d.Code]++
			hit[d.Tool] = true
			found = append(found, d.Code+" "+d.Tool)
			if d.Severity == diag.Error {
				t.Errorf("%s: an error on a real tool: %s", name, d)
			} else {
				t.Logf("%s: %s", name, d)
			}
		}
		flagged += len(hit)
	}
	var rules []string
	for _, k := range slices.Sorted(maps.Keys(perRule)) {
		rules = append(rules, fmt.Sprintf("%s %d", k, perRule[k]))
	}
	t.Logf("%d tools in %d catalogs; %d with a finding (%.2f %%): %s", total, len(catalogs), flagged, 100*float64(flagged)/float64(total), strings.Join(rules, ", "))
	if total < 1000 {
		t.Errorf("only %d tools read: the corpus is not what this test expects", total)
	}
	if flagged*100 > total {
		t.Errorf("%d of %d tools get a finding, more than 1 %%", flagged, total)
	}
	if slices.Sort(found); !slices.Equal(found, knownFindings) {
		t.Errorf("the findings on the corpus are %q; want only the known %q (no real tool is hostile)", found, knownFindings)
	}
}

// knownFindings are the corpus's findings, each right: two BFCL functions
// a model cannot tell from another (math.lcm and math_lcm, flight.search
// and flights.search, each pair with one description).
var knownFindings = []string{"security.tool-confusable flight.search", "security.tool-confusable math_lcm"}

// extract returns the "function" object of a BFCL line.
func extract(line string) string {
	i := strings.Index(line, `"function":`)
	if i < 0 {
		return "{}"
	}
	s := strings.TrimSpace(line[i+len(`"function":`):])
	return strings.TrimSuffix(s, "}")
}
