package tokens

import (
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
	var b strings.Builder
	for _, line := range lines(description) {
		b.WriteString("// ")
		b.WriteString(line)
		b.WriteByte('\n')
	}
	if parameters == nil {
		b.WriteString("type " + name + " = () => any;\n")
		return b.String()
	}
	b.WriteString("type " + name + " = (_: " + typescript(parameters, "") + ") => any;\n")
	return b.String()
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

// lines splits s as Rust's str::lines does: on \n, a trailing \r
// dropped, no last empty line.
func lines(s string) []string {
	if s == "" {
		return nil
	}
	out := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for i, l := range out {
		out[i] = strings.TrimSuffix(l, "\r")
	}
	return out
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

// defaultComment writes a default as harmony does: a string in quotes,
// unless the schema is an enum.
func defaultComment(def, s *canonical.Value) string {
	if str, ok := def.StringValue(); ok {
		if !isEnum(s) {
			return `default: "` + str + `"`
		}
		return "default: " + str
	}
	return "default: " + def.String()
}

// typescript is harmony's json_schema_to_typescript.
func typescript(s *canonical.Value, indent string) string {
	if s == nil || s.Kind != canonical.Object {
		return "any"
	}
	if oneOf := s.Get("oneOf"); oneOf != nil && oneOf.Kind == canonical.Array {
		var b strings.Builder
		for i, variant := range oneOf.Items() {
			if i > 0 {
				b.WriteByte('\n')
				b.WriteString(indent + " | ")
			} else {
				b.WriteString("\n" + indent + " | ")
			}
			t := typescript(variant, indent+"   ")
			if nullable(variant) && !strings.Contains(t, "null") {
				t += " | null"
			}
			b.WriteString(t)
			var trailing []string
			if d, ok := stringOf(variant.Get("description")); ok {
				trailing = append(trailing, d)
			}
			if def := variant.Get("default"); def != nil {
				trailing = append(trailing, defaultComment(def, variant))
			}
			if len(trailing) > 0 {
				b.WriteString(" // " + strings.Join(trailing, " "))
			}
		}
		return b.String()
	}
	typ := s.Get("type")
	if typ != nil && typ.Kind == canonical.Array {
		var ts []string
		for _, t := range typ.Items() {
			if str, ok := t.StringValue(); ok {
				if str == "integer" {
					str = "number"
				}
				ts = append(ts, str)
			}
		}
		if len(ts) > 0 {
			return strings.Join(ts, " | ")
		}
	}
	str, ok := stringOf(typ)
	if !ok {
		return "any"
	}
	switch str {
	case "object":
		return object(s, indent)
	case "string":
		if e := s.Get("enum"); e != nil && e.Kind == canonical.Array {
			var vals []string
			for _, v := range e.Items() {
				if x, ok := v.StringValue(); ok {
					vals = append(vals, `"`+x+`"`)
				}
			}
			if len(vals) > 0 {
				return strings.Join(vals, " | ")
			}
		}
		return "string"
	case "number", "integer":
		return "number"
	case "boolean":
		return "boolean"
	case "array":
		if items := s.Get("items"); items != nil {
			return typescript(items, indent) + "[]"
		}
		return "Array<any>"
	}
	return "any"
}

func object(s *canonical.Value, indent string) string {
	var b strings.Builder
	if d, ok := stringOf(s.Get("description")); ok {
		b.WriteString(indent + "// " + d + "\n")
	}
	b.WriteString("{\n")
	props := s.Get("properties")
	if props != nil && props.Kind == canonical.Object {
		required := map[string]bool{}
		if req := s.Get("required"); req != nil && req.Kind == canonical.Array {
			for _, r := range req.Items() {
				if x, ok := r.StringValue(); ok {
					required[x] = true
				}
			}
		}
		for _, m := range props.Members() {
			key, val := m.Key, m.Value
			opt := "?"
			if required[key] {
				opt = ""
			}
			if t, ok := stringOf(val.Get("title")); ok {
				b.WriteString(indent + "// " + t + "\n" + indent + "//\n")
			}
			oneOf := val.Get("oneOf")
			if oneOf == nil {
				if d, ok := stringOf(val.Get("description")); ok {
					b.WriteString(indent + "// " + d + "\n")
				}
			}
			if ex := val.Get("examples"); ex != nil && ex.Kind == canonical.Array && len(ex.Items()) > 0 {
				b.WriteString(indent + "// Examples:\n")
				for _, e := range ex.Items() {
					if x, ok := e.StringValue(); ok {
						b.WriteString(indent + `// - "` + x + "\"\n")
					}
				}
			}
			if oneOf != nil && oneOf.Kind == canonical.Array {
				propertyOneOf(&b, key, opt, val, oneOf, indent)
				continue
			}
			b.WriteString(indent + key + opt + ": ")
			t := typescript(val, indent+"    ")
			if nullable(val) && !strings.Contains(t, "null") {
				t += " | null"
			}
			b.WriteString(t + ",")
			if oneOf == nil {
				if def := val.Get("default"); def != nil {
					b.WriteString(" // " + defaultComment(def, val))
				}
			}
			b.WriteByte('\n')
		}
	}
	b.WriteString(indent + "}")
	return b.String()
}

// propertyOneOf writes a property whose schema is a oneOf, each variant on
// its own line.
func propertyOneOf(b *strings.Builder, key, opt string, val, oneOf *canonical.Value, indent string) {
	propDesc, hasDesc := stringOf(val.Get("description"))
	skip := false
	if hasDesc && len(oneOf.Items()) > 0 {
		if vd, ok := stringOf(oneOf.Items()[0].Get("description")); ok && vd == propDesc {
			skip = true
		}
	}
	above := false
	if !skip && hasDesc {
		b.WriteString(indent + "// " + propDesc + "\n")
		above = true
	}
	if def := val.Get("default"); def != nil {
		b.WriteString(indent + "// " + defaultComment(def, val) + "\n")
	}
	b.WriteString(indent + key + opt + ":\n")
	for i, variant := range oneOf.Items() {
		b.WriteString(indent + " | ")
		t := typescript(variant, indent+"   ")
		if nullable(variant) && !strings.Contains(t, "null") {
			t += " | null"
		}
		b.WriteString(t)
		var trailing []string
		if !(i == 0 && above) {
			if d, ok := stringOf(variant.Get("description")); ok && (!hasDesc || d != propDesc) {
				trailing = append(trailing, d)
			}
		}
		if def := variant.Get("default"); def != nil {
			trailing = append(trailing, defaultComment(def, variant))
		}
		if len(trailing) > 0 {
			b.WriteString(" // " + strings.Join(trailing, " "))
		}
		b.WriteByte('\n')
	}
	b.WriteString(indent + ",\n")
}
