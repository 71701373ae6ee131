package tokens

import (
	"bytes"
	"slices"
	"strings"

	"github.com/toolc-dev/toolc/canonical"
)

// The rendering of function tools into the prompt that OpenAI publishes:
// the harmony format of its open-weight models (github.com/openai/harmony,
// src/encoding.rs, json_schema_to_typescript and template_tools_section,
// Apache-2.0), which writes each function as a TypeScript type in a
// "functions" namespace of the developer message:
//
//	# Tools
//
//	## functions
//
//	namespace functions {
//
//	// Use this tool to lookup the weather in a given location.
//	type lookup_weather = (_: {
//	location: string,
//	}) => any;
//
//	} // namespace functions
//
// This is a port of that code: same branches, same output, keywords it
// does not render (anyOf, $ref, constraints) left out as it leaves them.

// sectionHead and sectionTail wrap the functions of one request.
const (
	sectionHead = "# Tools\n\n## functions\n\nnamespace functions {\n"
	sectionTail = "} // namespace functions"
)

// renderFunction is one function's block: its description as comments,
// then its type.
func renderFunction(name, description string, parameters *canonical.Value) string {
	return string(appendFunction(nil, name, description, parameters))
}

// appendFunction appends renderFunction's block to b. The block is
// written into one buffer, as a bundle's tools are counted: a string
// made for each part of each type was half of what counting allocated.
func appendFunction(b []byte, name, description string, parameters *canonical.Value) []byte {
	if description != "" { // as Rust's str::lines: on \n, a trailing \r dropped, no last empty line
		for line := range strings.SplitSeq(strings.TrimSuffix(description, "\n"), "\n") {
			b = append(append(append(b, "// "...), strings.TrimSuffix(line, "\r")...), '\n')
		}
	}
	b = append(append(append(b, "type "...), name...), " = "...)
	if parameters == nil {
		return append(b, "() => any;\n"...)
	}
	b = appendTypescript(append(b, "(_: "...), parameters, "")
	return append(b, ") => any;\n"...)
}

// Render writes the tools section of a request with these functions, each
// given as its name, description and parameters schema.
func Render(functions []Function) string {
	parts := []string{sectionHead}
	for _, f := range functions {
		parts = append(parts, strings.TrimSuffix(renderFunction(f.Name, f.Description, f.Parameters), "\n")+"\n")
	}
	parts = append(parts, sectionTail)
	return strings.Join(parts, "\n")
}

func isEnum(s *canonical.Value) bool {
	e := s.Get("enum")
	return e != nil && e.Kind == canonical.Array && len(e.Items()) > 0
}

func stringOf(v *canonical.Value) (string, bool) {
	if v == nil {
		return "", false
	}
	return v.StringValue()
}

func nullable(s *canonical.Value) bool {
	b, _ := s.Get("nullable").BoolValue()
	return b
}

// appendDefault writes a default as harmony does: a string in quotes,
// unless the schema is an enum.
func appendDefault(b []byte, def, s *canonical.Value) []byte {
	b = append(b, "default: "...)
	if str, ok := def.StringValue(); ok {
		if !isEnum(s) {
			return append(append(append(b, '"'), str...), '"')
		}
		return append(b, str...)
	}
	return append(b, def.String()...)
}

// appendNullable appends " | null" to the type written from start when
// the schema s is nullable and the type does not say null already.
func appendNullable(b []byte, start int, s *canonical.Value) []byte {
	if nullable(s) && !bytes.Contains(b[start:], []byte("null")) {
		b = append(b, " | null"...)
	}
	return b
}

// appendTrailing appends a variant's trailing comment: its description
// (when say) and its default.
func appendTrailing(b []byte, variant *canonical.Value, say func(string) bool) []byte {
	d, hasDesc := stringOf(variant.Get("description"))
	hasDesc = hasDesc && say(d)
	def := variant.Get("default")
	if !hasDesc && def == nil {
		return b
	}
	b = append(b, " // "...)
	if hasDesc {
		b = append(b, d...)
		if def != nil {
			b = append(b, ' ')
		}
	}
	if def != nil {
		b = appendDefault(b, def, variant)
	}
	return b
}

// appendTypescript is harmony's json_schema_to_typescript.
func appendTypescript(b []byte, s *canonical.Value, indent string) []byte {
	if s == nil || s.Kind != canonical.Object {
		return append(b, "any"...)
	}
	if oneOf := s.Get("oneOf"); oneOf != nil && oneOf.Kind == canonical.Array {
		for _, variant := range oneOf.Items() {
			b = append(append(append(b, '\n'), indent...), " | "...)
			start := len(b)
			b = appendNullable(appendTypescript(b, variant, indent+"   "), start, variant)
			b = appendTrailing(b, variant, func(string) bool { return true })
		}
		return b
	}
	typ := s.Get("type")
	if typ != nil && typ.Kind == canonical.Array {
		return appendUnion(b, typ, "any", false)
	}
	str, ok := stringOf(typ)
	if !ok {
		return append(b, "any"...)
	}
	switch str {
	case "object":
		return appendObject(b, s, indent)
	case "string":
		if e := s.Get("enum"); e != nil && e.Kind == canonical.Array {
			return appendUnion(b, e, "string", true)
		}
		return append(b, "string"...)
	case "number", "integer":
		return append(b, "number"...)
	case "boolean":
		return append(b, "boolean"...)
	case "array":
		if items := s.Get("items"); items != nil {
			return append(appendTypescript(b, items, indent), "[]"...)
		}
		return append(b, "Array<any>"...)
	}
	return append(b, "any"...)
}

// appendUnion writes the strings of the array list joined by " | ", or
// none when list has no string: an enum's values in quotes (as they are,
// unescaped), a list of types with integer as number.
func appendUnion(b []byte, list *canonical.Value, none string, enum bool) []byte {
	n := 0
	for _, v := range list.Items() {
		x, ok := v.StringValue()
		if !ok {
			continue
		}
		if n > 0 {
			b = append(b, " | "...)
		}
		switch {
		case enum:
			b = append(append(append(b, '"'), x...), '"')
		case x == "integer":
			b = append(b, "number"...)
		default:
			b = append(b, x...)
		}
		n++
	}
	if n == 0 {
		b = append(b, none...)
	}
	return b
}

// appendComment writes indent, "// ", the text and a newline.
func appendComment(b []byte, indent, text string) []byte {
	return append(append(append(append(b, indent...), "// "...), text...), '\n')
}

func appendObject(b []byte, s *canonical.Value, indent string) []byte {
	if d, ok := stringOf(s.Get("description")); ok {
		b = appendComment(b, indent, d)
	}
	b = append(b, "{\n"...)
	props := s.Get("properties")
	if props != nil && props.Kind == canonical.Object {
		var required []*canonical.Value
		if req := s.Get("required"); req != nil && req.Kind == canonical.Array {
			required = req.Items()
		}
		for _, m := range props.Members() {
			key, val := m.Key, m.Value
			opt := "?"
			if slices.ContainsFunc(required, func(r *canonical.Value) bool { x, ok := r.StringValue(); return ok && x == key }) {
				opt = ""
			}
			if t, ok := stringOf(val.Get("title")); ok {
				b = append(append(appendComment(b, indent, t), indent...), "//\n"...)
			}
			oneOf := val.Get("oneOf")
			if oneOf == nil {
				if d, ok := stringOf(val.Get("description")); ok {
					b = appendComment(b, indent, d)
				}
			}
			if ex := val.Get("examples"); ex != nil && ex.Kind == canonical.Array && len(ex.Items()) > 0 {
				b = appendComment(b, indent, "Examples:")
				for _, e := range ex.Items() {
					if x, ok := e.StringValue(); ok {
						b = append(append(append(append(b, indent...), `// - "`...), x...), "\"\n"...)
					}
				}
			}
			if oneOf != nil && oneOf.Kind == canonical.Array {
				b = appendPropertyOneOf(b, key, opt, val, oneOf, indent)
				continue
			}
			b = append(append(append(append(b, indent...), key...), opt...), ": "...)
			start := len(b)
			b = append(appendNullable(appendTypescript(b, val, indent+"    "), start, val), ',')
			if def := val.Get("default"); oneOf == nil && def != nil {
				b = appendDefault(append(b, " // "...), def, val)
			}
			b = append(b, '\n')
		}
	}
	return append(append(b, indent...), '}')
}

// appendPropertyOneOf writes a property whose schema is a oneOf, each
// variant on its own line.
func appendPropertyOneOf(b []byte, key, opt string, val, oneOf *canonical.Value, indent string) []byte {
	propDesc, hasDesc := stringOf(val.Get("description"))
	skip := false
	if hasDesc && len(oneOf.Items()) > 0 {
		if vd, ok := stringOf(oneOf.Items()[0].Get("description")); ok && vd == propDesc {
			skip = true
		}
	}
	above := false
	if !skip && hasDesc {
		b = appendComment(b, indent, propDesc)
		above = true
	}
	if def := val.Get("default"); def != nil {
		b = append(appendDefault(append(append(b, indent...), "// "...), def, val), '\n')
	}
	b = append(append(append(append(b, indent...), key...), opt...), ":\n"...)
	for i, variant := range oneOf.Items() {
		b = append(append(b, indent...), " | "...)
		start := len(b)
		b = appendNullable(appendTypescript(b, variant, indent+"   "), start, variant)
		b = append(appendTrailing(b, variant, func(d string) bool { return !(i == 0 && above) && (!hasDesc || d != propDesc) }), '\n')
	}
	return append(append(b, indent...), ",\n"...)
}
