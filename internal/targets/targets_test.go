package targets

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/bundle"
	"github.com/toolc-dev/toolc/internal/emit"
	"github.com/toolc-dev/toolc/internal/formats"
	"github.com/toolc-dev/toolc/internal/profile"
)

// TestMCPBundleAcceptedBySDK checks the MCP bundle of every corpus tool
// against the official Go SDK: it must unmarshal as a ListToolsResult, and
// every tool must be accepted by Server.AddTool (which panics on a bad input
// schema).
func TestMCPBundleAcceptedBySDK(t *testing.T) {
	reg := allFormats()
	var all []*canonical.Tool
	for _, cd := range corpusDocs(t) {
		a, _ := reg.Get(cd.format)
		tools, ds := a.Decode(cd.doc, cd.name)
		if !diag.HasErrors(append(ds, formats.CheckSchemas(tools)...)) {
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
	bundle := emit.MCP(emit.Tools(clean), profile.Options{Catalog: profile.Catalog{Name: "corpus", Version: "1.0.0"}})
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

func TestConvertMCPToOpenAIReportsEveryLoss(t *testing.T) {
	reg := allFormats()
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
	// already (TestSourceStrictIsLowered covers the other case). A
	// deferred tool goes with the search tool that loads it, which the
	// bundle writes again.
	in := `[{"type":"custom","name":"n","description":"d","input_schema":{"type":"object","properties":{},"additionalProperties":false},"cache_control":{"type":"ephemeral"},"strict":true,"input_examples":[{"a":1}],"defer_loading":true},{"type":"tool_search_tool_regex_20251119","name":"tool_search_tool_regex"}]`
	res, err := allFormats().Convert(parse(t, []byte(in)), "a.json", "anthropic", "anthropic", profile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !jsonEqual(res.Bundle.AppendJSON(nil, ""), []byte(in)) {
		t.Errorf("round trip = %s", res.Bundle.AppendJSON(nil, ""))
	}
	res, err = allFormats().Convert(parse(t, []byte(in)), "a.json", "anthropic", "mcp", profile.Options{})
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
		res, err := allFormats().Convert(parse(t, []byte(tc.in)), "a.json", tc.format, tc.format, profile.Options{})
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
	in := `[{"type":"function","function":{"name":"n","parameters":{"type":"object","properties":{}},"strict":true}}]`
	f := false
	res, err := allFormats().Convert(parse(t, []byte(in)), "a.json", "openai", "openai", profile.Options{Strict: &f})
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

func TestNamesAndCollisions(t *testing.T) {
	obj, _ := canonical.ParseSchema([]byte(`{"type":"object","properties":{}}`))
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

// roundTrip checks that tools decoded without error read back from a
// canonical bundle as the same tools (their hashes, in order): the
// canonical form loses nothing.
func roundTrip(t *testing.T, format string, tools []*canonical.Tool) {
	t.Helper()
	enc := emit.Canonical(emit.Tools(tools), profile.Options{})
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
		a, _ := allFormats().Get(tc.format)
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
	v := emit.MCP(emit.Tools([]*canonical.Tool{t}), profile.Options{}).Get("tools").Items()[0]
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
	tools, ds := formats.MCP().Decode(doc, file)
	if len(tools) != 1 {
		return nil, ds, &Error{Adapter: "mcp", Direction: Decoding, Err: invalid(ds)}
	}
	return tools[0], ds, nil
}

// TestStrictIsTyped: the strict decision reaches the encoders as a typed
// flag (Lowered.Flags), and no lowered tool of a target with a strict
// mode carries "strict" in its extensions, whether the target's option
// decided it or an OpenAI source's flag was carried to Anthropic.
func TestStrictIsTyped(t *testing.T) {
	doc := parse(t, []byte(`[{"type": "function", "function": {"name": "ping", "description": "Ping.", "parameters": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"], "additionalProperties": false}, "strict": true}}]`))
	openai, _ := formats.Default().Get("openai")
	tools, _ := openai.Decode(doc, "f.json")
	on := true
	for _, c := range []struct {
		target string
		opts   profile.Options
	}{{"openai", profile.Options{}}, {"openai", profile.Options{Strict: &on}}, {"openai-responses", profile.Options{Strict: &on}}, {"anthropic", profile.Options{}}, {"bedrock", profile.Options{Strict: &on}}} {
		tg, _ := Default().Get(c.target)
		low := tg.Emit(context.Background(), tools, c.target, c.opts)
		if len(low.Flags) != 1 || low.Flags[0] == nil || !*low.Flags[0] {
			t.Errorf("%s %+v: flags %v, want strict true", c.target, c.opts, low.Flags)
		}
		for f, ext := range low.Tools[0].Extensions {
			if ext.Has("strict") {
				t.Errorf("%s: the lowered tool carries strict in its %s extensions", c.target, f)
			}
		}
		if !strings.Contains(string(low.Bundle.AppendJSON(nil, "")), `"strict":true`) {
			t.Errorf("%s: the bundle has no strict flag: %s", c.target, low.Bundle.AppendJSON(nil, ""))
		}
	}
}
