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
