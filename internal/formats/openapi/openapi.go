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
	"strings"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/decode"
	"github.com/toolc-dev/toolc/internal/option"
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
	problems []option.Problem
	idle     []option.Problem
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
	Problems []option.Problem
	// Idle are overrides of operations that the selection leaves out,
	// which do nothing.
	Idle []option.Problem
	// OperationIDs are the description's operationIds, for a misspelt
	// override's "did you mean".
	OperationIDs []string
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
			if r.id != "" {
				res.OperationIDs = append(res.OperationIDs, r.id)
			}
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
