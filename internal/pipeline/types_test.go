package pipeline

import (
	"context"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/npmtest"
	"github.com/toolc-dev/toolc/internal/typegen"
)

// typedTargets are the three typed targets, as a manifest writes them:
// Python a module per namespace (a server's tools), as pyright analyzes a
// module of the whole corpus no further ("Code is too complex to analyze").
func typedTargets(namespaces []string) string {
	s := "\n[[targets]]\nformat = \"typescript\"\nout = \"gen/tools.ts\"\n" +
		"\n[[targets]]\nformat = \"go\"\nout = \"gen/tools/tools.go\"\nruntime = true\n"
	for _, ns := range namespaces {
		s += fmt.Sprintf("\n[[targets]]\nname = \"python-%s\"\nformat = \"python\"\nout = \"gen/py/%s.py\"\nselect = { namespaces = [%q] }\n", strings.ReplaceAll(ns, "_", "-"), ns, ns)
	}
	return s
}

// TestCorpusTypes generates the three typed targets for the whole corpus
// (every tool file that builds) and compiles them with the real compilers:
// tsc --strict, go vet, pyright in strict mode. It logs, per target, how
// many tools generated without a loss.type-*, and the commonest losses.
func TestCorpusTypes(t *testing.T) {
	if testing.Short() {
		t.Skip("generates and compiles types for the whole corpus")
	}
	t.Parallel() // mostly waiting on tsc, go vet and pyright
	fsys, sources := wholeCorpus(t)
	sources = withoutFaults(sources)
	fsys["toolc.toml"] = &fstest.MapFile{Data: []byte("version = 1\n" + strings.Join(sources, "") + typedTargets(nil))}
	res, err := BuildFile(context.Background(), fsys, DefaultManifest, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// BFCL has getUserInfo and get_user_info: one type name, which the
	// build refuses, naming both. The types map, as its fix says, names one.
	var names []string
	for _, d := range res.Diagnostics {
		if d.Code == "name.type-collision" && d.Target == "typescript" {
			names = append(names, fmt.Sprintf("%q = %q", d.Tool, typegen.Pascal(d.Tool)+"Alt"))
		}
	}
	if len(names) == 0 {
		t.Error("no name.type-collision: the corpus has tools whose IDs differ only in case and punctuation")
	}
	var namespaces []string
	for _, tool := range res.Catalog {
		if !slices.Contains(namespaces, tool.Namespace) {
			namespaces = append(namespaces, tool.Namespace)
		}
	}
	types := "types = { " + strings.Join(names, ", ") + " }\n"
	targets := strings.ReplaceAll(typedTargets(namespaces), "\n\n[[targets]]", "\n"+types+"\n[[targets]]")
	fsys["toolc.toml"] = &fstest.MapFile{Data: []byte("version = 1\n" + strings.Join(sources, "") + strings.TrimPrefix(targets, "\n"+types) + types)}
	if res, err = BuildFile(context.Background(), fsys, DefaultManifest, Options{}); err != nil {
		t.Fatal(err)
	}
	for _, d := range res.Diagnostics {
		if d.Severity == diag.Error {
			t.Errorf("%s", d)
		}
	}
	if t.Failed() {
		t.FailNow()
	}
	dir := t.TempDir()
	for _, o := range res.Outputs {
		if o.Target == "" {
			continue
		}
		p := filepath.Join(dir, o.Path)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, o.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	typeFigures(t, res)
	compileTypes(t, filepath.Join(dir, "gen"))
}

// typeFigures logs, per typed target, the tools without a loss.type-* and
// the commonest losses.
func typeFigures(t *testing.T, res *Result) {
	for _, target := range []string{"typescript", "go", "python"} {
		lossy, shape := map[string]bool{}, map[string]bool{} // shape: a loss besides an unknown output
		count := map[string]int{}
		for _, d := range res.Diagnostics {
			if strings.HasPrefix(d.Target, target) && strings.HasPrefix(d.Code, "loss.type-") {
				lossy[d.Tool] = true
				shape[d.Tool] = shape[d.Tool] || d.Code != "loss.type-output-unknown"
				count[d.Code]++
			}
		}
		n := 0
		for _, s := range shape {
			if s {
				n++
			}
		}
		var parts []string
		for _, c := range slices.Sorted(maps.Keys(count)) {
			parts = append(parts, fmt.Sprintf("%s %d", c, count[c]))
		}
		t.Logf("%s: %d of %d tools without a loss.type-* (%d without one besides an unknown output); losses: %s", target, res.Tools-len(lossy), res.Tools, res.Tools-n, strings.Join(parts, ", "))
	}
}

// compileTypes compiles gen/tools.ts, gen/tools/tools.go and gen/tools.py
// with tsc --strict, go vet and pyright --strict.
func compileTypes(t *testing.T, gen string) {
	t.Run("tsc", func(t *testing.T) {
		tsc := npmtest.Bin(t, "tsc", "typescript")
		out, err := exec.Command(tsc, "--strict", "--noEmit", "--target", "es2022", "--skipLibCheck", filepath.Join(gen, "tools.ts")).CombinedOutput()
		if err != nil {
			t.Errorf("tsc --strict: %v\n%.3000s", err, out)
		}
	})
	t.Run("go vet", func(t *testing.T) {
		// A module of its own, which takes toolc (its Decode runs over
		// toolcall) from this checkout, and its sums from toolc's.
		pkg := filepath.Join(gen, "tools")
		root, _ := filepath.Abs(filepath.Join("..", ".."))
		mod := "module example.com/tools\n\ngo 1.26\n\nrequire github.com/toolc-dev/toolc v0.0.0\n\nreplace github.com/toolc-dev/toolc => " + root + "\n"
		sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(pkg, "go.mod"), []byte(mod), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(pkg, "go.sum"), sum, 0o644); err != nil {
			t.Fatal(err)
		}
		// gofmt leaves it as it is: the file is written as gofmt writes
		// it, not formatted.
		if out, err := exec.Command("gofmt", "-l", pkg).CombinedOutput(); err != nil || len(out) > 0 {
			t.Errorf("gofmt -l: %v %s", err, out)
		}
		cmd := exec.Command("go", "vet", ".")
		cmd.Dir = pkg
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "GOPROXY=off")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("go vet: %v\n%.3000s", err, out)
		}
	})
	t.Run("pyright", func(t *testing.T) {
		pyright := npmtest.Bin(t, "pyright", "pyright")
		cfg := `{"typeCheckingMode": "strict", "pythonVersion": "3.12", "reportUnnecessaryTypeIgnoreComment": "error"}`
		if err := os.WriteFile(filepath.Join(gen, "pyrightconfig.json"), []byte(cfg), 0o644); err != nil {
			t.Fatal(err)
		}
		files, _ := filepath.Glob(filepath.Join(gen, "py", "*.py"))
		if os.Getenv("TOOLC_TYPES_FULL") != "1" {
			// pyright takes two minutes on the corpus's modules on two
			// cores, past go test ./...'s minute: .ci/run checks them all
			// in a step of its own; here, the MCP servers' (and
			// internal/typegen's tests check typed examples of them).
			files = slices.DeleteFunc(files, func(f string) bool {
				return !slices.Contains([]string{"github.py", "reference.py", "swagger.py"}, filepath.Base(f))
			})
			t.Log("the other modules are checked with TOOLC_TYPES_FULL=1 (.ci/run sets it)")
		}
		cmd := exec.Command(pyright, append([]string{"-p", filepath.Join(gen, "pyrightconfig.json")}, files...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("pyright --strict: %v\n%.3000s", err, out)
		}
	})
}

// TestTypedFindingsTakeTheirTargetsPolicies: a typed target's findings,
// made when the build gathers them, are placed, said of their target and
// decided by its policy as every other target's are: ignored on one
// target, an error on another (which fails the build), an info on a third.
func TestTypedFindingsTakeTheirTargetsPolicies(t *testing.T) {
	manifest := `version = 1
[[sources]]
include = ["tools.json"]
format = "mcp"

[[targets]]
format = "typescript"
out = "gen/tools.ts"
policy = { ignore = ["loss.type-output-unknown"] }

[[targets]]
format = "python"
out = "gen/tools.py"
policy = { deny = ["loss.type-constraint"] }

[[targets]]
format = "go"
out = "gen/tools.go"
`
	tools := `{"tools": [{"name": "search", "description": "Search the notes.",
  "inputSchema": {"type": "object", "properties": {"q": {"type": "string", "minLength": 2, "description": "The words."}}, "required": ["q"]}}]}`
	res := mustBuild(t, fstest.MapFS{DefaultManifest: {Data: []byte(manifest)}, "tools.json": {Data: []byte(tools)}}, 2)
	got := map[string]diag.Diagnostic{}
	for _, d := range res.Diagnostics {
		if strings.HasPrefix(d.Code, "loss.type-") {
			got[d.Target+" "+d.Code] = d
		}
	}
	want := map[string]diag.Severity{
		"python loss.type-output-unknown": diag.Info, "python loss.type-constraint": diag.Error,
		"go loss.type-output-unknown": diag.Info, "go loss.type-constraint": diag.Info,
		"typescript loss.type-constraint": diag.Info,
	}
	for key, sev := range want {
		d, ok := got[key]
		switch {
		case !ok:
			t.Errorf("no %s; the typed findings are %v", key, slices.Sorted(maps.Keys(got)))
		case d.Severity != sev:
			t.Errorf("%s is %s, want %s", key, d.Severity, sev)
		case d.File != "tools.json" || d.Line == 0 || d.Tool != "search":
			t.Errorf("%s is at %s:%d about %q, want in tools.json, located, about search", key, d.File, d.Line, d.Tool)
		}
	}
	if len(got) != len(want) {
		t.Errorf("typed findings %v, want %d", slices.Sorted(maps.Keys(got)), len(want))
	}
	if !res.Failed {
		t.Error("the build did not fail on the python target's denied loss.type-constraint")
	}
}
