package formats

import (
	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/decode"
)

// OpenAI returns the format of OpenAI Chat Completions function tools,
// {"type": "function", "function": {name, description, parameters, strict}}.
// It reads an array of them, one of them, the legacy "functions" form
// ({name, description, parameters}), or a request body with "tools" or
// "functions"; it writes an array of Chat Completions tools.
//
// A function without "parameters" takes no arguments; it is read as
// {"type": "object", "properties": {}}, which is what OpenAI assumes.
func OpenAI() *Format {
	return &Format{
		Name:   "openai",
		fit:    openAIFit,
		Decode: decodeOpenAI,
	}
}

func decodeOpenAI(doc *canonical.Value, file string) ([]*canonical.Tool, []diag.Diagnostic) {
	d := &decoder{decode.Decoder{File: file, Format: "openai"}}
	tools := d.All(doc, d.openAITool, "tools", "functions") // of a request body, only the tool lists are read
	return tools, d.Diags
}

// openAIBuiltins are OpenAI's hosted tool types, configured by OpenAI rather
// than by a JSON Schema.
var openAIBuiltins = []string{
	"file_search", "web_search", "web_search_preview", "code_interpreter", "computer_use_preview",
	"image_generation", "mcp", "local_shell", "shell", "apply_patch", "custom",
}

func (d *decoder) openAITool(v *canonical.Value, p canonical.Pointer) *canonical.Tool {
	if v.Kind == canonical.Object {
		if typ, ok := v.Get("type").StringValue(); ok && typ != "function" {
			d.Report("source.unsupported-tool-type", p.Append("type"), "skipping OpenAI tool of type %q: it has no JSON Schema to convert", typ)
			return nil
		}
	}
	fnAt := p
	if v.Kind == canonical.Object && v.Has("function") {
		fnAt = p.Append("function")
		d.IgnoreRest(v, p, "type", "function")
		v = v.Get("function")
	}
	f := d.NamedTool(v, fnAt, p)
	if f == nil {
		return nil
	}
	t := f.Tool
	if f.Obj.Has("parameters") {
		t.Input = f.Schema("parameters", "/input")
	} else {
		f.Used["parameters"] = true
		t.Input = canonical.AsSchema(emptyObjectSchema())
	}
	if out := f.Obj.Get("output_schema"); out != nil && out.Kind != canonical.Null {
		t.Output = f.Schema("output_schema", "/output")
	}
	f.Rest() // strict and fields of later API versions
	return f.Done()
}

func emptyObjectSchema() *canonical.Value {
	s := canonical.NewObject()
	s.Set("type", canonical.NewString("object"))
	s.Set("properties", canonical.NewObject())
	return s
}

// OpenAIResponses returns the format of OpenAI Responses API function
// tools, which are flat: {"type": "function", name, description, parameters,
// strict}, with "strict" always written (the API's default is true, so
// toolc says what it lowered for).
//
// It reads an array of them or a request body with "tools"; hosted tools
// (web_search, file_search …) are skipped with a warning.
func OpenAIResponses() *Format {
	return &Format{Name: "openai-responses", fit: responsesFit, Decode: decodeResponses}
}

func decodeResponses(doc *canonical.Value, file string) ([]*canonical.Tool, []diag.Diagnostic) {
	d := &decoder{decode.Decoder{File: file, Format: "openai-responses"}}
	tools := d.All(doc, d.responsesTool, "tools")
	return tools, d.Diags
}

func (d *decoder) responsesTool(v *canonical.Value, p canonical.Pointer) *canonical.Tool {
	if v.Kind == canonical.Object {
		if typ, ok := v.Get("type").StringValue(); ok && typ != "function" {
			if typ == "tool_search" {
				return nil // the search tool of deferred tools: each bundle that defers one writes it again
			}
			d.Report("source.unsupported-tool-type", p.Append("type"), "skipping OpenAI tool of type %q: it has no JSON Schema to convert", typ)
			return nil
		}
	}
	f := d.NamedTool(v, p, p)
	if f == nil {
		return nil
	}
	t := f.Tool
	f.Used["type"] = true
	if params := f.Obj.Get("parameters"); params != nil && params.Kind != canonical.Null {
		t.Input = f.Schema("parameters", "/input")
	} else {
		f.Used["parameters"] = true // absent or null: no arguments
		t.Input = canonical.AsSchema(emptyObjectSchema())
	}
	if out := f.Obj.Get("output_schema"); out != nil && out.Kind != canonical.Null {
		t.Output = f.Schema("output_schema", "/output")
	}
	f.Rest() // strict and fields of later API versions
	return f.Done()
}
