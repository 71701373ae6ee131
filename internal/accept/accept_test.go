package accept

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/schematest"
)

func parse(t *testing.T, s string) *canonical.Value { return schematest.JSON(t, s) }

// openaiStrict wraps an input schema as a one-tool OpenAI strict bundle.
func openaiStrict(schema string) string {
	return `[{"type": "function", "function": {"name": "t", "parameters": ` + schema + `, "strict": true}}]`
}

func gemini(schema string) string {
	return `{"functionDeclarations": [{"name": "t", "parameters": ` + schema + `}]}`
}

// chat wraps an input schema as a one-tool Chat Completions bundle.
func chat(schema string) string {
	return `[{"type": "function", "function": {"name": "t", "parameters": ` + schema + `}}]`
}

func claudeStrict(schema string) string {
	return `[{"name": "t", "input_schema": ` + schema + `, "strict": true}]`
}

// many returns n properties p0 … p(n-1) of the schema s (a string by
// default), as the members of a properties object.
func many(n int, s ...string) string {
	schema := `{"type": "string"}`
	if len(s) > 0 {
		schema = s[0]
	}
	var ps []string
	for i := range n {
		ps = append(ps, fmt.Sprintf(`"p%d": %s`, i, schema))
	}
	return strings.Join(ps, ", ")
}

// TestAcceptCatches checks that each rule fires on a bundle that breaks it,
// with the real rejections of corpus/rejections where there is one: a
// verifier that cannot fail verifies nothing.
func TestAcceptCatches(t *testing.T) {
	closed := `"additionalProperties": false`
	tests := []struct {
		table, bundle, want string
	}{
		{"openai", openaiStrict(`{"type": "object", "properties": {"q": {"type": "string", "minLength": 1}}, "required": ["q"], ` + closed + `}`), "accept.keyword"},
		{"openai", openaiStrict(`{"type": "object", "properties": {"q": {"type": "string", "format": "uri"}}, "required": ["q"], ` + closed + `}`), "accept.format"},
		{"openai", openaiStrict(`{"type": "object", "properties": {"items": {"type": "array", "items": {}}}, "required": ["items"], ` + closed + `}`), "accept.untyped"}, // O2-1
		{"openai", openaiStrict(`{"type": "object", "properties": {"m": {"type": "object", ` + closed + `}}, "required": ["m"], ` + closed + `}`), "accept.properties-missing"},
		{"openai", openaiStrict(`{"type": "object", "properties": {"fields": {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"]}}, "required": ["fields"], ` + closed + `}`), "accept.additional-properties"},                                  // O4-1
		{"openai", openaiStrict(`{"type": "object", "properties": {"folderId": {"type": "string"}, "limit": {"type": "number"}}, "required": ["folderId"], ` + closed + `}`), "accept.required"},                                                                          // O3-1
		{"openai", openaiStrict(`{"type": "object", "properties": {"hero": {"$ref": "#/$defs/H", "description": "The hero chart"}}, "required": ["hero"], ` + closed + `, "$defs": {"H": {"type": "object", "properties": {}, ` + closed + `}}}`), "accept.ref-siblings"}, // O1-1
		{"openai", openaiStrict(`{"type": "object", "properties": {"p": {"type": "string", "pattern": "^(?!a)"}}, "required": ["p"], ` + closed + `}`), "accept.pattern"},
		{"openai", `[{"type": "function", "function": {"name": "t", "parameters": {"type": "object", "properties": {"tags": {"type": "array"}}}}}]`, "accept.items-missing"},
		{"openai", `[{"type": "function", "function": {"name": "t", "parameters": {"type": "string"}}}]`, "accept.root"},
		{"openai", `[{"type": "function", "function": {"name": "github.list.repos", "parameters": {"type": "object"}}}]`, "accept.name"},
		{"openai", `[{"type": "function", "function": {"name": "t", "description": "` + strings.Repeat("x", 2000) + `", "parameters": {"type": "object"}}}]`, "accept.description"},
		{"openai", `[{"type": "function", "function": {"name": "t", "parameters": {"type": "object", "properties": {"a": {"$ref": "#/$defs/missing"}}}}}]`, "accept.ref"},
		{"openai", `{"tools": []}`, "accept.shape"},
		{"openai-ollama", `[{"type": "function", "function": {"name": "t", "parameters": {"type": "object", "properties": {"value": true}, "additionalProperties": false}}}]`, "accept.bool-schema"},    // oh-my-pi issue 4488
		{"openai-llamacpp", `[{"type": "function", "function": {"name": "t", "parameters": {"type": "object", "properties": {"zip": {"type": "string", "pattern": "^[0-9]{5}"}}}}}]`, "accept.pattern"}, // kubernetes-mcp-server issue 277
		{"openai-llamacpp", `[{"type": "function", "function": {"name": "t", "parameters": {"type": "object", "properties": {"zip": {"type": "string", "pattern": "^\\d{5}$"}}}}}]`, "accept.pattern"},  // rowboat issue 741
		{"openai-llamacpp", `[{"type": "function", "function": {"name": "t", "parameters": {"type": "object", "properties": {"any": {"type": "array", "items": true}}}}}]`, "accept.bool-schema"},
		{"openai-llamacpp", `[{"type": "function", "function": {"name": "t", "parameters": {"type": "object", "properties": {"user": {"type": "string", "pattern": "^(?!admin)[a-z]+$"}}}}}]`, "accept.pattern"},                                                                                              // codefuturist/email-mcp issues 72, 74
		{"openai", `[{"type": "function", "function": {"name": "t", "parameters": {"type": "object", "properties": {"user": {"type": "string", "pattern": "^(?!admin)[a-z]+$"}}}}}]`, "accept.lookaround"},                                                                                                    // cline issue 14013
		{"openai-llamacpp", `[{"type": "function", "function": {"name": "t", "parameters": {"type": "object", "properties": {"path": {"type": "string", "pattern": "^a\\/b$"}}}}}]`, "accept.pattern"},                                                                                                        // an escape the grammar does not read                                                                                                             // oh-my-pi pull request 5919
		{"openai-cerebras", `[{"type": "function", "function": {"name": "a", "strict": true, "parameters": {"type": "object", "properties": {}, "required": [], "additionalProperties": false}}}, {"type": "function", "function": {"name": "b", "parameters": {"type": "object"}}}]`, "accept.strict-mixed"}, // kilocode issue 5193
		{"openai", `[{"type": "function", "function": {"name": "t", "parameters": {"type": "object", "properties": {"code": {"type": "string", "pattern": "^\\p{Lu}+$"}}}}}]`, "accept.pattern"},                                                                                                              // litellm issue 40358
		{"openai-moonshot", `[{"type": "function", "function": {"name": "t", "parameters": {"type": "object", "properties": {"id": {"type": "string", "anyOf": [{"maxLength": 8}, {"pattern": "^x"}]}}}}}]`, "accept.any-of-siblings"},                                                                        // kimi-cli issue 2531
		{"openai-moonshot", `[{"type": "function", "function": {"name": "t", "parameters": {"type": "object", "properties": {"v": {"description": "any"}}}}}]`, "accept.untyped"},                                                                                                                             // pi issue 4138
		{"openai-moonshot", `[{"type": "function", "function": {"name": "9t", "parameters": {"type": "object"}}}]`, "accept.name"},                                                                                                                                                                            // kimi-cli issue 1806
		{"openai-deepseek", `[{"type": "function", "function": {"name": "t", "parameters": {"type": "object", "properties": {"v": {"anyOf": [{"type": "string"}, {"enum": [1]}]}}}}}]`, "accept.untyped"},                                                                                                     // oh-my-pi issue 2270
		{"openai-deepseek", chat(`{"type": "object", "$ref": "#/$defs/A", "$defs": {"A": {"type": "object", "properties": {}}}}`), "accept.root"},                                                                                                                                                             // 10router issue 27
		{"openai-fireworks", chat(`{"type": "object", "properties": {"never": {"not": {}}}}`), "accept.never"},                                                                                                                                                                                                // LibreChat issue 9242
		{"openai-fireworks", chat(`{"type": "object", "properties": {"a": {"type": "string"}}, "anyOf": [{"required": ["a"]}]}`), "accept.properties-missing"},                                                                                                                                                // pi issue 5352
		{"openai-vllm", chat(`{"type": "object", "properties": {"url": {"type": "string", "format": "uri"}}}`), "accept.format"},                                                                                                                                                                              // paroquant issue 31
		{"openai-sglang", chat(`{"type": "object", "properties": {"a": {"type": "string"}}, "required": null}`), "accept.meta-schema"},                                                                                                                                                                        // sglang issue 35242
		{"openai-lmstudio", chat(`{"type": "object", "properties": {"v": {"anyOf": [{"type": "string"}, {"type": "null"}]}}}`), "accept.untyped"},                                                                                                                                                             // lmstudio-bug-tracker issue 2228
		{"gemini-vertex", `{"functionDeclarations": [{"name": "t"}]}`, "accept.root"},                                                                                                                                                                                                                         // python-aiplatform issue 3405
		{"gemini-vertex", `{"functionDeclarations": [` + strings.Repeat(`{"name": "t", "parametersJsonSchema": {"type": "object"}},`, 128) + `{"name": "t", "parametersJsonSchema": {"type": "object"}}]}`, "accept.tools"},                                                                                   // PROVIDERS.md: 128 per Tool
		{"gemini-openapi-vertex", gemini(`{"anyOf": [{"type": "OBJECT", "properties": {}}]}`), "accept.root"},                                                                                                                                                                                                 // composio issue 4518
		{"openai", "[" + strings.Repeat(`{"type": "function", "function": {"name": "t", "parameters": {"type": "object"}}},`, 128) + `{"type": "function", "function": {"name": "t", "parameters": {"type": "object"}}}]`, "accept.tools"},
		{"anthropic", `[{"name": "a", "input_schema": {"type": "object"}}, {"name": "t", "defer_loading": true, "input_schema": {"type": "object"}}]`, "accept.defer"},                                                    // deferred, no search tool
		{"anthropic", `[{"name": "t", "defer_loading": true, "input_schema": {"type": "object"}}, {"type": "tool_search_tool_regex_20251119", "name": "tool_search_tool_regex", "defer_loading": true}]`, "accept.defer"}, // the search tool deferred
		{"openai-responses", `[{"type": "namespace", "name": "crm", "description": "", "tools": [{"type": "function", "name": "t", "parameters": {"type": "object"}}]}]`, "accept.defer"},                                 // a namespace without a description
		{"openai-responses", `[{"type": "namespace", "name": "crm", "description": "CRM.", "tools": [` + strings.Repeat(`{"type": "function", "name": "t", "defer_loading": true, "parameters": {"type": "object"}},`, 10) + `{"type": "function", "name": "u", "parameters": {"type": "object"}}]}, {"type": "tool_search"}]`, "accept.namespace"},
		{"anthropic", `[{"name": "t", "input_schema": {"type": "object", "properties": {"filter[bundleId]": {"type": "string"}}}}]`, "accept.property-key"},                                              // A1-1
		{"anthropic", claudeStrict(`{"type": "object", "properties": {"tags": {"type": "array", "items": {"type": "string"}, "maxItems": 5}}, "required": ["tags"], ` + closed + `}`), "accept.keyword"}, // A2-1
		{"anthropic", claudeStrict(`{"type": "object", "properties": {"n": {"$ref": "#/$defs/n"}}, ` + closed + `, "$defs": {"n": {"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/n"}}}, ` + closed + `}}}`), "accept.ref"},
		{"anthropic", claudeStrict(`{"type": "object", "properties": {` + many(25) + `}, ` + closed + `}`), "accept.optional"},
		{"anthropic", claudeStrict(`{"type": "object", "properties": {` + many(17, `{"type": ["string", "null"]}`) + `}, "required": [], ` + closed + `}`), "accept.unions"},
		{"gemini-openapi", gemini(`{"type": "OBJECT", "properties": {"q": {"type": ["string", "null"]}}}`), "accept.type"},
		{"gemini-openapi", gemini(`{"type": "OBJECT", "properties": {"q": {"type": "INTEGER", "enum": [1, 2]}}}`), "accept.enum"},
		{"gemini-openapi", gemini(`{"type": "OBJECT", "properties": {"entries": {"type": "ARRAY", "items": {"anyOf": [{"type": "OBJECT", "properties": {}}], "required": ["path"]}}}}`), "accept.any-of-siblings"}, // G3-1
		{"gemini-openapi", gemini(`{"type": "OBJECT", "properties": {"a": {"type": "STRING"}}, "required": ["a", "zzz"]}`), "accept.required"},                                                                     // G4-1
		{"gemini-openapi", gemini(`{"type": "OBJECT", "properties": {"a": {"type": "STRING"}}, "additionalProperties": false}`), "accept.keyword"},                                                                 // G1-1
		{"gemini-openapi", gemini(`{"type": "OBJECT", "properties": {"a": {"description": "any"}}}`), "accept.untyped"},
		{"gemini-openapi", gemini(`{"type": "OBJECT", "properties": {"Content-Type": {"type": "STRING"}}}`), "accept.property-key"},
		{"gemini", `{"functionDeclarations": [{"name": "t", "parametersJsonSchema": {"type": "object", "$schema": "http://json-schema.org/draft-07/schema#"}}]}`, "accept.keyword"},                                         // G9-1
		{"gemini", `{"functionDeclarations": [{"name": "` + strings.Repeat("a", 65) + `", "parametersJsonSchema": {"type": "object"}}]}`, "accept.name"},                                                                    // gemini-cli issue 20987: 64 at most
		{"bedrock", `{"tools": [{"toolSpec": {"name": "t", "inputSchema": {"json": {"type": "object", "properties": {"tz": {"$ref": "#/definitions/T"}}, "definitions": {"T": {"type": "string"}}}}}}]}`, "accept.keyword"}, // B1-1
		{"anthropic", `[{"name": "t", "input_schema": {"type": "object", "properties": {"at": {"type": "array", "items": [{"type": "number"}, {"type": "number"}], "additionalItems": false}}}}]`, "accept.draft"},          // hermes-agent issue 63674
	}
	entry := strings.TrimSuffix(strings.TrimPrefix(claudeStrict(`{"type": "object", "properties": {}, `+closed+`}`), "["), "]")
	mcpHeader := func(props string) string {
		return `{"tools": [{"name": "t", "inputSchema": {"type": "object", "properties": {` + props + `}}}]}`
	}
	tests = append(tests,
		struct{ table, bundle, want string }{"mcp", mcpHeader(`"r": {"type": "string", "x-mcp-header": "Reg ion"}`), "accept.mcp-header"},
		struct{ table, bundle, want string }{"mcp", mcpHeader(`"api_token": {"type": "string", "x-mcp-header": "Token"}`), "accept.mcp-header-secret"})
	strictTools := "[" + strings.Repeat(entry+",", 20) + entry + "]"
	tests = append(tests, struct{ table, bundle, want string }{"anthropic", strictTools, "accept.strict-tools"})
	covered := map[string]bool{}
	for _, tc := range tests {
		tab, ok := TableNamed(tc.table)
		if !ok {
			t.Fatalf("no table %q", tc.table)
		}
		ds := Check(tab, parse(t, tc.bundle), nil, tc.table, Options{})
		var codes []string
		for _, d := range ds {
			codes = append(codes, d.Code)
		}
		if !slices.Contains(codes, tc.want) {
			b := tc.bundle
			if len(b) > 200 {
				b = b[:200] + "…"
			}
			t.Errorf("Check(%s, %s) = %v, want %s", tc.table, b, codes, tc.want)
		}
		covered[tc.want] = true
	}
	// accept.client comes from Advise, not Check: TestClients shows it.
	mcp, _ := TableNamed("mcp")
	for _, d := range Advise(mcp, parse(t, `{"tools": [{"name": "a.b", "inputSchema": {"type": "object"}}]}`), nil, "mcp", nil, Options{}) {
		covered[d.Code] = true
	}
	for _, c := range diag.Codes() {
		if strings.HasPrefix(c.Code, "accept.") && !covered[c.Code] {
			t.Errorf("no case shows %s", c.Code)
		}
	}
}

// TestItemsForVSCode: VS Code takes a draft-07 list of items as items (it
// checks that items is there); OpenAI takes a schema only.
func TestItemsForVSCode(t *testing.T) {
	tuple := `{"type": "object", "properties": {"p": {"type": "array", "items": [{"type": "number"}]}}}`
	vscode, _ := TableNamed("mcp")
	vscode = vscode.ForClients([]string{"vscode"})
	if ds := Check(vscode, parse(t, `{"tools": [{"name": "t", "inputSchema": `+tuple+`}]}`), nil, "mcp", Options{}); len(ds) > 0 {
		t.Errorf("VS Code refuses a list of items: %v", ds)
	}
	if ds := Check(vscode, parse(t, `{"tools": [{"name": "t", "inputSchema": {"type": "object", "properties": {"p": {"type": "array", "prefixItems": [{"type": "number"}]}}}}]}`), nil, "mcp", Options{}); len(ds) != 1 || ds[0].Code != "accept.items-missing" {
		t.Errorf("VS Code takes prefixItems without items: %v", ds)
	}
	openai, _ := TableNamed("openai")
	if ds := Check(openai, parse(t, `[{"type": "function", "function": {"name": "t", "parameters": `+tuple+`}}]`), nil, "openai", Options{}); len(ds) != 1 || !strings.Contains(ds[0].Message, "a draft-07 tuple") {
		t.Errorf("OpenAI takes a list of items: %v", ds)
	}
}

// TestMCPHeaders: every rule of 2026-07-28 on x-mcp-header is one located
// error, a secret-looking parameter a warning, and a valid annotation
// passes.
func TestMCPHeaders(t *testing.T) {
	bundle := `{"tools": [{"name": "t", "inputSchema": {"type": "object", "properties": {
  "region": {"type": "string", "x-mcp-header": "Region"},
  "empty": {"type": "string", "x-mcp-header": ""},
  "spaced": {"type": "string", "x-mcp-header": "My Header"},
  "again": {"type": "string", "x-mcp-header": "REGION"},
  "ratio": {"type": "number", "x-mcp-header": "Ratio"},
  "list": {"type": "array", "items": {"type": "string", "x-mcp-header": "Item"}},
  "nested": {"type": "object", "properties": {"zone": {"type": "integer", "x-mcp-header": "Zone"}}},
  "api_token": {"type": "string", "x-mcp-header": "Api-Token"},
  "either": {"anyOf": [{"type": "string", "x-mcp-header": "Either"}]}
}}}]}`
	mcp, _ := TableNamed("mcp")
	var got []string
	for _, d := range Check(mcp, parse(t, bundle), nil, "mcp", Options{}) {
		got = append(got, d.Code+" "+d.Message)
	}
	for _, want := range []string{
		"accept.mcp-header|x-mcp-header is empty",
		`accept.mcp-header|x-mcp-header "My Header" is not an HTTP field-name token`,
		`accept.mcp-header|x-mcp-header "REGION" names the header that "Region" at /properties/region names already`,
		`accept.mcp-header|x-mcp-header "Ratio" is on a property of type "number"`,
		"accept.mcp-header|x-mcp-header at /properties/list/items is not reached from the root through properties alone",
		"accept.mcp-header|x-mcp-header at /properties/either/anyOf/0 is not reached",
		`accept.mcp-header-secret|x-mcp-header "Api-Token" mirrors the parameter "api_token", which looks secret`,
	} {
		code, text, _ := strings.Cut(want, "|")
		if !slices.ContainsFunc(got, func(g string) bool { return strings.HasPrefix(g, code+" ") && strings.Contains(g, text) }) {
			t.Errorf("no %q in\n%s", want, strings.Join(got, "\n"))
		}
	}
	if len(got) != 7 {
		t.Errorf("%d findings, want 7 (Region and the nested Zone are valid):\n%s", len(got), strings.Join(got, "\n"))
	}
}

// TestCheckInBundleOrder: a bundle larger than a chunk is checked in
// parallel, and its findings come in bundle order, with the strict-mode
// budgets counted over every chunk.
func TestCheckInBundleOrder(t *testing.T) {
	var entries []string
	for i := range 1000 {
		entries = append(entries, fmt.Sprintf(`{"name": "t%04d", "strict": true, "input_schema": {"type": "object", "properties": {"p": {"type": "array", "items": {"type": "string"}, "maxItems": 5}}, "required": ["p"], "additionalProperties": false}}`, i))
	}
	tab, _ := TableNamed("anthropic")
	ds := Check(tab, parse(t, "["+strings.Join(entries, ",")+"]"), nil, "anthropic", Options{})
	var tools []string
	strictTools := 0
	for _, d := range ds {
		switch d.Code {
		case "accept.keyword":
			tools = append(tools, d.Tool)
		case "accept.strict-tools":
			strictTools++
			if !strings.Contains(d.Message, " 1000 strict tools") {
				t.Errorf("strict tools counted over the chunks: %s", d.Message)
			}
		}
	}
	if len(tools) != 1000 || !slices.IsSorted(tools) || strictTools != 1 {
		t.Errorf("%d maxItems findings (want 1000, in bundle order: %v), %d strict-tools findings (want 1)", len(tools), slices.IsSorted(tools), strictTools)
	}
}

// TestAcceptPasses: what each table accepts passes without a finding.
func TestAcceptPasses(t *testing.T) {
	closed := `"additionalProperties": false`
	tests := []struct{ table, bundle string }{
		{"openai", openaiStrict(`{"type": "object", "properties": {"q": {"type": ["string", "null"]}, "r": {"anyOf": [{"$ref": "#/$defs/R"}, {"type": "null"}], "description": "d"}}, "required": ["q", "r"], ` + closed + `, "$defs": {"R": {"type": "object", "properties": {}, ` + closed + `}}}`)},
		{"openai", `[{"type": "function", "function": {"name": "t", "parameters": {"type": "object"}}}]`},
		{"anthropic", claudeStrict(`{"type": "object", "properties": {"q": {"type": "string"}}, ` + closed + `}`)},
		{"gemini-openapi", gemini(`{"type": "OBJECT", "properties": {"q": {"anyOf": [{"type": "STRING", "nullable": true}, {"type": "INTEGER"}]}, "d": {"type": "STRING", "format": "date"}}, "required": ["q"]}`)},
		{"mcp", `{"tools": [{"name": "a.b", "inputSchema": {"type": "object"}}]}`},
	}
	for _, tc := range tests {
		tab, _ := TableNamed(tc.table)
		if ds := Check(tab, parse(t, tc.bundle), nil, tc.table, Options{}); len(ds) > 0 {
			t.Errorf("Check(%s, %s) = %v, want nothing", tc.table, tc.bundle, ds)
		}
	}
}

// TestTablesCiteEvidence: every rule says where its fact comes from, and
// every kind has a code in diag's table.
func TestTablesCiteEvidence(t *testing.T) {
	for _, name := range slices.Sorted(maps.Keys(acceptTables)) {
		tab := acceptTables[name]
		if tab.Name != name {
			t.Errorf("table %q is named %q", name, tab.Name)
		}
		for _, rs := range [][]Rule{tab.Tool, tab.Schema, tab.Strict, tab.Request, tab.StrictRequest} {
			for _, r := range rs {
				if r.Evidence == "" {
					t.Errorf("%s: rule %s cites no evidence", name, r.Kind)
				}
				if _, ok := diag.Lookup(r.Code()); !ok {
					t.Errorf("%s: rule %s has the unknown code %q", name, r.Kind, r.Code())
				}
			}
		}
	}
	for k := range kinds {
		if fmt.Sprint(k) == "" {
			t.Error("an unnamed kind")
		}
	}
}

// FuzzCheck: no bundle, however malformed, panics or loops the check.
func FuzzCheck(f *testing.F) {
	f.Add(openaiStrict(`{"type": "object", "properties": {"a": {"$ref": "#/$defs/a"}}, "$defs": {"a": {"$ref": "#/$defs/a"}}}`))
	f.Add(gemini(`{"type": "OBJECT", "anyOf": [true, false, 1], "properties": {"a": {"items": [{}], "required": 3}}}`))
	f.Add(`{"tools": [{"toolSpec": {"name": 1, "inputSchema": {"json": {"$ref": "#/%zz"}}}}]}`)
	f.Add(claudeStrict(`{"properties": {"x": {"$ref": "#"}}, "enum": [null, 1.5e3]}`))
	f.Fuzz(func(t *testing.T, bundle string) {
		v, err := canonical.ParseJSON([]byte(bundle))
		if err != nil {
			return
		}
		before := string(v.AppendJSON(nil, ""))
		again, err := canonical.ParseJSON([]byte(before))
		if err != nil {
			t.Fatalf("the bundle's own encoding does not parse: %v", err)
		}
		for _, name := range slices.Sorted(maps.Keys(acceptTables)) {
			got := findings(Check(acceptTables[name], v, nil, name, Options{}))
			// The check reads the bundle, never changes it, and judges
			// the same JSON the same way however it was written.
			if after := string(v.AppendJSON(nil, "")); after != before {
				t.Fatalf("%s: Check changed the bundle:\n%s\nto\n%s", name, before, after)
			}
			if want := findings(Check(acceptTables[name], again, nil, name, Options{})); got != want {
				t.Fatalf("%s: the bundle re-encoded gives other findings:\n%s\nwant\n%s", name, got, want)
			}
		}
	})
}

// findings is what diagnostics say, without their positions.
func findings(ds []diag.Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintf(&b, "%s %s %s %s\n", d.Severity, d.Code, d.Pointer, d.Message)
	}
	return b.String()
}

// TestAcceptRootKeywords: OpenAI takes no anyOf, oneOf, allOf, enum or not
// at the root of parameters, in any mode (azure-openai-ha issue 146);
// Anthropic and Bedrock no anyOf, oneOf or allOf at the root of the input
// schema (gitlab-mcp issue 551, mobile-mcp issue 344). MCP clients take
// them. Each finding names the keyword's place.
func TestAcceptRootKeywords(t *testing.T) {
	openai := func(s string) string {
		return `[{"type": "function", "function": {"name": "t", "parameters": ` + s + `}}]`
	}
	claude := func(s string) string { return `[{"name": "t", "input_schema": ` + s + `}]` }
	bedrock := func(s string) string {
		return `{"tools": [{"toolSpec": {"name": "t", "inputSchema": {"json": ` + s + `}}}]}`
	}
	mcp := func(s string) string { return `{"tools": [{"name": "t", "inputSchema": ` + s + `}]}` }
	const (
		anyOf = `{"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}, "anyOf": [{"required": ["a"]}, {"required": ["b"]}]}`
		allOf = `{"type": "object", "properties": {"a": {"type": "string"}}, "allOf": [{"if": {"required": ["a"]}, "then": {"required": ["a"]}}]}`
		enum  = `{"type": "object", "properties": {"a": {"type": "string"}}, "enum": [{"a": "x"}]}`
		not   = `{"type": "object", "properties": {"a": {"type": "string"}}, "not": {"required": ["a"]}}`
	)
	for _, tc := range []struct {
		table, bundle, keyword string // keyword "": no accept.root
	}{
		{"openai", openai(anyOf), "anyOf"},
		{"openai", openai(allOf), "allOf"},
		{"openai", openai(enum), "enum"},
		{"openai", openai(not), "not"},
		{"openai-responses", `[{"type": "function", "name": "t", "parameters": ` + anyOf + `}]`, "anyOf"},
		{"anthropic", claude(anyOf), "anyOf"},
		{"anthropic", claude(allOf), "allOf"},
		{"anthropic", claude(enum), ""},
		{"bedrock", bedrock(anyOf), "anyOf"},
		{"mcp", mcp(anyOf), ""},
	} {
		tab, _ := TableNamed(tc.table)
		var got []string
		for _, d := range Check(tab, parse(t, tc.bundle), nil, tc.table, Options{}) {
			if d.Code == "accept.root" {
				got = append(got, d.Message)
			}
		}
		switch {
		case tc.keyword == "" && len(got) > 0:
			t.Errorf("Check(%s, %s) = %q, want no accept.root", tc.table, tc.bundle, got)
		case tc.keyword != "" && (len(got) != 1 || !strings.Contains(got[0], "at /"+tc.keyword+" of the emitted")):
			t.Errorf("Check(%s, %s) = %q, want one accept.root at /%s", tc.table, tc.bundle, got, tc.keyword)
		}
	}
}

// TestClients: an MCP bundle that a client would refuse is advice (one
// accept.client warning per refusal, naming the client and the setting);
// made for that client, the same refusal is the client's rule, an error or
// a per-request warning (PROVIDERS.md, late 2026: vscode issue 284536;
// loomle issue 168; Snowflake-Labs/mcp issue 77).
func TestClients(t *testing.T) {
	tool := func(name, schema string) string {
		return `{"name": "` + name + `", "inputSchema": ` + schema + `}`
	}
	var many []string
	for i := range 81 {
		many = append(many, tool(fmt.Sprintf("t%d", i), `{"type": "object"}`))
	}
	mcp, _ := TableNamed("mcp")
	for _, tc := range []struct {
		name, bundle string
		client       string // the client the refusal is of
		code         string // its code when the bundle is made for the client
	}{
		{"array without items", `{"tools": [` + tool("tag", `{"type": "object", "properties": {"tags": {"type": "array"}}}`) + `]}`, "vscode", "accept.items-missing"},
		{"a dotted name", `{"tools": [` + tool("github.list", `{"type": "object"}`) + `]}`, "claude-desktop", "accept.name"},
		{"a name of 65", `{"tools": [` + tool(strings.Repeat("n", 65), `{"type": "object"}`) + `]}`, "claude-desktop", "accept.name"},
		{"81 tools", `{"tools": [` + strings.Join(many, ",") + `]}`, "cursor", "accept.tools"},
		// PROVIDERS.md, late November 2026, and the clients' trackers.
		{"an object without properties", `{"tools": [` + tool("t", `{"type": "object", "properties": {"o": {"type": "object"}}}`) + `]}`, "copilot-cli", "accept.properties-missing"},
		{"an object without properties, for Codex", `{"tools": [` + tool("t", `{"type": "object", "properties": {"o": {"type": "object", "additionalProperties": false}}}`) + `]}`, "codex", "accept.properties-missing"},
		{"an array without items, for Codex", `{"tools": [` + tool("t", `{"type": "object", "properties": {"a": {"type": "array", "items": [{"type": "string"}]}}}`) + `]}`, "codex", "accept.items-missing"},
		{"a $schema of 2020-12", `{"tools": [` + tool("t", `{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "properties": {}}`) + `]}`, "gemini-cli", "accept.keyword"},
		{"a $schema of 2020-12, for Augment", `{"tools": [` + tool("t", `{"$schema": "https://json-schema.org/draft/2020-12/schema#", "type": "object", "properties": {}}`) + `]}`, "augment", "accept.keyword"},
	} {
		bundle := parse(t, tc.bundle)
		if ds := Check(mcp, bundle, nil, "mcp", Options{}); len(ds) > 0 {
			t.Errorf("%s: the protocol refuses it: %v", tc.name, ds)
		}
		var advice []string
		for _, d := range Advise(mcp, bundle, nil, "mcp", nil, Options{}) {
			if d.Code != "accept.client" || d.Severity != diag.Warning {
				t.Errorf("%s: Advise gave %s %s", tc.name, d.Severity, d.Code)
			}
			if strings.Contains(d.Message, `clients = ["`+tc.client+`"]`) {
				advice = append(advice, d.Message)
			}
		}
		if len(advice) != 1 {
			t.Errorf("%s: advice naming %s = %q, want one", tc.name, tc.client, advice)
		} else if fixes := strings.Contains(advice[0], "makes a bundle"); fixes == (tc.code == "accept.tools") {
			// clients = [...] lowers a bundle for a client; it cannot
			// make a bundle of 81 tools one of 80: that takes a select.
			t.Errorf("%s: the advice %q; want it to name what makes a bundle %s takes", tc.name, advice[0], tc.client)
		} else if tc.code == "accept.tools" && !strings.Contains(advice[0], "select = {") {
			t.Errorf("%s: the advice %q names no select", tc.name, advice[0])
		}
		if ds := Advise(mcp, bundle, nil, "mcp", []string{tc.client}, Options{}); slices.ContainsFunc(ds, func(d diag.Diagnostic) bool {
			return strings.Contains(d.Message, `clients = ["`+tc.client+`"]`)
		}) {
			t.Errorf("%s: advice about %s, which the bundle is made for", tc.name, tc.client)
		}
		var got []string
		for _, d := range Check(mcp.ForClients([]string{tc.client}), bundle, nil, "mcp", Options{}) {
			got = append(got, d.Code)
		}
		if !slices.Equal(got, []string{tc.code}) {
			t.Errorf("%s: made for %s, Check = %v, want [%s]", tc.name, tc.client, got, tc.code)
		}
	}
}

// TestAcceptRefs: a reference resolves as JSON Schema says, through $id
// and $anchor too, in every table (PROVIDERS.md, late 2026: an MCP client
// or Anthropic passes such a schema on or resolves it); OpenAI also takes
// none but one to the root or a top-level definition (dotnet/extensions
// issue 6918).
func TestAcceptRefs(t *testing.T) {
	const byID = `{"type": "object", "properties": {"a": {"$ref": "item.json"}}, "$defs": {"i": {"$id": "item.json", "type": "string"}}}`
	const byAnchor = `{"type": "object", "properties": {"a": {"$ref": "#it"}}, "$defs": {"i": {"$anchor": "it", "type": "string"}}}`
	const inside = `{"type": "object", "properties": {"a": {"type": "string"}, "b": {"$ref": "#/properties/a"}}}`
	const topLevel = `{"type": "object", "properties": {"a": {"$ref": "#/$defs/i"}}, "$defs": {"i": {"type": "string"}}}`
	mcp := func(s string) string { return `{"tools": [{"name": "t", "inputSchema": ` + s + `}]}` }
	openai := func(s string) string {
		return `[{"type": "function", "function": {"name": "t", "parameters": ` + s + `}}]`
	}
	for _, tc := range []struct {
		table, bundle string
		refused       bool
	}{
		{"mcp", mcp(byID), false},
		{"mcp", mcp(byAnchor), false},
		{"anthropic", `[{"name": "t", "input_schema": ` + byID + `}]`, false},
		{"openai", openai(topLevel), false},
		{"openai", openai(inside), true},
		{"openai", openai(byID), true},
		{"mcp", mcp(`{"type": "object", "properties": {"a": {"$ref": "other.json"}}}`), true},
	} {
		tab, _ := TableNamed(tc.table)
		var got []string
		for _, d := range Check(tab, parse(t, tc.bundle), nil, tc.table, Options{}) {
			if d.Code == "accept.ref" {
				got = append(got, d.Message)
			}
		}
		if (len(got) > 0) != tc.refused {
			t.Errorf("Check(%s, %s): accept.ref %q, want refused %v", tc.table, tc.bundle, got, tc.refused)
		}
	}
}

// TestXAIToolLimit: xAI takes 200 tools in one request, OpenAI 128
// (issue 39; PROVIDERS.md, November 2026).
func TestXAIToolLimit(t *testing.T) {
	var tools []string
	for i := range 150 {
		tools = append(tools, fmt.Sprintf(`{"type": "function", "function": {"name": "t%d", "parameters": {"type": "object", "properties": {}}}}`, i))
	}
	bundle := parse(t, "["+strings.Join(tools, ",")+"]")
	for name, want := range map[string]bool{"openai": true, "openai-xai": false} {
		tab, _ := TableNamed(name)
		over := slices.ContainsFunc(Check(tab, bundle, nil, name, Options{}), func(d diag.Diagnostic) bool { return d.Code == "accept.tools" })
		if over != want {
			t.Errorf("%s with 150 tools: accept.tools %v, want %v", name, over, want)
		}
	}
}
