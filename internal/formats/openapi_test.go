package formats_test

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/corpus"
	"github.com/toolc-dev/toolc/internal/emit"
	"github.com/toolc-dev/toolc/internal/formats"
	"github.com/toolc-dev/toolc/internal/formats/openapi"
	"github.com/toolc-dev/toolc/internal/profile"
	"github.com/toolc-dev/toolc/internal/validate"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata")

// decodeOpenAPIFile reads and decodes a corpus description.
func decodeOpenAPIFile(t *testing.T, rel string) ([]*canonical.Tool, []diag.Diagnostic, *canonical.Value) {
	t.Helper()
	data, err := os.ReadFile(corpus.Path(t, rel))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := formats.Parse(data, rel)
	if err != nil {
		t.Fatalf("formats.Parse(%s): %v", rel, err)
	}
	tools, ds := formats.OpenAPI().Decode(doc, filepath.Base(rel))
	return tools, ds, doc
}

// openAPIGoldens are the descriptions whose decoding testdata/openapi
// holds, by golden file name.
var openAPIGoldens = []struct{ name, file string }{
	{"petstore", "openapi/swagger-petstore/openapi.yaml"},
	{"museum", "openapi/redocly-museum/openapi.yaml"},
	{"notion", "openapi/notion/notion-openapi.json"},
}

// TestOpenAPIGoldensRead: every golden file of testdata/openapi is one a
// case of TestOpenAPIGolden reads; a stale one fails.
func TestOpenAPIGoldensRead(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "openapi", "*"))
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".golden")
		if !slices.ContainsFunc(openAPIGoldens, func(c struct{ name, file string }) bool { return c.name+".golden" == filepath.Base(f) }) {
			t.Errorf("%s is read by no test (TestOpenAPIGolden has no case %q): remove it", f, name)
		}
	}
	if len(files) == 0 {
		t.Fatal("no golden files in testdata/openapi")
	}
}

// TestOpenAPIGolden decodes three real descriptions and compares the tools
// (as a canonical bundle) and the diagnostics with testdata/openapi.
func TestOpenAPIGolden(t *testing.T) {
	for _, c := range openAPIGoldens {
		t.Run(c.name, func(t *testing.T) {
			tools, ds, doc := decodeOpenAPIFile(t, c.file)
			v := validate.New()
			for _, tl := range tools {
				ds = append(ds, v.Tool(tl)...)
			}
			if diag.HasErrors(ds) {
				t.Errorf("errors decoding %s: %v", c.file, ds)
			}
			var got bytes.Buffer
			got.Write(emit.Canonical(emit.Tools(tools), profile.Options{}).Indent())
			got.WriteString("\n# diagnostics\n")
			for _, d := range diag.Sort(ds) {
				pos := doc.PosOf(canonical.Pointer(d.Pointer))
				fmt.Fprintf(&got, "%d:%d %s %s: %s\n", pos.Line, pos.Column, d.Severity, d.Code, d.Text())
			}
			golden := filepath.Join("testdata", "openapi", c.name+".golden")
			if *update {
				if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./internal/adapters -update)", err)
			}
			if !bytes.Equal(got.Bytes(), want) {
				t.Errorf("%s differs from %s; run go test ./internal/adapters -update and review the diff", c.file, golden)
			}
		})
	}
}

// TestOpenAPINotionSnapshot compares the Notion tools with the snapshot of
// Notion's own OpenAPI-to-MCP converter in the corpus: the same tool
// names, properties and required properties. Notion's server sets the
// Notion-Version header itself and leaves header parameters out; toolc
// keeps them (the caller decides), so they are left out of the comparison.
func TestOpenAPINotionSnapshot(t *testing.T) {
	tools, _, _ := decodeOpenAPIFile(t, "openapi/notion/notion-openapi.json")
	snap, err := os.ReadFile(corpus.Path(t, "openapi/notion/notion-spec.snapshot.test.ts.snap"))
	if err != nil {
		t.Fatal(err)
	}
	_, defs, ok := strings.Cut(string(snap), "generates stable tool definitions")
	if !ok {
		t.Fatal("the snapshot has no tool definitions")
	}
	entry := regexp.MustCompile(`"name": "([^"]+)",\s*"properties": \[([^\]]*)\],\s*"required": \[([^\]]*)\]`)
	quoted := regexp.MustCompile(`"([^"]+)"`)
	list := func(s string) []string {
		var out []string
		for _, m := range quoted.FindAllStringSubmatch(s, -1) {
			out = append(out, m[1])
		}
		slices.Sort(out)
		return out
	}
	byName := map[string]*canonical.Tool{}
	for _, tl := range tools {
		byName[tl.Name] = tl
	}
	entries := entry.FindAllStringSubmatch(defs, -1)
	if len(entries) != len(tools) {
		t.Errorf("snapshot has %d tools, toolc made %d", len(entries), len(tools))
	}
	for _, e := range entries {
		tl := byName[e[1]]
		if tl == nil {
			t.Errorf("snapshot tool %q: toolc made no such tool", e[1])
			continue
		}
		var headers []string
		params := cmp.Or(tl.Backend.HTTP.Get("parameters"), canonical.NewArray())
		for _, p := range params.Items() {
			if in, _ := p.Get("in").StringValue(); in == "header" {
				h, _ := p.Get("property").StringValue()
				headers = append(headers, h)
			}
		}
		var props []string
		for name := range tl.Input.Properties() {
			if !slices.Contains(headers, name) {
				props = append(props, name)
			}
		}
		slices.Sort(props)
		req := slices.DeleteFunc(slices.Clone(tl.Input.Required()), func(s string) bool { return slices.Contains(headers, s) })
		slices.Sort(req)
		if want := list(e[2]); !slices.Equal(props, want) {
			t.Errorf("%s: properties %q, snapshot %q", e[1], props, want)
		}
		if want := list(e[3]); !slices.Equal(req, want) {
			t.Errorf("%s: required %q, snapshot %q", e[1], req, want)
		}
	}
}

// TestOpenAPIStripe decodes Stripe's description (468 operations, OpenAPI
// 3.0, form bodies) and checks every tool: valid schemas, a flattened
// body, and an output only where the response is small enough.
func TestOpenAPIStripe(t *testing.T) {
	corpus.Heavy(t)
	start := time.Now()
	tools, ds, _ := decodeOpenAPIFile(t, "openapi/stripe/spec3.2023-09-12.json")
	t.Logf("decoded %d Stripe operations in %v", len(tools), time.Since(start))
	if len(tools) != 468 {
		t.Errorf("decoded %d tools, want 468", len(tools))
	}
	v := validate.New()
	outputs := 0
	for _, tl := range tools {
		for _, d := range v.Tool(tl) {
			if d.Severity == diag.Error {
				t.Errorf("%s: %v", tl.Name, d)
			}
		}
		if tl.Output != nil {
			outputs++
		}
		http := tl.Backend.HTTP
		if m, _ := http.Get("method").StringValue(); m == "post" && http.Get("body") == nil {
			t.Errorf("%s: a POST without a body", tl.Name)
		}
	}
	counts := map[string]int{}
	for _, d := range ds {
		counts[d.Code]++
		if d.Severity == diag.Error {
			t.Errorf("decode: %v", d)
		}
	}
	t.Logf("%d tools with an output schema; diagnostics %v", outputs, counts)
	if counts["source.openapi-converted"] == 0 {
		t.Error("Stripe is OpenAPI 3.0 with nullable, yet nothing was reported as converted")
	}
	if outputs == 0 || outputs == len(tools) {
		t.Errorf("%d of %d tools have an output: the budget should keep the small ones and leave out the huge ones", outputs, len(tools))
	}
}

// TestOpenAPIExamples decodes the OpenAPI Initiative's examples: every 3.x
// one without errors, every Swagger 2.0 one with source.unsupported-version.
func TestOpenAPIExamples(t *testing.T) {
	dir := corpus.Path(t, "openapi/oai-examples/examples")
	var n int
	err := filepath.WalkDir(dir, func(path string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() || (filepath.Ext(path) != ".json" && filepath.Ext(path) != ".yaml") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		doc, err := formats.Parse(data, path)
		if err != nil {
			t.Errorf("formats.Parse(%s): %v", path, err)
			return nil
		}
		if openapi.Detect(doc) == 0 {
			return nil // a fragment of a split description
		}
		n++
		_, ds := formats.OpenAPI().Decode(doc, path)
		swagger := strings.Contains(path, "v2.0")
		for _, d := range ds {
			if d.Severity == diag.Error && !(swagger && d.Code == "source.unsupported-version") {
				t.Errorf("%s: %v", path, d)
			}
		}
		if swagger && !slices.ContainsFunc(ds, func(d diag.Diagnostic) bool { return d.Code == "source.unsupported-version" }) {
			t.Errorf("%s: Swagger 2.0 read without source.unsupported-version", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 20 {
		t.Errorf("read %d descriptions, want the 20-odd examples", n)
	}
}

// TestOpenAPIRules checks each mapping rule on a small description.
func TestOpenAPIRules(t *testing.T) {
	for _, c := range []struct {
		name, doc string
		want      map[string]string // tool name → canonical JSON of selected fields
		codes     []string
	}{
		{
			name: "names from operationId and from method and path",
			doc: `{"openapi":"3.1.0","paths":{"/repos/{owner}":{"get":{"operationId":"repos/get","responses":{}},
				"delete":{"responses":{}, "sumary": "a typo"}}}}`,
			want: map[string]string{
				"repos_get":          `{"description":"GET /repos/{owner}","input":{"type":"object","properties":{}}}`,
				"delete_repos_owner": `{"description":"DELETE /repos/{owner}","input":{"type":"object","properties":{}}}`,
			},
			codes: []string{"source.ignored-field"},
		},
		{
			name:  "two operations, one name",
			doc:   `{"openapi":"3.1.0","paths":{"/a":{"get":{"operationId":"x/y"}},"/b":{"get":{"operationId":"x_y"}}}}`,
			want:  map[string]string{"x_y": `{"description":"GET /a","input":{"type":"object","properties":{}}}`},
			codes: []string{"source.name-collision"},
		},
		{
			name: "parameters, path-level overridden, ignored headers, a name taken twice",
			doc: `{"openapi":"3.1.0","paths":{"/a/{id}":{
				"parameters":[{"name":"id","in":"path","schema":{"type":"string"}},{"name":"q","in":"query","schema":{"type":"integer"}}],
				"get":{"operationId":"g","parameters":[
					{"name":"q","in":"query","required":true,"description":"the query","deprecated":true,"example":3,"schema":{"type":"integer"}},
					{"name":"id","in":"header","schema":{"type":"string"}},
					{"name":"Accept","in":"header","schema":{"type":"string"}}]}}}}`,
			want: map[string]string{"g": `{"description":"GET /a/{id}","input":{"type":"object","properties":{"id":{"type":"string"},"q":{"type":"integer","description":"the query","deprecated":true,"examples":[3]},"header_id":{"type":"string"}},"required":["id","q"]}}`},
		},
		{
			name: "object body flattened, required merged, closed object kept closed",
			doc: `{"openapi":"3.1.0","paths":{"/a/{id}":{"post":{"operationId":"p","parameters":[{"name":"id","in":"path","required":true,"schema":{"type":"string"}}],
				"requestBody":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/A"}}}}}}},
				"components":{"schemas":{"A":{"type":"object","description":"an A","properties":{"n":{"$ref":"#/components/schemas/N"}},"required":["n"],"additionalProperties":false},"N":{"type":"number"},"Unused":{}}}}`,
			want: map[string]string{"p": `{"description":"POST /a/{id}","input":{"type":"object","description":"an A","properties":{"id":{"type":"string"},"n":{"$ref":"#/$defs/N"}},"required":["id","n"],"additionalProperties":false,"$defs":{"N":{"type":"number"}}}}`},
		},
		{
			name: "a body property named like a parameter: nested under body",
			doc: `{"openapi":"3.1.0","paths":{"/a":{"post":{"operationId":"p","parameters":[{"name":"n","in":"query","schema":{"type":"string"}}],
				"requestBody":{"required":true,"content":{"application/json":{"schema":{"type":"object","properties":{"n":{"type":"number"}}}}}}}}}}`,
			want: map[string]string{"p": `{"description":"POST /a","input":{"type":"object","properties":{"n":{"type":"string"},"body":{"type":"object","properties":{"n":{"type":"number"}}}},"required":["body"]}}`},
		},
		{
			name: "an array body is nested; a parameter named body gives way",
			doc: `{"openapi":"3.1.0","paths":{"/a":{"put":{"operationId":"p","parameters":[{"name":"body","in":"query","schema":{"type":"string"}}],
				"requestBody":{"content":{"application/json":{"schema":{"type":"array","items":{"type":"string"}}}}}}}}}`,
			want: map[string]string{"p": `{"description":"PUT /a","input":{"type":"object","properties":{"query_body":{"type":"string"},"body":{"type":"array","items":{"type":"string"}}}}}`},
		},
		{
			name: "an XML body is one string, its object schema left out with a warning; bytes are base64; a required body is required",
			doc: `{"openapi":"3.1.0","paths":{"/a":{"put":{"operationId":"p","requestBody":{"content":{"application/xml":{"schema":{"type":"object"}}}}},
				"post":{"operationId":"b","requestBody":{"required":true,"content":{"image/png":{"schema":{"type":"string","format":"binary","description":"The picture."}}}}}}}}`,
			want: map[string]string{
				"p": `{"description":"PUT /a","input":{"type":"object","properties":{"body":{"type":"string","description":"The request body, application/xml.","contentMediaType":"application/xml"}}}}`,
				"b": `{"description":"POST /a","input":{"type":"object","properties":{"body":{"type":"string","description":"The picture.","contentEncoding":"base64","contentMediaType":"image/png"}},"required":["body"]}}`,
			},
			// The XML body's object schema is left out, and said so; the
			// picture's string schema says nothing more than the body does.
			codes: []string{"source.openapi-skipped"},
		},
		{
			name: "output: lowest 2xx JSON object, with its definitions; allOf of objects is an object",
			doc: `{"openapi":"3.1.0","paths":{"/a":{"get":{"operationId":"g","responses":{"204":{"description":"none"},"201":{"$ref":"#/components/responses/R"},"200":{"description":"ok","content":{"text/plain":{"schema":{"type":"string"}}}}}}}},
				"components":{"responses":{"R":{"description":"r","content":{"application/json":{"schema":{"allOf":[{"$ref":"#/components/schemas/B"},{"type":"object"}]}}}}},
				"schemas":{"B":{"type":"object","properties":{"b":{"type":"string"}}}}}}`,
			want: map[string]string{"g": `{"description":"GET /a","input":{"type":"object","properties":{}},"output":{"type":"object","allOf":[{"$ref":"#/$defs/B"},{"type":"object"}],"$defs":{"B":{"type":"object","properties":{"b":{"type":"string"}}}}}}`},
		},
		{
			name:  "an array response is no output",
			doc:   `{"openapi":"3.1.0","paths":{"/a":{"get":{"operationId":"g","responses":{"200":{"content":{"application/json":{"schema":{"type":"array"}}}}}}}}}`,
			want:  map[string]string{"g": `{"description":"GET /a","input":{"type":"object","properties":{}}}`},
			codes: []string{"source.openapi-skipped"},
		},
		{
			name: "scopes from the operation's security, else the document's; tags and description",
			doc: `{"openapi":"3.1.0","security":[{"oauth":["read"]}],"paths":{"/a":{
				"get":{"operationId":"g","summary":"Get an a","description":"Long text.","tags":["A","b"]},
				"post":{"operationId":"p","summary":"Make","description":"Make an a.","security":[{"oauth":["write","read"]},{"key":[]}]}}}}`,
			want: map[string]string{
				"g": `{"description":"Get an a\n\nLong text.","tags":["A","b"],"input":{"type":"object","properties":{}},"scopes":["read"]}`,
				"p": `{"description":"Make an a.","input":{"type":"object","properties":{}},"scopes":["write","read"]}`,
			},
		},
		{
			name: "OpenAPI 3.0 keywords become 2020-12",
			doc: `{"openapi":"3.0.3","paths":{"/a":{"post":{"operationId":"p","requestBody":{"content":{"application/json":{"schema":{"type":"object","properties":{
				"s":{"type":"string","nullable":true,"enum":["a"]},
				"u":{"anyOf":[{"type":"string"}],"nullable":true},
				"r":{"$ref":"#/components/schemas/R"},
				"x":{"type":"number","minimum":1,"exclusiveMinimum":true,"maximum":9,"exclusiveMaximum":false,"example":2}}}}}}}}},
				"components":{"schemas":{"R":{"nullable":true,"description":"no type"}}}}`,
			want:  map[string]string{"p": `{"description":"POST /a","input":{"type":"object","properties":{"s":{"type":["string","null"],"enum":["a",null]},"u":{"anyOf":[{"type":"string"},{"type":"null"}]},"r":{"$ref":"#/$defs/R"},"x":{"type":"number","exclusiveMinimum":1,"maximum":9,"examples":[2]}},"$defs":{"R":{"description":"no type"}}}}`},
			codes: []string{"source.openapi-converted", "source.openapi-converted", "source.openapi-converted", "source.openapi-converted", "source.openapi-converted"},
		},
		{
			name: "a parameter in another file is left out, the tool kept; a $ref to nothing is an error",
			doc: `{"openapi":"3.1.0","paths":{"/a":{"get":{"operationId":"g","parameters":[{"$ref":"common.yaml#/P"},{"name":"q","in":"query","schema":{"type":"string"}}]},
				"post":{"operationId":"p","parameters":[{"$ref":"#/components/parameters/Missing"}]}}}}`,
			want:  map[string]string{"g": `{"description":"GET /a","input":{"type":"object","properties":{"q":{"type":"string"}}}}`},
			codes: []string{"source.openapi-skipped", "source.invalid"},
		},
		{
			name:  "Swagger 2.0",
			doc:   `{"swagger":"2.0","paths":{}}`,
			codes: []string{"source.unsupported-version"},
		},
		{
			name: "a $ref into a parameter's schema becomes a definition of its own",
			doc: `{"openapi":"3.1.0","paths":{"/a":{"get":{"operationId":"g","parameters":[{"$ref":"#/components/parameters/P"},{"name":"q","in":"query","schema":{"$ref":"#/components/parameters/P/schema"}}]}}},
				"components":{"parameters":{"P":{"name":"p","in":"query","schema":{"type":"integer"}}}}}`,
			want: map[string]string{"g": `{"description":"GET /a","input":{"type":"object","properties":{"p":{"type":"integer"},"q":{"$ref":"#/$defs/components.parameters.P.schema"}},"$defs":{"components.parameters.P.schema":{"type":"integer"}}}}`},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			tools, ds := formats.OpenAPI().Decode(parse(t, []byte(c.doc)), "api.json")
			got := map[string]string{}
			for _, tl := range tools {
				v := tl.ToValue()
				sel := canonical.NewObject()
				for _, k := range []string{"description", "tags", "input", "output", "scopes"} {
					if x := v.Get(k); x != nil {
						sel.Set(k, x)
					}
				}
				got[tl.Name] = string(sel.AppendJSON(nil, ""))
			}
			for name, want := range c.want {
				if got[name] != want {
					t.Errorf("tool %s:\n got %s\nwant %s", name, got[name], want)
				}
			}
			if len(got) != len(c.want) {
				t.Errorf("tools %v, want %d", slices.Sorted(maps.Keys(got)), len(c.want))
			}
			var codes []string
			for _, d := range ds {
				// What reading does by default to every operation has
				// tests of its own (the curate tests of package openapi).
				if d.Code != "source.openapi-hints" && d.Code != "source.openapi-described" {
					codes = append(codes, d.Code)
				}
			}
			if !slices.Equal(codes, c.codes) {
				t.Errorf("codes %q, want %q (%v)", codes, c.codes, ds)
			}
		})
	}
}

// TestOpenAPIHTTPBinding checks that what a caller needs to make the request
// is the tool's provider backend (issue 30: it was the openapi extension).
func TestOpenAPIHTTPBinding(t *testing.T) {
	doc := `{"openapi":"3.1.0","servers":[{"url":"https://api.example.com"}],"paths":{"/a/{id}":{"post":{"operationId":"p","summary":"P","deprecated":true,"x-rate":5,
		"parameters":[{"name":"id","in":"path","required":true,"style":"simple","schema":{"type":"string"}}],
		"requestBody":{"required":true,"content":{"application/x-www-form-urlencoded":{"schema":{"type":"object","properties":{"n":{"type":"string"}}}}}}}}}}`
	tools, ds := formats.OpenAPI().Decode(parse(t, []byte(doc)), "api.json")
	if len(tools) != 1 || len(notInfo(ds)) > 0 {
		t.Fatalf("decode: %d tools, %v", len(tools), ds)
	}
	got := string(tools[0].Backend.ToValue().AppendJSON(nil, ""))
	want := `{"kind":"provider","http":{"method":"post","path":"/a/{id}","operationId":"p","parameters":[{"name":"id","in":"path","property":"id","style":"simple"}],"body":{"mediaType":"application/x-www-form-urlencoded","required":true,"flattened":true},"servers":[{"url":"https://api.example.com"}],"deprecated":true,"x-rate":5}}`
	if got != want {
		t.Errorf("backend\n got %s\nwant %s", got, want)
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, emit.Canonical(emit.Tools(tools), profile.Options{}).Indent()); err != nil || !strings.Contains(buf.String(), `"backend":{"kind":"provider","http"`) {
		t.Errorf("the canonical bundle lacks the binding: %v %s", err, buf.String())
	}
	mcp, _ := profile.Of("mcp")
	low := mcp.Lower(context.Background(), tools, "mcp", profile.Options{})
	if len(low.All()) > 0 || low.Tools[0].Backend != nil || low.Tools[0].Extensions["openapi"] != nil {
		t.Errorf("the MCP target keeps or reports the binding: %v", low.All())
	}
}

// TestOpenAPIParamAnnotationsKept checks that what a parameter says about
// its value and its schema does not say already is kept: on the schema when
// there is room, in the binding otherwise.
func TestOpenAPIParamAnnotationsKept(t *testing.T) {
	doc := `{"openapi":"3.1.0","paths":{"/a/{id}":{"get":{"operationId":"g","summary":"G","parameters":[
		{"name":"id","in":"path","required":true,"description":"The account to read.","example":"acct_1","schema":{"$ref":"#/components/schemas/Id"}},
		{"name":"q","in":"query","description":"Same text.","schema":{"type":"string","description":"Same text."}}]}}},
		"components":{"schemas":{"Id":{"type":"string","description":"An ID.","examples":["x_1"]}}}}`
	tools, ds := formats.OpenAPI().Decode(parse(t, []byte(doc)), "api.json")
	if len(tools) != 1 || len(notInfo(ds)) > 0 {
		t.Fatalf("decode: %d tools, %v", len(tools), ds)
	}
	in := string(tools[0].Input.JSON().AppendJSON(nil, ""))
	if want := `{"type":"object","properties":{"id":{"$ref":"#/$defs/Id","description":"The account to read.","examples":["acct_1"]},"q":{"type":"string","description":"Same text."}},"required":["id"],"$defs":{"Id":{"type":"string","description":"An ID.","examples":["x_1"]}}}`; in != want {
		t.Errorf("input\n got %s\nwant %s", in, want)
	}
	doc = strings.Replace(doc, `"schema":{"$ref":"#/components/schemas/Id"}`, `"schema":{"type":"string","description":"An ID.","examples":["x_1"]}`, 1)
	tools, _ = formats.OpenAPI().Decode(parse(t, []byte(doc)), "api.json")
	got := string(tools[0].Backend.HTTP.Get("parameters").AppendJSON(nil, ""))
	if want := `[{"name":"id","in":"path","property":"id","description":"The account to read.","examples":["acct_1"]},{"name":"q","in":"query","property":"q"}]`; got != want {
		t.Errorf("binding parameters\n got %s\nwant %s", got, want)
	}
}

// notInfo drops the infos of ds.
func notInfo(ds []diag.Diagnostic) []diag.Diagnostic {
	return slices.DeleteFunc(slices.Clone(ds), func(d diag.Diagnostic) bool { return d.Severity == diag.Info })
}
