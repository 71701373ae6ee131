package pipeline

import (
	"bytes"
	"errors"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/bundle"
	"github.com/toolc-dev/toolc/internal/corpus"
	"github.com/toolc-dev/toolc/internal/lock"
	"github.com/toolc-dev/toolc/internal/tokens"
	"github.com/toolc-dev/toolc/toolcall"
)

// deferralManifest builds GitHub's MCP server with a deferral plan: every
// tool "auto", a budget of 10,000 tokens on the targets that defer, and
// extra for [load] (and what follows it).
func deferralManifest(extra string) string {
	return `version = 1

[[sources]]
include = ["github.json"]
namespace = "github"

[load]
defer = "auto"
` + extra + `
[[targets]]
format = "anthropic"
out = "dist/anthropic.json"
defer_budget = { tokens = 10000 }

[[targets]]
format = "openai-responses"
out = "dist/responses.json"
defer_budget = { tokens = 10000 }

[[targets]]
format = "openai"
out = "dist/openai.json"
defer_budget = { tokens = 10000 }

[[targets]]
format = "mcp"
out = "dist/mcp.json"
defer_budget = { tokens = 10000 }
`
}

// githubFS is the manifest with GitHub's MCP server's tools from the corpus.
func githubFS(t *testing.T, manifest string) fstest.MapFS {
	t.Helper()
	data, err := os.ReadFile(corpus.Path(t, "mcp", "github-mcp-server", "tools_list.current.json"))
	if err != nil {
		t.Fatal(err)
	}
	return fstest.MapFS{DefaultManifest: {Data: []byte(manifest)}, "github.json": {Data: data}}
}

// planOf is what a bundle defers: the loaded tools' tokens as the target
// counts them, the deferred tools' names, and its search tools.
type planOf struct {
	loaded   int
	deferred []string
	search   []string
}

func bundlePlan(t *testing.T, res *Result, target string) planOf {
	t.Helper()
	for _, b := range res.Bundles {
		if b.Target != target {
			continue
		}
		c, err := tokens.Bundle(b.Format, b.Value, 0)
		if err != nil {
			t.Fatal(err)
		}
		p := planOf{loaded: c.LoadedTools()}
		for _, tc := range c.Tools {
			if tc.Deferred {
				p.deferred = append(p.deferred, tc.Name)
			}
		}
		list := b.Value
		if b.Format == "mcp" {
			list = list.Get("tools")
		}
		for _, e := range bundle.EntriesOf(list.Items()).Provider {
			p.search = append(p.search, e.Get("type").Text())
		}
		return p
	}
	t.Fatalf("no target %s", target)
	return planOf{}
}

// TestDeferralPlanOnGitHub is the plan on a real server: GitHub's 117 MCP
// tools, defer = "auto", a budget of 10,000 tokens.
func TestDeferralPlanOnGitHub(t *testing.T) {
	fsys := githubFS(t, deferralManifest(""))
	res := mustBuild(t, fsys, 0)
	if res.Failed {
		t.Fatalf("the build failed:\n%s", strings.Join(codes(res.Diagnostics), "\n"))
	}
	for _, d := range res.Diagnostics {
		if strings.HasPrefix(d.Code, "accept.") && d.Target != "mcp" || strings.HasPrefix(d.Code, "defer.") && d.Code != "defer.unsupported" {
			t.Errorf("unexpected: %s", d)
		}
	}
	for _, target := range []string{"anthropic", "openai-responses"} {
		p := bundlePlan(t, res, target)
		// Every tool fits alone, so the plan fills the budget: what it
		// defers would not fit beside what it loads.
		if p.loaded > 10000 || p.loaded < 9000 || len(p.deferred) == 0 || len(p.deferred) == 117 {
			t.Errorf("%s: loaded tools take %d tokens, %d deferred; want at most 10,000 and some deferred", target, p.loaded, len(p.deferred))
		}
		if len(p.search) != 1 {
			t.Errorf("%s: search tools %q, want one", target, p.search)
		}
		t.Logf("%s: %d tools loaded in %d tokens, %d deferred, search tool %s", target, 117-len(p.deferred), p.loaded, len(p.deferred), p.search)
	}
	// Chat Completions cannot defer: everything is sent, and an info says
	// what the budget would have deferred.
	if p := bundlePlan(t, res, "openai"); len(p.deferred) != 0 || len(p.search) != 0 {
		t.Errorf("openai defers %d tools with %q", len(p.deferred), p.search)
	}
	if !slices.ContainsFunc(res.Diagnostics, func(d diag.Diagnostic) bool { return d.Code == "defer.unsupported" && d.Target == "openai" }) {
		t.Error("no defer.unsupported for the openai target")
	}
	// MCP carries the decision for a harness, under toolc's _meta key.
	mcpDeferred := 0
	for _, b := range res.Bundles {
		if b.Target == "mcp" {
			for _, tool := range b.Value.Get("tools").Items() {
				if d, _ := tool.Get("_meta").Get("dev.toolc/load").Get("defer").BoolValue(); d {
					mcpDeferred++
				}
			}
		}
	}
	if mcpDeferred == 0 {
		t.Error("the MCP bundle carries no deferral in _meta")
	}
	// The lock records each decision.
	l, err := lock.Decode(res.Outputs[len(res.Outputs)-1].Bytes())
	if err != nil {
		t.Fatal(err)
	}
	locked := map[string]int{}
	for _, tl := range l.Tools {
		for _, tg := range tl.Deferred {
			locked[tg]++
		}
	}
	if n := len(bundlePlan(t, res, "anthropic").deferred); locked["anthropic"] != n || locked["openai"] != 0 {
		t.Errorf("the lock defers %v; the anthropic bundle %d", locked, n)
	}
	// The same build twice, and on one goroutine, is byte-identical.
	again := mustBuild(t, fsys, 1)
	for i, o := range res.Outputs {
		if !bytes.Equal(o.Bytes(), again.Outputs[i].Bytes()) {
			t.Errorf("%s differs between two builds", o.Path)
		}
	}
	checkSDKTypes(t, res)()
}

// TestDeferralRules: always_load and priority change the plan as
// docs/deferral.md says; loaded tools alone over the budget are a located
// warning naming them; a description that grows past the budget changes
// the lock, so build --check fails.
func TestDeferralRules(t *testing.T) {
	base := bundlePlan(t, mustBuild(t, githubFS(t, deferralManifest("")), 0), "anthropic")
	// projects_write is the biggest tool: "auto" takes the cheapest first,
	// so it is deferred, unless it is always loaded or comes first.
	const big = "github__projects_write"
	if !slices.Contains(base.deferred, big) {
		t.Fatalf("%s is loaded by the plain plan; the test needs it deferred", big)
	}
	for _, extra := range []string{
		"\n[load.tools.\"github:projects_write\"]\nalways_load = true\n",
		"\n[load.tools.\"github:projects_write\"]\npriority = 1\n",
	} {
		res := mustBuild(t, githubFS(t, deferralManifest(extra)), 0)
		p := bundlePlan(t, res, "anthropic")
		if slices.Contains(p.deferred, big) || p.loaded > 10000 || len(p.deferred) <= len(base.deferred) {
			t.Errorf("with%s%s deferred: %v, loaded %d tokens, %d deferred (was %d)", extra, big, slices.Contains(p.deferred, big), p.loaded, len(p.deferred), len(base.deferred))
		}
	}

	// Every tool always loaded: over any budget of 10,000.
	m := deferralManifest("always_load = true\n")
	res := mustBuild(t, githubFS(t, m), 0)
	budgetLine := 1 + strings.Count(m[:strings.Index(m, "defer_budget")], "\n")
	i := slices.IndexFunc(res.Diagnostics, func(d diag.Diagnostic) bool { return d.Code == "defer.over-budget" && d.Target == "anthropic" })
	if i < 0 {
		t.Fatalf("no defer.over-budget:\n%s", strings.Join(codes(res.Diagnostics), "\n"))
	}
	if d := res.Diagnostics[i]; d.File != DefaultManifest || d.Line != budgetLine || !strings.Contains(d.Message, "github:projects_write (") {
		t.Errorf("over budget at %s:%d, %q; want %s:%d (the defer_budget) naming the biggest tool", d.File, d.Line, d.Message, DefaultManifest, budgetLine)
	}

	// A description grown past the budget: the tool is deferred now, and
	// the lock on disk no longer matches.
	fsys := githubFS(t, deferralManifest(""))
	before := mustBuild(t, fsys, 0)
	for _, o := range before.Outputs {
		fsys[o.Path] = &fstest.MapFile{Data: o.Bytes()}
	}
	doc, err := canonical.ParseJSON(fsys["github.json"].Data)
	if err != nil {
		t.Fatal(err)
	}
	const grown = "get_me"
	for _, tool := range doc.Items() {
		if tool.Get("name").Text() == grown {
			tool.Set("description", canonical.NewString(strings.Repeat("Get the profile of the signed-in user, with its login, name and plan. ", 200)))
		}
	}
	fsys["github.json"] = &fstest.MapFile{Data: doc.AppendJSON(nil, "  ")}
	after := mustBuild(t, fsys, 0)
	if slices.Contains(bundlePlan(t, before, "anthropic").deferred, "github__"+grown) || !slices.Contains(bundlePlan(t, after, "anthropic").deferred, "github__"+grown) {
		t.Fatalf("%s is not loaded before its description grows and deferred after", grown)
	}
	diffs, err := Check(fsys, after.Outputs)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(diffs, func(d Difference) bool {
		return d.Path == "toolc.lock" && bytes.Contains(d.New, []byte("deferred = [\"anthropic\"")) && !d.Missing
	}) {
		t.Errorf("build --check does not find the lock out of date: %v", diffs)
	}
}

// TestDeferralNamespaces: tools grouped by [load] namespace go into one
// namespace tool each in the Responses bundle, which the OpenAI SDK's
// types take; the lock records each tool's group, and toolcall decodes a
// call that names it.
func TestDeferralNamespaces(t *testing.T) {
	m := strings.Replace(deferralManifest(`
[load.tools."github:issue_*"]
namespace = "issues"

[load.tools."github:pull_request_*"]
namespace = "pulls"

[load.namespaces.issues]
description = "Read and write GitHub issues and their dependencies."
`), "[[targets]]", "[[targets]]\nformat = \"canonical\"\nout = \"dist/canonical.json\"\n\n[[targets]]", 1)
	fsys := githubFS(t, m)
	res := mustBuild(t, fsys, 0)
	if res.Failed {
		t.Fatalf("the build failed:\n%s", strings.Join(codes(res.Diagnostics), "\n"))
	}
	groups := map[string][]string{}
	for _, b := range res.Bundles {
		if b.Target != "openai-responses" {
			continue
		}
		for _, ns := range bundle.EntriesOf(b.Value.Items()).Namespaces {
			for _, f := range ns.Get("tools").Items() {
				groups[ns.Get("name").Text()+": "+ns.Get("description").Text()] = append(groups[ns.Get("name").Text()+": "+ns.Get("description").Text()], f.Get("name").Text())
			}
		}
	}
	want := map[string][]string{
		"issues: Read and write GitHub issues and their dependencies.":                          {"github__issue_dependency_read", "github__issue_dependency_write", "github__issue_read", "github__issue_write"},
		"pulls: The pulls tools: github__pull_request_read, github__pull_request_review_write.": {"github__pull_request_read", "github__pull_request_review_write"},
	}
	if !maps.EqualFunc(groups, want, slices.Equal) {
		t.Errorf("namespaces %v, want %v", groups, want)
	}
	for _, o := range res.Outputs {
		fsys[o.Path] = &fstest.MapFile{Data: o.Bytes()}
	}
	cat, err := toolcall.Load(fsys, "toolc.lock")
	if err != nil {
		t.Fatal(err)
	}
	args := []byte(`{"method": "get", "owner": "o", "repo": "r", "issue_number": 1}`)
	if call, err := cat.DecodeIn("openai-responses", "issues", "github__issue_read", args); err != nil || call.ID != "github:issue_read" {
		t.Errorf("a namespaced call: %v, %v", call, err)
	}
	if _, err := cat.DecodeIn("openai-responses", "pulls", "github__issue_read", args); !errors.Is(err, toolcall.ErrUnknownTool) {
		t.Errorf("a call in the wrong namespace: %v", err)
	}
	// Deferral changes when a tool is visible, not how it is called.
	deferred := bundlePlan(t, res, "anthropic").deferred[0]
	if _, err := cat.Decode("anthropic", deferred, []byte(`{}`)); errors.Is(err, toolcall.ErrUnknownTool) {
		t.Errorf("a call to the deferred %s: %v", deferred, err)
	}
	checkSDKTypes(t, res)()
}
