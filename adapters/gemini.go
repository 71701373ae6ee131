package adapters

import "github.com/toolc-dev/toolc/canonical"

// Gemini returns the adapter of Gemini function declarations, written as one
// Tool: {"functionDeclarations": [{name, description, parametersJsonSchema,
// responseJsonSchema}]}. With the target option schema = "openapi" the
// schemas go in "parameters" and "response" instead, lowered to the OpenAPI
// 3.0 subset that field takes (upper-case type names, "nullable", no $ref).
func Gemini() *Adapter {
	return &Adapter{Name: "gemini", Encode: encodeGemini, Profile: profiles["gemini"]}
}

// GeminiSchemas are the values of the gemini target's schema option.
var GeminiSchemas = []string{"json-schema", "openapi"}

func encodeGemini(tools []*canonical.Tool, opts TargetOptions) *canonical.Value {
	in, out := "parametersJsonSchema", "responseJsonSchema"
	if opts.Schema == "openapi" {
		in, out = "parameters", "response"
	}
	list := canonical.NewArray()
	for _, t := range tools {
		o := toolObject(t)
		o.Set(in, t.Input.JSON())
		if t.Output != nil {
			o.Set(out, t.Output.JSON())
		}
		appendExtensions(o, t, "gemini")
		list.Items = append(list.Items, o)
	}
	b := canonical.NewObject()
	b.Set("functionDeclarations", list)
	return b
}
