// Package catalogen generates large tool catalogs from the shared corpus for
// benchmarks: n MCP tools made from the GitHub MCP server's tools (current
// and history), each renamed to be unique, 100 to a file, with a manifest
// that builds MCP, OpenAI and Anthropic bundles.
//
// With Distinct set, every tool's schema differs in content (a description
// of the root and of each top-level property names its variant), so no
// cache keyed by content can reuse a result: the cost of a real catalog of
// n different tools. It is for benchmarks only; the compiler never uses it.
package catalogen

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/internal/validate"
)

// Manifest builds the generated tools to three targets, ignoring losses, as
// a team that has accepted them would.
const Manifest = `version = 1
[[sources]]
include = ["tools/**/*.json"]
` + Targets + `[policy]
ignore = ["loss"]
`

// Targets are the three targets, MCP, OpenAI and Anthropic, without strict
// mode, as manifest text.
const Targets = `[[targets]]
format = "mcp"
out = "dist/mcp.json"
[[targets]]
format = "openai"
out = "dist/openai.json"
[[targets]]
format = "anthropic"
out = "dist/anthropic.json"
`

// Options say what to generate.
type Options struct {
	Tools    int
	Distinct bool
}

// Seeds reads the corpus's GitHub MCP server tools whose input schemas are
// valid: the tools a catalog is made from.
func Seeds(corpusDir string) ([]*canonical.Value, error) {
	var seeds []*canonical.Value
	v := validate.New()
	for _, pat := range []string{"mcp/github-mcp-server/current/*.json", "mcp/github-mcp-server/history/*.json"} {
		files, err := filepath.Glob(filepath.Join(corpusDir, pat))
		if err != nil {
			return nil, err
		}
		slices.Sort(files)
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				return nil, err
			}
			// The history holds a few invalid schemas ("inputSchema": null,
			// "type": "Number"); the catalogs are valid ones.
			t, err := canonical.ParseJSON(data)
			if err != nil || t.Get("inputSchema").Kind != canonical.Object || len(v.Schema(canonical.AsSchema(t.Get("inputSchema")))) > 0 {
				continue
			}
			seeds = append(seeds, t)
		}
	}
	if len(seeds) == 0 {
		return nil, fmt.Errorf("no MCP tools under %s/mcp/github-mcp-server", corpusDir)
	}
	return seeds, nil
}

// Generate returns the catalog's files by path: toolc.toml and
// tools/NNN/tools.json, 100 tools each.
func Generate(seeds []*canonical.Value, opts Options) map[string][]byte {
	files := map[string][]byte{"toolc.toml": []byte(Manifest)}
	for file := 0; file*100 < opts.Tools; file++ {
		list := canonical.NewArray()
		for i := file * 100; i < min(opts.Tools, (file+1)*100); i++ {
			t := seeds[i%len(seeds)].DeepCopy()
			name, _ := t.Get("name").StringValue()
			t.Set("name", canonical.NewString(fmt.Sprintf("%s_%d", name, i)))
			if opts.Distinct {
				vary(t.Get("inputSchema"), i)
			}
			list.SetItems(append(list.Items(), t))
		}
		doc := canonical.NewObject()
		doc.Set("tools", list)
		files[fmt.Sprintf("tools/%03d/tools.json", file)] = doc.Indent()
	}
	return files
}

// vary makes schema i's content its own, in text and in structure: its
// description and each top-level property's description name the variant,
// and its first property's key (in required too) ends in the variant, so
// that no cache keyed by content or by shape can reuse another's result.
func vary(schema *canonical.Value, i int) {
	if props := schema.Get("properties"); props != nil && props.Kind == canonical.Object && len(props.Members()) > 0 {
		old := props.Members()[0].Key
		props.Members()[0].Key = fmt.Sprintf("%s_v%d", old, i)
		if req := schema.Get("required"); req != nil {
			for _, it := range req.Items() {
				if it.Kind == canonical.String && it.Text() == old {
					it.SetText(props.Members()[0].Key)
				}
			}
		}
	}
	suffix := fmt.Sprintf(" (variant %d)", i)
	describe := func(s *canonical.Value) {
		if s == nil || s.Kind != canonical.Object {
			return
		}
		d, _ := s.Get("description").StringValue()
		s.Set("description", canonical.NewString(d+suffix))
	}
	describe(schema)
	if props := schema.Get("properties"); props != nil && props.Kind == canonical.Object {
		for _, m := range props.Members() {
			describe(m.Value)
		}
	}
}

// Write writes files under dir.
func Write(dir string, files map[string][]byte) error {
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
