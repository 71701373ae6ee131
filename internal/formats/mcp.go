package formats

import (
	"slices"
	"strings"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/decode"
)

// MCP returns the format of the Model Context Protocol's Tool
// (specification 2025-11-25). It reads one tool, an array of tools, a
// tools/list result {"tools": […]} or a JSON-RPC response whose result is
// one; it writes a tools/list result.
func MCP() *Format {
	return &Format{
		Name:   "mcp",
		fit:    mcpFit,
		Decode: decodeMCP,
	}
}

// mcpListKeys are the members of a tools/list result: besides "tools",
// its _meta and cursor, and 2026-07-28's resultType and caching hints.
var mcpListKeys = []string{"tools", "_meta", "nextCursor", "resultType", "ttlMs", "cacheScope"}

func decodeMCP(doc *canonical.Value, file string) ([]*canonical.Tool, []diag.Diagnostic) {
	d := &decoder{decode.Decoder{File: file, Format: "mcp"}}
	if doc.Kind != canonical.Object || !doc.Has("jsonrpc") {
		if doc.Kind == canonical.Object && doc.Has("tools") && !doc.Has("name") {
			d.IgnoreRest(doc, "", mcpListKeys...)
		}
		return d.All(doc, d.mcpTool, "tools"), d.Diags
	}
	switch res := doc.Get("result"); {
	case doc.Has("error"):
		d.Report("source.invalid", "/error", "the JSON-RPC response is an error, not a tools/list result")
		return nil, d.Diags
	case res == nil || res.Kind != canonical.Object || !res.Has("tools"):
		d.Report("source.invalid", "", "the JSON-RPC response has no result.tools")
		return nil, d.Diags
	default:
		d.IgnoreRest(doc, "", "jsonrpc", "id", "result")
		d.IgnoreRest(res, "/result", mcpListKeys...)
		return d.List(res.Get("tools"), "/result/tools", d.mcpTool), d.Diags
	}
}

func (d *decoder) mcpTool(v *canonical.Value, p canonical.Pointer) *canonical.Tool {
	f := d.NamedTool(v, p, p)
	if f == nil {
		return nil
	}
	t := f.Tool
	t.Title = f.String("title", "/title")
	t.Input = f.Schema("inputSchema", "/input")
	t.Output = f.Schema("outputSchema", "/output")
	t.Annotations = f.Annotations("annotations")
	t.Icons = f.Icons("icons")
	t.Meta = f.Typed("_meta", "/meta", canonical.Object)
	if lc := t.Meta.Get(LifecycleMetaKey); lc != nil && lc.Kind == canonical.Object {
		t.Deprecated, _ = lc.Get("deprecated").BoolValue()
		t.Sunset, _ = lc.Get("sunset").StringValue()
		t.RenamedFrom, _ = lc.Get("renamed_from").StringValue()
		t.Stability, _ = lc.Get("stability").StringValue()
		for _, m := range lc.Members() {
			if !slices.Contains(lifecycleFields, m.Key) {
				f.D.Report("source.ignored-field", f.At.Append("_meta", LifecycleMetaKey, m.Key),
					"%q is not a lifecycle field (%s) and is not carried into bundles", m.Key, strings.Join(lifecycleFields, ", "))
			}
		}
		rest := &canonical.Value{Kind: canonical.Object, Pos: t.Meta.Pos}
		for _, m := range t.Meta.Members() {
			if m.Key != LifecycleMetaKey {
				rest.SetMembers(append(rest.Members(), m))
			}
		}
		t.Meta = rest
		if len(rest.Members()) == 0 {
			t.Meta = nil
		}
		f.Lifecycle()
	}
	f.Rest() // execution and fields of later revisions
	return f.Done()
}

// CatalogMetaKey is the _meta key under which an MCP bundle records the
// catalog's name and version.
const CatalogMetaKey = "dev.toolc/catalog"

// LifecycleMetaKey is the _meta key of an MCP tool that holds its lifecycle:
// {"deprecated": true, "sunset": "2027-01-31", "renamed_from": "old:id"}.
const LifecycleMetaKey = "dev.toolc/lifecycle"

// LoadMetaKey is the _meta key under which an MCP bundle carries what the
// manifest decided of a tool's loading ([load]), for a harness that
// defers tools: {"defer": true, "namespace": …, "callers": […]}. A source
// that reads it back keeps it in _meta, as a build's decision, not the
// tool's.
const LoadMetaKey = "dev.toolc/load"

// lifecycleFields are the fields of an MCP tool's lifecycle _meta.
var lifecycleFields = []string{"deprecated", "sunset", "renamed_from", "stability"}
