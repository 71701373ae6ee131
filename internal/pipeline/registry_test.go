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
)

// registryModule is the MCP registry's module, whose validators the
// registry runs on every server.json published to it.
const registryModule = "github.com/modelcontextprotocol/registry@v1.8.9"

// registryValidator builds, from the registry's own module (through the Go
// module proxy), a program that runs its validators on server.json files:
// ValidateServerJSON with every check (the JSON Schema and the semantic
// rules) and ValidatePublishRequest (the 4 KB bound of _meta), the checks
// its publisher's validate asks the registry's API for, offline.
func registryValidator(t *testing.T) string {
	t.Helper()
	run := func(dir string, args ...string) []byte {
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
		out, err := cmd.Output()
		if err != nil {
			msg := ""
			if ee, ok := err.(*exec.ExitError); ok {
				msg = string(ee.Stderr)
			}
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, msg)
		}
		return out
	}
	tmp := t.TempDir()
	var mod struct{ Dir string }
	if err := json.Unmarshal(run(tmp, "mod", "download", "-json", registryModule), &mod); err != nil {
		t.Fatal(err)
	}
	// The validators are internal to the registry's module: the program
	// goes into a copy of it.
	src := filepath.Join(tmp, "registry")
	if out, err := exec.Command("cp", "-r", mod.Dir, src).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v\n%s", err, out)
	}
	if out, err := exec.Command("chmod", "-R", "u+w", src).CombinedOutput(); err != nil {
		t.Fatalf("chmod: %v\n%s", err, out)
	}
	main := `package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/modelcontextprotocol/registry/internal/config"
	"github.com/modelcontextprotocol/registry/internal/validators"
	apiv0 "github.com/modelcontextprotocol/registry/pkg/api/v0"
)

func main() {
	bad := false
	for _, f := range os.Args[1:] {
		data, err := os.ReadFile(f)
		if err != nil {
			fmt.Println(err)
			bad = true
			continue
		}
		var s apiv0.ServerJSON
		if err := json.Unmarshal(data, &s); err != nil {
			fmt.Printf("%s: %v\n", f, err)
			bad = true
			continue
		}
		res := validators.ValidateServerJSON(&s, validators.ValidationAll)
		for _, is := range res.Issues {
			fmt.Printf("%s: [%s] %s: %s (%s)\n", f, is.Severity, is.Path, is.Message, is.Reference)
		}
		if !res.Valid {
			bad = true
		}
		if err := validators.ValidatePublishRequest(context.Background(), s, &config.Config{}); err != nil {
			fmt.Printf("%s: %v\n", f, err)
			bad = true
		}
	}
	if bad {
		os.Exit(1)
	}
}
`
	if err := os.MkdirAll(filepath.Join(src, "cmd", "toolcvalidate"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "cmd", "toolcvalidate", "main.go"), []byte(main), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(tmp, "validate")
	run(src, "build", "-o", bin, "./cmd/toolcvalidate")
	return bin
}

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
	validate := registryValidator(t)
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
	t.Logf("the registry's validators (%s) take the server.json of the example catalog and of GitHub's server (%d bytes)", registryModule, len(gh))
}
