package formats

import (
	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/decode"
)

// Bedrock returns the format of Amazon Bedrock Converse tools, written as a
// toolConfig: {"tools": [{"toolSpec": {name, description, inputSchema:
// {"json": {...}}}}]}. It reads a toolConfig, a Converse request with
// "toolConfig", a list of tools, one tool or one bare toolSpec; cache points
// in the list are passed over and system tools are skipped with a warning.
func Bedrock() *Format {
	return &Format{Name: "bedrock", fit: bedrockFit, Decode: decodeBedrock}
}

func decodeBedrock(doc *canonical.Value, file string) ([]*canonical.Tool, []diag.Diagnostic) {
	d := &decoder{decode.Decoder{File: file, Format: "bedrock"}}
	at := canonical.Pointer("")
	if doc.Kind == canonical.Object && doc.Has("toolConfig") { // a Converse request: only its tools are read
		doc, at = doc.Get("toolConfig"), "/toolConfig"
	}
	var tools []*canonical.Tool
	switch {
	case doc.Kind == canonical.Array:
		tools = d.List(doc, at, d.bedrockItem)
	case doc.Kind == canonical.Object && doc.Has("tools") && !doc.Has("toolSpec"):
		tools = d.List(doc.Get("tools"), at.Append("tools"), d.bedrockItem)
	case doc.Kind == canonical.Object && !doc.Has("toolSpec") && doc.Has("inputSchema"):
		if t := d.bedrockSpec(doc, at, at); t != nil { // a bare toolSpec
			tools = append(tools, t)
		}
	default:
		if t := d.bedrockItem(doc, at); t != nil {
			tools = append(tools, t)
		}
	}
	return tools, d.Diags
}

// bedrockItem reads one entry of a toolConfig's tools: a toolSpec, a cache
// point or a system tool.
func (d *decoder) bedrockItem(v *canonical.Value, p canonical.Pointer) *canonical.Tool {
	switch {
	case v.Kind != canonical.Object:
		d.Report("source.invalid", p, "want a tool object, got %s", v.Kind)
	case v.Has("toolSpec"):
		d.IgnoreRest(v, p, "toolSpec")
		return d.bedrockSpec(v.Get("toolSpec"), p.Append("toolSpec"), p)
	case v.Has("cachePoint"):
		d.Report("source.ignored-field", p.Append("cachePoint"), "a cache point marks where Bedrock's prompt cache ends; it is not a tool and is not carried into bundles")
	case v.Has("systemTool"):
		name, _ := v.Get("systemTool").Get("name").StringValue()
		d.Report("source.unsupported-tool-type", p.Append("systemTool"), "skipping Bedrock system tool %q: it has no input schema to convert", name)
	default:
		d.Report("source.invalid", p, `a Bedrock tool is {"toolSpec": {…}}`)
	}
	return nil
}

func (d *decoder) bedrockSpec(v *canonical.Value, p, toolAt canonical.Pointer) *canonical.Tool {
	f := d.NamedTool(v, p, toolAt)
	if f == nil {
		return nil
	}
	t := f.Tool
	if in := f.Typed("inputSchema", "", canonical.Object); in != nil {
		d.IgnoreRest(in, p.Append("inputSchema"), "json")
		if json := in.Get("json"); json != nil {
			if json.Kind != canonical.Object && json.Kind != canonical.Bool {
				f.Invalid("inputSchema", "inputSchema.json must be a JSON Schema (an object), got %s", json.Kind)
			} else {
				t.Input = canonical.AsSchema(json)
				t.Source.Fields["/input"] = p.Append("inputSchema", "json")
			}
		}
	}
	f.Rest() // strict and fields of later API versions
	return f.Done()
}
