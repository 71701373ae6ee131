package formats

import (
	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/decode"
)

// LangChain returns the format of LangChain tools: objects
// {name, description, args_schema} where args_schema is the JSON Schema that
// Pydantic (model_json_schema) or zod produced, read as it is: titles, $defs,
// anyOf with null and "default": null for optionals all kept. LangChain.js
// dumps name it args_json_schema, which is read too, and the Python
// canonicalizer's {name, description, schema} is the same tool. Items in the shape that
// convert_to_openai_tool returns are OpenAI Chat tools and are read as such.
// Other fields (module, export, return_direct …) are kept as the langchain
// extension, which only canonical bundles carry. An openai_tool beside the
// args schema is the same tool again; it is compared, not read.
func LangChain() *Format {
	return &Format{Name: "langchain", fit: langChainFit, Decode: decodeLangChain}
}

// langChainSchemaKeys are the fields that hold a LangChain tool's arguments.
var langChainSchemaKeys = []string{"args_schema", "args_json_schema"}

func decodeLangChain(doc *canonical.Value, file string) ([]*canonical.Tool, []diag.Diagnostic) {
	d := &decoder{decode.Decoder{File: file, Format: "langchain"}}
	tools := d.All(doc, d.langChainTool, "tools")
	return tools, d.Diags
}

func (d *decoder) langChainTool(v *canonical.Value, p canonical.Pointer) *canonical.Tool {
	if shapeOf(v) == shapeChat {
		oa := &decoder{decode.Decoder{File: d.File, Format: "openai"}}
		t := oa.openAITool(v, p)
		d.Diags = append(d.Diags, oa.Diags...)
		return t
	}
	f := d.NamedTool(v, p, p)
	if f == nil {
		return nil
	}
	t := f.Tool
	for _, k := range append(langChainSchemaKeys, "schema") {
		if f.Obj.Has(k) {
			t.Input = f.Schema(k, "/input")
			break
		}
	}
	if t.Input == nil {
		f.Invalid("args_schema", "a LangChain tool needs args_schema (the JSON Schema of its arguments)")
	}
	if oa := f.Take("openai_tool", ""); oa != nil && t.Input != nil {
		fn := oa.Get("function")
		name, _ := fn.Get("name").StringValue()
		params := fn.Get("parameters")
		if name != t.Name || params == nil || !params.Equal(t.Input.JSON()) {
			d.Report("source.ignored-field", p.Append("openai_tool"), "openai_tool differs from the tool's name or args schema; toolc reads the args schema and ignores openai_tool")
		}
	}
	f.Rest() // module, export, return_direct …
	return f.Done()
}
