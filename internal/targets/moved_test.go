package targets

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/formats"
	"github.com/toolc-dev/toolc/internal/profile"
)

func TestOpenAIMissingParameters(t *testing.T) {
	res, err := allFormats().Convert(parse(t, []byte(`[{"name":"ping","description":"Ping."}]`)), "f.json", "openai", "openai", profile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"type":"function","function":{"name":"ping","description":"Ping.","parameters":{"type":"object","properties":{}}}}]`
	if got := string(res.Bundle.AppendJSON(nil, "")); got != want {
		t.Errorf("bundle = %s, want %s", got, want)
	}
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
	reg := allFormats()
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
				if b.target == nil {
					continue
				}
				for _, opts := range []profile.Options{{}, {Strict: &strict, Schema: "openapi", Describe: true}, {Strict: &strict, Auto: true}} {
					b.Emit(context.Background(), tools, b.Name, opts) // lowered, encoded and checked for acceptance
				}
			}
		}
	})
}

// TestConvertErrors: a conversion to a format no registry has, and of an
// input with errors, fail with errors that say which way.
func TestConvertErrors(t *testing.T) {
	r := &testRegistry{formats.NewRegistry(formats.MCP()), NewRegistry()}
	if _, err := r.Convert(parse(t, []byte(`[]`)), "f", "mcp", "openai", profile.Options{}); !errors.Is(err, formats.ErrUnknownFormat) {
		t.Errorf("Convert to unregistered = %v", err)
	}
	var ae *Error
	_, err := allFormats().Convert(parse(t, []byte(`[{"name":"x","inputSchema":1}]`)), "f", "mcp", "mcp", profile.Options{})
	if !errors.As(err, &ae) || ae.Direction != Decoding || ae.Adapter != "mcp" || !errors.Is(err, ErrInvalidInput) {
		t.Errorf("Convert of invalid input = %v", err)
	}
}
