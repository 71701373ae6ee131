package pipeline

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/internal/live"
	"github.com/toolc-dev/toolc/internal/manifest"
	"github.com/toolc-dev/toolc/internal/npmtest"
	"github.com/toolc-dev/toolc/internal/typegen"
	"github.com/toolc-dev/toolc/internal/validate"
)

// The equality harness: the validators a typed target writes (zod, and
// Pydantic) must accept exactly the instances the catalog's own schema
// accepts, as toolcall checks it. For every tool of the corpus it makes
// instances (the tool's examples, a value made from the schema with every
// property, one with the required ones, and mutations of it: a required
// key removed, a wrong type, a value outside an enum or a bound, an extra
// key) and runs them through each. A difference on a tool whose build
// reports no loss.validator-* fails the test.

// instance is one value to try against one tool's input.
type instance struct {
	tool  int
	what  string
	value *canonical.Value
	valid bool // what toolcall says
}

// sampler makes values from a schema.
type sampler struct {
	root  *canonical.Value
	depth int
}

func (s *sampler) resolve(v *canonical.Value) *canonical.Value {
	for range 8 {
		ref, ok := v.Get("$ref").StringValue()
		if !ok {
			return v
		}
		p, ok := canonical.RefPointer(ref)
		if !ok || s.root.Resolve(p) == nil {
			return v
		}
		v = s.root.Resolve(p)
	}
	return v
}

// value is a value of v: each property (all, or the required ones), the
// first of each enum, a string or number within the bounds.
func (s *sampler) value(v *canonical.Value, all bool) *canonical.Value {
	if v == nil || v.Kind != canonical.Object || s.depth > 6 {
		return canonical.NewString("x")
	}
	s.depth++
	defer func() { s.depth-- }()
	v = s.resolve(v)
	if c := v.Get("const"); c != nil {
		return c
	}
	if e := v.Get("enum"); e != nil && len(e.Items()) > 0 {
		return e.Items()[0]
	}
	for _, k := range []string{"anyOf", "oneOf", "allOf"} {
		if bs := v.Get(k); bs != nil && len(bs.Items()) > 0 && !v.Has("type") && !v.Has("properties") {
			return s.value(bs.Items()[0], all)
		}
	}
	typ := schemaType(v)
	switch typ {
	case "string":
		n := 1
		if m, ok := intOf(v.Get("minLength")); ok {
			n = max(n, m)
		}
		return canonical.NewString(strings.Repeat("a", n))
	case "integer", "number":
		n := 1
		if m, ok := intOf(v.Get("minimum")); ok {
			n = m
		} else if m, ok := intOf(v.Get("exclusiveMinimum")); ok {
			n = m + 1
		}
		return canonical.NewNumber(fmt.Sprint(n))
	case "boolean":
		return canonical.NewBool(true)
	case "null":
		return canonical.NewNull()
	case "array":
		out := canonical.NewArray()
		n, _ := intOf(v.Get("minItems"))
		if all {
			n = max(n, 1) // one item, for the mutations below the top to reach into
		}
		for range min(n, 3) {
			out.SetItems(append(out.Items(), s.value(v.Get("items"), all)))
		}
		return out
	}
	o := canonical.NewObject()
	required, _ := v.Get("required").Strings()
	if props := v.Get("properties"); props != nil {
		for _, m := range props.Members() {
			if all || slices.Contains(required, m.Key) {
				o.Set(m.Key, s.value(m.Value, all))
			}
		}
	}
	for _, r := range required {
		if o.Get(r) == nil {
			o.Set(r, canonical.NewString("x"))
		}
	}
	return o
}

func schemaType(v *canonical.Value) string {
	if s, ok := v.Get("type").StringValue(); ok {
		return s
	}
	if ts, ok := v.Get("type").Strings(); ok {
		for _, t := range ts {
			if t != "null" {
				return t
			}
		}
	}
	if v.Has("properties") || v.Has("required") {
		return "object"
	}
	return ""
}

func intOf(v *canonical.Value) (int, bool) {
	if v == nil || v.Kind != canonical.Number {
		return 0, false
	}
	var n int
	if _, err := fmt.Sscan(v.Text(), &n); err != nil {
		return 0, false
	}
	return n, true
}

// instancesOf are the values tried against t's input.
func instancesOf(t *canonical.Tool) map[string]*canonical.Value {
	root := t.Input.JSON()
	s := &sampler{root: root}
	out := map[string]*canonical.Value{}
	for i, ex := range t.Examples {
		out[fmt.Sprintf("example %d", i)] = ex
	}
	full, base := s.value(root, true), s.value(root, false)
	out["every property"], out["required properties"] = full, base
	if base.Kind != canonical.Object {
		return out
	}
	with := func(key string, v *canonical.Value) *canonical.Value {
		c := full.DeepCopy()
		c.Set(key, v)
		return c
	}
	extra := base.DeepCopy()
	extra.Set("__extra__", canonical.NewNumber("1"))
	out["an extra key"] = extra
	required, _ := root.Get("required").Strings()
	for _, r := range required[:min(len(required), 5)] {
		c := base.DeepCopy()
		c.Delete(r)
		out["without "+r] = c
	}
	// Below the top: each value of the full instance, to depth 4, of
	// another JSON type.
	n := 0
	var walk func(v *canonical.Value, at string, depth int)
	walk = func(v *canonical.Value, at string, depth int) {
		if depth > 4 || n > 24 {
			return
		}
		set := func(parent *canonical.Value, key string, i int, child *canonical.Value) {
			other := canonical.NewString("x")
			if child.Kind == canonical.String {
				other = canonical.NewNumber("12345")
			}
			c := full.DeepCopy()
			target := c.Resolve(canonical.Pointer(at))
			if parent.Kind == canonical.Object {
				target.Set(key, other)
			} else {
				target.Items()[i] = other
			}
			n++
			out[fmt.Sprintf("%s/%s another type", at, key)] = c
		}
		for _, m := range v.Members() {
			if depth > 0 {
				set(v, m.Key, 0, m.Value)
			}
			walk(m.Value, at+"/"+strings.NewReplacer("~", "~0", "/", "~1").Replace(m.Key), depth+1)
		}
		for i, it := range v.Items() {
			set(v, fmt.Sprint(i), i, it)
			walk(it, fmt.Sprintf("%s/%d", at, i), depth+1)
		}
	}
	walk(full, "", 0)
	props := root.Get("properties")
	if props == nil {
		return out
	}
	for _, m := range props.Members()[:min(len(props.Members()), 10)] {
		p := s.resolve(m.Value)
		switch schemaType(p) {
		case "string":
			out[m.Key+" a number"] = with(m.Key, canonical.NewNumber("12345"))
			if n, ok := intOf(p.Get("maxLength")); ok {
				out[m.Key+" too long"] = with(m.Key, canonical.NewString(strings.Repeat("a", n+1)))
			}
			if n, ok := intOf(p.Get("minLength")); ok && n > 0 {
				out[m.Key+" too short"] = with(m.Key, canonical.NewString(strings.Repeat("a", n-1)))
			}
			if p.Has("pattern") {
				out[m.Key+" off its pattern"] = with(m.Key, canonical.NewString("~ no match ~"))
			}
		case "integer", "number", "boolean", "array", "object":
			out[m.Key+" a string"] = with(m.Key, canonical.NewString("x"))
			if n, ok := intOf(p.Get("maximum")); ok {
				out[m.Key+" over its maximum"] = with(m.Key, canonical.NewNumber(fmt.Sprint(n+1)))
			}
			if n, ok := intOf(p.Get("minimum")); ok {
				out[m.Key+" under its minimum"] = with(m.Key, canonical.NewNumber(fmt.Sprint(n-1)))
			}
			if schemaType(p) == "integer" {
				out[m.Key+" a fraction"] = with(m.Key, canonical.NewNumber("1.5"))
			}
		}
		if p.Has("enum") {
			out[m.Key+" outside its enum"] = with(m.Key, canonical.NewString("__not_in_enum__"))
		}
		out[m.Key+" null"] = with(m.Key, canonical.NewNull())
	}
	return out
}

// validatorCase is one tool and the instances tried on it.
type validatorCase struct {
	Tool      string            `json:"tool"` // the input's const or class
	Instances []json.RawMessage `json:"instances"`
}

// TestValidatorsAcceptWhatSchemasAccept is the harness on the corpus: the
// zod module (run in Node) and the Pydantic module (run in Python) against
// toolcall's validator.
func TestValidatorsAcceptWhatSchemasAccept(t *testing.T) {
	if testing.Short() {
		t.Skip("the corpus through Node and Python")
	}
	t.Parallel() // mostly waiting on Node and Python
	res := wholeCatalog(t)
	v := validate.New()
	lossyTools := func(losses []typegen.Loss) map[string]bool {
		lossy := map[string]bool{}
		for _, l := range losses {
			lossy[l.Tool.ID()] = true
		}
		return lossy
	}
	// The whole corpus takes the harness 15 s on two cores (Pydantic builds
	// a model a few milliseconds each: the OpenAI and Stripe descriptions'
	// 8.5 MB of models take 10 s on one), past go test ./...'s minute: here
	// the MCP servers' and the OpenAPI examples' tools, and every tool with
	// TOOLC_TYPES_FULL=1, which .ci/run sets in a step of its own.
	tools := res.Catalog
	if os.Getenv("TOOLC_TYPES_FULL") != "1" {
		tools = slices.DeleteFunc(slices.Clone(tools), func(tl *canonical.Tool) bool {
			return tl.Namespace == "openai" || tl.Namespace == "stripe" || tl.Namespace == "bfcl"
		})
		t.Logf("%d of the corpus's %d tools; all of them with TOOLC_TYPES_FULL=1 (.ci/run sets it)", len(tools), len(res.Catalog))
	}
	pyTools := tools
	py := python(t)
	pm, pyInsts, pyCases := harnessCases(v, pyTools)
	models, pyLosses := pm.Pydantic("the corpus")
	var pyGot []bool
	done := make(chan struct{})
	go func() { // Node and Python at once
		defer close(done)
		pyGot = runPydantic(t, py, models, pyCases)
	}()
	// Python's run ends before the test does, also when Node's skips or
	// stops it: its folder is the test's, and its errors are the test's.
	defer func() { <-done }()
	m, insts, cases := harnessCases(v, tools)
	zod, zodLosses := m.Zod("the corpus", true)
	compareValidators(t, "zod", m, insts, runZod(t, zod, cases), lossyTools(zodLosses))
	<-done
	compareValidators(t, "pydantic", pm, pyInsts, pyGot, lossyTools(pyLosses))
}

// wholeCatalog is the whole corpus's catalog, built once for the tests
// that read it (the equality harness, the quality score): never changed.
func wholeCatalog(t *testing.T) *Result {
	t.Helper()
	corpusOnce.Do(func() {
		fsys, sources := wholeCorpus(t)
		fsys[DefaultManifest] = &fstest.MapFile{Data: []byte("version = 1\n" + strings.Join(sources, "") + "\n[[targets]]\nformat = \"canonical\"\nout = \"c.json\"\n")}
		corpusRes, corpusErr = BuildFile(context.Background(), fsys, DefaultManifest, Options{CatalogOnly: true})
	})
	if corpusErr != nil {
		t.Fatal(corpusErr)
	}
	return corpusRes
}

var (
	corpusOnce sync.Once
	corpusRes  *Result
	corpusErr  error
)

// harnessCases is the model of tools, named by ID, and the instances
// tried on each with toolcall's verdict.
func harnessCases(v *validate.Validator, tools []*canonical.Tool) (*typegen.Model, []instance, []validatorCase) {
	names := map[string]string{}
	for _, tl := range tools {
		names[tl.ID()] = tl.ID()
	}
	m := typegen.Build(tools, names, nil)
	var insts []instance
	var cases []validatorCase
	for i, mt := range m.Tools {
		c, err := v.Compile(mt.Source.Input)
		if err != nil {
			continue
		}
		vc := validatorCase{Tool: mt.TypeName + "Input"}
		byWhat := instancesOf(mt.Source)
		for _, what := range slices.Sorted(maps.Keys(byWhat)) {
			val := byWhat[what]
			ps := c.Check(val)
			if slices.ContainsFunc(ps, func(p validate.Problem) bool { return p.Unchecked }) {
				continue
			}
			insts = append(insts, instance{tool: i, what: what, value: val, valid: len(ps) == 0})
			vc.Instances = append(vc.Instances, val.AppendJSON(nil, ""))
		}
		cases = append(cases, vc)
	}
	return m, insts, cases
}

// python is the Python with Pydantic 2, or the test fails naming what is
// missing: the harness never skips.
func python(t *testing.T) string {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Fatal("python3 is not installed: the Pydantic models cannot be checked")
	}
	if out, err := exec.Command(py, "-c", "import pydantic, sys; sys.exit(0 if pydantic.VERSION.startswith('2.') else 1)").CombinedOutput(); err != nil {
		t.Fatalf("python3 has no Pydantic 2 (python3 -m pip install 'pydantic>=2'): %v\n%s", err, out)
	}
	return py
}

// runPydantic runs each case's instances through the module's models with
// model_validate, and returns whether each passed, in order.
func runPydantic(t *testing.T, py, module string, cases []validatorCase) []bool {
	dir := t.TempDir()
	data, _ := json.Marshal(cases)
	files := map[string]string{
		"models.py":  module,
		"cases.json": string(data),
		"run.py": `import json, sys
sys.path.insert(0, sys.argv[1])
import pydantic
import models
out = []
for c in json.load(open(sys.argv[1] + "/cases.json")):
    m = getattr(models, c["tool"])
    for v in c["instances"]:
        try:
            m.model_validate(v)
            out.append(True)
        except pydantic.ValidationError:
            out.append(False)
sys.stdout.write(json.dumps(out))
`,
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Error(err)
			return nil
		}
	}
	out, err := exec.Command(py, filepath.Join(dir, "run.py"), dir).Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Errorf("python: %v\n%s", err, stderr)
		return nil
	}
	var got []bool
	if err := json.Unmarshal(out, &got); err != nil {
		t.Error(err)
	}
	return got
}

// compareValidators compares what a validator said of each instance with
// toolcall's verdict, and fails on a difference its tool's losses do not
// report.
func compareValidators(t *testing.T, target string, m *typegen.Model, insts []instance, got []bool, lossy map[string]bool) {
	t.Helper()
	if len(got) != len(insts) {
		t.Fatalf("%s answered %d instances of %d", target, len(got), len(insts))
	}
	reported, unreported := 0, 0
	toolsWith := map[string]bool{}
	for i, in := range insts {
		if got[i] == in.valid {
			continue
		}
		id := m.Tools[in.tool].ID
		if lossy[id] {
			reported++
			continue
		}
		unreported++
		toolsWith[id] = true
		if unreported <= 15 {
			t.Errorf("%s: tool %s, %s: %s says %v, the schema %v: %s", target, id, in.what, target, got[i], in.valid, in.value.AppendJSON(nil, ""))
		}
	}
	t.Logf("%s: %d tools generated (%d with a reported loss), %d instances tried, %d differences reported as losses, %d unreported (in %d tools)",
		target, len(m.Tools), len(lossy), len(insts), reported, unreported, len(toolsWith))
}

// runZod runs each case's instances through the module's zod schemas in
// Node, and returns safeParse's success for each, in order.
func runZod(t *testing.T, module string, cases []validatorCase) []bool {
	t.Helper()
	npmtest.Module(t, "zod")
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node is not installed")
	}
	dir := t.TempDir()
	if err := os.Symlink(npmtest.Modules(), filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(cases)
	files := map[string]string{
		"tools.mjs":  module,
		"cases.json": string(data),
		"run.mjs": `import * as m from "./tools.mjs";
import { readFileSync } from "node:fs";
const cases = JSON.parse(readFileSync(new URL("./cases.json", import.meta.url), "utf8"));
const out = [];
for (const c of cases) for (const v of c.instances) out.push(m[c.tool].safeParse(v).success);
process.stdout.write(JSON.stringify(out));
`,
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, err := exec.Command(node, filepath.Join(dir, "run.mjs")).Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("node: %v\n%s", err, stderr)
	}
	var got []bool
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	return got
}

// zodModule builds fsys and returns the bundle of its zod target.
func zodModule(t *testing.T, fsys fs.FS, out string) string {
	t.Helper()
	res, err := BuildFile(context.Background(), fsys, DefaultManifest, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Failed {
		t.Fatalf("the build failed:\n%s", strings.Join(codes(res.Diagnostics), "\n"))
	}
	for _, o := range res.Outputs {
		if o.Path == out {
			return string(o.Bytes())
		}
	}
	t.Fatalf("no output %s", out)
	return ""
}

// registerSnippet is the code of a server and an AI SDK user of the zod
// module: every tool registered with the MCP SDK v2, each given to tool().
func registerSnippet(module string) string {
	var b strings.Builder
	b.WriteString(`import { McpServer } from "@modelcontextprotocol/server";
import { tool } from "ai";
import { tools } from "./tools.js";

const server = new McpServer({ name: "catalog", version: "1.0.0" });
for (const t of Object.values(tools)) {
  server.registerTool(t.name, { description: t.description, inputSchema: t.inputSchema }, async () => ({ content: [] }));
}
`)
	for i, name := range zodToolNames(module) {
		fmt.Fprintf(&b, "export const ai%d = tool({ description: tools[%s].description, inputSchema: tools[%s].inputSchema });\n", i, name, name)
	}
	return b.String()
}

// zodToolNames are the keys of the module's tools map, as literals.
func zodToolNames(module string) []string {
	_, rest, _ := strings.Cut(module, "export const tools = {\n")
	var names []string
	for _, l := range strings.Split(rest, "\n") {
		if k, ok := strings.CutSuffix(l, ": {"); ok && strings.HasPrefix(k, "  ") && !strings.HasPrefix(k, "   ") {
			names = append(names, strings.TrimSpace(k))
		}
	}
	return names
}

// pydanticSnippet is the code of a user of the Pydantic module: each tool's
// input model validates a call, looked up by name in TOOLS.
func pydanticSnippet(module string) string {
	var b strings.Builder
	b.WriteString("import pydantic\n\nfrom models import TOOLS\n\n\ndef handle(name: str, arguments: dict[str, object]) -> pydantic.BaseModel:\n    return TOOLS[name].model_validate(arguments)\n")
	for i, name := range pydanticToolNames(module) {
		fmt.Fprintf(&b, "\n\nm%d: pydantic.BaseModel = TOOLS[%s].model_validate({})\n", i, name)
	}
	return b.String()
}

// pydanticToolNames are the keys of the module's TOOLS, as literals.
func pydanticToolNames(module string) []string {
	_, rest, _ := strings.Cut(module, "TOOLS: dict[str, type[_p.BaseModel]] = {\n")
	var names []string
	for _, l := range strings.Split(rest, "\n") {
		if k, _, ok := strings.Cut(strings.TrimSpace(l), ": "); ok {
			names = append(names, k)
		}
	}
	return names
}

// TestValidatorModulesCompile: the zod module of the example catalog and of
// GitHub's MCP tools compiles with tsc --strict beside a server that
// registers every tool with @modelcontextprotocol/server 2.x and an AI SDK
// user that gives each to tool(); their Pydantic modules pass pyright
// --strict beside code that validates a call with each model.
func TestValidatorModulesCompile(t *testing.T) {
	if os.Getenv("TOOLC_TYPES_FULL") != "1" {
		// tsc, pyright and Python on four modules take 8 s of go test
		// ./...'s minute: .ci/run's typed-code step runs it.
		t.Skip("compiles the validator modules with tsc and pyright: set TOOLC_TYPES_FULL=1 (.ci/run does)")
	}
	t.Parallel() // mostly waiting on tsc, pyright and Python
	py := python(t)
	pyright := npmtest.Bin(t, "pyright", "pyright")
	tsc := npmtest.Bin(t, "tsc", "typescript")
	for _, pkg := range []string{"zod", "@modelcontextprotocol/server", "ai"} {
		npmtest.Module(t, pkg)
	}
	github := githubFS(t, `version = 1

[[sources]]
include = ["github.json"]
namespace = "github"

[[targets]]
format = "typescript"
out = "gen/validators.ts"
validators = "zod"

[[targets]]
format = "python"
out = "gen/models.py"
model = "pydantic"
`)
	modules := map[string]string{
		"example": zodModule(t, os.DirFS("../.."), "gen/validators.ts"),
		"github":  zodModule(t, github, "gen/validators.ts"),
	}
	models := map[string]string{
		"example": zodModule(t, os.DirFS("../.."), "gen/models.py"),
		"github":  zodModule(t, github, "gen/models.py"),
	}
	dir := t.TempDir()
	if err := os.Symlink(npmtest.Modules(), filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	for name, module := range modules {
		sub := filepath.Join(dir, name)
		files := map[string]string{
			"tools.ts":      module,
			"use.ts":        registerSnippet(module),
			"tsconfig.json": `{"compilerOptions": {"strict": true, "noEmit": true, "module": "nodenext", "moduleResolution": "nodenext", "target": "es2022", "skipLibCheck": true}, "include": ["*.ts"]}`,
		}
		if err := os.MkdirAll(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		for f, text := range files {
			if err := os.WriteFile(filepath.Join(sub, f), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if out, err := exec.Command(tsc, "-p", sub).CombinedOutput(); err != nil {
			t.Errorf("%s: tsc --strict refuses the zod module or its use: %v\n%s", name, err, out)
		}
		t.Logf("%s: %d tools registered with @modelcontextprotocol/server and given to ai's tool(), compiled by tsc --strict", name, len(zodToolNames(module)))

		files = map[string]string{
			"models.py":          models[name],
			"use.py":             pydanticSnippet(models[name]),
			"pyrightconfig.json": `{"typeCheckingMode": "strict", "pythonVersion": "3.11", "reportUnnecessaryTypeIgnoreComment": "error"}`,
		}
		for f, text := range files {
			if err := os.WriteFile(filepath.Join(sub, f), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if out, err := exec.Command(pyright, "-p", filepath.Join(sub, "pyrightconfig.json"), filepath.Join(sub, "models.py"), filepath.Join(sub, "use.py")).CombinedOutput(); err != nil {
			t.Errorf("%s: pyright --strict refuses the Pydantic module or its use: %v\n%.3000s", name, err, out)
		}
		// And the module imports: Pydantic builds every model.
		if out, err := exec.Command(py, "-c", "import sys; sys.path.insert(0, sys.argv[1]); import models; print(len(models.TOOLS))", sub).CombinedOutput(); err != nil {
			t.Errorf("%s: the Pydantic module does not import: %v\n%s", name, err, out)
		}
		t.Logf("%s: %d Pydantic input models, checked by pyright --strict and imported by Python", name, len(pydanticToolNames(models[name])))
	}
}

// TestZodServerRoundTrip: an MCP server built with @modelcontextprotocol/server
// from the zod module of GitHub's MCP tools, run over stdio and captured as
// toolc capture does: the schemas it advertises (zod's toJSONSchema) accept
// and refuse the harness's instances as the catalog's schemas do, but for
// the tools whose zod losses the build reports.
func TestZodServerRoundTrip(t *testing.T) {
	if testing.Short() {
		t.Skip("runs an MCP server in Node")
	}
	npmtest.Module(t, "@modelcontextprotocol/server")
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node is not installed")
	}
	res, err := BuildFile(context.Background(), githubFS(t, "version = 1\n\n[[sources]]\ninclude = [\"github.json\"]\n\n[[targets]]\nformat = \"canonical\"\nout = \"c.json\"\n"), DefaultManifest, Options{CatalogOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	m := typegen.Build(res.Catalog, nil, nil) // the server's own names
	module, losses := m.Zod("github", true)
	lossy := map[string]bool{}
	for _, l := range losses {
		lossy[l.Tool.ID()] = true
	}
	dir := t.TempDir()
	if err := os.Symlink(npmtest.Modules(), filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"tools.mjs": module,
		"server.mjs": `import { McpServer } from "@modelcontextprotocol/server";
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import { tools } from "./tools.mjs";

const server = new McpServer({ name: "github-zod", version: "1.0.0" });
for (const t of Object.values(tools)) {
  server.registerTool(t.name, { description: t.description, inputSchema: t.inputSchema }, async () => ({ content: [] }));
}
await server.connect(new StdioServerTransport());
`,
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	l, err := live.List(context.Background(), &manifest.Capture{Command: []string{node, filepath.Join(dir, "server.mjs")}, Timeout: "60s"}, live.Options{})
	if err != nil {
		t.Fatal(err)
	}
	advertised := map[string]*canonical.Value{}
	for _, tl := range l.Tools {
		advertised[tl.Get("name").Text()] = tl.Get("inputSchema")
	}
	v := validate.New()
	tried, differences, reported := 0, 0, 0
	for _, mt := range m.Tools {
		adv := advertised[mt.Name]
		if adv == nil {
			t.Errorf("the server advertises no %s", mt.Name)
			continue
		}
		want, err := v.Compile(mt.Source.Input)
		if err != nil {
			continue
		}
		got, err := v.Compile(canonical.AsSchema(adv))
		if err != nil {
			t.Errorf("%s: the advertised schema does not compile: %v", mt.Name, err)
			continue
		}
		byWhat := instancesOf(mt.Source)
		for _, what := range slices.Sorted(maps.Keys(byWhat)) {
			val := byWhat[what]
			wp, gp := want.Check(val), got.Check(val)
			tried++
			if (len(wp) == 0) == (len(gp) == 0) {
				continue
			}
			if lossy[mt.ID] {
				reported++
				continue
			}
			differences++
			if differences <= 10 {
				t.Errorf("%s, %s: the catalog's schema says %v, the advertised one %v: %s", mt.Name, what, len(wp) == 0, len(gp) == 0, val.AppendJSON(nil, ""))
			}
		}
	}
	t.Logf("%s %s advertised %d tools over stdio; %d instances tried against the catalog's schemas and the advertised ones: %d differences on tools with a reported loss, %d unreported",
		l.Server.Name, l.Server.Version, len(l.Tools), tried, reported, differences)
}
