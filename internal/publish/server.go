// Package publish writes the release files that publish a catalog: the MCP
// registry's server.json, an MCPB bundle's manifest.json, an A2A agent card
// and llms.txt. Each describes the server as a whole, from [catalog] and
// the target's tables; the tools are a summary, and what a destination
// refuses or the catalog cannot fill is a located diagnostic. Nothing here
// does I/O.
package publish

import (
	"cmp"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/option"
	"github.com/toolc-dev/toolc/internal/profile"
)

// The release targets write what publishes a catalog: the MCP registry's
// server.json, an MCPB bundle's manifest.json, an A2A agent card and
// llms.txt. Each describes the server as a whole, from [catalog] and the
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
	// The registry keeps custom data only under this key.
	list := canonical.NewArray()
	for _, t := range tools {
		o := canonical.NewObject()
		o.Set("name", canonical.NewString(t.Name))
		setStr(o, "description", firstSentence(t.Description))
		list.SetItems(append(list.Items(), o))
	}
	out.Set("_meta", nested(list, "io.modelcontextprotocol.registry/publisher-provided", "dev.toolc/tools"))
	return out, r.ds
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
		if sum != "" && !sha256Hex.MatchString(sum) || sum == "" && kind == "mcpb" {
			r.atTable("publish.invalid", "set file_sha256 to the SHA-256 of the .mcpb file, 64 lower-case hex digits", "packages[%d]: an MCPB package needs file_sha256, the SHA-256 of its file (%q)", i, sum)
		}
		setStr(o, "fileSha256", sum)
		setStr(o, "runtimeHint", t.RuntimeHint)
		tr := canonical.NewObject()
		tr.Set("type", canonical.NewString(cmp.Or(t.Transport, "stdio")))
		o.Set("transport", tr)
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
		out.SetItems(append(out.Items(), o))
	}
	return out
}
