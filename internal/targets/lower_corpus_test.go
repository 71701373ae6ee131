package targets

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/corpus"
	"github.com/toolc-dev/toolc/internal/formats"
	"github.com/toolc-dev/toolc/internal/lower"
	"github.com/toolc-dev/toolc/internal/par"
	"github.com/toolc-dev/toolc/internal/profile"
	"github.com/toolc-dev/toolc/internal/refs"
	"github.com/toolc-dev/toolc/internal/schematest"
	"github.com/toolc-dev/toolc/internal/validate"
)

// The formats that strict mode takes, as the strict profiles of OpenAI and
// Anthropic list them.
var (
	strictFormatsOpenAI    = strictFormats("openai")
	strictFormatsAnthropic = strictFormats("anthropic")
)

func strictFormats(format string) []string {
	p, _ := profile.Of(format)
	return p.Schema["strict"].Row("format").Values
}

// targetConfig is one target with its options, as a manifest would set it.
type targetConfig struct {
	name   string
	format string
	opts   profile.Options
}

func targetConfigs() []targetConfig {
	yes := true
	return []targetConfig{
		{"mcp", "mcp", profile.Options{}},
		{"openai", "openai", profile.Options{}},
		{"openai-strict", "openai", profile.Options{Strict: &yes}},
		{"openai-responses", "openai-responses", profile.Options{}},
		{"openai-responses-strict", "openai-responses", profile.Options{Strict: &yes}},
		{"anthropic", "anthropic", profile.Options{}},
		{"anthropic-strict", "anthropic", profile.Options{Strict: &yes}},
		{"gemini", "gemini", profile.Options{}},
		{"gemini-openapi", "gemini", profile.Options{Schema: "openapi"}},
		{"gemini-openapi-describe", "gemini", profile.Options{Schema: "openapi", Describe: true}},
		{"bedrock", "bedrock", profile.Options{}},
		{"canonical", "canonical", profile.Options{}},
		{"jsonschema", "jsonschema", profile.Options{}},
		{"xai", "openai", profile.Options{Dialect: "xai"}},
		{"groq", "openai", profile.Options{Dialect: "groq"}},
		{"mistral", "openai", profile.Options{Dialect: "mistral"}},
		{"deepseek", "openai", profile.Options{Dialect: "deepseek"}},
		{"compatible", "openai", profile.Options{Dialect: "compatible"}},
		{"mcp-clients", "mcp", profile.Options{Clients: []string{"vscode", "claude-desktop", "cursor", "windsurf"}}},
	}
}

// TestCorpusDocsAccepted builds every tool document of the corpus (MCP
// servers, OpenAI, BFCL and ToolBench functions, repaired as repair = true
// does, Anthropic's examples, LangChain's tools) to every target and mode:
// no bundle has an acceptance error.
func TestCorpusDocsAccepted(t *testing.T) {
	corpus.Heavy(t)
	reg := allFormats()
	docs, tools := 0, 0
	all := corpusDocs(t)
	for _, f := range corpus.Glob(t, "langchain/*.json") {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, corpusDoc{name: f, format: "langchain", doc: parse(t, data)})
	}
	// One document per task, on every core: each is decoded, checked and
	// emitted on its own; what each finds is reported in order after.
	type result struct {
		tools    int
		failures []string
	}
	results := make([]result, len(all))
	par.For(len(all), 8, func(i int) {
		cd := all[i]
		a, _ := reg.Get(cd.format)
		ts, ds := a.Decode(cd.doc, cd.name)
		for _, tl := range ts {
			ds = append(ds, validate.Repair(tl)...) // BFCL's dict and float, as repair = true does
		}
		ds = append(ds, formats.CheckSchemas(ts)...)
		ts = slices.DeleteFunc(ts, func(tl *canonical.Tool) bool {
			_, err := compileRaw(tl.Input.JSON().Indent())
			return err != nil || slices.ContainsFunc(ds, func(d diag.Diagnostic) bool { return d.Severity == diag.Error && d.Tool == tl.ID() })
		})
		results[i].tools = len(ts)
		if len(ts) == 0 {
			return
		}
		for _, tc := range targetConfigs() {
			t2, _ := reg.Get(tc.format)
			for _, d := range t2.Emit(context.Background(), ts, tc.name, tc.opts).All() {
				if strings.HasPrefix(d.Code, "accept.") && d.Severity == diag.Error {
					results[i].failures = append(results[i].failures, fmt.Sprintf("%s to %s: %s", cd.name, tc.name, d))
				}
			}
		}
	})
	for _, r := range results {
		for _, f := range r.failures {
			t.Error(f)
		}
		if r.tools > 0 {
			docs++
			tools += r.tools
		}
	}
	t.Logf("%d tools of %d documents to %d targets and modes", tools, docs, len(targetConfigs()))
}

// mcpCorpus returns the tools of every MCP document in the corpus, one
// slice per document (one server: names are unique in it).
func mcpCorpus(t *testing.T) map[string][]*canonical.Tool {
	docs := map[string][]*canonical.Tool{}
	var files []string
	for _, pat := range []string{"mcp/github-mcp-server/current/*.json", "mcp/github-mcp-server/history/*.json",
		"mcp/github-mcp-server/tools_list.current.json", "mcp/reference-servers-py/*.json", "mcp/spec/schema/*/examples/Tool/*.json"} {
		files = append(files, corpus.Glob(t, pat)...)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := canonical.ParseJSON(data)
		if err != nil || formats.Default().Detect(doc).Score("mcp") < 0.5 {
			continue
		}
		tools, ds := formats.MCP().Decode(doc, f)
		if diag.HasErrors(append(ds, formats.CheckSchemas(tools)...)) {
			continue // the historical get_me tools with a null inputSchema
		}
		// A schema its meta-schema rejects ("type": "int") is the error
		// schema.invalid before anything is lowered.
		tools = slices.DeleteFunc(tools, func(t *canonical.Tool) bool {
			_, err := compileRaw(t.Input.JSON().Indent())
			return err != nil
		})
		docs[f] = tools
	}
	return docs
}

// TestLowerCorpusToEveryTarget lowers every MCP tool of the corpus to every
// target and checks what each provider's rules in PROVIDERS.md say: legal
// and unique names, strict output that passes every strict rule, Gemini
// OpenAPI output without what that schema lacks, idempotence, and no
// change to the input.
func TestLowerCorpusToEveryTarget(t *testing.T) {
	corpus.Heavy(t)
	docs := mcpCorpus(t)
	if len(docs) == 0 {
		t.Fatal("no MCP documents in the corpus")
	}
	reg := allFormats()
	counts := map[string]int{}
	tools := 0
	// One document per task, on every core; what each finds is reported
	// in order after.
	files := slices.Sorted(maps.Keys(docs))
	type result struct {
		counts   map[string]int
		failures []string
	}
	results := make([]result, len(files))
	par.For(len(files), 1, func(i int) {
		f, r := files[i], &results[i]
		r.counts = map[string]int{}
		fail := func(format string, args ...any) { r.failures = append(r.failures, fmt.Sprintf(format, args...)) }
		ts := docs[f]
		before := make([]string, len(ts))
		for i, tl := range ts {
			before[i] = tl.Hash()
		}
		for _, tc := range targetConfigs() {
			a, _ := reg.Get(tc.format)
			low := a.Emit(context.Background(), ts, tc.name, tc.opts)
			for _, d := range low.All() {
				r.counts[d.Code]++
				if d.Severity == diag.Error {
					fail("%s to %s: %s", f, tc.name, d)
				}
			}
			seen := map[string]bool{}
			for _, tl := range low.Tools {
				if !a.Profile.Name.Match(tl.Name) && a.Profile.Name.Max > 0 || seen[tl.ID()] {
					fail("%s to %s: name %q is illegal or repeated", f, tc.name, tl.ID())
				}
				seen[tl.ID()] = true
				var problems []string
				switch {
				case tc.opts.Strict != nil && strings.HasPrefix(tc.format, "openai"):
					problems = checkStrict(tl.Input, strictFormatsOpenAI, true)
				case tc.opts.Strict != nil:
					problems = checkStrict(tl.Input, strictFormatsAnthropic, false)
				case tc.opts.Schema == "openapi":
					problems = checkGeminiOpenAPI(tl.Input)
					if tl.Output != nil {
						problems = append(problems, checkGeminiOpenAPI(tl.Output)...)
					}
				}
				for _, p := range problems {
					fail("%s to %s: tool %s: %s", f, tc.name, tl.Name, p)
				}
			}
			again := a.Profile.Lower(context.Background(), low.Tools, tc.name, tc.opts)
			for i := range low.Tools {
				if !again.Tools[i].Input.Equal(low.Tools[i].Input) || again.Tools[i].Name != low.Tools[i].Name {
					fail("%s to %s: lowering tool %s again changes it", f, tc.name, low.Tools[i].Name)
				}
			}
		}
		for i, tl := range ts {
			if tl.Hash() != before[i] {
				fail("%s: lowering changed the canonical tool %s", f, tl.ID())
			}
		}
	})
	for i, r := range results {
		tools += len(docs[files[i]])
		for _, f := range r.failures {
			t.Error(f)
		}
		for c, n := range r.counts {
			counts[c] += n
		}
	}
	var lines []string
	for _, c := range slices.Sorted(maps.Keys(counts)) {
		lines = append(lines, fmt.Sprintf("%s=%d", c, counts[c]))
	}
	t.Logf("%d MCP tools in %d documents lowered to %d targets; diagnostics: %s", tools, len(docs), len(targetConfigs()), strings.Join(lines, " "))
}

// checkStrict lists how s breaks the strict-mode rules of PROVIDERS.md.
func checkStrict(s *canonical.Schema, formats []string, openai bool) []string {
	var out []string
	forbidden := []string{"oneOf", "allOf", "not", "if", "then", "else", "dependentRequired", "dependentSchemas", "dependencies",
		"minLength", "maxLength", "uniqueItems", "contains", "prefixItems", "patternProperties", "propertyNames",
		"minProperties", "maxProperties", "unevaluatedProperties", "unevaluatedItems", "$schema", "$id", "$comment"}
	if openai {
		forbidden = append(forbidden, "default")
	} else {
		forbidden = append(forbidden, "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "maxItems")
	}
	for p, sub := range s.All() {
		if !sub.IsObject() {
			continue
		}
		n := sub.JSON()
		for _, k := range forbidden {
			if n.Has(k) {
				out = append(out, fmt.Sprintf("%s has %s", p, k))
			}
		}
		if f, ok := n.Get("format").StringValue(); ok && !slices.Contains(formats, f) {
			out = append(out, fmt.Sprintf("%s has format %q", p, f))
		}
		if pat, ok := n.Get("pattern").StringValue(); ok && openai && strings.Contains(pat, "(?") {
			out = append(out, fmt.Sprintf("%s has a pattern with lookaround", p))
		}
		if mi := n.Get("minItems"); mi != nil && !openai && mi.Text() != "0" && mi.Text() != "1" {
			out = append(out, fmt.Sprintf("%s has minItems %s", p, mi.Text()))
		}
		ts, _ := n.Get("type").Strings()
		if t, ok := n.Get("type").StringValue(); ok {
			ts = []string{t}
		}
		if slices.Contains(ts, "object") || n.Has("properties") {
			if ap := n.Get("additionalProperties"); ap == nil || ap.Kind != canonical.Bool || ap.Bool {
				out = append(out, fmt.Sprintf("%s: an object without additionalProperties: false", p))
			}
			req, _ := n.Get("required").Strings()
			for _, k := range n.Get("properties").Keys() {
				if openai && !slices.Contains(req, k) { // Anthropic keeps required as written (PROVIDERS.md, corrections)
					out = append(out, fmt.Sprintf("%s: property %q is not required", p, k))
				}
			}
		}
	}
	return out
}

// checkGeminiOpenAPI lists what s has that Gemini's OpenAPI schema lacks.
func checkGeminiOpenAPI(s *canonical.Schema) []string {
	allowed := []string{"anyOf", "default", "description", "enum", "format", "items", "maxItems", "maxLength", "maxProperties",
		"maximum", "minItems", "minLength", "minProperties", "minimum", "nullable", "pattern", "properties", "propertyOrdering",
		"required", "title", "type"}
	var out []string
	for p, sub := range s.All() {
		if !sub.IsObject() {
			continue
		}
		for _, m := range sub.JSON().Members() {
			if !slices.Contains(allowed, m.Key) {
				out = append(out, fmt.Sprintf("%s has %s", p, m.Key))
			}
			if m.Key == "type" && (m.Value.Kind != canonical.String || m.Value.Text() != strings.ToUpper(m.Value.Text())) {
				out = append(out, fmt.Sprintf("%s has type %s", p, m.Value.AppendJSON(nil, "")))
			}
			if m.Key == "enum" && slices.ContainsFunc(m.Value.Items(), func(v *canonical.Value) bool { return v.Kind != canonical.String }) {
				out = append(out, fmt.Sprintf("%s has a non-string enum", p))
			}
		}
	}
	return out
}

// TestMCPBundleListedByClient serves the MCP bundle of the corpus's current
// GitHub server with the official Go SDK and lists it with an SDK client.
func TestMCPBundleListedByClient(t *testing.T) {
	data, err := os.ReadFile(corpus.Path(t, "mcp/github-mcp-server/tools_list.current.json"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := allFormats().Convert(parse(t, data), "tools.json", "mcp", "mcp", profile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var list mcp.ListToolsResult
	if err := json.Unmarshal(res.Bundle.Indent(), &list); err != nil {
		t.Fatal(err)
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "corpus", Version: "1.0.0"}, nil)
	for _, tl := range list.Tools {
		server.AddTool(tl, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return nil, nil })
	}
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "1.0.0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	var names []string
	for tl, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, tl.Name)
	}
	var want []string
	for _, tl := range list.Tools {
		want = append(want, tl.Name)
	}
	sort.Strings(names)
	sort.Strings(want)
	if !slices.Equal(names, want) || len(names) == 0 {
		t.Errorf("client listed %d tools %v, want %d", len(names), names, len(want))
	}
}

// TestJSONSchemaBundleCompiles checks that the jsonschema bundle of the
// corpus is one schema that a validator compiles, with every tool's entry
// usable by reference.
func TestJSONSchemaBundleCompiles(t *testing.T) {
	corpus.Heavy(t)
	for f, tools := range mcpCorpus(t) {
		if !strings.Contains(f, "current") {
			continue
		}
		a, _ := allFormats().Get("jsonschema")
		low := a.Profile.Lower(context.Background(), tools, "jsonschema", profile.Options{})
		doc := a.Encode(low, profile.Options{})
		var v any
		if err := json.Unmarshal(doc.Indent(), &v); err != nil {
			t.Fatal(err)
		}
		c := jsonschema.NewCompiler()
		if err := c.AddResource("toolc:///bundle.json", v); err != nil {
			t.Fatal(err)
		}
		for _, tl := range low.Tools {
			if _, err := c.Compile("toolc:///bundle.json#/$defs/" + strings.ReplaceAll(tl.ID(), "~", "~0")); err != nil {
				t.Errorf("%s: %s: %v", f, tl.ID(), err)
			}
		}
	}
}

// TestCorpusCheckersCatch makes sure the rule checks above can fail.
func TestCorpusCheckersCatch(t *testing.T) {
	s, _ := canonical.ParseSchema([]byte(`{"type":"object","properties":{"a":{"type":["string","null"],"oneOf":[{"const":1}],"minLength":1,"format":"uri"},"b":{"$ref":"#/$defs/b"}},"$defs":{"b":{"type":"object"}}}`))
	if got := checkStrict(s, strictFormatsOpenAI, true); len(got) != 7 {
		t.Errorf("checkStrict found %q, want 7 problems", got)
	}
	if got := checkGeminiOpenAPI(s); len(got) != 7 {
		t.Errorf("checkGeminiOpenAPI found %q, want 7 problems", got)
	}
}

// TestLowerTestSuiteSchemas lowers every schema of the JSON-Schema-Test-Suite
// (the keyword coverage real tools lack: recursion, anchors, tuples,
// conditionals) with every mode of every profile: nothing may panic, the
// input must not change, lowering must be idempotent, a target without $ref
// must get none, and what a 2020-12 target gets must still compile.
func TestLowerTestSuiteSchemas(t *testing.T) {
	corpus.Heavy(t)
	n := 0
	for _, ts := range schematest.SuiteSchemas(t) {
		f, s, data := ts.File, ts.Schema, []byte(ts.Text)
		n++
		for _, format := range profile.Formats() {
			p, _ := profile.Of(format)
			for mode, rules := range p.Schema {
				before := s.DeepCopy()
				res := lower.Schema(s, rules, lower.Options{Describe: true})
				if !lower.Applies(s, rules) && (len(res.Changes) > 0 || !res.Schema.Equal(s)) {
					t.Errorf("%s (%s %s): Applies says nothing to do, but lowering gives %v", f, format, mode, res.Changes)
				}
				if !s.Equal(before) {
					t.Fatalf("%s (%s %s): the input changed", f, format, mode)
				}
				if again := lower.Schema(res.Schema, rules, lower.Options{Describe: true}); !again.Schema.Equal(res.Schema) {
					t.Errorf("%s (%s %s): not idempotent:\n%s\nthen\n%s", f, format, mode, res.Schema.JSON().Indent(), again.Schema.JSON().Indent())
				}
				if rules.Action("$ref") == lower.Inline {
					for p, sub := range res.Schema.All() {
						if sub.IsObject() && sub.JSON().Has("$ref") {
							t.Errorf("%s (%s %s): $ref left at %s", f, format, mode, p)
						}
					}
				}
				if mode == "openapi" {
					continue
				}
				var v any
				json.Unmarshal(res.Schema.JSON().Indent(), &v)
				c := jsonschema.NewCompiler()
				c.UseLoader(refuseLoader{})
				if err := c.AddResource("toolc:///s.json", v); err == nil {
					if _, err := c.Compile("toolc:///s.json"); err != nil && !strings.Contains(err.Error(), "refused") {
						if _, err0 := compileRaw(data); err0 == nil {
							t.Errorf("%s (%s %s): the lowered schema does not compile: %v", f, format, mode, err)
						}
					}
				}
			}
		}
	}
	t.Logf("%d test-suite schemas lowered with every profile mode", n)
}

type refuseLoader struct{}

func (refuseLoader) Load(url string) (any, error) { return nil, fmt.Errorf("refused %s", url) }

func compileRaw(data []byte) (*jsonschema.Schema, error) {
	var v any
	json.Unmarshal(data, &v)
	c := jsonschema.NewCompiler()
	c.UseLoader(refuseLoader{})
	if err := c.AddResource("toolc:///s.json", v); err != nil {
		return nil, err
	}
	return c.Compile("toolc:///s.json")
}

// TestTestSuiteRefsAccepted builds every JSON-Schema-Test-Suite schema
// whose references all resolve inside it (through JSON Pointers, $id,
// $anchor and relative URIs; the validator says so) as the input of a tool,
// for MCP, OpenAI, Anthropic and Bedrock: no target may refuse a reference
// that resolves (accept.ref), nor drop one as "another document"
// (PROVIDERS.md, late 2026: an embedded $id resource is part of the same
// document).
func TestTestSuiteRefsAccepted(t *testing.T) {
	reg := allFormats()
	v := validate.New()
	schemas, refused, dropped, metas := 0, 0, 0, 0
	for _, ts := range schematest.SuiteSchemas(t) {
		f, s := ts.File, ts.Schema
		if !s.IsObject() || !strings.Contains(ts.Text, "$ref") {
			continue
		}
		root := s.JSON()
		if strings.Contains(f, "draft7") && !root.Has("$schema") {
			// The suite's draft7 schemas are draft-07 without saying so.
			root.SetMembers(append([]canonical.Member{{Key: "$schema", Value: canonical.NewString("http://json-schema.org/draft-07/schema#")}}, root.Members()...))
		}
		if typ := s.Types(); typ != nil && !slices.Equal(typ, []string{"object"}) {
			continue
		}
		outside := slices.DeleteFunc(refs.IndexOf(root).All(), func(r refs.Ref) bool { return r.Result.Local })
		if len(v.Schema(s)) > 0 || slices.ContainsFunc(outside, func(r refs.Ref) bool { return !metaSchema(r.Value) }) {
			continue // a reference outside (but to a meta-schema), dangling, or another error: not this test's
		}
		if len(outside) > 0 {
			metas++
		}
		if !root.Has("type") {
			root.SetMembers(append([]canonical.Member{{Key: "type", Value: canonical.NewString("object")}}, root.Members()...))
		}
		schemas++
		tool := &canonical.Tool{Name: "t", Description: "d", Input: s, Source: canonical.Source{File: f, Fields: map[canonical.Pointer]canonical.Pointer{}}}
		yes := true
		for _, tc := range []struct {
			to   string
			opts profile.Options
		}{{"mcp", profile.Options{}}, {"openai", profile.Options{}}, {"anthropic", profile.Options{}}, {"bedrock", profile.Options{}},
			{"openai", profile.Options{Strict: &yes}}, {"anthropic", profile.Options{Strict: &yes}}, {"bedrock", profile.Options{Strict: &yes}}} {
			to := tc.to
			a, _ := reg.Get(to)
			low := a.Emit(context.Background(), []*canonical.Tool{tool}, to, tc.opts)
			if to == "mcp" && !low.Tools[0].Input.Equal(s) {
				t.Errorf("%s → mcp: the schema changed: the MCP round trip is exact", filepath.Base(f))
			}
			for _, d := range low.All() {
				switch {
				case d.Code == "accept.ref":
					refused++
					t.Errorf("%s → %s: %s", filepath.Base(f), to, d.Message)
				case strings.Contains(d.Message, "another document") && !(to != "mcp" && d.Code == "loss.ref" && metaSchemaIn(d.Message)):
					// A provider fetches nothing, so a meta-schema's
					// reference is dropped, with loss.ref; MCP keeps it.
					dropped++
					t.Errorf("%s → %s: %s", filepath.Base(f), to, d.Message)
				}
			}
		}
	}
	t.Logf("%d test-suite schemas with references that resolve (%d of them to a meta-schema): %d refused, %d dropped as another document", schemas, metas, refused, dropped)
	if schemas < 40 || metas < 2 {
		t.Errorf("only %d schemas, %d with a meta-schema reference", schemas, metas)
	}
}

// metaSchemas are the meta-schemas of the dialects, as references name them.
var metaSchemas = []string{"http://json-schema.org/draft-04/schema", "http://json-schema.org/draft-06/schema", "http://json-schema.org/draft-07/schema",
	"https://json-schema.org/draft/2019-09/schema", "https://json-schema.org/draft/2020-12/schema"}

func metaSchema(ref string) bool { return slices.Contains(metaSchemas, strings.TrimSuffix(ref, "#")) }

func metaSchemaIn(msg string) bool {
	return slices.ContainsFunc(metaSchemas, func(m string) bool { return strings.Contains(msg, m) })
}

// TestAppliesHoldsOnTheCorpus: where lower.Applies says a rule set has
// nothing to do with a tool's schema (the schema is then emitted as it is,
// uncopied), lowering it anyway changes and reports nothing, for every
// schema of the MCP corpus under every mode of every profile. The passes'
// checks that make Applies say so must never miss a change.
func TestAppliesHoldsOnTheCorpus(t *testing.T) {
	corpus.Heavy(t)
	docs := mcpCorpus(t)
	files := slices.Sorted(maps.Keys(docs))
	failures := make([][]string, len(files))
	skipped := make([]int, len(files))
	par.For(len(files), 1, func(i int) {
		for _, tl := range docs[files[i]] {
			for _, s := range []*canonical.Schema{tl.Input, tl.Output} {
				if s == nil {
					continue
				}
				for _, format := range profile.Formats() {
					p, _ := profile.Of(format)
					for _, mode := range slices.Sorted(maps.Keys(p.Schema)) {
						rules := p.Schema[mode]
						if lower.Applies(s, rules) {
							continue
						}
						skipped[i]++
						if res := lower.Schema(s, rules, lower.Options{}); len(res.Changes) > 0 || !res.Schema.Equal(s) {
							failures[i] = append(failures[i], fmt.Sprintf("%s: %s (%s %s): Applies says nothing to do, but lowering gives %v", files[i], tl.ID(), format, mode, res.Changes))
						}
					}
				}
			}
		}
	})
	n := 0
	for i := range files {
		n += skipped[i]
		for _, f := range failures[i] {
			t.Error(f)
		}
	}
	if n == 0 {
		t.Fatal("Applies never said a schema needs nothing: the test tests nothing")
	}
	t.Logf("%d schema and rule pairs needed no lowering, and got none", n)
}
