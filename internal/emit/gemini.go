package emit

import (
	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/internal/profile"
)

// Gemini writes Gemini function declarations as one Tool:
// {"functionDeclarations": [{name, description, parametersJsonSchema,
// responseJsonSchema}]}; with the target option schema = "openapi", the
// schemas go in "parameters" and "response", lowered to the OpenAPI 3.0
// subset that field takes.
func Gemini(low *profile.Lowered, opts profile.Options) *canonical.Value {
	in, out := "parametersJsonSchema", "responseJsonSchema"
	if opts.Schema == "openapi" {
		in, out = "parameters", "response"
	}
	list := eachTool(low, func(_ int, t *canonical.Tool) *canonical.Value {
		o := toolObject(t)
		o.Set(in, t.Input.JSON())
		if t.Output != nil {
			o.Set(out, t.Output.JSON())
		}
		appendExtensions(o, t, "gemini")
		return o
	})
	return canonical.NewObject(canonical.Member{Key: "functionDeclarations", Value: list})
}
