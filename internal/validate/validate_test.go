package validate

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/corpus"
	"github.com/toolc-dev/toolc/internal/schematest"
)

// failLoader fails the test if the validator ever asks for a URL: toolc
// must not read or fetch anything because a schema says so.
type failLoader struct{ t *testing.T }

func (l failLoader) Load(url string) (any, error) {
	l.t.Errorf("the validator tried to load %q", url)
	return nil, ErrRefused
}

func schemaOf(t *testing.T, s string) *canonical.Schema {
	t.Helper()
	sc, err := canonical.ParseSchema([]byte(s))
	if err != nil {
		t.Fatalf("ParseSchema(%s): %v", s, err)
	}
	return sc
}

func found(ds []diag.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Code+" "+d.Pointer)
	}
	slices.Sort(out)
	return out
}

func TestSchemaTable(t *testing.T) {
	for _, tc := range []struct {
		name, schema string
		want         []string
	}{
		{"valid 2020-12", `{"type": "object", "properties": {"a": {"type": "string", "minLength": 1}}}`, nil},
		{"draft-07 items array", `{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "properties": {"t": {"items": [{"type": "string"}], "additionalItems": false}}}`, nil},
		{"draft-04 exclusiveMinimum boolean", `{"$schema": "http://json-schema.org/draft-04/schema#", "type": "object", "properties": {"n": {"minimum": 0, "exclusiveMinimum": true}}}`, nil},
		{"2020-12 rejects boolean exclusiveMinimum", `{"type": "object", "properties": {"n": {"minimum": 0, "exclusiveMinimum": true}}}`, []string{"schema.invalid /properties/n/exclusiveMinimum"}},
		{"2019-09", `{"$schema": "https://json-schema.org/draft/2019-09/schema", "type": "object", "$defs": {"a": {"type": "string"}}, "properties": {"x": {"$ref": "#/$defs/a"}}}`, nil},
		{"unknown dialect", `{"$schema": "https://example.com/my-dialect", "type": "object"}`, []string{"schema.unknown-dialect /$schema"}},
		{"non-standard type", `{"type": "object", "properties": {"a": {"type": "dict"}}}`, []string{"schema.invalid /properties/a/type"}},
		{"required not an array", `{"type": "object", "required": "a"}`, []string{"schema.invalid /required"}},
		{"dangling definitions ref", `{"type": "object", "properties": {"a": {"$ref": "#/definitions/missing"}}}`, []string{"schema.dangling-ref /properties/a/$ref"}},
		{"dangling anchor", `{"type": "object", "properties": {"a": {"$ref": "#nowhere"}}}`, []string{"schema.dangling-ref /properties/a/$ref"}},
		{"anchor and pointer refs", `{"type": "object", "$defs": {"a b": {"$anchor": "ab", "type": "string"}}, "properties": {"x": {"$ref": "#ab"}, "y": {"$ref": "#/$defs/a%20b"}, "z": {"$ref": "#"}}}`, nil},
		{"remote ref", `{"type": "object", "properties": {"a": {"$ref": "https://example.com/s.json"}, "b": {"$ref": "other.json#/x"}}}`, []string{"schema.external-ref /properties/a/$ref", "schema.external-ref /properties/b/$ref"}},
		{"embedded resource", `{"$id": "https://example.com/root.json", "type": "object", "$defs": {"n": {"$id": "node.json", "type": "string"}}, "properties": {"a": {"$ref": "node.json"}, "b": {"$ref": "https://example.com/root.json#/$defs/n"}}}`, nil},
		{"meta-schema ref", `{"type": "object", "properties": {"s": {"$ref": "https://json-schema.org/draft/2020-12/schema"}}}`, nil},
		{"draft-07 id anchor", `{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "definitions": {"a": {"$id": "#foo", "type": "integer"}}, "properties": {"x": {"$ref": "#foo"}}}`, nil},
		{"bad regex", `{"type": "object", "properties": {"a": {"type": "string", "pattern": "(["}}}`, []string{"schema.invalid /properties/a/pattern"}},
		{"ECMA-only regex", `{"type": "object", "properties": {"a": {"type": "string", "pattern": "^(?!x)\\cC\\1$"}}}`, nil},
	} {
		v := New()
		v.Loader = failLoader{t}
		got := found(v.Schema(schemaOf(t, tc.schema)))
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: Schema(%s) = %q, want %q", tc.name, tc.schema, got, tc.want)
		}
	}
}

func TestMessagesInWords(t *testing.T) {
	ds := New().Schema(schemaOf(t, `{"type": "object", "properties": {"a": {"type": "dict"}}}`))
	if len(ds) != 1 || !strings.Contains(ds[0].Message, "/properties/a/type") || strings.Contains(ds[0].Message, "toolc:///") {
		t.Errorf("message = %v", ds)
	}
}

func TestToolLocatesInSource(t *testing.T) {
	doc, _ := canonical.ParseJSON([]byte(`[{"type": "function", "function": {"name": "x", "parameters": {"type": "object", "properties": {"a": {"$ref": "#/$defs/b"}}}}}]`))
	tool := &canonical.Tool{Name: "x", Description: "X.", Input: canonical.AsSchema(doc.Items()[0].Get("function").Get("parameters")),
		Source: canonical.Source{File: "f.json", Pointer: "/0", Fields: map[canonical.Pointer]canonical.Pointer{"/input": "/0/function/parameters"}}}
	ds := New().Tool(tool)
	if len(ds) != 1 || ds[0].File != "f.json" || ds[0].Pointer != "/0/function/parameters/properties/a/$ref" {
		t.Errorf("Tool = %v", ds)
	}
}

// corpusSchemas yields every tool schema of the MCP, Anthropic and LangChain
// corpus, and every JSON-Schema-Test-Suite schema.
func corpusSchemas(t *testing.T) map[string]*canonical.Schema {
	out := map[string]*canonical.Schema{}
	load := func(f string) *canonical.Value {
		_, v := schematest.ReadJSON(t, f)
		return v
	}
	add := func(name string, v *canonical.Value) {
		if v != nil && (v.Kind == canonical.Object || v.Kind == canonical.Bool) {
			out[name] = canonical.AsSchema(v)
		}
	}
	for _, pat := range []string{"mcp/github-mcp-server/current/*.json", "mcp/github-mcp-server/history/*.json", "mcp/spec/schema/*/examples/Tool/*.json"} {
		for _, f := range corpus.Glob(t, pat) {
			v := load(f)
			add(f+"#input", v.Get("inputSchema"))
			add(f+"#output", v.Get("outputSchema"))
		}
	}
	for _, f := range corpus.Glob(t, "mcp/reference-servers-py/*.json") {
		for i, tool := range load(f).Get("tools").Items() {
			add(f+"#"+string(rune('a'+i)), tool.Get("inputSchema"))
		}
	}
	for _, f := range corpus.Glob(t, "anthropic/*/*.json") {
		v := load(f)
		items := []*canonical.Value{v}
		if v.Kind == canonical.Array {
			items = v.Items()
		}
		for i, it := range items {
			add(f+"#"+string(rune('a'+i)), it.Get("input_schema"))
		}
	}
	for i, tool := range load(corpus.Path(t, "langchain/langchainjs-community-tools.json")).Get("tools").Items() {
		add("langchain#"+string(rune('A'+i)), tool.Get("args_json_schema"))
	}
	for _, f := range corpus.Glob(t, "jsonschema-test-suite/*/*.json") {
		v := load(f)
		if strings.Contains(f, "draft7") && v.Kind == canonical.Object && !v.Has("$schema") {
			// The suite's draft-07 files are draft-07 by folder; give them the
			// $schema a catalog would have to write.
			v = v.DeepCopy()
			v.SetMembers(append([]canonical.Member{{Key: "$schema", Value: canonical.NewString("http://json-schema.org/draft-07/schema#")}}, v.Members()...))
		}
		add(f, v)
	}
	return out
}

func TestCorpusHasNoFalseErrors(t *testing.T) {
	v := New()
	v.Loader = failLoader{t}
	schemas := corpusSchemas(t)
	// Real mistakes in the GitHub MCP server's history, which toolc must
	// report: "type": "Number", "int" and "any" are not JSON Schema types.
	trueErrors := []string{
		"list_gists@2025-11-18-acfc4e69.json#input /properties/page/type",
		"list_gists@2025-11-18-acfc4e69.json#input /properties/perPage/type",
		"update_project_item@2025-10-01-697691f3.json#input /properties/fields/items/properties/id/type",
		"update_project_item@2025-10-01-697691f3.json#input /properties/fields/items/properties/value/type",
	}
	var warnings int
	var errs []string
	for name, s := range schemas {
		for _, d := range v.Schema(s) {
			if d.Severity != diag.Error {
				warnings++
				continue
			}
			errs = append(errs, filepath.Base(name)+" "+d.Pointer)
			if d.Code != "schema.invalid" {
				t.Errorf("%s: %s", name, d)
			}
		}
	}
	slices.Sort(errs)
	if !slices.Equal(errs, trueErrors) {
		t.Errorf("errors on the corpus:\n%s\nwant exactly\n%s", strings.Join(errs, "\n"), strings.Join(trueErrors, "\n"))
	}
	t.Logf("%d corpus schemas validated: %d true errors, %d warnings", len(schemas), len(errs), warnings)
	if len(schemas) < 1700 {
		t.Errorf("only %d corpus schemas", len(schemas))
	}
}

func TestCacheReusesResults(t *testing.T) {
	v := New()
	s := schemaOf(t, `{"type": "object", "properties": {"a": {"type": "dict"}}}`)
	first := v.Schema(s)
	same := schemaOf(t, `{"properties": {"a": {"type": "dict"}}, "type": "object"}`)
	if !slices.Equal(found(v.Schema(same)), found(first)) {
		t.Error("cached result differs")
	}
	n := 0
	v.cache.Range(func(any, any) bool { n++; return true })
	if n != 1 {
		t.Errorf("cache holds %d entries for one schema content, want 1", n)
	}
}

func BenchmarkValidateCorpus(b *testing.B) {
	var schemas []*canonical.Schema
	for _, f := range mustGlob(b, "mcp/github-mcp-server/history/*.json") {
		data, _ := os.ReadFile(f)
		if v, err := canonical.ParseJSON(data); err == nil && v.Get("inputSchema").Kind == canonical.Object {
			schemas = append(schemas, canonical.AsSchema(v.Get("inputSchema")))
		}
	}
	b.ResetTimer()
	for b.Loop() {
		v := New() // no cache between iterations: the cost of a cold build
		for _, s := range schemas {
			v.Schema(s)
		}
	}
	b.ReportMetric(float64(len(schemas)), "schemas/op")
}

func mustGlob(b *testing.B, pat string) []string {
	files, _ := filepath.Glob(filepath.Join(corpus.Dir(b), pat))
	return files
}

func TestLintAndValues(t *testing.T) {
	for _, tc := range []struct {
		name, schema string
		want         []string
	}{
		{"clean", `{"type": "object", "properties": {"a": {"type": "string", "description": "A.", "default": "x", "enum": ["x", "y"], "examples": ["y"]}}}`, nil},
		{"default invalid", `{"type": "object", "properties": {"n": {"type": "integer", "description": "N.", "minimum": 1, "default": 0}}}`, []string{"lint.default-invalid /properties/n/default"}},
		{"const invalid", `{"type": "object", "properties": {"n": {"type": "string", "description": "N.", "const": 3}}}`, []string{"lint.const-invalid /properties/n/const"}},
		{"enum invalid and duplicate", `{"type": "object", "properties": {"n": {"type": "integer", "description": "N.", "enum": [1, "two", 1.0, 1]}}}`, []string{"lint.enum-duplicate /properties/n/enum/2", "lint.enum-duplicate /properties/n/enum/3", "lint.enum-invalid /properties/n/enum/1"}},
		{"examples invalid", `{"type": "object", "properties": {"s": {"type": "string", "description": "S.", "pattern": "^a", "examples": ["ab", "b"]}}}`, []string{"lint.example-invalid /properties/s/examples/1"}},
		{"value through $ref", `{"type": "object", "$defs": {"pos": {"type": "integer", "minimum": 1}}, "properties": {"p": {"$ref": "#/$defs/pos", "default": -1}}}`, []string{"lint.default-invalid /properties/p/default"}},
		{"parameter description", `{"type": "object", "properties": {"a": {"type": "string"}, "b": {"title": "B"}, "c": {"type": "object", "description": "C.", "properties": {"d": {"type": "number"}}}}}`, []string{"lint.parameter-description-missing /properties/a", "lint.parameter-description-missing /properties/c/properties/d"}},
		{"array items", `{"type": "object", "properties": {"a": {"type": ["array", "null"], "description": "A."}}}`, []string{"lint.array-items-missing /properties/a"}},
		{"required unknown", `{"type": "object", "properties": {"a": {"description": "A."}}, "required": ["a", "b"], "allOf": [{"required": ["c"], "properties": {"c": {"description": "C."}}}]}`, []string{"lint.required-unknown-property /required/1"}},
		{"unused def", `{"type": "object", "properties": {"a": {"$ref": "#/definitions/used"}}, "definitions": {"used": {"description": "U."}, "unused": {}, "chained": {"$anchor": "c"}}}`, []string{"lint.def-unused /definitions/unused"}},
		{"pattern for an ECMA-262 engine", `{"type": "object", "properties": {"p": {"type": "string", "description": "P.", "pattern": "^(?!.*\\.\\.)[a-z./]+$"}, "q": {"type": "string", "description": "Q.", "pattern": "^[a-z]+$"}}}`, []string{"lint.pattern-ecma /properties/p/pattern"}},
		{"def used through the base URI", `{"$id": "http://example.com/root.json", "type": "object", "properties": {"a": {"$ref": "http://example.com/root.json#/$defs/a"}, "b": {"$ref": "root.json#/$defs/b"}}, "$defs": {"a": {"description": "A."}, "b": {"description": "B."}, "c": {}}}`, []string{"lint.def-unused /$defs/c"}},
	} {
		v := New()
		s := schemaOf(t, tc.schema)
		ds := v.Schema(s)
		tool := &canonical.Tool{Name: "t", Description: "T.", Input: s, Source: canonical.Source{Fields: map[canonical.Pointer]canonical.Pointer{"/input": ""}}}
		ds = append(ds, New().Tool(tool)...)
		got := found(ds)
		got = slices.Compact(got)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestLintTool(t *testing.T) {
	obj := schemaOf(t, `{"type": "object", "properties": {"q": {"type": "string", "description": "Q.", "minLength": 2}}}`)
	tool := &canonical.Tool{Name: "t", Input: obj, Examples: []*canonical.Value{canonical.NewObject(), mustValue(t, `{"q": "x"}`)},
		Source: canonical.Source{File: "a.json", Pointer: "/0", Fields: map[canonical.Pointer]canonical.Pointer{"/input": "/0/input_schema", "/examples": "/0/input_examples", "/name": "/0/name"}}}
	got := found(New().Tool(tool))
	want := []string{"lint.description-missing /0/name", "lint.example-invalid /0/input_examples/1"}
	if !slices.Equal(got, want) {
		t.Errorf("Tool = %q, want %q", got, want)
	}
	// An external reference is a warning: the examples are still checked.
	ext := schemaOf(t, `{"type": "object", "properties": {"q": {"type": "string", "description": "Q."}, "r": {"$ref": "https://example.com/r.json"}}}`)
	withRef := &canonical.Tool{Name: "t", Description: "T.", Input: ext, Examples: []*canonical.Value{mustValue(t, `{"q": 1}`)}}
	if got := found(New().Tool(withRef)); !slices.Contains(got, "lint.example-invalid ") {
		t.Errorf("Tool with an external ref = %q, want the invalid example reported", got)
	}
	tool.Description = strings.Repeat("é", MaxDescription+1)
	if got := found(New().Tool(tool)); !slices.Contains(got, "lint.description-too-long /0") {
		t.Errorf("Tool with a long description = %q", got)
	}
}

func mustValue(t *testing.T, s string) *canonical.Value {
	v, err := canonical.ParseJSON([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestECMAPatternsEnforced: a pattern that RE2 cannot run (lookahead,
// lookbehind, a backreference) is run with an ECMA-262 engine when toolc
// validates a value, as decode does; it matched everything before, so
// ^(?!.*\.\.)[A-Za-z0-9_./-]+$ let ../../etc/passwd through.
func TestECMAPatternsEnforced(t *testing.T) {
	for _, tc := range []struct {
		pattern, value string
		ok             bool
	}{
		{`^(?!.*\.\.)[A-Za-z0-9_./-]+$`, "docs/readme.md", true},
		{`^(?!.*\.\.)[A-Za-z0-9_./-]+$`, "../../etc/passwd", false},
		{`(?<=\$)\d+`, "$42", true},
		{`(?<=\$)\d+`, "42", false},
		{`^(\w)\w*\1$`, "abca", true},
		{`^(\w)\w*\1$`, "abcd", false},
	} {
		s := schemaOf(t, `{"type": "object", "properties": {"v": {"type": "string", "pattern": `+strconv.Quote(tc.pattern)+`}}}`)
		c, err := New().Compile(s)
		if err != nil {
			t.Fatalf("Compile(%s): %v", tc.pattern, err)
		}
		v, _ := canonical.ParseJSON([]byte(`{"v": ` + strconv.Quote(tc.value) + `}`))
		if got := len(c.Check(v)) == 0; got != tc.ok {
			t.Errorf("pattern %s, value %q: valid = %v, want %v", tc.pattern, tc.value, got, tc.ok)
		}
	}
}

// TestBigEnumValuesCheckedWithoutTheEnum: an enum's own values are in it,
// so a big enum's values are validated against the schema without the
// enum; checking each of n values against all n was quadratic (100,000
// strings: a minute). The finding of a value that breaks the rest of its
// schema stays, in the quick path and in the full one (an $id sends a
// schema there); and the full path validates the values of a big enum
// against the enum not once.
func TestBigEnumValuesCheckedWithoutTheEnum(t *testing.T) {
	var enum []string
	for i := range 100 {
		enum = append(enum, strconv.Quote(fmt.Sprintf("v%d", i)))
	}
	enum[50] = "5" // not a string
	for _, id := range []string{"", `"$id": "urn:example:tool", `} {
		s := schemaOf(t, `{`+id+`"type": "object", "properties": {"e": {"type": "string", "description": "E.", "enum": [`+strings.Join(enum, ", ")+`]}}}`)
		var got []string
		for _, d := range New().Schema(s) {
			got = append(got, d.Code+" "+d.Pointer)
		}
		if !slices.Equal(got, []string{"lint.enum-invalid /properties/e/enum/50"}) {
			t.Errorf("with %q: %q, want the one value that is not a string", id, got)
		}
	}
	s := schemaOf(t, `{"type": "object", "properties": {"e": {"type": "string", "enum": [`+strings.Join(enum, ", ")+`]}, "f": {"enum": ["a", "b"]}}}`)
	c := New().newCompiler(jsonschema.Draft2020, s, nil)
	if _, err := c.Compile(baseURL); err != nil {
		t.Fatal(err)
	}
	calls := map[canonical.Pointer]int{}
	fs := checkValues(c, s, func(p canonical.Pointer) *jsonschema.Schema {
		calls[p]++
		cc := New().newCompiler(jsonschema.Draft2020, schemaOf(t, `{"type": "string"}`), nil)
		sch, _ := cc.Compile(baseURL)
		return sch
	})
	if len(fs) != 1 || !maps.Equal(calls, map[canonical.Pointer]int{"/properties/e": 1}) {
		t.Errorf("checkValues: %v findings, the schema without the enum made for %v; want 1 finding, and once for the big enum only", fs, calls)
	}
}

// TestUncheckedPattern: a value that a pattern only an ECMA-262 engine runs
// cannot decide in its time is unchecked, its own verdict, never "does not
// match" (issue 38: valid values were reported so).
func TestUncheckedPattern(t *testing.T) {
	s, err := canonical.ParseSchema([]byte(`{"type": "object", "properties": {"code": {"type": "string", "pattern": "^(?=.)(a+)+$"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	c, err := New().Compile(s)
	if err != nil {
		t.Fatal(err)
	}
	check := func(value string) []Problem {
		v, err := canonical.ParseJSON([]byte(value))
		if err != nil {
			t.Fatal(err)
		}
		return c.Check(v)
	}
	if ps := check(`{"code": "aaaa"}`); len(ps) != 0 {
		t.Errorf("a value that matches: %v", ps)
	}
	if ps := check(`{"code": "b"}`); len(ps) != 1 || ps[0].Unchecked || !strings.Contains(ps[0].Message, "pattern") {
		t.Errorf("a value that does not match: %v, want one problem of the pattern", ps)
	}
	ps := check(`{"code": "` + strings.Repeat("a", 40) + `!"}`) // backtracks past any budget
	if len(ps) != 1 || !ps[0].Unchecked {
		t.Fatalf("a value the pattern cannot decide in time: %v, want one unchecked verdict", ps)
	}
}

func TestMetaKey(t *testing.T) {
	for key, want := range map[string]string{
		"com.example/owner":              "",
		"dev.toolc/lifecycle":            "",
		"ui/resourceUri":                 "",
		"plain":                          "",
		"com.example/":                   "",
		"io.modelcontextprotocol/x":      "reserved",
		"dev.mcp/x":                      "reserved",
		"org.modelcontextprotocol.api/x": "reserved",
		"com.example.mcp/x":              "",
		"1com.example/x":                 "labels separated by dots",
		"com.example-/x":                 "labels separated by dots",
		"com.example/_x":                 "start and end with a letter or digit",
		"com.example/a b":                "start and end with a letter or digit",
	} {
		got := MetaKey(key)
		if want == "" && got != "" || want != "" && !strings.Contains(got, want) {
			t.Errorf("MetaKey(%q) = %q, want %q", key, got, want)
		}
	}
}
