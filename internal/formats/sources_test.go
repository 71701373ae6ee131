package formats_test

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/toolc-dev/toolc/internal/corpus"
	"github.com/toolc-dev/toolc/internal/formats"
)

// TestDetectFormats checks that a typical file of every readable format is
// detected as that format.
func TestDetectFormats(t *testing.T) {
	reg := formats.Default()
	for _, c := range []struct{ want, in string }{
		{"openapi", `{"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {}}`},
		{"openapi", `{"swagger": "2.0", "paths": {}}`},
		{"gemini", `{"functionDeclarations": [{"name": "a", "parameters": {"type": "OBJECT"}}]}`},
		{"gemini", `{"tools": [{"functionDeclarations": [{"name": "a"}]}, {"googleSearch": {}}]}`},
		{"gemini", `[{"name": "a", "parametersJsonSchema": {"type": "object"}}]`},
		{"gemini", `[{"name": "a", "description": "d", "parameters": {"type": "OBJECT", "properties": {}}}]`},
		{"bedrock", `{"tools": [{"toolSpec": {"name": "a", "inputSchema": {"json": {"type": "object"}}}}, {"cachePoint": {"type": "default"}}]}`},
		{"bedrock", `{"modelId": "m", "toolConfig": {"tools": [{"toolSpec": {"name": "a", "inputSchema": {"json": {}}}}]}}`},
		{"bedrock", `{"name": "a", "inputSchema": {"json": {"type": "object"}}}`},
		{"openai-responses", `[{"type": "function", "name": "a", "parameters": {"type": "object"}, "strict": true}, {"type": "web_search"}]`},
		{"openai-responses", `{"model": "m", "tools": [{"type": "function", "name": "a", "parameters": null, "strict": false}]}`},
		{"openai", `[{"type": "function", "function": {"name": "a"}}]`},
		{"langchain", `{"tools": [{"name": "a", "description": "d", "args_schema": {"type": "object"}}]}`},
		{"langchain", `[{"name": "a", "args_json_schema": {"type": "object"}, "openai_tool": {"type": "function", "function": {"name": "a"}}}]`},
		{"canonical", `{"toolc": "canonical", "version": 1, "tools": []}`},
		{"mcp", `{"tools": [{"name": "a", "inputSchema": {"type": "object"}}]}`},
	} {
		if d := reg.Detect(parse(t, []byte(c.in))); d.Format != c.want {
			t.Errorf("Detect(%s) = %q, %v; want %s (%v)", c.in, d.Format, d.Err, c.want, d.Scores)
		}
	}
}

// TestDecodeSources checks where each new decoder finds tools, what it
// reads, and what it skips with which code.
func TestDecodeSources(t *testing.T) {
	for _, c := range []struct {
		format, in string
		want       []string // name@pointer=input
		codes      []string
	}{
		{"gemini", `{"tools": [{"functionDeclarations": [{"name": "a", "parameters": {"type": "OBJECT", "properties": {"n": {"type": "STRING", "nullable": true, "maxLength": "5"}, "k": {"type": "TYPE_UNSPECIFIED"}}}}]}, {"codeExecution": {}}]}`,
			[]string{`a@/tools/0/functionDeclarations/0={"type":"object","properties":{"n":{"type":["string","null"],"maxLength":5},"k":{}}}`},
			[]string{"source.unsupported-tool-type", "source.openapi-converted", "source.openapi-converted", "source.openapi-converted", "source.openapi-converted"}},
		{"gemini", `[{"name": "b", "description": "d", "parametersJsonSchema": {"type": "object", "properties": {"x": {"type": ["string", "null"]}}}, "responseJsonSchema": {"type": "object"}, "behavior": "NON_BLOCKING"}, {"name": "c"}]`,
			[]string{`b@/0={"type":"object","properties":{"x":{"type":["string","null"]}}}`, `c@/1={"type":"object","properties":{}}`}, nil},
		{"bedrock", `{"toolConfig": {"tools": [{"toolSpec": {"name": "a", "inputSchema": {"json": {"type": "object"}}, "strict": true}}, {"cachePoint": {"type": "default"}}, {"systemTool": {"name": "nova_grounding"}}], "toolChoice": {"auto": {}}}}`,
			[]string{`a@/toolConfig/tools/0={"type":"object"}`}, []string{"source.ignored-field", "source.unsupported-tool-type"}},
		{"bedrock", `{"name": "bare", "inputSchema": {"json": {"type": "object"}}}`, []string{`bare@={"type":"object"}`}, nil},
		{"openai-responses", `[{"type": "function", "name": "a", "parameters": null, "strict": false}, {"type": "file_search", "vector_store_ids": []}]`,
			[]string{`a@/0={"type":"object","properties":{}}`}, []string{"source.unsupported-tool-type"}},
		{"langchain", `{"tools": [{"name": "a", "description": "d", "args_schema": {"title": "AInput", "type": "object", "properties": {"q": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": null, "title": "Q"}}}, "return_direct": false},
			{"type": "function", "function": {"name": "b", "parameters": {"type": "object"}}},
			{"name": "c", "args_json_schema": {"type": "object"}, "openai_tool": {"type": "function", "function": {"name": "other", "parameters": {"type": "object"}}}}]}`,
			[]string{`a@/tools/0={"title":"AInput","type":"object","properties":{"q":{"anyOf":[{"type":"string"},{"type":"null"}],"default":null,"title":"Q"}}}`,
				`b@/tools/1={"type":"object"}`, `c@/tools/2={"type":"object"}`},
			[]string{"source.ignored-field"}},
	} {
		a, _ := formats.Default().Get(c.format)
		tools, ds := a.Decode(parse(t, []byte(c.in)), "f.json")
		var got, codes []string
		for _, tl := range tools {
			got = append(got, tl.Name+"@"+string(tl.Source.Pointer)+"="+string(tl.Input.JSON().AppendJSON(nil, "")))
		}
		for _, d := range ds {
			codes = append(codes, d.Code)
		}
		if !slices.Equal(got, c.want) || !slices.Equal(codes, c.codes) {
			t.Errorf("%s.Decode(%s)\n got %q, %q\nwant %q, %q\n%v", c.format, c.in, got, codes, c.want, c.codes, ds)
		}
	}
}

// TestLangChainCorpus imports the 33 LangChain.js tools of the corpus: each
// input schema is its args schema, unchanged.
func TestLangChainCorpus(t *testing.T) {
	data, err := os.ReadFile(corpus.Path(t, "langchain/langchainjs-community-tools.json"))
	if err != nil {
		t.Fatal(err)
	}
	doc := parse(t, data)
	reg := formats.Default()
	if d := reg.Detect(doc); d.Format != "langchain" {
		t.Errorf("Detect = %q, %v; want langchain", d.Format, d.Err)
	}
	tools, ds := formats.LangChain().Decode(doc, "langchain.json")
	for _, d := range ds {
		if d.Code != "source.ignored-field" || !strings.HasPrefix(d.Pointer, "/s") { // the dump's own "source" and "skipped"
			t.Errorf("%v", d)
		}
	}
	src := doc.Get("tools").Items()
	if len(tools) != 33 || len(src) != 33 {
		t.Fatalf("%d tools from %d, want 33", len(tools), len(src))
	}
	for i, tl := range tools {
		if want := src[i].Get("args_json_schema"); !tl.Input.JSON().Equal(want) || string(tl.Input.JSON().AppendJSON(nil, "")) != string(want.AppendJSON(nil, "")) {
			t.Errorf("%s: input differs from args_json_schema", tl.Name)
		}
		if mod, _ := tl.Extensions["langchain"].Get("module").StringValue(); mod == "" {
			t.Errorf("%s: module not kept", tl.Name)
		}
	}
	for _, d := range formats.CheckSchemas(tools) {
		t.Errorf("%v", d)
	}
}
