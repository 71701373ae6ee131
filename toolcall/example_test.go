package toolcall_test

import (
	"context"
	"errors"
	"fmt"
	"testing/fstest"

	"github.com/toolc-dev/toolc/compiler"
	"github.com/toolc-dev/toolc/toolcall"
)

// The whole loop: build a catalog for OpenAI's strict mode, take a call as
// the model sent it, and get the catalog's tool and its arguments back.
func ExampleCatalog_Decode() {
	src := fstest.MapFS{
		"tools.json": {Data: []byte(`[{"name": "search", "description": "Search the store.", "inputSchema": {"type": "object",
  "properties": {"query": {"type": "string", "minLength": 1}, "limit": {"type": "integer", "minimum": 1}}, "required": ["query"]}}]`)},
	}
	m := &compiler.Manifest{
		Version: compiler.ManifestVersion,
		Sources: []compiler.Source{{Include: []string{"tools.json"}, Namespace: "store"}},
		Targets: []compiler.Target{
			{Format: "canonical", Out: "dist/canonical.json"},
			{Name: "openai-strict", Format: "openai", Out: "dist/openai.json", Options: map[string]any{"strict": true}},
		},
	}
	res, _ := compiler.Build(context.Background(), src, m, compiler.Options{})
	built := fstest.MapFS{}
	for _, o := range res.Outputs {
		built[o.Path] = &fstest.MapFile{Data: o.Bytes()}
	}
	cat, _ := toolcall.Load(built, "toolc.lock")

	// Strict mode made "limit" required and nullable: null means left out.
	call, err := cat.Decode("openai-strict", "store__search", []byte(`{"query": "maps", "limit": null}`))
	fmt.Println(call.ID, string(call.Arguments), err)

	// The source schema still has the bounds strict mode dropped.
	_, err = cat.Decode("openai-strict", "store__search", []byte(`{"query": "", "limit": 0}`))
	var bad *toolcall.ArgumentsError
	if errors.As(err, &bad) {
		for _, p := range bad.Problems {
			fmt.Println(p.Pointer, p.Message)
		}
	}
	// Output:
	// store:search {"query":"maps"} <nil>
	// /query minLength: got 0, want 1
	// /limit minimum: got 0, want 1
}
