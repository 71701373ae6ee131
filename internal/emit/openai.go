package emit

import (
	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/internal/profile"
)

// OpenAI writes an array of OpenAI Chat Completions function tools,
// {"type": "function", "function": {name, description, parameters,
// strict}}.
func OpenAI(low *profile.Lowered, opts profile.Options) *canonical.Value {
	return eachTool(low, func(i int, t *canonical.Tool) *canonical.Value {
		fn := toolObject(t)
		fn.Set("parameters", t.Input.JSON())
		appendExtensions(fn, t, "openai")
		setFlag(fn, flag(low, i))
		o := canonical.NewObject(make([]canonical.Member, 0, 2)...)
		o.Set("type", canonical.NewString("function"))
		o.Set("function", fn)
		return o
	})
}

// Responses writes OpenAI Responses API function tools, which are flat:
// {"type": "function", name, description, parameters, strict}, with
// "strict" always written (the API's default is true, so toolc says what
// it lowered for).
func Responses(low *profile.Lowered, opts profile.Options) *canonical.Value {
	list := canonical.NewArray()
	for i, t := range low.Tools {
		o := canonical.NewObject()
		o.Set("type", canonical.NewString("function"))
		o.Set("name", canonical.NewString(t.Name))
		setDescription(o, t)
		o.Set("parameters", t.Input.JSON())
		if t.Output != nil {
			o.Set("output_schema", t.Output.JSON()) // openai-python types/responses/function_tool_param.py
		}
		strict := false
		if f := flag(low, i); f != nil {
			strict = *f
		}
		setFlag(o, &strict)
		appendExtensions(o, t, "openai-responses")
		appendExtensions(o, t, "openai")
		list.SetItems(append(list.Items(), o))
	}
	return list
}
