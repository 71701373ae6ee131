package emit

import (
	"cmp"
	"strings"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/internal/profile"
)

// Anthropic writes an array of Anthropic tools: {name, description,
// input_schema, input_examples}, with the anthropic extension fields
// (cache_control …) after them, and last the strict flag the lowering
// decided.
//
// Where the manifest decides loading ([load]), a deferred tool has
// "defer_loading": true, a tool that code may call "allowed_callers"
// (the code execution tool's type standing for "code"), and the bundle
// ends with the tool search tool where a tool is deferred
// (anthropic-sdk-typescript messages.d.ts: Tool, ToolSearchToolRegex20251119,
// ToolSearchToolBm25_20251119).
func Anthropic(low *profile.Lowered, opts profile.Options) *canonical.Value {
	codeExecution := cmp.Or(opts.CodeExecution, DefaultCodeExecution)
	list := eachTool(low, func(i int, t *canonical.Tool) *canonical.Value {
		o := toolObject(t)
		o.Set("input_schema", t.Input.JSON())
		if len(t.Examples) > 0 {
			o.Set("input_examples", canonical.NewArray(t.Examples...))
		}
		appendExtensions(o, t, "anthropic")
		setLoad(o, low, i, func(c string) string {
			if c == "code" {
				return codeExecution
			}
			return c
		})
		setFlag(o, flag(low, i))
		return o
	})
	if typ := searchTool(low, opts, list, "tool_search_tool_regex_20251119"); typ != "" {
		search := canonical.NewObject()
		search.Set("type", canonical.NewString(typ))
		search.Set("name", canonical.NewString(AnthropicSearchName(typ)))
		list.SetItems(append(list.Items(), search))
	}
	return list
}

// DefaultCodeExecution is the code execution tool that allowed_callers
// names for "code" callers unless the target says another.
const DefaultCodeExecution = "code_execution_20250825"

// AnthropicSearchName is the name of Anthropic's tool search tool of type
// typ: tool_search_tool_regex or tool_search_tool_bm25.
func AnthropicSearchName(typ string) string {
	if strings.HasPrefix(typ, "tool_search_tool_bm25") {
		return "tool_search_tool_bm25"
	}
	return "tool_search_tool_regex"
}
