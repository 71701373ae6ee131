package pipeline

import (
	"bytes"
	"context"
	"os"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/toolc-dev/toolc/internal/corpus"
)

// TestSharedLoweringIsByteIdentical builds schemas with references,
// formats and unions (the corpus's Redocly museum and petstore, GitHub's
// MCP server, the reference servers) to targets that share rules (Chat
// and Responses, plain and strict, auto, a dialect without rows of its
// own, Anthropic in three modes), once sharing lowered schemas between
// them and once lowering each on its own: the bundles, the lock and every
// diagnostic are the same.
func TestSharedLoweringIsByteIdentical(t *testing.T) {
	fsys := fstest.MapFS{}
	manifest := "version = 1\n"
	for name, format := range map[string]string{"openapi/redocly-museum/openapi.yaml": "openapi", "openapi/swagger-petstore/openapi.yaml": "openapi",
		"mcp/github-mcp-server/tools_list.current.json": "mcp", "mcp/reference-servers-py/server-git.tools_list.json": "mcp"} {
		data, err := os.ReadFile(corpus.Path(t, name))
		if err != nil {
			t.Fatal(err)
		}
		fsys[name] = &fstest.MapFile{Data: data}
		ns := strings.NewReplacer("/", "_", ".", "_", "-", "_").Replace(strings.TrimSuffix(name, ".json"))
		manifest += "[[sources]]\ninclude = [\"" + name + "\"]\nformat = \"" + format + "\"\nnamespace = \"" + ns + "\"\nrepair = true\n"
	}
	fsys["toolc.toml"] = &fstest.MapFile{Data: []byte(manifest + targetTables("openai", "openai-dialects", "anthropic"))}
	build := func(alone bool) *Result {
		res, err := BuildFile(context.Background(), fsys, DefaultManifest, Options{lowerAlone: alone})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	shared, alone := build(false), build(true)
	if len(shared.Outputs) == 0 || len(shared.Outputs) != len(alone.Outputs) {
		t.Fatalf("%d and %d outputs (%d diagnostics)", len(shared.Outputs), len(alone.Outputs), len(shared.Diagnostics))
	}
	for i := range shared.Outputs {
		if !bytes.Equal(shared.Outputs[i].Bytes(), alone.Outputs[i].Bytes()) {
			t.Errorf("%s differs when lowered schemas are shared", shared.Outputs[i].Path)
		}
	}
	if !slices.Equal(shared.Diagnostics, alone.Diagnostics) {
		t.Errorf("the diagnostics differ: %d shared, %d alone", len(shared.Diagnostics), len(alone.Diagnostics))
	}
	t.Logf("%d tools to %d targets, %d diagnostics", shared.Tools, shared.Targets, len(shared.Diagnostics))
}
