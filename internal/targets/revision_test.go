package targets

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/emit"
	"github.com/toolc-dev/toolc/internal/formats"
	"github.com/toolc-dev/toolc/internal/npmtest"
	"github.com/toolc-dev/toolc/internal/profile"
)

// TestMCPResultPerRevision: the MCP target writes each revision's
// tools/list result — 2026-07-28's with resultType, ttlMs, cacheScope and
// the server's identity, the earlier ones without — and the official SDKs
// read it as one: the Go SDK (v1.8, which speaks 2026-07-28) and the
// TypeScript SDK's schemas (@modelcontextprotocol/core).
func TestMCPResultPerRevision(t *testing.T) {
	reg := allFormats()
	var all []*canonical.Tool
	for _, cd := range corpusDocs(t) {
		if cd.format != "mcp" {
			continue
		}
		a, _ := reg.Get(cd.format)
		tools, ds := a.Decode(cd.doc, cd.name)
		if !diag.HasErrors(append(ds, formats.CheckSchemas(tools)...)) {
			all = append(all, tools...)
		}
	}
	p, _ := profile.Of("mcp")
	catalog := profile.Catalog{Name: "io.github.acme/corpus", Version: "1.2.0"}
	bundles := map[string][]byte{}
	for _, c := range []struct {
		protocol string
		options  *emit.MCPOptions
		ttl      int
		scope    string
	}{
		{"2026-07-28", &emit.MCPOptions{}, 300000, "public"},
		{"", &emit.MCPOptions{TTL: "90s", CacheScope: "private"}, 90000, "private"},
		{"2025-11-25", &emit.MCPOptions{}, 0, ""},
		{"2025-06-18", &emit.MCPOptions{}, 0, ""},
	} {
		opts := profile.Options{Protocol: c.protocol, Catalog: catalog, Format: c.options}
		low := emit.Bundle(context.Background(), p, emit.MCP, all, "mcp", opts)
		data := low.Bundle.Indent()
		var res mcp.ListToolsResult
		if err := json.Unmarshal(data, &res); err != nil {
			t.Fatalf("%q: the Go SDK cannot read the result: %v", c.protocol, err)
		}
		stateless := c.ttl > 0
		if got := string(res.ResultType); (got == "complete") != stateless || (!stateless && got != "") {
			t.Errorf("%q: resultType %q", c.protocol, got)
		}
		if res.TTLMs != c.ttl || res.CacheScope != c.scope {
			t.Errorf("%q: ttlMs %d, cacheScope %q; want %d, %q", c.protocol, res.TTLMs, res.CacheScope, c.ttl, c.scope)
		}
		info, _ := res.Meta[emit.ServerInfoMetaKey].(map[string]any)
		if stateless != (info != nil) || stateless && (info["name"] != catalog.Name || info["version"] != catalog.Version) {
			t.Errorf("%q: serverInfo %v", c.protocol, res.Meta[emit.ServerInfoMetaKey])
		}
		if !stateless && (strings.Contains(string(data), `"ttlMs"`) || strings.Contains(string(data), `"cacheScope"`)) {
			t.Errorf("%q: an earlier revision's result has caching hints", c.protocol)
		}
		if len(res.Tools) != len(low.Tools) {
			t.Errorf("%q: the Go SDK read %d tools of %d", c.protocol, len(res.Tools), len(low.Tools))
		}
		bundles[c.protocol] = data
	}
	t.Logf("%d corpus tools, 4 revisions: read by the Go SDK", len(all))
	// And the example catalog's bundle, as the repository holds it.
	example, err := os.ReadFile("../../dist/mcp.json")
	if err != nil {
		t.Fatal(err)
	}
	var res mcp.ListToolsResult
	if err := json.Unmarshal(example, &res); err != nil || string(res.ResultType) != "complete" || res.TTLMs < 0 || res.CacheScope != "public" && res.CacheScope != "private" {
		t.Errorf("the example catalog's dist/mcp.json: %v, resultType %q, ttlMs %d, cacheScope %q", err, res.ResultType, res.TTLMs, res.CacheScope)
	}
	bundles["example"] = example
	core := npmtest.Module(t, "@modelcontextprotocol/core")
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	for protocol, data := range bundles {
		script := `import { readFileSync } from "node:fs";
const core = await import(process.argv[1]);
const res = JSON.parse(readFileSync(0, "utf8"));
const r = core.ListToolsResultSchema.safeParse(res);
if (!r.success) { console.log(JSON.stringify(r.error.issues.slice(0, 3))); process.exit(1); }
const m = core.ResultMetaObjectSchema.safeParse(res._meta ?? {});
if (!m.success) { console.log(JSON.stringify(m.error.issues.slice(0, 3))); process.exit(1); }`
		cmd := exec.Command(node, "--input-type=module", "-e", script, "file://"+filepath.ToSlash(filepath.Join(core, "dist", "index.mjs")))
		cmd.Stdin = strings.NewReader(string(data))
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%q: the TypeScript SDK's ListToolsResultSchema refuses the result: %v\n%s", protocol, err, out)
		}
	}
}
