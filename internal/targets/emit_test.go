package targets

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/accept"
	"github.com/toolc-dev/toolc/internal/profile"
)

// TestCorrectedFacts checks the facts that PROVIDERS.md's corrections
// changed, each on a small tool.
func TestCorrectedFacts(t *testing.T) {
	yes := true
	conv := func(in, to string, opts profile.Options) (string, []string) {
		t.Helper()
		res, err := allFormats().Convert(parse(t, []byte(in)), "a.json", "mcp", to, opts)
		if err != nil {
			t.Fatalf("%s: %v", to, err)
		}
		var codes []string
		for _, d := range res.Diagnostics {
			codes = append(codes, d.Code)
		}
		return string(res.Bundle.AppendJSON(nil, "")), codes
	}
	// Gemini's JSON Schema mode drops only null from a nullable enum, and
	// $schema and $comment.
	out, codes := conv(`{"name": "t", "inputSchema": {"$schema": "https://json-schema.org/draft/2020-12/schema", "$comment": "c", "type": "object", "properties": {"u": {"type": ["string", "null"], "enum": ["a", "b", null]}}}}`, "gemini", profile.Options{})
	if !strings.Contains(out, `"enum":["a","b"]`) || strings.Contains(out, "$schema") || strings.Contains(out, "$comment") || !slices.Contains(codes, "loss.enum") {
		t.Errorf("gemini: %s, codes %v", out, codes)
	}
	// Bedrock writes toolSpec.strict and lowers for Claude's strict subset.
	out, _ = conv(`{"name": "t", "inputSchema": {"type": "object", "properties": {"n": {"type": "integer", "minimum": 1}}}}`, "bedrock", profile.Options{Strict: &yes})
	if !strings.Contains(out, `"strict":true`) || strings.Contains(out, "minimum") || !strings.Contains(out, `"additionalProperties":false`) {
		t.Errorf("bedrock strict: %s", out)
	}
	// Responses carries the output schema.
	out, codes = conv(`{"name": "t", "inputSchema": {"type": "object"}, "outputSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}}}`, "openai-responses", profile.Options{})
	if !strings.Contains(out, `"output_schema":{"type":"object"`) || slices.Contains(codes, "loss.output-schema") {
		t.Errorf("responses: %s, codes %v", out, codes)
	}
	// Anthropic takes names of 128 characters.
	long := strings.Repeat("n", 100)
	out, _ = conv(`{"name": "`+long+`", "inputSchema": {"type": "object"}}`, "anthropic", profile.Options{})
	if !strings.Contains(out, `"name":"`+long+`"`) {
		t.Errorf("anthropic: a 100-character name became %s", out)
	}
}

// TestRenamedToolAlias: a tool renamed_from an old ID is served under the
// old name too, deprecated, in every target with a name rule; an alias
// that is another tool's name is a collision.
func TestRenamedToolAlias(t *testing.T) {
	in := `[{"name": "find", "description": "Find things.", "_meta": {"dev.toolc/lifecycle": {"renamed_from": "search"}}, "inputSchema": {"type": "object"}}]`
	res, err := allFormats().Convert(parse(t, []byte(in)), "a.json", "mcp", "openai", profile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	out := string(res.Bundle.AppendJSON(nil, ""))
	if !strings.Contains(out, `"name":"find"`) || !strings.Contains(out, `"name":"search","description":"Deprecated: the old name of find`) {
		t.Errorf("bundle = %s", out)
	}
	res, _ = allFormats().Convert(parse(t, []byte(in)), "a.json", "mcp", "mcp", profile.Options{})
	if out := string(res.Bundle.AppendJSON(nil, "")); !strings.Contains(out, `"_meta":{"dev.toolc/lifecycle":{"renamed_from":"search"}}`) || !strings.Contains(out, `"_meta":{"dev.toolc/lifecycle":{"deprecated":true}}`) {
		t.Errorf("MCP keeps the lifecycle and marks the alias deprecated: %s", out)
	}
	// Tools are listed by ID, an alias by the ID it stands for.
	order := `[{"name": "zeta", "_meta": {"dev.toolc/lifecycle": {"renamed_from": "alpha"}}, "inputSchema": {"type": "object"}},
		{"name": "mid", "inputSchema": {"type": "object"}}]`
	res, _ = allFormats().Convert(parse(t, []byte(order)), "a.json", "mcp", "openai", profile.Options{})
	var names []string
	for _, it := range res.Bundle.Items() {
		n, _ := it.Get("function").Get("name").StringValue()
		names = append(names, n)
	}
	if !slices.Equal(names, []string{"alpha", "mid", "zeta"}) {
		t.Errorf("bundle order = %q, want alpha, mid, zeta", names)
	}
	clash := `[{"name": "find", "_meta": {"dev.toolc/lifecycle": {"renamed_from": "search"}}, "inputSchema": {"type": "object"}},
		{"name": "search", "inputSchema": {"type": "object"}}]`
	if _, err := allFormats().Convert(parse(t, []byte(clash)), "a.json", "mcp", "openai", profile.Options{}); err == nil || !strings.Contains(err.Error(), "alias") {
		t.Errorf("an alias that is another tool's name: %v", err)
	}
	odd := `[{"name": "find", "_meta": {"dev.toolc/lifecycle": {"renamed_from": "search", "note": "x"}}, "inputSchema": {"type": "object"}}]`
	res, _ = allFormats().Convert(parse(t, []byte(odd)), "a.json", "mcp", "mcp", profile.Options{})
	if !slices.ContainsFunc(res.Diagnostics, func(d diag.Diagnostic) bool { return d.Code == "source.ignored-field" }) {
		t.Errorf("a lifecycle field toolc does not know is dropped silently: %v", res.Diagnostics)
	}
	bad := `[{"name": "find", "_meta": {"dev.toolc/lifecycle": {"sunset": "soon", "renamed_from": "a:b:c"}}, "inputSchema": {"type": "object"}}]`
	if _, err := allFormats().Convert(parse(t, []byte(bad)), "a.json", "mcp", "openai", profile.Options{}); err == nil {
		t.Errorf("a sunset that is no date and a malformed former ID are accepted")
	}
}

// TestRootCombinatorsLowered: a root union of required lists ("at least one
// of a, b") and a one-member allOf holding if/then, as real servers write
// them, come out of every mode of OpenAI, OpenAI Responses, Anthropic and
// Bedrock with no combinator at the root, no acceptance error, and a
// located report of what was merged or dropped (PROVIDERS.md, late 2026:
// azure-openai-ha issue 146; gitlab-mcp issue 551; mobile-mcp issue 344).
// MCP keeps them.
func TestRootCombinatorsLowered(t *testing.T) {
	in := `{"tools": [
	{"name": "find", "inputSchema": {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}, "anyOf": [{"required": ["a"]}, {"required": ["b"]}]}},
	{"name": "link", "inputSchema": {"type": "object", "properties": {"kind": {"type": "string"}, "url": {"type": "string"}}, "allOf": [{"if": {"properties": {"kind": {"const": "link"}}}, "then": {"required": ["url"]}}]}},
	{"name": "pick", "inputSchema": {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}, "not": {"required": ["a", "b"]}}}]}`
	eachMode(t, in, []string{"openai", "openai-responses", "anthropic", "bedrock", "mcp"}, func(to string, strict bool, res *Result, inputs []*canonical.Value) {
		reported := map[string]bool{}
		for _, d := range res.Diagnostics {
			if strings.HasPrefix(d.Code, "loss.") || d.Code == "lower.all-of-merged" {
				reported[d.Tool+" "+d.Pointer] = true
			}
		}
		for i, tool := range res.Tools {
			root := inputs[i]
			for _, k := range []string{"anyOf", "allOf", "not"} {
				had := parse(t, []byte(in)).Get("tools").Items()[i].Get("inputSchema").Has(k)
				switch {
				case to == "mcp" && had != root.Has(k):
					t.Errorf("mcp: %s lost its root %s", tool.Name, k)
				case to != "mcp" && root.Has(k) && (k != "not" || strings.HasPrefix(to, "openai")):
					t.Errorf("%s strict=%v: %s keeps %s at the root: %s", to, strict, tool.Name, k, root.AppendJSON(nil, ""))
				case to != "mcp" && had && !root.Has(k) && !reported[tool.ID()+" /tools/"+fmt.Sprint(i)+"/inputSchema/"+k]:
					t.Errorf("%s strict=%v: %s's root %s changed without a report at /tools/%d/inputSchema/%s", to, strict, tool.Name, k, i, k)
				}
			}
		}
	})
}

// TestGeminiNamesFit: Gemini and Vertex take function names of at most 64
// characters (gemini-cli issue 20987; 26 of GitHub's REST operations are
// longer). A longer ID is cut to 64 with its hash, in both schema modes,
// and the bundle passes the acceptance check.
func TestGeminiNamesFit(t *testing.T) {
	long := "repos:" + strings.Repeat("list_", 20) + "things"
	in := `{"tools": [{"name": "` + long + `", "inputSchema": {"type": "object"}}]}`
	for _, opts := range []profile.Options{{}, {Schema: "openapi"}} {
		res, err := allFormats().Convert(parse(t, []byte(in)), "a.json", "mcp", "gemini", opts)
		if err != nil {
			t.Fatal(err)
		}
		name := res.Names[long]
		if len(name) > 64 || !strings.HasPrefix(name, "repos:list_") {
			t.Errorf("schema %q: the name is %q (%d characters), want at most 64 that keep its start", opts.Schema, name, len(name))
		}
		for _, d := range res.Diagnostics {
			if strings.HasPrefix(d.Code, "accept.") {
				t.Errorf("schema %q: %s", opts.Schema, d)
			}
		}
	}
}

// TestDraft07ToClaude: Claude validates input_schema as JSON Schema 2020-12
// and refuses the draft-07 tuple form (hermes-agent issue 63674); Bedrock
// serves Claude alike. A draft-07 tool comes out of every mode of both with
// 2020-12 forms, no older $schema, and no acceptance error; MCP keeps it as
// written.
func TestDraft07ToClaude(t *testing.T) {
	in := `{"tools": [{"name": "move_to", "inputSchema": {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
		"properties": {"point": {"type": "array", "items": [{"type": "integer"}, {"type": "integer"}], "additionalItems": false},
		"card": {"type": "object", "properties": {"number": {"type": "string"}, "cvc": {"type": "string"}}, "dependencies": {"number": ["cvc"]}}},
		"required": ["point"]}}]}`
	eachMode(t, in, []string{"anthropic", "bedrock", "mcp"}, func(to string, strict bool, _ *Result, inputs []*canonical.Value) {
		out := string(inputs[0].AppendJSON(nil, ""))
		legacy := strings.Contains(out, "draft-07") || strings.Contains(out, `"items":[`) || strings.Contains(out, "additionalItems") || strings.Contains(out, `"dependencies"`)
		if legacy != (to == "mcp") {
			t.Errorf("%s strict=%v: the schema is %s", to, strict, out)
		}
	})
}

// eachMode converts the MCP document in to every target named, non-strict
// and strict (MCP once), fails the test on an acceptance error, and calls
// check with each result and the input schema of each emitted tool.
func eachMode(t *testing.T, in string, targets []string, check func(to string, strict bool, res *Result, inputs []*canonical.Value)) {
	t.Helper()
	for _, to := range targets {
		for _, strict := range []bool{false, true} {
			opts := profile.Options{Strict: &strict}
			if to == "mcp" {
				if strict {
					continue
				}
				opts = profile.Options{}
			}
			res, err := allFormats().Convert(parse(t, []byte(in)), "a.json", "mcp", to, opts)
			if err != nil {
				t.Fatalf("%s strict=%v: %v", to, strict, err)
			}
			for _, d := range res.Diagnostics {
				if strings.HasPrefix(d.Code, "accept.") && d.Severity == diag.Error {
					t.Errorf("%s strict=%v: %s", to, strict, d)
				}
			}
			tab, _ := accept.TableNamed(to)
			shape := tab.Shape
			var inputs []*canonical.Value
			for _, e := range res.Bundle.Resolve(shape.List).Items() {
				inputs = append(inputs, e.Resolve(shape.Input))
			}
			check(to, strict, res, inputs)
		}
	}
}
