package formats

import (
	"strings"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/decode"
)

// Anthropic returns the format of Anthropic Messages API custom tools,
// {name, description, input_schema, input_examples, strict, cache_control,
// defer_loading}. It reads an array of them, one of them, or a request body
// with "tools"; it writes an array. Server and client tools that Anthropic
// defines (computer_*, bash_*, text_editor_*, web_search_* …) have no schema
// and are skipped with a warning.
func Anthropic() *Format {
	return &Format{
		Name:   "anthropic",
		fit:    anthropicFit,
		Decode: decodeAnthropic,
	}
}

func decodeAnthropic(doc *canonical.Value, file string) ([]*canonical.Tool, []diag.Diagnostic) {
	d := &decoder{decode.Decoder{File: file, Format: "anthropic"}}
	tools := d.All(doc, d.anthropicTool, "tools")
	return tools, d.Diags
}

// anthropicDefined reports whether a tool type is one that Anthropic defines
// itself (anything but "custom").
func anthropicDefined(typ string) bool { return typ != "" && typ != "custom" }

func (d *decoder) anthropicTool(v *canonical.Value, p canonical.Pointer) *canonical.Tool {
	if v.Kind == canonical.Object && !v.Has("input_schema") {
		if typ, ok := v.Get("type").StringValue(); ok && anthropicDefined(typ) {
			if strings.HasPrefix(typ, "tool_search_tool_") {
				return nil // the search tool of deferred tools: each bundle that defers one writes it again
			}
			d.Report("source.unsupported-tool-type", p.Append("type"), "skipping Anthropic-defined tool %q of type %q: it has no input_schema to convert", nameOf(v), typ)
			return nil
		}
	}
	f := d.NamedTool(v, p, p)
	if f == nil {
		return nil
	}
	t := f.Tool
	t.Input = f.Schema("input_schema", "/input")
	t.Examples = f.Examples("input_examples")
	f.Rest() // type, strict, cache_control, defer_loading …
	return f.Done()
}

func nameOf(v *canonical.Value) string {
	s, _ := v.Get("name").StringValue()
	return s
}

// anthropicDefinedPrefixes are the type prefixes of Anthropic-defined tools,
// used by detection.
var anthropicDefinedPrefixes = []string{
	"computer_", "bash_", "text_editor_", "web_search_", "web_fetch_", "code_execution_",
	"memory_", "tool_search_", "str_replace_based_edit_tool", "str_replace_editor",
}

func isAnthropicDefinedType(typ string) bool {
	for _, p := range anthropicDefinedPrefixes {
		if strings.HasPrefix(typ, p) {
			return true
		}
	}
	return false
}
