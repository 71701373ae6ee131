package adapters

import (
	"slices"
	"strings"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/decode"
	"github.com/toolc-dev/toolc/internal/par"
	"github.com/toolc-dev/toolc/internal/profile"
)

// MCP returns the adapter of the Model Context Protocol's Tool
// (specification 2025-11-25). It reads one tool, an array of tools, a
// tools/list result {"tools": […]} or a JSON-RPC response whose result is
// one; it writes a tools/list result.
func MCP() *Adapter {
	return &Adapter{
		Name:    "mcp",
		fit:     mcpFit,
		Decode:  decodeMCP,
		Encode:  encodeMCP,
		Profile: profileOf("mcp"),
	}
}

// mcpListKeys are the members of a tools/list result besides "tools".
var mcpListKeys = []string{"tools", "_meta", "nextCursor"}

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

func encodeMCP(tools []*canonical.Tool, opts profile.Options) *canonical.Value {
	res := canonical.NewObject()
	res.Set("tools", eachTool(tools, mcpToolValue))
	if cat := catalogValue(opts.Catalog); cat != nil {
		meta := canonical.NewObject()
		meta.Set(CatalogMetaKey, cat)
		res.Set("_meta", meta)
	}
	return res
}

// eachTool is the array of encode(t) for each tool, made in parallel:
// each tool's object is its own, and the bundles of a large catalog were a
// serial part of each target.
func eachTool(tools []*canonical.Tool, encode func(t *canonical.Tool) *canonical.Value) *canonical.Value {
	if len(tools) == 0 {
		return canonical.NewArray()
	}
	items := make([]*canonical.Value, len(tools))
	par.For(len(tools), 256, func(i int) { items[i] = encode(tools[i]) })
	return canonical.NewArray(items...)
}

// CatalogMetaKey is the _meta key under which an MCP bundle records the
// catalog's name and version.
const CatalogMetaKey = "dev.toolc/catalog"

// LifecycleMetaKey is the _meta key of an MCP tool that holds its lifecycle:
// {"deprecated": true, "sunset": "2027-01-31", "renamed_from": "old:id"}.
const LifecycleMetaKey = "dev.toolc/lifecycle"

// lifecycleFields are the fields of an MCP tool's lifecycle _meta.
var lifecycleFields = []string{"deprecated", "sunset", "renamed_from", "stability"}

// lifecycleValue returns t's lifecycle as an object, or nil.
func lifecycleValue(t *canonical.Tool) *canonical.Value {
	if !t.Deprecated && t.Sunset == "" && t.RenamedFrom == "" && t.Stability == "" {
		return nil
	}
	o := canonical.NewObject()
	if t.Deprecated {
		o.Set("deprecated", canonical.NewBool(true))
	}
	if t.Sunset != "" {
		o.Set("sunset", canonical.NewString(t.Sunset))
	}
	if t.Stability != "" {
		o.Set("stability", canonical.NewString(t.Stability))
	}
	if t.RenamedFrom != "" {
		o.Set("renamed_from", canonical.NewString(t.RenamedFrom))
	}
	return o
}

func mcpToolValue(t *canonical.Tool) *canonical.Value {
	o := canonical.NewObject()
	o.Set("name", canonical.NewString(t.Name))
	if t.Title != "" {
		o.Set("title", canonical.NewString(t.Title))
	}
	setDescription(o, t)
	o.Set("inputSchema", t.Input.JSON())
	if t.Output != nil {
		o.Set("outputSchema", t.Output.JSON())
	}
	if t.Annotations != nil {
		o.Set("annotations", t.Annotations.ToValue())
	}
	if len(t.Icons) > 0 {
		o.Set("icons", canonical.IconsValue(t.Icons))
	}
	meta := t.Meta
	if lc := lifecycleValue(t); lc != nil {
		meta = canonical.NewObject()
		if t.Meta != nil {
			meta.SetMembers(slices.Clone(t.Meta.Members()))
		}
		meta.Set(LifecycleMetaKey, lc)
	}
	if meta != nil {
		o.Set("_meta", meta)
	}
	appendExtensions(o, t, "mcp")
	return o
}

// setDescription writes the tool's description, if it has one: every
// format's member is "description".
func setDescription(o *canonical.Value, t *canonical.Tool) {
	if t.Description != "" {
		o.Set("description", canonical.NewString(t.Description))
	}
}

// toolObject starts the object of one tool with its name and description.
func toolObject(t *canonical.Tool) *canonical.Value {
	// Room for the name, description, schema and one more: a bundle has a
	// tool object per tool, and growing each member by member was a fifth
	// of what encoding a bundle allocated.
	o := canonical.NewObject(make([]canonical.Member, 0, 4)...)
	o.Set("name", canonical.NewString(t.Name))
	setDescription(o, t)
	return o
}

// appendExtensions adds the tool's extension fields of format to o, after
// the fields o already has.
func appendExtensions(o *canonical.Value, t *canonical.Tool, format string) {
	if ext := t.Extensions[format]; ext != nil {
		for _, m := range ext.Members() {
			if !o.Has(m.Key) {
				o.Set(m.Key, m.Value)
			}
		}
	}
}
