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
//
// Where the manifest decides loading ([load]), a deferred tool has
// "defer_loading": true, a tool that code the model runs may call
// "allowed_callers" ("programmatic" for "code"), the tools of a namespace
// group go into one {"type": "namespace", name, description, tools} in
// the place of its first tool, and the bundle ends with {"type":
// "tool_search"} where a tool is deferred (openai-node
// resources/responses: FunctionTool, NamespaceTool, ToolSearchTool).
func Responses(low *profile.Lowered, opts profile.Options) *canonical.Value {
	fn := func(i int) *canonical.Value {
		t := low.Tools[i]
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
		setLoad(o, low, i, func(c string) string {
			if c == "code" {
				return "programmatic"
			}
			return c
		})
		return o
	}
	list := canonical.NewArray()
	order := low.Plan.WriteOrder(len(low.Tools))
	var ns *canonical.Value // the namespace being written
	for _, i := range order {
		g := low.Plan.Group(i)
		if g == "" {
			ns = nil
			list.SetItems(append(list.Items(), fn(i)))
			continue
		}
		if ns == nil || ns.Get("name").Text() != g {
			ns = canonical.NewObject()
			ns.Set("type", canonical.NewString("namespace"))
			ns.Set("name", canonical.NewString(g))
			ns.Set("description", canonical.NewString(low.Plan.GroupDescriptions[g]))
			ns.Set("tools", canonical.NewArray())
			list.SetItems(append(list.Items(), ns))
		}
		tools := ns.Get("tools")
		tools.SetItems(append(tools.Items(), fn(i)))
	}
	if typ := searchTool(low, opts, list, "tool_search"); typ != "" {
		search := canonical.NewObject()
		search.Set("type", canonical.NewString(typ))
		list.SetItems(append(list.Items(), search))
	}
	return list
}
