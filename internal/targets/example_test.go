package targets_test

import (
	"context"
	"fmt"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/formats"
	"github.com/toolc-dev/toolc/internal/profile"
	"github.com/toolc-dev/toolc/internal/targets"
)

// Read an MCP tools/list result and write its tools as OpenAI tools: each
// lowered for OpenAI, with every loss reported.
func ExampleTarget_Emit() {
	doc, err := canonical.ParseJSON([]byte(`{"tools": [{
	  "name": "get_weather",
	  "title": "Weather",
	  "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
	  "annotations": {"readOnlyHint": true}
	}]}`))
	if err != nil {
		panic(err)
	}
	mcp, _ := formats.Default().Get("mcp")
	tools, _ := mcp.Decode(doc, "tools.json")
	openai, _ := targets.Default().Get("openai")
	low := openai.Emit(context.Background(), tools, "openai", profile.Options{})
	fmt.Println(string(low.Bundle.AppendJSON(nil, "")))
	for _, d := range diag.Sort(low.All()) {
		fmt.Println(d.Code, d.Pointer)
	}
	// Output:
	// [{"type":"function","function":{"name":"get_weather","parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}}]
	// loss.annotations /tools/0/annotations
	// loss.title /tools/0/title
}
