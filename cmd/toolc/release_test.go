package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/toolc-dev/toolc/internal/npmtest"
)

// TestReleaseTargetsValidate checks the example catalog's release bundles
// (dist/, which TestRepositoryCatalogIsUpToDate holds to the build) with
// what their owners publish: mcpb validate passes on the spec's manifest
// and on the one with Windows' static responses, and fails, as documented,
// on Smithery's flavour; the agent card type-checks against the A2A SDK's
// AgentCard with tsc. server.json and llms.txt, whose owners publish no
// validator on a registry CI reaches, are held to their rules here.
func TestReleaseTargetsValidate(t *testing.T) {
	if testing.Short() {
		t.Skip("the npm validators run in go test ./..., not again under -race -short")
	}
	root := filepath.Join("..", "..")
	mcpb := npmtest.Bin(t, "mcpb", "@anthropic-ai/mcpb")
	for _, f := range []string{"dist/mcpb/manifest.json", "dist/mcpb-windows/manifest.json"} {
		if out, err := exec.Command(mcpb, "validate", filepath.Join(root, f)).CombinedOutput(); err != nil {
			t.Errorf("mcpb validate %s: %v\n%s", f, err, out)
		}
	}
	// Smithery's flavour writes inputSchema, which mcpb validate refuses.
	if out, err := exec.Command(mcpb, "validate", filepath.Join(root, "dist/mcpb-smithery/manifest.json")).CombinedOutput(); err == nil || !strings.Contains(string(out), "inputSchema") {
		t.Errorf("mcpb validate passed Smithery's flavour, which writes inputSchema: %v\n%s", err, out)
	}
	checkAgentCard(t, filepath.Join(root, "dist/agent-card.json"))
	checkServerCard(t, filepath.Join(root, "dist/server-card.json"))
	checkSkills(t, filepath.Join(root, "dist/skills"))
	checkServerJSON(t, filepath.Join(root, "dist/server.json"))
	llms, err := os.ReadFile(filepath.Join(root, "dist/llms.txt"))
	if err != nil {
		t.Fatal(err)
	}
	// llmstxt.org: an H1, a blockquote summary, H2 sections of link lists.
	if !regexp.MustCompile("^# .+\n\n> .+\n\n## .+\n\n(- \\[[^]]+\\]\\(https://[^)]+\\)(: .+)?\n)+").Match(llms) {
		t.Errorf("dist/llms.txt is not in llms.txt's shape:\n%s", llms)
	}
}

// checkSkills checks each skill folder of a skills target with skills-ref
// validate (npm skills-ref, the TypeScript port of the Agent Skills
// reference validator), and by the specification's rules itself: the name
// a-z, 0-9 and single '-' and the folder's, a description of 1 to 1,024
// characters, every reference the body links present and a tool's MCP
// entry. A folder renamed is refused, so the check can fail.
func checkSkills(t *testing.T, dir string) {
	ref := npmtest.Bin(t, "skills-ref", "skills-ref")
	skills, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(skills) == 0 {
		t.Fatalf("%s has no skill", dir)
	}
	front := regexp.MustCompile(`(?s)^---\nname: ([^\n]*)\ndescription: ("[^\n]*")\n.*?---\n`)
	link := regexp.MustCompile(`\]\((references/[^)]+)\)`)
	for _, s := range skills {
		folder := filepath.Join(dir, s.Name())
		if out, err := exec.Command(ref, "validate", folder).CombinedOutput(); err != nil {
			t.Errorf("skills-ref validate %s: %v\n%s", folder, err, out)
		}
		md, err := os.ReadFile(filepath.Join(folder, "SKILL.md"))
		if err != nil {
			t.Fatal(err)
		}
		m := front.FindSubmatch(md)
		var desc string
		if m == nil || json.Unmarshal(m[2], &desc) != nil {
			t.Errorf("%s/SKILL.md does not open with name and description front matter:\n%s", folder, md)
			continue
		}
		if name := string(m[1]); name != s.Name() || len(name) > 64 || !regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`).MatchString(name) {
			t.Errorf("%s: the name %q breaks the Agent Skills rules (a-z, 0-9, single '-', at most 64, the folder's name)", folder, name)
		}
		if n := len([]rune(desc)); n == 0 || n > 1024 {
			t.Errorf("%s: a description of %d characters (1 to 1,024)", folder, n)
		}
		links := link.FindAllSubmatch(md, -1)
		if len(links) == 0 {
			t.Errorf("%s/SKILL.md links no tool's reference", folder)
		}
		for _, l := range links {
			data, err := os.ReadFile(filepath.Join(folder, string(l[1])))
			var tool struct {
				Name        string         `json:"name"`
				InputSchema map[string]any `json:"inputSchema"`
			}
			if err != nil || json.Unmarshal(data, &tool) != nil || tool.Name == "" || tool.InputSchema["type"] != "object" {
				t.Errorf("%s: %s is no tool with its input schema (%v)", folder, l[1], err)
			}
		}
	}
	// A skill whose folder is not its name is refused.
	renamed := filepath.Join(t.TempDir(), "renamed")
	if err := os.MkdirAll(renamed, 0o755); err != nil {
		t.Fatal(err)
	}
	md, _ := os.ReadFile(filepath.Join(dir, skills[0].Name(), "SKILL.md"))
	if err := os.WriteFile(filepath.Join(renamed, "SKILL.md"), md, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(ref, "validate", renamed).CombinedOutput(); err == nil {
		t.Errorf("skills-ref validate took a skill whose folder is not its name:\n%s", out)
	}
}

// checkServerCard checks an MCP server card with the MCP TypeScript SDK's
// own schemas (@modelcontextprotocol/core): serverInfo is an
// Implementation and each tool a Tool, input schema whole, as Smithery
// reads them (its docs type a card's tools by the SDK's types); and the
// card's own fields by SEP-1649's shape.
func checkServerCard(t *testing.T, card string) {
	core := npmtest.Module(t, "@modelcontextprotocol/core")
	script := `import { readFileSync } from "node:fs";
const core = await import(process.argv[1]);
const card = JSON.parse(readFileSync(0, "utf8"));
const fail = (what, r) => { console.log(what, JSON.stringify(r.error.issues.slice(0, 3))); process.exit(1); };
let r = core.ImplementationSchema.safeParse(card.serverInfo);
if (!r.success) fail("serverInfo", r);
if (!Array.isArray(card.tools) || card.tools.length === 0) { console.log("no tools"); process.exit(1); }
for (const tool of card.tools) {
  r = core.ToolSchema.safeParse(tool);
  if (!r.success) fail(tool.name, r);
  if (tool.inputSchema?.type !== "object") { console.log(tool.name, "has no input schema"); process.exit(1); }
}
for (const k of ["$schema", "version", "protocolVersion"]) if (typeof card[k] !== "string") { console.log("no", k); process.exit(1); }
console.log(card.tools.length);`
	data, err := os.ReadFile(card)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", "--input-type=module", "-e", script, "file://"+filepath.ToSlash(filepath.Join(core, "dist", "index.mjs")))
	cmd.Stdin = strings.NewReader(string(data))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Errorf("%s: the MCP SDK's schemas refuse the server card: %v\n%s", card, err, out)
	}
	// And they refuse a card whose tool lost its input schema.
	cmd = exec.Command("node", "--input-type=module", "-e", script, "file://"+filepath.ToSlash(filepath.Join(core, "dist", "index.mjs")))
	cmd.Stdin = strings.NewReader(strings.Replace(string(data), `"inputSchema"`, `"inputSchemas"`, 1))
	if out, err := cmd.CombinedOutput(); err == nil {
		t.Errorf("the check took a server card whose tool has no input schema:\n%s", out)
	}
}

// checkAgentCard type-checks the card against @a2a-js/sdk's AgentCard.
func checkAgentCard(t *testing.T, card string) {
	tsc := npmtest.Bin(t, "tsc", "typescript")
	dir := t.TempDir()
	data, err := os.ReadFile(card)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"agent-card.json": string(data),
		"check.ts":        "import type { AgentCard } from \"@a2a-js/sdk\";\nimport card from \"./agent-card.json\" with { type: \"json\" };\nexport const checked: AgentCard = card;\n",
		"tsconfig.json":   `{"compilerOptions": {"strict": true, "module": "nodenext", "moduleResolution": "nodenext", "resolveJsonModule": true, "noEmit": true, "skipLibCheck": true, "types": []}, "files": ["check.ts"]}`,
		"package.json":    `{"type": "module"}`,
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(npmtest.Modules(), filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(tsc, "-p", ".")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("tsc: the agent card is not an @a2a-js/sdk AgentCard: %v\n%s", err, out)
	}
}

// checkServerJSON holds server.json to the registry's rules (schema
// 2025-12-11, server.schema.json), which the registry publishes on no
// package registry that CI reaches.
func checkServerJSON(t *testing.T, path string) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Schema      string `json:"$schema"`
		Name        string
		Description string
		Version     string
		Packages    []struct {
			RegistryType, Identifier, Version string
			Transport                         struct{ Type string }
		}
		Meta map[string]any `json:"_meta"`
	}
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$`).MatchString(s.Name) || len(s.Description) == 0 || len(s.Description) > 100 ||
		!regexp.MustCompile(`^\d+\.\d+\.\d+`).MatchString(s.Version) || !strings.HasSuffix(s.Schema, "/2025-12-11/server.schema.json") {
		t.Errorf("server.json breaks the registry's rules: %s", data)
	}
	for _, p := range s.Packages {
		if p.RegistryType == "" || p.Identifier == "" || p.Version == "" || p.Version == "latest" || p.Transport.Type == "" {
			t.Errorf("a package breaks the registry's rules: %+v", p)
		}
	}
	for k := range s.Meta {
		if k != "io.modelcontextprotocol.registry/publisher-provided" {
			t.Errorf("_meta key %q: the registry keeps custom data only under publisher-provided", k)
		}
	}
}

// TestMCPB04Validates: manifest_version = "0.4" with a uv server, MCPB
// 0.4's one addition, passes mcpb validate; the same server in a 0.3
// manifest is refused by mcpb validate, and toolc refuses it first.
func TestMCPB04Validates(t *testing.T) {
	if testing.Short() {
		t.Skip("the npm validators run in go test ./..., not again under -race -short")
	}
	t.Parallel()
	mcpb := npmtest.Bin(t, "mcpb", "@anthropic-ai/mcpb")
	dir := t.TempDir()
	manifest := func(version string) string {
		return `version = 1

[catalog]
name = "acme-weather"
version = "1.0.0"
description = "The weather of any city, now and for the week."

[[sources]]
include = ["tools.json"]

[[targets]]
format = "mcpb"
out = "bundle/manifest.json"
manifest_version = "` + version + `"

[targets.mcpb]
author = { name = "Acme" }
server = { type = "uv", entry_point = "src/server.py", mcp_config = { command = "uv", args = ["run", "--directory", "${__dirname}", "src/server.py"] } }
compatibility = { runtimes = { python = ">=3.11" } }
`
	}
	files := map[string]string{
		"toolc.toml": manifest("0.4"),
		"tools.json": `[{"name": "get_weather", "description": "Gets the current weather of a city: temperature, wind and sky.",
			"inputSchema": {"type": "object", "properties": {"city": {"type": "string", "description": "The city, such as Paris."}}, "required": ["city"]}}]`,
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var stdout, stderr strings.Builder
	if code := run([]string{"build", "-C", dir}, &stdout, &stderr); code != 0 {
		t.Fatalf("toolc build = exit %d:\n%s", code, stderr.String())
	}
	written := filepath.Join(dir, "bundle", "manifest.json")
	data, err := os.ReadFile(written)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"manifest_version": "0.4"`) {
		t.Errorf("the manifest is not 0.4:\n%s", data)
	}
	if out, err := exec.Command(mcpb, "validate", written).CombinedOutput(); err != nil {
		t.Errorf("mcpb validate, a 0.4 manifest with a uv server: %v\n%s", err, out)
	}
	// mcpb refuses uv in 0.3, and so does toolc, before writing.
	old := strings.Replace(string(data), `"manifest_version": "0.4"`, `"manifest_version": "0.3"`, 1)
	if err := os.WriteFile(filepath.Join(dir, "old.json"), []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(mcpb, "validate", filepath.Join(dir, "old.json")).CombinedOutput(); err == nil {
		t.Errorf("mcpb validate took a uv server in a 0.3 manifest:\n%s", out)
	}
	if err := os.WriteFile(filepath.Join(dir, "toolc.toml"), []byte(manifest("0.3")), 0o644); err != nil {
		t.Fatal(err)
	}
	stderr.Reset()
	if code := run([]string{"build", "-C", dir}, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), `publish.invalid: server type "uv" is MCPB 0.4's`) {
		t.Errorf("toolc built a uv server into a 0.3 manifest: exit %d\n%s", code, stderr.String())
	}
}
