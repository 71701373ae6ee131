// Package openapi reads OpenAPI 3.0, 3.1 and 3.2 descriptions, in JSON or
// YAML, as tools, and curates them: which operations become tools, and how
// each is named, described and shaped. Each operation becomes a tool:
//
//   - name: the operationId, with every character outside [A-Za-z0-9_.-]
//     made '_' ("repos/get" → "repos_get"); without an operationId, the method
//     and path ("get /pets/{id}" → "get_pets_id"). Two operations with one
//     name are an error.
//   - description: the summary, a blank line and the description (one of
//     them when the other is missing or repeats it), else "METHOD /path";
//     tags are the tool's tags.
//   - annotations: MCP hints from the method (GET read-only, DELETE
//     destructive …), reported as defaults.
//   - input: an object whose properties are the path, query, header and
//     cookie parameters in declaration order, each named by its name (a name
//     taken by an earlier parameter or by the body becomes "<in>_<name>"),
//     with the parameter's description, deprecation and examples on its
//     schema. The JSON request body (else a form body) is flattened into the
//     same object when it is an object schema with properties, nothing but
//     annotations besides, and no property named like a parameter; otherwise
//     it is the property "body", required when the body is. A flattened
//     body's required properties are required even when the description
//     leaves the body optional, as it often does by omission. A body that is
//     neither JSON nor a form is the property "body", one string (base64 for
//     bytes).
//   - output: the schema of the first 2xx response's JSON content, when it is
//     an object schema (MCP output schemas must be).
//   - the components a schema reaches become its own "$defs", and the $refs
//     point there, so each tool stands alone and targets without $ref get
//     them inlined by lowering. With a Loader, $refs to other files are
//     followed too (bundle).
//   - scopes: every scope the operation's security requirements list.
//   - what a caller needs to make the request (method, path, which property
//     goes where, servers, security, deprecation, the operation's x- fields)
//     is the extension "openapi", kept in canonical bundles only.
//
// OpenAPI 3.0 schemas are converted to JSON Schema 2020-12 (nullable,
// boolean exclusiveMinimum/exclusiveMaximum, example), reported as
// source.openapi-converted. Swagger 2.0 is an error that says how to convert.
//
// Options curate which operations become tools and shape each one (see
// Options and Override); the description can also say so itself (x-mcp,
// x-speakeasy-mcp, x-openai-isConsequential).
package openapi

import (
	"cmp"
	"fmt"
	"net/url"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/toolc-dev/toolc/adapters/internal/decode"
	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
)

// Detect scores how well doc fits OpenAPI: 1 for OpenAPI 3, 0.9 for
// Swagger 2.0 (so that decoding can say what to do with it).
func Detect(doc *canonical.Value) float64 {
	if v, ok := doc.Get("openapi").StringValue(); ok && strings.HasPrefix(v, "3.") {
		return 1
	}
	if v, ok := doc.Get("swagger").StringValue(); ok && v == "2.0" {
		return 0.9
	}
	return 0
}

// httpMethods are the operations of a path item, in the order tools are read.
var httpMethods = []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}

// oasDoc is the state of decoding one OpenAPI description.
type oasDoc struct {
	d     *decode.Decoder
	doc   *canonical.Value
	v30   bool                         // OpenAPI 3.0: schemas need converting to 2020-12
	defs  map[string]*oasDef           // by $defs key
	names map[string]canonical.Pointer // tool name → operation, for collisions
	conv  decode.Conversions
	order map[string]int // component schema name → position in the file

	opts     *Options
	sel      Selection
	matched  map[Entry]bool
	problems []Problem
	idle     []Problem
	notes    notes
	// overrides are the keys of opts.Operations, sorted once.
	overrides []string
}

// oasDef is one schema that tools reach by $ref, converted once and copied
// into the $defs of every tool that reaches it.
type oasDef struct {
	key    string
	at     canonical.Pointer // in the file
	schema *canonical.Value  // converted, with refs rewritten to #/$defs/…
	refs   []string          // the $defs keys it refers to
	order  int
	nodes  int // JSON values in schema
}

// Decode reads every operation of doc, a description named file, as it is.
func Decode(doc *canonical.Value, file string) ([]*canonical.Tool, []diag.Diagnostic) {
	r := Read(doc, file, nil, nil)
	return r.Tools, r.Diags
}

// Result is what Read made of one description.
type Result struct {
	Tools []*canonical.Tool
	// Diags are about the description, located in its file.
	Diags []diag.Diagnostic
	// Selection counts the operations and why some were left out.
	Selection Selection
	// Matched holds the entries of the options that matched an operation
	// (Options.Entries); an entry that matches in no file of a source is
	// likely a typo.
	Matched map[Entry]bool
	// Problems are what is wrong with the options themselves for this
	// description (a fixed property the operation does not have).
	Problems []Problem
	// Idle are overrides of operations that the selection leaves out,
	// which do nothing.
	Idle []Problem
	// Grafts are the other files the description's $refs name, read into
	// its document: diagnostics (and tools' source pointers) under a
	// graft's prefix are about that file (Remap).
	Grafts []Graft
}

// Read reads the operations of doc, a description named file, that opts
// select, shaped as opts say (nil: every operation as it is). The other
// files its $refs name are read with load (nil: none), and put in doc
// (Result.Grafts).
func Read(doc *canonical.Value, file string, opts *Options, load Loader) *Result {
	if opts == nil {
		opts = &Options{}
	}
	d := &decode.Decoder{File: file, Format: "openapi"}
	res := &Result{Matched: map[Entry]bool{}}
	tools := read(d, doc, opts, load, res)
	res.Tools, res.Diags = tools, d.Diags
	return res
}

func read(d *decode.Decoder, doc *canonical.Value, opts *Options, load Loader, res *Result) []*canonical.Tool {
	file := d.File
	if doc.Kind != canonical.Object {
		d.Report("source.invalid", "", "an OpenAPI description is an object, got %s", doc.Kind)
		return nil
	}
	if v, ok := doc.Get("swagger").StringValue(); ok {
		d.Diags = append(d.Diags, diag.New("source.unsupported-version", "this is Swagger %s; toolc reads OpenAPI 3.0, 3.1 and 3.2", v).
			At(file, "/swagger").WithFix("convert it to OpenAPI 3 (for example with swagger2openapi or the Swagger Editor) and read that file"))
		return nil
	}
	version, _ := doc.Get("openapi").StringValue()
	if !strings.HasPrefix(version, "3.0") && !strings.HasPrefix(version, "3.1") && !strings.HasPrefix(version, "3.2") {
		d.Diags = append(d.Diags, diag.New("source.unsupported-version", "OpenAPI version %q: toolc reads OpenAPI 3.0, 3.1 and 3.2", version).At(file, "/openapi"))
		return nil
	}
	res.Grafts = bundle(d, doc, file, load)
	o := &oasDoc{d: d, doc: doc, v30: strings.HasPrefix(version, "3.0"), defs: map[string]*oasDef{},
		names: map[string]canonical.Pointer{}, order: map[string]int{}, opts: opts, matched: res.Matched,
		overrides: sortedKeys(opts.Operations)}
	for i, m := range decode.Members(doc.Get("components").Get("schemas")) {
		o.order[m.Key] = i
	}
	var tools []*canonical.Tool
	paths := doc.Get("paths")
	for _, pm := range decode.Members(paths) {
		at := canonical.Pointer("/paths").Append(pm.Key)
		item, itemAt, _ := o.deref(pm.Value, at)
		if item == nil {
			continue
		}
		for _, method := range httpMethods {
			op := item.Get(method)
			if op == nil {
				continue
			}
			r := operationRef{method: method, path: pm.Key}
			r.id, _ = op.Get("operationId").StringValue()
			r.tags, _ = op.Get("tags").Strings()
			if !o.selected(r, item, op) {
				for _, k := range o.overrides {
					if r.named(k, false) {
						o.matched[Entry{"operations", k}] = true
						o.idle = append(o.idle, problemf([]string{"operations", k}, "the override names %s %s, which the selection leaves out", strings.ToUpper(r.method), r.path))
					}
				}
				continue
			}
			if t := o.operation(r, item, itemAt, op, itemAt.Append(method)); t != nil {
				tools = append(tools, t)
			}
		}
	}
	o.conv.Report(d)
	o.notes.report(d)
	res.Selection, res.Problems, res.Idle = o.sel, o.problems, o.idle
	return tools
}

// maxRefHops bounds a chain of $refs to $refs, so a cycle ends.
const maxRefHops = 32

// deref follows the local $ref of a Reference Object (a parameter, request
// body, response or path item that is "$ref": "#/components/…") to what it
// names, with that value's pointer. For a $ref it cannot follow it returns
// nil, having reported why: bad is true for an error (a $ref to nothing, not
// an object), false for a warning (a $ref that bundle did not read into the
// document: a URL, or a file outside the manifest's folder; the part is
// left out and the tool kept).
func (o *oasDoc) deref(v *canonical.Value, at canonical.Pointer) (_ *canonical.Value, _ canonical.Pointer, bad bool) {
	for hops := 0; v != nil && v.Kind == canonical.Object && v.Has("$ref"); hops++ {
		ref, _ := v.Get("$ref").StringValue()
		p, ok := localRef(ref)
		if !ok {
			o.d.Report("source.openapi-skipped", at.Append("$ref"), "$ref %q names nothing toolc reads (it reads other files of the manifest's folder in a build, never a URL), so this part is left out", ref)
			return nil, "", false
		}
		target := o.doc.Resolve(p)
		if target == nil || hops == maxRefHops {
			o.d.Report("source.invalid", at.Append("$ref"), "$ref %q points to nothing", ref)
			return nil, "", true
		}
		v, at = target, p
	}
	if v == nil || v.Kind != canonical.Object {
		if v != nil {
			o.d.Report("source.invalid", at, "want an object, got %s", v.Kind)
		}
		return nil, "", v != nil
	}
	return v, at, false
}

// localRef returns the JSON Pointer of a "#/…" reference.
func localRef(ref string) (canonical.Pointer, bool) {
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok || (frag != "" && frag[0] != '/') {
		return "", false
	}
	if un, err := url.PathUnescape(frag); err == nil {
		frag = un
	}
	return canonical.Pointer(frag), true
}

// oasParam is one parameter of an operation, after path-level and
// operation-level lists are merged.
type oasParam struct {
	name, in string
	v        *canonical.Value
	at       canonical.Pointer
}

// ignoredHeaders are header parameters that OpenAPI says to ignore: the
// request's media types and authorization come from elsewhere.
var ignoredHeaders = []string{"accept", "content-type", "authorization"}

func (o *oasDoc) parameters(item *canonical.Value, itemAt canonical.Pointer, op *canonical.Value, opAt canonical.Pointer) ([]oasParam, bool) {
	var params []oasParam
	ok := true
	for _, src := range []struct {
		list *canonical.Value
		at   canonical.Pointer
	}{{item.Get("parameters"), itemAt.Append("parameters")}, {op.Get("parameters"), opAt.Append("parameters")}} {
		if src.list == nil {
			continue
		}
		if src.list.Kind != canonical.Array {
			o.d.Report("source.invalid", src.at, "parameters must be an array, got %s", src.list.Kind)
			ok = false
			continue
		}
		for i, raw := range src.list.Items {
			v, at, bad := o.deref(raw, src.at.Index(i))
			if v == nil {
				ok = ok && !bad
				continue
			}
			name, okName := v.Get("name").StringValue()
			in, okIn := v.Get("in").StringValue()
			if !okName || !okIn || name == "" || !slices.Contains([]string{"path", "query", "header", "cookie"}, in) {
				o.d.Report("source.invalid", at, `a parameter needs a "name" and an "in" of path, query, header or cookie`)
				ok = false
				continue
			}
			if in == "header" && slices.Contains(ignoredHeaders, strings.ToLower(name)) {
				continue
			}
			p := oasParam{name: name, in: in, v: v, at: at}
			if j := slices.IndexFunc(params, func(q oasParam) bool { return q.name == name && q.in == in }); j >= 0 {
				params[j] = p // the operation overrides the path item
			} else {
				params = append(params, p)
			}
		}
	}
	return params, ok
}

func (o *oasDoc) operation(r operationRef, item *canonical.Value, itemAt canonical.Pointer, op *canonical.Value, opAt canonical.Pointer) *canonical.Tool {
	method, path := r.method, r.path
	if op.Kind != canonical.Object {
		o.d.Report("source.invalid", opAt, "an operation must be an object, got %s", op.Kind)
		return nil
	}
	ov, ovKey := o.override(r)
	sp := op.Get("x-speakeasy-mcp")
	f := o.d.NewTool(op, opAt, opAt)
	t := f.Tool
	opID := f.String("operationId", "/name")
	t.Name = toolName(opID, method, path)
	if n := cmp.Or(ov.Name, stringAt(sp, "name")); n != "" {
		t.Name = n
		if ov.Name == "" {
			t.Source.Fields["/name"] = opAt.Append("x-speakeasy-mcp", "name")
		}
	}
	if prev, dup := o.names[t.Name]; dup {
		o.d.Diags = append(o.d.Diags, diag.New("source.name-collision", "operations %s and %s both become the tool %q", prev, opAt, t.Name).
			At(o.d.File, string(opAt)).About(t.Name).WithFix("give the operations distinct operationIds, or one a name in [sources.openapi.operations]"))
		return nil
	}
	o.names[t.Name] = opAt
	summary := f.String("summary", "")
	description := f.String("description", "")
	t.Description = joinDescription(summary, description)
	switch {
	case ov.Description != "":
		t.Description = ov.Description
	case stringAt(sp, "description") != "":
		t.Description = stringAt(sp, "description")
		t.Source.Fields["/description"] = opAt.Append("x-speakeasy-mcp", "description")
	case summary != "":
		t.Source.Fields["/description"] = opAt.Append("summary")
	case description != "":
		t.Source.Fields["/description"] = opAt.Append("description")
	default:
		t.Description = strings.ToUpper(method) + " " + path
		o.notes.add("described", opAt)
	}
	t.Title = cmp.Or(ov.Title, stringAt(sp, "title"))
	t.Tags = f.Strings("tags", "/tags")
	if scopes, ok := sp.Get("scopes").Strings(); ok {
		t.Tags = append(t.Tags, scopes...)
	}
	if dep, _ := op.Get("deprecated").BoolValue(); dep {
		t.Deprecated = true // and the binding keeps it, as the description said
	}
	t.Annotations = o.hints(method, op, opAt, sp, ov.Annotations)

	http := canonical.NewObject()
	http.Set("method", canonical.NewString(method))
	http.Set("path", canonical.NewString(path))
	if opID != "" {
		http.Set("operationId", canonical.NewString(opID))
	}
	params, ok := o.parameters(item, itemAt, op, opAt)
	if !ok {
		f.Bad = true
	}
	in := o.input(t, params, op, opAt, http)
	if in == nil {
		return nil
	}
	o.reshape(t, in, http, ov, ovKey)
	t.Input = canonical.AsSchema(in)
	t.Source.Fields["/input"] = opAt
	t.Output = o.output(t, op, opAt)

	security := op.Get("security")
	if security == nil {
		security = o.doc.Get("security")
	} else {
		t.Source.Fields["/scopes"] = opAt.Append("security")
	}
	t.Scopes = scopes(security)
	f.Used["security"] = true
	for _, k := range []string{"parameters", "requestBody", "responses", "callbacks", "servers"} {
		f.Used[k] = true
	}
	if v := cmp.Or(op.Get("servers"), item.Get("servers"), o.doc.Get("servers")); v != nil {
		http.Set("servers", v)
	}
	if security != nil {
		http.Set("security", security)
	}
	for _, m := range op.Members {
		switch {
		case f.Used[m.Key]:
		case m.Key == "deprecated" || m.Key == "externalDocs" || strings.HasPrefix(m.Key, "x-"):
			http.Set(m.Key, m.Value)
		default:
			o.d.Report("source.ignored-field", opAt.Append(m.Key), "%q is not a field of an OpenAPI operation and is not carried into bundles", m.Key)
		}
	}
	f.Keep("http", http)
	t.Source.Fields["/extensions/openapi/http"] = opAt
	return f.Done()
}

var illegalNameChars = regexp.MustCompile(`[^A-Za-z0-9_.-]+`)

// toolName makes an operation's tool name: its operationId, or its method
// and path, with every run of other characters than [A-Za-z0-9_.-] one '_'
// (and, from a path, every run of '_' one '_').
func toolName(opID, method, path string) string {
	name := illegalNameChars.ReplaceAllString(opID, "_")
	if opID == "" {
		name = strings.Join(strings.FieldsFunc(illegalNameChars.ReplaceAllString(method+"_"+path, "_"), func(r rune) bool { return r == '_' }), "_")
	}
	name = strings.Trim(name, "_")
	if name == "" {
		name = method
	}
	return name
}

// joinDescription is the summary, a blank line and the description, or
// either alone when the other is missing or already says it.
func joinDescription(summary, description string) string {
	summary, description = strings.TrimSpace(summary), strings.TrimSpace(description)
	switch {
	case summary == "" || strings.HasPrefix(description, summary):
		return description
	case description == "":
		return summary
	}
	return summary + "\n\n" + description
}

// scopes lists every scope of a security requirement list, in order, once.
func scopes(security *canonical.Value) []string {
	var out []string
	if security == nil || security.Kind != canonical.Array {
		return nil
	}
	for _, req := range security.Items {
		for _, m := range decode.Members(req) {
			ss, _ := m.Value.Strings()
			for _, s := range ss {
				if !slices.Contains(out, s) {
					out = append(out, s)
				}
			}
		}
	}
	return out
}

// jsonMedia reports whether a media type carries JSON.
func jsonMedia(mt string) bool {
	base, _, _ := strings.Cut(strings.ToLower(mt), ";")
	base = strings.TrimSpace(base)
	return base == "application/json" || strings.HasSuffix(base, "+json") || base == "*/*"
}

// formMedia are the body media types that are objects of named fields, read
// when a body has no JSON media type.
var formMedia = []string{"application/x-www-form-urlencoded", "multipart/form-data"}

// media chooses the media type of a content map: JSON first, then (for
// request bodies) a form; "" when there is none.
func media(content *canonical.Value, forms bool) string {
	for _, m := range decode.Members(content) {
		if jsonMedia(m.Key) {
			return m.Key
		}
	}
	if forms {
		for _, m := range decode.Members(content) {
			base, _, _ := strings.Cut(strings.ToLower(m.Key), ";")
			if slices.Contains(formMedia, strings.TrimSpace(base)) {
				return m.Key
			}
		}
	}
	return ""
}

// stringBody is the schema of a request body that is not JSON nor a form:
// a string, with contentMediaType, and contentEncoding base64 unless the
// media type is text. The description is the media type schema's, else the
// request body's, else one that says what to send.
func stringBody(schema, description *canonical.Value, mt string) *canonical.Value {
	s := canonical.NewObject()
	s.Set("type", canonical.NewString("string"))
	base, _, _ := strings.Cut(strings.ToLower(mt), ";")
	base = strings.TrimSpace(base)
	d, ok := schema.Get("description").StringValue()
	if !ok {
		d, ok = description.StringValue()
	}
	if !ok {
		d = "The request body, " + base
		if !textMedia(base) {
			d += ", base64-encoded"
		}
		d += "."
	}
	s.Set("description", canonical.NewString(d))
	if !textMedia(base) {
		s.Set("contentEncoding", canonical.NewString("base64"))
	}
	if !strings.Contains(base, "*") {
		s.Set("contentMediaType", canonical.NewString(base))
	}
	return s
}

// stringSchema reports whether s, a body's schema, says no more than that
// the body is a string (of bytes, in some media type), which is what the
// tool's string body says.
func stringSchema(s *canonical.Value) bool {
	if s == nil {
		return true
	}
	if s.Kind != canonical.Object {
		return false
	}
	for _, m := range s.Members {
		switch m.Key {
		case "type":
			if t, _ := m.Value.StringValue(); t != "string" {
				return false
			}
		case "format", "description", "title", "contentMediaType", "contentEncoding", "example", "examples":
		default:
			return false
		}
	}
	return true
}

// textMedia reports whether a media type (lower case, without parameters)
// is text that a string holds as it is.
func textMedia(base string) bool {
	return strings.HasPrefix(base, "text/") || strings.HasSuffix(base, "+xml") || base == "application/xml" ||
		base == "application/yaml" || base == "application/x-yaml" || base == "application/graphql" || base == "application/sql" ||
		base == "application/javascript" || base == "application/x-ndjson" || base == "application/jsonl"
}

// flattenKeys are the keywords besides type, properties and required that
// an object body may have and still be flattened into the input: they
// annotate or close it and mean the same on the input object.
var flattenKeys = []string{"title", "description", "$comment", "examples", "deprecated", "readOnly", "writeOnly", "xml", "externalDocs", "additionalProperties"}

// flattenable reports whether an object body can be flattened: type object,
// properties, and nothing else but annotations or additionalProperties: false.
func flattenable(s *canonical.Value) bool {
	if s == nil || s.Kind != canonical.Object {
		return false
	}
	if typ, _ := s.Get("type").StringValue(); typ != "object" || s.Get("properties") == nil || s.Get("properties").Kind != canonical.Object {
		return false
	}
	if ap := s.Get("additionalProperties"); ap != nil && !(ap.Kind == canonical.Bool && !ap.Bool) {
		return false
	}
	for _, m := range s.Members {
		if m.Key != "type" && m.Key != "properties" && m.Key != "required" && !slices.Contains(flattenKeys, m.Key) && !strings.HasPrefix(m.Key, "x-") {
			return false
		}
	}
	return true
}

// oasSchema is a schema copied out of the description: converted, with its
// refs rewritten, where it came from, and the $defs keys it refers to.
type oasSchema struct {
	v    *canonical.Value
	at   canonical.Pointer
	refs []string
}

// root copies the schema v at at, first following $refs that are all there
// is to it, so that what is checked (object? flattenable?) is what it names.
func (o *oasDoc) root(v *canonical.Value, at canonical.Pointer) oasSchema {
	ref, ok := pureRef(v)
	if !ok {
		return o.schema(v, at)
	}
	p, ok := localRef(ref)
	if !ok {
		return o.schema(v, at)
	}
	key, rest, ok := o.defFor(p)
	if !ok || len(rest) > 0 {
		return o.schema(v, at)
	}
	def := o.defs[key]
	if last := o.follow(def.schema); last != nil {
		def = last
	}
	return oasSchema{v: def.schema.DeepCopy(), at: def.at, refs: slices.Clone(def.refs)}
}

// follow returns the last definition of the chain of $defs that s, a
// converted schema, names when it is only {"$ref": "#/$defs/K"}, and
// that definition is only such a $ref in turn …; nil when s is more than a
// $ref into $defs.
func (o *oasDoc) follow(s *canonical.Value) *oasDef {
	var last *oasDef
	for hops := 0; hops < maxRefHops; hops++ {
		ref, ok := pureRef(s)
		if !ok {
			break
		}
		p, _ := localRef(ref)
		toks, _ := p.Tokens()
		if len(toks) != 2 || toks[0] != "$defs" || o.defs[toks[1]] == nil {
			break
		}
		last = o.defs[toks[1]]
		s = last.schema
	}
	return last
}

// pureRef returns the $ref of a schema that has nothing else.
func pureRef(v *canonical.Value) (string, bool) {
	if v == nil || v.Kind != canonical.Object || len(v.Members) != 1 {
		return "", false
	}
	return v.Get("$ref").StringValue()
}

// schema copies the schema v at at: converted from OpenAPI 3.0 where the
// description is 3.0, with its refs pointing into $defs.
func (o *oasDoc) schema(v *canonical.Value, at canonical.Pointer) oasSchema {
	if v == nil {
		return oasSchema{v: canonical.NewObject(), at: at}
	}
	c := v.DeepCopy()
	if o.v30 {
		decode.Convert30(c, o.conv.Add(at))
	}
	return oasSchema{v: c, at: at, refs: o.rewriteRefs(c)}
}

func (o *oasDoc) input(t *canonical.Tool, params []oasParam, op *canonical.Value, opAt canonical.Pointer, http *canonical.Value) *canonical.Value {
	root := canonical.NewObject()
	root.Set("type", canonical.NewString("object"))
	props := canonical.NewObject()
	var required, refs []string
	taken := map[string]bool{}

	// The body first: whether it is flattened decides which names it takes.
	var body *oasSchema
	var bodyInfo *canonical.Value
	flat := false
	bodyRequired := false
	if rb, rbAt := op.Get("requestBody"), opAt.Append("requestBody"); rb != nil {
		if v, at, _ := o.deref(rb, rbAt); v != nil {
			bodyRequired, _ = v.Get("required").BoolValue()
			content := v.Get("content")
			mt := media(content, true)
			switch {
			case mt != "":
				mAt := at.Append("content", mt)
				sv, sAt := content.Get(mt).Get("schema"), mAt.Append("schema")
				r := o.root(sv, sAt)
				body = &r
				bodyInfo = canonical.NewObject()
				bodyInfo.Set("mediaType", canonical.NewString(mt))
				bodyInfo.Set("required", canonical.NewBool(bodyRequired))
				flat = flattenable(r.v) &&
					!slices.ContainsFunc(params, func(p oasParam) bool { return r.v.Get("properties").Has(p.name) })
			case len(decode.Members(content)) > 0:
				// Text or bytes: the body is one string, its media type
				// in the binding.
				mt = content.Members[0].Key
				mAt := at.Append("content", mt)
				sv := content.Get(mt).Get("schema")
				if !stringSchema(sv) {
					o.d.Report("source.openapi-skipped", mAt.Append("schema"), "the %s request body of %q is taken as one string, so its schema, which describes more than a string, is left out", mt, t.Name)
				}
				r := oasSchema{v: stringBody(sv, v.Get("description"), mt), at: mAt}
				body = &r
				bodyInfo = canonical.NewObject()
				bodyInfo.Set("mediaType", canonical.NewString(mt))
				bodyInfo.Set("required", canonical.NewBool(bodyRequired))
			}
		}
	}
	if body != nil {
		if flat {
			for _, m := range body.v.Get("properties").Members {
				taken[m.Key] = true
			}
		} else {
			taken["body"] = true
		}
	}

	list := canonical.NewArray()
	for _, p := range params {
		name := p.name
		if taken[name] {
			name = p.in + "_" + p.name
		}
		if taken[name] {
			o.d.Report("source.invalid", p.at, "parameter %q (in %s) has the name of another parameter, and so does %q", p.name, p.in, name)
			return nil
		}
		taken[name] = true
		sv, sAt := p.v.Get("schema"), p.at.Append("schema")
		var mt string
		if sv == nil {
			if c := p.v.Get("content"); c != nil && len(decode.Members(c)) > 0 {
				mt = c.Members[0].Key
				sv, sAt = c.Members[0].Value.Get("schema"), p.at.Append("content", mt, "schema")
			}
		}
		s := o.schema(sv, sAt)
		left := annotateParam(s.v, p.v)
		props.Set(name, s.v)
		t.Source.Fields[canonical.Pointer("/input/properties").Append(name)] = sAt
		refs = append(refs, s.refs...)
		if req, _ := p.v.Get("required").BoolValue(); req || p.in == "path" {
			required = append(required, name)
		}
		entry := canonical.NewObject()
		entry.Set("name", canonical.NewString(p.name))
		entry.Set("in", canonical.NewString(p.in))
		entry.Set("property", canonical.NewString(name))
		for _, k := range []string{"style", "explode", "allowReserved", "allowEmptyValue"} {
			if v := p.v.Get(k); v != nil {
				entry.Set(k, v)
			}
		}
		if mt != "" {
			entry.Set("mediaType", canonical.NewString(mt))
		}
		entry.Members = append(entry.Members, left...)
		list.Items = append(list.Items, entry)
	}
	if len(list.Items) > 0 {
		http.Set("parameters", list)
	}

	var closed *canonical.Value
	switch {
	case body == nil:
	case flat:
		for _, m := range body.v.Members {
			switch m.Key {
			case "type", "properties", "required":
			case "additionalProperties":
				closed = m.Value
			default:
				root.Set(m.Key, m.Value)
				t.Source.Fields[canonical.Pointer("/input").Append(m.Key)] = body.at.Append(m.Key)
			}
		}
		for _, m := range body.v.Get("properties").Members {
			props.Set(m.Key, m.Value)
			t.Source.Fields[canonical.Pointer("/input/properties").Append(m.Key)] = body.at.Append("properties", m.Key)
		}
		if req, ok := body.v.Get("required").Strings(); ok {
			required = append(required, req...)
		}
		refs = append(refs, body.refs...)
		bodyInfo.Set("flattened", canonical.NewBool(true))
	default:
		props.Set("body", body.v)
		t.Source.Fields["/input/properties/body"] = body.at
		refs = append(refs, body.refs...)
		if bodyRequired {
			required = append(required, "body")
		}
		bodyInfo.Set("property", canonical.NewString("body"))
	}
	if bodyInfo != nil {
		http.Set("body", bodyInfo)
	}
	root.Set("properties", props)
	if len(required) > 0 {
		root.Set("required", canonical.NewStrings(required))
	}
	if closed != nil {
		root.Set("additionalProperties", closed)
	}
	attachDefs(t, root, o.reach(refs), "/input")
	return root
}

// annotateParam moves what a parameter says about its value (description,
// deprecation, examples) onto its schema, unless the schema says it already,
// and returns what it could not move, for the HTTP binding to keep: nothing
// the description says is lost.
func annotateParam(s, param *canonical.Value) (left []canonical.Member) {
	if s.Kind == canonical.Bool && s.Bool { // true is {}: room for annotations
		*s = canonical.Value{Kind: canonical.Object, Pos: s.Pos}
	}
	move := func(key string, v *canonical.Value) {
		if s.Kind == canonical.Object && !s.Has(key) {
			s.Set(key, v)
		} else if !v.Equal(s.Get(key)) {
			left = append(left, canonical.Member{Key: key, Value: v})
		}
	}
	if d := param.Get("description"); d != nil {
		move("description", d)
	}
	if dep, _ := param.Get("deprecated").BoolValue(); dep {
		move("deprecated", canonical.NewBool(true))
	}
	if ex := param.Get("example"); ex != nil {
		move("examples", canonical.NewArray(ex))
	} else if exs := param.Get("examples"); exs != nil {
		var items []*canonical.Value
		for _, m := range decode.Members(exs) {
			if v := m.Value.Get("value"); v != nil {
				items = append(items, v)
			}
		}
		if len(items) > 0 {
			move("examples", canonical.NewArray(items...))
		}
	}
	return left
}

// successCodes lists the success responses: 2xx codes in ascending order,
// then 2XX.
func successCodes(responses *canonical.Value) []string {
	var codes []string
	for _, m := range decode.Members(responses) {
		if n, err := strconv.Atoi(m.Key); err == nil && n >= 200 && n < 300 {
			codes = append(codes, m.Key)
		}
	}
	slices.Sort(codes) // three digits each: text order is numeric order
	for _, m := range decode.Members(responses) {
		if strings.EqualFold(m.Key, "2XX") {
			codes = append(codes, m.Key)
		}
	}
	return codes
}

func (o *oasDoc) output(t *canonical.Tool, op *canonical.Value, opAt canonical.Pointer) *canonical.Schema {
	responses := op.Get("responses")
	var code, mt string
	var content *canonical.Value
	var at canonical.Pointer
	for _, c := range successCodes(responses) {
		resp, rAt, _ := o.deref(responses.Get(c), opAt.Append("responses", c))
		if m := media(resp.Get("content"), false); m != "" {
			code, mt, content, at = c, m, resp.Get("content"), rAt
			break
		}
	}
	if mt == "" {
		return nil
	}
	sv := content.Get(mt).Get("schema")
	if sv == nil {
		return nil
	}
	s := o.root(sv, at.Append("content", mt, "schema"))
	if o.allOfObjects(s.v) {
		// Every member is an object, so the schema is one: saying so is
		// the same schema, and makes it an output schema.
		s.v.Members = slices.Insert(s.v.Members, 0, canonical.Member{Key: "type", Value: canonical.NewString("object")})
	}
	if typ, _ := s.v.Get("type").StringValue(); s.v.Kind != canonical.Object || typ != "object" {
		what := `not an object schema`
		if s.v.Kind == canonical.Object && s.v.Get("type") == nil {
			what = `a schema without "type": "object"`
		} else if s.v.Kind == canonical.Object {
			what = "of type " + s.v.Get("type").String()
		}
		o.d.Report("source.openapi-skipped", s.at, "the %s response of %q is %s; an output schema must be an object, so the tool has none", code, t.Name, what)
		return nil
	}
	reached := o.reach(s.refs)
	size := s.v.Size()
	for _, def := range reached {
		size += def.nodes
	}
	if size > maxOutputValues {
		o.d.Report("source.openapi-skipped", s.at, "the %s response of %q, with the %d component schemas it reaches, has %d JSON values, more than the %d an output schema is given; the tool has none", code, t.Name, len(reached), size, maxOutputValues)
		return nil
	}
	t.Source.Fields["/output"] = s.at
	attachDefs(t, s.v, reached, "/output")
	return canonical.AsSchema(s.v)
}

// allOfObjects reports whether s has no type but an allOf whose members
// (after $refs to definitions) all have "type": "object".
func (o *oasDoc) allOfObjects(s *canonical.Value) bool {
	all := s.Get("allOf")
	if s.Kind != canonical.Object || s.Has("type") || all == nil || all.Kind != canonical.Array || len(all.Items) == 0 {
		return false
	}
	for _, m := range all.Items {
		if def := o.follow(m); def != nil {
			m = def.schema
		}
		if typ, _ := m.Get("type").StringValue(); typ != "object" {
			return false
		}
	}
	return true
}

// maxOutputValues bounds an output schema with its definitions. Responses
// of large APIs can reach most of the API's schemas (Stripe's objects reach
// 500 of them, 800 KB of JSON, through their expandable fields); copied into
// each tool they would make the MCP bundle hundreds of megabytes. Inputs
// have no such bound: a tool cannot do without its input schema.
const maxOutputValues = 10_000

// reach lists the definitions that refs reach, directly or through others.
func (o *oasDoc) reach(refs []string) []*oasDef {
	seen := map[string]bool{}
	var reached []*oasDef
	for len(refs) > 0 {
		k := refs[0]
		refs = refs[1:]
		if seen[k] {
			continue
		}
		seen[k] = true
		def := o.defs[k]
		reached = append(reached, def)
		refs = append(refs, def.refs...)
	}
	return reached
}

// attachDefs adds to root, as "$defs", the reached definitions, in the order
// of the description's components.
func attachDefs(t *canonical.Tool, root *canonical.Value, reached []*oasDef, field canonical.Pointer) {
	if len(reached) == 0 {
		return
	}
	slices.SortFunc(reached, func(a, b *oasDef) int { return cmp.Or(cmp.Compare(a.order, b.order), strings.Compare(a.key, b.key)) })
	defs := root.Get("$defs")
	if defs == nil || defs.Kind != canonical.Object {
		defs = canonical.NewObject()
		root.Set("$defs", defs)
	}
	for _, def := range reached {
		if !defs.Has(def.key) {
			defs.Set(def.key, def.schema.DeepCopy())
			t.Source.Fields[field.Append("$defs", def.key)] = def.at
		}
	}
}

// defFor names the definition that a local $ref to p needs: a component
// schema is its own name, with the rest of the pointer inside it; any other
// schema in the description gets a name made from its pointer. It converts
// the definition the first time it is asked for, and reports false when p
// names no schema.
func (o *oasDoc) defFor(p canonical.Pointer) (key string, rest []string, ok bool) {
	toks, err := p.Tokens()
	if err != nil || len(toks) == 0 {
		return "", nil, false
	}
	at := p
	switch {
	case len(toks) >= 3 && toks[0] == "components" && toks[1] == "schemas":
		key, rest, at = toks[2], toks[3:], canonical.Pointer("/components/schemas").Append(toks[2])
	case len(toks) >= 2 && toks[0] == graftKey:
		// In another file: its component's name, or the file's stem and
		// the pointer, never a name of this file's components.
		stem := strings.TrimSuffix(path.Base(toks[1]), path.Ext(toks[1]))
		parts := append([]string{stem}, toks[2:]...)
		if len(toks) >= 5 && toks[2] == "components" && toks[3] == "schemas" {
			parts, rest, at = toks[4:5], toks[5:], canonical.Pointer("").Append(toks[:5]...)
		}
		key = o.freeKey(illegalNameChars.ReplaceAllString(strings.Join(parts, "."), "_"), at)
	default:
		key = o.freeKey(illegalNameChars.ReplaceAllString(strings.Join(toks, "."), "_"), at)
	}
	if def, ok := o.defs[key]; ok {
		if def.at != at { // two pointers that sanitise to one name
			return "", nil, false
		}
		return key, rest, true
	}
	target := o.doc.Resolve(at)
	if target == nil || (target.Kind != canonical.Object && target.Kind != canonical.Bool) {
		return "", nil, false
	}
	order, isComponent := o.order[key]
	if !isComponent || at != canonical.Pointer("/components/schemas").Append(key) {
		order = len(o.order) + len(o.defs)
	}
	def := &oasDef{key: key, at: at, order: order}
	o.defs[key] = def // before converting: a definition may refer to itself
	s := o.schema(target, at)
	def.schema, def.refs, def.nodes = s.v, s.refs, s.v.Size()
	return key, rest, true
}

// freeKey returns base, or base with '_' added until it names no component
// of this file and no definition of another pointer than at.
func (o *oasDoc) freeKey(base string, at canonical.Pointer) string {
	for {
		_, component := o.order[base]
		if def, ok := o.defs[base]; !component && (!ok || def.at == at) {
			return base
		}
		base += "_"
	}
}

// rewriteRefs points every local $ref in the schema s (a copy) at the
// tool's own $defs and returns the $defs keys they need. A $ref that
// cannot be followed is left as it is, for validation to report.
func (o *oasDoc) rewriteRefs(s *canonical.Value) []string {
	var keys []string
	canonical.Visit(canonical.AsSchema(s), func(sub *canonical.Schema) bool {
		if !sub.IsObject() {
			return true
		}
		i := sub.JSON().Index("$ref")
		if i < 0 {
			return true
		}
		rv := sub.Members[i].Value
		ref, isString := rv.StringValue()
		p, local := localRef(ref)
		if !isString || !local {
			return true
		}
		key, rest, ok := o.defFor(p)
		if !ok {
			return true
		}
		rv.Text = "#" + fragmentEscape(string(canonical.Pointer("/$defs").Append(key).Append(rest...)))
		if !slices.Contains(keys, key) {
			keys = append(keys, key)
		}
		return true
	})
	return keys
}

// fragmentEscape percent-encodes what a URI fragment cannot hold as is.
func fragmentEscape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-._~!$&'()*+,;=:@/?", c) >= 0 {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}
