package bundle

import (
	"fmt"

	"github.com/toolc-dev/toolc/canonical"
)

// Emitted is one tool of a target's bundle as the target wrote it.
type Emitted struct {
	Name          string
	Input, Output *canonical.Value // the emitted schemas; Output nil when none
}

// layout says where a format's encoder puts its tools: the list (a pointer
// into the bundle), and in each entry the object that holds the name and
// the keys of the schemas.
type layout struct {
	list   canonical.Pointer
	entry  canonical.Pointer // the object in an item that holds name and schemas
	input  []string          // the input schema's path in that object
	output []string          // the output schema's; nil when the format has none
}

// layouts are the encoders' shapes (internal/emit): a test
// holds them to what the encoders write.
var layouts = map[string][]layout{
	"mcp":              {{list: "/tools", input: []string{"inputSchema"}, output: []string{"outputSchema"}}},
	"openai":           {{entry: "/function", input: []string{"parameters"}}},
	"openai-responses": {{input: []string{"parameters"}, output: []string{"output_schema"}}},
	"anthropic":        {{input: []string{"input_schema"}}},
	"bedrock":          {{list: "/tools", entry: "/toolSpec", input: []string{"inputSchema", "json"}}},
	"gemini": {
		{list: "/functionDeclarations", input: []string{"parametersJsonSchema"}, output: []string{"responseJsonSchema"}},
		{list: "/functionDeclarations", input: []string{"parameters"}, output: []string{"response"}},
	},
}

// Readable reports whether Tools can read bundles of format.
func Readable(format string) bool {
	_, ok := layouts[format]
	return ok
}

// Tools returns the tools of a bundle of format that toolc wrote, by
// emitted name. A bundle not in the shape its format's encoder writes is an
// error.
func Tools(format string, doc *canonical.Value) (map[string]Emitted, error) {
	ls, ok := layouts[format]
	if !ok {
		return nil, fmt.Errorf("toolc does not read %s bundles back", format)
	}
	out := map[string]Emitted{}
	list := doc.Resolve(ls[0].list)
	if list == nil || list.Kind != canonical.Array {
		return nil, fmt.Errorf("not a %s bundle: no list of tools at %q", format, ls[0].list)
	}
	for i, it := range EntriesOf(list.Items()).Functions {
		o := it.Resolve(ls[0].entry)
		name, _ := o.Get("name").StringValue()
		if o == nil || name == "" {
			return nil, fmt.Errorf("not a %s bundle: tool %d has no name", format, i)
		}
		e := Emitted{Name: name}
		for _, l := range ls {
			if in := path(o, l.input); in != nil {
				e.Input, e.Output = in, path(o, l.output)
				break
			}
		}
		out[name] = e
	}
	return out, nil
}

// path is the value at keys in v, or nil.
func path(v *canonical.Value, keys []string) *canonical.Value {
	if keys == nil {
		return nil
	}
	for _, k := range keys {
		v = v.Get(k)
	}
	return v
}
