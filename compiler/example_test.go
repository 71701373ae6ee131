package compiler_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing/fstest"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/compiler"
	"github.com/toolc-dev/toolc/diag"
)

// Build a catalog from an in-memory file system with a manifest made in
// code; nothing is written.
func ExampleBuild() {
	fsys := fstest.MapFS{
		"tools/ping.json": {Data: []byte(`[{"type": "function", "function": {"name": "ping", "description": "Ping."}}]`)},
	}
	m := &compiler.Manifest{
		Version: compiler.ManifestVersion,
		Sources: []compiler.Source{{Include: []string{"tools/*.json"}, Namespace: "demo"}},
		Targets: []compiler.Target{{Format: "anthropic", Out: "dist/anthropic.json"}},
	}
	res, err := compiler.Build(context.Background(), fsys, m, compiler.Options{})
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

// Read toolc.toml: every error is located, in a *compiler.ConfigError.
func ExampleReadManifest() {
	fsys := fstest.MapFS{"toolc.toml": {Data: []byte(`version = 1
[[sources]]
include = ["tools/*.json"]
[[targets]]
format = "openai"
stict = true
out = "dist/openai.json"
`)}}
	_, err := compiler.ReadManifest(fsys, "toolc.toml")
	var ce *compiler.ConfigError
	if errors.As(err, &ce) {
		for _, d := range ce.Diagnostics {
			fmt.Println(d)
		}
	}
	// Output:
	// toolc.toml:6:1: error manifest.unknown-key: targets[0].stict: unknown key "stict"; did you mean "strict"?
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
	//         "type": "object",
	//         "properties": {}
	//       }
	//     }
	//   }
	// ]
}

// Plug in a validator of your own: here a house rule that every string
// parameter has a maxLength, and a format check.
func ExampleOptions_validator() {
	fsys := fstest.MapFS{
		"toolc.toml": {Data: []byte(`version = 1
[[sources]]
include = ["tools.json"]
[[targets]]
format = "openai"
out = "dist/openai.json"
`)},
		"tools.json": {Data: []byte(`[{"name": "search", "description": "Search.", "inputSchema": {"type": "object",
  "properties": {"q": {"type": "string", "description": "Query."}, "when": {"type": "string", "format": "datetime", "description": "When."}}}}]`)},
	}
	houseRules := func(t *canonical.Tool) []diag.Diagnostic {
		var out []diag.Diagnostic
		props := t.Input.JSON().Get("properties")
		for _, name := range props.Keys() {
			p := props.Get(name)
			at := "/input/properties/" + name
			if f, _ := p.Get("format").StringValue(); f == "datetime" {
				out = append(out, diag.New("schema.custom", "format %q is not a JSON Schema format; did you mean date-time?", f).At("", at+"/format"))
			}
			if typ, _ := p.Get("type").StringValue(); typ == "string" && !p.Has("maxLength") {
				out = append(out, diag.New("lint.custom", "string parameter %q has no maxLength", name).At("", at))
			}
		}
		return out
	}
	m, err := compiler.ReadManifest(fsys, "toolc.toml")
	if err != nil {
		panic(err)
	}
	res, err := compiler.Build(context.Background(), fsys, m, compiler.Options{Validator: houseRules})
	if err != nil {
		panic(err)
	}
	for _, d := range res.Diagnostics {
		if strings.HasSuffix(d.Code, ".custom") {
			fmt.Println(d)
		}
	}
	fmt.Println("failed:", res.Failed)
	// Output:
	// tools.json:2:18: warning lint.custom: tool search: string parameter "q" has no maxLength
	// tools.json:2:68: warning lint.custom: tool search: string parameter "when" has no maxLength
	// tools.json:2:95: error schema.custom: tool search: format "datetime" is not a JSON Schema format; did you mean date-time?
	// failed: true
}

// Write a build's outputs: each file atomically, and only where it changed.
// A target's options are those of its format, as toolc.toml writes them.
func ExampleWrite() {
	fsys := fstest.MapFS{
		"tools.json": {Data: []byte(`[{"name": "ping", "description": "Ping.", "inputSchema": {"type": "object"}}]`)},
	}
	m := &compiler.Manifest{
		Version: compiler.ManifestVersion,
		Sources: []compiler.Source{{Include: []string{"tools.json"}}},
		Targets: []compiler.Target{{Format: "openai", Out: "dist/openai.json", Options: map[string]any{"strict": true}}},
	}
	res, err := compiler.Build(context.Background(), fsys, m, compiler.Options{})
	if err != nil {
		panic(err)
	}
	dir, err := os.MkdirTemp("", "toolc-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	root, err := os.OpenRoot(dir)
	if err != nil {
		panic(err)
	}
	defer root.Close()
	if err := compiler.Write(context.Background(), root, res.Outputs); err != nil {
		panic(err)
	}
	data, _ := root.ReadFile("dist/openai.json")
	fmt.Print(string(data))
	// Output:
	// [
	//   {
	//     "type": "function",
	//     "function": {
	//       "name": "ping",
	//       "description": "Ping.",
	//       "parameters": {
	//         "type": "object",
	//         "properties": {},
	//         "additionalProperties": false
	//       },
	//       "strict": true
	//     }
	//   }
	// ]
}
