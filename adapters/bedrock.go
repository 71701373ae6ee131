package adapters

import "github.com/toolc-dev/toolc/canonical"

// Bedrock returns the adapter of Amazon Bedrock Converse tools, written as a
// toolConfig: {"tools": [{"toolSpec": {name, description, inputSchema:
// {"json": {...}}}}]}.
func Bedrock() *Adapter {
	return &Adapter{Name: "bedrock", Encode: encodeBedrock, Profile: profiles["bedrock"]}
}

func encodeBedrock(tools []*canonical.Tool, opts TargetOptions) *canonical.Value {
	list := canonical.NewArray()
	for _, t := range tools {
		spec := toolObject(t)
		in := canonical.NewObject()
		in.Set("json", t.Input.JSON())
		spec.Set("inputSchema", in)
		appendExtensions(spec, t, "bedrock")
		o := canonical.NewObject()
		o.Set("toolSpec", spec)
		list.Items = append(list.Items, o)
	}
	b := canonical.NewObject()
	b.Set("tools", list)
	return b
}
