package typegen_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/analysis/passes/stdmethods"
	"golang.org/x/tools/go/analysis/passes/structtag"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/toolc-dev/toolc/internal/npmtest"
	"github.com/toolc-dev/toolc/internal/typegen"
)

// The oracle of the code generators: what a catalog says, however hostile,
// gives code that its language's own tools accept and that defines only
// what the catalog declares, each property under its exact name, or a
// located refusal. The checks here run in the test's process (go/parser,
// go/types and vet's analyzers for Go) or in one long-lived helper each
// (Python's own compile and exec; Node for the JavaScript tsc emits), so
// the fuzzer can run many inputs; TestHostileCodeCompiles then compiles
// every seed and find at once with tsc --strict, go vet and go build and
// pyright --strict, and runs the code.

// expected is what the model declares: the names each module must define
// and no more, and each object's property names.
type expected struct {
	model *typegen.Model
	types []string            // every declaration and output type
	keys  map[string][]string // object declaration → its property names, in order
	names []string            // the tools' emitted names
	// schemas are the tools' input and output schemas, as JSON: the only
	// values the package's variables may hold.
	schemas map[string]bool
}

func expect(g generated) expected {
	var tools []typegen.Tool
	names := map[string]string{}
	for _, b := range g.res.Bundles {
		if b.Format == "typescript" {
			names = b.Names
		}
	}
	m := typegen.Build(g.res.Catalog, names, nil)
	e := expected{model: m, keys: map[string][]string{}}
	for _, d := range m.Decls {
		e.types = append(e.types, d.Name)
		if d.Type.Kind == typegen.Object {
			for _, f := range d.Type.Fields {
				e.keys[d.Name] = append(e.keys[d.Name], f.JSON)
			}
		}
	}
	tools = m.Tools
	e.schemas = map[string]bool{}
	for _, t := range tools {
		if t.NoOutput {
			e.types = append(e.types, t.Output)
		}
		e.names = append(e.names, t.Name)
		e.schemas[string(t.Source.Input.JSON().AppendJSON(nil, ""))] = true
		if t.Source.Output != nil {
			e.schemas[string(t.Source.Output.JSON().AppendJSON(nil, ""))] = true
		}
	}
	slices.Sort(e.types)
	return e
}

// goImporter type-checks the standard library from its source, once for
// the process.
var goImporter = sync.OnceValue(func() types.Importer { return importer.ForCompiler(token.NewFileSet(), "source", nil) })

// checkGo parses and type-checks the Go file, runs vet's structtag and
// stdmethods analyzers on it, and holds its declarations to the model:
// its types exactly the model's, its only functions the JSON methods of
// a struct whose property names a tag cannot hold (each reading and
// writing exactly those names) and Decode, its only variable the blank
// one, no init.
func checkGo(src string, e expected, runtime bool) error {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "tools.go", src, parser.ParseComments)
	if err != nil {
		return fmt.Errorf("go/parser: %v", err)
	}
	if err := typegen.GofmtChanges([]byte(src)); err != nil {
		return err
	}
	if runtime {
		return checkGoDecls(f, e, runtime) // toolcall is this module's: go vet checks it in the batch
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	conf := types.Config{Importer: goImporter()}
	pkg, err := conf.Check("example.com/tools", fset, []*ast.File{f}, info)
	if err != nil {
		return fmt.Errorf("go/types: %v", err)
	}
	var vet []string
	for _, a := range []*analysis.Analyzer{structtag.Analyzer, stdmethods.Analyzer} {
		pass := &analysis.Pass{Analyzer: a, Fset: fset, Files: []*ast.File{f}, Pkg: pkg, TypesInfo: info, TypesSizes: types.SizesFor("gc", "amd64"),
			ResultOf: map[*analysis.Analyzer]any{inspect.Analyzer: inspector.New([]*ast.File{f})},
			Report: func(d analysis.Diagnostic) {
				vet = append(vet, fmt.Sprintf("%s: %s", fset.Position(d.Pos), d.Message))
			},
			ReadFile: os.ReadFile}
		if _, err := a.Run(pass); err != nil {
			return fmt.Errorf("vet %s: %v", a.Name, err)
		}
	}
	if len(vet) > 0 {
		return fmt.Errorf("go vet: %s", strings.Join(vet, "; "))
	}
	return checkGoDecls(f, e, runtime)
}

func checkGoDecls(f *ast.File, e expected, runtime bool) error {
	var typeNames []string
	structs := map[string]*ast.StructType{}
	methods := map[string][]*ast.FuncDecl{}
	consts := 0
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					typeNames = append(typeNames, s.Name.Name)
					if st, ok := s.Type.(*ast.StructType); ok {
						structs[s.Name.Name] = st
					}
				case *ast.ValueSpec:
					if d.Tok == token.VAR && !schemaVar(s, e.schemas) && (len(s.Names) != 1 || s.Names[0].Name != "_" || len(s.Values) != 0) {
						return fmt.Errorf("a variable besides var _ json.RawMessage and the tools' schemas: %s", s.Names[0].Name)
					}
					for _, v := range s.Values {
						if _, ok := v.(*ast.BasicLit); !ok && !(d.Tok == token.VAR && schemaVar(s, e.schemas)) {
							return fmt.Errorf("a constant whose value is no literal: %s", s.Names[0].Name)
						}
					}
					if d.Tok == token.CONST {
						consts += len(s.Names)
					}
				}
			}
		case *ast.FuncDecl:
			switch {
			case d.Recv == nil && d.Name.Name == "Decode" && runtime:
			case d.Recv != nil && asHelper(d):
			case d.Recv != nil && (d.Name.Name == "MarshalJSON" || d.Name.Name == "UnmarshalJSON"):
				recv := d.Recv.List[0].Type
				if star, ok := recv.(*ast.StarExpr); ok {
					recv = star.X
				}
				id, _ := recv.(*ast.Ident)
				if id == nil {
					return fmt.Errorf("a method of no named type")
				}
				methods[id.Name] = append(methods[id.Name], d)
			default:
				return fmt.Errorf("a function the model does not declare: %s", d.Name.Name)
			}
		}
	}
	slices.Sort(typeNames)
	if !slices.Equal(typeNames, e.types) {
		return fmt.Errorf("types %q, want the model's %q", typeNames, e.types)
	}
	if consts < len(e.names) {
		return fmt.Errorf("%d constants for %d tools", consts, len(e.names))
	}
	for name, keys := range e.keys {
		if err := checkStruct(name, structs[name], keys, methods[name]); err != nil {
			return err
		}
	}
	return nil
}

// schemaVar reports whether s is one of the tools' schemas: a variable
// named …InputSchema or …OutputSchema of json.RawMessage("…"), its string
// the JSON of a schema of the model.
func schemaVar(s *ast.ValueSpec, schemas map[string]bool) bool {
	if len(s.Names) != 1 || len(s.Values) != 1 || !strings.HasSuffix(s.Names[0].Name, "InputSchema") && !strings.HasSuffix(s.Names[0].Name, "OutputSchema") {
		return false
	}
	call, ok := s.Values[0].(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return false
	}
	if sel, ok := call.Fun.(*ast.SelectorExpr); !ok || fmt.Sprint(sel.X) != "json" || sel.Sel.Name != "RawMessage" {
		return false
	}
	lit, ok := call.Args[0].(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return false
	}
	text, err := strconv.Unquote(lit.Value)
	return err == nil && schemas[text]
}

// asHelper reports whether the method d reads a union field as one type:
// var x T; err := json.Unmarshal(v.F, &x); return x, err.
func asHelper(d *ast.FuncDecl) bool {
	if !strings.Contains(d.Name.Name, "As") || len(d.Body.List) != 3 {
		return false
	}
	if _, ok := d.Body.List[0].(*ast.DeclStmt); !ok {
		return false
	}
	as, ok := d.Body.List[1].(*ast.AssignStmt)
	if !ok || len(as.Rhs) != 1 {
		return false
	}
	call, ok := as.Rhs[0].(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	_, ret := d.Body.List[2].(*ast.ReturnStmt)
	return ok && fmt.Sprint(sel.X) == "json" && sel.Sel.Name == "Unmarshal" && ret
}

// checkStruct holds one struct to its property names: each field's json
// tag names its property as encoding/json reads a tag, or the struct's
// MarshalJSON and UnmarshalJSON read and write every property by its
// name, and nothing else.
func checkStruct(name string, st *ast.StructType, keys []string, methods []*ast.FuncDecl) error {
	if st == nil {
		return fmt.Errorf("%s is no struct", name)
	}
	if len(st.Fields.List) != len(keys) {
		return fmt.Errorf("%s has %d fields for %d properties", name, len(st.Fields.List), len(keys))
	}
	custom := false
	for i, fl := range st.Fields.List {
		tag, _ := strconv.Unquote(fl.Tag.Value)
		jsonTag := reflect.StructTag(tag).Get("json")
		key, _, _ := strings.Cut(jsonTag, ",")
		switch {
		case jsonTag == "-":
			custom = true
		case key != keys[i]:
			return fmt.Errorf("%s field %s has json tag %q, which names %q, not the property %q", name, fl.Names[0].Name, jsonTag, key, keys[i])
		}
	}
	if !custom {
		if len(methods) != 0 {
			return fmt.Errorf("%s has JSON methods its tags do not need", name)
		}
		return nil
	}
	if len(methods) != 2 {
		return fmt.Errorf("%s has a field tagged json:\"-\" and %d JSON methods, want 2", name, len(methods))
	}
	for _, m := range methods {
		var lits []string
		ast.Inspect(m.Body, func(n ast.Node) bool {
			if ix, ok := n.(*ast.IndexExpr); ok {
				if lit, ok := ix.Index.(*ast.BasicLit); ok && lit.Kind == token.STRING {
					s, _ := strconv.Unquote(lit.Value)
					lits = append(lits, s)
				}
			}
			return true
		})
		if !slices.Equal(lits, keys) {
			return fmt.Errorf("%s.%s reads or writes %q, want the properties %q", name, m.Name.Name, lits, keys)
		}
		if want := len(keys) + 2; m.Name.Name == "MarshalJSON" && len(m.Body.List) != want || m.Name.Name == "UnmarshalJSON" && len(m.Body.List) != want+1 {
			return fmt.Errorf("%s.%s has %d statements for %d properties", name, m.Name.Name, len(m.Body.List), len(keys))
		}
	}
	return nil
}

// helper is one long-lived process of a language's own, which answers a
// JSON line for each JSON line it is sent.
type helper struct {
	mu  sync.Mutex
	in  io.WriteCloser
	out *bufio.Reader
	cmd *exec.Cmd
}

// ask sends req and reads the reply into reply: a helper that ended
// instead ran code of the module it was loading (every payload that
// would run ends the process or throws).
func (h *helper) ask(req, reply any) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	line, err := json.Marshal(req)
	if err != nil {
		return err
	}
	if _, err := h.in.Write(append(line, '\n')); err != nil {
		return fmt.Errorf("the %s helper ended: the module ran code as it loaded (%v)", h.cmd.Path, err)
	}
	answer, err := h.out.ReadBytes('\n')
	if err != nil {
		return fmt.Errorf("the %s helper ended: the module ran code as it loaded (%v)", h.cmd.Path, err)
	}
	return json.Unmarshal(answer, reply)
}

// pyHelperScript compiles and runs the modules sent to it, a JSON line
// each, and answers what a module defines, each TypedDict's keys and
// TOOLS' keys. A module that runs code on import ends it (the payloads
// call os._exit).
const pyHelperScript = `
import json, sys, types, typing
for line in sys.stdin:
    req = json.loads(line)
    try:
        code = compile(req["src"], "tools.py", "exec")
        mod = types.ModuleType("tools")
        exec(code, mod.__dict__)
        names = sorted(k for k in mod.__dict__ if not k.startswith("__"))
        keys = {k: sorted(v.__required_keys__ | v.__optional_keys__) for k, v in mod.__dict__.items() if typing.is_typeddict(v)}
        out = {"ok": True, "names": names, "keys": keys, "tools": list(mod.TOOLS)}
    except BaseException as e:
        out = {"ok": False, "error": repr(e)}
    sys.stdout.write(json.dumps(out) + "\n")
    sys.stdout.flush()
`

var pythonHelper = sync.OnceValues(func() (*helper, error) { return startHelper("python3", "-c", pyHelperScript) })

// startHelper starts a helper process that reads a request a line on its
// standard input and answers a line on its standard output.
func startHelper(name string, args ...string) (*helper, error) {
	cmd := exec.Command(name, args...)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return &helper{in: in, out: bufio.NewReaderSize(out, 1<<20), cmd: cmd}, nil
}

type pyResult struct {
	OK    bool
	Error string
	Names []string
	Keys  map[string][]string
	Tools []string
}

// pyImports are the names a module imports rather than declares.
var pyImports = []string{"annotations", "Any", "Literal", "NotRequired", "Protocol", "Required", "TypeAlias", "TypedDict", "Union"}

// checkPython runs the module in the helper: it must compile and import,
// define the model's types and ToolName, TOOLS and Tools and nothing
// else, with each TypedDict's keys exactly its properties' names and
// TOOLS' keys the tools' names.
func checkPython(src string, e expected) error {
	if strings.ContainsRune(src, 0) {
		return fmt.Errorf("the module holds a NUL byte")
	}
	h, err := pythonHelper()
	if err != nil {
		return err
	}
	var r pyResult
	if err := h.ask(map[string]string{"src": src}, &r); err != nil {
		return err
	}
	if !r.OK {
		return fmt.Errorf("python: %s", r.Error)
	}
	names := slices.DeleteFunc(r.Names, func(n string) bool { return slices.Contains(pyImports, n) })
	want := slices.Sorted(slices.Values(append(slices.Clone(e.types), "TOOLS", "ToolName", "Tools")))
	if !slices.Equal(names, want) {
		return fmt.Errorf("the module defines %q, want %q", names, want)
	}
	for name, keys := range e.keys {
		got, ok := r.Keys[name]
		if !ok {
			if slices.Contains(keys, "") {
				continue // dict[str, Any], said by loss.type-key
			}
			return fmt.Errorf("%s is no TypedDict", name)
		}
		if want := slices.Sorted(slices.Values(keys)); !slices.Equal(got, want) {
			return fmt.Errorf("TypedDict %s has keys %q, want %q", name, got, want)
		}
	}
	if !slices.Equal(r.Tools, e.names) {
		return fmt.Errorf("TOOLS has %q, want %q", r.Tools, e.names)
	}
	return nil
}

// nodeHelperScript loads the JavaScript tsc emits and answers what it
// exports: a module that runs code on load ends it or throws.
const nodeHelperScript = `
const rl = require("readline").createInterface({input: process.stdin});
rl.on("line", (line) => {
  const req = JSON.parse(line);
  let out;
  try {
    const m = require(req.js);
    out = {ok: true, exports: Object.keys(m), names: m.toolNames};
  } catch (e) {
    out = {ok: false, error: String(e)};
  }
  process.stdout.write(JSON.stringify(out) + "\n");
});
`

var jsHelper = sync.OnceValues(func() (*helper, error) { return startHelper("node", "-e", nodeHelperScript) })

// tsExport is a top-level declaration of the .d.ts tsc emits without
// comments: one a line, at its start.
var tsExport = regexp.MustCompile(`(?m)^export (?:declare )?(?:interface|type|const) ([A-Za-z_$][A-Za-z0-9_$]*)`)

// checkTypeScript compiles the module with tsc --strict, emitting its
// JavaScript and declarations: the declarations must be the model's types
// and toolNames, ToolName, ToolCall and Tools, and nothing else; the
// JavaScript, loaded in Node, must export toolNames alone, the tools'
// names.
func checkTypeScript(tb testing.TB, src string, e expected) error {
	tsc := npmtest.Bin(tb, "tsc", "typescript")
	dir, err := os.MkdirTemp("", "toolc-ts-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "tools.ts")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		return err
	}
	out, err := exec.Command(tsc, "--strict", "--target", "es2022", "--lib", "es2015", "--types", "", "--module", "commonjs",
		"--declaration", "--removeComments", "--outDir", filepath.Join(dir, "out"), file).CombinedOutput()
	if err != nil {
		return fmt.Errorf("tsc --strict: %v\n%.2000s", err, out)
	}
	dts, err := os.ReadFile(filepath.Join(dir, "out", "tools.d.ts"))
	if err != nil {
		return err
	}
	var names []string
	for _, m := range tsExport.FindAllStringSubmatch(string(dts), -1) {
		names = append(names, m[1])
	}
	slices.Sort(names)
	want := slices.Sorted(slices.Values(append(slices.Clone(e.types), "toolNames", "ToolName", "ToolCall", "Tools")))
	if !slices.Equal(names, want) {
		return fmt.Errorf("the module declares %q, want %q", names, want)
	}
	if n := strings.Count(string(dts), "\nexport ") + 1; n != len(want) {
		return fmt.Errorf("the declarations have %d exports, want %d:\n%.2000s", n, len(want), dts)
	}
	h, err := jsHelper()
	if err != nil {
		return err
	}
	var r struct {
		OK      bool
		Error   string
		Exports []string
		Names   []string
	}
	if err := h.ask(map[string]string{"js": filepath.Join(dir, "out", "tools.js")}, &r); err != nil {
		return err
	}
	switch {
	case !r.OK:
		return fmt.Errorf("node: %s", r.Error)
	case !slices.Equal(r.Exports, []string{"toolNames"}):
		return fmt.Errorf("the JavaScript exports %q, want toolNames alone", r.Exports)
	case !slices.Equal(r.Names, e.names):
		return fmt.Errorf("toolNames is %q, want %q", r.Names, e.names)
	}
	return nil
}

// check runs every in-process check of one generation.
func check(tb testing.TB, g generated, runtime bool) {
	tb.Helper()
	e := expect(g)
	if err := checkGo(g.goSrc, e, runtime); err != nil {
		tb.Errorf("Go: %v\n%s", err, g.goSrc)
	}
	if err := checkPython(g.py, e); err != nil {
		tb.Errorf("Python: %v\n%s", err, g.py)
	}
	if err := checkTypeScript(tb, g.ts, e); err != nil {
		tb.Errorf("TypeScript: %v\n%s", err, g.ts)
	}
}

// FuzzGenerate: any four strings, in every field of a tool that reaches
// generated code, give TypeScript, Go and Python that their languages'
// tools accept and that define only what the catalog declares, each
// property under its exact name, or a refusal with a place. In go test it
// runs the seeds and the finds kept in testdata/fuzz/FuzzGenerate; with
// -fuzz it searches (.ci/run gives it a bounded time).
func FuzzGenerate(f *testing.F) {
	for _, h := range hostileSeeds {
		f.Add(h.Name, h.Key, h.Text, h.Value)
	}
	f.Fuzz(func(t *testing.T, name, key, text, value string) {
		h := hostile{name, key, text, value}
		g := generate(t, []hostile{h}, text, false)
		if len(g.refused) > 0 {
			return
		}
		check(t, g, false)
	})
}
