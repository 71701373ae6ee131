package pipeline

import (
	"slices"
	"testing"
	"testing/fstest"

	"github.com/toolc-dev/toolc/canonical"
)

// TestOutputSchemaRoots: an array output schema (the MCP 2026-07-28
// specification's own example) builds for the newest revision, is dropped
// with loss.output-schema for an older one, and a root union of objects is
// typed "object" where an older revision or claude.ai needs it, and dropped
// where it cannot be.
func TestOutputSchemaRoots(t *testing.T) {
	fsys := fstest.MapFS{
		"tools.json": {Data: []byte(`{"tools": [
 {"name": "list_items", "description": "List the items.", "inputSchema": {"type": "object", "properties": {}},
  "outputSchema": {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "string"}}}}},
 {"name": "get_item", "description": "Get an item, or the error.", "inputSchema": {"type": "object", "properties": {}},
  "outputSchema": {"anyOf": [{"type": "object", "properties": {"id": {"type": "string"}}}, {"type": "object", "properties": {"error": {"type": "string"}}}]}},
 {"name": "count", "description": "Count the items, or nothing.", "inputSchema": {"type": "object", "properties": {}},
  "outputSchema": {"anyOf": [{"type": "object", "properties": {"n": {"type": "integer"}}}, {"type": "null"}]}}]}`)},
		"toolc.toml": {Data: []byte(`version = 1
[[sources]]
include = ["tools.json"]
[[targets]]
format = "mcp"
out = "dist/mcp.json"
[[targets]]
name = "old"
format = "mcp"
protocol = "2025-11-25"
out = "dist/old.json"
[[targets]]
name = "claude"
format = "mcp"
clients = ["claude-desktop"]
out = "dist/claude.json"
`)},
	}
	res := mustBuild(t, fsys, 0)
	if res.Failed {
		t.Fatalf("build failed:\n%v", codes(res.Diagnostics))
	}
	// the root type of each tool's output schema, "-" where it was dropped
	want := map[string]map[string]string{
		"mcp":    {"list_items": `"array"`, "get_item": "", "count": ""},
		"old":    {"list_items": "-", "get_item": `"object"`, "count": "-"},
		"claude": {"list_items": `"array"`, "get_item": `"object"`, "count": "-"},
	}
	for _, o := range res.Outputs {
		w, ok := want[o.Target]
		if !ok {
			continue
		}
		for _, tool := range bundleOf(res, o.Target).Get("tools").Items() {
			name, _ := tool.Get("name").StringValue()
			got := "-"
			if out := tool.Get("outputSchema"); out != nil {
				got = typeOf(out)
			}
			if got != w[name] {
				t.Errorf("%s: %s's output schema has root type %q, want %q", o.Target, name, got, w[name])
			}
		}
	}
	var lost []string
	for _, d := range res.Diagnostics {
		if d.Code == "loss.output-schema" {
			lost = append(lost, d.Target+" "+d.Tool)
		}
	}
	slices.Sort(lost)
	if want := []string{"claude count", "old count", "old list_items"}; !slices.Equal(lost, want) {
		t.Errorf("loss.output-schema for %q, want %q", lost, want)
	}
}

func typeOf(s *canonical.Value) string {
	if t := s.Get("type"); t != nil {
		return t.String()
	}
	return ""
}

// TestRootRulesAfterMerge: what the root-allOf merge brings to the root
// meets the root rules after it, as the root keywords written there do:
// OpenAI takes no not at the root, so it goes with loss.not; if, then and
// dependentSchemas, which no provider's root rule names, stay.
func TestRootRulesAfterMerge(t *testing.T) {
	fsys := fstest.MapFS{
		"tools.json": {Data: []byte(`{"tools": [{"name": "pick", "description": "Pick one way.", "inputSchema": {"type": "object",
 "properties": {"a": {"type": "string"}, "b": {"type": "string"}, "mode": {"type": "string"}},
 "allOf": [{"not": {"required": ["a", "b"]}}, {"if": {"properties": {"mode": {"const": "x"}}}, "then": {"required": ["a"]}}]}}]}`)},
		"toolc.toml": {Data: []byte("version = 1\n[[sources]]\ninclude = [\"tools.json\"]\n[[targets]]\nformat = \"openai\"\nout = \"dist/openai.json\"\n[[targets]]\nformat = \"anthropic\"\nout = \"dist/anthropic.json\"\n")},
	}
	res := mustBuild(t, fsys, 0)
	if res.Failed {
		t.Fatalf("build failed:\n%v", codes(res.Diagnostics))
	}
	for _, o := range res.Outputs {
		var root *canonical.Value
		switch o.Target {
		case "openai":
			root = bundleOf(res, o.Target).Items()[0].Get("function").Get("parameters")
		case "anthropic":
			root = bundleOf(res, o.Target).Items()[0].Get("input_schema")
		default:
			continue
		}
		if root.Has("allOf") || !root.Has("if") || !root.Has("then") || root.Has("not") != (o.Target == "anthropic") {
			t.Errorf("%s: the root after the merge is %s", o.Target, root)
		}
	}
	lost := false
	for _, d := range res.Diagnostics {
		lost = lost || d.Code == "loss.not" && d.Target == "openai"
	}
	if !lost {
		t.Errorf("no loss.not for openai: %v", codes(res.Diagnostics))
	}
}
