package compiler

import (
	"context"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/toolc-dev/toolc/internal/manifest"
)

// TestOwnTypes: the library declares its own types, each exported field
// with a comment, so that go doc shows a user the API they call and an
// internal rename cannot break them.
func TestOwnTypes(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok || !ts.Name.IsExported() {
				return true
			}
			if ts.Assign.IsValid() {
				t.Errorf("%s: type %s is an alias", fset.Position(ts.Pos()), ts.Name)
			}
			st, ok := ts.Type.(*ast.StructType)
			if !ok {
				return true
			}
			for _, fl := range st.Fields.List {
				if len(fl.Names) > 0 && fl.Names[0].IsExported() && fl.Doc == nil && fl.Comment == nil {
					t.Errorf("%s: field %s.%s has no comment", fset.Position(fl.Pos()), ts.Name, fl.Names[0])
				}
			}
			return true
		})
	}
	if DefaultManifest != manifest.DefaultFile || ManifestVersion != manifest.Version {
		t.Errorf("DefaultManifest %q, ManifestVersion %d; the manifest's are %q and %d", DefaultManifest, ManifestVersion, manifest.DefaultFile, manifest.Version)
	}
}

const tools = `[{"name": "ping", "description": "Ping.", "inputSchema": {"type": "object"}}]`

// TestManifestInCode: a manifest built in code is checked as a file is (a
// target's options key by key), without positions.
func TestManifestInCode(t *testing.T) {
	fsys := fstest.MapFS{"tools.json": {Data: []byte(tools)}}
	m := &Manifest{
		Version: ManifestVersion,
		Sources: []Source{{Include: []string{"tools.json"}}},
		Targets: []Target{{Format: "server-json", Out: "server.json", Options: map[string]any{"server": map[string]any{"websit": "https://acme.example"}}}},
	}
	_, err := Build(context.Background(), fsys, m, Options{})
	var ce *ConfigError
	if !errors.As(err, &ce) || !errors.Is(err, ErrConfig) || len(ce.Diagnostics) != 1 {
		t.Fatalf("Build = %v, want one configuration error", err)
	}
	if d := ce.Diagnostics[0]; d.Code != "manifest.unknown-key" || d.Line != 0 || !strings.Contains(d.Message, `targets[0].server.websit: unknown key "websit"; did you mean "website"?`) {
		t.Errorf("diagnostic %v", d)
	}
	m.Targets[0] = Target{Format: "openai", Out: "openai.json", Options: map[string]any{"strict": true, "limits": map[string]int{"description": 100}}}
	res, err := Build(context.Background(), fsys, m, Options{})
	if err != nil || res.Failed {
		t.Fatalf("Build = %v, %v", res, err)
	}
	if got := string(res.Outputs[0].Bytes()); !strings.Contains(got, `"strict": true`) {
		t.Errorf("the strict option did not reach the bundle:\n%s", got)
	}
}

// TestManifestRead: a manifest read keeps its positions and its text's
// hash while its fields are as read; changed, it builds what they say.
func TestManifestRead(t *testing.T) {
	fsys := fstest.MapFS{
		"toolc.toml": {Data: []byte("version = 1\n[[sources]]\ninclude = [\"tools.json\"]\nbackend = { kind = \"local\" }\n[[targets]]\nformat = \"openai\"\nout = \"openai.json\"\nstrict = true\n")},
		"tools.json": {Data: []byte(tools)},
	}
	m, err := ReadManifest(fsys, DefaultManifest)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Targets[0].Options["strict"]; got != true {
		t.Errorf("Targets[0].Options = %v", m.Targets[0].Options)
	}
	if got, ok := m.Sources[0].Options["backend"].(map[string]any); !ok || got["kind"] != "local" {
		t.Errorf("Sources[0].Options = %v", m.Sources[0].Options)
	}
	as, err := m.toManifest()
	if err != nil || as != m.read {
		t.Errorf("an unchanged manifest is not the one read (%v)", err)
	}
	m.Targets[0].Out = "dist/openai.json"
	m.Targets[0].Options["dialect"] = "xia"
	_, err = Build(context.Background(), fsys, m, Options{})
	var ce *ConfigError
	if !errors.As(err, &ce) || !strings.Contains(ce.Error(), `targets[0].dialect: unknown dialect "xia" of openai`) {
		t.Fatalf("Build = %v, want the dialect refused", err)
	}
	delete(m.Targets[0].Options, "dialect")
	res, err := Build(context.Background(), fsys, m, Options{})
	if err != nil || res.Outputs[0].Path != "dist/openai.json" {
		t.Fatalf("Build = %+v, %v; want dist/openai.json", res, err)
	}
}

// TestConvertErrors: Convert's errors are this package's sentinels.
func TestConvertErrors(t *testing.T) {
	_, err := Convert(context.Background(), "tools.json", []byte(tools), ConvertOptions{To: "opneai"})
	if !errors.Is(err, ErrUnknownFormat) || !strings.Contains(err.Error(), `"opneai"`) {
		t.Errorf("Convert to opneai = %v, want ErrUnknownFormat", err)
	}
	_, err = Convert(context.Background(), "tools.json", []byte(tools), ConvertOptions{To: "mcp", Strict: true})
	if !errors.Is(err, ErrNotSupported) {
		t.Errorf("Convert to mcp, strict = %v, want ErrNotSupported", err)
	}
	_, err = Convert(context.Background(), "tools.json", []byte(tools), ConvertOptions{To: "gemini", Schema: "openpai"})
	var ce *ConfigError
	if !errors.As(err, &ce) || !errors.Is(err, ErrConfig) {
		t.Errorf("Convert with an unknown schema mode = %v, want a ConfigError", err)
	}
}

// TestLinksNoClient: a program that builds from pinned files links no MCP
// client, no OAuth and no HTTP: capture and verify live apart.
func TestLinksNoClient(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.Contains(dep, "modelcontextprotocol/go-sdk") || strings.Contains(dep, "golang.org/x/oauth2") || dep == "net/http" {
			t.Errorf("package compiler links %s", dep)
		}
	}
}
