package publish

import (
	"cmp"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/emit"
	"github.com/toolc-dev/toolc/internal/option"
	"github.com/toolc-dev/toolc/internal/profile"
)

// ---- MCPB manifest.json ----

// MCPBVersion is the manifest_version that the mcpb target writes by
// default (MANIFEST.md 0.3, whose schema @anthropic-ai/mcpb 2.1.2
// validates); manifest_version = "0.4" writes 0.4, whose schema (mcpb
// 2.1.2's mcpb-manifest-v0.4.schema.json) is 0.3's with the server type uv.
const MCPBVersion = "0.3"

// MCPB writes an MCPB bundle's manifest.json.
func MCPB(tools, sources []*canonical.Tool, opts profile.Options) (*canonical.Value, []diag.Diagnostic) {
	r, o := newRelease[MCPBOptions](tools, sources, opts)
	m := o.MCPB
	out := canonical.NewObject()
	version := cmp.Or(o.ManifestVersion, MCPBVersion)
	out.Set("manifest_version", canonical.NewString(version))
	out.Set("name", canonical.NewString(cmp.Or(m.Name, opts.Catalog.Name)))
	out.Set("version", canonical.NewString(r.version("an MCPB manifest")))
	out.Set("description", canonical.NewString(r.description(0, "an MCPB manifest")))
	if m.Author == nil || m.Author.Name == "" {
		r.atTable("publish.field-missing", `add author = { name = "…" } to [targets.mcpb]`, "an MCPB manifest needs an author with a name (MANIFEST.md: author is required), and [targets.mcpb] has none")
	}
	if s := m.Server; s == nil || s.Type == "" || s.EntryPoint == "" || s.MCPConfig == nil {
		r.atTable("publish.field-missing", `add server = { type = "node", entry_point = "server/index.js", mcp_config = { command = "node", args = ["${__dirname}/server/index.js"] } } to [targets.mcpb]`,
			"an MCPB manifest needs the server it runs: type, entry_point and mcp_config (MANIFEST.md: server is required)")
	}
	if s := m.Server; s != nil && s.Type == "uv" && version == "0.3" {
		r.atTable("publish.invalid", `set manifest_version = "0.4" on the target, or type = "python"`, "server type %q is MCPB 0.4's, and the manifest is %s (manifest_version)", s.Type, version)
	}
	table := reflect.ValueOf(m)
	for _, f := range option.Fields(table.Type()) {
		if v := table.FieldByIndex(f.Index); f.Key != "name" && !v.IsZero() {
			out.Set(f.Key, valueOf(v))
		}
	}
	smithery := o.Flavor == "smithery"
	list := canonical.NewArray()
	for i, t := range tools {
		o := canonical.NewObject()
		o.Set("name", canonical.NewString(t.Name))
		setStr(o, "description", t.Description)
		if smithery {
			o.Set("inputSchema", t.Input.JSON())
		} else {
			r.atTool(i, "loss.input-schema", "/input", `set flavor = "smithery" on the target for Smithery's publish, which answers 400 to a tool without one (that manifest fails mcpb validate)`,
				"an MCPB manifest lists a tool by name and description only (MANIFEST.md 0.3: tools[] takes no inputSchema); the server gives its schema at run time")
		}
		list.SetItems(append(list.Items(), o))
	}
	out.Set("tools", list)
	if o.StaticResponses {
		// Windows' on-device agent registry reads the tools/list answer
		// from here instead of starting the server (mcpb's .NET CLI,
		// StaticResponsesHelper): the MCP target's answer, exactly.
		answer := emit.MCP(emit.Tools(tools), profile.Options{Catalog: opts.Catalog})
		out.Set("_meta", nested(answer, "com.microsoft.windows", "static_responses", "tools/list"))
	}
	return out, r.ds
}

// ---- A2A agent card ----

// A2AProtocol is the A2A protocol version the card's interface declares.
const A2AProtocol = "1.0"

// A2ACard writes an A2A agent card.
func A2ACard(tools, sources []*canonical.Tool, opts profile.Options) (*canonical.Value, []diag.Diagnostic) {
	r, o := newRelease[A2AOptions](tools, sources, opts)
	srv := o.Server
	out := canonical.NewObject()
	out.Set("name", canonical.NewString(opts.Catalog.Name))
	out.Set("description", canonical.NewString(r.description(0, "an A2A agent card")))
	url := srv.URL
	if !strings.HasPrefix(url, "https://") && !strings.HasPrefix(url, "http://") {
		r.atTable("publish.field-missing", `add [targets.server] url = "https://…", where the agent answers`, "an A2A agent card needs the URL of the agent's interface, and [targets.server] has no url")
	}
	iface := canonical.NewObject()
	iface.Set("url", canonical.NewString(url))
	iface.Set("protocolBinding", canonical.NewString(cmp.Or(srv.Binding, "JSONRPC")))
	iface.Set("tenant", canonical.NewString(""))
	iface.Set("protocolVersion", canonical.NewString(A2AProtocol))
	out.Set("supportedInterfaces", canonical.NewArray(iface))
	prov := cmp.Or(srv.Provider, &A2AProvider{})
	if prov.Organization == "" || prov.URL == "" {
		r.atTable("publish.field-missing", `add provider = { organization = "…", url = "https://…" } to [targets.server]`, "an A2A agent card names its provider (organization and url), and [targets.server] has none")
	}
	p := canonical.NewObject()
	p.Set("url", canonical.NewString(prov.URL))
	p.Set("organization", canonical.NewString(prov.Organization))
	out.Set("provider", p)
	out.Set("version", canonical.NewString(r.version("an A2A agent card")))
	setStr(out, "documentationUrl", srv.Documentation)
	caps := canonical.NewObject()
	caps.Set("extensions", canonical.NewArray())
	out.Set("capabilities", caps)
	out.Set("securitySchemes", canonical.NewObject())
	out.Set("securityRequirements", canonical.NewArray())
	modes := canonical.NewStrings([]string{"application/json"})
	out.Set("defaultInputModes", modes)
	out.Set("defaultOutputModes", modes)
	out.Set("skills", r.skills(o.Skills))
	out.Set("signatures", canonical.NewArray())
	return out, r.ds
}

// skill is one skill of an agent card.
func skill(id, name, description string, tags []string) *canonical.Value {
	o := canonical.NewObject()
	o.Set("id", canonical.NewString(id))
	o.Set("name", canonical.NewString(name))
	o.Set("description", canonical.NewString(description))
	o.Set("tags", canonical.NewStrings(tags))
	o.Set("examples", canonical.NewArray())
	o.Set("inputModes", canonical.NewStrings([]string{"application/json"}))
	o.Set("outputModes", canonical.NewStrings([]string{"application/json"}))
	o.Set("securityRequirements", canonical.NewArray())
	return o
}

// skills are the card's skills: one per tool, or one per tag.
func (r *release) skills(per string) *canonical.Value {
	out := canonical.NewArray()
	if per == "tags" {
		byTag := map[string][]string{}
		for _, t := range r.sources {
			for _, tag := range cmpTags(t) {
				byTag[tag] = append(byTag[tag], t.Name)
			}
		}
		for _, tag := range slices.Sorted(maps.Keys(byTag)) {
			names := byTag[tag]
			out.SetItems(append(out.Items(), skill(tag, tag, fmt.Sprintf("%d tool(s): %s.", len(names), strings.Join(names, ", ")), []string{tag})))
		}
		return out
	}
	for i, t := range r.tools {
		src := r.sources[i]
		out.SetItems(append(out.Items(), skill(t.Name, cmp.Or(src.Title, src.Name), src.Description, cmpTags(src))))
		r.atTool(i, "loss.input-schema", "/input", "a skill is described in words; the tool's MCP or provider bundle carries its schema",
			"an A2A skill carries no argument schema, output schema or annotations: the card describes the tool in words only")
	}
	return out
}

// cmpTags are a tool's tags, or its namespace where it has none.
func cmpTags(t *canonical.Tool) []string {
	if len(t.Tags) > 0 {
		return t.Tags
	}
	if t.Namespace != "" {
		return []string{t.Namespace}
	}
	return []string{}
}

// ---- llms.txt ----

// LLMsTxt writes llms.txt, a Markdown file, as a JSON string of its
// text.
func LLMsTxt(tools, sources []*canonical.Tool, opts profile.Options) (*canonical.Value, []diag.Diagnostic) {
	r, o := newRelease[LLMsTxtOptions](tools, sources, opts)
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", cmp.Or(opts.Catalog.Name, "Tools"))
	if d := r.description(0, "llms.txt"); d != "" {
		fmt.Fprintf(&b, "> %s\n", strings.Join(strings.Fields(d), " "))
	}
	sections := map[string][]int{}
	for i, t := range sources {
		keys := []string{cmp.Or(t.Namespace, "Tools")}
		if o.Sections == "tags" {
			keys = cmpTags(t)
			if len(keys) == 0 {
				keys = []string{"Other"}
			}
		}
		for _, k := range keys {
			sections[k] = append(sections[k], i)
		}
	}
	for _, sec := range slices.Sorted(maps.Keys(sections)) {
		fmt.Fprintf(&b, "\n## %s\n\n", sec)
		for _, i := range sections[sec] {
			t, src := tools[i], sources[i]
			line := "- `" + t.Name + "`"
			if o.Links != "" {
				line = fmt.Sprintf("- [%s](%s)", t.Name, link(o.Links, src))
			}
			if s := firstSentence(src.Description); s != "" {
				line += ": " + s
			}
			b.WriteString(line + "\n")
		}
	}
	return canonical.NewString(b.String()), r.ds
}

// link fills a URL template for a tool.
func link(tmpl string, t *canonical.Tool) string {
	return strings.NewReplacer("{id}", t.ID(), "{namespace}", t.Namespace, "{name}", t.Name).Replace(tmpl)
}
