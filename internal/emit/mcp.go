package emit

import (
	"slices"
	"strconv"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/internal/formats"
	"github.com/toolc-dev/toolc/internal/par"
	"github.com/toolc-dev/toolc/internal/profile"
)

// MCP writes a Model Context Protocol tools/list result of the target's
// revision (opts.Protocol, the newest when ""). For 2026-07-28:
// {"resultType": "complete", "tools": [...], "ttlMs": …, "cacheScope": …},
// with the server's identity, the catalog's name and version, under
// _meta["io.modelcontextprotocol/serverInfo"] where both are known
// (schema.ts: Result, CacheableResult, ResultMetaObject). For the
// earlier revisions: {"tools": [...]}. Both record the catalog's name and
// version under _meta["dev.toolc/catalog"].
func MCP(low *profile.Lowered, opts profile.Options) *canonical.Value {
	stateless := profile.Stateless(opts.Protocol)
	res := canonical.NewObject()
	if stateless {
		res.Set("resultType", canonical.NewString("complete"))
	}
	res.Set("tools", eachTool(low, func(i int, t *canonical.Tool) *canonical.Value {
		o := mcpToolValue(t)
		setLoadMeta(o, low, i)
		return o
	}))
	meta := canonical.NewObject()
	if stateless {
		ttl, scope := profile.FormatOf[MCPOptions](opts).CacheHints()
		res.Set("ttlMs", canonical.NewNumber(strconv.FormatInt(ttl, 10)))
		res.Set("cacheScope", canonical.NewString(scope))
		if c := opts.Catalog; c.Name != "" && c.Version != "" {
			meta.Set(ServerInfoMetaKey, catalogValue(c))
		}
	}
	if cat := catalogValue(opts.Catalog); cat != nil {
		meta.Set(formats.CatalogMetaKey, cat)
	}
	if len(meta.Members()) > 0 {
		res.Set("_meta", meta)
	}
	return res
}

// ServerInfoMetaKey is the _meta key of a 2026-07-28 result that
// identifies the server (schema.ts: ResultMetaObject).
const ServerInfoMetaKey = "io.modelcontextprotocol/serverInfo"

// eachTool is the array of encode(i, t) for each tool of low, made in
// parallel: each tool's object is its own, and the bundles of a large
// catalog were a serial part of each target.
func eachTool(low *profile.Lowered, encode func(i int, t *canonical.Tool) *canonical.Value) *canonical.Value {
	tools := low.Tools
	if len(tools) == 0 {
		return canonical.NewArray()
	}
	items := make([]*canonical.Value, len(tools))
	par.For(len(tools), 256, func(i int) { items[i] = encode(i, tools[i]) })
	return canonical.NewArray(items...)
}

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
		meta.Set(formats.LifecycleMetaKey, lc)
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

// setLoadMeta writes under _meta["dev.toolc/load"] of the MCP tool o what
// the plan decided of the i-th tool, where it decided more than "loaded,
// called by the model": a harness that defers tools reads it, a client
// ignores it.
func setLoadMeta(o *canonical.Value, low *profile.Lowered, i int) {
	deferred, group, callers := planned(low, i)
	if !deferred && group == "" && callers == nil {
		return
	}
	load := canonical.NewObject()
	if deferred {
		load.Set("defer", canonical.NewBool(true))
	}
	if group != "" {
		load.Set("namespace", canonical.NewString(group))
	}
	if callers != nil {
		load.Set("callers", canonical.NewStrings(callers))
	}
	meta := canonical.NewObject()
	if m := o.Get("_meta"); m != nil {
		meta.SetMembers(slices.Clone(m.Members()))
	}
	meta.Set(formats.LoadMetaKey, load)
	o.Set("_meta", meta)
}
