package adapters_test

import (
	"fmt"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/internal/adapters"
	"github.com/toolc-dev/toolc/internal/profile"
)

// Convert an MCP tools/list result to OpenAI tools, with every loss reported.
func ExampleRegistry_Convert() {
	doc, err := canonical.ParseJSON([]byte(`{"tools": [{
	  "name": "get_weather",
	  "title": "Weather",
	  "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
	  "annotations": {"readOnlyHint": true}
	}]}`))
	if err != nil {
		panic(err)
	}
	res, err := adapters.Default().Convert(doc, "tools.json", "auto", "openai", profile.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Println(string(res.Bundle.AppendJSON(nil, "")))
	for _, d := range res.Diagnostics {
		fmt.Println(d.Code, d.Pointer)
	}
	// Output:
	// [{"type":"function","function":{"name":"get_weather","parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}}]
	// loss.annotations /tools/0/annotations
	// loss.title /tools/0/title
}
