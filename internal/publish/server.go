// Package publish writes the release files that publish a catalog: the MCP
// registry's server.json, an MCPB bundle's manifest.json, an MCP server
// card, Agent Skills folders, an A2A agent card and llms.txt. Each describes the server as a whole, from [catalog] and
// the target's tables; the tools are a summary, and what a destination
// refuses or the catalog cannot fill is a located diagnostic. Nothing here
// does I/O.
package publish

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/option"
	"github.com/toolc-dev/toolc/internal/profile"
)

// The release targets write what publishes a catalog: the MCP registry's
// server.json, an MCPB bundle's manifest.json, an MCP server card, Agent
// Skills folders, an A2A agent card and llms.txt. Each describes the server as a whole, from [catalog] and the
// target's tables; the tools are a summary, and what a destination refuses
// or the catalog cannot fill is a located diagnostic.

// ServerSchema is the $schema of the server.json that server-json writes:
// the MCP registry's released schema.
const ServerSchema = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"

// release is one release target's writing of a bundle: the tools as
// lowered, their sources in the same order, and the diagnostics.
type release struct {
	tools, sources []*canonical.Tool
	opts           profile.Options
	p              profile.Publish
	ds             []diag.Diagnostic
}

// newRelease starts a release target's writing, with its options, of the
// type T its format declares.
func newRelease[T any](tools, sources []*canonical.Tool, opts profile.Options) (*release, *T) {
	return &release{tools: tools, sources: sources, opts: opts, p: opts.Publish}, profile.FormatOf[T](opts)
}

// atTable reports a finding about the target's table (or the target).
func (r *release) atTable(code, fix, format string, args ...any) {
	d := diag.New(code, format, args...)
	d.File, d.Line, d.Column = r.p.File, r.p.Line, r.p.Column
	r.ds = append(r.ds, d.WithFix(fix))
}

// atCatalog reports a finding about [catalog] description.
func (r *release) atCatalog(code, fix, format string, args ...any) {
	d := diag.New(code, format, args...)
	d.File, d.Line, d.Column = r.p.File, r.p.DescriptionLine, r.p.DescriptionColumn
	r.ds = append(r.ds, d.WithFix(fix))
}

// atTool reports a finding about the i-th tool, at field of its source.
func (r *release) atTool(i int, code string, field canonical.Pointer, fix, format string, args ...any) {
	src := r.sources[i]
	r.ds = append(r.ds, diag.New(code, format, args...).At(src.Source.Place(field)).About(src.ID()).WithFix(fix))
}

// description is the catalog's description, cut to max characters (0: no
// limit) with loss.description, or "" with an error where it has none.
func (r *release) description(max int, who string) string {
	d := r.p.Description
	switch {
	case d == "":
		r.atCatalog("publish.field-missing", `set [catalog] description = "…", a sentence that says what the tools are for`, "%s needs a description of the server, and [catalog] has none", who)
	case max > 0 && len([]rune(d)) > max:
		short := profile.Shorten(d, max)
		r.atCatalog("loss.description", "write a [catalog] description of at most 100 characters, or deny loss.description to refuse the cut", "the catalog's description has %d characters; %s takes at most %d, so it was cut to %q", len([]rune(d)), who, max, short)
		return short
	}
	return d
}

// version is the catalog's version, with an error where it has none.
func (r *release) version(who string) string {
	if r.opts.Catalog.Version == "" {
		r.atCatalog("publish.field-missing", `set [catalog] version = "1.0.0", the exact version of the release`, "%s needs the exact version of the release, and [catalog] has none", who)
	}
	return r.opts.Catalog.Version
}

// valueOf is a declared table's value as JSON, as the manifest wrote it:
// a struct's set fields by key and a map's entries, sorted by key (TOML's
// tables have no order); a value of no declared type (a user_config
// default) as TOML decoded it.
func valueOf(v reflect.Value) *canonical.Value {
	if t, ok := v.Interface().(time.Time); ok {
		return canonical.NewString(t.Format(time.RFC3339))
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return canonical.NewNull()
		}
		return valueOf(v.Elem())
	case reflect.Struct:
		fields := option.Fields(v.Type())
		slices.SortFunc(fields, func(a, b option.Field) int { return strings.Compare(a.Key, b.Key) })
		o := canonical.NewObject()
		for _, f := range fields {
			if fv := v.FieldByIndex(f.Index); !fv.IsZero() {
				o.Set(f.Key, valueOf(fv))
			}
		}
		return o
	case reflect.Map:
		o := canonical.NewObject()
		keys := v.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
		for _, k := range keys {
			o.Set(k.String(), valueOf(v.MapIndex(k)))
		}
		return o
	case reflect.Slice:
		a := canonical.NewArray()
		items := make([]*canonical.Value, v.Len())
		for i := range items {
			items[i] = valueOf(v.Index(i))
		}
		a.SetItems(items)
		return a
	case reflect.String:
		return canonical.NewString(v.String())
	case reflect.Bool:
		return canonical.NewBool(v.Bool())
	case reflect.Int, reflect.Int64:
		return canonical.NewNumber(strconv.FormatInt(v.Int(), 10))
	case reflect.Float64:
		return canonical.NewNumber(fmt.Sprint(v.Float()))
	}
	return canonical.NewString(fmt.Sprint(v.Interface()))
}

// firstSentence is the first sentence of a description, for summaries:
// of its first line, where a title line comes first (OpenAPI's summary).
func firstSentence(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	s = strings.Join(strings.Fields(s), " ")
	for _, end := range []string{". ", "! ", "? "} {
		if i := strings.Index(s, end); i >= 0 {
			return s[:i+1]
		}
	}
	return s
}

// setStr sets key to s when s is not empty.
func setStr(o *canonical.Value, key, s string) {
	if s != "" {
		o.Set(key, canonical.NewString(s))
	}
}

// ---- server.json ----

// serverName is the registry's rule for a server's name: reverse DNS, one
// "/" (server.schema.json, Server.name).
var serverName = regexp.MustCompile(`^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$`)

// versionRange are the forms of version the registry refuses: ranges and
// "latest" (server.schema.json: "Version ranges are rejected").
var versionRange = regexp.MustCompile(`^(latest|[~^<>=*].*|.*\.[x*](\..*)?|.*\s.*)$`)

var sha256Hex = regexp.MustCompile(`^[a-f0-9]{64}$`)

// Publisher writes a release file from the lowered tools and their sources
// (in the same order), with what its destination refuses as diagnostics.
type Publisher func(tools, sources []*canonical.Tool, opts profile.Options) (*canonical.Value, []diag.Diagnostic)

// ServerJSON writes the MCP registry's server.json (schema 2025-12-11).
func ServerJSON(tools, sources []*canonical.Tool, opts profile.Options) (*canonical.Value, []diag.Diagnostic) {
	r, o := newRelease[ServerJSONOptions](tools, sources, opts)
	srv := o.Server
	name := cmp.Or(srv.Name, opts.Catalog.Name)
	if !serverName.MatchString(name) || len(name) < 3 || len(name) > 200 {
		r.atTable("publish.invalid", `set [targets.server] name = "io.github.OWNER/SERVER"`, "the registry takes a server name in reverse-DNS form with exactly one \"/\" (^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$, 3 to 200 characters; server.schema.json 2025-12-11), not %q", name)
	}
	out := canonical.NewObject()
	out.Set("$schema", canonical.NewString(ServerSchema))
	out.Set("name", canonical.NewString(name))
	out.Set("description", canonical.NewString(r.description(100, "the registry's server.json")))
	out.Set("version", canonical.NewString(r.version("the registry's server.json")))
	if repo := srv.Repository; repo != nil {
		o := canonical.NewObject()
		setStr(o, "url", repo.URL)
		setStr(o, "source", repo.Source)
		setStr(o, "id", repo.ID)
		setStr(o, "subfolder", repo.Subfolder)
		out.Set("repository", o)
	}
	setStr(out, "websiteUrl", srv.Website)
	if srv.Title != "" {
		if n := len([]rune(srv.Title)); n > 100 {
			r.atTable("publish.invalid", "shorten [targets.server] title to 100 characters", "title has %d characters; the registry takes at most 100", n)
		}
		out.Set("title", canonical.NewString(srv.Title))
	}
	if icons := r.icons(srv.Icons); icons != nil {
		out.Set("icons", icons)
	}
	pkgs, rem := r.packages(srv.Packages), r.remotes(srv.Remotes)
	if len(pkgs.Items()) > 0 {
		out.Set("packages", pkgs)
	}
	if len(rem.Items()) > 0 {
		out.Set("remotes", rem)
	}
	if len(pkgs.Items())+len(rem.Items()) == 0 {
		r.atTable("publish.field-missing", `add [[targets.server.packages]] (registry_type, identifier, transport) or [[targets.server.remotes]] (type, url)`, "the server.json says neither how to install the server (packages) nor where it runs (remotes)")
	}
	// The registry keeps custom data only under this key, up to 4 KB.
	out.Set("_meta", canonical.NewObject(canonical.Member{Key: "io.modelcontextprotocol.registry/publisher-provided", Value: r.toolSummary(tools)}))
	return out, r.ds
}

// MaxPublisherMeta is the most the registry keeps under
// _meta["io.modelcontextprotocol.registry/publisher-provided"], as JSON
// (the registry's validatePublisherExtensions: 4 KB).
const MaxPublisherMeta = 4 * 1024

// toolSummary is {"dev.toolc/tools": [{name, description}, …]} within the
// registry's bound: each description its first sentence; where that is
// too much, the names alone; where that is still too much, the first names
// that fit and how many more there are. What it leaves out is a
// loss.publisher-meta, at the target.
func (r *release) toolSummary(tools []*canonical.Tool) *canonical.Value {
	summary := func(n int, described bool) *canonical.Value {
		list := canonical.NewArray()
		for _, t := range tools[:n] {
			o := canonical.NewObject()
			o.Set("name", canonical.NewString(t.Name))
			if described {
				setStr(o, "description", firstSentence(t.Description))
			}
			list.SetItems(append(list.Items(), o))
		}
		o := canonical.NewObject(canonical.Member{Key: "dev.toolc/tools", Value: list})
		if n < len(tools) {
			o.Set("dev.toolc/more", canonical.NewNumber(strconv.Itoa(len(tools)-n)))
		}
		return o
	}
	full := summary(len(tools), true)
	if size(full) <= MaxPublisherMeta {
		return full
	}
	if names := summary(len(tools), false); size(names) <= MaxPublisherMeta {
		r.atTable("loss.publisher-meta", "shorten the first sentences of the tools' descriptions, or publish fewer tools in this target (select)", "the tool summary under _meta's publisher-provided key is %d bytes with descriptions, over the registry's %d: it lists the %d tools by name alone", size(full), MaxPublisherMeta, len(tools))
		return names
	}
	n := sort.Search(len(tools), func(n int) bool { return size(summary(n+1, false)) > MaxPublisherMeta })
	r.atTable("loss.publisher-meta", "shorten the first sentences of the tools' descriptions, or publish fewer tools in this target (select)", "the tool summary under _meta's publisher-provided key is %d bytes with descriptions, over the registry's %d: it names the first %d of the %d tools, and says how many more there are", size(full), MaxPublisherMeta, n, len(tools))
	return summary(n, false)
}

// size is v's JSON as the registry measures it (Go's encoding/json:
// compact, <, > and & escaped).
func size(v *canonical.Value) int {
	data, err := json.Marshal(json.RawMessage(v.AppendJSON(nil, "")))
	if err != nil {
		return math.MaxInt
	}
	return len(data)
}

// nested puts v under keys, the outermost first: nested(v, "a", "b") is
// {"a": {"b": v}}.
func nested(v *canonical.Value, keys ...string) *canonical.Value {
	for i := len(keys) - 1; i >= 0; i-- {
		v = canonical.NewObject(canonical.Member{Key: keys[i], Value: v})
	}
	return v
}

// packages writes [[targets.server.packages]] in the registry's terms.
func (r *release) packages(ts []Package) *canonical.Value {
	out := canonical.NewArray()
	for i, t := range ts {
		o := canonical.NewObject()
		kind, id := t.RegistryType, t.Identifier
		if kind == "" || id == "" {
			r.atTable("publish.field-missing", "give each package registry_type (npm, pypi, oci, nuget, mcpb) and identifier", "packages[%d] needs registry_type and identifier", i)
		}
		setStr(o, "registryType", kind)
		setStr(o, "registryBaseUrl", t.RegistryBaseURL)
		setStr(o, "identifier", id)
		v := cmp.Or(t.Version, r.opts.Catalog.Version)
		if versionRange.MatchString(v) || v == "" {
			r.atTable("publish.invalid", `set the package's version = "1.2.0", the exact version it installs`, "packages[%d] version %q: the registry takes an exact version, not a range or \"latest\"", i, v)
		}
		setStr(o, "version", v)
		sum := t.FileSHA256
		if t.File != "" {
			got, ok := r.opts.Files[t.File]
			switch {
			case !ok:
				r.atTable("publish.file-missing", `pack the bundle first: toolc build --target mcpb (the MCPB manifest alone), mcpb pack, then toolc build (docs/publish.md, "A release job")`,
					"packages[%d] file %q does not exist: the registry entry gives its SHA-256, so it is written once the package is packed", i, t.File)
			case sum != "" && sum != got:
				r.atTable("publish.invalid", "leave file_sha256 out: file gives it", "packages[%d]: file_sha256 %s is not the SHA-256 of %s (%s)", i, sum, t.File, got)
			}
			sum = got
		}
		if sum != "" && !sha256Hex.MatchString(sum) || sum == "" && kind == "mcpb" && t.File == "" {
			r.atTable("publish.invalid", `set file = "dist/NAME.mcpb", the packed bundle, or file_sha256 to its SHA-256, 64 lower-case hex digits`, "packages[%d]: an MCPB package needs file_sha256, the SHA-256 of its file (%q)", i, sum)
		}
		setStr(o, "fileSha256", sum)
		setStr(o, "runtimeHint", t.RuntimeHint)
		at := fmt.Sprintf("packages[%d]", i)
		if args := r.arguments(at+".runtime_arguments", t.RuntimeArguments); args != nil {
			o.Set("runtimeArguments", args)
		}
		if args := r.arguments(at+".package_arguments", t.PackageArguments); args != nil {
			o.Set("packageArguments", args)
		}
		if env := r.inputs(at+".environment_variables", t.EnvironmentVariables); env != nil {
			o.Set("environmentVariables", env)
		}
		transport := cmp.Or(t.Transport, "stdio")
		tr := canonical.NewObject()
		tr.Set("type", canonical.NewString(transport))
		switch {
		case transport == "stdio" && (t.URL != "" || len(t.Headers) > 0):
			r.atTable("publish.invalid", "leave url and headers out of a stdio package", "%s: a stdio package has no url or headers (the registry's stdio-transport-url-not-empty)", at)
		case transport != "stdio" && t.URL == "":
			r.atTable("publish.field-missing", `set url = "http://localhost:{port}/mcp"`, "%s: a %s package needs the url it listens on", at, transport)
		}
		setStr(tr, "url", t.URL)
		if hs := r.inputs(at+".headers", t.Headers); hs != nil {
			tr.Set("headers", hs)
		}
		o.Set("transport", tr)
		out.SetItems(append(out.Items(), o))
	}
	return out
}

// inputs writes environment variables or headers, each named.
func (r *release) inputs(at string, in []Input) *canonical.Value {
	if len(in) == 0 {
		return nil
	}
	out := canonical.NewArray()
	for i, v := range in {
		if strings.TrimSpace(v.Name) == "" {
			r.atTable("publish.field-missing", "give each a name", "%s[%d] has no name", at, i)
		}
		o := canonical.NewObject()
		setStr(o, "name", v.Name)
		r.input(o, v.Description, v.Required, v.Secret, v.Format, v.Default, v.Value, v.Placeholder, v.Choices)
		out.SetItems(append(out.Items(), o))
	}
	return out
}

// input writes the fields of the registry's Input on o.
func (r *release) input(o *canonical.Value, description string, required, secret bool, format, def, value, placeholder string, choices []string) {
	setStr(o, "description", description)
	if required {
		o.Set("isRequired", canonical.NewBool(true))
	}
	if secret {
		o.Set("isSecret", canonical.NewBool(true))
	}
	setStr(o, "format", format)
	setStr(o, "default", def)
	setStr(o, "value", value)
	setStr(o, "placeholder", placeholder)
	if len(choices) > 0 {
		o.Set("choices", canonical.NewStrings(choices))
	}
}

// arguments writes command-line arguments: positional ones with a value
// or a hint, named ones with their flag.
func (r *release) arguments(at string, args []Argument) *canonical.Value {
	if len(args) == 0 {
		return nil
	}
	out := canonical.NewArray()
	for i, a := range args {
		typ := cmp.Or(a.Type, "positional")
		switch {
		case typ == "named" && strings.TrimSpace(a.Name) == "":
			r.atTable("publish.field-missing", `give a named argument its flag: name = "--port"`, "%s[%d] is named and has no name", at, i)
		case typ == "positional" && a.Value == "" && a.ValueHint == "":
			r.atTable("publish.field-missing", `give a positional argument value = "…" or value_hint = "…"`, "%s[%d] is positional and has neither value nor value_hint", at, i)
		}
		o := canonical.NewObject()
		o.Set("type", canonical.NewString(typ))
		if typ == "named" {
			setStr(o, "name", a.Name)
		} else {
			setStr(o, "valueHint", a.ValueHint)
		}
		if a.Repeated {
			o.Set("isRepeated", canonical.NewBool(true))
		}
		r.input(o, a.Description, a.Required, a.Secret, "", a.Default, a.Value, "", nil)
		out.SetItems(append(out.Items(), o))
	}
	return out
}

// icons writes the server's icons, each an https URL.
func (r *release) icons(in []Icon) *canonical.Value {
	if len(in) == 0 {
		return nil
	}
	out := canonical.NewArray()
	for i, ic := range in {
		if !strings.HasPrefix(ic.Src, "https://") {
			r.atTable("publish.invalid", "give each icon an https:// src", "icons[%d] src %q: the registry takes absolute https URLs", i, ic.Src)
		}
		o := canonical.NewObject()
		setStr(o, "src", ic.Src)
		setStr(o, "mimeType", ic.MIMEType)
		if len(ic.Sizes) > 0 {
			o.Set("sizes", canonical.NewStrings(ic.Sizes))
		}
		setStr(o, "theme", ic.Theme)
		out.SetItems(append(out.Items(), o))
	}
	return out
}

// remotes writes [[targets.server.remotes]] in the registry's terms.
func (r *release) remotes(ts []Remote) *canonical.Value {
	out := canonical.NewArray()
	for i, t := range ts {
		kind, url := t.Type, t.URL
		if kind != "streamable-http" && kind != "sse" || !strings.HasPrefix(url, "https://") && !strings.HasPrefix(url, "http://") {
			r.atTable("publish.invalid", `write remotes as { type = "streamable-http", url = "https://…" }`, "remotes[%d]: type %q and url %q: the registry takes streamable-http or sse at an http(s) URL", i, kind, url)
		}
		o := canonical.NewObject()
		setStr(o, "type", kind)
		setStr(o, "url", url)
		if hs := r.inputs(fmt.Sprintf("remotes[%d].headers", i), t.Headers); hs != nil {
			o.Set("headers", hs)
		}
		out.SetItems(append(out.Items(), o))
	}
	return out
}
