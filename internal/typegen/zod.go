package typegen

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/toolc-dev/toolc/canonical"
)

// The zod module: each tool's input (and output) schema as a zod v4
// value, which the MCP TypeScript SDK v2's registerTool and the AI SDK's
// tool() take. It is written from the JSON Schema itself, not from the type
// model: a validator must accept what the schema accepts, constraints
// included, so every keyword is either said in zod's own words (whose
// toJSONSchema gives the keyword back, so a server built on the module
// advertises what it checks) or reported as a loss.validator-* on its
// tool. Formats stay annotations (.meta), as JSON Schema 2020-12 has them
// and toolcall checks them.

// zodMeta are the annotations carried in .meta(), which zod's
// toJSONSchema writes back as they are.
var zodMeta = []string{"title", "format", "examples", "default", "deprecated", "readOnly", "writeOnly", "contentMediaType", "contentEncoding"}

// zodUnsupported are keywords zod cannot say in words its JSON Schema
// gives back: each is a loss.validator-keyword where it stands.
var zodUnsupported = []string{"not", "if", "then", "else", "uniqueItems", "contains", "minContains", "maxContains", "patternProperties",
	"propertyNames", "minProperties", "maxProperties", "dependentRequired", "dependentSchemas", "unevaluatedProperties", "unevaluatedItems",
	"dependencies", "$dynamicRef", "$recursiveRef"}

// zodSchema writes one schema (a tool's input or output) as zod: the
// expression of its root, and the consts of the definitions it refers to,
// each named in the module's scope.
type zodSchema struct {
	tool   *canonical.Tool
	root   *canonical.Value
	base   canonical.Pointer // "/input" or "/output" in the tool's canonical form
	prefix string            // the root's const name, which definitions extend
	js     bool              // JavaScript: no type annotations
	scope  *scope

	names     map[canonical.Pointer]string // a referenced schema → its const
	recursive map[canonical.Pointer]bool
	order     []canonical.Pointer // the referenced schemas, dependencies first
	losses    []Loss
}

func (z *zodSchema) loss(code string, at canonical.Pointer, format string, args ...any) {
	z.losses = append(z.losses, Loss{Code: code, Message: fmt.Sprintf(format, args...), Tool: z.tool, At: z.base.Join(at)})
}

// refTarget is the schema in this one that v's $ref names.
func (z *zodSchema) refTarget(v *canonical.Value) (canonical.Pointer, bool) {
	return localRef(z.root, v)
}

// collect finds the references of the schema, names them, and orders them:
// those in a cycle (the root's "#" too) are recursive and written lazily.
func (z *zodSchema) collect() {
	z.names, z.recursive = map[canonical.Pointer]string{}, map[canonical.Pointer]bool{}
	deps := map[canonical.Pointer][]canonical.Pointer{}
	var refsOf func(v *canonical.Value, into *[]canonical.Pointer)
	refsOf = func(v *canonical.Value, into *[]canonical.Pointer) {
		switch v.Kind {
		case canonical.Object:
			if p, ok := z.refTarget(v); ok {
				*into = append(*into, p)
			}
			for _, m := range v.Members() {
				if m.Key == "$defs" || m.Key == "definitions" || m.Key == "const" || m.Key == "enum" || m.Key == "default" || m.Key == "examples" {
					continue
				}
				refsOf(m.Value, into)
			}
		case canonical.Array:
			for _, it := range v.Items() {
				refsOf(it, into)
			}
		}
	}
	var visit func(p canonical.Pointer)
	visit = func(p canonical.Pointer) {
		if _, ok := deps[p]; ok {
			return
		}
		var ds []canonical.Pointer
		refsOf(z.root.Resolve(p), &ds)
		deps[p] = ds
		for _, d := range ds {
			visit(d)
		}
	}
	visit("")
	// A reference is recursive where it reaches itself.
	for p := range deps {
		seen := map[canonical.Pointer]bool{}
		stack := slices.Clone(deps[p])
		for len(stack) > 0 {
			q := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if q == p {
				z.recursive[p] = true
				break
			}
			if !seen[q] {
				seen[q] = true
				stack = append(stack, deps[q]...)
			}
		}
	}
	// Dependencies first, each once; a recursive one may come anywhere (it
	// is read lazily), the root last.
	done := map[canonical.Pointer]bool{}
	var place func(p canonical.Pointer)
	place = func(p canonical.Pointer) {
		if done[p] {
			return
		}
		done[p] = true
		for _, d := range deps[p] {
			if !z.recursive[d] {
				place(d)
			}
		}
		if p != "" {
			z.order = append(z.order, p)
		}
	}
	for _, p := range slices.Sorted(maps.Keys(deps)) {
		if z.recursive[p] && p != "" {
			place(p)
		}
	}
	place("")
	for _, p := range z.order {
		z.names[p] = z.scope.name(z.prefix+Pascal(lastToken(p)), "_")
	}
	z.names[""] = z.prefix
}

// lastToken is the last token of p, or "Def".
func lastToken(p canonical.Pointer) string {
	toks, err := p.Tokens()
	if err != nil || len(toks) == 0 {
		return "Def"
	}
	return toks[len(toks)-1]
}

// decl writes the const of the schema at p named name.
func (z *zodSchema) decl(b sink, p canonical.Pointer, name string, doc string) {
	body := z.expr(z.root.Resolve(p), p)
	if doc != "" {
		tsDoc(b, "", doc, nil, false)
	}
	switch {
	case z.recursive[p] && z.js:
		fmt.Fprintf(b, "export const %s = z.lazy(() => %s);\n", name, body)
	case z.recursive[p]:
		fmt.Fprintf(b, "export const %s: z.ZodType<unknown> = z.lazy(() => %s);\n", name, body)
	default:
		fmt.Fprintf(b, "export const %s = %s;\n", name, body)
	}
}

// write writes the definitions and then the root, named by the prefix.
func (z *zodSchema) write(b sink, doc string) {
	z.collect()
	for _, p := range z.order {
		z.decl(b, p, z.names[p], "")
	}
	z.decl(b, "", z.prefix, doc)
	if !z.js {
		if z.recursive[""] {
			fmt.Fprintf(b, "export type %s = unknown;\n", z.prefix)
		} else {
			fmt.Fprintf(b, "export type %s = z.infer<typeof %s>;\n", z.prefix, z.prefix)
		}
	}
}

// expr is the zod expression of the schema v at at.
func (z *zodSchema) expr(v *canonical.Value, at canonical.Pointer) string {
	switch {
	case v == nil:
		return "z.unknown()"
	case v.Kind == canonical.Bool:
		if b, _ := v.BoolValue(); b {
			return "z.unknown()"
		}
		return "z.never()"
	case v.Kind != canonical.Object:
		z.loss("loss.validator-keyword", at, "a schema that is neither an object nor a boolean: the validator takes any value here")
		return "z.unknown()"
	}
	for _, k := range zodUnsupported {
		if v.Has(k) {
			z.loss("loss.validator-keyword", at.Append(k), "zod cannot say %s in words its JSON Schema gives back: the validator does not check it", k)
		}
	}
	var parts []string
	if p, ok := z.refTarget(v); ok {
		name := z.names[p]
		if z.recursive[p] { // read when it is used: it may be declared after, or be this schema
			name = "z.lazy(() => " + name + ")"
		}
		parts = append(parts, name)
	} else if v.Has("$ref") {
		z.loss("loss.validator-ref", at.Append("$ref"), "a $ref that is not to this schema: the validator takes any value here")
	}
	if e := z.valueExpr(v, at); e != "" {
		parts = append(parts, e)
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		bs := v.Get(k)
		if bs == nil || bs.Kind != canonical.Array || len(bs.Items()) == 0 {
			continue
		}
		var branches []string
		for i, br := range bs.Items() {
			branches = append(branches, z.expr(br, at.Append(k).Index(i)))
		}
		switch {
		case len(branches) == 1:
			parts = append(parts, branches[0])
		case k == "anyOf":
			parts = append(parts, "z.union(["+strings.Join(branches, ", ")+"])")
		default:
			parts = append(parts, "z.xor(["+strings.Join(branches, ", ")+"])")
		}
	}
	if all := v.Get("allOf"); all != nil && all.Kind == canonical.Array {
		for i, br := range all.Items() {
			parts = append(parts, z.expr(br, at.Append("allOf").Index(i)))
		}
	}
	e := "z.unknown()"
	if len(parts) > 0 {
		e = parts[0]
		for _, p := range parts[1:] {
			e = "z.intersection(" + e + ", " + p + ")"
		}
	}
	return e + z.annotations(v)
}

// annotations are .describe() and .meta() of v's annotations.
func (z *zodSchema) annotations(v *canonical.Value) string {
	var b strings.Builder
	if d, ok := v.Get("description").StringValue(); ok {
		fmt.Fprintf(&b, ".describe(%s)", tsString(d))
	}
	meta := canonical.NewObject()
	for _, k := range zodMeta {
		if m := v.Get(k); m != nil {
			meta.Set(k, m)
		}
	}
	if len(meta.Members()) > 0 {
		fmt.Fprintf(&b, ".meta(%s)", jsValue(meta))
	}
	return b.String()
}

// jsValue is v as a JavaScript literal: JSON, with U+2028 and U+2029
// escaped, and an object's "__proto__" key computed, as a literal's would
// set the prototype.
func jsValue(v *canonical.Value) string {
	var b strings.Builder
	var write func(v *canonical.Value)
	write = func(v *canonical.Value) {
		switch v.Kind {
		case canonical.Object:
			b.WriteString("{")
			for i, m := range v.Members() {
				if i > 0 {
					b.WriteString(", ")
				}
				b.WriteString(jsKey(m.Key))
				b.WriteString(": ")
				write(m.Value)
			}
			b.WriteString("}")
		case canonical.Array:
			b.WriteString("[")
			for i, it := range v.Items() {
				if i > 0 {
					b.WriteString(", ")
				}
				write(it)
			}
			b.WriteString("]")
		case canonical.String:
			b.WriteString(tsString(v.Text()))
		default:
			b.WriteString(jsText(v.String()))
		}
	}
	write(v)
	return b.String()
}

// jsKey is an object literal's key k.
func jsKey(k string) string {
	if k == "__proto__" {
		return "[" + tsString(k) + "]"
	}
	return tsString(k)
}

// valueExpr is the expression of what v says of values by itself: const,
// enum, or its types with their keywords; "" where it says nothing.
func (z *zodSchema) valueExpr(v *canonical.Value, at canonical.Pointer) string {
	sv, ok := valuesOf(v, at)
	switch {
	case !ok:
		return ""
	case sv.literalAt != "":
		return z.literals(sv.literals, sv.literalAt)
	}
	types := sv.types
	var out []string
	for _, t := range types {
		out = append(out, z.typeExpr(t, v, at))
	}
	if len(out) == 1 {
		return out[0]
	}
	return "z.union([" + strings.Join(out, ", ") + "])"
}

// literals is the union of the JSON scalars values.
func (z *zodSchema) literals(values []*canonical.Value, at canonical.Pointer) string {
	var strs, lits []string
	for _, x := range values {
		switch x.Kind {
		case canonical.String:
			strs = append(strs, tsString(x.Text()))
			lits = append(lits, "z.literal("+tsString(x.Text())+")")
		case canonical.Null:
			lits = append(lits, "z.null()")
		case canonical.Bool, canonical.Number:
			lits = append(lits, "z.literal("+x.String()+")")
		default:
			z.loss("loss.validator-const", at, "an object or array value in %s: zod's literals are scalars, so the validator leaves it out", lastToken(at))
		}
	}
	switch {
	case len(lits) == 0:
		return "z.never()"
	case len(strs) == len(lits) && len(strs) > 1:
		return "z.enum([" + strings.Join(strs, ", ") + "])"
	case len(lits) == 1:
		return lits[0]
	}
	return "z.union([" + strings.Join(lits, ", ") + "])"
}

// typeExpr is the expression of the values of JSON type t that v takes.
func (z *zodSchema) typeExpr(t string, v *canonical.Value, at canonical.Pointer) string {
	num := func(k string) (string, bool) {
		n := v.Get(k)
		if n == nil || n.Kind != canonical.Number {
			if n != nil {
				z.loss("loss.validator-keyword", at.Append(k), "%s is not a number (draft-04's boolean form): the validator does not check it", k)
			}
			return "", false
		}
		return n.Text(), true
	}
	var b strings.Builder
	switch t {
	case "string":
		b.WriteString("z.string()")
		if n, ok := num("minLength"); ok {
			fmt.Fprintf(&b, ".min(%s)", n)
		}
		if n, ok := num("maxLength"); ok {
			fmt.Fprintf(&b, ".max(%s)", n)
		}
		if p, ok := v.Get("pattern").StringValue(); ok {
			fmt.Fprintf(&b, ".regex(new RegExp(%s))", tsString(p))
		}
	case "number", "integer":
		b.WriteString("z.number()")
		if t == "integer" {
			b.WriteString(".int()")
		}
		for _, c := range []struct{ key, method string }{{"minimum", "gte"}, {"maximum", "lte"}, {"exclusiveMinimum", "gt"}, {"exclusiveMaximum", "lt"}, {"multipleOf", "multipleOf"}} {
			if n, ok := num(c.key); ok {
				fmt.Fprintf(&b, ".%s(%s)", c.method, n)
			}
		}
	case "boolean":
		b.WriteString("z.boolean()")
	case "null":
		b.WriteString("z.null()")
	case "array":
		items := "z.unknown()"
		if it := v.Get("items"); it != nil {
			items = z.expr(it, at.Append("items"))
		}
		if v.Has("prefixItems") {
			z.loss("loss.validator-keyword", at.Append("prefixItems"), "zod's tuples need every item, where prefixItems does not: the validator checks the items against items alone")
		}
		fmt.Fprintf(&b, "z.array(%s)", items)
		if n, ok := num("minItems"); ok {
			fmt.Fprintf(&b, ".min(%s)", n)
		}
		if n, ok := num("maxItems"); ok {
			fmt.Fprintf(&b, ".max(%s)", n)
		}
	case "object":
		b.WriteString(z.objectExpr(v, at))
	default:
		z.loss("loss.validator-keyword", at.Append("type"), "type %q is no JSON type: the validator takes any value here", t)
		return "z.unknown()"
	}
	return b.String()
}

// objectExpr is the expression of the objects v takes: its properties,
// required or optional, and the others as additionalProperties says.
func (z *zodSchema) objectExpr(v *canonical.Value, at canonical.Pointer) string {
	required, _ := v.Get("required").Strings()
	var fields []string
	seen := map[string]bool{}
	if props := v.Get("properties"); props != nil {
		for _, m := range props.Members() {
			seen[m.Key] = true
			e := z.expr(m.Value, at.Append("properties", m.Key))
			if !slices.Contains(required, m.Key) {
				e += ".optional()"
			}
			fields = append(fields, jsKey(m.Key)+": "+e)
		}
	}
	for _, r := range required {
		if !seen[r] { // required, whatever its value
			seen[r] = true
			fields = append(fields, jsKey(r)+": z.unknown()")
		}
	}
	shape := "{" + strings.Join(fields, ", ") + "}"
	switch ap := v.Get("additionalProperties"); {
	case ap == nil:
		return "z.looseObject(" + shape + ")"
	case ap.Kind == canonical.Bool:
		if b, _ := ap.BoolValue(); !b {
			return "z.strictObject(" + shape + ")"
		}
		return "z.looseObject(" + shape + ")"
	default:
		if len(fields) == 0 {
			return "z.record(z.string(), " + z.expr(ap, at.Append("additionalProperties")) + ")"
		}
		return "z.object(" + shape + ").catchall(" + z.expr(ap, at.Append("additionalProperties")) + ")"
	}
}

// Zod writes the zod v4 module of the model's tools: per tool its input
// schema (and output schema where it has one) as a zod value with its
// inferred type, then toolNames and one tools map, keyed by the emitted
// name, of { name, title?, description, inputSchema, outputSchema? }. With
// js, the module is JavaScript, without the types. The losses are what
// the validators do not check.
func (m *Model) Zod(header string, js bool) (string, []Loss) {
	var b strings.Builder
	losses := m.writeZod(&b, header, js)
	return b.String(), losses
}

// ZodLosses are what the zod module's validators do not check: what
// writing it finds, found without keeping its text.
func (m *Model) ZodLosses(js bool) []Loss { return m.writeZod(discard{}, "", js) }

// WriteZod writes the zod module to w as it makes it.
func (m *Model) WriteZod(w io.Writer, header string, js bool) error {
	return buffered(w, func(b sink) {
		m.writeZod(b, header, js)
	})
}

func (m *Model) writeZod(b sink, header string, js bool) []Loss {
	tsLineComment(b, header)
	b.WriteString("// Code generated by toolc. DO NOT EDIT.\n\nimport * as z from \"zod\";\n")
	sc := newScope(reservedTypeNames, []string{"z", "toolNames", "tools"})
	for _, t := range m.Tools {
		sc.reserve(t.TypeName + "Input")
		sc.reserve(t.TypeName + "Output")
	}
	var losses []Loss
	type entry struct {
		t             Tool
		input, output string
	}
	var entries []entry
	for _, t := range m.Tools {
		src := t.Source
		b.WriteString("\n")
		in := &zodSchema{tool: src, root: src.Input.JSON(), base: "/input", prefix: t.TypeName + "Input", js: js, scope: sc}
		in.write(b, t.Doc)
		losses = append(losses, in.losses...)
		e := entry{t: t, input: in.prefix}
		if src.Output != nil {
			out := &zodSchema{tool: src, root: src.Output.JSON(), base: "/output", prefix: t.TypeName + "Output", js: js, scope: sc}
			out.write(b, "")
			losses = append(losses, out.losses...)
			e.output = out.prefix
		}
		entries = append(entries, e)
	}
	b.WriteString("\n/** The tools' names, as the target emits them. */\nexport const toolNames = [\n")
	for _, e := range entries {
		fmt.Fprintf(b, "  %s,\n", tsString(e.t.Name))
	}
	b.WriteString("]")
	if !js {
		b.WriteString(" as const")
	}
	b.WriteString(";\n\n/** Each tool, by its emitted name: what registerTool and tool() take. */\nexport const tools = {\n")
	for _, e := range entries {
		fmt.Fprintf(b, "  %s: {\n    name: %s,\n", jsKey(e.t.Name), tsString(e.t.Name))
		if e.t.Source.Title != "" {
			fmt.Fprintf(b, "    title: %s,\n", tsString(e.t.Source.Title))
		}
		fmt.Fprintf(b, "    description: %s,\n    inputSchema: %s,\n", tsString(e.t.Doc), e.input)
		if e.output != "" {
			fmt.Fprintf(b, "    outputSchema: %s,\n", e.output)
		}
		b.WriteString("  },\n")
	}
	b.WriteString("}")
	if !js {
		b.WriteString(" as const")
	}
	b.WriteString(";\n")
	return losses
}
