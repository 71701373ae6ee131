package emit

import (
	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/internal/profile"
)

// Bedrock writes Amazon Bedrock Converse tools as a toolConfig:
// {"tools": [{"toolSpec": {name, description, inputSchema: {"json":
// {...}}}}]}.
func Bedrock(low *profile.Lowered, opts profile.Options) *canonical.Value {
	list := canonical.NewArray()
	for i, t := range low.Tools {
		spec := toolObject(t)
		in := canonical.NewObject()
		in.Set("json", t.Input.JSON())
		spec.Set("inputSchema", in)
		appendExtensions(spec, t, "bedrock")
		setFlag(spec, flag(low, i))
		o := canonical.NewObject()
		o.Set("toolSpec", spec)
		list.SetItems(append(list.Items(), o))
	}
	b := canonical.NewObject()
	b.Set("tools", list)
	return b
}
