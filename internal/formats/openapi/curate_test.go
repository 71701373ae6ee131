package openapi_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/formats/openapi"
	"github.com/toolc-dev/toolc/internal/manifest"
)

const shop = `{"openapi":"3.1.0","x-mcp":true,"paths":{
 "/pets":{"get":{"operationId":"listPets","summary":"L","tags":["pets"]},
          "post":{"operationId":"createPet","summary":"C","tags":["pets","write"]}},
 "/pets/{id}":{"x-mcp":false,
          "get":{"operationId":"getPet","summary":"G","tags":["pets"]},
          "delete":{"operationId":"deletePet","summary":"D","tags":["pets"],"x-mcp":true}},
 "/admin/reset":{"post":{"operationId":"reset","summary":"R","x-speakeasy-mcp":{"disabled":true}}},
 "/stores":{"get":{"summary":"S","tags":["stores"]}}}}`

func names(t *testing.T, doc string, opts *openapi.Options) []string {
	t.Helper()
	v, err := canonical.ParseJSON([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	r := openapi.Read(v, "api.json", opts, nil)
	if diag.HasErrors(r.Diags) {
		t.Fatalf("errors: %v", r.Diags)
	}
	var out []string
	for _, tl := range r.Tools {
		out = append(out, tl.Name)
	}
	slices.Sort(out)
	return out
}

// TestSelect checks each selector and the order in which exclude, include
// and x-mcp decide.
func TestSelect(t *testing.T) {
	for _, c := range []struct {
		name string
		opts openapi.Options
		want string
	}{
		{"x-mcp alone: the path item's false, the operation's true, speakeasy's disabled", openapi.Options{},
			"createPet deletePet get_stores listPets"},
		{"tags: any of the list", openapi.Options{Include: openapi.Selectors{{Tags: []string{"write", "stores"}}}},
			"createPet get_stores"},
		{"lists together: each must match", openapi.Options{Include: openapi.Selectors{{Tags: []string{"pets"}, Methods: []string{"GET", "delete"}}}},
			"deletePet listPets"},
		{"a path glob with a template's braces", openapi.Options{Include: openapi.Selectors{{Paths: []string{"/pets/{id}"}}}},
			"deletePet"},
		{"a path glob over segments", openapi.Options{Include: openapi.Selectors{{Paths: []string{"/pets/**"}}}},
			"createPet deletePet listPets"},
		{"an operation named is on whatever x-mcp says", openapi.Options{Include: openapi.Selectors{{Operations: []string{"getPet", "POST /admin/reset"}}}},
			"getPet reset"},
		{"an operationId glob is not naming: x-mcp still decides", openapi.Options{Include: openapi.Selectors{{Operations: []string{"*Pet"}}}},
			"createPet deletePet"},
		{"exclude wins over include and over naming", openapi.Options{Include: openapi.Selectors{{Operations: []string{"getPet", "listPets"}}}, Exclude: openapi.Selector{Operations: []string{"getPet"}}},
			"listPets"},
		{"several include tables: any of them", openapi.Options{Include: openapi.Selectors{{Tags: []string{"pets"}, Methods: []string{"get"}}, {Operations: []string{"reset"}}}},
			"listPets reset"},
		{"each exclude list alone leaves out", openapi.Options{Exclude: openapi.Selector{Tags: []string{"stores"}, Methods: []string{"delete"}}},
			"createPet listPets"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := strings.Join(names(t, shop, &c.opts), " "); got != c.want {
				t.Errorf("got %s, want %s", got, c.want)
			}
		})
	}
}

// TestMatchedEntries checks that Read says which entries matched, so that
// a typo is reported.
func TestMatchedEntries(t *testing.T) {
	v, _ := canonical.ParseJSON([]byte(shop))
	opts := &openapi.Options{
		Include:    openapi.Selectors{{Tags: []string{"pets", "dogs"}}},
		Operations: map[string]openapi.Override{"listPets": {}, "POST /pets": {}, "nope": {}},
	}
	r := openapi.Read(v, "api.json", opts, nil)
	var unmatched []string
	for _, e := range opts.Entries() {
		if !r.Matched[e] {
			unmatched = append(unmatched, strings.Join(e.Parts(), ".")+" "+e.Value)
		}
	}
	if got, want := strings.Join(unmatched, ", "), `include.tags dogs, operations.nope nope`; got != want {
		t.Errorf("unmatched %s, want %s", got, want)
	}
	if s := r.Selection; s.Operations != 6 || s.Selected != 3 || s.NotIncluded != 2 || s.Off != 1 {
		t.Errorf("selection %+v", s)
	}
}

// TestHints checks the annotations from the method, under the
// description's and the manifest's.
func TestHints(t *testing.T) {
	doc := `{"openapi":"3.1.0","paths":{"/a":{
	 "get":{"operationId":"g","summary":"G"},
	 "delete":{"operationId":"d","summary":"D"},
	 "post":{"operationId":"p","summary":"P","x-openai-isConsequential":false},
	 "put":{"operationId":"u","summary":"U","x-speakeasy-mcp":{"annotations":{"idempotentHint":false,"openWorldHint":false,"title":"Up"}}},
	 "patch":{"operationId":"c","summary":"C","x-openai-isConsequential":true}}}}`
	v, _ := canonical.ParseJSON([]byte(doc))
	f := false
	r := openapi.Read(v, "api.json", &openapi.Options{Operations: map[string]openapi.Override{"g": {Annotations: openapi.Hints{OpenWorld: &f}}}}, nil)
	got := map[string]string{}
	for _, tl := range r.Tools {
		got[tl.Name] = string(tl.ToValue().Get("annotations").AppendJSON(nil, ""))
	}
	for name, want := range map[string]string{
		"g": `{"readOnlyHint":true,"openWorldHint":false}`,
		"d": `{"readOnlyHint":false,"destructiveHint":true,"idempotentHint":true}`,
		"p": `{"readOnlyHint":false,"destructiveHint":false}`,
		"u": `{"title":"Up","readOnlyHint":false,"idempotentHint":false,"openWorldHint":false}`,
		"c": `{"readOnlyHint":false,"destructiveHint":true}`,
	} {
		if got[name] != want {
			t.Errorf("%s: annotations %s, want %s", name, got[name], want)
		}
	}
}

// TestCheck checks what the options alone get wrong, each message starting
// with its key path.
func TestCheck(t *testing.T) {
	opts := openapi.Options{
		Include: openapi.Selectors{{Paths: []string{"pets/**", "/a/[b"}, Methods: []string{"fetch"}, Operations: []string{"GET /x", "[a"}}},
		Operations: map[string]openapi.Override{"GET /p": {Fixed: map[string]any{"a": 1}, Rename: map[string]string{"a": "b", "c": ""}},
			"POST /v1/{name}:cancel": {Rename: map[string]string{"d": ""}}}, // a colon in the key (Google's custom methods)
	}
	want := []string{
		`include.paths: "pets/**" is not a glob over path templates such as "/v1/customers/**"`,
		`include.paths: "/a/[b" is not a glob over path templates such as "/v1/customers/**"`,
		`include.methods: "fetch" is not an HTTP method (get, put, post, delete, options, head, patch, trace)`,
		`include.operations: "[a" is neither an operationId glob nor "METHOD /path"`,
		`operations."GET /p": "a" is both fixed and renamed`,
		`operations."GET /p".rename: "c" is renamed to nothing`,
		`operations."POST /v1/{name}:cancel".rename: "d" is renamed to nothing`,
	}
	var got []string
	for _, p := range opts.Check() {
		got = append(got, manifest.KeyPath(p.Key...)+": "+p.Message)
	}
	if !slices.Equal(got, want) {
		t.Errorf("Check:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// FuzzRead reads any description with options that select, override, fix
// and rename, and a loader that serves the same text under other names,
// so that $refs between files are followed: nothing may panic, and a tool
// that comes out has an input schema.
func FuzzRead(f *testing.F) {
	f.Add([]byte(shop))
	f.Add([]byte(`{"openapi":"3.0.0","paths":{"/a/{id}":{"parameters":[{"$ref":"b.json#/components/parameters/id"}],"post":{"operationId":"listPets","requestBody":{"content":{"text/plain":{}}},"responses":{"200":{"content":{"application/json":{"schema":{"$ref":"b.json#/components/schemas/A"}}}}}}}},"components":{"parameters":{"id":{"name":"id","in":"path","schema":{"type":"string","nullable":true}}},"schemas":{"A":{"type":"object","properties":{"a":{"$ref":"a.json#/components/schemas/A"},"limit":{"type":"integer"}}}}}}`))
	opts := &openapi.Options{
		Include: openapi.Selectors{{Tags: []string{"pets"}, Paths: []string{"/**"}}},
		Exclude: openapi.Selector{Methods: []string{"trace"}},
		Operations: map[string]openapi.Override{
			"listPets":     {Name: "list", Fixed: map[string]any{"limit": int64(3), "id": "x"}, Rename: map[string]string{"a": "b", "body": "payload"}},
			"POST /a/{id}": {Description: "d", Rename: map[string]string{"limit": "max"}},
		},
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := canonical.ParseJSON(data)
		if err != nil {
			return
		}
		load := func(name string) (*canonical.Value, []diag.Diagnostic) {
			v, err := canonical.ParseJSON(data)
			if err != nil || name == "c.json" {
				return nil, []diag.Diagnostic{diag.New("source.read", "no").At(name, "")}
			}
			return v, nil
		}
		for _, o := range []*openapi.Options{nil, opts} {
			d := doc.DeepCopy()
			r := openapi.Read(d, "api.json", o, load)
			for _, tl := range r.Tools {
				if tl.Input == nil {
					t.Fatalf("tool %s has no input schema", tl.Name)
				}
			}
		}
	})
}
