package pipeline

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/toolc-dev/toolc/diag"
)

// TestMCPHeaderRules: a catalog whose x-mcp-header annotations break each
// rule of MCP 2026-07-28 gives one located error per break and a warning
// for a secret, for the MCP target; the valid annotation stays in the MCP
// bundle and is dropped, with a loss, from OpenAI and Anthropic.
func TestMCPHeaderRules(t *testing.T) {
	tools := `[{"name": "query", "description": "Query the data of one region.", "inputSchema": {"type": "object", "properties": {
  "region": {"type": "string", "description": "The region.", "x-mcp-header": "Region"},
  "blank": {"type": "string", "description": "Blank.", "x-mcp-header": ""},
  "spaced": {"type": "string", "description": "Spaced.", "x-mcp-header": "Two Words"},
  "zone": {"type": "string", "description": "The zone.", "x-mcp-header": "REGION"},
  "ratio": {"type": "number", "description": "A ratio.", "x-mcp-header": "Ratio"},
  "tags": {"type": "array", "description": "Tags.", "items": {"type": "string", "x-mcp-header": "Tag"}},
  "api_token": {"type": "string", "description": "The caller's token.", "x-mcp-header": "Token"}
}}}]`
	manifest := "version = 1\n[[sources]]\ninclude = [\"tools.json\"]\n" +
		"[[targets]]\nformat = \"mcp\"\nout = \"mcp.json\"\n[[targets]]\nformat = \"openai\"\nout = \"openai.json\"\n[[targets]]\nformat = \"anthropic\"\nout = \"anthropic.json\"\n"
	fsys := fstest.MapFS{"toolc.toml": {Data: []byte(manifest)}, "tools.json": {Data: []byte(tools)}}
	res, err := BuildFile(context.Background(), fsys, DefaultManifest, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var errs, warns, losses []string
	for _, d := range res.Diagnostics {
		at := fmt.Sprintf("%s:%d:%d", d.File, d.Line, d.Column)
		switch {
		case d.Code == "accept.mcp-header" && d.Target == "mcp" && d.Severity == diag.Error:
			errs = append(errs, at)
		case d.Code == "accept.mcp-header-secret" && d.Target == "mcp":
			warns = append(warns, at)
		case d.Code == "loss.extension" && strings.HasSuffix(d.Pointer, "/x-mcp-header"):
			losses = append(losses, d.Target+" "+d.Pointer)
		}
	}
	// blank, spaced, zone (REGION again), ratio, tags/items: at the key of each annotation.
	if want := []string{"tools.json:3:56", "tools.json:4:58", "tools.json:5:58", "tools.json:6:58", "tools.json:7:81"}; !slices.Equal(errs, want) {
		t.Errorf("accept.mcp-header at %v, want %v", errs, want)
	}
	if want := []string{"tools.json:8:73"}; !slices.Equal(warns, want) {
		t.Errorf("accept.mcp-header-secret at %v, want %v", warns, want)
	}
	for _, target := range []string{"openai", "anthropic"} {
		if !slices.Contains(losses, target+" /0/inputSchema/properties/region/x-mcp-header") {
			t.Errorf("no loss.extension for the valid annotation in %s: %v", target, losses)
		}
	}
	for _, b := range res.Bundles {
		has := strings.Contains(string(b.Value.AppendJSON(nil, "")), `"x-mcp-header":"Region"`)
		if has != (b.Format == "mcp") {
			t.Errorf("%s bundle carries the valid annotation: %v", b.Target, has)
		}
	}
}

// TestExecutionPerRevision: a 2025-11-25 tool's execution (task support)
// is carried by a bundle for that revision, and dropped with a located
// loss by one for 2026-07-28 (tasks became an extension) or 2025-06-18.
func TestExecutionPerRevision(t *testing.T) {
	tools := `{"tools": [{"name": "render", "description": "Render a video.", "inputSchema": {"type": "object", "properties": {}},
  "execution": {"taskSupport": "optional"}}]}`
	for protocol, keeps := range map[string]bool{"2025-11-25": true, "2025-06-18": false, "2026-07-28": false, "": false} {
		manifest := "version = 1\n[[sources]]\ninclude = [\"tools.json\"]\n[[targets]]\nformat = \"mcp\"\nout = \"mcp.json\"\n"
		if protocol != "" {
			manifest += fmt.Sprintf("protocol = %q\n", protocol)
		}
		fsys := fstest.MapFS{"toolc.toml": {Data: []byte(manifest)}, "tools.json": {Data: []byte(tools)}}
		res, err := BuildFile(context.Background(), fsys, DefaultManifest, Options{})
		if err != nil || res.Failed {
			t.Fatalf("%q: %v %v", protocol, err, res.Diagnostics)
		}
		bundle := string(res.Outputs[0].Bytes())
		lost := slices.ContainsFunc(res.Diagnostics, func(d diag.Diagnostic) bool {
			return d.Code == "loss.execution" && d.File == "tools.json" && d.Line == 2
		})
		if carried := strings.Contains(bundle, `"taskSupport": "optional"`); carried != keeps || lost == keeps {
			t.Errorf("%q: bundle carries execution %v, loss.execution %v; want carried %v", protocol, carried, lost, keeps)
		}
	}
}

// TestNoParametersEveryTarget: a tool without parameters is written with
// "properties": {} by every target that lowers for a provider or client,
// and not by Gemini's OpenAPI mode, which refuses an OBJECT with empty
// properties.
func TestNoParametersEveryTarget(t *testing.T) {
	tools := `[{"name": "now", "description": "Say the server's time.", "inputSchema": {"type": "object", "additionalProperties": false}}]`
	manifest := "version = 1\n[[sources]]\ninclude = [\"tools.json\"]\n"
	for _, tg := range []string{"mcp", "openai", "openai-responses", "anthropic", "bedrock", "gemini"} {
		manifest += fmt.Sprintf("[[targets]]\nformat = %q\nout = %q\n", tg, tg+".json")
	}
	manifest += "[[targets]]\nname = \"openai-strict\"\nformat = \"openai\"\nout = \"openai-strict.json\"\nstrict = true\n"
	manifest += "[[targets]]\nname = \"gemini-openapi\"\nformat = \"gemini\"\nout = \"gemini-openapi.json\"\nschema = \"openapi\"\n"
	fsys := fstest.MapFS{"toolc.toml": {Data: []byte(manifest)}, "tools.json": {Data: []byte(tools)}}
	res, err := BuildFile(context.Background(), fsys, DefaultManifest, Options{})
	if err != nil || res.Failed {
		t.Fatalf("%v %v", err, res.Diagnostics)
	}
	for _, o := range res.Outputs {
		if o.Target == "" {
			continue
		}
		has := strings.Contains(string(o.Bytes()), `"properties": {}`)
		if has != (o.Target != "gemini-openapi") {
			t.Errorf("%s: properties: {} written %v:\n%s", o.Target, has, o.Bytes())
		}
	}
}

// TestVSCodeTuple: a tuple builds for VS Code alone, in its draft-07 form
// (items, a list, which VS Code takes as items) and in 2020-12's
// (prefixItems, beside which items: {} is added, saying the same).
func TestVSCodeTuple(t *testing.T) {
	tools := `[{"name": "move", "description": "Move to a point.", "inputSchema": {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
  "properties": {"point": {"type": "array", "description": "x and y.", "items": [{"type": "number"}, {"type": "number"}], "additionalItems": false}}, "required": ["point"]}},
 {"name": "jump", "description": "Jump to a point.", "inputSchema": {"type": "object",
  "properties": {"point": {"type": "array", "description": "x and y.", "prefixItems": [{"type": "number"}, {"type": "number"}]}}, "required": ["point"]}}]`
	manifest := "version = 1\n[[sources]]\ninclude = [\"tools.json\"]\n[[targets]]\nformat = \"mcp\"\nout = \"mcp.json\"\nclients = [\"vscode\"]\n"
	fsys := fstest.MapFS{"toolc.toml": {Data: []byte(manifest)}, "tools.json": {Data: []byte(tools)}}
	res, err := BuildFile(context.Background(), fsys, DefaultManifest, Options{})
	if err != nil || res.Failed {
		t.Fatalf("%v %v", err, res.Diagnostics)
	}
	out := string(res.Outputs[0].Bytes())
	if !strings.Contains(out, `"prefixItems": [`) || strings.Count(out, `"items": {}`) != 1 || !strings.Contains(out, `"items": [`) {
		t.Errorf("bundle:\n%s", out)
	}
}

// TestCodingAgentClients: a tool with the shapes the coding agents refuse
// builds for each when the target names it, lowered so that its table
// takes it (PROVIDERS.md, late November 2026), and is advice otherwise.
func TestCodingAgentClients(t *testing.T) {
	tools := `[{"name": "put", "description": "Put values.", "inputSchema": {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
  "properties": {"values": {"type": "object", "description": "By key.", "additionalProperties": {"type": "string"}}, "tags": {"type": "array", "description": "Tags."}}}}]`
	for client, fixed := range map[string][]string{
		"copilot-cli": {`"additionalProperties": {`, `"properties": {}`},
		"codex":       {`"properties": {}`, `"items": {}`},
		"gemini-cli":  {`"type": "object"`},
		"augment":     {`"type": "object"`},
	} {
		manifest := fmt.Sprintf("version = 1\n[[sources]]\ninclude = [\"tools.json\"]\n[[targets]]\nformat = \"mcp\"\nout = \"mcp.json\"\nclients = [%q]\n", client)
		fsys := fstest.MapFS{"toolc.toml": {Data: []byte(manifest)}, "tools.json": {Data: []byte(tools)}}
		res, err := BuildFile(context.Background(), fsys, DefaultManifest, Options{})
		if err != nil || res.Failed {
			t.Fatalf("%s: %v %v", client, err, res.Diagnostics)
		}
		out := string(res.Outputs[0].Bytes())
		for _, want := range fixed {
			if !strings.Contains(out, want) {
				t.Errorf("%s: no %s in\n%s", client, want, out)
			}
		}
		if dialectKept := strings.Contains(out, `"$schema"`); dialectKept == (client == "gemini-cli" || client == "augment") {
			t.Errorf("%s: $schema kept %v", client, dialectKept)
		}
		for _, d := range res.Diagnostics {
			if d.Code == "accept.client" && strings.Contains(d.Message, fmt.Sprintf("clients = [%q]", client)) {
				t.Errorf("%s: advice about the client the bundle is for: %s", client, d.Message)
			}
		}
	}
}
