package adapters

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/bundle"
	"github.com/toolc-dev/toolc/internal/corpus"
	"github.com/toolc-dev/toolc/internal/profile"
)

// corpusDoc is one corpus document with the format it is in.
type corpusDoc struct {
	name   string
	format string
	doc    *canonical.Value
}

func parse(t testing.TB, data []byte) *canonical.Value {
	t.Helper()
	v, err := canonical.ParseJSON(data)
	if err != nil {
		t.Fatalf("ParseJSON: %v", err)
	}
	return v
}

// corpusDocs loads every MCP, OpenAI and Anthropic tool document of the
// corpus. The JSON-lines files become one document per line (the "function"
// member, a legacy OpenAI function).
func corpusDocs(t testing.TB) []corpusDoc {
	var docs []corpusDoc
	add := func(format string, patterns ...string) {
		for _, pat := range patterns {
			for _, f := range corpus.Glob(t, pat) {
				data, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				docs = append(docs, corpusDoc{name: f, format: format, doc: parse(t, data)})
			}
		}
	}
	add("mcp", "mcp/github-mcp-server/current/*.json", "mcp/reference-servers-py/*.json", "mcp/spec/schema/*/examples/Tool/*.json")
	add("openai", "openai/cookbook/*.json")
	add("anthropic", "anthropic/*/*.json")
	for _, f := range []string{"openai/bfcl/all_functions.distinct.jsonl", "openai/toolbench/answer_functions.distinct.jsonl"} {
		for i, l := range corpus.Lines(t, f) {
			docs = append(docs, corpusDoc{name: fmt.Sprintf("%s:%d", f, i+1), format: "openai", doc: parse(t, l).Get("function")})
		}
	}
	return docs
}

// jsonEqual compares two JSON texts as JSON values (member order ignored,
// number text kept).
func jsonEqual(a, b []byte) bool {
	var x, y any
	da, db := json.NewDecoder(bytes.NewReader(a)), json.NewDecoder(bytes.NewReader(b))
	da.UseNumber()
	db.UseNumber()
	if da.Decode(&x) != nil || db.Decode(&y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// sourceTools returns the tool objects of a document as the format's encoder
// writes them (for OpenAI legacy functions: wrapped as Chat tools).
func sourceTools(format string, doc *canonical.Value) []*canonical.Value {
	items, _ := toolList(doc)
	var out []*canonical.Value
	for _, it := range items {
		switch s := shapeOf(it); {
		case s == shapeAnthropicDef || s == shapeOpenAIHosted:
			continue
		case format == "openai" && s != shapeChat:
			w := canonical.NewObject()
			w.Set("type", canonical.NewString("function"))
			w.Set("function", it)
			out = append(out, w)
		default:
			out = append(out, it)
		}
	}
	return out
}

func TestSameFormatRoundTripCorpus(t *testing.T) {
	reg := Default()
	counts := map[string]int{}
	for _, cd := range corpusDocs(t) {
		a, _ := reg.Get(cd.format)
		tools, ds := a.Decode(cd.doc, cd.name)
		ds = append(ds, CheckSchemas(tools)...)
		if diag.HasErrors(ds) {
			// BFCL's non-standard types ("dict") need repair = true; without
			// it they must fail as schema.not-object, nothing else.
			for _, d := range ds {
				if d.Severity == diag.Error && d.Code != "schema.not-object" {
					t.Errorf("%s: %s", cd.name, d)
				}
			}
			continue
		}
		low := a.Profile.Lower(context.Background(), tools, cd.format, profile.Options{})
		for _, d := range low.All() {
			// BFCL has dotted names, illegal for OpenAI; limits change nothing.
			if d.Code != "name.rewritten" && !strings.HasPrefix(d.Code, "limit.") {
				t.Errorf("%s: same-format lowering reported %s", cd.name, d)
			}
		}
		bundle := a.Encode(low.Tools, profile.Options{})
		got, _ := toolList(bundle)
		want := sourceTools(cd.format, cd.doc)
		if len(got) != len(want) {
			t.Errorf("%s: %d tools out, want %d", cd.name, len(got), len(want))
			continue
		}
		for i := range got {
			// An empty description is no description in canonical form
			// (providers treat both alike), so it is not written back.
			if d, ok := want[i].Get("description").StringValue(); ok && d == "" {
				want[i] = want[i].DeepCopy()
				want[i].Delete("description")
			}
			g, w := got[i].AppendJSON(nil, ""), want[i].AppendJSON(nil, "")
			if cd.format == "openai" && !want[i].Get("function").Has("parameters") {
				continue // parameters are made explicit; checked in TestOpenAIMissingParameters
			}
			if !jsonEqual(g, w) {
				t.Errorf("%s: tool %d changed in a round trip:\n got %s\nwant %s", cd.name, i, g, w)
			}
		}
		for i, tool := range tools {
			// Schemas keep member order exactly.
			if !tool.Input.Equal(low.Tools[i].Input) {
				t.Errorf("%s: input schema of %s changed", cd.name, tool.Name)
			}
		}
		counts[cd.format] += len(tools)
	}
	t.Logf("round-tripped tools: %v", counts)
	// OpenAI: cookbook and ToolBench; BFCL's "type": "dict" schemas wait for
	// repair and fail above as schema.not-object.
	if counts["mcp"] < 117 || counts["anthropic"] < 25 || counts["openai"] < 58 {
		t.Errorf("too few tools round-tripped: %v", counts)
	}
}

func TestDetectCorpus(t *testing.T) {
	reg := Default()
	for _, cd := range corpusDocs(t) {
		d := reg.Detect(cd.doc)
		if d.Err != nil || d.Format != cd.format {
			t.Errorf("Detect(%s) = %q, %v; want %s (scores %v)", cd.name, d.Format, d.Err, cd.format, d.Scores)
		}
	}
}

func TestDetectAmbiguous(t *testing.T) {
	reg := Default()
	for _, in := range []string{`[]`, `{}`, `"x"`, `[{"foo": 1}]`, `[{"inputSchema": {}}, {"input_schema": {}}]`} {
		d := reg.Detect(parse(t, []byte(in)))
		if !errors.Is(d.Err, ErrAmbiguous) {
			t.Errorf("Detect(%s) = %q, %v; want ErrAmbiguous", in, d.Format, d.Err)
		}
	}
	for in, want := range map[string]string{
		`{"tools": []}`: "mcp",
		`{"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "a", "inputSchema": {"type": "object"}}]}}`: "mcp",
		`{"model": "gpt", "tools": [{"type": "function", "function": {"name": "a"}}]}`:                         "openai",
		`[{"name": "a", "description": "only"}]`:                                                               "openai",
		`{"tools": [{"name": "a", "input_schema": {"type": "object"}}]}`:                                       "anthropic",
	} {
		if d := reg.Detect(parse(t, []byte(in))); d.Format != want {
			t.Errorf("Detect(%s) = %q, %v; want %s", in, d.Format, d.Err, want)
		}
	}
}

// TestMCPBundleAcceptedBySDK checks the MCP bundle of every corpus tool
// against the official Go SDK: it must unmarshal as a ListToolsResult, and
// every tool must be accepted by Server.AddTool (which panics on a bad input
// schema).
func TestMCPBundleAcceptedBySDK(t *testing.T) {
	reg := Default()
	var all []*canonical.Tool
	for _, cd := range corpusDocs(t) {
		a, _ := reg.Get(cd.format)
		tools, ds := a.Decode(cd.doc, cd.name)
		if !diag.HasErrors(append(ds, CheckSchemas(tools)...)) {
			all = append(all, tools...)
		}
	}
	mcpProfile, _ := profile.Of("mcp")
	var clean []*canonical.Tool
	for _, tl := range mcpProfile.Lower(context.Background(), all, "mcp", profile.Options{}).Tools {
		if mcpProfile.Name.Match(tl.Name) {
			clean = append(clean, tl)
		}
	}
	// Tools from several files share names; keep one per name as a server would.
	seen := map[string]bool{}
	clean = slices.DeleteFunc(clean, func(tl *canonical.Tool) bool { d := seen[tl.Name]; seen[tl.Name] = true; return d })
	bundle := encodeMCP(clean, profile.Options{Catalog: profile.Catalog{Name: "corpus", Version: "1.0.0"}})
	var res mcp.ListToolsResult
	if err := json.Unmarshal(bundle.Indent(), &res); err != nil {
		t.Fatalf("the SDK cannot read the MCP bundle: %v", err)
	}
	if len(res.Tools) != len(clean) {
		t.Fatalf("SDK read %d tools, want %d", len(res.Tools), len(clean))
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "corpus", Version: "1.0.0"}, nil)
	for _, tl := range clean {
		st, err := sdkTool(tl)
		if err != nil {
			t.Fatalf("sdkTool(%s): %v", tl.Name, err)
		}
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("Server.AddTool(%s) panicked: %v", tl.Name, r)
				}
			}()
			server.AddTool(st, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return nil, nil })
		}()
		back, _, err := fromSDKTool(st, "sdk")
		if err != nil || !back.Input.Equal(tl.Input) || back.Name != tl.Name {
			t.Errorf("fromSDKTool(sdkTool(%s)) = %v, input equal %v", tl.Name, err, back != nil && back.Input.Equal(tl.Input))
		}
	}
	t.Logf("%d tools accepted by the MCP Go SDK", len(clean))
}

const mcpSample = `{
  "tools": [
    {
      "name": "create_issue",
      "title": "Create issue",
      "description": "Create an issue.",
      "inputSchema": {"type": "object", "properties": {"title": {"type": "string"}}, "required": ["title"]},
      "outputSchema": {"type": "object", "properties": {"number": {"type": "integer"}}},
      "annotations": {"destructiveHint": false, "readOnlyHint": false},
      "icons": [{"src": "https://example.com/i.png", "sizes": ["48x48"]}],
      "_meta": {"example.com/x": 1},
      "execution": {"taskSupport": "optional"}
    }
  ],
  "nextCursor": "abc",
  "server": {"name": "gh"}
}`

func TestConvertMCPToOpenAIReportsEveryLoss(t *testing.T) {
	reg := Default()
	doc := parse(t, []byte(mcpSample))
	before := string(doc.AppendJSON(nil, ""))
	res, err := reg.Convert(doc, "tools.json", "auto", "openai", profile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if string(doc.AppendJSON(nil, "")) != before {
		t.Error("Convert modified its input")
	}
	type loc struct {
		code    string
		pointer string
		line    int
	}
	var got []loc
	for _, d := range res.Diagnostics {
		got = append(got, loc{d.Code, d.Pointer, int(doc.PosOf(canonical.Pointer(d.Pointer)).Line)})
	}
	want := []loc{
		{"loss.annotations", "/tools/0/annotations", 9},
		{"loss.extension", "/tools/0/execution", 12},
		{"loss.icons", "/tools/0/icons", 10},
		{"loss.meta", "/tools/0/_meta", 11},
		{"loss.output-schema", "/tools/0/outputSchema", 8},
		{"loss.title", "/tools/0/title", 5},
		{"source.ignored-field", "/server", 16},
	}
	if !slices.Equal(got, want) {
		t.Errorf("diagnostics:\n%v\nwant\n%v", got, want)
	}
	out := string(res.Bundle.AppendJSON(nil, ""))
	wantOut := `[{"type":"function","function":{"name":"create_issue","description":"Create an issue.","parameters":{"type":"object","properties":{"title":{"type":"string"}},"required":["title"]}}}]`
	if out != wantOut {
		t.Errorf("bundle = %s\nwant %s", out, wantOut)
	}
}

func TestConvertKeepsAnthropicExtensions(t *testing.T) {
	// strict: true lowers the schema for strict mode, which this one is
	// already (TestSourceStrictIsLowered covers the other case).
	in := `[{"type":"custom","name":"n","description":"d","input_schema":{"type":"object","additionalProperties":false},"cache_control":{"type":"ephemeral"},"strict":true,"input_examples":[{"a":1}],"defer_loading":true}]`
	res, err := Default().Convert(parse(t, []byte(in)), "a.json", "anthropic", "anthropic", profile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !jsonEqual(res.Bundle.AppendJSON(nil, ""), []byte(in)) {
		t.Errorf("round trip = %s", res.Bundle.AppendJSON(nil, ""))
	}
	res, err = Default().Convert(parse(t, []byte(in)), "a.json", "anthropic", "mcp", profile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var codes []string
	for _, d := range res.Diagnostics {
		codes = append(codes, d.Code+" "+d.Pointer)
	}
	want := []string{"loss.examples /0/input_examples", "loss.extension /0/cache_control", "loss.extension /0/defer_loading", "loss.extension /0/strict", "loss.extension /0/type"}
	slices.Sort(codes)
	if !slices.Equal(codes, want) {
		t.Errorf("codes = %q, want %q", codes, want)
	}
}

// TestSourceStrictIsLowered: a tool whose source says "strict": true is
// lowered for strict mode. Anthropic keeps required as written (PROVIDERS.md,
// corrections: anthropic-sdk-python copies required); OpenAI makes every
// property required and the optional ones nullable, and records them.
func TestSourceStrictIsLowered(t *testing.T) {
	tests := []struct {
		format, in, want string
		optional         []canonical.Pointer
		codes            []string
	}{
		{"anthropic",
			`[{"name":"n","input_schema":{"type":"object","properties":{"q":{"type":"string","minLength":1}}},"strict":true}]`,
			`[{"name":"n","input_schema":{"type":"object","properties":{"q":{"type":"string"}},"additionalProperties":false},"strict":true}]`,
			nil,
			[]string{"loss.min-length /0/input_schema/properties/q/minLength", "lower.strict-closed /0/input_schema"}},
		{"openai",
			`[{"type":"function","function":{"name":"n","parameters":{"type":"object","properties":{"q":{"type":"string","minLength":1}}},"strict":true}}]`,
			`[{"type":"function","function":{"name":"n","parameters":{"type":"object","properties":{"q":{"type":["string","null"]}},"additionalProperties":false,"required":["q"]},"strict":true}}]`,
			[]canonical.Pointer{"/properties/q"},
			[]string{"loss.min-length /0/function/parameters/properties/q/minLength", "lower.strict-closed /0/function/parameters", "lower.strict-optional /0/function/parameters/properties/q"}},
	}
	for _, tc := range tests {
		res, err := Default().Convert(parse(t, []byte(tc.in)), "a.json", tc.format, tc.format, profile.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := string(res.Bundle.AppendJSON(nil, "")); got != tc.want {
			t.Errorf("%s: bundle = %s\nwant %s", tc.format, got, tc.want)
		}
		if got := res.Optional["n"]; !slices.Equal(got, tc.optional) {
			t.Errorf("%s: optional = %q, want %q", tc.format, got, tc.optional)
		}
		var codes []string
		for _, d := range res.Diagnostics {
			codes = append(codes, d.Code+" "+d.Pointer)
		}
		slices.Sort(codes)
		if !slices.Equal(codes, tc.codes) {
			t.Errorf("%s: codes = %q, want %q", tc.format, codes, tc.codes)
		}
	}
}

func TestStrictOptionOverridesSource(t *testing.T) {
	in := `[{"type":"function","function":{"name":"n","parameters":{"type":"object"},"strict":true}}]`
	f := false
	res, err := Default().Convert(parse(t, []byte(in)), "a.json", "openai", "openai", profile.Options{Strict: &f})
	if err != nil {
		t.Fatal(err)
	}
	if got := string(res.Bundle.AppendJSON(nil, "")); !strings.Contains(got, `"strict":false`) || strings.Count(got, "strict") != 1 {
		t.Errorf("bundle = %s, want one strict:false", got)
	}
	if len(res.Diagnostics) != 1 || res.Diagnostics[0].Code != "lower.strict-overridden" || res.Diagnostics[0].Pointer != "/0/function/strict" {
		t.Errorf("diagnostics = %v, want lower.strict-overridden at /0/function/strict", res.Diagnostics)
	}
}

func TestOpenAIMissingParameters(t *testing.T) {
	res, err := Default().Convert(parse(t, []byte(`[{"name":"ping","description":"Ping."}]`)), "f.json", "openai", "openai", profile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"type":"function","function":{"name":"ping","description":"Ping.","parameters":{"type":"object","properties":{}}}}]`
	if got := string(res.Bundle.AppendJSON(nil, "")); got != want {
		t.Errorf("bundle = %s, want %s", got, want)
	}
}

func TestDecodeErrors(t *testing.T) {
	for _, tc := range []struct {
		format, in string
		want       []string // "code pointer"
	}{
		{"mcp", `{"tools": {"name": "x"}}`, []string{"source.invalid /tools"}},
		{"mcp", `[{"name": 3, "inputSchema": {"type": "object"}}]`, []string{"source.invalid /0/name"}},
		{"mcp", `[{"inputSchema": {"type": "object"}}]`, []string{"source.invalid /0"}},
		{"mcp", `[{"name": "x", "inputSchema": "object"}]`, []string{"source.invalid /0/inputSchema"}},
		{"mcp", `[{"name": "x", "inputSchema": {"type": "string"}}]`, []string{"schema.not-object /0/inputSchema/type"}},
		{"mcp", `[{"name": "x", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": "yes"}}]`, []string{"source.invalid /0/annotations"}},
		{"mcp", `{"jsonrpc": "2.0", "id": 1, "error": {"code": -1}}`, []string{"source.invalid /error"}},
		{"mcp", `{"name": "get_me", "inputSchema": null}`, []string{"schema.not-object /inputSchema"}},
		{"openai", `[{"type": "file_search"}, {"type": "function", "function": {"name": "a b"}}]`, []string{"source.invalid /1/function/name", "source.unsupported-tool-type /0/type"}},
		{"openai", `[{"type": "function", "function": {"name": "a", "parameters": {"type": "dict"}}}]`, []string{"schema.not-object /0/function/parameters/type"}},
		{"anthropic", `[{"type": "bash_20250124", "name": "bash"}, {"name": "x"}]`, []string{"schema.not-object /1", "source.unsupported-tool-type /0/type"}},
	} {
		a, _ := Default().Get(tc.format)
		tools, ds := a.Decode(parse(t, []byte(tc.in)), "f.json")
		// Object-ness is checked after decoding (a repair may still fix it).
		ds = append(ds, CheckSchemas(tools)...)
		var got []string
		for _, d := range diag.Sort(ds) {
			got = append(got, d.Code+" "+d.Pointer)
		}
		slices.Sort(got)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s.Decode(%s) = %q, want %q", tc.format, tc.in, got, tc.want)
		}
	}
}

func TestNamesAndCollisions(t *testing.T) {
	obj, _ := canonical.ParseSchema([]byte(`{"type":"object"}`))
	tools := []*canonical.Tool{
		{Namespace: "gh", Name: "list", Input: obj, Source: canonical.Source{File: "a.json", Pointer: "/0"}},
		{Name: "gh__list", Input: obj, Source: canonical.Source{File: "b.json", Pointer: "/0"}},
		{Name: "list.repos", Input: obj, Source: canonical.Source{File: "b.json", Pointer: "/1"}},
	}
	p, _ := profile.Of("openai")
	low := p.Lower(context.Background(), tools, "openai", profile.Options{})
	if names := low.Names; names["gh:list"] != "gh__list" || names["list.repos"] != "list_repos" {
		t.Errorf("names = %v", names)
	}
	var got []string
	ds := diag.Sort(low.All())
	for _, d := range ds {
		got = append(got, d.Code+" "+d.File+d.Pointer)
	}
	want := []string{"name.collision b.json/0", "name.rewritten b.json/1"}
	if !slices.Equal(got, want) {
		t.Errorf("diagnostics = %q, want %q", got, want)
	}
	if !strings.Contains(ds[0].Message, "a.json#/0") {
		t.Errorf("collision message %q does not name the first source", ds[0].Message)
	}
}

func TestRegistry(t *testing.T) {
	r := NewRegistry(MCP())
	if err := r.Register(MCP()); !errors.Is(err, ErrDuplicate) {
		t.Errorf("Register twice = %v", err)
	}
	if _, err := r.Convert(parse(t, []byte(`[]`)), "f", "mcp", "openai", profile.Options{}); !errors.Is(err, ErrUnknownFormat) {
		t.Errorf("Convert to unregistered = %v", err)
	}
	var ae *Error
	_, err := r.Convert(parse(t, []byte(`[{"name":"x","inputSchema":1}]`)), "f", "mcp", "mcp", profile.Options{})
	if !errors.As(err, &ae) || ae.Direction != Decoding || ae.Adapter != "mcp" || !errors.Is(err, ErrInvalidInput) {
		t.Errorf("Convert of invalid input = %v", err)
	}
	if !r.Unregister("mcp") || r.Unregister("mcp") || len(r.List()) != 0 {
		t.Error("Unregister")
	}
	// Concurrent use is safe (run with -race).
	r = Default()
	done := make(chan bool)
	for i := 0; i < 4; i++ {
		go func() {
			for j := 0; j < 50; j++ {
				a := &Adapter{Name: "x" + string(rune('a'+i))}
				_ = r.Register(a)
				r.List()
				r.Get("mcp")
				r.Unregister(a.Name)
			}
			done <- true
		}()
	}
	for i := 0; i < 4; i++ {
		<-done
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte(mcpSample))
	for _, pat := range []string{"mcp/spec/schema/draft/examples/Tool/*.json", "anthropic/quickstarts/*.json", "openai/cookbook/*.json"} {
		files, _ := filepath.Glob(filepath.Join(os.Getenv("TOOLC_CORPUS"), pat))
		for _, file := range files {
			if data, err := os.ReadFile(file); err == nil {
				f.Add(data)
			}
		}
	}
	f.Add([]byte(`[{"type":"function","function":{"name":"a","parameters":{"type":"object"}}}]`))
	f.Add([]byte(`{"openapi":"3.0.0","paths":{"/a/{id}":{"parameters":[{"$ref":"#/components/parameters/id"}],"post":{"requestBody":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/A"}}}},"responses":{"200":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/A"}}}}}}}},"components":{"parameters":{"id":{"name":"id","in":"path","schema":{"type":"string","nullable":true}}},"schemas":{"A":{"type":"object","properties":{"a":{"$ref":"#/components/schemas/A"},"n":{"type":"number","minimum":1,"exclusiveMinimum":true,"example":2}}}}}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","result":{"tools":[{"name":"a","inputSchema":{"type":"object"},"annotations":{"title":1}}]}}`))
	for _, seed := range []string{
		`{"tools":[{"functionDeclarations":[{"name":"a","parameters":{"type":"OBJECT","properties":{"n":{"type":"STRING","nullable":true,"maxItems":"2"}}}}]},{"googleSearch":{}}]}`,
		`{"toolConfig":{"tools":[{"toolSpec":{"name":"a","inputSchema":{"json":{"type":"object"}}}},{"cachePoint":{}},{"systemTool":{"name":"x"}}]}}`,
		`[{"type":"function","name":"a","parameters":null,"strict":true},{"type":"web_search"}]`,
		`{"tools":[{"name":"a","args_schema":{"type":"object"},"openai_tool":{"type":"function","function":{"name":"b"}}}]}`,
	} {
		f.Add([]byte(seed))
	}
	reg := Default()
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := canonical.ParseJSON(data)
		if err != nil {
			return
		}
		reg.Detect(doc)
		strict := true
		for _, a := range reg.List() {
			if a.Decode == nil {
				continue
			}
			before := string(doc.AppendJSON(nil, ""))
			tools, ds := a.Decode(doc, "fuzz.json")
			if after := string(doc.AppendJSON(nil, "")); after != before {
				t.Fatalf("%s: Decode changed the document", a.Name)
			}
			if !diag.HasErrors(ds) {
				roundTrip(t, a.Name, tools)
			}
			for _, b := range reg.List() {
				if b.Encode == nil {
					continue
				}
				for _, opts := range []profile.Options{{}, {Strict: &strict, Schema: "openapi", Describe: true}, {Strict: &strict, Auto: true}} {
					b.Emit(context.Background(), tools, b.Name, opts) // lowered, encoded and checked for acceptance
				}
			}
		}
	})
}

// roundTrip checks that tools decoded without error read back from a
// canonical bundle as the same tools (their hashes, in order): the
// canonical form loses nothing.
func roundTrip(t *testing.T, format string, tools []*canonical.Tool) {
	t.Helper()
	enc := encodeCanonical(tools, profile.Options{})
	doc, err := canonical.ParseJSON(enc.AppendJSON(nil, ""))
	if err != nil {
		t.Fatalf("%s: the canonical bundle does not parse: %v", format, err)
	}
	back, ds := bundle.DecodeCanonical(doc, "back.json")
	if diag.HasErrors(ds) || len(back) != len(tools) {
		t.Fatalf("%s: the canonical bundle of %d tools reads back as %d, %v", format, len(tools), len(back), ds)
	}
	for i := range tools {
		if back[i].Hash() != tools[i].Hash() {
			t.Fatalf("%s: tool %s reads back from its canonical bundle as another:\n%s\nwant\n%s", format, tools[i].ID(), back[i].ToValue(), tools[i].ToValue())
		}
	}
}

// TestContainers checks where each decoder finds tools: arrays, request
// bodies and tools/list results, a single tool, and that an object with a
// "name" is a tool in every format.
func TestContainers(t *testing.T) {
	for _, tc := range []struct {
		format, in string
		want       []string // "name@pointer"
	}{
		{"openai", `{"model": "m", "tools": [{"type": "function", "function": {"name": "a"}}], "functions": [{"name": "b"}]}`, []string{"a@/tools/0", "b@/functions/0"}},
		{"openai", `{"name": "c", "parameters": {"type": "object"}}`, []string{"c@"}},
		{"anthropic", `{"model": "m", "tools": [{"name": "a", "input_schema": {"type": "object"}}]}`, []string{"a@/tools/0"}},
		{"anthropic", `[{"name": "a", "input_schema": {"type": "object"}}, {"name": "b", "input_schema": {"type": "object"}}]`, []string{"a@/0", "b@/1"}},
		{"mcp", `{"tools": [{"name": "a", "inputSchema": {"type": "object"}}], "nextCursor": "x"}`, []string{"a@/tools/0"}},
		{"mcp", `{"name": "t", "inputSchema": {"type": "object"}, "tools": 1}`, []string{"t@"}},
	} {
		a, _ := Default().Get(tc.format)
		tools, ds := a.Decode(parse(t, []byte(tc.in)), "f.json")
		var got []string
		for _, tl := range tools {
			got = append(got, tl.Name+"@"+string(tl.Source.Pointer))
		}
		if !slices.Equal(got, tc.want) || diag.HasErrors(ds) {
			t.Errorf("%s.Decode(%s) = %q, %v; want %q", tc.format, tc.in, got, ds, tc.want)
		}
	}
}

// sdkTool converts a canonical tool into the MCP Go SDK's tool type, as a
// Go server that registers toolc's tools with mcp.Server.AddTool would. The schemas
// are passed as json.RawMessage so that their keyword order is kept. The
// tool's name is used as is: lower it with the "mcp" profile first to get a
// legal name.
func sdkTool(t *canonical.Tool) (*mcp.Tool, error) {
	v := mcpToolValue(t)
	var out mcp.Tool
	if err := json.Unmarshal(v.AppendJSON(nil, ""), &out); err != nil {
		return nil, &Error{Adapter: "mcp", Direction: Encoding, Err: fmt.Errorf("%w: %v", ErrInvalidInput, err)}
	}
	out.InputSchema = json.RawMessage(t.Input.JSON().AppendJSON(nil, ""))
	if t.Output != nil {
		out.OutputSchema = json.RawMessage(t.Output.JSON().AppendJSON(nil, ""))
	}
	return &out, nil
}

// fromSDKTool converts a tool of the MCP Go SDK into a canonical tool, as if
// it had been read from an MCP file named file.
func fromSDKTool(t *mcp.Tool, file string) (*canonical.Tool, []diag.Diagnostic, error) {
	data, err := json.Marshal(t)
	if err != nil {
		return nil, nil, &Error{Adapter: "mcp", Direction: Decoding, Err: fmt.Errorf("%w: %v", ErrInvalidInput, err)}
	}
	doc, err := canonical.ParseJSON(data)
	if err != nil {
		return nil, nil, &Error{Adapter: "mcp", Direction: Decoding, Err: fmt.Errorf("%w: %v", ErrInvalidInput, err)}
	}
	tools, ds := decodeMCP(doc, file)
	if len(tools) != 1 {
		return nil, ds, &Error{Adapter: "mcp", Direction: Decoding, Err: invalid(ds)}
	}
	return tools[0], ds, nil
}
