package formats

import (
	"regexp"
	"slices"
	"strings"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/decode"
)

// Gemini returns the format of Gemini function declarations, written as one
// Tool: {"functionDeclarations": [{name, description, parametersJsonSchema,
// responseJsonSchema}]}. With the target option schema = "openapi" the
// schemas go in "parameters" and "response" instead, lowered to the OpenAPI
// 3.0 subset that field takes (upper-case type names, "nullable", no $ref).
//
// It reads a Tool, a list of Tools, a request body or config with "tools",
// a list of declarations or one declaration. Schemas in "parametersJsonSchema"
// and "responseJsonSchema" are read as they are; those in "parameters" and
// "response" are converted to JSON Schema 2020-12 (lower-case types,
// nullable, int64 bounds written as strings) and reported as
// source.openapi-converted. Gemini's built-in tools (googleSearch,
// codeExecution …) are skipped with source.unsupported-tool-type.
func Gemini() *Format {
	return &Format{Name: "gemini", fit: geminiFit, Decode: decodeGemini}
}

func decodeGemini(doc *canonical.Value, file string) ([]*canonical.Tool, []diag.Diagnostic) {
	g := &geminiDecoder{decoder: decoder{decode.Decoder{File: file, Format: "gemini"}}}
	var tools []*canonical.Tool
	switch {
	case doc.Kind == canonical.Array:
		for i, it := range doc.Items() {
			if isGeminiTool(it) {
				tools = append(tools, g.tool(it, canonical.Pointer("").Index(i))...)
			} else if t := g.declaration(it, canonical.Pointer("").Index(i)); t != nil {
				tools = append(tools, t)
			}
		}
	case doc.Kind == canonical.Object && !doc.Has("name") && doc.Has("tools"):
		tools = g.list(doc.Get("tools"), "/tools", func(v *canonical.Value, p canonical.Pointer) []*canonical.Tool { return g.tool(v, p) })
	case isGeminiTool(doc):
		tools = g.tool(doc, "")
	default:
		if t := g.declaration(doc, ""); t != nil {
			tools = append(tools, t)
		}
	}
	g.conv.Report(&g.Decoder)
	return tools, g.Diags
}

type geminiDecoder struct {
	decoder
	conv decode.Conversions
}

// isGeminiTool reports whether v is a Gemini Tool (a set of declarations or
// a built-in tool) rather than one declaration.
func isGeminiTool(v *canonical.Value) bool {
	return v.Kind == canonical.Object && !v.Has("name") && (v.Has("functionDeclarations") || len(v.Members()) > 0 && geminiBuiltin(v.Members()[0].Key))
}

// geminiBuiltins are the keys of a Gemini Tool that turn on a built-in tool
// rather than declare functions.
var geminiBuiltins = []string{"googleSearch", "googleSearchRetrieval", "codeExecution", "urlContext", "retrieval",
	"computerUse", "fileSearch", "googleMaps", "enterpriseWebSearch", "mcpServers"}

func geminiBuiltin(key string) bool { return slices.Contains(geminiBuiltins, key) }

func (g *geminiDecoder) list(v *canonical.Value, p canonical.Pointer, one func(*canonical.Value, canonical.Pointer) []*canonical.Tool) []*canonical.Tool {
	if v.Kind != canonical.Array {
		g.Report("source.invalid", p, "want an array, got %s", v.Kind)
		return nil
	}
	var tools []*canonical.Tool
	for i, it := range v.Items() {
		tools = append(tools, one(it, p.Index(i))...)
	}
	return tools
}

// tool reads one Gemini Tool: its function declarations, and a warning for
// each built-in tool it turns on.
func (g *geminiDecoder) tool(v *canonical.Value, p canonical.Pointer) []*canonical.Tool {
	if v.Kind != canonical.Object {
		g.Report("source.invalid", p, "want a Tool object, got %s", v.Kind)
		return nil
	}
	var tools []*canonical.Tool
	for _, m := range v.Members() {
		switch {
		case m.Key == "functionDeclarations":
			tools = append(tools, g.list(m.Value, p.Append(m.Key), func(v *canonical.Value, p canonical.Pointer) []*canonical.Tool {
				if t := g.declaration(v, p); t != nil {
					return []*canonical.Tool{t}
				}
				return nil
			})...)
		case geminiBuiltin(m.Key):
			g.Report("source.unsupported-tool-type", p.Append(m.Key), "skipping Gemini's built-in tool %q: it has no declaration to convert", m.Key)
		default:
			g.Report("source.ignored-field", p.Append(m.Key), "field %q of a Gemini Tool is not a function declaration and is not carried into bundles", m.Key)
		}
	}
	return tools
}

func (g *geminiDecoder) declaration(v *canonical.Value, p canonical.Pointer) *canonical.Tool {
	f := g.NamedTool(v, p, p)
	if f == nil {
		return nil
	}
	t := f.Tool
	switch {
	case f.Obj.Has("parametersJsonSchema"):
		t.Input = f.Schema("parametersJsonSchema", "/input")
	case f.Obj.Has("parameters"):
		t.Input = g.openAPISchema(f, "parameters", "/input")
	default:
		t.Input = canonical.AsSchema(emptyObjectSchema())
	}
	switch {
	case f.Obj.Has("responseJsonSchema"):
		t.Output = f.Schema("responseJsonSchema", "/output")
	case f.Obj.Has("response"):
		t.Output = g.openAPISchema(f, "response", "/output")
	}
	f.Rest() // behavior and fields of later API versions
	return f.Done()
}

// openAPISchema reads a schema in Gemini's OpenAPI 3.0 subset and converts a
// copy to JSON Schema 2020-12.
func (g *geminiDecoder) openAPISchema(f *decode.Fields, key string, field canonical.Pointer) *canonical.Schema {
	s := f.Schema(key, field)
	if s == nil {
		return nil
	}
	c := s.JSON().DeepCopy()
	report := g.conv.Add(f.At.Append(key))
	canonical.Walk(canonical.AsSchema(c), func(p canonical.Pointer, sub *canonical.Schema) bool {
		v := sub.JSON()
		kept := v.Members()[:0]
		for _, m := range v.Members() {
			switch {
			case m.Key == "type" && m.Value.Kind == canonical.String && m.Value.Text() == "TYPE_UNSPECIFIED":
				report("gemini-type-unspecified", p.Append("type"))
				continue
			case m.Key == "type" && m.Value.Kind == canonical.String && m.Value.Text() != strings.ToLower(m.Value.Text()):
				m.Value = canonical.NewString(strings.ToLower(m.Value.Text())).At(m.Value.Pos)
				report("gemini-type", p.Append("type"))
			case geminiInt64[m.Key] && m.Value.Kind == canonical.String && digits.MatchString(m.Value.Text()):
				m.Value = canonical.NewNumber(m.Value.Text()).At(m.Value.Pos)
				report("gemini-int64", p.Append(m.Key))
			}
			kept = append(kept, m)
		}
		v.SetMembers(kept)
		return true
	})
	decode.Convert30(c, report)
	return canonical.AsSchema(c)
}

// geminiInt64 are the Schema fields that Gemini types int64, which its JSON
// writes as strings.
var geminiInt64 = map[string]bool{"minItems": true, "maxItems": true, "minLength": true, "maxLength": true, "minProperties": true, "maxProperties": true}

var digits = regexp.MustCompile(`^(0|[1-9][0-9]*)$`)
