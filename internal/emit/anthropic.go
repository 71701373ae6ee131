package emit

import (
	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/internal/profile"
)

// Anthropic writes an array of Anthropic tools: {name, description,
// input_schema, input_examples}, with the anthropic extension fields
// (cache_control …) after them, and last the strict flag the lowering
// decided.
func Anthropic(low *profile.Lowered, opts profile.Options) *canonical.Value {
	return eachTool(low, func(i int, t *canonical.Tool) *canonical.Value {
		o := toolObject(t)
		o.Set("input_schema", t.Input.JSON())
		if len(t.Examples) > 0 {
			o.Set("input_examples", canonical.NewArray(t.Examples...))
		}
		appendExtensions(o, t, "anthropic")
		setFlag(o, flag(low, i))
		return o
	})
}
