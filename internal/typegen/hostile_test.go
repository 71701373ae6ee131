package typegen_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"unicode/utf8"

	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/npmtest"
	"github.com/toolc-dev/toolc/internal/pipeline"
)

// hostile is one input of the code generators' oracle: four strings, as an
// attacker or a careless author (or a live server) writes them, each put
// in every field of a tool that reaches generated code. Name is the tool's
// name; Key a property's name (and a nested one's); Text the catalog's
// name, the tool's title and description and a property's description and
// title; Value an enum value, a default, an example, a const, and a second
// property's name.
type hostile struct{ Name, Key, Text, Value string }

// hostileSeeds are the payload classes the oracle starts from: each one a
// way out of a string literal, a comment, a docstring or a struct tag in
// one of the three languages, or a name a language cannot take as it is.
// The fuzzer's finds are kept beside them in testdata/fuzz/FuzzGenerate.
var hostileSeeds = []hostile{
	{"tool", "x` json:\"x\"`; func init() { panic(7331) }; var _ = `", "A tool.", "v"},
	{"input", "a key", "nul \x00 in text", "\x00"},
	{"docstring", "__token", "\"\"\"\nimport os; os._exit(7331)\n\"\"\"", `"""`},
	{"jsdoc", "", "*/ export const pwned = (() => { throw new Error('7331') })(); /*", "*/"},
	{"line_ends", "-", "line\r\nfunc init() { panic(7331) }\rexport const x = 1;\u2028import os; os._exit(7331)", "\u2029"},
	{"invisible", "\ufeff", "\u202e bidi \u2066 and a BOM \ufeff", "\ufeff"},
	{"keywords", "class", `\`, "None"},
	{"keywords_2", "type", `\u0000 \x00 \N{NULL}`, "True"},
	{"unicode", "名前", "年齢", "名前"},
	{"digits", "123", "", "0"},
	{"comma", "a,omitempty", "`", ",string"},
	{"quotes", `"`, `'''`, `'`},
	{"template", "${x}", "`${process.exit(7331)}`", "${process.exit(7331)}"},
	{"long", strings.Repeat("k", 300), strings.Repeat("description ", 400), strings.Repeat("v", 300)},
	{"shadow", "str", "Any", "Literal"},
	{"directives", "go:generate", "go:generate rm -rf /\n//go:build ignore\n//line x.go:1", "//go:linkname x y"},
	{"case", "Key", "key", "KEY"},
	{"dunder", "__init__", "__class__", "__proto__"},
	{"backslash_quote", `\"`, `\"""`, `\`},
	{"empty_value", "value", "text", ""},
	{"tool_names", "ToolName", "Tools", "TOOLS"},
	{"space_comma", "a ,b", " ", "a b"},
	{"percent", "%v%s", "%!(EXTRA)", "%%"},
	{"newline_key", "a\nb", "x\n\n\ny", "\n"},
}

// tomlString is s as a TOML basic string.
func tomlString(s string) string { return quoted(s, false) }

// quoted is s in double quotes, each quote and backslash escaped and each
// control character (and, for Python, U+2028 and U+2029, which some of
// its readers break lines at) written \uXXXX: a TOML basic string, or a
// Python string literal written apart from the writer's own.
func quoted(s string, python bool) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7F || python && (r == 0x2028 || r == 0x2029):
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// member is one key of a JSON object, in order.
type member struct {
	k string
	v any
}

// object writes members as a JSON object in their order, each key once.
type object []member

func (o object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	seen := map[string]bool{}
	for _, m := range o {
		if seen[m.k] {
			continue
		}
		seen[m.k] = true
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(m.k)
		v, err := json.Marshal(m.v)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// other is an enum value beside h.Value.
func (h hostile) other() string {
	if h.Value == "other" {
		return "other_2"
	}
	return "other"
}

// tool is h as an MCP tool: JSON text, as a file or a server gives it
// (JSON cannot carry invalid UTF-8, which encoding/json replaces).
func (h hostile) tool() object {
	name := h.Name
	if name == "" {
		name = "t"
	}
	prop := object{{"type", "string"}, {"title", h.Text}, {"description", h.Text}, {"enum", []string{h.Value, h.other()}},
		{"default", h.Value}, {"examples", []string{h.Value}}}
	nested := object{{"type", "object"}, {"description", h.Text}, {"properties", object{{h.Key, object{{"type", "integer"}}}}}}
	return object{
		{"name", name}, {"title", h.Text}, {"description", h.Text},
		{"inputSchema", object{{"type", "object"}, {"properties", object{{h.Key, prop}, {h.Value, nested}}}, {"required", []string{h.Key}}}},
		{"outputSchema", object{{"type", "object"}, {"properties", object{{h.Value, object{{"const", h.Value}}}}}}},
		{"annotations", object{{"title", h.Text}}},
	}
}

// instance is a value of h's input that its schema takes: each property
// once, by its exact name.
func (h hostile) instance() object {
	if h.Key == h.Value {
		return object{{h.Key, h.Value}}
	}
	return object{{h.Key, h.Value}, {h.Value, object{{h.Key, 1}}}}
}

// hostileManifest is the manifest of cases, a source each (namespaced when
// there are several), with the three typed targets.
func hostileManifest(cases []hostile, catalog string, runtime bool) fstest.MapFS {
	fsys := fstest.MapFS{}
	var m strings.Builder
	fmt.Fprintf(&m, "version = 1\n\n[catalog]\nname = %s\nversion = \"1.0.0\"\n", tomlString(catalog))
	for i, c := range cases {
		file := fmt.Sprintf("tools/%d.json", i)
		data, err := json.Marshal(object{{"tools", []object{c.tool()}}})
		if err != nil {
			panic(err)
		}
		fsys[file] = &fstest.MapFile{Data: data}
		fmt.Fprintf(&m, "\n[[sources]]\ninclude = [%q]\nformat = \"mcp\"\n", file)
		if len(cases) > 1 {
			fmt.Fprintf(&m, "namespace = \"c%d\"\n", i)
		}
	}
	fmt.Fprintf(&m, "\n[[targets]]\nformat = \"typescript\"\nout = \"gen/tools.ts\"\n")
	fmt.Fprintf(&m, "\n[[targets]]\nformat = \"go\"\nout = \"gen/tools/tools.go\"\nruntime = %v\n", runtime)
	fmt.Fprintf(&m, "\n[[targets]]\nformat = \"python\"\nout = \"gen/tools.py\"\n")
	// The security lint refuses hidden characters and instructions, which
	// the generators must carry all the same: a team may allow them.
	fmt.Fprintf(&m, "\n[policy]\nignore = [\"security\"]\n")
	fsys["toolc.toml"] = &fstest.MapFile{Data: []byte(m.String())}
	return fsys
}

// generated is what one build wrote for the typed targets, or the errors
// that refused it.
type generated struct {
	ts, goSrc, py string
	res           *pipeline.Result
	refused       []diag.Diagnostic
}

// generate builds cases; a build that fails must fail with located errors
// (a refusal), never an unlocated one or a configuration error.
func generate(t testing.TB, cases []hostile, catalog string, runtime bool) generated {
	t.Helper()
	return generateFrom(t, hostileManifest(cases, catalog, runtime), cases)
}

// generateFrom builds the catalog of fsys, whose tools what names in
// messages.
func generateFrom(t testing.TB, fsys fstest.MapFS, what any) generated {
	t.Helper()
	res, err := pipeline.BuildFile(context.Background(), fsys, pipeline.DefaultManifest, pipeline.Options{})
	if err != nil {
		t.Fatalf("%+q: the build gave no result: %v", what, err)
	}
	var g generated
	g.res = res
	if res.Failed {
		for _, d := range res.Diagnostics {
			if d.Severity == diag.Error {
				if d.File == "" || d.Line == 0 {
					t.Errorf("%+q: an error without a place: %s", what, d)
				}
				if d.Code == "publish.code-invalid" {
					t.Errorf("%+q: the writer made code that does not parse: %s", what, d)
				}
				g.refused = append(g.refused, d)
			}
		}
		return g
	}
	for _, b := range res.Bundles {
		if b.Text == nil {
			continue
		}
		var text strings.Builder
		if err := b.Text(&text); err != nil {
			t.Errorf("%+q: the writer made code that does not parse: %v", what, err)
		}
		switch b.Format {
		case "typescript":
			g.ts = text.String()
		case "go":
			g.goSrc = text.String()
		case "python":
			g.py = text.String()
		}
	}
	return g
}

// readFuzzCorpus reads the inputs the fuzzer found and kept: go test's
// corpus files, "go test fuzz v1" and a string(...) line a value.
func readFuzzCorpus(t testing.TB, dir string) []hostile {
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	var out []hostile
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var vals []string
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			line := sc.Text()
			if s, ok := strings.CutPrefix(line, "string("); ok {
				v, err := strconv.Unquote(strings.TrimSuffix(s, ")"))
				if err != nil {
					t.Fatalf("%s: %v", f, err)
				}
				vals = append(vals, v)
			}
		}
		if len(vals) != 4 {
			t.Fatalf("%s: %d strings, want 4", f, len(vals))
		}
		out = append(out, hostile{vals[0], vals[1], vals[2], vals[3]})
	}
	return out
}

// valid reports whether every string of h is valid UTF-8: what JSON text
// can carry (the fuzzer's others are read as encoding/json reads them).
func (h hostile) valid() bool {
	return utf8.ValidString(h.Name) && utf8.ValidString(h.Key) && utf8.ValidString(h.Text) && utf8.ValidString(h.Value)
}

// allCases are the seeds and the fuzzer's finds.
func allCases(t testing.TB) []hostile {
	return append(slices.Clone(hostileSeeds), readFuzzCorpus(t, filepath.Join("testdata", "fuzz", "FuzzGenerate"))...)
}

// TestHostileCodeCompiles builds every seed and find of the oracle into one
// catalog (a namespace each), with Go's Decode over toolcall, and has the
// real tools judge the code: tsc --strict, go vet and go build, pyright in
// strict mode, each also on a file that assigns each tool's input a value
// its schema takes, under every property's exact name; then runs it: the
// Go program decodes and encodes each value and gets the same JSON back,
// Python imports the module, Node loads the JavaScript tsc emits. A case
// the build refuses alone must be refused with a place (generate), and is
// left out of the catalog.
func TestHostileCodeCompiles(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles generated code with tsc, go and pyright")
	}
	var cases []hostile
	refused := 0
	for _, h := range allCases(t) {
		if g := generate(t, []hostile{h}, h.Text, false); len(g.refused) > 0 {
			refused++
			continue
		}
		cases = append(cases, h)
	}
	g := generate(t, cases, "the hostile catalog\n*/ \"\"\" `", true)
	if len(g.refused) > 0 {
		t.Fatalf("the cases that build alone are refused together: %v", g.refused)
	}
	check(t, g, true)
	e := expect(g)
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var ts, py, goCalls strings.Builder
	ts.WriteString("import type * as tools from \"./tools\";\n")
	py.WriteString("import tools\n\n")
	for i, tool := range e.model.Tools {
		var c int // the tool's case, by its namespace c<N>
		if _, err := fmt.Sscanf(tool.Source.Namespace, "c%d", &c); err != nil {
			t.Fatal(err)
		}
		inst, err := json.Marshal(cases[c].instance())
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&ts, "export const in%d: tools.%s = %s;\n", i, tool.Input, inst)
		fmt.Fprintf(&py, "in%d: tools.%s = %s\n", i, tool.Input, pyLiteral(cases[c].instance()))
		fmt.Fprintf(&goCalls, "\tcheck(%q, %q, new(tools.%s))\n", tool.Input, inst, tool.Input)
	}
	write("gen/tools.ts", g.ts)
	write("gen/check.ts", ts.String())
	write("gen/tools.py", g.py)
	write("gen/check.py", py.String())
	write("gen/pyrightconfig.json", `{"typeCheckingMode": "strict", "pythonVersion": "3.12", "reportUnnecessaryTypeIgnoreComment": "error"}`)
	write("gomod/tools/tools.go", g.goSrc)
	write("gomod/main/main.go", `package main

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"

	"example.com/hostile/tools"
)

// check decodes instance into v and encodes it again: the same JSON,
// every property under its name.
func check(name, instance string, v any) {
	if err := json.Unmarshal([]byte(instance), v); err != nil {
		fmt.Printf("%s: decoding %s: %v\n", name, instance, err)
		os.Exit(1)
	}
	out, err := json.Marshal(v)
	if err != nil {
		fmt.Printf("%s: encoding: %v\n", name, err)
		os.Exit(1)
	}
	var a, b any
	_ = json.Unmarshal([]byte(instance), &a)
	_ = json.Unmarshal(out, &b)
	if !reflect.DeepEqual(a, b) {
		fmt.Printf("%s: %s came back as %s\n", name, instance, out)
		os.Exit(1)
	}
}

func main() {
	var _ = tools.Decode
`+goCalls.String()+`	fmt.Println("ok")
}
`)
	root, _ := filepath.Abs(filepath.Join("..", ".."))
	write("gomod/go.mod", "module example.com/hostile\n\ngo 1.26\n\nrequire github.com/toolc-dev/toolc v0.0.0\n\nreplace github.com/toolc-dev/toolc => "+root+"\n")
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	write("gomod/go.sum", string(sum))
	t.Logf("%d cases (%d seeds and the fuzzer's finds): %d refused with a place, %d in one catalog of %d tools", len(cases)+refused, len(hostileSeeds), refused, len(cases), len(e.model.Tools))
	if len(cases) < len(hostileSeeds)/2 {
		t.Fatalf("only %d cases built: the oracle checks too little", len(cases))
	}
	t.Run("tsc", func(t *testing.T) {
		tsc := npmtest.Bin(t, "tsc", "typescript")
		if out, err := exec.Command(tsc, "--strict", "--noEmit", "--target", "es2022", filepath.Join(dir, "gen", "tools.ts"), filepath.Join(dir, "gen", "check.ts")).CombinedOutput(); err != nil {
			t.Errorf("tsc --strict: %v\n%.3000s", err, out)
		}
	})
	t.Run("go", func(t *testing.T) {
		for _, args := range [][]string{{"vet", "./..."}, {"run", "./main"}} {
			cmd := exec.Command("go", args...)
			cmd.Dir = filepath.Join(dir, "gomod")
			cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "GOPROXY=off")
			if out, err := cmd.CombinedOutput(); err != nil || args[0] == "run" && string(out) != "ok\n" {
				t.Errorf("go %s: %v\n%.3000s", args[0], err, out)
			}
		}
	})
	t.Run("pyright", func(t *testing.T) {
		pyright := npmtest.Bin(t, "pyright", "pyright")
		cmd := exec.Command(pyright, "-p", filepath.Join(dir, "gen", "pyrightconfig.json"), filepath.Join(dir, "gen", "tools.py"), filepath.Join(dir, "gen", "check.py"))
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("pyright --strict: %v\n%.3000s", err, out)
		}
	})
}

// pyLiteral is o as a Python literal: JSON's, but for Python's words.
func pyLiteral(v any) string {
	switch v := v.(type) {
	case object:
		var parts []string
		for _, m := range v {
			parts = append(parts, quoted(m.k, true)+": "+pyLiteral(m.v))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case string:
		return quoted(v, true)
	}
	return fmt.Sprint(v)
}

// TestToolAndInput: tools named tool and input, in one catalog, made one Go
// name, ToolInput (the input type of tool, the name constant of input).
// Each module now declares both, every name once.
func TestToolAndInput(t *testing.T) {
	fsys := hostileManifest([]hostile{{"tool", "q", "Tool.", "v"}}, "cat", false)
	data, err := json.Marshal(object{{"tools", []object{hostile{"tool", "q", "Tool.", "v"}.tool(), hostile{"input", "q", "Input.", "v"}.tool()}}})
	if err != nil {
		t.Fatal(err)
	}
	fsys["tools/0.json"].Data = data
	g := generateFrom(t, fsys, "tool and input")
	if len(g.refused) > 0 {
		t.Fatalf("refused: %v", g.refused)
	}
	check(t, g, false)
	if !strings.Contains(g.goSrc, "type ToolInput struct") || !strings.Contains(g.goSrc, `ToolInputName = "input"`) {
		t.Errorf("the Go module lacks the type ToolInput or the constant ToolInputName:\n%s", g.goSrc)
	}
}
