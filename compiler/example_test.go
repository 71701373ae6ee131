package compiler_test

import (
	"context"
	"fmt"
	"testing/fstest"

	"github.com/toolc-dev/toolc/compiler"
)

// Build a catalog from an in-memory file system; nothing is written.
func ExampleBuild() {
	fsys := fstest.MapFS{
		"toolc.toml": {Data: []byte(`version = 1
[[sources]]
include = ["tools/*.json"]
namespace = "demo"
[[targets]]
format = "anthropic"
out = "dist/anthropic.json"
`)},
		"tools/ping.json": {Data: []byte(`[{"type": "function", "function": {"name": "ping", "description": "Ping."}}]`)},
	}
	res, err := compiler.Build(context.Background(), fsys, compiler.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Failed, res.Tools)
	for _, o := range res.Outputs {
		fmt.Println(o.Path)
	}
	fmt.Print(string(res.Outputs[0].Bytes()))
	// Output:
	// false 1
	// dist/anthropic.json
	// toolc.lock
	// [
	//   {
	//     "name": "demo__ping",
	//     "description": "Ping.",
	//     "input_schema": {
	//       "type": "object",
	//       "properties": {}
	//     }
	//   }
	// ]
}

// Convert one file to another format, as toolc convert does.
func ExampleConvert() {
	res, err := compiler.Convert(context.Background(), "tools.json",
		[]byte(`[{"name": "ping", "description": "Ping.", "inputSchema": {"type": "object"}}]`),
		compiler.ConvertOptions{To: "openai"})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Failed)
	fmt.Print(string(res.Outputs[0].Bytes()))
	// Output:
	// false
	// [
	//   {
	//     "type": "function",
	//     "function": {
	//       "name": "ping",
	//       "description": "Ping.",
	//       "parameters": {
	//         "type": "object"
	//       }
	//     }
	//   }
	// ]
}
