package pipeline

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/registrytest"
)

// TestServerJSONPassesTheRegistry: the server.json of the example catalog,
// of a real npm server that needs a secret token, a package argument and
// a remote's header, and of GitHub's 117 tools (whose summary is trimmed
// under the registry's 4 KB, with a loss), all pass the registry's own
// validators; a namespaced catalog publishes the server's own tool names.
func TestServerJSONPassesTheRegistry(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the registry's validators from its module")
	}
	t.Parallel()
	validate := registrytest.Validator(t)
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	serverJSON := func(res *Result) []byte {
		for _, o := range res.Outputs {
			if strings.HasSuffix(o.Path, "server.json") {
				return o.Bytes()
			}
		}
		t.Fatalf("no server.json:\n%s", strings.Join(codes(res.Diagnostics), "\n"))
		return nil
	}
	exampleRes, err := BuildFile(context.Background(), os.DirFS("../.."), DefaultManifest, Options{})
	if err != nil {
		t.Fatal(err)
	}
	example := serverJSON(exampleRes)
	github := githubFS(t, `version = 1

[catalog]
name = "io.github.github/github-mcp-server"
version = "1.0.0"
description = "GitHub's official MCP server: repositories, issues, pull requests, Actions."

[[sources]]
include = ["github.json"]
namespace = "github"

[[targets]]
format = "server-json"
out = "server.json"

[targets.server]
title = "GitHub"
website = "https://github.com/github/github-mcp-server"
repository = { url = "https://github.com/github/github-mcp-server", source = "github" }
icons = [{ src = "https://github.githubassets.com/favicons/favicon.svg", mime_type = "image/svg+xml", sizes = ["any"] }]

[[targets.server.packages]]
registry_type = "npm"
identifier = "@modelcontextprotocol/server-github"
version = "2025.4.8"
runtime_hint = "npx"
environment_variables = [
  { name = "GITHUB_PERSONAL_ACCESS_TOKEN", description = "A token with repo scope.", required = true, secret = true },
  { name = "GITHUB_TOOLSETS", description = "The toolsets to turn on.", default = "all" },
]
package_arguments = [{ type = "named", name = "--read-only", description = "Offer only the tools that read." }]
runtime_arguments = [{ type = "named", name = "-y", description = "Install without asking." }]

[[targets.server.remotes]]
type = "streamable-http"
url = "https://api.githubcopilot.com/mcp/"
headers = [{ name = "Authorization", description = "Bearer and a GitHub token.", required = true, secret = true }]
`)
	res := mustBuild(t, github, 0)
	if res.Failed {
		t.Fatalf("the build failed:\n%s", strings.Join(codes(res.Diagnostics), "\n"))
	}
	gh := serverJSON(res)
	if !slices.ContainsFunc(res.Diagnostics, func(d diag.Diagnostic) bool { return d.Code == "loss.publisher-meta" }) {
		t.Error("GitHub's 117 tools make no loss.publisher-meta")
	}
	for _, want := range []string{`"isSecret": true`, `"name": "--read-only"`, `"name": "Authorization"`, `"title": "GitHub"`, `"name": "list_issues"`} {
		if !strings.Contains(string(gh), want) {
			t.Errorf("GitHub's server.json has no %s", want)
		}
	}
	if strings.Contains(string(gh), "github__") {
		t.Error("GitHub's server.json names the catalog's namespaced tools, not the server's")
	}
	files := []string{write("example.json", example), write("github.json", gh)}
	out, err := exec.Command(validate, files...).CombinedOutput()
	if err != nil {
		t.Errorf("the registry's validators refuse toolc's server.json: %v\n%s", err, out)
	}
	// And they catch what the registry refuses: the tools' full summary.
	var doc map[string]any
	if err := json.Unmarshal(gh, &doc); err != nil {
		t.Fatal(err)
	}
	var all []map[string]string
	for _, tl := range res.Catalog {
		all = append(all, map[string]string{"name": tl.Name, "description": tl.Description})
	}
	doc["_meta"] = map[string]any{"io.modelcontextprotocol.registry/publisher-provided": map[string]any{"dev.toolc/tools": all}}
	over, _ := json.Marshal(doc)
	if out, err := exec.Command(validate, write("over.json", over)).CombinedOutput(); err == nil || !strings.Contains(string(out), "exceeds 4KB") {
		t.Errorf("the registry's validators take a _meta of %d bytes: %s", len(over), out)
	}
	t.Logf("the registry's validators (%s) take the server.json of the example catalog and of GitHub's server (%d bytes)", registrytest.Module, len(gh))
}
