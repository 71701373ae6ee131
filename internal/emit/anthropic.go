package emit

import (
	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/internal/profile"
)

// Anthropic writes an array of Anthropic tools: {name, description,
// input_schema, input_examples}, with the anthropic extension fields
// (strict, cache_control …) after them.
func Anthropic(tools []*canonical.Tool, opts profile.Options) *canonical.Value {
	return eachTool(tools, func(t *canonical.Tool) *canonical.Value {
		o := toolObject(t)
		o.Set("input_schema", t.Input.JSON())
		if len(t.Examples) > 0 {
			o.Set("input_examples", canonical.NewArray(t.Examples...))
		}
		appendExtensions(o, t, "anthropic")
		return o
	})
}
