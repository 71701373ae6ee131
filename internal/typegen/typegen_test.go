package typegen_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/internal/corpus"
	"github.com/toolc-dev/toolc/internal/formats"
	"github.com/toolc-dev/toolc/internal/npmtest"
	"github.com/toolc-dev/toolc/internal/schematest"
	"github.com/toolc-dev/toolc/internal/typegen"
)

// sample is the corpus's MCP tools: GitHub's server and the reference
// servers.
func sample(t *testing.T) []*canonical.Tool {
	mcp, _ := formats.Default().Get("mcp")
	var tools []*canonical.Tool
	files := append(corpus.Glob(t, "mcp/github-mcp-server/tools_list.current.json"), corpus.Glob(t, "mcp/reference-servers-py/*.json")...)
	for _, f := range files {
		_, doc := schematest.ReadJSON(t, f)
		ts, _ := mcp.Decode(doc, filepath.Base(f))
		tools = append(tools, ts...)
	}
	if len(tools) < 50 {
		t.Fatalf("%d sample tools", len(tools))
	}
	return tools
}

// example is a value of t that the schema takes: each required property,
// the first value of each enum.
func example(m *typegen.Model, t *typegen.Type) any {
	switch t.Kind {
	case typegen.String:
		return "x"
	case typegen.Number, typegen.Integer:
		return 1
	case typegen.Boolean:
		return true
	case typegen.Null:
		return nil
	case typegen.Array:
		return []any{}
	case typegen.Map:
		return map[string]any{}
	case typegen.Literal:
		return t.Values[0]
	case typegen.Union:
		return example(m, t.Union[0])
	case typegen.Named:
		for _, d := range m.Decls {
			if d.Name == t.Name {
				return example(m, d.Type)
			}
		}
	case typegen.Object:
		o := []kv{}
		for _, f := range t.Fields {
			if f.Required {
				o = append(o, kv{f.JSON, example(m, f.Type)})
			}
		}
		return o
	}
	return "x"
}

type kv struct {
	k string
	v any
}

// literal writes v in TypeScript (py false) or Python.
func literal(v any, py bool) string {
	switch x := v.(type) {
	case nil:
		if py {
			return "None"
		}
		return "null"
	case bool:
		if py {
			return map[bool]string{true: "True", false: "False"}[x]
		}
		return fmt.Sprint(x)
	case int:
		return fmt.Sprint(x)
	case string:
		return canonical.NewString(x).String()
	case *canonical.Value:
		switch {
		case py && x.Kind == canonical.Null:
			return "None"
		case py && x.Kind == canonical.Bool:
			return map[bool]string{true: "True", false: "False"}[x.Bool]
		}
		return x.String()
	case []any:
		return "[]"
	case map[string]any:
		return "{}"
	case []kv:
		var parts []string
		for _, p := range x {
			parts = append(parts, canonical.NewString(p.k).String()+": "+literal(p.v, py))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return "null"
}

// TestTypesTakeExamples: for the sample's tools, an input the schema takes
// type-checks as <Name>Input in TypeScript and Python, and one without a
// required property, or with a value outside an enum, does not (tsc's
// @ts-expect-error and pyright's unnecessary type: ignore fail otherwise).
func TestTypesTakeExamples(t *testing.T) {
	tools := sample(t)
	m := typegen.Build(tools, nil, nil)
	var ts, py strings.Builder
	n, bad := 0, 0
	for _, tool := range m.Tools {
		var in *typegen.Type
		for _, d := range m.Decls {
			if d.Name == tool.Input {
				in = d.Type
			}
		}
		if in == nil || in.Kind != typegen.Object {
			continue
		}
		ok := example(m, in).([]kv)
		n++
		fmt.Fprintf(&ts, "export const ok%d: %s = %s;\n", n, tool.Input, literal(ok, false))
		fmt.Fprintf(&py, "ok%d: %s = %s\n", n, tool.Input, literal(ok, true))
		if len(ok) > 0 { // without its first required property
			bad++
			fmt.Fprintf(&ts, "// @ts-expect-error: %q is required\nexport const missing%d: %s = %s;\n", ok[0].k, n, tool.Input, literal(ok[1:], false))
			fmt.Fprintf(&py, "missing%d: %s = %s  # type: ignore\n", n, tool.Input, literal(ok[1:], true))
		}
		for i, f := range in.Fields {
			if f.Required && f.Type.Kind == typegen.Named && strings.Contains(literal(ok[indexOf(ok, f.JSON)].v, false), "\"") {
				if d := decl(m, f.Type.Name); d != nil && d.Type.Kind == typegen.Literal {
					wrong := append([]kv{}, ok...)
					wrong[indexOf(ok, f.JSON)] = kv{f.JSON, "not-one-of-the-values"}
					bad++
					fmt.Fprintf(&ts, "// @ts-expect-error: %q takes its enum's values only\nexport const wrong%d_%d: %s = %s;\n", f.JSON, n, i, tool.Input, literal(wrong, false))
					fmt.Fprintf(&py, "wrong%d_%d: %s = %s  # type: ignore\n", n, i, tool.Input, literal(wrong, true))
					break
				}
			}
		}
	}
	t.Logf("%d tools: %d inputs the schema takes, %d it refuses", len(m.Tools), n, bad)
	if bad < 20 {
		t.Fatalf("only %d refused inputs: the sample has too few required properties", bad)
	}
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("tools.ts", m.TypeScript("sample")+"\n"+ts.String())
	write("tools.py", m.Python("sample")+"\n\n"+py.String())
	write("pyrightconfig.json", `{"typeCheckingMode": "strict", "pythonVersion": "3.12", "reportUnnecessaryTypeIgnoreComment": "error"}`)
	t.Run("tsc", func(t *testing.T) {
		out, err := exec.Command(npmtest.Bin(t, "tsc", "typescript"), "--strict", "--noEmit", "--target", "es2022", filepath.Join(dir, "tools.ts")).CombinedOutput()
		if err != nil {
			t.Errorf("tsc --strict: %v\n%.3000s", err, out)
		}
	})
	t.Run("pyright", func(t *testing.T) {
		out, err := exec.Command(npmtest.Bin(t, "pyright", "pyright"), "-p", filepath.Join(dir, "pyrightconfig.json"), filepath.Join(dir, "tools.py")).CombinedOutput()
		if err != nil {
			t.Errorf("pyright --strict: %v\n%.3000s", err, out)
		}
	})
}

func indexOf(o []kv, k string) int {
	for i, p := range o {
		if p.k == k {
			return i
		}
	}
	return -1
}

func decl(m *typegen.Model, name string) *typegen.Decl {
	for _, d := range m.Decls {
		if d.Name == name {
			return d
		}
	}
	return nil
}
